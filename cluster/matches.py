"""``match``: a two-engine match in shards of game pairs, one Ray task per shard.

Shard ``k`` runs ``polydam match ... --games 2P --first-game 2kP+1 --concurrency 1``: the
games of the whole match with those numbers, whose openings (book lines or random openings
from ``--seed``) and colours ``polydam match`` derives from the game number, so that the
games are the same whatever the number of workers. The driver merges the shards' PDNs in
game order into ``--pdn`` and reports W-D-L, the Elo difference with its 95% interval (the
formulas of ``polydam match``'s report, src/cli/matches/stats.rs) and the SPRT, which stops
the whole job (the running shards cancelled) when it decides.
"""

import math
import os
import re
import shutil
import tempfile

from cluster.common import JobError, Progress, now, polydam_path, replace_file, run_polydam

Z95 = 1.959963984540054


def add_arguments(p):
    """The options of ``match`` (those of ``polydam match`` that matter for a sharded match)."""
    p.add_argument("--engine", action="append", required=True, help="as polydam match; twice")
    p.add_argument("--engine-option", action="append", default=[], metavar="N:NAME=VALUE")
    p.add_argument("--name", action="append", default=[], metavar="N:NAME")
    p.add_argument("--variant", "-v", default="international")
    p.add_argument("--games", type=int, default=2, help="games in all (even)")
    p.add_argument("--shard-pairs", type=int, default=5, help="game pairs per shard (task)")
    p.add_argument("--random-plies", type=int)
    p.add_argument("--book", help="book of openings (a path valid on every node)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random openings")
    p.add_argument("--movetime", type=float)
    p.add_argument("--time", type=float)
    p.add_argument("--inc", type=float)
    p.add_argument("--depth", "-d", type=int)
    p.add_argument("--nodes", type=int)
    p.add_argument("--move-timeout", type=float)
    p.add_argument("--max-plies", type=int)
    p.add_argument("--adjudicate-plies", type=int)
    p.add_argument("--win-score", type=float)
    p.add_argument("--draw-score", type=float)
    p.add_argument("--draw-min-plies", type=int)
    p.add_argument("--weights", help="the referee's weights (a path valid on every node)")
    p.add_argument(
        "--handshake-timeout",
        type=float,
        default=30.0,
        help="seconds each engine handshake answer may take (polydam match's default: 10)",
    )
    p.add_argument(
        "--sprt",
        metavar="ELO0,ELO1[,ALPHA,BETA]",
        help="SPRT of logistic Elo elo0 against elo1; the job stops when it decides",
    )
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    p.add_argument("--pdn", help="the merged PDN of every game, in game order")
    p.add_argument("--max-retries", type=int, default=3, help="retries of a shard whose worker died")


PASSED = (
    ("--variant", "variant"),
    ("--random-plies", "random_plies"),
    ("--book", "book"),
    ("--seed", "seed"),
    ("--movetime", "movetime"),
    ("--time", "time"),
    ("--inc", "inc"),
    ("--depth", "depth"),
    ("--nodes", "nodes"),
    ("--move-timeout", "move_timeout"),
    ("--max-plies", "max_plies"),
    ("--adjudicate-plies", "adjudicate_plies"),
    ("--win-score", "win_score"),
    ("--draw-score", "draw_score"),
    ("--draw-min-plies", "draw_min_plies"),
    ("--weights", "weights"),
    ("--handshake-timeout", "handshake_timeout"),
)


def base_argv(args, program):
    """The ``polydam match`` command common to every shard."""
    argv = [program, "match", "-q", "--concurrency", "1"]
    for e in args.engine:
        argv += ["--engine", e]
    for o in args.engine_option:
        argv += ["--engine-option", o]
    for n in args.name:
        argv += ["--name", n]
    for flag, attr in PASSED:
        value = getattr(args, attr)
        if value is not None:
            argv += [flag, str(value)]
    return argv


