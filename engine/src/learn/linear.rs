//! What the families' learned evaluations share: the material-count tail that ends each of
//! their feature sets, the game phase and weights in fixed point (where the weights come
//! from: [`super::source`]).
//!
//! A family's learned module numbers its own board features (`diagonal::learned`,
//! `orthogonal::learned`); the tail, the loading and the arithmetic are the same for all.

use super::weights::{Base, WeightsFile};

/// The names of the four count groups of the men-and-kings families (diagonal, orthogonal),
/// in index order (see [`CountTail`]).
pub const COUNT_GROUPS: [&str; 4] = ["own-men", "opp-men", "own-kings", "opp-kings"];

/// Fixed-point unit of loaded weights: 1/8 of a hundredth of a man.
pub const UNIT: i32 = 8;

/// The end of a feature set: a bias at index `bias` (always active: the value of having the
/// move), then one-hot counts of four groups, each from 0 to `men`, larger counts clamped: own
/// men, opponent men, own kings and opponent kings (groups 0 to 3, in that order) in the
/// men-and-kings families; what a family counts instead is named by `groups`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountTail {
    /// The bias's index: the board features come before it.
    pub bias: usize,
    /// The largest count (the men a side starts with).
    pub men: usize,
    /// The names of the four groups, for feature names ([`COUNT_GROUPS`] for men and kings).
    pub groups: &'static [&'static str; 4],
}

impl CountTail {
    /// The index of count `n` of `group` (0 own men, 1 opponent men, 2 own kings, 3 opponent
    /// kings).
    #[inline(always)]
    pub fn count(self, group: usize, n: u32) -> usize {
        self.bias + 1 + group * (self.men + 1) + (n as usize).min(self.men)
    }

    /// The number of features of the whole set (every index is below it).
    #[inline(always)]
    pub const fn total(self) -> usize {
        self.bias + 1 + 4 * (self.men + 1)
    }

    /// Calls `visit` with the bias, then with the index of each of the four `counts`.
    #[inline(always)]
    pub fn features(self, counts: [u32; 4], mut visit: impl FnMut(usize)) {
        visit(self.bias);
        for (group, n) in counts.into_iter().enumerate() {
            visit(self.count(group, n));
        }
    }

    /// The name of a tail index (`bias`, `own-men=12`, ...: the group's name and the count),
    /// or `None` below the bias or past the end.
    pub fn name(self, index: usize) -> Option<String> {
        if index == self.bias {
            return Some("bias".into());
        }
        (index > self.bias && index < self.total()).then(|| {
            let i = index - self.bias - 1;
            format!("{}={}", self.groups[i / (self.men + 1)], i % (self.men + 1))
        })
    }
}

/// Size buckets of the Seesaw games' stacks (both families): sizes 1, 2, 3 and 4 have a
/// bucket each, then odd sizes from 5 and even sizes from 6 share one each. A stack's size sets
/// its direction (its parity) and its range (card: a stack of size n captures 1..n squares or
/// steps away); larger stacks are rare in play, and their range already covers most of the
/// board.
pub const SIZE_BUCKETS: usize = 6;

/// The size buckets' names, for feature names.
pub const SIZE_BUCKET_NAMES: [&str; SIZE_BUCKETS] = ["1", "2", "3", "4", "5odd", "6even"];

/// The bucket of a stack of `size` (at least 1; see [`SIZE_BUCKETS`]).
#[inline(always)]
pub const fn size_bucket(size: u8) -> usize {
    if size <= 4 {
        size.saturating_sub(1) as usize
    } else {
        // Beyond 4 only the parity is kept (it sets the direction): odd 4, even 5.
        5 - (size % 2) as usize
    }
}

/// The game phase of a position with `men` men on the board (kings not counted) in a variant
/// whose sides start with `per_side` men each: 0, the middle game, while more than `per_side`
/// are left; 1, the endgame, from there down.
#[inline(always)]
pub fn phase(men: u32, per_side: usize) -> usize {
    usize::from(men as usize <= per_side)
}

