#!/usr/bin/env python3
"""Compares the legal moves of pydraughts and Polydam in random positions.

    python3 tests/pydraughts/compare_moves.py [--polydam target/release/polydam]
        [--variants standard,russian,brazilian,english,italian] [--games 20] [--seed 1]

Plays random games in pydraughts; in every position it asks `polydam moves` for
the legal moves of the same position (given as pydraughts' own FEN, which
Polydam reads in the card numbering: identical for standard, English and
Italian, algebraic for Russian and Brazilian) and compares the two sets, after
mapping Polydam's card squares to pydraughts' own numbering (the rank flip for
Russian and Brazilian). Prints every disagreement with its position and exits 1
if there is any.
"""

import argparse
import random
import subprocess
import sys

import draughts

ENGINE_NAME = {"standard": "international"}


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--polydam", default="target/release/polydam")
    ap.add_argument("--variants", default="standard,russian,brazilian,english,italian")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    opts = ap.parse_args()
    rng = random.Random(opts.seed)
    bad = 0
    for variant in opts.variants.split(","):
        positions = 0
        for _ in range(opts.games):
            board = draughts.Board(variant=variant)
            for _ in range(opts.max_plies):
                legal = board.legal_moves()
                theirs = sorted(set(key_of(m.hub_move) for m in legal))
                out = subprocess.run([opts.polydam, "moves", "--variant", ENGINE_NAME.get(variant, variant),
                                      "--fen", board.fen], capture_output=True, text=True)
                if out.returncode != 0:
                    print(f"[{variant}] polydam refused {board.fen}: {out.stderr.strip()}")
                    bad += 1
                    break
                ours = sorted(set(to_own(variant, m) for m in out.stdout.split()))
                positions += 1
                if ours != theirs and not board.is_over():
                    bad += 1
                    only_ours = sorted(set(ours) - set(theirs))
                    only_theirs = sorted(set(theirs) - set(ours))
                    print(f"[{variant}] {board.fen}\n    only Polydam: {only_ours}\n    only pydraughts: {only_theirs}")
                if not legal or board.is_over():
                    break
                board.push(rng.choice(legal))
        print(f"[{variant}] {positions} positions compared", flush=True)
    print(f"{bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
