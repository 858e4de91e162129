#!/usr/bin/env python3
"""Compares the legal moves of pydraughts and Polydam in random positions.

    python3 tests/pydraughts/compare_moves.py [--polydam target/release/polydam]
        [--variants standard,russian,brazilian,english,italian] [--games 20] [--seed 1]
        [--min-positions N]

Plays random games in pydraughts; in every position it asks `polydam moves` for
the legal moves of the same position (given as pydraughts' own FEN, which
Polydam reads in the card numbering: identical for standard, English and
Italian, algebraic for Russian and Brazilian) and compares the two sets, after
mapping Polydam's card squares to pydraughts' own numbering (the rank flip for
Russian and Brazilian). Frisian and Frysk! positions carry the king-move
counters, which a FEN without Lidraughts' counter field does not: for them the
game's start and every move so far are sent instead (`--fen START --moves ...`),
as a Hub client does. Prints every disagreement with its position and exits 1
if there is any, or if fewer than --min-positions positions of a variant were
compared. For Frisian and Frysk! it also counts the positions with a king on the
board and those where the side to move has a king that has just made three
quiet moves in a row (the king-move limit's positions).
"""

import argparse
import random
import subprocess
import sys

import draughts

ENGINE_NAME = {"standard": "international", "frysk!": "frysk"}
# Variants whose positions need their history (Frisian's king-move counters).
WITH_HISTORY = {"frisian", "frysk!"}


def rank_flip(n):
    r, k = divmod(n - 1, 4)
    return 4 * (7 - r) + k + 1


def to_own(variant, move):
    """A Polydam Hub-form move (card numbering) in pydraughts' own numbering, as a
    canonical key: (from, to, sorted captured)."""
    sep = "x" if "x" in move else "-"
    squares = [int(s) for s in move.split(sep)]
    if variant in ("russian", "brazilian"):
        squares = [rank_flip(s) for s in squares]
    return (squares[0], squares[1], tuple(sorted(squares[2:])))


def key_of(move):
    sep = "x" if "x" in move else "-"
    squares = [int(s) for s in move.split(sep)]
    return (squares[0], squares[1], tuple(sorted(squares[2:])))


def king_limited(board):
    """Whether the side to move's last three moves were quiet moves of one king (a chain
    a-b, b-c, c-d of `-` moves ending on a king): Frisian's limit then applies to it."""
    stack = [m.hub_move for m in board.move_stack]
    if len(stack) < 6:
        return False
    own = [stack[-6], stack[-4], stack[-2]]
    if any("-" not in m for m in own):
        return False
    steps = [tuple(int(s) for s in m.split("-")) for m in own]
    if not (steps[0][1] == steps[1][0] and steps[1][1] == steps[2][0]):
        return False
    return steps[2][1] in kings_of_side_to_move(board.fen)


def kings_of_side_to_move(fen):
    """The king squares of the side to move in a PDN FEN such as `W:WK46,50:B1`."""
    side, *fields = fen.split(":")
    kings = set()
    for field in fields:
        if field[:1] == side[:1]:
            for item in field[1:].split(","):
                if item.startswith("K") and item[1:].isdigit():
                    kings.add(int(item[1:]))
    return kings


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--polydam", default="target/release/polydam")
    ap.add_argument("--variants", default="standard,russian,brazilian,english,italian")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-positions", type=int, default=0,
                    help="fail if fewer positions of a variant were compared")
    opts = ap.parse_args()
    rng = random.Random(opts.seed)
    bad = 0
    for variant in opts.variants.split(","):
        positions = 0
        with_kings = 0
        limited = 0
        for _ in range(opts.games):
            board = draughts.Board(variant=variant)
            for _ in range(opts.max_plies):
                legal = board.legal_moves()
                theirs = sorted(set(key_of(m.hub_move) for m in legal))
                if variant in WITH_HISTORY:
                    where = ["--fen", board.initial_fen,
                             "--moves", " ".join(m.hub_move for m in board.move_stack)]
                else:
                    where = ["--fen", board.fen]
                out = subprocess.run([opts.polydam, "moves", "--variant", ENGINE_NAME.get(variant, variant)]
                                     + where, capture_output=True, text=True)
                if out.returncode != 0:
                    print(f"[{variant}] polydam refused {board.fen}: {out.stderr.strip()}")
                    bad += 1
                    break
                ours = sorted(set(to_own(variant, m) for m in out.stdout.split()))
                positions += 1
                if variant in WITH_HISTORY:
                    with_kings += "K" in board.fen
                    limited += king_limited(board)
                if ours != theirs and not board.is_over():
                    bad += 1
                    only_ours = sorted(set(ours) - set(theirs))
                    only_theirs = sorted(set(theirs) - set(ours))
                    moves = " ".join(m.hub_move for m in board.move_stack)
                    print(f"[{variant}] {board.fen}" + (f" (start {board.initial_fen}, moves {moves})"
                                                        if variant in WITH_HISTORY else "")
                          + f"\n    only Polydam: {only_ours}\n    only pydraughts: {only_theirs}")
                if not legal or board.is_over():
                    break
                board.push(rng.choice(legal))
        extra = (f" ({with_kings} with kings, {limited} with a king after three quiet moves)"
                 if variant in WITH_HISTORY else "")
        print(f"[{variant}] {positions} positions compared{extra}", flush=True)
        if positions < opts.min_positions:
            print(f"[{variant}] fewer than {opts.min_positions} positions compared")
            bad += 1
    print(f"{bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
