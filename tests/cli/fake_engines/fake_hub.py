"""A fake Hub engine for the `polydam match` tests; its misbehaviour is the first argument.

- illegal: answers every `go` with `done move=50-45`, which looks like a move but is never
  legal early in an International game (White's 45 is occupied; Black owns no man on 50).
- crash:   exits with status 3 when told to `go`.
- silent:  never answers `go` (it keeps reading until it is killed).
- nomove:  answers `go` with a bare `done`.
"""

import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "illegal"


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    command = words[0]
    if command == "hub":
        say("id name=fake-%s version=1" % MODE)
        say("param name=variant value=international type=enum values=\"international\"")
        say("wait")
    elif command == "init":
        say("ready")
    elif command == "ping":
        say("pong")
    elif command == "go":
        if MODE == "crash":
            sys.exit(3)
        elif MODE == "silent":
            continue
        elif MODE == "nomove":
            say("done")
        else:
            say("info depth=1 score=0.00")
            say("done move=50-45")
    elif command == "quit":
        break
