"""What every job shares: joining the cluster, running ``polydam`` in a task, the progress
over shards, the shard seeds and writing a file exactly once."""

import ctypes
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_UMASK = os.umask(0)
os.umask(_UMASK)


class JobError(Exception):
    """A job that cannot go on: the message says why (printed without a traceback)."""


def splitmix64_mix(z):
    """The output function of SplitMix64 (the generator Polydam's seeds come from)."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & MASK64
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & MASK64
    return z ^ (z >> 31)


def shard_seed(master, index):
    """The seed of shard ``index`` (from 0): output ``index`` of a SplitMix64 stream seeded
    with ``master``, i.e. mix(master + (index + 1) * golden gamma) modulo 2^64. Fixed here
    and in docs/cluster.md: the same master seed gives the same shards on any cluster."""
    return splitmix64_mix((master + (index + 1) * GOLDEN_GAMMA) & MASK64)


def _die_with_parent():
    """Run in the child before exec: the kernel kills it (SIGKILL) when the Ray worker that
    started it dies, so that a killed worker leaves no ``polydam`` behind to write a file
    its retried task writes too."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    except OSError:
        pass


def run_polydam(argv, cwd=None, stdin_text=None):
    """Runs ``argv`` (the ``polydam`` program and its arguments) to the end and returns its
    standard output; a non-zero exit raises JobError with the end of its stderr."""
    try:
        proc = subprocess.run(
            argv,
            cwd=cwd,
            input=stdin_text,
            capture_output=True,
            text=True,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
            check=False,
        )
    except OSError as e:
        raise JobError(f"cannot run {argv[0]}: {e}") from e
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-5:]
        raise JobError(
            f"{' '.join(argv[:3])} ... exited with status {proc.returncode}: " + " / ".join(tail)
        )
    return proc.stdout


def polydam_path(path):
    """The absolute path of the ``polydam`` program given, checked to be executable here (the
    same path must hold the program on every node)."""
    full = os.path.abspath(path)
    if not (os.path.isfile(full) and os.access(full, os.X_OK)):
        raise JobError(f"--polydam {path}: not an executable file")
    return full


def connect(address, num_cpus=None):
    """Joins the Ray cluster at ``address`` (``auto``, ``HOST:PORT``, ``ray://...``), or starts
    a local one for this job (with ``num_cpus`` CPUs, default all) when ``address`` is None.
    The driver's modules are sent to the workers with the tasks (pickled by value), so the
    workers need Ray and Python but not this package."""
    import ray  # pylint: disable=import-outside-toplevel

    import cluster  # pylint: disable=import-outside-toplevel
    from cluster import common, egtb, matches, selfplay  # pylint: disable=import-outside-toplevel

    for module in (cluster, common, egtb, matches, selfplay):
        ray.cloudpickle.register_pickle_by_value(module)
    kwargs = {"logging_level": "warning", "log_to_driver": False}
    if address:
        ray.init(address=address, **kwargs)
    else:
        if sys.platform.startswith("linux"):
            # Ray would use the machine's network address; a one-machine cluster stays on
            # the loopback device (127.0.0.1 itself Ray replaces by that address).
            kwargs["_node_ip_address"] = "127.0.0.2"
        ray.init(num_cpus=num_cpus, include_dashboard=False, **kwargs)
    return ray


class Progress:
    """Progress over shards on stderr: a tqdm bar on a terminal, else one plain line per
    finished shard (``selfplay: shard 3/8 done (1 of 8 ...)``)."""

    def __init__(self, job, total, quiet=False):
        self.job = job
        self.total = total
        self.done = 0
        self.quiet = quiet
        self.bar = None
        if not quiet and sys.stderr.isatty():
            try:
                from tqdm import tqdm  # pylint: disable=import-outside-toplevel

                self.bar = tqdm(total=total, desc=job, unit="shard", file=sys.stderr)
            except ImportError:
                self.bar = None

    def advance(self, what):
        """One more shard finished; ``what`` says which."""
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix_str(what)
        elif not self.quiet:
            print(f"{self.job}: {self.done}/{self.total} {what}", file=sys.stderr, flush=True)

    def close(self):
        """The end of the job."""
        if self.bar is not None:
            self.bar.close()


def write_once(path, data):
    """Writes ``data`` (bytes) to ``path`` exactly once: into a temporary file beside it,
    synced, then hard-linked to ``path``, which fails when ``path`` exists (a shard written
    by an earlier run or attempt is never replaced). Returns whether this call wrote it."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
    os.chmod(tmp, 0o666 & ~_UMASK)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        return True
    finally:
        os.unlink(tmp)


def replace_file(path, data):
    """Writes ``data`` (bytes) to ``path`` through a temporary file renamed over it."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
    os.chmod(tmp, 0o666 & ~_UMASK)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def check_job_file(directory, job):
    """Records the job's settings in ``directory/job.json``, or checks that an earlier run
    there had the same (resuming a job with other settings would mix its shards)."""
    path = os.path.join(directory, "job.json")
    text = json.dumps(job, indent=1, sort_keys=True) + "\n"
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            try:
                earlier = json.load(f)
            except ValueError as e:
                raise JobError(f"{path} is not readable JSON: {e}") from e
        if earlier != json.loads(text):
            raise JobError(
                f"{directory} holds a job with other settings ({path}); "
                "give another directory or the same settings"
            )
        return
    replace_file(path, text.encode())


def sha256(data):
    """The hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def now():
    """Seconds on a monotonic clock."""
    return time.monotonic()
