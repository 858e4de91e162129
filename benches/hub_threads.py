#!/usr/bin/env python3
"""Time limits against thread counts: for each thread count, how far a `go think` with
`level move-time=T` overruns T, and how long `stop` takes to bring `done` in a `go analyze`.

Drives the real binary through pipes, so process and pipe latency are included, as a GUI
sees them:

    cargo build --profile test --bin polydam
    python3 benches/hub_threads.py [--bin target/debug/polydam] [--threads 1,2,8,16,64]
                                   [--rounds 20] [--move-time 0.1]

Each round sets a middle-game International position, then (a) `level move-time=T`,
`go think`, and times `go` to `done`; (b) `go analyze` with `level infinite`, waits 50-150 ms,
sends `stop` and times it to `done`. Prints median and maximum per thread count, in ms.
"""
import argparse
import os
import subprocess
import time

POSITIONS = [
    "pos start",
    'pos start moves="32-28 19-23 28x19x23 14x23x19 37-32 10-14 41-37 5-10 31-27 17-21"',
    "pos fen=W:W27,28,32,33,34,37,38,39,40,42,43,44,45,47,48:B6,8,9,11,12,13,14,16,17,18,19,21,22,23,24",
]


class Engine:
    def __init__(self, binary, threads):
        self.p = subprocess.Popen([binary, "hub"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send(f"set-param name=threads value={threads}")
        self.send("init")
        self.wait("ready")

    def send(self, line):
        t = time.perf_counter()
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        return t

    def wait(self, word):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            if line.split(" ", 1)[0].strip() == word:
                return time.perf_counter()

    def close(self):
        self.send("quit")
        self.p.wait(timeout=30)


def stats(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2], xs[-1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/debug/polydam")
    ap.add_argument("--threads", default="1,2,8,16,64")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--move-time", type=float, default=0.1)
    a = ap.parse_args()
    print(f"{a.bin}, {a.rounds} rounds, move-time {a.move_time} s, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    print("| threads | move-time overrun median / max (ms) | stop to done median / max (ms) |")
    print("|---|---|---|")
    for n in [int(x) for x in a.threads.split(",")]:
        e = Engine(a.bin, n)
        over, stop = [], []
        for r in range(a.rounds):
            e.send(POSITIONS[r % len(POSITIONS)])
            e.send(f"level move-time={a.move_time}")
            t = e.send("go think")
            over.append((e.wait("done") - t - a.move_time) * 1e3)
            e.send(POSITIONS[r % len(POSITIONS)])
            e.send("level infinite")
            e.send("go analyze")
            time.sleep(0.05 + 0.1 * ((r * 37) % 11) / 10)
            t = e.send("stop")
            stop.append((e.wait("done") - t) * 1e3)
        e.close()
        om, ox = stats(over)
        sm, sx = stats(stop)
        print(f"| {n} | {om:.1f} / {ox:.1f} | {sm:.1f} / {sx:.1f} |", flush=True)


if __name__ == "__main__":
    main()
