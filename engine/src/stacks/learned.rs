//! The learned evaluation of Seesaw Draughts: weights of stacks by square and size, and of
//! stack counts, fitted by `polydam train` to self-play games (see `docs/training.md`).
//!
//! The feature set is `stacks-psq-v1`, seen from the side to move (for Black the board is
//! turned half a turn, square `s` becoming `31 - s`, so that one table serves both colours;
//! the game's rules are the same for either side under that turn): for each game phase (0 the
//! middle game, 1 the endgame), each owner (own, opponent), each size bucket and each of the
//! 32 squares, one weight; then a bias and one-hot counts of own stacks, opponent stacks, own
//! extra discs and opponent extra discs (the discs above the bottom one of each stack: the
//! promotions a side has kept), each from 0 to 12, larger counts clamped. The middle-game
//! tables are used while more than 12 stacks are on the board.
//!
//! **Size buckets.** A stack's size sets its stepping direction (odd forward, even backward)
//! and its capture range (card: "a stack of size n captures ... an enemy stack that is 1..n
//! squares away"): sizes 1, 2, 3 and 4 have a bucket each, then odd sizes from 5 and even
//! sizes from 6 share one each ([`linear::size_bucket`]: range 5 already reaches nearly every
//! target on 8x8, and the parity keeps the direction). [`PsqLayout`] numbers the features; [`active_features`] lists
//! a position's, and [`Learned::evaluate`] sums their weights: one table read per stack.
//!
//! A variant has learned weights when the weights source in use gives it a file: the
//! shipped one by default, or one the program names (see [`crate::learn::source`]).

use polydam_tables::diagonal::EIGHT;

use super::movegen::{bits, Position, BITS};
use super::SeesawDraughts;
use crate::game::{Game, Side};
use crate::learn::linear::{
    self, size_bucket, CountTail, FixedWeights, SIZE_BUCKETS, SIZE_BUCKET_NAMES,
};
use crate::learn::source::{WeightsCell, WeightsError, WeightsSource};
use crate::learn::weights::{Base, WeightsFile};

/// Squares of the board.
pub const SQUARES: usize = 32;

/// Size buckets (see [`linear::size_bucket`]).
pub const BUCKETS: usize = SIZE_BUCKETS;

/// Kinds of stack on a square: the own buckets, then the opponent's.
pub const PIECES: usize = 2 * BUCKETS;

/// Stacks a side starts with: the phase threshold and the largest count.
pub const STACKS_PER_SIDE: usize = 12;

/// The count groups' names, for feature names.
pub const COUNT_NAMES: [&str; 4] = ["own-stacks", "opp-stacks", "own-extra", "opp-extra"];

/// The phase names, for feature names.
const PHASES: [&str; 2] = ["mid", "end"];

/// `SQUARE_OF_BIT[b]`: the 0-based square of bit `b` (square 0 is number 1, b8), 0 on a
/// ghost bit (never a stack).
const SQUARE_OF_BIT: [u8; BITS] = {
    let mut out = [0u8; BITS];
    let mut b = 0;
    while b < BITS {
        if let Some(s) = EIGHT.square_of_bit(b as u32) {
            out[b] = s as u8;
        }
        b += 1;
    }
    out
};

/// The numbering of `stacks-psq-v1`.
///
/// Squares are side-relative: square 0 is the far-left corner of the side to move's far rank
/// (square 1, b8, for White; square 32, g1, for Black), numbered on as White numbers its
/// board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PsqLayout;

impl PsqLayout {
    /// The feature set's name.
    pub const NAME: &'static str = "stacks-psq-v1";

    /// The index of a stack of kind `piece` (own bucket `b` is `b`, the opponent's is
    /// `BUCKETS + b`) on side-relative square `square` in phase `phase`.
    #[inline(always)]
    pub const fn stack(phase: usize, piece: usize, square: usize) -> usize {
        (phase * PIECES + piece) * SQUARES + square
    }

    /// The index of the bias, after the square tables.
    pub const BIAS: usize = 2 * PIECES * SQUARES;

    /// The bias and the counts that end the set.
    pub const TAIL: CountTail = CountTail {
        bias: Self::BIAS,
        men: STACKS_PER_SIDE,
        groups: &COUNT_NAMES,
    };

    /// The number of features.
    pub const TOTAL: usize = Self::TAIL.total();

    /// The phase of a position with `stacks` stacks on the board: 0 the middle game, 1 the
    /// endgame.
    #[inline(always)]
    pub fn phase(stacks: u32) -> usize {
        linear::phase(stacks, STACKS_PER_SIDE)
    }

