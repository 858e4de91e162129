//! Sparse features of a position for a linear evaluation: a position is the set of its active
//! feature indices (each with the implicit value 1), and a linear evaluation is the sum of
//! their weights. Features are seen from the side to move, so that one weight serves both
//! colours and the evaluation stays colour-symmetric.
//!
//! The diagonal family has two sets, chosen by [`FeatureKind`]: `diagonal-psq-v1`
//! (piece-square plus material counts) and `diagonal-patterns-v1` (overlapping 4x4 board
//! windows, 3^8 states each, with middle-game and endgame tables, plus material counts). The
//! patterns are numbered and listed by [`crate::diagonal::learned`], which the evaluation
//! reads its shipped weights through; `psq` is for training only (see `docs/training.md`).
//!
//! The orthogonal family has one, its `patterns`: `orthogonal-lines-v2` (the 8 ranks and 8
//! files, 3^8 states each, and kings by square, middle-game and endgame tables, plus material
//! counts), numbered and
//! listed by [`crate::orthogonal::learned`].
//!
//! Seesaw Draughts has one, its `psq`: `stacks-psq-v1` (own and opponent stacks by size bucket
//! and square, middle-game and endgame tables, plus stack and extra-disc counts), numbered and
//! listed by [`crate::stacks::learned`]; hex Seesaw too: `hex-psq-v1` (what stands on each
//! cell: tile and stack by size bucket, a cell sharing its weights with its mirror image,
//! middle-game and endgame tables, plus stack and tile counts), numbered and listed by
//! [`crate::hex::learned`].

use polydam_tables::diagonal::Geometry;

use crate::diagonal::learned::{self, PatternLayout};
use crate::diagonal::patterns::{WINDOW_SQUARES, WINDOW_STATES};
use crate::diagonal::rules::Rules;
use crate::diagonal::{eval, Bits, Diagonal, Position};
use crate::game::{Game, Side};
use crate::hex::{self, learned::HexLayout, Hex, HexBoard};
use crate::learn::linear::{CountTail, COUNT_GROUPS};
use crate::orthogonal::learned::{self as lines, LineLayout};
use crate::orthogonal::{self, Orthogonal};
use crate::stacks::{self, learned::PsqLayout as StacksLayout, SeesawDraughts};

/// Which feature set to extract (`polydam train --features NAME`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FeatureKind {
    /// Piece-square features plus material counts (the default): men and kings by square
    /// (diagonal); stacks by size bucket and square, with middle-game and endgame tables
    /// (Seesaw Draughts); tile and stack by cell, likewise (hex Seesaw).
    #[default]
    Psq,
    /// The family's board patterns (3^8 states each, middle-game and endgame tables) plus
    /// material counts: overlapping 4x4 windows (diagonal), ranks and files (orthogonal).
    Patterns,
}

impl FeatureKind {
    /// Every kind, in the order they are listed.
    pub const ALL: [FeatureKind; 2] = [FeatureKind::Psq, FeatureKind::Patterns];

