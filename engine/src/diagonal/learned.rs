//! The learned evaluation of the diagonal family: weights of board patterns and material
//! counts fitted by `polydam train` to self-play games (see `docs/training.md`).
//!
//! The feature sets are `diagonal-patterns-v1` and `-v2`: for each game phase (0 the middle
//! game, 1 the endgame) and each 4x4 window of [`super::patterns`], one weight per window
//! state, seen from the side to move; then a bias and one-hot counts of own men, opponent
//! men, own kings and opponent kings (0 to the men a side starts with, larger counts clamped).
//! In v1 the middle-game tables are used while more men than one side starts with are on the
//! board, kings not counted, and the endgame tables from there down; v2 has the same indices
//! but blends both tables near that boundary ([`PatternLayout::middle_game_share`]), and its
//! weights are trained blended. [`PatternLayout`] numbers the features; [`active_features`]
//! lists a position's v1 features and [`active_feature_values`] its v2 ones with their
//! values; [`Learned::evaluate`] sums their weights from the incrementally kept window
//! states.
//!
//! A variant has learned weights when the weights source in use gives it a file: the
//! shipped one by default, or one the program names (see [`crate::learn::source`]).

use polydam_tables::diagonal::Geometry;

use super::bits::Bits;
use super::patterns::{window_count, Windows, WINDOW_STATES};
use super::position::Position;
use super::rules::Rules;
use crate::game::Side;
use crate::learn::linear::{self, CountTail, FixedWeights, COUNT_GROUPS};
use crate::learn::source::{WeightsError, WeightsSource};
use crate::learn::weights::{Base, WeightsFile};

/// The numbering of `diagonal-patterns-v1` on one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternLayout {
    /// Playing squares of the board.
    pub squares: usize,
    /// Windows of the board.
    pub windows: usize,
    /// Men a side starts with: the phase threshold and the largest count.
    pub men: usize,
}

impl PatternLayout {
    /// The layout on board `g`.
    pub fn of(g: Geometry) -> PatternLayout {
        PatternLayout {
            squares: g.squares(),
            windows: window_count(g),
            men: (g.half * (g.rows / 2 - 1)) as usize,
        }
    }

    /// The feature set's name: v1 (a hard switch between the phases' tables) or v2 (the
    /// tables blended near the boundary).
    pub fn name(self) -> String {
        format!("diagonal-patterns-v1-{}sq", self.squares)
    }

    /// The name of the blended set, v2: what `polydam train` writes.
    pub fn blended_name(self) -> String {
        format!("diagonal-patterns-v2-{}sq", self.squares)
    }

    /// The index of window `window` in state `state` in phase `phase`.
    #[inline(always)]
    pub fn window(self, phase: usize, window: usize, state: usize) -> usize {
        (phase * self.windows + window) * WINDOW_STATES + state
    }

    /// The index of the bias, after the window tables.
    #[inline(always)]
    pub fn bias(self) -> usize {
        2 * self.windows * WINDOW_STATES
    }

    /// The bias and the material counts that end the set.
    #[inline(always)]
    pub fn tail(self) -> CountTail {
        CountTail {
            bias: self.bias(),
            men: self.men,
            groups: &COUNT_GROUPS,
        }
    }

    /// The index of count `n` of `group` (0 own men, 1 opponent men, 2 own kings, 3 opponent
    /// kings).
    #[inline(always)]
    pub fn count(self, group: usize, n: u32) -> usize {
        self.tail().count(group, n)
    }

    /// The number of features.
    pub fn total(self) -> usize {
        self.tail().total()
    }

    /// The phase of a position with `men` men on the board: 0 the middle game, 1 the endgame.
    #[inline(always)]
    pub fn phase(self, men: u32) -> usize {
        linear::phase(men, self.men)
    }

    /// The middle-game tables' share of the window sum of a position with `men` men on the
    /// board in the blended set (v2), as `(share, parts)`: all of it above the blending band,
    /// none below, and in between a share growing with the men. The band spans a fifth of a
    /// side's men on either side of the [`Self::phase`] boundary (16 to 24 men on 10x10).
    #[inline(always)]
    pub fn middle_game_share(self, men: u32) -> (u32, u32) {
        let half = (self.men / 5) as i64;
        let parts = (4 * half).max(1);
        if half == 0 {
            return if self.phase(men) == 0 { (1, 1) } else { (0, 1) };
        }
        let share = (2 * i64::from(men) - 2 * (self.men as i64 - half) - 1).clamp(0, parts);
        (share as u32, parts as u32)
    }
}

