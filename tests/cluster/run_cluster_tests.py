#!/usr/bin/env python3
"""The cluster driver on a real two-node Ray cluster on this machine.

Starts a head node and a second node (``ray start --head --num-cpus 1 --block`` and ``ray
start --address ... --num-cpus 1 --block``, each a process of its own, with temporary
directories), then checks, with the ``polydam`` program given:

- self-play of 8 shards equals, byte for byte, the shard commands run one after the other;
- the same job again, with the second node's worker killed while it plays a shard: no shard
  lost, none written twice, the same bytes;
- International tables to 4 pieces built (and verified) pair by pair on the cluster equal
  ``polydam egtb build``'s;
- a 20-game match in shards gives the same PDN games as one ``polydam match`` run.

Both nodes are stopped at the end (each ``ray start --block`` process and its process group,
by id). Prints ``N passed, N failed``; exits 1 if any check failed.

    python3 tests/cluster/run_cluster_tests.py --polydam target/debug/polydam
"""

import argparse
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESULTS = []


def check(name, ok, detail=""):
    """Records one check."""
    RESULTS.append((name, ok))
    print(f"{'ok' if ok else 'FAILED'}: {name}{'' if ok else ' ' + detail}", flush=True)


def free_port():
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ray_program():
    """The ``ray`` command beside this Python (the venv's)."""
    return os.path.join(os.path.dirname(sys.executable), "ray")


# Ray replaces 127.0.0.1 by the address of the machine's network interface; another address
# of the loopback range is kept, so that every connection stays on the loopback device.
NODE_IP = "127.0.0.2"


class Cluster:
    """Two Ray nodes on this machine, one CPU each, with a token of their own."""

    def __init__(self, root):
        self.root = root
        self.port = free_port()
        self.worker_port = free_port()
        self.address = f"{NODE_IP}:{self.port}"
        self.procs = []
        token = os.path.join(root, "auth_token")
        with open(token, "w", encoding="utf-8") as f:
            f.write(secrets.token_hex(32))
        # For the nodes, the drivers and every process they start.
        os.environ.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=token,
                          RAY_USAGE_STATS_ENABLED="0")

    def start(self):
        env = dict(os.environ)
        head = [ray_program(), "start", "--head", "--block", "--num-cpus", "1"]
        head += ["--port", str(self.port), "--node-ip-address", NODE_IP]
        head += ["--temp-dir", os.path.join(self.root, "ray"), "--include-dashboard=false"]
        second = [ray_program(), "start", "--block", "--address", self.address, "--num-cpus", "1"]
        second += ["--node-ip-address", NODE_IP]
        second += ["--node-manager-port", str(self.worker_port)]
        for argv in (head, second):
            log = open(os.path.join(self.root, f"node{len(self.procs)}.log"), "w")
            self.procs.append(
                subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env,
                                 start_new_session=True)
            )
            if len(self.procs) == 1:
                self.wait_for(1)
        self.wait_for(2)

    def wait_for(self, nodes, limit=120):
        """Waits until the cluster has ``nodes`` live nodes."""
        code = (
            "import ray,sys; ray.init(address=sys.argv[1], logging_level='error');"
            "print(sum(1 for n in ray.nodes() if n['Alive']))"
        )
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            for p in self.procs:
                if p.poll() is not None:
                    raise RuntimeError(f"a ray node exited with {p.returncode}; see {self.root}")
            out = subprocess.run([sys.executable, "-c", code, self.address],
                                 capture_output=True, text=True, check=False)
            if out.returncode == 0 and out.stdout.strip().isdigit() and int(out.stdout) >= nodes:
                return
            time.sleep(1)
        raise RuntimeError(f"the cluster did not reach {nodes} nodes in {limit} s")

    def stop(self):
        """Stops both nodes: SIGTERM to each ``ray start --block``, then its process group."""
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    pass
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()