def play_shard(argv, index):
    """A task: plays one shard; returns ``(index, PDN text, seconds)``."""
    started = now()
    tmp = tempfile.mkdtemp(prefix="polydam-match-")
    try:
        pdn = os.path.join(tmp, "games.pdn")
        run_polydam(argv + ["--pdn", pdn])
        with open(pdn, encoding="utf-8") as f:
            text = f.read()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return index, text, now() - started


GAME_START = re.compile(r"^\[Event ", re.M)


def split_games(pdn):
    """The games of a PDN text, each with its text, ``Round`` (game number) and result."""
    starts = [m.start() for m in GAME_START.finditer(pdn)]
    games = []
    for k, s in enumerate(starts):
        text = pdn[s : starts[k + 1] if k + 1 < len(starts) else len(pdn)]
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]', text, re.M))
        games.append({"text": text, "number": int(tags.get("Round", "0")), "tags": tags})
    return games


def first_points(game):
    """Points of the first engine (White in the odd-numbered games): 1, 0.5 or 0."""
    result = game["tags"].get("Result", "")
    white = {"2-0": 1.0, "1-0": 1.0, "1-1": 0.5, "1/2-1/2": 0.5, "0-2": 0.0, "0-1": 0.0}.get(
        result
    )
    if white is None:
        raise JobError(f"game {game['number']}: unknown result {result!r}")
    return white if game["number"] % 2 == 1 else 1.0 - white


def sample(observations):
    """(n, mean, population variance) of ``(score, count)`` observations; None when empty."""
    n = sum(c for _, c in observations)
    if n == 0:
        return None
    mean = sum(s * c for s, c in observations) / n
    variance = sum((s - mean) ** 2 * c for s, c in observations) / n
    return n, mean, variance


def elo(score):
    """The logistic Elo difference of an expected score."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def expected_score(diff):
    """The expected score of an Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-diff / 400.0))


def elo_interval(s):
    """The Elo difference and its 95% interval (normal approximation of the mean)."""
    n, mean, variance = s
    se = math.sqrt(variance / n)
    return elo(mean), elo(max(mean - Z95 * se, 0.0)), elo(min(mean + Z95 * se, 1.0))


def sprt(s, elo0, elo1, alpha, beta):
    """(LLR, lower, upper, verdict) of the GSPRT, or None without variance."""
    if s is None or s[2] <= 0.0:
        return None
    n, mean, variance = s
    s0, s1 = expected_score(elo0), expected_score(elo1)
    llr = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    lower, upper = math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)
    verdict = "H1 accepted" if llr >= upper else "H0 accepted" if llr <= lower else "continue"
    return llr, lower, upper, verdict


def signed(x):
    """As the Rust report: one decimal with a sign, ``0.0``, or ``+inf``/``-inf``."""
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    tenths = round(x * 10.0)
    return "0.0" if tenths == 0 else f"{tenths / 10.0:+.1f}"


def rust_number(x):
    """A float as Rust's Display writes it (``10`` for 10.0, ``10.5``, ``0.05``), so that
    the report's lines read as ``polydam match``'s."""
    if float(x).is_integer() and abs(x) < 1e16:
        return str(int(x))
    return repr(float(x))


def samples(games):
    """The trinomial and pentanomial samples of the first engine's games (in game order; a
    pair counted only when both its games are in)."""
    points = {g["number"]: first_points(g) for g in games}
    w = sum(1 for p in points.values() if p > 0.75)
    d = sum(1 for p in points.values() if 0.25 < p <= 0.75)
    losses = len(points) - w - d
    penta = [0] * 5
    for n, p in points.items():
        if n % 2 == 1 and n + 1 in points:
            penta[min(round(2.0 * (p + points[n + 1])), 4)] += 1
    tri = sample([(1.0, w), (0.5, d), (0.0, losses)])
    pen = sample([(i / 4.0, c) for i, c in enumerate(penta)])
    return (w, d, losses), tri, pen, penta


def parse_sprt(args):
    """(elo0, elo1, alpha, beta) or None."""
    if not args.sprt:
        return None
    try:
        values = [float(x) for x in args.sprt.split(",")]
    except ValueError as e:
        raise JobError(f"--sprt {args.sprt}: not numbers") from e
    if len(values) == 2:
        values += [args.alpha, args.beta]
    if len(values) != 4 or not (0 < values[2] < 1 and 0 < values[3] < 1):
        raise JobError("--sprt takes elo0,elo1 or elo0,elo1,alpha,beta (alpha, beta in (0, 1))")
    return tuple(values)