    /// The kind's short name, as `--features` takes it.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureKind::Psq => "psq",
            FeatureKind::Patterns => "patterns",
        }
    }

    /// The kind called `name` (see [`FeatureKind::name`]), if any.
    pub fn from_name(name: &str) -> Option<FeatureKind> {
        FeatureKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A family whose positions can be described by sparse features.
pub trait Features: Game {
    /// The feature sets this family offers; the first is what `polydam train` fits when it is
    /// not given `--features`.
    fn feature_kinds() -> &'static [FeatureKind];

    /// The feature set's name, written in weights files so that weights are never read for
    /// another set (it changes whenever the indices change). `kind` must be one of
    /// [`Features::feature_kinds`], as for every method below.
    fn feature_set(kind: FeatureKind) -> String;

    /// The number of features: every index is below it.
    fn feature_count(kind: FeatureKind) -> usize;

    /// Appends the active features of `pos` (seen from the side to move) to `out`; an index
    /// may appear more than once, counting that many times.
    fn features(kind: FeatureKind, pos: &Self::Position, out: &mut Vec<u32>);

    /// A readable name of feature `index`, for the weights file.
    fn feature_name(kind: FeatureKind, index: usize) -> String;

    /// The hand-written evaluation of `pos` from the side to move's view, in hundredths of a
    /// man: the base that weights trained with `--base hand` are added to.
    fn hand_evaluation(pos: &Self::Position) -> i32;
}

/// Something to do with a game type that has a feature set, chosen at run time
/// (see [`crate::variants::dispatch_features`]).
pub trait FeaturesVisitor {
    /// What the visit returns.
    type Output;
    /// Called with the variant's game type.
    fn visit<G: Features>(self) -> Self::Output;
}

/// The pieces of `pos`, seen from the side to move: `(own, king, square)` with the square
/// side-relative (square 0 is the far corner of the side to move's promotion row: White
/// starts at the bottom and moves towards square 0, Black's board is turned half a turn).
fn relative_pieces<B: Bits>(
    g: Geometry,
    pos: &Position<B>,
) -> impl Iterator<Item = (bool, bool, usize)> + '_ {
    let us = pos.side;
    let squares = g.squares();
    [(true, us), (false, us.opponent())]
        .into_iter()
        .flat_map(move |(own, side)| {
            let mut bits = pos.pieces[side.index()];
            std::iter::from_fn(move || {
                while !bits.is_empty() {
                    let bit = bits.trailing_zeros();
                    bits = bits.clear_lowest();
                    if let Some(square) = g.square_of_bit(bit) {
                        let king = !(pos.kings & B::bit(bit)).is_empty();
                        let square = match us {
                            Side::White => square,
                            Side::Black => squares - 1 - square,
                        };
                        return Some((own, king, square));
                    }
                }
                None
            })
        })
}

/// Material counts: own men, opponent men, own kings, opponent kings.
fn count_group(own: bool, king: bool) -> usize {
    (!own as usize) + 2 * king as usize
}

/// The layout of `diagonal-psq-v1` on a board of `squares` squares and `men` men a side:
/// own men, own kings, opponent men, opponent kings on each square (side-relative: square 0
/// is the far corner of the side to move's promotion row), a bias, then one-hot counts of own
/// men, opponent men, own kings and opponent kings (0 to `men`, larger counts clamped).
#[derive(Clone, Copy, Debug)]
struct PsqLayout {
    squares: usize,
    men: usize,
}

impl PsqLayout {
    fn of<R: Rules>() -> PsqLayout {
        let g = R::SHEET.board;
        PsqLayout {
            squares: g.squares(),
            men: PatternLayout::of(g).men,
        }
    }

    fn bias(self) -> usize {
        4 * self.squares
    }

    fn tail(self) -> CountTail {
        CountTail {
            bias: self.bias(),
            men: self.men,
            groups: &COUNT_GROUPS,
        }
    }
}

const PIECE_GROUPS: [&str; 4] = ["own-man", "own-king", "opp-man", "opp-king"];

const PHASES: [&str; 2] = ["mid", "end"];

fn psq_features<R: Rules>(pos: &Position<R::Bits>, out: &mut Vec<u32>) {
    let l = PsqLayout::of::<R>();
    let mut counts = [0u32; 4];
    for (own, king, square) in relative_pieces(R::SHEET.board, pos) {
        let group = (!own as usize) * 2 + king as usize;
        out.push((group * l.squares + square) as u32);
        counts[count_group(own, king)] += 1;
    }
    l.tail().features(counts, |i| out.push(i as u32));
}

fn pattern_features<R: Rules>(pos: &Position<R::Bits>, out: &mut Vec<u32>) {
    learned::active_features::<R>(pos, |i| out.push(i as u32));
}

