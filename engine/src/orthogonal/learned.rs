//! The learned evaluation of the orthogonal family: weights of rank and file patterns and
//! material counts fitted by `polydam train` to self-play games (see `docs/training.md`).
//!
//! The feature set is `orthogonal-lines-v2`, seen from the side to move (for Black the board
//! is turned half a turn, bit `i` becoming bit `63 - i`, so that one table serves both
//! colours): for each game phase (0 the middle game, 1 the endgame) and each of the 16 lines
//! of the board (the 8 ranks, then the 8 files), one weight per line state, the base-3 number
//! of its 8 squares (digit 0 empty or a king, 1 own man, 2 opponent man); then, per phase, own
//! and opponent kings by square (the lines leave kings out, and a flying king's worth depends
//! on where it stands); then a bias and one-hot counts of own men, opponent men, own kings and
//! opponent kings (0 to the men a side starts with, larger counts clamped). The middle-game tables are used while more men than
//! one side starts with are on the board, kings not counted. [`LineLayout`] numbers the
//! features; [`active_features`] lists a position's, and [`Learned::evaluate`] sums their
//! weights.
//!
//! The line states are computed from scratch at each evaluation: a rank is a byte of the
//! bitboards, and a file a byte of the transposed bitboards ([`transpose`]); a 256-entry
//! table turns a byte into its base-3 value. 16 table reads and two transposes, against
//! diagonal's incrementally kept windows: the orthogonal positions stay as small as they are.
//!
//! A variant has learned weights when the weights source in use gives it a file: the
//! shipped one by default, or one the program names (see [`crate::learn::source`]).

use super::position::Position;
use super::rules::{men_per_side, Rules};
use crate::game::Side;
use crate::learn::linear::{self, CountTail, FixedWeights, COUNT_GROUPS};
use crate::learn::source::{WeightsError, WeightsSource};
use crate::learn::weights::{Base, WeightsFile};

/// Lines of the board: the 8 ranks (lines 0 to 7), then the 8 files (lines 8 to 15).
pub const LINES: usize = 16;

/// States of a line: 3^8, one base-3 digit per square.
pub const LINE_STATES: usize = 6561;

/// The line names by index, for feature names: `rank0` .. `rank7`, `file0` .. `file7`.
const LINE_KINDS: [&str; 2] = ["rank", "file"];

/// The phase names, for feature names.
const PHASES: [&str; 2] = ["mid", "end"];

/// The numbering of a feature set in a variant whose sides start with `men` men:
/// `orthogonal-lines-v2` (`lines`: the line tables, then kings by square) or
/// `orthogonal-psq-v1` (no lines: kings, then men, by square).
///
/// Lines are side-relative: rank 0 is the side to move's first rank (rank 1 for White, rank
/// 8 for Black), file 0 its left-hand file (a for White, h for Black). A rank's digits are
/// its squares from file 0 to file 7; a file's, its squares from rank 0 to rank 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineLayout {
    /// Men a side starts with: the phase threshold and the largest count.
    pub men: usize,
    /// Whether the set has the line tables (`orthogonal-lines-v2`); without them it has men
    /// by square instead (`orthogonal-psq-v1`).
    pub lines: bool,
}

impl LineLayout {
    /// The layout of variant `R`.
    #[inline(always)]
    pub const fn of<R: Rules>() -> LineLayout {
        LineLayout {
            men: const { men_per_side::<R>() },
            lines: true,
        }
    }

    /// The piece-square layout of variant `R` (`orthogonal-psq-v1`).
    #[inline(always)]
    pub const fn psq_of<R: Rules>() -> LineLayout {
        LineLayout {
            men: const { men_per_side::<R>() },
            lines: false,
        }
    }

    /// The feature set's name: `orthogonal-lines-v2-16men` or `orthogonal-psq-v1-16men` (the
    /// men per side are part of it, so that weights are never read for a variant with another
    /// start).
    pub fn name(self) -> String {
        if self.lines {
            format!("orthogonal-lines-v2-{}men", self.men)
        } else {
            format!("orthogonal-psq-v1-{}men", self.men)
        }
    }