/// Own men, opponent men, own kings, opponent kings of `pos`, seen from the side to move.
#[inline(always)]
fn counts<B: Bits>(pos: &Position<B>) -> [u32; 4] {
    let s = pos.side.index();
    let (own, opp) = (pos.pieces[s], pos.pieces[1 - s]);
    [
        (own & !pos.kings).count_ones(),
        (opp & !pos.kings).count_ones(),
        (own & pos.kings).count_ones(),
        (opp & pos.kings).count_ones(),
    ]
}

/// Calls `visit` with every active feature of `pos` (the windows in order, the bias, the
/// four counts), read from its incrementally kept window states.
#[inline(always)]
pub fn active_features<R: Rules>(pos: &Position<R::Bits>, mut visit: impl FnMut(usize)) {
    let g = R::SHEET.board;
    let l = PatternLayout::of(g);
    let windows = Windows::<R::Bits>::of(g);
    let c = counts(pos);
    let phase = l.phase(c[0] + c[1]);
    for w in 0..l.windows {
        visit(l.window(phase, w, windows.view(&pos.windows, pos.side, w)));
    }
    l.tail().features(c, visit);
}

/// Calls `visit` with every active feature of `pos` in the blended set (v2) and its value:
/// the windows of both phases' tables with their shares in the blending band, of one table
/// (value 1) outside it; then the bias and the four counts (value 1).
#[inline(always)]
pub fn active_feature_values<R: Rules>(pos: &Position<R::Bits>, mut visit: impl FnMut(usize, f32)) {
    let g = R::SHEET.board;
    let l = PatternLayout::of(g);
    let windows = Windows::<R::Bits>::of(g);
    let c = counts(pos);
    let (share, parts) = l.middle_game_share(c[0] + c[1]);
    let mid = share as f32 / parts as f32;
    for w in 0..l.windows {
        let state = windows.view(&pos.windows, pos.side, w);
        if share != 0 {
            visit(l.window(0, w, state), mid);
        }
        if share != parts {
            visit(l.window(1, w, state), 1.0 - mid);
        }
    }
    l.tail().features(c, |i| visit(i, 1.0));
}

/// A variant's learned weights, ready for the search.
#[derive(Clone, Debug)]
pub struct Learned {
    layout: PatternLayout,
    /// Whether the file is of the blended set (v2): the phases' tables blend near the
    /// boundary; else (v1) a hard switch.
    blended: bool,
    /// The weights in fixed point: the window tables indexed as [`PatternLayout::window`],
    /// then the tail.
    weights: FixedWeights,
}

impl Learned {
    /// The weights of `file` for variant `R`, checked against its feature set.
    pub fn from_file<R: Rules>(file: &WeightsFile, source: &str) -> Result<Learned, String> {
        let layout = PatternLayout::of(R::SHEET.board);
        let blended = file.feature_set != layout.name();
        let set = if blended {
            layout.blended_name()
        } else {
            layout.name()
        };
        let weights =
            FixedWeights::from_file(file, source, &set, weights_name::<R>(), layout.tail())?;
        Ok(Learned {
            layout,
            blended,
            weights,
        })
    }

    /// What the weights are added to.
    #[inline(always)]
    pub fn base(&self) -> Base {
        self.weights.base
    }

    /// Where the weights came from (`shipped` or a file's path).
    pub fn source(&self) -> &str {
        &self.weights.source
    }

    /// The sum of the active features' weights of `pos`, from the side to move's view, in
    /// hundredths of a man.
    #[inline(always)]
    pub fn evaluate<B: Bits>(&self, g: Geometry, pos: &Position<B>) -> i32 {
        let l = self.layout;
        let c = counts(pos);
        let (share, parts) = if self.blended {
            l.middle_game_share(c[0] + c[1])
        } else {
            (1 - l.phase(c[0] + c[1]) as u32, 1)
        };
        let sum = if share == parts {
            self.window_sum(g, pos, 0)
        } else if share == 0 {
            self.window_sum(g, pos, 1)
        } else {
            // Near the phase boundary both tables count, so that an exchange across it does
            // not jump the evaluation.
            let mg = i64::from(self.window_sum(g, pos, 0));
            let eg = i64::from(self.window_sum(g, pos, 1));
            let (share, parts) = (i64::from(share), i64::from(parts));
            ((mg * share + eg * (parts - share)) / parts) as i32
        };
        linear::to_hundredths(sum + self.weights.tail_sum(l.tail(), c))
    }

