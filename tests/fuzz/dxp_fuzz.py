#!/usr/bin/env python3
"""Fuzzes `polydam dxp` as a listener with random and damaged DamExchange messages.

    python3 tests/fuzz/dxp_fuzz.py --polydam target/debug/polydam [--seconds 45] [--seed 1]

Python 3.11 standard library only; all traffic goes to 127.0.0.1. The script starts
`polydam dxp --listen 127.0.0.1:0` (a follower that serves connections one at a time, with a
short `--timeout` and `--game-limit` so that no connection can hold it long), then until
`--seconds` have passed opens connection after connection, each one a random scenario drawn
from `--seed`:

- garbage: random bytes (NULs, bytes over 127, control characters, escape sequences), sent in
  random pieces;
- mutants: well-formed messages of every type (GAMEREQ, GAMEACC, MOVE, GAMEEND, CHAT, BACKREQ,
  BACKACC) with characters replaced, cut, repeated or appended;
- games: a GAMEREQ (sometimes with a random position) followed by random MOVEs, CHATs,
  BACKREQs, GAMEENDs and mutants, as a confused opponent would send them;
- floods: many CHATs or long runs without a NUL;
- cuts: a message closed in its middle, or the writing side shut down early.

Between scenarios (every few connections, and at the end) a sane client plays the start of a
real game: GAMEREQ, the acceptance, 32-28, Polydam's answer, GAMEEND and its confirmation. The
run fails (exit 1) when the server exits, writes `panicked`, or does not serve the sane client
within its bound. The last line is the figures: connections, messages, bytes, sane games,
whether the server is alive, and `N passed, M failed` (the sane checks).
"""

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time

HOST = "127.0.0.1"
KINDS = b"RAMECBK"


def pad_name(name, length=32):
    return name[:length].ljust(length, b" ")


def gamereq(rng, with_position=None):
    """A well-formed GAMEREQ; Polydam's colour and the position drawn at random."""
    colour = rng.choice(b"WZ")
    minutes = b"%03d" % rng.choice([0, 0, 1, 5, 999])
    moves = b"%03d" % rng.choice([0, 0, 1, 50, 999])
    if with_position is None:
        with_position = rng.random() < 0.3
    if not with_position:
        return b"R01" + pad_name(b"Fuzz") + bytes([colour]) + minutes + moves + b"A"
    squares = bytes(rng.choice(b"eeeeezwZW") for _ in range(50))
    return (b"R01" + pad_name(b"Fuzz") + bytes([colour]) + minutes + moves + b"B"
            + bytes([rng.choice(b"WZ")]) + squares)


def move(rng):
    """A MOVE of the right shape with random squares and captures."""
    captures = rng.choice([0, 0, 0, 1, 2, 5, 20])
    body = b"M%04d%02d%02d%02d" % (rng.randrange(10000), rng.randrange(100), rng.randrange(100),
                                   captures)
    return body + b"".join(b"%02d" % rng.randrange(100) for _ in range(captures))


def valid_message(rng):
    kind = rng.choice("RAMECBK")
    if kind == "R":
        return gamereq(rng)
    if kind == "A":
        return b"A" + pad_name(b"Fuzz") + bytes([rng.choice(b"0123")])
    if kind == "M":
        return move(rng)
    if kind == "E":
        return b"E" + bytes([rng.choice(b"0123")]) + bytes([rng.choice(b"01")])
    if kind == "C":
        return b"C" + random_text(rng, rng.randrange(0, 140))
    if kind == "B":
        return b"B%03d%c" % (rng.randrange(1000), rng.choice(b"WZ"))
    return b"K" + bytes([rng.choice(b"012")])


def random_text(rng, n):
    alphabet = (b"abcxyz 0123456789-=\"'\\[]{};:\x1b\x07\r\n\t\x7f"
                + bytes(range(1, 32)))
    return bytes(rng.choice(alphabet) for _ in range(n))


def garbage(rng):
    n = rng.choice([0, 1, 2, 5, 40, 127, 128, 200, 1000, 5000])
    return bytes(rng.randrange(256) for _ in range(n))


