//! The search's units: [`Score`], [`Depth`] and [`Ply`], as types rather than bare integers so
//! that a depth is never added to a score by mistake.

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
    /// transposition table: decisive scores become distances from that node.
    #[inline]
    pub(crate) const fn to_tt(self, ply: Ply) -> Score {
        if self.is_win() {
            Score(self.0 + ply.0 as i32)
        } else if self.is_loss() {
            Score(self.0 - ply.0 as i32)
        } else {
            self
        }
    }

    /// The inverse of [`Score::to_tt`].
    #[inline]
    pub(crate) const fn unpack_tt(self, ply: Ply) -> Score {
        if self.is_win() {
            Score(self.0 - ply.0 as i32)
        } else if self.is_loss() {
            Score(self.0 + ply.0 as i32)
        } else {
            self
        }
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
    fn evaluations_never_look_decisive() {
        assert!(!Score::from_eval(1_000_000).is_decisive());
        assert!(!Score::from_eval(-1_000_000).is_decisive());
        assert!(Score::MAX_EVAL < Score::WIN_THRESHOLD);
    }
}