def report(games, names, total, bounds):
    """The report's lines."""
    (w, d, losses), tri, pen, penta = samples(games)
    played = w + d + losses
    pts = w + d / 2
    share = 100.0 * pts / max(played, 1)
    lines = [f"match: {played} of {total} games played"]
    lines.append(
        f"{names[0]} vs {names[1]}: +{w} ={d} -{losses}, "
        f"score {rust_number(pts)}/{played} ({share:.1f}%)"
    )
    for s, model in ((tri, "trinomial"), (pen, "pentanomial over game pairs")):
        if s is not None:
            e, lo, hi = elo_interval(s)
            extra = f", pairs scoring 0/0.5/1/1.5/2: {penta}" if s is pen else ""
            lines.append(f"  Elo {signed(e)} [{signed(lo)}, {signed(hi)}] (95%, {model}, n={s[0]}){extra}")
    verdict = None
    if bounds is not None:
        elo0, elo1, alpha, beta = bounds
        s, model = (pen, "pentanomial") if pen is not None else (tri, "trinomial")
        r = sprt(s, elo0, elo1, alpha, beta)
        if r is None:
            text = "LLR undefined (no variance yet), continue"
        else:
            verdict = r[3]
            text = f"LLR {r[0]:.2f} (bounds {r[1]:.2f}, {r[2]:.2f}), {r[3]}"
        lines.append(
            f"  SPRT elo0 {rust_number(elo0)} elo1 {rust_number(elo1)} "
            f"alpha {rust_number(alpha)} beta {rust_number(beta)} ({model}): {text}"
        )
    return lines, verdict


def run(args, ray_connect):
    """Runs the job; returns the exit status."""
    program = polydam_path(args.polydam)
    if len(args.engine) != 2:
        raise JobError("a sharded match takes exactly two --engine options")
    if args.games < 2 or args.games % 2 or args.shard_pairs < 1:
        raise JobError("--games must be even and at least 2, --shard-pairs at least 1")
    bounds = parse_sprt(args)
    base = base_argv(args, program)
    shards = []
    first = 1
    while first <= args.games:
        n = min(2 * args.shard_pairs, args.games - first + 1)
        shards.append(base + ["--games", str(n), "--first-game", str(first)])
        first += n
    ray = ray_connect()
    task = ray.remote(play_shard).options(num_cpus=1, max_retries=args.max_retries)
    started = now()
    pending = [task.remote(argv, k) for k, argv in enumerate(shards)]
    progress = Progress("match", len(shards), args.quiet)
    done = {}
    names = None
    verdict = None
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            k, text, _seconds = ray.get(ready[0])
            done[k] = split_games(text)
            games = [g for shard in done.values() for g in shard]
            if names is None and games:
                names = (games[0]["tags"].get("White", "1"), games[0]["tags"].get("Black", "2"))
            if bounds is not None and names is not None:
                _, verdict = report(games, names, args.games, bounds)
                if verdict and verdict != "continue":
                    for ref in pending:
                        ray.cancel(ref, force=True)
                    pending = []
            progress.advance(f"shard {k} ({len(done[k])} games)")
    finally:
        progress.close()
    games = sorted((g for shard in done.values() for g in shard), key=lambda g: g["number"])
    if args.pdn:
        replace_file(args.pdn, "".join(g["text"] for g in games).encode())
    lines, verdict = report(games, names or ("engine 1", "engine 2"), args.games, bounds)
    for line in lines:
        print(line)
    elapsed = now() - started
    stopped = " (stopped by the SPRT)" if len(done) < len(shards) else ""
    print(f"shards: {len(done)} of {len(shards)} in {elapsed:.1f} s{stopped}")
    if args.pdn:
        print(f"pdn: {len(games)} games written to {args.pdn}")
    return 0