impl<R: Rules> Features for Diagonal<R> {
    fn feature_kinds() -> &'static [FeatureKind] {
        &FeatureKind::ALL
    }

    fn feature_set(kind: FeatureKind) -> String {
        match kind {
            FeatureKind::Psq => format!("diagonal-psq-v1-{}sq", PsqLayout::of::<R>().squares),
            FeatureKind::Patterns => PatternLayout::of(R::SHEET.board).name(),
        }
    }

    fn feature_count(kind: FeatureKind) -> usize {
        match kind {
            FeatureKind::Psq => PsqLayout::of::<R>().tail().total(),
            FeatureKind::Patterns => PatternLayout::of(R::SHEET.board).total(),
        }
    }

    fn features(kind: FeatureKind, pos: &Position<R::Bits>, out: &mut Vec<u32>) {
        match kind {
            FeatureKind::Psq => psq_features::<R>(pos, out),
            FeatureKind::Patterns => pattern_features::<R>(pos, out),
        }
    }

    fn hand_evaluation(pos: &Position<R::Bits>) -> i32 {
        eval::hand_evaluate::<R>(pos)
    }

    fn feature_name(kind: FeatureKind, index: usize) -> String {
        match kind {
            FeatureKind::Psq => {
                let l = PsqLayout::of::<R>();
                if index < l.bias() {
                    format!("{}-{}", PIECE_GROUPS[index / l.squares], index % l.squares)
                } else {
                    l.tail()
                        .name(index)
                        .unwrap_or_else(|| format!("unused-{index}"))
                }
            }
            FeatureKind::Patterns => {
                let l = PatternLayout::of(R::SHEET.board);
                if index < l.bias() {
                    // `mid-w3-.x..o...`: phase, window, then its squares in order ('.' empty,
                    // 'x' own man, 'o' opponent man).
                    let table = index / WINDOW_STATES;
                    let mut state = index % WINDOW_STATES;
                    let mut squares = String::with_capacity(WINDOW_SQUARES);
                    for _ in 0..WINDOW_SQUARES {
                        squares.push(['.', 'x', 'o'][state % 3]);
                        state /= 3;
                    }
                    format!(
                        "{}-w{}-{squares}",
                        PHASES[table / l.windows],
                        table % l.windows
                    )
                } else {
                    l.tail()
                        .name(index)
                        .unwrap_or_else(|| format!("unused-{index}"))
                }
            }
        }
    }
}

/// The orthogonal family has two sets: its `patterns`, `orthogonal-lines-v2` (the default),
/// and `psq`, `orthogonal-psq-v1` (men and kings by square); see [`crate::orthogonal::learned`].
impl<R: orthogonal::rules::Rules> Features for Orthogonal<R> {
    fn feature_kinds() -> &'static [FeatureKind] {
        &[FeatureKind::Patterns, FeatureKind::Psq]
    }

    fn feature_set(kind: FeatureKind) -> String {
        ortho_layout::<R>(kind).name()
    }

    fn feature_count(kind: FeatureKind) -> usize {
        ortho_layout::<R>(kind).total()
    }

    fn features(kind: FeatureKind, pos: &orthogonal::Position, out: &mut Vec<u32>) {
        lines::active_features_in(ortho_layout::<R>(kind), pos, |i| out.push(i as u32));
    }

    fn feature_name(kind: FeatureKind, index: usize) -> String {
        ortho_layout::<R>(kind).feature_name(index)
    }

    fn hand_evaluation(pos: &orthogonal::Position) -> i32 {
        orthogonal::eval::hand_evaluate::<R>(pos)
    }
}

/// The orthogonal layout of `kind`: the lines for `patterns`, piece-square for `psq`.
fn ortho_layout<R: orthogonal::rules::Rules>(kind: FeatureKind) -> LineLayout {
    match kind {
        FeatureKind::Patterns => LineLayout::of::<R>(),
        FeatureKind::Psq => LineLayout::psq_of::<R>(),
    }
}

