//! The diagonal family's sparse features for learning (see [`crate::learn::features`]):
//! `diagonal-psq-v1` (men and kings by side-relative square, for training) and
//! `diagonal-patterns-v2` (the 4x4 windows that [`super::learned`] numbers and evaluates).

use polydam_tables::diagonal::Geometry;

use super::learned::{self, PatternLayout};
use super::patterns::{WINDOW_SQUARES, WINDOW_STATES};
use super::rules::Rules;
use super::{eval, Bits, Diagonal, Position};
use crate::game::Side;
use crate::learn::features::{FeatureKind, Features};
use crate::learn::linear::{CountTail, COUNT_GROUPS};
use crate::learn::source::{WeightsError, WeightsSource};

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
            // The trainer fits the blended set (see `feature_values`).
            FeatureKind::Patterns => PatternLayout::of(R::SHEET.board).blended_name(),
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

    fn feature_values(kind: FeatureKind, pos: &Position<R::Bits>, out: &mut Vec<(u32, f32)>) {
        match kind {
            FeatureKind::Psq => {
                let mut plain = Vec::new();
                psq_features::<R>(pos, &mut plain);
                out.extend(plain.into_iter().map(|f| (f, 1.0)));
            }
            FeatureKind::Patterns => {
                learned::active_feature_values::<R>(pos, |i, v| out.push((i as u32, v)))
            }
        }
    }

    fn hand_evaluation(pos: &Position<R::Bits>) -> i32 {
        eval::hand_evaluate::<R>(pos)
    }

    fn weights_name() -> Option<&'static str> {
        R::learned_cell().map(|_| learned::weights_name::<R>())
    }

    fn prepare_weights(source: &WeightsSource) -> Result<(), WeightsError> {
        learned::prepare::<R>(source)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagonal::rules::{International, Russian};
    use crate::learn::features::testing::sorted;

    type Intl = Diagonal<International>;

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
        assert_eq!(Intl::feature_set(p), "diagonal-patterns-v2-50sq");
        assert_eq!(
            Diagonal::<Russian>::feature_set(p),
            "diagonal-patterns-v2-32sq"
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
}