def driver(args, *job):
    """Runs ``python3 -m cluster JOB ...`` against the cluster; returns (status, out, err)."""
    argv = [sys.executable, "-m", "cluster", *job]
    out = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        print(out.stdout, out.stderr, sep="\n", file=sys.stderr)
    return out.returncode, out.stdout, out.stderr


def read(path):
    with open(path, "rb") as f:
        return f.read()


def processes():
    """(pid, ppid, argv) of every process."""
    procs = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
            with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        procs.append((int(entry), ppid, argv))
    return procs


def second_node_selfplay(worker_port):
    """(polydam pid, its Ray worker's pid) of a ``polydam selfplay`` run by a worker of the
    second node (a descendant of the raylet listening on ``worker_port``), or None."""
    procs = processes()
    parent = {pid: ppid for pid, ppid, _ in procs}
    raylets = {pid for pid, _, argv in procs
               if argv and argv[0].endswith("raylet") and
               any(a == f"--node_manager_port={worker_port}" for a in argv)}
    for pid, ppid, argv in procs:
        if len(argv) > 1 and argv[1] == "selfplay" and "polydam" in os.path.basename(argv[0]):
            up = ppid
            while up > 1:
                if up in raylets:
                    return pid, ppid
                up = parent.get(up, 1)
    return None


def selfplay_checks(args, cluster, root):
    job = ["selfplay", "--address", cluster.address, "--polydam", args.polydam, "--games", "16",
           "--shard-games", "2", "--depth", "4", "--seed", "2026", "-q"]
    out = os.path.join(root, "sp")
    status, text, _ = driver(args, *job, "--out", out)
    check("selfplay job runs", status == 0, text)
    ref = os.path.join(root, "sp-ref")
    os.makedirs(ref)
    status, text, _ = driver(args, *job, "--out", ref, "--reference")
    commands = [line.split() for line in text.splitlines() if line and not line.startswith("#")]
    check("selfplay reference: 8 shard commands", len(commands) == 8, text)
    for argv in commands:
        subprocess.run(argv, check=True, capture_output=True)
    reference = b"".join(read(os.path.join(ref, f"shard-{i:05d}.txt")) for i in range(8))
    merged = read(os.path.join(out, "selfplay.txt")) if status == 0 else b""
    check("selfplay of 8 shards equals the single-process run", merged == reference and
          len(reference) > 0, f"{len(merged)} vs {len(reference)} bytes")

    # The same job, the second node's worker killed while it plays a shard.
    killed = {}

    def killer():
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not killed:
            found = second_node_selfplay(cluster.worker_port)
            if found:
                polydam, worker = found
                os.kill(worker, signal.SIGKILL)
                killed.update(polydam=polydam, worker=worker)
                return
            time.sleep(0.02)

    thread = threading.Thread(target=killer)
    thread.start()
    out2 = os.path.join(root, "sp-kill")
    status, text, err = driver(args, *job, "--out", out2)
    thread.join()
    check("a worker of the second node was killed mid-shard", bool(killed), err)
    if killed:
        time.sleep(0.5)
        check("the killed worker's polydam died with it",
              not os.path.exists(f"/proc/{killed['polydam']}"))
    check("the job with a killed worker finishes", status == 0, err)
    log = open(os.path.join(out2, "shards.log"), encoding="utf-8").read().splitlines() \
        if os.path.exists(os.path.join(out2, "shards.log")) else []
    written = sorted(int(line.split()[1]) for line in log if " written " in line)
    check("every shard written exactly once", written == list(range(8)) and len(log) == 8,
          "\n".join(log))
    check("no shard taken from the killed worker",
          all(f"pid={killed.get('worker')} " not in line for line in log), "\n".join(log))
    names = sorted(n for n in os.listdir(out2) if n.startswith("shard-"))
    leftovers = [n for n in os.listdir(out2) if n.startswith(".tmp")]
    check("8 shard files and no temporary file", len(names) == 8 and not leftovers,
          str(os.listdir(out2)))
    merged = read(os.path.join(out2, "selfplay.txt")) if status == 0 else b""
    check("with a killed worker, the same bytes as the single-process run", merged == reference)