    /// Where the piece-square tables start: after both phases' line tables, if any.
    #[inline(always)]
    fn squares_at(self) -> usize {
        if self.lines {
            2 * LINES * LINE_STATES
        } else {
            0
        }
    }

    /// The piece-square tables per phase: own and opponent kings, then (without lines) own
    /// and opponent men.
    #[inline(always)]
    fn groups(self) -> usize {
        if self.lines {
            2
        } else {
            4
        }
    }

    /// The index of line `line` in state `state` in phase `phase`.
    #[inline(always)]
    pub fn line(self, phase: usize, line: usize, state: usize) -> usize {
        (phase * LINES + line) * LINE_STATES + state
    }

    /// The index of a king (`man` false) or man (`man` true, piece-square set only) of the
    /// side to move (`opp` false) or of the opponent (`opp` true) on side-relative square
    /// `sq` in phase `phase`, after the line tables.
    #[inline(always)]
    pub fn piece(self, phase: usize, man: bool, opp: bool, sq: usize) -> usize {
        let group = 2 * usize::from(man) + usize::from(opp);
        self.squares_at() + (phase * self.groups() + group) * 64 + sq
    }

    /// The index of the bias, after the piece-square tables.
    #[inline(always)]
    pub fn bias(self) -> usize {
        self.squares_at() + 2 * self.groups() * 64
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

    /// The number of features.
    pub fn total(self) -> usize {
        self.tail().total()
    }

    /// The phase of a position with `men` men on the board: 0 the middle game, 1 the endgame.
    #[inline(always)]
    pub fn phase(self, men: u32) -> usize {
        linear::phase(men, self.men)
    }

    /// A readable name of feature `index`: `mid-rank3-x..o....` (phase, line, then its
    /// squares in order: `.` empty or a king, `x` own man, `o` opponent man), `bias`,
    /// `own-men=12`, ...; `unused-N` past the end.
    pub fn feature_name(self, index: usize) -> String {
        if (self.squares_at()..self.bias()).contains(&index) {
            let i = index - self.squares_at();
            let (table, sq) = (i / 64, i % 64);
            let group = table % self.groups();
            let owner = ["own", "opp"][group % 2];
            let piece = ["king", "man"][group / 2];
            let (rank, file) = (sq / 8, sq % 8);
            format!(
                "{}-{owner}-{piece}-{}{}",
                PHASES[table / self.groups()],
                file,
                rank
            )
        } else if index < self.bias() {
            let table = index / LINE_STATES;
            let mut state = index % LINE_STATES;
            let mut squares = String::with_capacity(8);
            for _ in 0..8 {
                squares.push(['.', 'x', 'o'][state % 3]);
                state /= 3;
            }
            let (phase, line) = (table / LINES, table % LINES);
            format!(
                "{}-{}{}-{squares}",
                PHASES[phase],
                LINE_KINDS[line / 8],
                line % 8
            )
        } else {
            self.tail()
                .name(index)
                .unwrap_or_else(|| format!("unused-{index}"))
        }
    }
}

/// `TERNARY[b]`: the base-3 number whose digit `k` is bit `k` of `b` (`Σ 3^k` over its set
/// bits). A line's state is `TERNARY[own] + 2 * TERNARY[opponent]`.
const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 1;
    while b < 256 {
        // The lowest bit's power of 3, plus the value of the other bits.
        let low = (b as u32).trailing_zeros();
        t[b] = 3u16.pow(low) + t[b & (b - 1)];
        b += 1;
    }
    t
};

/// Exchanges the bits of `x` at the positions of `mask` with the bits `delta` places above
/// them (`mask` and `mask << delta` must not overlap).
#[inline(always)]
const fn delta_swap(x: u64, mask: u64, delta: u32) -> u64 {
    let t = ((x >> delta) ^ x) & mask;
    x ^ t ^ (t << delta)
}

