"""``egtb``: endgame tables built one slice pair per Ray task, then verified the same way.

The plan comes from ``polydam egtb build --plan-json``: every slice pair in build order, the
slices it reads and the bytes it holds when built alone. A pair's task (``polydam egtb build
--pair SLICE``) is submitted once every pair it reads is built, asking Ray for that memory, so
that big pairs go to machines that have it. ``--dir`` must be one directory shared by every
node (a pair reads the files of the pairs before it). A pair whose files read back whole is
kept by its task, so a stopped job resumes where it was. Then ``polydam egtb verify --only
SLICE`` runs per pair in the same order (a pair's slices are checked once those it reads are
recorded in the variant's verified.tsv, so no slice is checked twice).
"""

import json
import os
import re

from cluster.common import JobError, Progress, now, polydam_path, run_polydam


def add_arguments(p):
    """The options of ``egtb``."""
    p.add_argument("--variant", "-v", required=True)
    p.add_argument("--pieces", "-p", type=int, required=True)
    p.add_argument("--dir", required=True, help="the tables' directory, shared by every node")
    p.add_argument("--threads", "-t", type=int, default=1, help="threads (CPUs) per task")
    p.add_argument("--no-dtc", action="store_true", help="passed to polydam egtb build")
    p.add_argument("--no-verify", action="store_true", help="build only, no verification")
    p.add_argument("--max-retries", type=int, default=3, help="retries of a pair whose worker died")


def egtb_task(argv):
    """A task: runs one ``polydam egtb`` command; returns ``(stdout, seconds)``."""
    started = now()
    out = run_polydam(argv)
    return out, now() - started


def read_plan(args, program):
    """The build's plan (``polydam egtb build --plan-json``), read on the driver's machine."""
    argv = [program, "egtb", "build", "-v", args.variant, "-p", str(args.pieces)]
    argv += ["--dir", args.dir, "--plan-json"]
    if args.no_dtc:
        argv.append("--no-dtc")
    try:
        return json.loads(run_polydam(argv))
    except ValueError as e:
        raise JobError(f"{program} egtb build --plan-json did not print JSON: {e}") from e


def dependencies(pairs):
    """For each pair (by index), the indices of the pairs holding the slices it reads."""
    owner = {}
    for i, p in enumerate(pairs):
        for s in p["slices"]:
            owner[s] = i
    deps = []
    for p in pairs:
        try:
            deps.append(sorted({owner[r] for r in p["reads"]}))
        except KeyError as e:
            raise JobError(f"the plan's pair {p['slices'][0]} reads {e}, in no pair") from e
    return deps


def run_dag(ray, pairs, deps, make_argv, what, args):
    """Runs one task per pair, each once the pairs it depends on are done; returns the task
    seconds and the outputs, in pair order."""
    task = ray.remote(egtb_task)
    waiting = set(range(len(pairs)))
    finished = set()
    running = {}
    outputs = [None] * len(pairs)
    seconds = 0.0
    progress = Progress(f"egtb {what}", len(pairs), args.quiet)
    try:
        while waiting or running:
            for i in sorted(waiting):
                if all(d in finished for d in deps[i]):
                    ref = task.options(
                        num_cpus=args.threads,
                        memory=max(int(pairs[i]["memory_bytes"]), 1),
                        max_retries=args.max_retries,
                    ).remote(make_argv(pairs[i]))
                    running[ref] = i
                    waiting.discard(i)
            ready, _ = ray.wait(list(running), num_returns=1)
            i = running.pop(ready[0])
            outputs[i], s = ray.get(ready[0])
            seconds += s
            finished.add(i)
            progress.advance(f"{'+'.join(pairs[i]['slices'])} ({s:.1f} s)")
    finally:
        progress.close()
    return seconds, outputs


def run(args, ray_connect):
    """Runs the job; returns the exit status."""
    program = polydam_path(args.polydam)
    if args.threads < 1:
        raise JobError("--threads must be at least 1")
    args.dir = os.path.abspath(args.dir)
    os.makedirs(args.dir, exist_ok=True)
    plan = read_plan(args, program)
    pairs = plan["pairs"]
    deps = dependencies(pairs)
    ray = ray_connect()
    biggest = max(pairs, key=lambda p: p["memory_bytes"])
    have = max(
        (n["Resources"].get("memory", 0) for n in ray.nodes() if n.get("Alive")), default=0
    )
    if biggest["memory_bytes"] > have:
        raise JobError(
            f"pair {'+'.join(biggest['slices'])} needs {biggest['memory_bytes']} bytes; "
            f"the largest memory resource of a node is {int(have)}"
        )
    built_before = sum(1 for p in pairs if p["built"])
    common = ["-v", args.variant, "-p", str(args.pieces), "--dir", args.dir, "-q"]
    common += ["-t", str(args.threads)]

    def build_argv(p):
        argv = [program, "egtb", "build", *common, "--pair", p["slices"][0]]
        return argv + (["--no-dtc"] if args.no_dtc else [])

    started = now()
    build_seconds, outputs = run_dag(ray, pairs, deps, build_argv, "build", args)
    solved = sum(1 for out in outputs if not re.search(r": 0 slices built", out))
    print(
        f"egtb {plan['variant']}: {len(pairs)} pairs ({plan['slices']} slices, "
        f"{plan['positions']} positions) to {plan['pieces']} pieces in {args.dir}: "
        f"{solved} pairs built, {len(pairs) - solved} kept ({built_before} found built by "
        f"the plan), {now() - started:.1f} s, task time {build_seconds:.1f} s"
    )
    if args.no_verify:
        return 0

    def verify_argv(p):
        opts = ["-v", args.variant, "-p", str(p["pieces"]), "--dir", args.dir, "-q"]
        opts += ["-t", str(args.threads), "--only", p["slices"][0]]
        return [program, "egtb", "verify", *opts]

    started = now()
    verify_seconds, outputs = run_dag(ray, pairs, deps, verify_argv, "verify", args)
    bad = [out for out in outputs if " 0 inconsistencies" not in out]
    print(
        f"egtb {plan['variant']}: {len(pairs)} pairs verified in {now() - started:.1f} s "
        f"(task time {verify_seconds:.1f} s), {len(bad)} with inconsistencies"
    )
    for out in bad:
        print(out.rstrip())
    return 1 if bad else 0
