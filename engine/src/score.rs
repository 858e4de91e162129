//! The search's units: [`Score`], [`Depth`] and [`Ply`], as types rather than bare integers so
//! that a depth is never added to a score by mistake. They sit below the search because the
//! endgame tables score positions too; the search re-exports them.

use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};

/// The deepest ply the search ever reaches from the root (extensions included).
pub const MAX_PLY: usize = 128;

/// An evaluation or search score in hundredths of a man, from the side to move's point of view.
///
/// Won and lost positions are scored by their distance: a win `p` plies ahead is
/// [`Score::WIN`]` - p` (and a loss the negative), so that a shorter win always scores higher.
/// With `WIN = 10000` centimen this is exactly the Hub protocol's convention ("a win found p
/// plies ahead prints as 100 - p/100 men"), see [`Score::hub`].
///
/// ```
/// use polydam_engine::search::{Ply, Score};
/// assert_eq!(Score::win_in(Ply(1)).hub(), "99.99");
/// assert_eq!(Score::loss_in(Ply(4)).hub(), "-99.96");
/// assert_eq!(Score::from_centi(-105).hub(), "-1.05");
/// assert_eq!(Score::win_in(Ply(7)).plies_to_end(), Some(7));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(i32);

impl Score {
    /// A draw (and an equal position).
    pub const DRAW: Score = Score(0);
    /// A win on the board right now (the bound of every win score).
    pub const WIN: Score = Score(10_000);
    /// Above every real score: the initial window of a search.
    pub const INFINITE: Score = Score(10_001);
    /// The smallest score that still means "a forced win within [`MAX_PLY`] plies".
    pub const WIN_THRESHOLD: Score = Score(10_000 - MAX_PLY as i32);
    /// The largest score a static evaluation may return; evaluations are clamped to it so they
    /// can never be mistaken for a forced result.
    pub const MAX_EVAL: Score = Score(9_000);
    /// The lowest score of an endgame-table win. Table wins live in the band between every
    /// evaluation and every forced result, `TABLE_WIN_MIN..=TABLE_WIN_MAX` (table losses in its
    /// negative); like forced results they lose a point per ply from the root.
    pub const TABLE_WIN_MIN: Score = Score(9_000 + 1);
    /// The highest score of an endgame-table win (see [`Score::TABLE_WIN_MIN`]).
    pub const TABLE_WIN_MAX: Score = Score(10_000 - MAX_PLY as i32 - 1);

    /// A score of `centi` hundredths of a man.
    #[inline]
    pub const fn from_centi(centi: i32) -> Score {
        Score(centi)
    }

    /// A static evaluation, clamped to `±MAX_EVAL`.
    #[inline]
    pub const fn from_eval(centi: i32) -> Score {
        let m = Score::MAX_EVAL.0;
        Score(if centi > m {
            m
        } else if centi < -m {
            -m
        } else {
            centi
        })
    }

    /// The value in hundredths of a man.
    #[inline]
    pub const fn centi(self) -> i32 {
        self.0
    }

    /// A win `ply` plies from the root.
    #[inline]
    pub const fn win_in(ply: Ply) -> Score {
        Score(Score::WIN.0 - ply.0 as i32)
    }

    /// A loss `ply` plies from the root.
    #[inline]
    pub const fn loss_in(ply: Ply) -> Score {
        Score(-Score::WIN.0 + ply.0 as i32)
    }

    /// Whether the score is a forced win.
    #[inline]
    pub const fn is_win(self) -> bool {
        self.0 >= Score::WIN_THRESHOLD.0
    }

    /// Whether the score is a forced loss.
    #[inline]
    pub const fn is_loss(self) -> bool {
        self.0 <= -Score::WIN_THRESHOLD.0
    }

    /// Whether the score is a forced win or loss.
    #[inline]
    pub const fn is_decisive(self) -> bool {
        self.is_win() || self.is_loss()
    }

    /// Whether the score is a win by the endgame tables (not yet played out on the board).
    #[inline]
    pub const fn is_table_win(self) -> bool {
        self.0 >= Score::TABLE_WIN_MIN.0 && self.0 <= Score::TABLE_WIN_MAX.0
    }

