//! Trying built tables out: random covered positions, the engine playing table wins and table
//! draws to their end (`polydam egtb suite`), and timed probes (`polydam egtb bench`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use polydam_engine::egtb::{Material, Placement, SliceIndex, TableGame, TableProbe, TableSet, Wdl};
use polydam_engine::game::{Outcome, Side};
use polydam_engine::record::{DrawCounters, GameRecord};
use polydam_engine::search::{Limits, SearchControl, Searcher};
use polydam_tables::zobrist::splitmix64;

/// A small random generator (SplitMix64): positions for the suite and the bench, reproducible
/// from a seed.
#[derive(Clone, Debug)]
pub struct Random(pub u64);

impl Random {
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = splitmix64(self.0);
        self.0 = state;
        out
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

/// A random position of one of `slices` whose side to move has no capture and can move, as a
/// real position (Black to move half the time); `None` when the draw falls on no such
/// position.
pub fn random_position<G: TableGame>(rng: &mut Random, slices: &[Material]) -> Option<G::Position> {
    let board = G::board();
    let m = slices[rng.below(slices.len() as u64) as usize];
    let index = SliceIndex::new(board, m);
    let p = index.unrank(board, rng.below(index.size))?;
    if G::terminal(&p).is_some() {
        return None;
    }
    let black = rng.next_u64() & 1 == 1;
    // The turned placement's position, with the colours' roles given back by the side letter.
    let shown = if black {
        G::position_of(&p.flip(board.squares))
    } else {
        G::position_of(&p)
    };
    let mut fen = G::fen(&shown);
    if black {
        fen.replace_range(0..1, "B");
    }
    let pos = G::parse_position(&fen).ok()?;
    if G::placement_of(&pos) != p
        || G::decided(&pos).is_some()
        || G::has_capture(&pos)
        || !G::has_move(&pos)
    {
        return None;
    }
    Some(pos)
}

/// Material weight of one side: men 1, kings 3.
fn weight(p: &Placement, side: usize) -> u32 {
    p.men[side].count_ones() + 3 * p.kings[side].count_ones()
}

/// What a suite plays: how many won and drawn positions, and which.
#[derive(Clone, Copy, Debug)]
pub struct SuiteWants {
    /// Table wins wanted.
    pub won: usize,
    /// Table draws wanted.
    pub drawn: usize,
    /// Fewest plies to conversion of a won position.
    pub min_dtc: u8,
}

/// Random positions of `slices` that the tables win or draw, drawn from `rng` until `wants` is
/// met (or after 50 million draws): won positions with a conversion of at least
/// `wants.min_dtc` plies that the draw rules leave time for, and drawn ones with a real
/// defence (the other side has more material, more than two pieces on the board).
pub fn suite_positions<G: TableGame>(
    tables: &dyn TableProbe<G>,
    slices: &[Material],
    wants: SuiteWants,
    rng: &mut Random,
) -> (Vec<G::Position>, Vec<G::Position>) {
    let mut won = Vec::new();
    let mut drawn = Vec::new();
    let mut tries = 0u64;
    while (won.len() < wants.won || drawn.len() < wants.drawn) && tries < 50_000_000 {
        tries += 1;
        let Some(pos) = random_position::<G>(rng, slices) else {
            continue;
        };
        let p = G::placement_of(&pos);
        match tables.value(&pos) {
            Some(Wdl::Win) if won.len() < wants.won => {
                let Some(d) = tables.dtc(&pos) else {
                    continue;
                };
                let counters = DrawCounters::start::<G>(&pos);
                let quiet = G::draw_rules().quiet_plies as u32;
                let room = counters
                    .endgame_limit()
                    .map(u32::from)
                    .into_iter()
                    .chain((quiet > 0 && p.men == [0, 0]).then_some(quiet))
                    .min();
                if d >= wants.min_dtc && room.is_none_or(|r| d as u32 <= r) {
                    won.push(pos);
                }
            }
            Some(Wdl::Draw)
                if drawn.len() < wants.drawn
                    && weight(&p, 0) != weight(&p, 1)
                    && p.side(0).count_ones() + p.side(1).count_ones() > 2 =>
            {
                drawn.push(pos);
            }
            _ => {}
        }
    }
    (won, drawn)
}

/// How a game of the suite ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The winner (`None` for a draw or a game stopped at the ply cap).
    pub winner: Option<Side>,
    /// Plies played.
    pub plies: usize,
    /// Why it ended (the game's reason, or `ply cap`).
    pub how: String,
}

