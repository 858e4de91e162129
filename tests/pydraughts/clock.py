#!/usr/bin/env python3
"""Clock-safety benchmark: engine-vs-engine games under a real game clock.

    python3 tests/pydraughts/clock.py [--engine "target/release/polydam hub"]
        [--games 200] [--time 2] [--inc 0.1] [--variants standard,russian,...]

Two engine processes (one per side) play complete games judged by pydraughts
(the rules, the end of the game and the legality of every move). Each side has a
Fischer clock of --time seconds plus --inc per move. Before every move the side
to move is sent, as a Hub GUI does,

    pos pos=<initial position> moves="<whole game>"
    level time=<time left> inc=<increment>
    go think

and the time from writing `pos` to reading `done` (wall clock on this side of
the pipe, so process and pipe latency count against the engine) is taken off its
clock; then the increment is added. A clock below zero is a loss on time.

Prints one line per game and a summary: losses on time, the worst margin (the
least time left on any clock right after a move, before the increment), the
longest think and the mean think. Exits 1 if any game was lost on time or any
move was illegal.
"""

import argparse
import os
import random
import shlex
import subprocess
import sys
import time

import draughts

ENGINE_NAME = {"standard": "international"}


class Engine:
    def __init__(self, argv, variant):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.send("hub")
        self.wait_for("wait")
        self.send(f"set-param name=variant value={ENGINE_NAME.get(variant, variant)}")
        self.send("init")
        self.wait_for("ready")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, word):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("engine closed its output")
            line = line.strip()
            if line.split(" ", 1)[0] == word:
                return line
            if line.startswith("error"):
                raise RuntimeError(line)

    def close(self):
        try:
            self.send("quit")
            self.p.stdin.close()
            self.p.wait(timeout=5)
        except Exception:  # noqa: BLE001
            self.p.kill()
            self.p.wait()
        self.p.stdout.close()


def play(board, engines, opts, rng):
    clocks = [opts.time, opts.time]
    worst = float("inf")
    longest = 0.0
    thinks = []
    ply = 0
    for _ in range(opts.random_plies):
        if board.is_over():
            break
        board.push(rng.choice(board.legal_moves()))
        ply += 1
    while not board.is_over() and ply < opts.max_plies:
        side = ply % 2
        eng = engines[side]
        moves = " ".join(m.hub_move for m in board.move_stack)
        pos = f"pos pos={board._game.initial_hub_fen}" + (f' moves="{moves}"' if moves else "")
        t0 = time.monotonic()
        eng.send(pos)
        eng.send(f"level time={clocks[side]} inc={opts.inc}")
        eng.send("go think")
        done = eng.wait_for("done")
        elapsed = time.monotonic() - t0
        clocks[side] -= elapsed
        worst = min(worst, clocks[side])
        longest = max(longest, elapsed)
        thinks.append(elapsed)
        if clocks[side] < 0:
            return "time", ply, worst, longest, thinks
        best = done.split()[1].split("=", 1)[1]
        move = draughts.Move(board, hub_move=best)
        legal = [m for m in board.legal_moves() if m.board_move == move.board_move]
        if len(legal) != 1:
            return f"illegal move {best}", ply, worst, longest, thinks
        board.push(legal[0])
        clocks[side] += opts.inc
        ply += 1
    return "ok", ply, worst, longest, thinks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="target/release/polydam hub")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--time", type=float, default=2.0)
    ap.add_argument("--inc", type=float, default=0.1)
    ap.add_argument("--variants", default="standard")
    ap.add_argument("--random-plies", type=int, default=4)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    opts = ap.parse_args()
    argv = shlex.split(opts.engine)
    variants = [v for v in opts.variants.split(",") if v]
    rng = random.Random(opts.seed)
    bad = 0
    worst_all = float("inf")
    longest_all = 0.0
    all_thinks = []
    started = time.monotonic()
    for g in range(opts.games):
        variant = variants[g % len(variants)]
        engines = [Engine(argv, variant), Engine(argv, variant)]
        try:
            status, plies, worst, longest, thinks = play(draughts.Board(variant=variant), engines, opts, rng)
        finally:
            for e in engines:
                e.close()
        worst_all = min(worst_all, worst)
        longest_all = max(longest_all, longest)
        all_thinks += thinks
        if status != "ok":
            bad += 1
        print(f"game {g + 1} [{variant}]: {status}, {plies} plies, worst margin {worst:.3f}s, "
              f"longest think {longest:.3f}s", flush=True)
    mean = sum(all_thinks) / max(1, len(all_thinks))
    print(f"{opts.games} games, {len(all_thinks)} moves, {bad} lost on time or illegal; "
          f"worst margin {worst_all:.3f}s; longest think {longest_all:.3f}s; mean think {mean:.3f}s; "
          f"wall {time.monotonic() - started:.0f}s; load {os.getloadavg()[0]:.2f}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