def egtb_checks(args, cluster, root):
    tables = os.path.join(root, "egtb-cluster")
    status, text, err = driver(args, "egtb", "--address", cluster.address, "--polydam",
                               args.polydam, "-v", "international", "-p", "4", "--dir", tables,
                               "-q")
    check("egtb job builds and verifies", status == 0 and "0 with inconsistencies" in text,
          text + err)
    single = os.path.join(root, "egtb-single")
    subprocess.run([args.polydam, "egtb", "build", "-v", "international", "-p", "4", "--dir",
                    single, "-q"], check=True, capture_output=True)

    def files(d):
        d = os.path.join(d, "international")
        names = sorted(n for n in os.listdir(d) if n.endswith((".wdl", ".dtc")))
        return {n: read(os.path.join(d, n)) for n in names}

    a, b = files(tables), files(single)
    check("International to 4 pieces: the cluster's tables equal polydam egtb build's",
          a == b and len(a) > 0, f"{len(a)} vs {len(b)} files")
    status, text, err = driver(args, "egtb", "--address", cluster.address, "--polydam",
                               args.polydam, "-v", "international", "-p", "4", "--dir", tables,
                               "-q", "--no-verify")
    check("egtb job again: every pair kept", status == 0 and " 0 pairs built" in text, text + err)


def match_checks(args, cluster, root):
    engine = f"{args.polydam} hub --set book=false"
    opts = ["--engine", engine, "--engine", engine, "--depth", "2", "--random-plies", "6",
            "--seed", "5", "--max-plies", "80", "--games", "20", "--sprt", "0,5"]
    pdn = os.path.join(root, "cluster.pdn")
    status, text, err = driver(args, "match", "--address", cluster.address, "--polydam",
                               args.polydam, *opts, "--shard-pairs", "2", "--pdn", pdn, "-q")
    check("match job runs", status == 0 and "match: 20 of 20 games played" in text, text + err)
    single = os.path.join(root, "single.pdn")
    report = subprocess.run([args.polydam, "match", *opts, "--pdn", single, "-q"], check=True,
                            capture_output=True, text=True).stdout

    def pair_lines(t):
        return [line for line in t.splitlines() if " vs " in line or
                line.startswith(("  Elo ", "  SPRT "))]

    check("the sharded match's report: polydam match's score, Elo and SPRT lines",
          pair_lines(text) == pair_lines(report) and len(pair_lines(text)) == 4,
          f"\n{text}\n{report}")

    def games(path):
        if not os.path.exists(path):
            return ""
        return "".join(line for line in open(path, encoding="utf-8").readlines()
                       if not line.startswith("[Date "))

    a, b = games(pdn), games(single)
    check("a 20-game sharded match gives polydam match's games", a == b and
          a.count("[Event ") == 20, f"{a.count('[Event ')} games")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polydam", default=os.path.join(REPO, "target/debug/polydam"))
    parser.add_argument("--only", choices=["selfplay", "egtb", "match"], action="append")
    args = parser.parse_args()
    args.polydam = os.path.abspath(args.polydam)
    root = tempfile.mkdtemp(prefix="pdc-")
    cluster = Cluster(root)
    started = time.monotonic()
    try:
        cluster.start()
        print(f"cluster of 2 nodes up at {cluster.address} ({time.monotonic() - started:.0f} s)",
              flush=True)
        for name, fn in (("selfplay", selfplay_checks), ("egtb", egtb_checks),
                         ("match", match_checks)):
            if args.only and name not in args.only:
                continue
            t = time.monotonic()
            fn(args, cluster, root)
            print(f"{name} checks: {time.monotonic() - t:.0f} s", flush=True)
    finally:
        cluster.stop()
    passed = sum(1 for _, ok in RESULTS if ok)
    failed = len(RESULTS) - passed
    print(f"cluster tests: {time.monotonic() - started:.0f} s")
    if failed:
        print(f"kept for a look: {root}")
    else:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not RESULTS else 0


if __name__ == "__main__":
    sys.exit(main())