/// The board mirrored in the a1-h8 diagonal: the piece on (rank `r`, file `f`) goes to
/// (rank `f`, file `r`), so that byte `f` of the result is file `f`, bit `r` its rank `r`.
///
/// A square's index is `8r + f`, six bits; the transpose exchanges bit `k` of the file with
/// bit `k` of the rank, for `k` = 0, 1, 2: each exchange is one delta swap of the squares
/// whose file bit is 1 and rank bit 0 with the squares `8·2^k − 2^k` above them.
#[inline(always)]
pub const fn transpose(x: u64) -> u64 {
    // Files b, d, f, h of ranks 1, 3, 5, 7 with a, c, e, g of the rank above.
    let x = delta_swap(x, 0x00AA_00AA_00AA_00AA, 7);
    // Files c, d, g, h of ranks 1, 2, 5, 6 with a, b, e, f two ranks up.
    let x = delta_swap(x, 0x0000_CCCC_0000_CCCC, 14);
    // Files e-h of ranks 1-4 with a-d four ranks up.
    delta_swap(x, 0x0000_0000_F0F0_F0F0, 28)
}

/// The state of the line whose squares are the low bytes of `own` and `opp`.
#[inline(always)]
fn byte_state(own: u64, opp: u64) -> usize {
    TERNARY[own as u8 as usize] as usize + 2 * TERNARY[opp as u8 as usize] as usize
}

/// The states of the 16 lines of a board whose own men are `own` and opponent men `opp`
/// (side-relative bitboards): ranks 0 to 7, then files 0 to 7.
#[inline(always)]
pub fn line_states(own: u64, opp: u64) -> [usize; LINES] {
    let (own_t, opp_t) = (transpose(own), transpose(opp));
    let mut out = [0; LINES];
    for k in 0..8 {
        out[k] = byte_state(own >> (8 * k), opp >> (8 * k));
        out[8 + k] = byte_state(own_t >> (8 * k), opp_t >> (8 * k));
    }
    out
}

/// The side-relative men and kings of `pos` (own, opponent; Black's board turned half a
/// turn) and its counts: own men, opponent men, own kings, opponent kings.
#[inline(always)]
fn view(pos: &Position) -> ([u64; 2], [u64; 2], [u32; 4]) {
    let s = pos.side.index();
    let (own, opp) = (pos.pieces[s], pos.pieces[1 - s]);
    let (own_men, opp_men) = (own & !pos.kings, opp & !pos.kings);
    let (own_kings, opp_kings) = (own & pos.kings, opp & pos.kings);
    let counts = [
        own_men.count_ones(),
        opp_men.count_ones(),
        own_kings.count_ones(),
        opp_kings.count_ones(),
    ];
    let turn = |b: u64| match pos.side {
        Side::White => b,
        Side::Black => b.reverse_bits(),
    };
    (
        [turn(own_men), turn(opp_men)],
        [turn(own_kings), turn(opp_kings)],
        counts,
    )
}

