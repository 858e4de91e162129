#!/usr/bin/env python3
"""Engine-vs-itself games through pydraughts' HubEngine, checking every move.

    python3 tests/pydraughts/selfplay.py [--engine "target/release/polydam hub"]
        [--variants standard,russian,brazilian,english,italian]
        [--games-per-variant 1] [--movetime 0.05] [--max-plies 300]

Needs the packages in requirements.txt (pydraughts 0.6.7). Each game is played
by one engine process talking to the real `draughts.engine.HubEngine` exactly as
a pydraughts client does: `hub`, `set-param name=variant value=V`, `init`, then
per move `pos pos=<initial position> moves="<whole game>"`, `level move-time=S`,
`go think`, and `HubEngine.play()` turns the `done` reply into a pydraughts
Move, which fails unless it is one of pydraughts' legal moves. A game ends when
pydraughts says it is over (no legal move, or one of its draw rules) or at
--max-plies (counted as finished). Every engine call runs under a watchdog that
kills the engine's process group, so the script never hangs.

Prints one line per game and a final `N passed, M failed`; exits 1 on any
failure, 2 on bad usage.
"""

import argparse
import collections
import logging
import os
import random
import shlex
import shutil
import signal
import sys
import threading
import time

try:
    import draughts
    from draughts.engine import HubEngine, Limit
except ImportError:  # pragma: no cover
    sys.stderr.write("selfplay.py needs pydraughts: pip install -r tests/pydraughts/requirements.txt\n")
    sys.exit(2)

# pydraughts variant name -> the name the engine is told with set-param. Lidraughts and its
# bots send `frisian` for Frysk! too (the position says which start it is).
ENGINE_VARIANT_NAME = {"standard": "international", "frysk!": "frisian"}
PYDRAUGHTS_VARIANTS = ["standard", "russian", "brazilian", "english", "italian",
                       "frisian", "frysk!", "antidraughts", "breakthrough", "turkish"]
RESULT = {2: "1-0 (white wins)", 1: "0-1 (black wins)", 0: "draw"}


class GameFailure(Exception):
    pass


class EngineTimeout(Exception):
    pass