def mutate(rng, message):
    m = bytearray(message)
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(6)
        if op == 0 and m:
            m[rng.randrange(len(m))] = rng.randrange(256)
        elif op == 1 and m:
            del m[rng.randrange(len(m)):]
        elif op == 2:
            m += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30)))
        elif op == 3 and m:
            i = rng.randrange(len(m))
            m[i:i] = m[i:i + rng.randrange(1, 10)] * rng.randrange(1, 5)
        elif op == 4 and m:
            m[0] = rng.choice(KINDS + b"XZ\0 ")
        elif op == 5 and m:
            i = rng.randrange(len(m))
            m[i] = rng.choice(b"0123456789 -WZeABzwZ")
    return bytes(m)


class Stats:
    def __init__(self):
        self.connections = 0
        self.messages = 0
        self.bytes = 0
        self.sane = 0
        self.failures = []


def drain(sock, seconds):
    """Reads what the server says for up to `seconds` (its answers are not checked)."""
    end = time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return True
        sock.settimeout(left)
        try:
            data = sock.recv(65536)
        except socket.timeout:
            return True
        except OSError:
            return False
        if not data:
            return False


def send_all(sock, data, rng, stats):
    """Sends `data` in random pieces; False when the server has closed the connection."""
    i = 0
    while i < len(data):
        n = rng.choice([1, 2, 7, 64, len(data)])
        try:
            sock.sendall(data[i:i + n])
        except OSError:
            return False
        stats.bytes += min(n, len(data) - i)
        i += n
    return True


def scenario(port, rng, stats):
    """One fuzz connection."""
    try:
        sock = socket.create_connection((HOST, port), timeout=10)
    except OSError as e:
        stats.failures.append("cannot connect for a fuzz scenario: %s" % e)
        return
    stats.connections += 1
    kind = rng.choice(["garbage", "mutants", "game", "game", "flood", "cut"])
    try:
        if kind == "garbage":
            for _ in range(rng.randrange(1, 20)):
                data = garbage(rng) + (b"\0" if rng.random() < 0.7 else b"")
                stats.messages += 1
                if not send_all(sock, data, rng, stats):
                    break
        elif kind == "mutants":
            for _ in range(rng.randrange(1, 30)):
                data = mutate(rng, valid_message(rng)) + b"\0"
                stats.messages += 1
                if not send_all(sock, data, rng, stats):
                    break
                if rng.random() < 0.2 and not drain(sock, 0.02):
                    break
        elif kind == "game":
            stats.messages += 1
            if send_all(sock, gamereq(rng) + b"\0", rng, stats):
                drain(sock, 0.05)
                for _ in range(rng.randrange(1, 40)):
                    pick = rng.random()
                    if pick < 0.5:
                        data = move(rng)
                    elif pick < 0.8:
                        data = valid_message(rng)
                    else:
                        data = mutate(rng, valid_message(rng))
                    stats.messages += 1
                    if not send_all(sock, data + b"\0", rng, stats):
                        break
                    if rng.random() < 0.3 and not drain(sock, 0.05):
                        break
        elif kind == "flood":
            if rng.random() < 0.5:
                burst = b"".join(b"C" + random_text(rng, rng.randrange(0, 127)) + b"\0"
                                 for _ in range(rng.randrange(100, 2000)))
                stats.messages += burst.count(b"\0")
            else:
                burst = bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1000, 200000)))
                stats.messages += 1
            send_all(sock, burst, rng, stats)
        else:
            data = valid_message(rng)
            stats.messages += 1
            send_all(sock, data[:rng.randrange(len(data) + 1)], rng, stats)
            if rng.random() < 0.5:
                try:
                    sock.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                drain(sock, 0.1)
        if rng.random() < 0.5:
            drain(sock, rng.choice([0.0, 0.05, 0.2]))
    finally:
        sock.close()


class Sane:
    """A well-behaved client, to check that the server still serves."""

    def __init__(self, port, bound):
        self.sock = socket.create_connection((HOST, port), timeout=bound)
        self.sock.settimeout(bound)
        self.buf = b""

    def recv(self):
        while b"\0" not in self.buf:
            data = self.sock.recv(4096)
            if not data:
                raise RuntimeError("connection closed")
            self.buf += data
        message, self.buf = self.buf.split(b"\0", 1)
        return message

    def expect(self, kind):
        while True:
            m = self.recv()
            if m[:1] == kind:
                return m
            if m[:1] != b"C":
                raise RuntimeError("expected %r, got %r" % (kind, m[:40]))


