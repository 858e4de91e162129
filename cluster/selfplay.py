"""``selfplay``: training games in shards, one Ray task per shard.

Shard ``i`` plays ``--shard-games`` games (the last one what is left) with
``polydam selfplay --seed S_i``, ``S_i = shard_seed(master, i)``. The task writes its data
into a temporary directory of its own node and returns the bytes through Ray's object store;
the driver writes ``DIR/shard-NNNNN.txt`` exactly once (temporary file, then a hard link
that fails if the shard is there), so that a task retried after its worker died never
writes a shard twice. A shard already in DIR (an earlier, stopped run) is not played again.
At the end the shards are concatenated in order into ``DIR/selfplay.txt``: the same bytes as
the shard commands run one after the other on one machine (``--reference`` prints them).
"""

import os
import shutil
import tempfile

from cluster.common import (
    JobError,
    Progress,
    check_job_file,
    now,
    polydam_path,
    replace_file,
    run_polydam,
    shard_seed,
    write_once,
)

MERGED = "selfplay.txt"


def add_arguments(p):
    """The options of ``selfplay``."""
    p.add_argument("--variant", "-v", default="international")
    p.add_argument("--games", type=int, required=True, help="games in all")
    p.add_argument("--shard-games", type=int, default=100, help="games per shard (task)")
    p.add_argument("--out", required=True, help="directory of the shards and the merged file")
    p.add_argument("--seed", type=int, default=1, help="master seed of the shards' seeds")
    p.add_argument("--depth", "-d", type=int, help="passed to polydam selfplay")
    p.add_argument("--nodes", type=int, help="passed to polydam selfplay")
    p.add_argument(
        "--threads", "-t", type=int, default=1, help="games at once per task (its CPUs)"
    )
    p.add_argument("--random-plies", type=int, help="passed to polydam selfplay")
    p.add_argument("--max-plies", type=int, help="passed to polydam selfplay")
    p.add_argument("--hash", type=int, help="passed to polydam selfplay (MiB per game)")
    p.add_argument("--weights", help="passed to polydam selfplay (a path valid on every node)")
    p.add_argument(
        "--max-retries", type=int, default=3, help="retries of a shard whose worker died"
    )
    p.add_argument(
        "--reference",
        action="store_true",
        help="print the shard commands (the single-process run of the same job) and exit",
    )


def plan(args):
    """The shards: (index, games, seed) for each."""
    if args.games < 1 or args.shard_games < 1:
        raise JobError("--games and --shard-games must be at least 1")
    shards = []
    start = 0
    while start < args.games:
        games = min(args.shard_games, args.games - start)
        i = len(shards)
        shards.append((i, games, shard_seed(args.seed, i)))
        start += games
    return shards


def shard_argv(args, program, games, seed):
    """The ``polydam selfplay`` command of one shard, without its ``-o FILE``."""
    argv = [program, "selfplay", "-q", "-v", args.variant, "--games", str(games)]
    argv += ["--seed", str(seed), "--threads", str(args.threads)]
    for flag, value in (
        ("--depth", args.depth),
        ("--nodes", args.nodes),
        ("--random-plies", args.random_plies),
        ("--max-plies", args.max_plies),
        ("--hash", args.hash),
        ("--weights", args.weights),
    ):
        if value is not None:
            argv += [flag, str(value)]
    return argv


def play_shard(argv_before_output, index):
    """A task: plays one shard into a temporary directory of this node and returns
    ``(index, data bytes, positions, pid, seconds)``."""
    started = now()
    tmp = tempfile.mkdtemp(prefix="polydam-shard-")
    try:
        out = os.path.join(tmp, "shard.txt")
        summary = run_polydam(argv_before_output + ["-o", out])
        with open(out, "rb") as f:
            data = f.read()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    positions = 0
    for line in summary.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "positions":
            positions = int(words[1])
    return index, data, positions, os.getpid(), now() - started


def shard_path(out, index):
    """Where shard ``index`` is kept."""
    return os.path.join(out, f"shard-{index:05d}.txt")


def run(args, ray_connect):
    """Runs the job; returns the exit status."""
    program = polydam_path(args.polydam)
    shards = plan(args)
    if args.reference:
        for i, games, seed in shards:
            argv = shard_argv(args, program, games, seed) + ["-o", shard_path(args.out, i)]
            print(" ".join(argv))
        print(f"# then: cat {args.out}/shard-*.txt > {os.path.join(args.out, MERGED)}")
        return 0
    os.makedirs(args.out, exist_ok=True)
    job = {
        "job": "selfplay",
        "variant": args.variant,
        "games": args.games,
        "shard_games": args.shard_games,
        "seed": args.seed,
        "depth": args.depth,
        "nodes": args.nodes,
        "random_plies": args.random_plies,
        "max_plies": args.max_plies,
        "hash": args.hash,
        "weights": args.weights,
    }
    check_job_file(args.out, job)
    todo = [s for s in shards if not os.path.exists(shard_path(args.out, s[0]))]
    kept = len(shards) - len(todo)
    ray = ray_connect()
    task = ray.remote(play_shard).options(
        num_cpus=args.threads, max_retries=args.max_retries, retry_exceptions=False
    )
    started = now()
    pending = []
    for i, games, seed in todo:
        pending.append(task.remote(shard_argv(args, program, games, seed), i))
    progress = Progress("selfplay", len(todo), args.quiet)
    positions = 0
    task_seconds = 0.0
    log = open(os.path.join(args.out, "shards.log"), "a", encoding="utf-8")
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            index, data, n, pid, seconds = ray.get(ready[0])
            wrote = write_once(shard_path(args.out, index), data)
            log.write(
                f"shard {index} {'written' if wrote else 'already there'} "
                f"bytes={len(data)} positions={n} pid={pid} seconds={seconds:.3f}\n"
            )
            log.flush()
            positions += n
            task_seconds += seconds
            progress.advance(f"shard {index} ({n} positions)")
    finally:
        progress.close()
        log.close()
    elapsed = now() - started
    merged = b"".join(_read(shard_path(args.out, i)) for i, _, _ in shards)
    replace_file(os.path.join(args.out, MERGED), merged)
    rate = positions / elapsed if elapsed > 0 else 0.0
    print(
        f"selfplay: {len(shards)} shards ({kept} kept from an earlier run), "
        f"{positions} positions played in {elapsed:.2f} s ({rate:.0f} positions/s), "
        f"task time {task_seconds:.2f} s; {os.path.join(args.out, MERGED)}: "
        f"{len(merged)} bytes"
    )
    return 0


def _read(path):
    with open(path, "rb") as f:
        return f.read()