/// A weights file in fixed point ([`UNIT`]s), checked against the feature set it is loaded
/// for: the board features' weights as `i16` (compact, for the cache), the tail's as `i32`.
#[derive(Clone, Debug)]
pub struct FixedWeights {
    /// What the weights are added to.
    pub base: Base,
    /// Where they came from (`shipped` or a file's path).
    pub source: String,
    /// The weights below the tail's bias, indexed as the feature set numbers them.
    pub table: Box<[i16]>,
    /// The bias and count weights, indexed from the bias.
    pub tail: Box<[i32]>,
}

impl FixedWeights {
    /// The weights of `file` (read from `source`), if it holds `tail.total()` weights of
    /// `feature_set` for `variant`; board weights must fit an `i16` once in fixed point.
    pub fn from_file(
        file: &WeightsFile,
        source: &str,
        feature_set: &str,
        variant: &str,
        tail: CountTail,
    ) -> Result<FixedWeights, String> {
        if file.feature_set != feature_set {
            return Err(format!(
                "feature set '{}', expected '{feature_set}'",
                file.feature_set
            ));
        }
        if file.variant != variant {
            return Err(format!("weights for {}, not {variant}", file.variant));
        }
        if file.weights.len() != tail.total() {
            return Err(format!(
                "{} weights, expected {}",
                file.weights.len(),
                tail.total()
            ));
        }
        let fixed = |w: f64| (w * UNIT as f64).round();
        let mut table = Vec::with_capacity(tail.bias);
        for (i, &w) in file.weights[..tail.bias].iter().enumerate() {
            let v = fixed(w);
            if v.abs() > i16::MAX as f64 {
                return Err(format!("weight {i} ({w}) is out of range"));
            }
            table.push(v as i16);
        }
        let tail = file.weights[tail.bias..]
            .iter()
            .map(|&w| fixed(w).clamp(-1e8, 1e8) as i32)
            .collect();
        Ok(FixedWeights {
            base: file.base,
            source: source.to_string(),
            table: table.into_boxed_slice(),
            tail,
        })
    }

    /// The sum of the bias's and the four counts' weights, in [`UNIT`]s.
    #[inline(always)]
    pub fn tail_sum(&self, tail: CountTail, counts: [u32; 4]) -> i32 {
        let mut sum = self.tail[0];
        for (group, n) in counts.into_iter().enumerate() {
            sum += self.tail[tail.count(group, n) - tail.bias];
        }
        sum
    }
}

/// A sum of weights in [`UNIT`]s, rounded to hundredths of a man.
#[inline(always)]
pub fn to_hundredths(units: i32) -> i32 {
    (units + UNIT / 2).div_euclid(UNIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_numbers_and_names_its_features() {
        let t = CountTail {
            bias: 10,
            men: 3,
            groups: &COUNT_GROUPS,
        };
        assert_eq!(t.total(), 10 + 1 + 4 * 4);
        assert_eq!(t.count(0, 0), 11);
        assert_eq!(t.count(1, 2), 11 + 4 + 2);
        assert_eq!(t.count(3, 9), t.total() - 1, "clamped");
        let mut seen = Vec::new();
        t.features([3, 0, 1, 2], |i| seen.push(i));
        assert_eq!(seen, [10, 14, 15, 20, 25]);
        assert_eq!(t.name(10).as_deref(), Some("bias"));
        assert_eq!(t.name(14).as_deref(), Some("own-men=3"));
        assert_eq!(t.name(26).as_deref(), Some("opp-kings=3"));
        assert_eq!(t.name(27), None);
        assert_eq!(t.name(9), None);
    }

    #[test]
    fn size_buckets_keep_the_parity_beyond_four() {
        let got: Vec<usize> = (1..=9).map(size_bucket).collect();
        assert_eq!(got, [0, 1, 2, 3, 4, 5, 4, 5, 4]);
        assert_eq!(size_bucket(255), 4);
        assert_eq!(size_bucket(254), 5);
    }

    #[test]
    fn fixed_point_rounds_to_hundredths() {
        assert_eq!(to_hundredths(0), 0);
        assert_eq!(to_hundredths(4), 1);
        assert_eq!(to_hundredths(3), 0);
        assert_eq!(to_hundredths(-4), 0);
        assert_eq!(to_hundredths(-5), -1);
        assert_eq!(to_hundredths(-16), -2);
    }
}
