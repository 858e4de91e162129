#!/usr/bin/env python3
"""A tiny random-mover Hub engine, used to test selfplay.py without Polydam.

It is also an executable statement of how pydraughts 0.6.7's `pos` lines must be
read, because it decodes the `pos=` string with its own mapping (below) and only
then uses pydraughts to generate moves in each variant's own numbering. If the
mapping were wrong, the moves it answers would be illegal for pydraughts and
selfplay.py would fail.

    python3 fake_engine.py [--seed N] [--bug KIND --bug-ply P]

KIND (fault injection, to test selfplay.py's failure paths) happens when the
`pos` line holds exactly P moves (pydraughts always sends the whole game):
    illegal      answer a legal-looking but illegal move
    nocaptures   print a capture without its captured squares (28x19)
    hang         never answer the `go`
    crash        exit with status 3
    stray        print a non-protocol line before `done`
    badinfo      print an `info` line with a bare flag (crashes pydraughts)
"""

import argparse
import random
import shlex
import sys

import draughts

# Engine variant names (as in Polydam's rules/) -> pydraughts variant names.
ENGINE_TO_PYDRAUGHTS = {
    "international": "standard",
    "normal": "standard",
    "standard": "standard",
    "russian": "russian",
    "brazilian": "brazilian",
    "english": "english",
    "italian": "italian",
}


def pos_char_to_square(variant, i):
    """pos string character i (1-based) -> square number in the variant's own numbering.

    pydraughts sends its internal board: square 1 is the top-left playable square
    (b8 on 8x8, a8 for Italian), rows of 4 (or 5) left to right, top to bottom;
    the first player ('W', 'w') sits on the high numbers.
    """
    if variant in ("russian", "brazilian"):
        # own numbering: 1 = a1, 2 = c1, 3 = e1, 4 = g1, 5 = b2, ..., 32 = h8:
        # same order inside a row, rows flipped.
        row, k = divmod(i - 1, 4)
        return 4 * (7 - row) + k + 1
    if variant == "english":
        return 33 - i  # and the colours are swapped, see below
    return i  # standard (international), italian


def decode_pos(variant, pos):
    """Hub pos string -> a FEN in the variant's own numbering and real colours."""
    n = 50 if variant == "standard" else 32
    if len(pos) != n + 1:
        raise ValueError(f"pos has {len(pos)} characters, expected {n + 1}")
    side, body = pos[0], pos[1:]
    swap = {"w": "b", "b": "w", "W": "B", "B": "W", "e": "e"}
    if variant == "english":
        # pydraughts' internal White is English Black (who moves first).
        side = swap[side]
        body = "".join(swap[c] for c in body)
    white, black = [], []
    for i, c in enumerate(body, start=1):
        sq = pos_char_to_square(variant, i)
        if c in "wW":
            white.append(("K" if c == "W" else "") + str(sq))
        elif c in "bB":
            black.append(("K" if c == "B" else "") + str(sq))
        elif c != "e":
            raise ValueError(f"bad character {c!r}")
    return f"{side}:W{','.join(white)}:B{','.join(black)}"


def parse_args_line(rest):
    out = {}
    for tok in shlex.split(rest):
        if "=" in tok:
            k, v = tok.split("=", 1)
            out[k] = v
        else:
            out[tok] = True
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bug", default=None)
    ap.add_argument("--bug-ply", type=int, default=5)
    ap.add_argument("mode", nargs="?", default="hub")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    variant = "standard"
    board = draughts.Board(variant)
    out = sys.stdout

    def say(line):
        out.write(line + "\n")
        out.flush()

    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        cmd, _, rest = line.partition(" ")
        args = parse_args_line(rest)
        if cmd == "hub":
            say('id name=FakeHub version=0.1 author="selfplay test" country=NL')
            say('param name=variant value=international type=enum values="international russian brazilian english italian"')
            say("param name=hash value=1 type=int min=1 max=4")
            say("wait")
        elif cmd == "set-param":
            if args.get("name") == "variant":
                v = args.get("value", "")
                if v in ENGINE_TO_PYDRAUGHTS:
                    variant = ENGINE_TO_PYDRAUGHTS[v]
                    board = draughts.Board(variant)
                else:
                    say(f'error message="unknown variant: {v}"')
        elif cmd == "init":
            say("ready")
        elif cmd == "ping":
            say("pong")
        elif cmd == "pos":
            try:
                if "start" in args:
                    b = draughts.Board(variant)
                else:
                    b = draughts.Board(variant, fen=decode_pos(variant, args["pos"]))
                for m in str(args.get("moves", "")).split():
                    b.push(draughts.Move(b, hub_move=m))  # moves: variant's own numbering
                board = b
            except Exception as e:  # noqa: BLE001
                say(f'error message="bad position: {type(e).__name__} {e}"')
        elif cmd == "go":
            ply = len(board.move_stack)
            legal = board.legal_moves()
            if a.bug and ply == a.bug_ply:
                if a.bug == "hang":
                    continue
                if a.bug == "crash":
                    sys.exit(3)
                if a.bug == "stray":
                    say("debug: thinking hard")
                if a.bug == "badinfo":
                    say("info depth=1 lowerbound")
                if a.bug == "illegal":
                    say("done move=1-50")
                    continue
                if a.bug == "nocaptures":
                    caps = [m for m in legal if m.captures]
                    if caps:
                        m = caps[0]
                        say(f"done move={m.board_move[0][0]}x{m.board_move[-1][1]}")
                        continue
            if not legal:
                say("done move=0-0")
                continue
            m = rng.choice(legal)
            say(f"info depth=1 score=0.00 nodes={len(legal)} time=0.000 nps=0.00 pv={m.hub_move}")
            say(f"done move={m.hub_move}")
        elif cmd == "quit":
            return
        # level, new-game, stop, ponder-hit: nothing to do


if __name__ == "__main__":
    main()