    /// Whether the score is a loss by the endgame tables.
    #[inline]
    pub const fn is_table_loss(self) -> bool {
        self.0 <= -Score::TABLE_WIN_MIN.0 && self.0 >= -Score::TABLE_WIN_MAX.0
    }

    /// For a decisive score, the number of plies to the end of the game.
    pub const fn plies_to_end(self) -> Option<u32> {
        if self.is_win() {
            Some((Score::WIN.0 - self.0) as u32)
        } else if self.is_loss() {
            Some((Score::WIN.0 + self.0) as u32)
        } else {
            None
        }
    }

    /// The score as the Hub protocol prints it: men with two decimals (`0.25`, `-1.05`,
    /// `99.99` for a win in one ply).
    pub fn hub(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        format!("{sign}{}.{:02}", a / 100, a % 100)
    }

    /// The score seen from a node `ply` plies below the root, for storing in the
    /// transposition table: decisive scores become distances from that node, and table wins
    /// and losses likewise (kept inside their band).
    #[inline]
    pub(crate) const fn to_tt(self, ply: Ply) -> Score {
        let p = ply.0 as i32;
        if self.is_win() {
            Score(self.0 + p)
        } else if self.is_loss() {
            Score(self.0 - p)
        } else if self.is_table_win() {
            Score::clamp_table(self.0 + p)
        } else if self.is_table_loss() {
            Score(-Score::clamp_table(-self.0 + p).0)
        } else {
            self
        }
    }

    /// The inverse of [`Score::to_tt`]; also how a score given from a node `ply` plies below
    /// the root (an endgame table's) is seen from the root.
    #[inline]
    pub(crate) const fn unpack_tt(self, ply: Ply) -> Score {
        let p = ply.0 as i32;
        if self.is_win() {
            Score(self.0 - p)
        } else if self.is_loss() {
            Score(self.0 + p)
        } else if self.is_table_win() {
            Score::clamp_table(self.0 - p)
        } else if self.is_table_loss() {
            Score(-Score::clamp_table(-self.0 - p).0)
        } else {
            self
        }
    }

    /// A table win's score kept inside its band, so that a long path never turns it into an
    /// evaluation or a forced win.
    #[inline]
    const fn clamp_table(centi: i32) -> Score {
        Score(if centi < Score::TABLE_WIN_MIN.0 {
            Score::TABLE_WIN_MIN.0
        } else if centi > Score::TABLE_WIN_MAX.0 {
            Score::TABLE_WIN_MAX.0
        } else {
            centi
        })
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl Add<i32> for Score {
    type Output = Score;
    #[inline]
    fn add(self, rhs: i32) -> Score {
        Score(self.0 + rhs)
    }
}

impl Sub<i32> for Score {
    type Output = Score;
    #[inline]
    fn sub(self, rhs: i32) -> Score {
        Score(self.0 - rhs)
    }
}

impl fmt::Display for Score {
    /// Men with two decimals, or `win N` / `loss N` (plies) for forced results.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_win() {
            write!(f, "win {}", Score::WIN.0 - self.0)
        } else if self.is_loss() {
            write!(f, "loss {}", Score::WIN.0 + self.0)
        } else {
            f.write_str(&self.hub())
        }
    }
}

/// A remaining search depth in plies (may go to zero or below at the horizon).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Depth(pub i32);

impl Depth {
    /// Zero plies: the horizon, where quiescence takes over.
    pub const ZERO: Depth = Depth(0);
    /// One ply.
    pub const ONE: Depth = Depth(1);
    /// The deepest iteration the search starts.
    pub const MAX: Depth = Depth(MAX_PLY as i32 - 8);

    /// The depth in plies.
    #[inline]
    pub const fn plies(self) -> i32 {
        self.0
    }
}

impl Add<i32> for Depth {
    type Output = Depth;
    #[inline]
    fn add(self, rhs: i32) -> Depth {
        Depth(self.0 + rhs)
    }
}