    /// The window weights of `pos` in `phase`'s tables, in fixed point.
    #[inline(always)]
    fn window_sum<B: Bits>(&self, g: Geometry, pos: &Position<B>, phase: usize) -> i32 {
        let l = self.layout;
        let windows = Windows::<B>::of(g);
        let table = &self.weights.table[l.window(phase, 0, 0)..];
        let mut sum = 0i32;
        // White reads its own view; Black's is the flipped mirror window (see `patterns`).
        match pos.side {
            Side::White => {
                for (w, &state) in pos.windows.as_ref()[..l.windows].iter().enumerate() {
                    sum += table[w * WINDOW_STATES + state as usize] as i32;
                }
            }
            Side::Black => {
                for w in 0..l.windows {
                    sum += table[w * WINDOW_STATES + windows.black_view(&pos.windows, w)] as i32;
                }
            }
        }
        sum
    }
}

/// The learned weights of variant `R` from the weights source in use (see
/// [`crate::learn::source`]), or `None` (it keeps the hand evaluation).
#[inline(always)]
pub fn learned<R: Rules>() -> Option<&'static Learned> {
    R::learned_cell()?.get(weights_name::<R>(), Learned::from_file::<R>)
}

/// Builds the table `source` gives `R` without using it yet (see [`crate::learn::source::WeightsCell::prepare`]).
pub fn prepare<R: Rules>(source: &WeightsSource) -> Result<(), WeightsError> {
    match R::learned_cell() {
        Some(cell) => cell.prepare(source, weights_name::<R>(), Learned::from_file::<R>),
        None => Ok(()),
    }
}