def sane_game(port, bound):
    """GAMEREQ, GAMEACC, 32-28, Polydam's MOVE, GAMEEND, GAMEEND; raises on a failure."""
    c = Sane(port, bound)
    try:
        c.sock.sendall(b"R01" + pad_name(b"Sane client") + b"Z000000A\0")
        acc = c.expect(b"A")
        if not acc.endswith(b"0"):
            raise RuntimeError("game refused: %r" % acc)
        c.sock.sendall(b"M0001322800\0")
        c.expect(b"M")
        c.sock.sendall(b"E00\0")
        c.expect(b"E")
    finally:
        c.sock.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--polydam", required=True, help="the polydam program")
    parser.add_argument("--seconds", type=float, default=45.0, help="how long to fuzz")
    parser.add_argument("--seed", type=int, default=1, help="the random seed")
    parser.add_argument("--sane-every", type=int, default=25,
                        help="fuzz connections between two sane games")
    args = parser.parse_args()
    if args.seconds <= 0:
        parser.error("--seconds must be above 0")
    rng = random.Random(args.seed)
    stats = Stats()
    timeout = 2
    # The longest a sane client may wait: the server may still be finishing the previous
    # connection (at most its --timeout or --game-limit) before it accepts this one.
    bound = 30.0
    tmp = tempfile.mkdtemp(prefix="dxp-fuzz-")
    pdn = os.path.join(tmp, "fuzz.pdn")
    server = subprocess.Popen(
        [args.polydam, "dxp", "--listen", "%s:0" % HOST, "--depth", "1", "--hash", "1",
         "--timeout", str(timeout), "--game-limit", "10", "--pdn", pdn],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = server.stdout.readline().decode("utf-8", "replace").strip()
    if not first.startswith("listening on %s:" % HOST):
        server.kill()
        sys.exit("dxp_fuzz.py: polydam dxp did not listen: %r" % first)
    port = int(first.rsplit(":", 1)[1])
    output = {"stdout": 0, "stderr": 0, "panicked": False}

    def pump(stream, name):
        for line in stream:
            output[name] += 1
            if b"panicked" in line:
                output["panicked"] = True

    pumps = [threading.Thread(target=pump, args=(server.stdout, "stdout"), daemon=True),
             threading.Thread(target=pump, args=(server.stderr, "stderr"), daemon=True)]
    for t in pumps:
        t.start()

    passed = 0
    started = time.monotonic()

    def check_sane(when):
        nonlocal passed
        if server.poll() is not None:
            stats.failures.append("%s: the server exited with status %s" % (when, server.returncode))
            return False
        try:
            sane_game(port, bound)
        except (OSError, RuntimeError) as e:
            stats.failures.append("%s: a sane client was not served: %s" % (when, e))
            return False
        stats.sane += 1
        passed += 1
        return True

    ok = check_sane("at the start")
    while ok and time.monotonic() - started < args.seconds:
        scenario(port, rng, stats)
        if server.poll() is not None:
            stats.failures.append("after connection %d: the server exited with status %s"
                                  % (stats.connections, server.returncode))
            break
        if stats.connections % args.sane_every == 0:
            ok = check_sane("after connection %d" % stats.connections)
    if not stats.failures:
        check_sane("at the end")
    alive = server.poll() is None
    if alive:
        server.kill()
    server.wait()
    for t in pumps:
        t.join(timeout=5)
    if output["panicked"]:
        stats.failures.append("the server wrote 'panicked'")
    elapsed = time.monotonic() - started
    for f in stats.failures:
        print("FAIL " + f)
    print("dxp_fuzz: seed %d, %.0f s: %d connections, %d messages, %d bytes, %d sane games, "
          "server alive: %s, %d lines on stdout, %d on stderr"
          % (args.seed, elapsed, stats.connections, stats.messages, stats.bytes, stats.sane,
             "yes" if alive else "no", output["stdout"], output["stderr"]))
    failed = len(stats.failures)
    print("%d passed, %d failed" % (passed, failed))
    try:
        os.remove(pdn)
        os.rmdir(tmp)
    except OSError:
        pass
    return 1 if failed or not alive else 0


if __name__ == "__main__":
    sys.exit(main())
