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
//! changes; the speed drifts with the machine's load, so compare two builds by running them at
//! the same time, one per core, swapping the cores every round, and take the median of the
//! per-round ratios (both runs then see the same load):
//!
//! ```text
//! taskset -c 0 ./old 13 & taskset -c 1 ./new 13; wait     # then the other way round
//! ```

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
const MIDDLE_GAMES: &str = include_str!("../../benches/data/international-middle-games.txt");

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: i32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(14);
    let mib: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(64);
    let mut nodes = 0u64;
    let mut time = Duration::ZERO;
    for fen in MIDDLE_GAMES.lines() {
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