/// The name the weights of `R` are kept under: its own, or the variant it shares them with.
pub fn weights_name<R: Rules>() -> &'static str {
    R::INFO.weights_of.unwrap_or(R::NAME)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagonal::rules::*;
    use crate::diagonal::Diagonal;
    use crate::game::{Duplicates, Game};
    use polydam_tables::zobrist::splitmix64;

    #[test]
    fn every_shipped_weights_file_loads_for_its_variant() {
        for (name, text) in crate::learn::source::shipped_of_family("diagonal").iter() {
            let file = WeightsFile::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(file.variant, *name);
            let loaded = match *name {
                "international" => Learned::from_file::<International>(&file, "shipped"),
                "killer" => Learned::from_file::<Killer>(&file, "shipped"),
                "russian" => Learned::from_file::<Russian>(&file, "shipped"),
                "brazilian" => Learned::from_file::<Brazilian>(&file, "shipped"),
                "pool" => Learned::from_file::<Pool>(&file, "shipped"),
                "english" => Learned::from_file::<English>(&file, "shipped"),
                "italian" => Learned::from_file::<Italian>(&file, "shipped"),
                "spanish" => Learned::from_file::<Spanish>(&file, "shipped"),
                "czech" => Learned::from_file::<Czech>(&file, "shipped"),
                "antidraughts" => Learned::from_file::<Antidraughts>(&file, "shipped"),
                "breakthrough" => Learned::from_file::<Breakthrough>(&file, "shipped"),
                "dbc" => Learned::from_file::<Dbc>(&file, "shipped"),
                "dbc-killer" => Learned::from_file::<DbcKiller>(&file, "shipped"),
                "dbc-killer-light" => Learned::from_file::<DbcKillerLight>(&file, "shipped"),
                "dbc-halt" => Learned::from_file::<DbcHalt>(&file, "shipped"),
                "dbc-halt-2" => Learned::from_file::<DbcHalt2>(&file, "shipped"),
                "constitutional" => Learned::from_file::<Constitutional>(&file, "shipped"),
                "frisian" => Learned::from_file::<Frisian>(&file, "shipped"),
                "frysk" => Learned::from_file::<Frysk>(&file, "shipped"),
                "thai" => Learned::from_file::<Thai>(&file, "shipped"),
                "canadian" => Learned::from_file::<Canadian>(&file, "shipped"),
                other => panic!("no test dispatch for shipped weights of {other}"),
            };
            let l = loaded.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                l.weights.table.iter().any(|&w| w != 0),
                "{name}: all window weights are 0"
            );
        }
    }

    /// Random weights for `R`'s feature set, with the bias and counts included.
    fn random_file<R: Rules>(seed: u64) -> WeightsFile {
        let l = PatternLayout::of(R::SHEET.board);
        let mut state = seed;
        let weights = (0..l.total())
            .map(|_| {
                let (s, r) = splitmix64(state);
                state = s;
                (r % 20001) as f64 / 100.0 - 100.0
            })
            .collect();
        WeightsFile {
            feature_set: l.name(),
            variant: R::NAME.into(),
            base: Base::None,
            scale: 150.0,
            weights,
        }
    }

    /// Plays a random game of `R` and checks at every position that the evaluation with
    /// random weights of v1 (hard switch) or v2 (`blended`) is the sum of the active
    /// features' weights, times their values in v2; answers how many positions were in the
    /// blending band.
    fn check_sum_of_active_weights<R: Rules>(blended: bool) -> usize {
        let mut file = random_file::<R>(7);
        let layout = PatternLayout::of(R::SHEET.board);
        if blended {
            file.feature_set = layout.blended_name();
        }
        let l = Learned::from_file::<R>(&file, "test").expect("random weights load");
        assert_eq!(l.blended, blended);
        let mut pos = Diagonal::<R>::start();
        let mut moves = Vec::new();
        let mut seed = 99;
        let mut in_band = 0;
        for _ in 0..300 {
            let mut sum = 0.0;
            if blended {
                active_feature_values::<R>(&pos, |i, v| sum += file.weights[i] * v as f64);
            } else {
                active_features::<R>(&pos, |i| sum += file.weights[i]);
            }
            let [own, opp, ..] = counts(&pos);
            let (share, parts) = layout.middle_game_share(own + opp);
            in_band += usize::from(share != 0 && share != parts);
            let got = l.evaluate(R::SHEET.board, &pos);
            // Each of the 21 weights (30 on 12x12) is rounded to 1/8 before summing.
            assert!(
                (got as f64 - sum).abs() <= 3.0,
                "{}: {got} vs {sum}",
                R::NAME
            );
            Diagonal::<R>::generate(&pos, Duplicates::Drop, &mut moves);
            if moves.is_empty() {
                break;
            }
            let (s, r) = splitmix64(seed);
            seed = s;
            pos = Diagonal::<R>::play(&pos, &moves[(r % moves.len() as u64) as usize]);
        }
        in_band
    }

    #[test]
    fn the_evaluation_is_the_sum_of_the_active_weights() {
        for blended in [false, true] {
            // The random games pass through the blending band, where v1 and v2 differ.
            assert!(check_sum_of_active_weights::<International>(blended) > 0);
            assert!(check_sum_of_active_weights::<Russian>(blended) > 0);
            check_sum_of_active_weights::<Canadian>(blended);
            check_sum_of_active_weights::<Frisian>(blended);
        }
    }

    #[test]
    fn the_phases_blend_over_a_band_around_the_boundary() {
        let l = PatternLayout::of(International::SHEET.board);
        assert_eq!(l.middle_game_share(40), (16, 16));
        assert_eq!(l.middle_game_share(25), (16, 16));
        assert_eq!(l.middle_game_share(24), (15, 16));
        assert_eq!(l.middle_game_share(21), (9, 16));
        assert_eq!(l.middle_game_share(20), (7, 16));
        assert_eq!(l.middle_game_share(17), (1, 16));
        assert_eq!(l.middle_game_share(16), (0, 16));
        assert_eq!(l.middle_game_share(2), (0, 16));
        // Symmetric about the boundary between 20 and 21 men.
        for k in 0..5 {
            let (a, parts) = l.middle_game_share(21 + k);
            let (b, _) = l.middle_game_share(20 - k);
            assert_eq!(a + b, parts, "{k}");
        }
        let r = PatternLayout::of(Russian::SHEET.board);
        assert_eq!(r.middle_game_share(15), (8, 8));
        assert_eq!(r.middle_game_share(13), (5, 8));
        assert_eq!(r.middle_game_share(10), (0, 8));
    }

    #[test]
    fn weights_for_another_board_or_variant_are_refused() {
        let file = random_file::<Russian>(1);
        let err = Learned::from_file::<International>(&file, "x").expect_err("8x8 weights");
        assert!(
            err.contains("feature set 'diagonal-patterns-v1-32sq'"),
            "{err}"
        );
        let mut file = random_file::<International>(1);
        file.variant = "killer".into();
        let err = Learned::from_file::<International>(&file, "x").expect_err("killer's");
        assert!(err.contains("weights for killer"), "{err}");
        file.variant = "international".into();
        file.weights[3] = 5000.0;
        let err = Learned::from_file::<International>(&file, "x").expect_err("too big");
        assert!(err.contains("out of range"), "{err}");
    }
}