/// Plays `pos` to its end with the engine on both sides (one thread, 16 MiB of hash each,
/// `movetime` per move, `playing` as its tables), stopping after `max_plies` plies.
pub fn play_out<G: TableGame>(
    pos: G::Position,
    playing: &Arc<dyn TableProbe<G>>,
    movetime: Duration,
    max_plies: usize,
) -> Played {
    let limits = Limits::move_time(movetime);
    let mut record = GameRecord::<G>::new(pos);
    let mut searchers = [Searcher::<G>::new(16, 1), Searcher::<G>::new(16, 1)];
    for s in &mut searchers {
        s.set_tables(Some(Arc::clone(playing)));
    }
    while record.moves().len() < max_plies {
        if let Some((outcome, reason)) = record.outcome() {
            let mover = G::side_to_move(record.current());
            let winner = match outcome {
                Outcome::Win => Some(mover),
                Outcome::Loss => Some(mover.opponent()),
                Outcome::Draw => None,
            };
            return Played {
                winner,
                plies: record.moves().len(),
                how: format!("{reason:?}"),
            };
        }
        let side = G::side_to_move(record.current()).index();
        let r = searchers[side].search(&record, &limits, &SearchControl::new(), &mut |_| {});
        let Some(mv) = r.best_move else {
            break;
        };
        record.push(mv);
    }
    Played {
        winner: None,
        plies: record.moves().len(),
        how: "ply cap".into(),
    }
}

/// What the probe bench measured.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeBench {
    /// Positions probed.
    pub positions: usize,
    /// Those the tables cover.
    pub covered: usize,
    /// Nanoseconds per search probe, best of three rounds.
    pub search_ns: f64,
    /// Positions whose distance to conversion was read.
    pub dtc_probed: usize,
    /// Those that have one.
    pub with_dtc: usize,
    /// Microseconds per distance read.
    pub dtc_us: f64,
}

/// Times `set`'s probes of `n` random positions without a capture (slices weighted by their
/// size, so that a probe lands where positions are): the search's probe over all of them (best
/// of three rounds), the distance read over the first 20000.
pub fn bench_probes<G: TableGame>(
    set: &TableSet<G>,
    pieces: u32,
    n: usize,
    seed: u64,
) -> ProbeBench {
    let board = G::board();
    let slices: Vec<Material> = polydam_engine::egtb::slices::<G>(pieces);
    let sizes: Vec<u64> = slices
        .iter()
        .map(|&m| SliceIndex::new(board, m).size)
        .collect();
    let total: u64 = sizes.iter().sum();
    let mut rng = Random(seed);
    let mut positions = Vec::with_capacity(n);
    while positions.len() < n {
        let mut x = rng.below(total);
        let mut k = 0;
        while x >= sizes[k] {
            x -= sizes[k];
            k += 1;
        }
        if let Some(pos) = random_position::<G>(&mut rng, &slices[k..=k]) {
            positions.push(pos);
        }
    }
    let counters: Vec<DrawCounters> = positions
        .iter()
        .map(|p| DrawCounters::start::<G>(p))
        .collect();
    let mut best = f64::MAX;
    let mut covered = 0;
    for _ in 0..3 {
        let t = Instant::now();
        covered = 0;
        for (p, c) in positions.iter().zip(&counters) {
            covered += usize::from(set.search_score(p, c).is_some());
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    let dtc_n = positions.len().min(20_000);
    let t = Instant::now();
    let mut with_dtc = 0;
    for p in &positions[..dtc_n] {
        with_dtc += usize::from(set.dtc(p).is_some());
    }
    let dtc_s = t.elapsed().as_secs_f64();
    ProbeBench {
        positions: positions.len(),
        covered,
        search_ns: best * 1e9 / positions.len() as f64,
        dtc_probed: dtc_n,
        with_dtc,
        dtc_us: dtc_s * 1e6 / dtc_n as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_draws_the_numbers_it_always_drew() {
        // The first numbers of the suite's and the bench's generator from two seeds (the
        // default seed, and the suite's seed for a variant of 13 letters), as the generator
        // drew them before it shared the tables crate's SplitMix64: the same seeds keep
        // drawing the same positions.
        let mut a = Random(1);
        let drawn = [a.next_u64(), a.next_u64(), a.next_u64()];
        assert_eq!(
            drawn,
            [
                0x910a_2dec_8902_5cc1,
                0xbeeb_8da1_658e_ec67,
                0xf893_a2ee_fb32_555e
            ]
        );
        let mut b = Random(1 ^ (13 << 32));
        assert_eq!(
            [b.next_u64(), b.next_u64()],
            [0xd88e_e648_24d1_f8fc, 0x1e6b_90c7_c7ca_a525]
        );
    }
}
