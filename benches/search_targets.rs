//! The search's speed figures (docs/speed.md), measured in one run so that they share the machine's
//! load (run with `cargo bench --bench search_targets`; add `-- --quick` for one round):
//!
//! 1. single-thread nodes per second from an International middle game (target: 5 million);
//! 2. the depth completed from the International start within 5 seconds (target: 14);
//! 3. time to a fixed depth with 2 threads against 1 thread (target: 1.5x shorter), from
//!    several positions, the two thread counts alternating so that load changes hit both.
//!
//! Each figure prints as a line `name value`; the load average is printed first and last. A
//! word after `--` keeps only the figures whose names contain it (`-- nps`, `-- start-depth`,
//! `-- threads`).

use std::time::{Duration, Instant};

use polydam_engine::diagonal::rules::International;
use polydam_engine::diagonal::Diagonal;
use polydam_engine::game::Game;
use polydam_engine::record::GameRecord;
use polydam_engine::search::{Limits, SearchControl, Searcher};

type Intl = Diagonal<International>;

/// Quiet International middle games (15-16 men each), the kind of position the 5 M target
/// refers to: one FEN per line, shared by `benches/search_targets.rs` and
/// `engine/examples/search_speed.rs`.
const MIDDLE_GAMES: &str = include_str!("data/international-middle-games.txt");

fn record(fen: &str) -> GameRecord<Intl> {
    let pos = if fen == "start" {
        Intl::start()
    } else {
        Intl::parse_position(fen).expect("bench position parses")
    };
    GameRecord::new(pos)
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// Searches `fen` to `depth` with `threads` on a fresh table; returns (time, nodes).
fn timed_search(fen: &str, depth: i32, threads: usize) -> (Duration, u64) {
    let r = record(fen);
    let mut searcher = Searcher::<Intl>::new(64, threads);
    let t = Instant::now();
    let result = searcher.search(
        &r,
        &Limits::depth(depth),
        &SearchControl::new(),
        &mut |_| {},
    );
    (t.elapsed(), result.nodes)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let rounds = if quick { 1 } else { 3 };
    // `cargo bench` passes `--bench`; the first other word is the filter.
    let filter = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .unwrap_or_default();
    let wanted = |name: &str| name.contains(filter.as_str());
    println!("load {}", load());

    // 1. Middle-game speed: fixed-depth searches, nodes over time, also per round so that the
    // machine's drift shows.
    if wanted("middle-game-nps-1-thread") {
        let mut nodes = 0u64;
        let mut time = Duration::ZERO;
        let mut per_round = Vec::new();
        for _ in 0..rounds {
            let (mut round_nodes, mut round_time) = (0u64, Duration::ZERO);
            for fen in MIDDLE_GAMES.lines() {
                let (t, n) = timed_search(fen, 14, 1);
                round_nodes += n;
                round_time += t;
            }
            per_round.push(format!(
                "{:.2}",
                round_nodes as f64 / round_time.as_secs_f64() / 1e6
            ));
            nodes += round_nodes;
            time += round_time;
        }
        println!(
            "middle-game-nps-1-thread {:.2}M ({} nodes in {:.2} s; rounds {})",
            nodes as f64 / time.as_secs_f64() / 1e6,
            nodes,
            time.as_secs_f64(),
            per_round.join(" ")
        );
    }

    // 2. Depth from the start in 5 seconds.
    for _ in 0..if wanted("start-depth-in-5s") {
        rounds
    } else {
        0
    } {
        let r = record("start");
        let mut searcher = Searcher::<Intl>::new(64, 1);
        let mut reached = (0, Duration::ZERO);
        let result = searcher.search(
            &r,
            &Limits::move_time(Duration::from_secs(5)),
            &SearchControl::new(),
            &mut |info| reached = (info.depth.plies(), info.time),
        );
        println!(
            "start-depth-in-5s {} (completed at {:.2} s, {:.2}M nps)",
            reached.0,
            reached.1.as_secs_f64(),
            result.nodes as f64 / result.time.as_secs_f64() / 1e6
        );
    }

    // 3. Time to depth, 1 thread against 2, alternating.
    if wanted("time-to-depth-15-threads") {
        time_to_depth_with_threads(rounds);
    }
    println!("load {}", load());
}

/// Time to depth 15 with 1 thread and with 2, alternating, from the start and the middle
/// games.
fn time_to_depth_with_threads(rounds: usize) {
    let mut one = Duration::ZERO;
    let mut two = Duration::ZERO;
    let positions: Vec<&str> = std::iter::once("start")
        .chain(MIDDLE_GAMES.lines())
        .collect();
    for _ in 0..rounds {
        for &fen in &positions {
            let (t1, _) = timed_search(fen, 15, 1);
            let (t2, _) = timed_search(fen, 15, 2);
            one += t1;
            two += t2;
        }
    }
    println!(
        "time-to-depth-15-threads 1-thread {:.2} s, 2-threads {:.2} s, speedup {:.2}x",
        one.as_secs_f64(),
        two.as_secs_f64(),
        one.as_secs_f64() / two.as_secs_f64()
    );
}
