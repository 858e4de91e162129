#!/usr/bin/env python3
"""pydraughts' DXPEngine (a real DamExchange client) playing complete games against
`polydam dxp`, every engine move checked legal by pydraughts' rules.

    python3 tests/pydraughts/dxp_client.py --polydam target/debug/polydam
        [--games 6] [--depth 4] [--seed 1] [--max-plies 300] [--move-timeout 60]

Needs the packages in requirements.txt (pydraughts 0.6.7). The script starts
`polydam dxp --listen 127.0.0.1:0 --connections N` (a follower on a free port,
which it reads from `listening on ...`) and plays N games, one DXPEngine (one
connection) per game, as a pydraughts program does: `DXPEngine.play(board)`
sends the GAMEREQ on its first call (position `B` with the side to move, the
follower's colour, the game time in minutes) and then the client's last move,
and returns Polydam's move as a pydraughts Move found among pydraughts' legal
moves (an illegal one is never returned: the call would hang, which the
watchdog reports). The client's own moves are random legal moves (seeded).

pydraughts' `play()` sends the client's move only before the engine's turn, so
when the client's move ends the game, the script sends it through the same
client (`engine.sender.send_move`) and waits for Polydam's GAMEEND, so that
Polydam sees the end of the game as pydraughts did. Then `engine.quit()`
(GAMEEND, then a socket close that sleeps 7 s, so it runs in the background).

Checks: every engine move is one of pydraughts' legal moves; Polydam exits with
status 0 (no protocol fault in any game) after the N connections; Polydam's PDN
holds N games whose moves have the same from and to squares as pydraughts' and,
where both have one, the same result.

Prints one line per game and a final `N passed, M failed`; exits 1 on any
failure, 2 on bad usage.
"""

import argparse
import logging
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

try:
    import draughts
    from draughts.engine import DXPEngine  # (importing draughts.engines.dxp first is circular)
except ImportError:  # pragma: no cover
    sys.stderr.write("dxp_client.py needs pydraughts: pip install -r tests/pydraughts/requirements.txt\n")
    sys.exit(2)

# (engine colour, start position or None, game time in seconds for GAMEREQ)
GAMES = [
    (draughts.WHITE, None, 0),
    (draughts.BLACK, None, 0),
    (draughts.BLACK, "W:W28,31,32,33,36,37,38,39,40,41,42,43,45:B6,8,9,11,12,13,14,16,17,18,19,20,24", 60),
    (draughts.WHITE, "B:W27,28,32,33,34,36,38,42,43,47:B3,7,8,9,12,13,14,17,19,22", 0),
]
RESULT = {draughts.WHITE: "2-0", draughts.BLACK: "0-2", 0: "1-1"}


class Failure(Exception):
    pass


