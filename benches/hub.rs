//! Hub front-end latency: how long `stop` takes to bring the `done` line, and `ping` its
//! `pong`, while the engine searches. A benchmark, not a test: it prints the figures (target:
//! every `stop` answered within 20 ms).
//!
//! ```text
//! cargo build --release && cargo bench --bench hub [-- --rounds 200 --threads 1]
//! ```
//!
//! It drives the real binary through pipes (`target/release/polydam`, or `$POLYDAM_BIN`), so
//! process and pipe latency are included, as a GUI sees them. Each round sets a position from a
//! list of middle-game and start positions, starts a search (`go analyze` with
//! `level infinite`, `go ponder`, or `go think` with a long move time), lets it run for a
//! pseudo-random 5-300 ms, sends `ping`, then `stop`, and times both answers.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn binary() -> PathBuf {
    if let Some(path) = std::env::var_os("POLYDAM_BIN") {
        return PathBuf::from(path);
    }
    // target/release/deps/hub-<hash> -> target/release/polydam
    let exe = std::env::current_exe().unwrap_or_default();
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .map(PathBuf::from)
        .unwrap_or_default();
    dir.join("polydam")
}

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

fn summary(name: &str, mut ms: Vec<f64>, target: f64) {
    ms.sort_by(|a, b| a.total_cmp(b));
    let over = ms.iter().filter(|&&x| x > target).count();
    println!(
        "{name:5}: n={} median={:.2} ms p95={:.2} ms p99={:.2} ms max={:.2} ms; over {target} ms: {over}",
        ms.len(),
        percentile(&ms, 0.5),
        percentile(&ms, 0.95),
        percentile(&ms, 0.99),
        ms.last().copied().unwrap_or(f64::NAN),
    );
}

const POSITIONS: &[&str] = &[
    "pos start",
    "pos start moves=\"32-28 19-23 28x19x23 14x23x19 37-32 10-14 41-37 5-10 31-27 17-21\"",
    "pos fen=W:W27,28,32,33,34,37,38,39,40,42,43,44,45,47,48:B6,8,9,11,12,13,14,16,17,18,19,21,22,23,24",
    "pos fen=B:WK3,25,30,34:B13,K40,45",
];

fn main() {
    // `cargo bench` passes --bench; ignore everything else but our options.
    let rounds = arg("--rounds", 200);
    let threads = arg("--threads", 1);
    let bin = binary();
    if !bin.exists() {
        eprintln!(
            "{} not found: run `cargo build --release` first or set POLYDAM_BIN",
            bin.display()
        );
        std::process::exit(2);
    }
    let mut child = Command::new(&bin)
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start polydam hub");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel::<(Instant, String)>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send((Instant::now(), line)).is_err() {
                break;
            }
        }
    });
    let mut send = |line: &str| -> Instant {
        let t = Instant::now();
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|_| stdin.flush())
            .expect("write");
        t
    };
    let wait_for = |word: &str| -> Instant {
        loop {
            let (t, line) = rx
                .recv_timeout(Duration::from_secs(30))
                .expect("engine answers");
            if line.split(' ').next() == Some(word) {
                return t;
            }
        }
    };
    send(&format!("set-param name=threads value={threads}"));
    send("set-param name=hash value=64");
    send("init");
    wait_for("ready");

    let mut stop_ms = Vec::with_capacity(rounds);
    let mut ping_ms = Vec::with_capacity(rounds);
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut modes = [0usize; 3];
    for round in 0..rounds {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let run_ms = 5 + seed % 296;
        send(POSITIONS[round % POSITIONS.len()]);
        let mode = round % 3;
        modes[mode] += 1;
        match mode {
            0 => {
                send("level infinite");
                send("go analyze");
            }
            1 => {
                send("level move-time=60");
                send("go ponder");
            }
            _ => {
                send("level move-time=60");
                send("go think");
            }
        }
        std::thread::sleep(Duration::from_millis(run_ms));
        let t = send("ping");
        ping_ms.push(wait_for("pong").duration_since(t).as_secs_f64() * 1e3);
        let t = send("stop");
        stop_ms.push(wait_for("done").duration_since(t).as_secs_f64() * 1e3);
    }
    send("quit");
    let _ = child.wait();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "polydam hub, {threads} search thread(s), {rounds} rounds (analyze {}, ponder {}, think {}), searches of 5-300 ms; load {}",
        modes[0],
        modes[1],
        modes[2],
        load.split(' ').next().unwrap_or("?")
    );
    summary("stop", stop_ms, 20.0);
    summary("ping", ping_ms, 20.0);
}
