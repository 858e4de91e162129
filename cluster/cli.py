"""The command line: ``python3 -m cluster selfplay|egtb|match [OPTIONS]``."""

import argparse
import functools
import sys

from cluster import egtb, matches, selfplay
from cluster.common import JobError, connect


def parser():
    """The argument parser of every job."""
    top = argparse.ArgumentParser(
        prog="python3 -m cluster",
        description="Polydam's jobs on a Ray cluster (docs/cluster.md)",
    )
    sub = top.add_subparsers(dest="job", required=True)
    jobs = {
        "selfplay": (selfplay, "training games in shards (polydam selfplay)"),
        "egtb": (egtb, "endgame tables, one task per slice pair (polydam egtb build)"),
        "match": (matches, "a match in shards of game pairs (polydam match)"),
    }
    for name, (module, help_text) in jobs.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument(
            "--address",
            help="a running Ray cluster (auto, HOST:PORT or ray://HOST:PORT); "
            "without it a local one is started for the job",
        )
        p.add_argument(
            "--num-cpus", type=int, help="CPUs of the local cluster (without --address)"
        )
        p.add_argument(
            "--polydam",
            default="polydam",
            help="the polydam program, at this path on every node (default: polydam)",
        )
        p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
        module.add_arguments(p)
        p.set_defaults(module=module)
    return top


def main(argv=None):
    """Runs one job; returns the exit status (2 with a message for a job that cannot run)."""
    args = parser().parse_args(argv)
    ray_connect = functools.partial(connect, args.address, args.num_cpus)
    try:
        return args.module.run(args, ray_connect)
    except JobError as e:
        print(f"cluster {args.job}: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # pylint: disable=broad-except
        # A task's error comes back as Ray's RayTaskError (its cause's class is a copy sent
        # with the task, not this JobError): say it in a line, as a JobError is.
        if type(e).__module__.startswith("ray"):
            cause = getattr(e, "cause", None) or e
            print(f"cluster {args.job}: a task failed: {cause}", file=sys.stderr)
            return 2
        raise
    except KeyboardInterrupt:
        print(f"cluster {args.job}: interrupted; run it again to resume", file=sys.stderr)
        return 130
