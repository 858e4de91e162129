"""A fake Hub engine for the `polydam match` tests; its misbehaviour is the first argument.

- illegal: answers every `go` with `done move=50-45`, which looks like a move but is never
  legal early in an International game (White's 45 is occupied; Black owns no man on 50).
- crash:   exits with status 3 when told to `go`.
- silent:  never answers `go` (it keeps reading until it is killed).
- nomove:  answers `go` with a bare `done`.
- flood:   answers `go` with `info` lines without end (never `done`).
- longline: answers `go` with one line without end (never a line break).
- twice:   answers its first `go` with a legal first move for its side, then, 1 s later, a
  second `done` with another first move (stale: it must never be taken as the next move); it
  never answers a later `go`.

With FAKE_HUB_LOG set, each `go` appends `go <seconds since the epoch>` to that file.
- spawn:   starts a child process (`sleep 600`) in its process group at `hub`, appends the
  child's pid to the file named by the environment variable FAKE_HUB_PIDS, and never answers
  `go`: killing the engine must kill the child too.
"""

import os
import re
import subprocess
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "illegal"
# Two first moves per side (International): legal whatever the opponent played first.
FIRST_MOVES = {"W": ("32-28", "33-29"), "B": ("19-23", "17-21")}
side = "W"
answered = 0


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    command = words[0]
    if command == "hub":
        if MODE == "spawn":
            helper = subprocess.Popen(["sleep", "600"])
            with open(os.environ["FAKE_HUB_PIDS"], "a") as pids:
                pids.write("%d\n" % helper.pid)
        say("id name=fake-%s version=1" % MODE)
        say("param name=variant value=international type=enum values=\"international\"")
        say("wait")
    elif command == "init":
        say("ready")
    elif command == "ping":
        say("pong")
    elif command == "pos":
        # The side to move: the start position's (its first letter), flipped by each move.
        start = re.search(r"pos=(\S)", raw)
        moves = re.search(r'moves="([^"]*)"', raw) or re.search(r"moves=(\S+)", raw)
        side = start.group(1).upper() if start else "W"
        if moves and len(moves.group(1).split()) % 2 == 1:
            side = "B" if side == "W" else "W"
    elif command == "go":
        if os.environ.get("FAKE_HUB_LOG"):
            with open(os.environ["FAKE_HUB_LOG"], "a") as log:
                log.write("go %.3f\n" % time.time())
        if MODE == "crash":
            sys.exit(3)
        elif MODE in ("silent", "spawn"):
            continue
        elif MODE == "flood":
            while True:
                sys.stdout.write("info depth=1 score=0.00 pv=\"32-28 19-23 33-29\"\n" * 1000)
        elif MODE == "longline":
            sys.stdout.write("info ")
            while True:
                sys.stdout.write("x" * 65536)
        elif MODE == "twice":
            answered += 1
            if answered > 1:
                continue
            first, stale = FIRST_MOVES.get(side, FIRST_MOVES["W"])
            say("done move=%s" % first)
            time.sleep(1.0)
            say("done move=%s" % stale)
        elif MODE == "nomove":
            say("done")
        else:
            say("info depth=1 score=0.00")
            say("done move=50-45")
    elif command == "quit":
        break