/// Seesaw Draughts has its piece-square set only: `stacks-psq-v1` (see
/// [`crate::stacks::learned`]), whatever `kind` says.
impl Features for SeesawDraughts {
    fn feature_kinds() -> &'static [FeatureKind] {
        &[FeatureKind::Psq]
    }

    fn feature_set(_kind: FeatureKind) -> String {
        StacksLayout::NAME.into()
    }

    fn feature_count(_kind: FeatureKind) -> usize {
        StacksLayout::TOTAL
    }

    fn features(_kind: FeatureKind, pos: &stacks::Position, out: &mut Vec<u32>) {
        stacks::learned::active_features(pos, |i| out.push(i as u32));
    }

    fn feature_name(_kind: FeatureKind, index: usize) -> String {
        StacksLayout::feature_name(index)
    }

    fn hand_evaluation(pos: &stacks::Position) -> i32 {
        stacks::eval::hand_evaluate(pos)
    }
}

/// Hex Seesaw has its piece-square set only: `hex-psq-v1` (see [`crate::hex::learned`]),
/// whatever `kind` says.
impl<B: HexBoard> Features for Hex<B> {
    fn feature_kinds() -> &'static [FeatureKind] {
        &[FeatureKind::Psq]
    }

    fn feature_set(_kind: FeatureKind) -> String {
        HexLayout::of::<B>().name()
    }

    fn feature_count(_kind: FeatureKind) -> usize {
        HexLayout::of::<B>().total()
    }

    fn features(_kind: FeatureKind, pos: &hex::Position, out: &mut Vec<u32>) {
        hex::learned::active_features::<B>(pos, |i| out.push(i as u32));
    }

    fn feature_name(_kind: FeatureKind, index: usize) -> String {
        HexLayout::of::<B>().feature_name(index)
    }

    fn hand_evaluation(pos: &hex::Position) -> i32 {
        hex::eval::hand_evaluate(B::GEOMETRY, pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagonal::rules::{International, Russian};

    type Intl = Diagonal<International>;

    fn sorted<G: Features>(kind: FeatureKind, fen: &str) -> Vec<u32> {
        let pos = G::parse_position(fen).expect("test position");
        let mut f = Vec::new();
        G::features(kind, &pos, &mut f);
        assert!(f.iter().all(|&i| (i as usize) < G::feature_count(kind)));
        f.sort_unstable();
        f
    }

    #[test]
    fn the_start_position_has_one_feature_per_piece_plus_five() {
        let psq = FeatureKind::Psq;
        assert_eq!(Intl::feature_count(psq), 4 * 50 + 1 + 4 * 21);
        assert_eq!(sorted::<Intl>(psq, "W:W31-50:B1-20").len(), 40 + 5);
        assert_eq!(Diagonal::<Russian>::feature_count(psq), 4 * 32 + 1 + 4 * 13);
    }

    #[test]
    fn pattern_sets_have_two_tables_per_window() {
        let p = FeatureKind::Patterns;
        assert_eq!(Intl::feature_count(p), 2 * 16 * 6561 + 1 + 4 * 21);
        assert_eq!(
            Diagonal::<Russian>::feature_count(p),
            2 * 9 * 6561 + 1 + 4 * 13
        );
        assert_eq!(Intl::feature_set(p), "diagonal-patterns-v1-50sq");
        assert_eq!(
            Diagonal::<Russian>::feature_set(p),
            "diagonal-patterns-v1-32sq"
        );
    }

    #[test]
    fn start_position_window_states() {
        let p = FeatureKind::Patterns;
        let f = sorted::<Intl>(p, "W:W31-50:B1-20");
        // Rows 0-3 are the opponent's (digit 2), 4-5 empty, 6-9 own (digit 1).
        let all_opp = 6560;
        let opp_top = 2 * (1 + 3 + 9 + 27);
        let own_bottom = 81 + 243 + 729 + 2187;
        let own_all = 3280;
        let mut want: Vec<u32> = (0..16)
            .map(|w| {
                let state = [all_opp, opp_top, own_bottom, own_all][w / 4];
                (w * 6561 + state) as u32
            })
            .collect();
        let bias = 2 * 16 * 6561;
        want.extend([
            bias,
            bias + 1 + 20,
            bias + 1 + 21 + 20,
            bias + 1 + 42,
            bias + 1 + 63,
        ]);
        assert_eq!(f, want);
        assert_eq!(
            Intl::feature_name(p, 15 * 6561 + own_all),
            "mid-w15-xxxxxxxx"
        );
        assert_eq!(Intl::feature_name(p, 16 * 6561 + 5), "end-w0-ox......");
    }

    #[test]
    fn the_endgame_tables_take_over_at_half_the_men() {
        let p = FeatureKind::Patterns;
        let phase = |fen: &str| sorted::<Intl>(p, fen)[0] as usize / (16 * 6561);
        // 21 men (and a king, which does not count): middle game; 20 men: endgame.
        assert_eq!(phase("W:W30-40,K50:B1-10"), 0);
        assert_eq!(phase("W:W31-40,K50:B1-10"), 1);
    }

    #[test]
    fn features_are_seen_from_the_side_to_move() {
        for kind in FeatureKind::ALL {
            // The same position with colours swapped (board turned) and the other side to move.
            assert_eq!(
                sorted::<Intl>(kind, "W:W31,K45:B7,12"),
                sorted::<Intl>(kind, "B:W39,44:B20,K6")
            );
            assert_ne!(
                sorted::<Intl>(kind, "W:W31,K45:B7,12"),
                sorted::<Intl>(kind, "B:W31,K45:B7,12")
            );
        }
    }

    #[test]
    fn every_feature_has_a_distinct_name() {
        for kind in FeatureKind::ALL {
            let n = Intl::feature_count(kind);
            let names: std::collections::HashSet<String> =
                (0..n).map(|i| Intl::feature_name(kind, i)).collect();
            assert_eq!(names.len(), n);
            assert!(names.contains("bias") && names.contains("own-men=20"));
            assert!(names.iter().all(|n| !n.contains(' ')));
        }
    }

    #[test]
    fn orthogonal_variants_have_lines_and_piece_squares() {
        use crate::orthogonal::rules::{Dameo, Turkish};
        type T = Orthogonal<Turkish>;
        let p = FeatureKind::Patterns;
        assert_eq!(T::feature_kinds(), &[p, FeatureKind::Psq]);
        assert_eq!(T::feature_set(FeatureKind::Psq), "orthogonal-psq-v1-16men");
        assert_eq!(T::feature_count(FeatureKind::Psq), 8 * 64 + 1 + 4 * 17);
        assert_eq!(T::feature_set(p), "orthogonal-lines-v2-16men");
        assert_eq!(T::feature_count(p), 2 * 16 * 6561 + 4 * 64 + 1 + 4 * 17);
        assert_eq!(
            Orthogonal::<Dameo>::feature_set(p),
            "orthogonal-lines-v2-18men"
        );
        // The twin (colours swapped, board turned, the other side to move) has the same
        // features; the same board with the other side to move does not.
        let f = sorted::<T>(p, "W:Wa2,Kc5,d3:Bb7,h6");
        assert_eq!(f.len(), 16 + 1 + 5);
        assert_eq!(f, sorted::<T>(p, "B:Wa3,g2:Be6,Kf4,h7"));
        assert_ne!(f, sorted::<T>(p, "B:Wa2,Kc5,d3:Bb7,h6"));
        assert_eq!(T::feature_name(p, T::feature_count(p) - 1), "opp-kings=16");
    }

    #[test]
    fn kinds_read_back_from_their_names() {
        for kind in FeatureKind::ALL {
            assert_eq!(FeatureKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(FeatureKind::from_name("nosuch"), None);
    }
}