impl Sub<i32> for Depth {
    type Output = Depth;
    #[inline]
    fn sub(self, rhs: i32) -> Depth {
        Depth(self.0 - rhs)
    }
}

impl AddAssign<i32> for Depth {
    #[inline]
    fn add_assign(&mut self, rhs: i32) {
        self.0 += rhs;
    }
}

impl SubAssign<i32> for Depth {
    #[inline]
    fn sub_assign(&mut self, rhs: i32) {
        self.0 -= rhs;
    }
}

impl fmt::Display for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A distance from the root in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ply(pub u32);

impl Ply {
    /// The root.
    pub const ROOT: Ply = Ply(0);

    /// The next ply.
    #[inline]
    pub const fn next(self) -> Ply {
        Ply(self.0 + 1)
    }

    /// As an index into per-ply arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Ply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hub_form_matches_the_protocol() {
        assert_eq!(Score::DRAW.hub(), "0.00");
        assert_eq!(Score::from_centi(5).hub(), "0.05");
        assert_eq!(Score::from_centi(-5).hub(), "-0.05");
        assert_eq!(Score::win_in(Ply(1)).hub(), "99.99");
        assert_eq!(Score::loss_in(Ply(12)).hub(), "-99.88");
    }

    #[test]
    fn tt_conversion_round_trips() {
        let s = Score::win_in(Ply(9));
        assert_eq!(s.to_tt(Ply(4)).unpack_tt(Ply(4)), s);
        assert_eq!(s.to_tt(Ply(4)), Score::win_in(Ply(5)));
        let l = Score::loss_in(Ply(9));
        assert_eq!(l.to_tt(Ply(4)), Score::loss_in(Ply(5)));
        assert_eq!(Score::from_centi(37).to_tt(Ply(3)), Score::from_centi(37));
    }

    #[test]
    fn table_scores_round_trip_inside_their_band() {
        let w = Score::from_centi(9_550);
        assert!(w.is_table_win() && !w.is_win() && !(-w).is_table_win());
        assert!((-w).is_table_loss() && !(-w).is_loss());
        // A table win 7 plies below the root, stored at a node 3 plies below it: 4 plies from
        // that node, whatever ply it is read back at.
        let at_root = w.unpack_tt(Ply(7));
        assert_eq!(at_root, Score::from_centi(9_543));
        assert_eq!(at_root.to_tt(Ply(3)), Score::from_centi(9_546));
        assert_eq!(at_root.to_tt(Ply(3)).unpack_tt(Ply(3)), at_root);
        assert_eq!(
            at_root.to_tt(Ply(3)).unpack_tt(Ply(5)),
            Score::from_centi(9_541)
        );
        assert_eq!((-at_root).to_tt(Ply(3)), Score::from_centi(-9_546));
        assert_eq!((-at_root).to_tt(Ply(3)).unpack_tt(Ply(3)), -at_root);
        // Never out of the band: not an evaluation, not a forced result.
        let low = Score::TABLE_WIN_MIN + 5;
        assert_eq!(low.unpack_tt(Ply(100)), Score::TABLE_WIN_MIN);
        assert_eq!((-low).unpack_tt(Ply(100)), -Score::TABLE_WIN_MIN);
        let high = Score::TABLE_WIN_MAX - 5;
        assert_eq!(high.to_tt(Ply(100)), Score::TABLE_WIN_MAX);
        assert!(!Score::TABLE_WIN_MAX.is_win() && !Score::MAX_EVAL.is_table_win());
        assert!(Score::win_in(Ply(MAX_PLY as u32 - 1)).is_win());
        // Evaluations and draws are left alone.
        assert_eq!(Score::MAX_EVAL.unpack_tt(Ply(9)), Score::MAX_EVAL);
        assert_eq!(Score::DRAW.to_tt(Ply(9)), Score::DRAW);
    }

    #[test]
    fn evaluations_never_look_decisive() {
        assert!(!Score::from_eval(1_000_000).is_decisive());
        assert!(!Score::from_eval(-1_000_000).is_decisive());
        assert!(Score::MAX_EVAL < Score::WIN_THRESHOLD);
    }
}