    /// A readable name of feature `index`: `mid-own-size1-sq22` (phase, owner, size bucket,
    /// side-relative square number 1-32), `bias`, `own-stacks=12`, `opp-extra=3`, ...;
    /// `unused-N` past the end.
    pub fn feature_name(index: usize) -> String {
        if index < Self::BIAS {
            let square = index % SQUARES;
            let piece = index / SQUARES % PIECES;
            let phase = index / (SQUARES * PIECES);
            format!(
                "{}-{}-size{}-sq{}",
                PHASES[phase],
                ["own", "opp"][piece / BUCKETS],
                SIZE_BUCKET_NAMES[piece % BUCKETS],
                square + 1
            )
        } else {
            Self::TAIL
                .name(index)
                .unwrap_or_else(|| format!("unused-{index}"))
        }
    }
}

/// Calls `visit` with the square-table index of every stack of `pos` (own stacks first) and
/// answers the four counts: own stacks, opponent stacks, own extra discs, opponent extra
/// discs. The evaluation and the feature list both go through here, so they cannot differ.
#[inline(always)]
fn walk(pos: &Position, mut visit: impl FnMut(usize)) -> [u32; 4] {
    let us = pos.side;
    let sides = [us, us.opponent()];
    let stacks = sides.map(|s| pos.stacks[s.index()]);
    let phase = PsqLayout::phase(stacks[0].count_ones() + stacks[1].count_ones());
    let mut extra = [0u32; 2];
    for (owner, &set) in stacks.iter().enumerate() {
        for b in bits(set) {
            let bit = b.trailing_zeros() as usize;
            let size = pos.sizes[bit];
            extra[owner] += u32::from(size) - 1;
            let square = SQUARE_OF_BIT[bit] as usize;
            // Black sees the board turned: the same rules then hold for either side.
            let square = match us {
                Side::White => square,
                Side::Black => SQUARES - 1 - square,
            };
            visit(PsqLayout::stack(
                phase,
                owner * BUCKETS + size_bucket(size),
                square,
            ));
        }
    }
    [
        stacks[0].count_ones(),
        stacks[1].count_ones(),
        extra[0],
        extra[1],
    ]
}

/// Calls `visit` with every active feature of `pos`: one per stack (own stacks first, in bit
/// order), the bias, the four counts.
pub fn active_features(pos: &Position, mut visit: impl FnMut(usize)) {
    let counts = walk(pos, &mut visit);
    PsqLayout::TAIL.features(counts, visit);
}

/// The learned weights of Seesaw Draughts, ready for the search.
#[derive(Clone, Debug)]
pub struct Learned {
    /// The weights in fixed point: the square tables indexed as [`PsqLayout::stack`], then
    /// the tail.
    weights: FixedWeights,
}

impl Learned {
    /// The weights of `file`, checked against the feature set (its name and size) and the
    /// variant's name.
    pub fn from_file(file: &WeightsFile, source: &str) -> Result<Learned, String> {
        let weights = FixedWeights::from_file(
            file,
            source,
            PsqLayout::NAME,
            SeesawDraughts::NAME,
            PsqLayout::TAIL,
        )?;
        Ok(Learned { weights })
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
        let table = &self.weights.table;
        let mut sum = 0i32;
        let counts = walk(pos, |i| sum += table[i] as i32);
        sum += self.weights.tail_sum(PsqLayout::TAIL, counts);
        linear::to_hundredths(sum)
    }
}

/// The learned weights from the weights source in use (see [`crate::learn::source`]), or
/// `None` (the hand evaluation).
#[inline(always)]
pub fn learned() -> Option<&'static Learned> {
    CELL.get(SeesawDraughts::NAME, Learned::from_file)
}

/// Where the weights are kept once loaded.
static CELL: WeightsCell<Learned> = WeightsCell::new();

