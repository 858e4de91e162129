//! Quick single-thread search speed check on the International middle games of
//! `benches/search_targets.rs`, for comparing two builds of the engine side by side.
//!
//! It needs only the engine crate and one variant, so a release build takes seconds instead of
//! the minutes the whole workspace takes:
//!
//! ```text
//! cargo build --release -p polydam-engine --example search_speed
//! target/release/examples/search_speed [DEPTH [HASH_MIB]]     # defaults: 14, 64
//! ```
//!
//! It prints `nodes N time T nps X`. The node count changes only when the search's behaviour
//! changes; the speed drifts with the machine's load, so compare builds by alternating them.

use std::time::{Duration, Instant};

use polydam_engine::diagonal::rules::International;
use polydam_engine::diagonal::Diagonal;
use polydam_engine::game::Game;
use polydam_engine::history::GameRecord;
use polydam_engine::search::{Limits, SearchControl, Searcher};

type Intl = Diagonal<International>;

/// The middle games of `benches/search_targets.rs`.
const MIDDLE_GAMES: [&str; 3] = [
    "W:W25,27,28,30,32,33,34,35,37,38,39,40,42,43,44,46,48,49:B3,6,7,8,9,11,12,13,14,16,17,18,19,20,22,23,24,26",
    "W:W26-28,32-36,38,39,42,45,46,48-50:B2,3,5-7,9,14,16-21,23-25",
    "B:W27,28,31-35,37-40,42-44,47,48:B3,6-9,11-14,16,18,19,21-24",
];

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: i32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(14);
    let mib: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(64);
    let mut nodes = 0u64;
    let mut time = Duration::ZERO;
    for fen in MIDDLE_GAMES {
        let pos = Intl::parse_position(fen).expect("the middle-game positions parse");
        let record = GameRecord::new(pos);
        // The table is allocated (and its pages touched) before the clock starts.
        let mut searcher = Searcher::<Intl>::new(mib, 1);
        let started = Instant::now();
        let result = searcher.search(
            &record,
            &Limits::depth(depth),
            &SearchControl::new(),
            &mut |_| {},
        );
        time += started.elapsed();
        nodes += result.nodes;
    }
    println!(
        "nodes {} time {:.3} nps {:.3}M",
        nodes,
        time.as_secs_f64(),
        nodes as f64 / time.as_secs_f64() / 1e6
    );
}