def call_with_timeout(fn, args, seconds, what):
    """Runs fn(*args) in a thread; raises Failure if it does not return in time."""
    box = {}

    def run():
        try:
            box["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001
            box["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        raise Failure(f"no answer within {seconds:g} s during {what}")
    if "error" in box:
        raise Failure(f"{what} raised {box['error']!r}")
    return box.get("value")


def squares(text):
    return [int(x) for x in re.findall(r"\d+", text)]


def read_pdn(path):
    """The games of Polydam's PDN file: (tags, moves)."""
    games = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            tag = re.match(r'\[(\w+) "(.*)"\]', line)
            if tag:
                if tag.group(1) == "Event":
                    games.append(({}, []))
                games[-1][0][tag.group(1)] = tag.group(2)
            elif line and games:
                games[-1][1].extend(t for t in line.split()
                                    if not t.endswith(".") and t not in ("2-0", "0-2", "1-1", "*"))
    return games


def play_game(number, engine_colour, fen, game_time, port, rng, opts, quitters):
    board = draughts.Board(variant="standard", fen=fen) if fen else draughts.Board(variant="standard")
    engine = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": port}, initial_time=game_time)
    who = "white" if engine_colour == draughts.WHITE else "black"
    try:
        while not board.is_over() and len(board.move_stack) < opts.max_plies:
            ply = len(board.move_stack) + 1
            if board.turn == engine_colour:
                result = call_with_timeout(engine.play, (board,), opts.move_timeout, f"game {number} ply {ply}")
                mv = result.move if result is not None else None
                if mv is None:
                    raise Failure(f"game {number} ply {ply}: no move from Polydam")
                legal = [m.pdn_move for m in board.legal_moves()]
                if mv.pdn_move not in legal:
                    raise Failure(f"game {number} ply {ply}: {mv.pdn_move} is not legal ({' '.join(legal)})")
                board.push(mv)
            else:
                board.push(rng.choice(board.legal_moves()))
        if board.is_over() and board.turn == engine_colour and board.move_stack:
            # The client's move ended the game: let Polydam see it and end the game itself.
            engine.sender.send_move(board.move_stack[-1])
            until = time.time() + 10
            while engine.sender.current.started and time.time() < until:
                time.sleep(0.01)
            if engine.sender.current.started:
                raise Failure(f"game {number}: no GAMEEND from Polydam after the last move")
    finally:
        q = threading.Thread(target=engine.quit, daemon=True)
        q.start()
        quitters.append(q)
    winner = board.winner() if board.is_over() else None
    return board, who, winner


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--polydam", default="target/release/polydam")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--move-timeout", type=float, default=60.0)
    opts = ap.parse_args()
    if not (os.path.isfile(opts.polydam) and os.access(opts.polydam, os.X_OK)):
        ap.error(f"not an executable: {opts.polydam}")
    if not 1 <= opts.games <= len(GAMES) * 10:
        ap.error("--games must be from 1 to 40")
    logging.basicConfig(level=logging.CRITICAL)

    pdn = tempfile.NamedTemporaryFile(prefix="polydam-dxp-", suffix=".pdn", delete=False).name
    os.unlink(pdn)
    cmd = [opts.polydam, "dxp", "--listen", "127.0.0.1:0", "--connections", str(opts.games),
           "--depth", str(opts.depth), "--hash", "16", "--timeout", "30", "--pdn", pdn]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    out_lines, err_text = [], []

    def kill():
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    first = call_with_timeout(proc.stdout.readline, (), 30, "polydam dxp start")
    m = re.match(r"listening on 127\.0\.0\.1:(\d+)", first or "")
    if not m:
        kill()
        print(f"polydam dxp did not listen: {first!r} {proc.stderr.read()}")
        return 1
    port = int(m.group(1))
    threading.Thread(target=lambda: out_lines.extend(proc.stdout), daemon=True).start()
    threading.Thread(target=lambda: err_text.append(proc.stderr.read()), daemon=True).start()

    passed, failed, boards, quitters = 0, 0, [], []
    for i in range(opts.games):
        colour, fen, game_time = GAMES[i % len(GAMES)]
        rng = random.Random(opts.seed * 1000 + i)
        started = time.time()
        try:
            board, who, winner = play_game(i + 1, colour, fen, game_time, port, rng, opts, quitters)
        except Failure as e:
            print(f"FAIL game {i + 1}: {e}")
            failed += 1
            kill()
            time.sleep(0.5)
            print("    polydam dxp's last lines:\n" + "".join("      " + x for x in out_lines[-8:]))
            print("    its errors:\n" + "".join(err_text))
            break
        boards.append((board, winner))
        outcome = RESULT.get(winner, "unfinished") if board.is_over() else f"capped at {opts.max_plies} plies"
        print(f"game {i + 1}: Polydam {who}, {len(board.move_stack)} plies, {outcome} ({time.time() - started:.1f} s)")
        passed += 1

    try:
        code = proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        kill()
        code = None
    time.sleep(0.2)
    if failed == 0:
        problems = []
        if code != 0:
            problems.append(f"polydam dxp exit status {code}: {''.join(err_text).strip()}")
        games = read_pdn(pdn) if os.path.exists(pdn) else []
        if len(games) != len(boards):
            problems.append(f"Polydam's PDN holds {len(games)} games, not {len(boards)}")
        for n, ((tags, moves), (board, winner)) in enumerate(zip(games, boards), 1):
            theirs = [(m.steps_move[0], m.steps_move[-1]) for m in board.move_stack]
            ours = [(squares(t)[0], squares(t)[-1]) for t in moves]
            if ours != theirs:
                problems.append(f"game {n}: Polydam's PDN moves differ from pydraughts' game")
            if tags.get("Result") not in ("*", None) and board.is_over() and tags["Result"] != RESULT.get(winner):
                problems.append(f"game {n}: Polydam says {tags['Result']} ({tags.get('Termination')}), "
                                f"pydraughts {RESULT.get(winner)}")
        for p in problems:
            print("FAIL " + p)
        failed += len(problems)
        if not problems:
            print(f"polydam dxp: exit status 0; its PDN holds the {len(games)} games as pydraughts played them")
    kill()
    try:
        os.unlink(pdn)
    except OSError:
        pass
    print(f"{passed} passed, {failed} failed")
    # The quitting clients sleep 7 s in their socket close; nothing waits for them.
    os._exit(1 if failed else 0)


if __name__ == "__main__":
    sys.exit(main())