class WarningCollector(logging.Handler):
    """Collects pydraughts' 'Unexpected engine response ...' warnings."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())

    def take(self):
        out, self.messages = self.messages, []
        return out


class GuardedHubEngine(HubEngine):
    """HubEngine plus a transcript of the last lines and a kill switch."""

    def __init__(self, command, start_timeout):
        self.p = None
        self.transcript = collections.deque(maxlen=12)
        self.last_go = None  # (bestmove, pondermove) strings of the last done
        try:
            with Watchdog(self, start_timeout, "startup (hub ... wait)"):
                super().__init__(command)
        except BaseException:
            self.close(polite=False)
            raise

    def send(self, line):
        self.transcript.append("<< " + line)
        super().send(line)

    def recv(self):
        line = super().recv()
        self.transcript.append(">> " + line)
        return line

    def go(self, *args, **kwargs):
        self.last_go = None
        self.last_go = super().go(*args, **kwargs)
        return self.last_go

    def kill(self):
        if self.p is None:
            return
        try:
            os.killpg(self.p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def close(self, polite=True):
        """quit, then make sure the process is gone."""
        if self.p is None:
            return
        try:
            if polite and self.p.poll() is None:
                self.quit()
                self.p.stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass
        try:
            self.p.wait(timeout=5)
        except Exception:  # noqa: BLE001
            pass
        self.kill()
        try:
            self.p.wait(timeout=5)
        except Exception:  # noqa: BLE001
            pass
        for f in (self.p.stdout, self.p.stdin):
            try:
                f.close()
            except Exception:  # noqa: BLE001
                pass

    def tail(self):
        return "\n".join("      " + x for x in self.transcript)

    # HubEngine.__init__ sets self.p only after hub() returns; grab it earlier.
    def _open_process(self, *args, **kwargs):
        self.p = super()._open_process(*args, **kwargs)
        return self.p


class Watchdog:
    """Kills the engine if the block takes longer than `seconds`."""

    def __init__(self, engine, seconds, what):
        self.engine, self.seconds, self.what = engine, seconds, what
        self.fired = False

    def _fire(self):
        self.fired = True
        self.engine.kill()

    def __enter__(self):
        self.timer = threading.Timer(self.seconds, self._fire)
        self.timer.daemon = True
        self.timer.start()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.timer.cancel()
        if self.fired:
            raise EngineTimeout(f"no answer within {self.seconds:g}s during {self.what}") from exc
        return False


def resolve_command(command_line):
    argv = shlex.split(command_line)
    if not argv:
        raise SystemExit("empty --engine")
    exe = argv[0]
    if os.sep not in exe:  # HubEngine takes command[0] as a path relative to the cwd
        found = shutil.which(exe)
        if found:
            exe = found
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        raise SystemExit(f"engine not found or not executable: {exe}")
    if any(ch in a for a in argv[1:] for ch in " \"'"):
        raise SystemExit("engine arguments may not hold spaces or quotes (HubEngine joins them with spaces for a shell)")
    return [exe] + argv[1:]


def describe(board, engine, variant, game_no, ply, extra):
    moves = " ".join(m.hub_move for m in board.move_stack)
    legal = sorted(m.hub_move for m in board.legal_moves())
    return (f"[{variant}] game {game_no} ply {ply + 1}: {extra}\n"
            f"    position: initial {board._game.initial_hub_fen} moves=\"{moves}\"\n"
            f"    pydraughts FEN (variant numbering): {board.fen}\n"
            f"    legal moves: {' '.join(legal)}\n"
            f"    last protocol lines:\n{engine.tail()}")


def start_engine(argv, variant, opts, collector):
    engine_variant = ENGINE_VARIANT_NAME.get(variant, variant)
    engine = GuardedHubEngine(argv, opts.start_timeout)
    notes = []
    stray = collector.take()
    if stray:
        notes.append("unexpected lines after hub: " + "; ".join(stray))
    if engine.variants:
        if engine_variant not in engine.variants:
            engine.close()
            raise GameFailure(f"engine's variant param does not list '{engine_variant}' "
                              f"(it lists: {' '.join(sorted(engine.variants))})")
    elif engine_variant != "international":
        engine.close()
        raise GameFailure("engine advertises no `param name=variant ... values=...`, so pydraughts "
                          f"would never send set-param for '{engine_variant}'")
    else:
        notes.append("engine advertises no variant param: pydraughts sends no set-param")
    with Watchdog(engine, opts.start_timeout, "set-param/init (waiting for ready)"):
        engine.setoption("variant", engine_variant)  # sent only if the engine listed variants
        engine.init()
    collector.take()  # clients ignore other lines before `ready`
    return engine, notes


def play_game(engine, variant, game_no, opts, collector, rng):
    """Plays one game; returns (summary, notes). Raises GameFailure."""
    board = draughts.Board(variant=variant)
    notes = []
    think_max = 0.0
    late = 0
    limit = Limit(movetime=opts.movetime)
    ply = 0
    while not board.is_over() and ply < opts.max_plies:
        if ply < opts.random_plies:
            board.push(rng.choice(board.legal_moves()))
            ply += 1
            continue
        t0 = time.monotonic()
        try:
            with Watchdog(engine, opts.move_timeout, f"go (ply {ply + 1})"):
                result = engine.play(board, limit, False)
        except EngineTimeout as e:
            raise GameFailure(describe(board, engine, variant, game_no, ply, f"TIMEOUT: {e}"))
        except EOFError:
            try:
                rc = engine.p.wait(timeout=2)
            except Exception:  # noqa: BLE001
                rc = "unknown: still running"
            raise GameFailure(describe(board, engine, variant, game_no, ply,
                                       f"engine closed its output (exit status {rc})"))
        except (KeyError, ValueError, IndexError, TypeError, AttributeError) as e:
            if engine.last_go is None:
                what = f"pydraughts could not parse the engine's reply ({type(e).__name__}: {e})"
            else:
                best, ponder = engine.last_go
                what = (f"ILLEGAL or unreadable move: done move={best}"
                        + (f" ponder={ponder}" if ponder else "")
                        + f" ({type(e).__name__}: {e}; pydraughts wants the variant's own numbering "
                        "and from x to x every captured square)")
            raise GameFailure(describe(board, engine, variant, game_no, ply, what))
        elapsed = time.monotonic() - t0
        think_max = max(think_max, elapsed)
        if elapsed > opts.movetime + opts.late_margin:
            late += 1
        stray = collector.take()
        if stray:
            msg = "unexpected lines during go: " + "; ".join(stray)
            if opts.lenient:
                notes.append(f"ply {ply + 1}: {msg}")
            else:
                raise GameFailure(describe(board, engine, variant, game_no, ply, msg))
        # Double-check legality against pydraughts' own list and push its canonical move.
        best = engine.last_go[0]
        matches = [m for m in board.legal_moves() if m.board_move == result.move.board_move]
        if len(matches) != 1:
            raise GameFailure(describe(board, engine, variant, game_no, ply,
                                       f"ILLEGAL move: done move={best} (no unique legal match)"))
        canonical = matches[0].hub_move
        if best != canonical:
            msg = f"non-canonical move string {best!r} (expected {canonical!r})"
            if opts.lenient:
                notes.append(f"ply {ply + 1}: {msg}")
            else:
                raise GameFailure(describe(board, engine, variant, game_no, ply, msg))
        board.push(matches[0])
        ply += 1
    # The engine should owe nothing: ping must be answered by the very next line.
    try:
        with Watchdog(engine, opts.start_timeout, "ping after the game"):
            engine.ping()
    except (EngineTimeout, EOFError) as e:
        raise GameFailure(f"[{variant}] game {game_no}: no pong after the game: {e}\n{engine.tail()}")
    stray = collector.take()
    if stray:
        msg = "lines before pong (an extra done?): " + "; ".join(stray)
        if opts.lenient:
            notes.append(msg)
        else:
            raise GameFailure(f"[{variant}] game {game_no}: {msg}\n{engine.tail()}")
    if board.is_over():
        outcome = RESULT.get(board.winner(), str(board.winner()))
    else:
        outcome = f"capped at {opts.max_plies} plies"
    if late:
        notes.append(f"{late} replies slower than movetime+{opts.late_margin:g}s")
    summary = f"{outcome}, {ply} plies, slowest reply {think_max:.2f}s"
    return summary, notes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="target/release/polydam hub",
                    help='engine command line (default: "target/release/polydam hub")')
    ap.add_argument("--variants", default="standard,russian,brazilian,english,italian",
                    help="comma-separated pydraughts variant names")
    ap.add_argument("--games-per-variant", type=int, default=1)
    ap.add_argument("--movetime", type=float, default=0.05, help="seconds per move (level move-time=S)")
    ap.add_argument("--max-plies", type=int, default=300, help="cap per game; a capped game counts as finished")
    ap.add_argument("--random-plies", type=int, default=0,
                    help="play this many random legal plies first (seeded by game), to vary the games")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--move-timeout", type=float, default=None,
                    help="seconds before a go counts as hung (default 10 + 20*movetime)")
    ap.add_argument("--start-timeout", type=float, default=30.0, help="seconds allowed for hub/init/ping")
    ap.add_argument("--late-margin", type=float, default=0.5,
                    help="a reply later than movetime+this is reported (not failed)")
    ap.add_argument("--lenient", action="store_true",
                    help="only report stray lines and non-canonical move strings instead of failing")
    opts = ap.parse_args()
    if opts.move_timeout is None:
        opts.move_timeout = 10 + 20 * opts.movetime
    variants = [v.strip() for v in opts.variants.split(",") if v.strip()]
    for v in variants:
        if v not in PYDRAUGHTS_VARIANTS:
            ap.error(f"unknown pydraughts variant {v!r} (known: {', '.join(PYDRAUGHTS_VARIANTS)})")
    if opts.games_per_variant < 1 or opts.movetime < 0 or opts.max_plies < 1:
        ap.error("bad --games-per-variant, --movetime or --max-plies")
    # Let a `#!/usr/bin/env python3` engine (like fake_engine.py) find this interpreter's packages.
    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")

    try:
        argv = resolve_command(opts.engine)
    except SystemExit as e:
        print(f"selfplay: {e}", file=sys.stderr)
        print("0 passed, 1 failed")
        return 2

    logger = logging.getLogger("pydraughts")
    collector = WarningCollector()
    logger.addHandler(collector)
    logger.setLevel(logging.WARNING)
    logger.propagate = False

    passed = failed = 0
    for variant in variants:
        engine = None
        for game_no in range(1, opts.games_per_variant + 1):
            label = f"[{variant}] game {game_no}"
            rng = random.Random(f"{opts.seed}/{variant}/{game_no}")
            try:
                notes = []
                if engine is None:
                    try:
                        engine, notes = start_engine(argv, variant, opts, collector)
                    except EngineTimeout as e:
                        raise GameFailure(f"{label}: engine start: {e}")
                    except (EOFError, OSError) as e:
                        seen = collector.take()
                        raise GameFailure(f"{label}: engine start failed ({type(e).__name__} {e}); "
                                          "its output:\n      " + "\n      ".join(seen or ["(nothing)"]))
                    except ValueError as e:
                        raise GameFailure(f"{label}: pydraughts could not parse the hub answer "
                                          f"(a bare flag or a value with '='?): {e}")
                summary, game_notes = play_game(engine, variant, game_no, opts, collector, rng)
                notes += game_notes
                passed += 1
                print(f"PASS {label}: {summary}" + (f" [notes: {' | '.join(notes)}]" if notes else ""), flush=True)
            except GameFailure as e:
                failed += 1
                text = str(e)
                if not text.startswith("["):
                    text = f"{label}: {text}"
                print(f"FAIL {text}", flush=True)
                if engine is not None:  # start afresh after a failure
                    engine.close()
                    engine = None
        if engine is not None:
            engine.close()
    print(f"{passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