/// Calls `visit` with the square of every set bit of `bits`.
#[inline(always)]
fn each_square(mut bits: u64, mut visit: impl FnMut(usize)) {
    while bits != 0 {
        visit(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// Calls `visit` with every active feature of position `pos` in layout `l`: the 16 lines in
/// order (or, without lines, the own men, then the opponent men), the own kings, the
/// opponent kings, the bias, the four counts.
#[inline(always)]
pub fn active_features_in(l: LineLayout, pos: &Position, mut visit: impl FnMut(usize)) {
    let ([own, opp], [own_k, opp_k], c) = view(pos);
    let phase = l.phase(c[0] + c[1]);
    if l.lines {
        for (line, state) in line_states(own, opp).into_iter().enumerate() {
            visit(l.line(phase, line, state));
        }
    } else {
        each_square(own, |sq| visit(l.piece(phase, true, false, sq)));
        each_square(opp, |sq| visit(l.piece(phase, true, true, sq)));
    }
    each_square(own_k, |sq| visit(l.piece(phase, false, false, sq)));
    each_square(opp_k, |sq| visit(l.piece(phase, false, true, sq)));
    l.tail().features(c, visit);
}

/// [`active_features_in`] the line set of variant `R`.
#[inline(always)]
pub fn active_features<R: Rules>(pos: &Position, visit: impl FnMut(usize)) {
    active_features_in(LineLayout::of::<R>(), pos, visit)
}

/// A variant's learned weights, ready for the search.
#[derive(Clone, Debug)]
pub struct Learned {
    layout: LineLayout,
    /// The weights in fixed point: the line tables indexed as [`LineLayout::line`], then the
    /// tail.
    weights: FixedWeights,
}

impl Learned {
    /// The weights of `file` for variant `R`, checked against its feature set (its name, which
    /// holds the men per side, and its size) and its name.
    pub fn from_file<R: Rules>(file: &WeightsFile, source: &str) -> Result<Learned, String> {
        let psq = LineLayout::psq_of::<R>();
        let layout = if file.feature_set == psq.name() {
            psq
        } else {
            LineLayout::of::<R>()
        };
        let weights =
            FixedWeights::from_file(file, source, &layout.name(), R::NAME, layout.tail())?;
        Ok(Learned { layout, weights })
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
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let l = self.layout;
        let ([own, opp], [own_k, opp_k], c) = view(pos);
        let phase = l.phase(c[0] + c[1]);
        let mut sum = 0i32;
        let squares = &self.weights.table[l.piece(phase, false, false, 0)..];
        if l.lines {
            let table = &self.weights.table[l.line(phase, 0, 0)..];
            for (line, state) in line_states(own, opp).into_iter().enumerate() {
                sum += table[line * LINE_STATES + state] as i32;
            }
        } else {
            each_square(own, |sq| sum += squares[128 + sq] as i32);
            each_square(opp, |sq| sum += squares[192 + sq] as i32);
        }
        each_square(own_k, |sq| sum += squares[sq] as i32);
        each_square(opp_k, |sq| sum += squares[64 + sq] as i32);
        sum += self.weights.tail_sum(l.tail(), c);
        linear::to_hundredths(sum)
    }
}

/// The learned weights of variant `R` from the weights source in use (see
/// [`crate::learn::source`]), or `None` (it keeps the hand evaluation).
#[inline(always)]
pub fn learned<R: Rules>() -> Option<&'static Learned> {
    R::learned_cell()?.get(R::NAME, Learned::from_file::<R>)
}

/// Builds the table `source` gives `R` without using it yet (see [`crate::learn::source::WeightsCell::prepare`]).
pub fn prepare<R: Rules>(source: &WeightsSource) -> Result<(), WeightsError> {
    match R::learned_cell() {
        Some(cell) => cell.prepare(source, R::NAME, Learned::from_file::<R>),
        None => Ok(()),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::{Duplicates, Game};
    use crate::orthogonal::rules::{Croda, Dameo, Gothic, Harzdame, Turkish};
    use crate::orthogonal::Orthogonal;
    use polydam_tables::zobrist::splitmix64;

    /// Random weights in -100 .. 100 for `R`'s feature set, with the bias and counts.
    pub(crate) fn random_file<R: Rules>(seed: u64, base: Base) -> WeightsFile {
        random_file_in::<R>(LineLayout::of::<R>(), seed, base)
    }

    /// Random weights in -100 .. 100 for layout `l` of `R`.
    fn random_file_in<R: Rules>(l: LineLayout, seed: u64, base: Base) -> WeightsFile {
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
            base,
            scale: 150.0,
            weights,
        }
    }

    /// Calls `visit` with every position of a pseudo-random game of `R` from the start (at
    /// most `plies` plies).
    pub(crate) fn random_game<R: Rules>(seed: u64, plies: usize, mut visit: impl FnMut(&Position)) {
        let mut pos = Orthogonal::<R>::start();
        let mut moves = Vec::new();
        let mut state = seed;
        for _ in 0..plies {
            visit(&pos);
            Orthogonal::<R>::generate(&pos, Duplicates::Drop, &mut moves);
            if moves.is_empty() {
                break;
            }
            let (s, r) = splitmix64(state);
            state = s;
            pos = Orthogonal::<R>::play(&pos, &moves[(r % moves.len() as u64) as usize]);
        }
    }

    /// The features of `pos` recounted square by square from its coordinates, independently
    /// of the byte tables and the transpose.
    fn features_by_coordinates<R: Rules>(pos: &Position) -> Vec<usize> {
        let l = LineLayout::of::<R>();
        let us = pos.side_to_move();
        let mut states = [0usize; LINES];
        let mut counts = [0u32; 4];
        let mut kings = Vec::new();
        for (sq, owner, king) in pos.to_setup().pieces {
            let own = owner == us;
            counts[usize::from(!own) + 2 * usize::from(king)] += 1;
            let (rank, file) = ((sq / 8) as usize, (sq % 8) as usize);
            let (rank, file) = match us {
                Side::White => (rank, file),
                Side::Black => (7 - rank, 7 - file),
            };
            if king {
                kings.push((!own, rank * 8 + file));
                continue;
            }
            let digit = if own { 1 } else { 2 };
            states[rank] += digit * 3usize.pow(file as u32);
            states[8 + file] += digit * 3usize.pow(rank as u32);
        }
        let phase = l.phase(counts[0] + counts[1]);
        let mut out: Vec<usize> = (0..LINES).map(|k| l.line(phase, k, states[k])).collect();
        // Own kings before the opponent's, each by square.
        kings.sort_unstable();
        out.extend(
            kings
                .into_iter()
                .map(|(opp, sq)| l.piece(phase, false, opp, sq)),
        );
        out.push(l.bias());
        out.extend(
            counts
                .iter()
                .enumerate()
                .map(|(g, &n)| l.tail().count(g, n)),
        );
        out
    }

    fn features<R: Rules>(pos: &Position) -> Vec<usize> {
        let mut f = Vec::new();
        active_features::<R>(pos, |i| f.push(i));
        f
    }

    #[test]
    fn transpose_mirrors_in_the_long_diagonal() {
        let mut seed = 5;
        for _ in 0..200 {
            let (s, x) = splitmix64(seed);
            seed = s;
            let mut want = 0u64;
            for sq in 0..64 {
                if x & (1u64 << sq) != 0 {
                    want |= 1u64 << ((sq % 8) * 8 + sq / 8);
                }
            }
            assert_eq!(transpose(x), want, "{x:#x}");
            assert_eq!(transpose(transpose(x)), x);
        }
        assert_eq!(TERNARY[0b1000_0101], 1 + 9 + 2187);
        assert_eq!(TERNARY[255] as usize * 2, LINE_STATES - 1);
    }

    fn check_lines_and_loading<R: Rules>() {
        let l = LineLayout::of::<R>();
        let start = Orthogonal::<R>::start();
        assert_eq!(l.men, start.pieces[0].count_ones() as usize, "{}", R::NAME);
        assert_eq!(l.men, start.pieces[1].count_ones() as usize, "{}", R::NAME);
        let file = random_file::<R>(7, Base::None);
        let learned = Learned::from_file::<R>(&file, "test").expect("random weights load");
        let mut positions = 0;
        let mut with_kings = 0;
        for seed in 1..=12 {
            random_game::<R>(seed, 200, |pos| {
                positions += 1;
                with_kings += usize::from(pos.kings != 0);
                let f = features::<R>(pos);
                assert_eq!(f, features_by_coordinates::<R>(pos), "{}", R::NAME);
                assert!(f.iter().all(|&i| i < l.total()));
                // Seen from the side to move: the twin (board turned, colours swapped, the
                // other side to move) has the same features.
                assert_eq!(f, features::<R>(&pos.flipped()), "{}", R::NAME);
                // The fixed-point sum is the sum of the weights (21 roundings to 1/8).
                let sum: f64 = f.iter().map(|&i| file.weights[i]).sum();
                let got = learned.evaluate(pos);
                assert!(
                    (got as f64 - sum).abs() <= 2.0,
                    "{}: {got} vs {sum}",
                    R::NAME
                );
            });
        }
        // Kings are left out of the lines: positions with kings were checked too.
        assert!(positions > 500, "{}: {positions} positions", R::NAME);
        assert!(with_kings > 100, "{}: {with_kings} with kings", R::NAME);
    }

    #[test]
    fn line_states_match_a_recount_by_coordinates() {
        check_lines_and_loading::<Turkish>();
        check_lines_and_loading::<Gothic>();
        check_lines_and_loading::<Dameo>();
        check_lines_and_loading::<Harzdame>();
        check_lines_and_loading::<Croda>();
    }

    #[test]
    fn every_shipped_weights_file_loads_for_its_variant() {
        let shipped = crate::learn::source::shipped_of_family("orthogonal");
        assert!(!shipped.is_empty());
        for (name, text) in shipped.iter() {
            let file = WeightsFile::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(file.variant, *name);
            let loaded = match *name {
                "turkish" => Learned::from_file::<Turkish>(&file, "shipped"),
                other => panic!("no loader in this test for {other}"),
            };
            let learned = loaded.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(learned.base(), Base::Hand, "{name}");
        }
    }

    #[test]
    fn piece_square_weights_load_and_sum_one_weight_per_piece() {
        let l = LineLayout::psq_of::<Turkish>();
        assert_eq!(l.name(), "orthogonal-psq-v1-16men");
        assert_eq!(l.total(), 8 * 64 + 1 + 4 * 17);
        let file = random_file_in::<Turkish>(l, 3, Base::None);
        let learned = Learned::from_file::<Turkish>(&file, "test").expect("psq weights load");
        let mut with_kings = 0;
        for seed in 1..=6 {
            random_game::<Turkish>(seed, 200, |pos| {
                with_kings += usize::from(pos.kings != 0);
                let mut f = Vec::new();
                active_features_in(l, pos, |i| f.push(i));
                let pieces = (pos.pieces[0] | pos.pieces[1]).count_ones() as usize;
                assert_eq!(f.len(), pieces + 5);
                assert!(f.iter().all(|&i| i < l.total()));
                let mut twin = Vec::new();
                active_features_in(l, &pos.flipped(), |i| twin.push(i));
                assert_eq!(f, twin);
                let sum: f64 = f.iter().map(|&i| file.weights[i]).sum();
                let got = learned.evaluate(pos);
                assert!((got as f64 - sum).abs() <= 5.0, "{got} vs {sum}");
            });
        }
        assert!(with_kings > 50, "{with_kings} positions with kings");
        // A lines file is read with the lines layout, not this one.
        let lines = random_file::<Turkish>(3, Base::None);
        assert!(Learned::from_file::<Turkish>(&lines, "x").is_ok());
    }

    #[test]
    fn the_layout_numbers_and_names_every_feature() {
        let l = LineLayout::of::<Turkish>();
        assert_eq!(l.name(), "orthogonal-lines-v2-16men");
        assert_eq!(l.total(), 2 * 16 * 6561 + 4 * 64 + 1 + 4 * 17);
        assert_eq!(
            LineLayout::of::<Croda>().total(),
            2 * 16 * 6561 + 4 * 64 + 1 + 4 * 25
        );
        assert_eq!(
            LineLayout::of::<Dameo>().name(),
            "orthogonal-lines-v2-18men"
        );
        assert_eq!(
            LineLayout::of::<Harzdame>().name(),
            "orthogonal-lines-v2-21men"
        );
        let names: std::collections::HashSet<String> =
            (0..l.total()).map(|i| l.feature_name(i)).collect();
        assert_eq!(names.len(), l.total());
        assert!(names.iter().all(|n| !n.contains(' ')));
        for name in [
            "bias",
            "own-men=16",
            "opp-kings=0",
            "end-file7-oooooooo",
            "mid-own-king-00",
            "end-opp-king-77",
        ] {
            assert!(names.contains(name), "{name}");
        }
        // Rank 3, an own man on file 0 and an opponent man on file 3.
        assert_eq!(
            l.feature_name(l.line(0, 3, 1 + 2 * 27)),
            "mid-rank3-x..o...."
        );
        assert_eq!(l.feature_name(l.line(1, 8, 0)), "end-file0-........");
        assert_eq!(l.feature_name(l.total()), format!("unused-{}", l.total()));
    }

    #[test]
    fn start_position_line_states() {
        // Turkish: own men on ranks 1 and 2 (side-relative, 0-based), opponent men on 5, 6.
        let l = LineLayout::of::<Turkish>();
        let start = Orthogonal::<Turkish>::start();
        let all = 3280; // every digit 1
        let file = 3 + 9 + 2 * (243 + 729);
        let mut want: Vec<usize> = [0, all, all, 0, 0, 2 * all, 2 * all, 0]
            .into_iter()
            .chain([file; 8])
            .enumerate()
            .map(|(k, s)| l.line(0, k, s))
            .collect();
        let t = l.tail();
        want.extend([
            l.bias(),
            t.count(0, 16),
            t.count(1, 16),
            t.count(2, 0),
            t.count(3, 0),
        ]);
        assert_eq!(features::<Turkish>(&start), want);
        // Black to move sees the same, its men on its ranks 1 and 2.
        assert_eq!(features::<Turkish>(&start.flipped()), want);
    }

    #[test]
    fn the_endgame_tables_take_over_at_the_men_of_one_side() {
        let l = LineLayout::of::<Turkish>();
        let phase = |fen: &str| {
            let pos = Orthogonal::<Turkish>::parse_position(fen).expect("test position");
            features::<Turkish>(&pos)[0] / (LINES * LINE_STATES)
        };
        // 17 men and a king: middle game; 16 men: endgame.
        assert_eq!(phase("W:Wa2-h2,a3:Ba6-h6,Kd4"), 0);
        assert_eq!(phase("W:Wa2-h2:Ba6-h6,Kd4"), 1);
        assert_eq!(l.phase(17), 0);
    }

    #[test]
    fn weights_for_another_set_or_variant_are_refused() {
        let file = random_file::<Croda>(1, Base::Hand);
        let err = Learned::from_file::<Turkish>(&file, "x").expect_err("24-men weights");
        assert!(
            err.contains(
                "feature set 'orthogonal-lines-v2-24men', expected 'orthogonal-lines-v2-16men'"
            ),
            "{err}"
        );
        let mut file = random_file::<Turkish>(1, Base::Hand);
        file.variant = "gothic".into();
        let err = Learned::from_file::<Turkish>(&file, "x").expect_err("gothic's");
        assert!(err.contains("weights for gothic, not turkish"), "{err}");
        file.variant = "turkish".into();
        file.weights.pop();
        let err = Learned::from_file::<Turkish>(&file, "x").expect_err("one short");
        assert!(err.contains("weights, expected"), "{err}");
        let mut file = random_file::<Turkish>(1, Base::Hand);
        file.weights[3] = 5000.0;
        let err = Learned::from_file::<Turkish>(&file, "x").expect_err("too big");
        assert!(err.contains("out of range"), "{err}");
        let mut file = random_file::<Turkish>(1, Base::Hand);
        file.feature_set = "diagonal-patterns-v1-32sq".into();
        let err = Learned::from_file::<Turkish>(&file, "x").expect_err("diagonal's");
        assert!(
            err.contains("feature set 'diagonal-patterns-v1-32sq'"),
            "{err}"
        );
    }
}
