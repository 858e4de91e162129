//! Strength levels that a person can beat: a shallow search, a node budget, and a deliberate
//! choice among the moves that score nearly as well as the best.
//!
//! A level searches several lines ([`Limits::multipv`]) to a small depth, then plays one of
//! the moves whose score is within the level's margin of the best, at random, the better
//! moves more often. Low levels see little and forgive themselves big mistakes; each level
//! up sees deeper and strays less. Level 0 is the engine's full strength.
//!
//! ```
//! use polydam_engine::search::{level_plan, Limits};
//!
//! let plan = level_plan(1).expect("level 1 exists");
//! let mut limits = Limits::default();
//! plan.apply(&mut limits);
//! assert!(limits.depth.is_some() && limits.multipv > 1);
//! assert!(level_plan(0).is_none(), "level 0 is full strength");
//! ```

use super::limits::Limits;
use crate::score::{Depth, Score};

/// The highest level below full strength.
pub const MAX_LEVEL: u8 = 6;

/// How a level plays: what it searches and how far it strays from the best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelPlan {
    /// The level's number, 1 to [`MAX_LEVEL`].
    pub level: u8,
    /// Its name for people.
    pub name: &'static str,
    /// Deepest iteration searched.
    pub depth: i32,
    /// Most nodes searched for one move.
    pub nodes: u64,
    /// Root moves scored with their own lines, among which the move is chosen.
    pub lines: usize,
    /// How far below the best a move may score and still be played, in hundredths of a man.
    pub margin: i32,
}

/// The levels, weakest first (measured by `polydam match`, level n+1 against level n: see
/// docs/web.md).
const PLANS: [LevelPlan; MAX_LEVEL as usize] = [
    LevelPlan {
        level: 1,
        name: "beginner",
        depth: 1,
        nodes: 2_000,
        lines: 12,
        margin: 300,
    },
    LevelPlan {
        level: 2,
        name: "novice",
        depth: 2,
        nodes: 4_000,
        lines: 8,
        margin: 150,
    },
    LevelPlan {
        level: 3,
        name: "casual",
        depth: 3,
        nodes: 8_000,
        lines: 6,
        margin: 80,
    },
    LevelPlan {
        level: 4,
        name: "club",
        depth: 4,
        nodes: 16_000,
        lines: 5,
        margin: 40,
    },
    LevelPlan {
        level: 5,
        name: "strong club",
        depth: 6,
        nodes: 40_000,
        lines: 4,
        margin: 20,
    },
    LevelPlan {
        level: 6,
        name: "expert",
        depth: 9,
        nodes: 100_000,
        lines: 3,
        margin: 6,
    },
];

/// The plan of `level` (1 to [`MAX_LEVEL`]); `None` for 0 (full strength) and above.
pub fn level_plan(level: u8) -> Option<LevelPlan> {
    PLANS.get(usize::from(level).checked_sub(1)?).copied()
}

/// The name of `level`: "full strength" for 0.
pub fn level_name(level: u8) -> &'static str {
    level_plan(level).map_or("full strength", |p| p.name)
}

impl LevelPlan {
    /// Narrows `limits` to the level's: its depth and nodes at most, its lines at least.
    pub fn apply(&self, limits: &mut Limits) {
        let depth = Depth(self.depth);
        limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
        limits.nodes = Some(limits.nodes.map_or(self.nodes, |n| n.min(self.nodes)));
        limits.multipv = limits.multipv.max(self.lines);
    }

    /// Which of `scores` (the lines' scores, best first, from the mover's view) to play, for
    /// the random number `random`: one within the margin of the best, chosen with a weight
    /// that falls linearly from the best to the margin. A forced win is always played, and a
    /// move that loses by force is never chosen over one that does not.
    pub fn choose(&self, scores: &[Score], random: u64) -> usize {
        let Some(&best) = scores.first() else {
            return 0;
        };
        if best.is_decisive() && best > Score::DRAW {
            return 0;
        }
        let weights: Vec<u64> = scores
            .iter()
            .map(|&s| {
                let loses = s.is_decisive() && s < Score::DRAW && !best.is_decisive();
                let behind = i64::from(best.centi()) - i64::from(s.centi());
                let margin = i64::from(self.margin);
                if loses || behind > margin {
                    0
                } else {
                    // +1 keeps a move exactly at the margin playable.
                    (margin - behind.max(0) + 1) as u64
                }
            })
            .collect();
        let total: u64 = weights.iter().sum();
        if total == 0 {
            return 0;
        }
        let mut pick = random % total;
        for (i, w) in weights.iter().enumerate() {
            if pick < *w {
                return i;
            }
            pick -= w;
        }
        0
    }
}

/// A random number from `seed`, well mixed (SplitMix64): what the callers feed
/// [`LevelPlan::choose`], seeding it from the clock.
pub fn mix_seed(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_deeper_and_stray_less() {
        for pair in PLANS.windows(2) {
            assert!(pair[1].depth > pair[0].depth, "{pair:?}");
            assert!(pair[1].margin < pair[0].margin, "{pair:?}");
            assert_eq!(pair[1].level, pair[0].level + 1);
        }
        assert_eq!(level_name(0), "full strength");
        assert_eq!(level_name(1), "beginner");
        assert!(level_plan(MAX_LEVEL + 1).is_none());
    }

    #[test]
    fn the_choice_stays_within_the_margin() {
        let plan = level_plan(3).expect("level 3");
        let scores = [
            Score::from_centi(50),
            Score::from_centi(0),
            Score::from_centi(-20),
            Score::from_centi(-100),
        ];
        let mut seen = [0u32; 4];
        for r in 0..2000u64 {
            seen[plan.choose(&scores, mix_seed(r))] += 1;
        }
        assert!(seen[0] > seen[1] && seen[1] > seen[2], "{seen:?}");
        assert!(seen[2] > 0, "{seen:?}");
        assert_eq!(
            seen[3], 0,
            "100 behind is beyond level 3's margin: {seen:?}"
        );
    }

    #[test]
    fn a_forced_win_is_played_and_a_forced_loss_avoided() {
        let plan = level_plan(1).expect("level 1");
        let win = [Score::win_in(crate::score::Ply(5)), Score::from_centi(100)];
        for r in 0..100 {
            assert_eq!(plan.choose(&win, mix_seed(r)), 0);
        }
        let loss = [Score::from_centi(0), Score::loss_in(crate::score::Ply(4))];
        for r in 0..100 {
            assert_eq!(plan.choose(&loss, mix_seed(r)), 0);
        }
    }
}