/// Builds the table `source` gives Seesaw Draughts without using it yet (see
/// [`WeightsCell::prepare`]).
pub fn prepare(source: &WeightsSource) -> Result<(), WeightsError> {
    CELL.prepare(source, SeesawDraughts::NAME, Learned::from_file)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::Duplicates;
    use crate::stacks::notation::{bit_of_number, number_of_bit};
    use polydam_tables::zobrist::splitmix64;

    #[test]
    fn shipped_weights_load() {
        for (name, text) in crate::learn::source::shipped_of_family("stacks").iter() {
            let file = WeightsFile::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(file.variant, *name);
            let loaded = Learned::from_file(&file, "shipped");
            assert!(loaded.is_ok(), "{name}: {:?}", loaded.err());
        }
        assert!(learned().is_some(), "seesaw-draughts has shipped weights");
    }

    /// Random weights in -100 .. 100 for the feature set, with the bias and counts.
    pub(crate) fn random_file(seed: u64, base: Base) -> WeightsFile {
        let mut state = seed;
        let weights = (0..PsqLayout::TOTAL)
            .map(|_| {
                let (s, r) = splitmix64(state);
                state = s;
                (r % 20001) as f64 / 100.0 - 100.0
            })
            .collect();
        WeightsFile {
            feature_set: PsqLayout::NAME.into(),
            variant: SeesawDraughts::NAME.into(),
            base,
            scale: 150.0,
            weights,
        }
    }

    /// Calls `visit` with every position of a pseudo-random game from the start (at most
    /// `plies` plies).
    pub(crate) fn random_game(seed: u64, plies: usize, mut visit: impl FnMut(&Position)) {
        let mut pos = SeesawDraughts::start();
        let mut moves = Vec::new();
        let mut state = seed;
        for _ in 0..plies {
            visit(&pos);
            SeesawDraughts::generate(&pos, Duplicates::Drop, &mut moves);
            if moves.is_empty() {
                break;
            }
            let (s, r) = splitmix64(state);
            state = s;
            pos = SeesawDraughts::play(&pos, &moves[(r % moves.len() as u64) as usize]);
        }
    }

    /// The twin of `pos`: colours swapped, the board turned (square number `n` becomes
    /// `33 - n`), the other side to move; built through a setup, from square numbers.
    pub(crate) fn twin(pos: &Position) -> Position {
        let mut setup = pos.to_setup();
        setup.side = setup.side.opponent();
        for (n, owner, _) in &mut setup.stacks {
            *n = 33 - *n;
            *owner = owner.opponent();
        }
        Position::from_setup(setup).expect("the twin is a position")
    }

    /// The features of `pos` recounted from its square numbers and coordinates: rows and
    /// files of the printed board, independently of the bit layout and the tables.
    fn features_by_coordinates(pos: &Position) -> Vec<usize> {
        let us = pos.side_to_move();
        let setup = pos.to_setup();
        let stacks = setup.stacks.len();
        let phase = usize::from(stacks <= 12);
        let mut counts = [0u32; 4];
        let mut out = Vec::new();
        for own in [true, false] {
            for &(n, owner, size) in &setup.stacks {
                if (owner == us) != own {
                    continue;
                }
                // Row 0 is rank 8 (numbers 1-4); a row's dark squares, left to right.
                let (row, col) = ((n - 1) / 4, (n - 1) % 4);
                let (row, col) = match us {
                    Side::White => (row, col),
                    Side::Black => (7 - row, 3 - col),
                };
                let square = 4 * row + col;
                let b = match size {
                    1..=4 => size as usize - 1,
                    _ if size % 2 == 1 => 4,
                    _ => 5,
                };
                let piece = if own { b } else { BUCKETS + b };
                out.push((phase * 12 + piece) * 32 + square);
                let g = usize::from(!own);
                counts[g] += 1;
                counts[2 + g] += size - 1;
            }
        }
        // Stacks are listed by square number; the features come in bit order, which is the
        // same order turned for Black: compare as sets.
        out.push(PsqLayout::BIAS);
        out.extend(
            counts
                .iter()
                .enumerate()
                .map(|(g, &n)| PsqLayout::TAIL.count(g, n)),
        );
        out.sort_unstable();
        out
    }

    pub(crate) fn features(pos: &Position) -> Vec<usize> {
        let mut f = Vec::new();
        active_features(pos, |i| f.push(i));
        f
    }

    fn sorted(pos: &Position) -> Vec<usize> {
        let mut f = features(pos);
        f.sort_unstable();
        f
    }

    #[test]
    fn square_numbers_round_trip_through_bits() {
        for n in 1..=32 {
            let bit = bit_of_number(n).expect("a square");
            assert_eq!(number_of_bit(bit), n);
            assert_eq!(SQUARE_OF_BIT[bit as usize] as usize, n - 1);
        }
    }

    #[test]
    fn features_match_a_recount_by_coordinates_and_the_twin() {
        let file = random_file(7, Base::None);
        let learned = Learned::from_file(&file, "test").expect("random weights load");
        let (mut positions, mut endgames, mut big) = (0, 0, 0);
        for seed in 1..=16 {
            random_game(seed, 300, |pos| {
                positions += 1;
                let f = features(pos);
                endgames += usize::from(f[0] >= PsqLayout::stack(1, 0, 0));
                big += usize::from(pos.sizes.iter().any(|&s| s >= 3));
                assert!(f.iter().all(|&i| i < PsqLayout::TOTAL));
                let mut s = f.clone();
                s.sort_unstable();
                assert_eq!(
                    s,
                    features_by_coordinates(pos),
                    "{}",
                    SeesawDraughts::fen(pos)
                );
                // Seen from the side to move: the twin has the same features.
                assert_eq!(s, sorted(&twin(pos)), "{}", SeesawDraughts::fen(pos));
                // The fixed-point sum is the sum of the weights (roundings to 1/8).
                let sum: f64 = f.iter().map(|&i| file.weights[i]).sum();
                let got = learned.evaluate(pos);
                let slack = 0.5 + f.len() as f64 / 16.0;
                assert!((got as f64 - sum).abs() <= slack, "{got} vs {sum}");
            });
        }
        assert!(positions > 800, "{positions} positions");
        assert!(endgames > 100, "{endgames} endgame positions");
        assert!(big > 20, "{big} positions with a stack of 3 or more");
    }

    #[test]
    fn the_layout_numbers_and_names_every_feature() {
        assert_eq!(PsqLayout::TOTAL, 2 * 12 * 32 + 1 + 4 * 13);
        let names: std::collections::HashSet<String> =
            (0..PsqLayout::TOTAL).map(PsqLayout::feature_name).collect();
        assert_eq!(names.len(), PsqLayout::TOTAL);
        assert!(names.iter().all(|n| !n.contains(' ')));
        for name in [
            "bias",
            "own-stacks=12",
            "opp-extra=0",
            "mid-own-size1-sq1",
            "end-opp-size6even-sq32",
        ] {
            assert!(names.contains(name), "{name}");
        }
        assert_eq!(
            PsqLayout::feature_name(PsqLayout::stack(0, BUCKETS + 4, 21)),
            "mid-opp-size5odd-sq22"
        );
        assert_eq!(
            PsqLayout::feature_name(PsqLayout::TOTAL),
            format!("unused-{}", PsqLayout::TOTAL)
        );
    }

    #[test]
    fn start_position_features() {
        let start = SeesawDraughts::start();
        // Own 1-stacks on squares 21-32, the opponent's on 1-12 (side-relative), 24 stacks:
        // the middle game.
        let mut want: Vec<usize> = (20..32)
            .map(|s| PsqLayout::stack(0, 0, s))
            .chain((0..12).map(|s| PsqLayout::stack(0, BUCKETS, s)))
            .collect();
        let t = PsqLayout::TAIL;
        want.extend([
            PsqLayout::BIAS,
            t.count(0, 12),
            t.count(1, 12),
            t.count(2, 0),
            t.count(3, 0),
        ]);
        want.sort_unstable();
        assert_eq!(sorted(&start), want);
        // Black to move sees the same.
        assert_eq!(sorted(&twin(&start)), want);
    }

    #[test]
    fn the_endgame_tables_take_over_at_twelve_stacks() {
        let phase = |fen: &str| {
            let pos = SeesawDraughts::parse_position(fen).expect("test position");
            features(&pos)[0] / (PIECES * SQUARES)
        };
        assert_eq!(phase("W:W20-27:B1-5"), 0);
        assert_eq!(phase("W:W20-26:B1-5"), 1);
        // Sizes: a 7-stack is odd from 5, a 2-stack its own bucket; extra discs counted.
        let pos = SeesawDraughts::parse_position("B:W22^7:B9^2").expect("test position");
        let f = features(&pos);
        let t = PsqLayout::TAIL;
        // Black to move: its 2-stack on 9 is on side-relative square 33 - 9 = 24.
        assert_eq!(
            f,
            [
                PsqLayout::stack(1, 1, 23),
                PsqLayout::stack(1, BUCKETS + 4, 10),
                PsqLayout::BIAS,
                t.count(0, 1),
                t.count(1, 1),
                t.count(2, 1),
                t.count(3, 6),
            ]
        );
    }

    #[test]
    fn weights_for_another_set_or_variant_are_refused() {
        let mut file = random_file(1, Base::Hand);
        file.feature_set = "orthogonal-lines-v2-16men".into();
        let err = Learned::from_file(&file, "x").expect_err("another set");
        assert!(
            err.contains("feature set 'orthogonal-lines-v2-16men', expected 'stacks-psq-v1'"),
            "{err}"
        );
        let mut file = random_file(1, Base::Hand);
        file.variant = "brazilian".into();
        let err = Learned::from_file(&file, "x").expect_err("brazilian's");
        assert!(
            err.contains("weights for brazilian, not seesaw-draughts"),
            "{err}"
        );
        let mut file = random_file(1, Base::Hand);
        file.weights.pop();
        let err = Learned::from_file(&file, "x").expect_err("one short");
        assert!(err.contains("820 weights, expected 821"), "{err}");
        let mut file = random_file(1, Base::Hand);
        file.weights[3] = 5000.0;
        let err = Learned::from_file(&file, "x").expect_err("too big");
        assert!(err.contains("out of range"), "{err}");
    }
}
