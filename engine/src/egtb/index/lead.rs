//! The lead group of a slice on a board with a mirror: its sets ranked among the canonical
//! ones only (see the index's description), so that a position and its mirror image share an
//! index.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::colex::{binomial, colex_rank, colex_unrank, spread};
use super::pext;
use super::{ManSquares, Mirror, Placement};

/// The canonical sets of one lead group: `k` squares of `set`, up to `mirror`.
#[derive(Debug)]
pub(super) struct LeadTable {
    /// Colex rank of a set among all `k`-sets of `set` -> its canonical ordinal, or
    /// `u32::MAX` when the set is not canonical.
    pub(super) ordinal: Vec<u32>,
    /// Canonical ordinal -> colex rank.
    pub(super) rank: Vec<u64>,
    /// The squares the group is ranked over.
    pub(super) squares: ManSquares,
}

/// The lead group of a slice on a board with a mirror.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lead {
    /// 0: our men, 1: their men, 2: our kings (no men on the board).
    pub(super) group: u8,
    pub(super) table: &'static LeadTable,
    pub(super) mirror: Mirror,
}

impl PartialEq for Lead {
    fn eq(&self, other: &Lead) -> bool {
        self.group == other.group && std::ptr::eq(self.table, other.table)
    }
}

impl Eq for Lead {}

impl Lead {
    /// The lead group's squares in `p`.
    #[inline(always)]
    pub(super) fn set(&self, p: &Placement) -> u64 {
        match self.group {
            0 => p.men[0],
            1 => p.men[1],
            _ => p.kings[0],
        }
    }

    /// The colex rank of the lead group's squares `set`.
    #[inline(always)]
    fn rank(&self, set: u64) -> u64 {
        colex_rank(set, |s| self.table.squares.rank[s as usize] as u32)
    }

    /// [`Lead::rank`], with BMI2's `pext` when `B` (see [`super::SliceIndex`]'s `bmi2`).
    #[inline(always)]
    pub(super) fn rank_with<const B: bool>(&self, set: u64) -> u64 {
        if B {
            colex_rank(pext::<B>(set, self.table.squares.set), |s| s)
        } else {
            self.rank(set)
        }
    }

    /// The tables for `k` squares of `squares` under `mirror`, made once per process.
    pub(super) fn table(squares: &ManSquares, k: u32, mirror: Mirror) -> &'static LeadTable {
        type Key = (u64, u32, Mirror);
        static TABLES: OnceLock<Mutex<HashMap<Key, &'static LeadTable>>> = OnceLock::new();
        let key = (squares.set, k, mirror);
        let tables = TABLES.get_or_init(Default::default);
        let mut tables = match tables.lock() {
            Ok(t) => t,
            Err(poisoned) => poisoned.into_inner(),
        };
        tables.entry(key).or_insert_with(|| {
            let n = binomial(squares.count, k);
            let mut ordinal = Vec::with_capacity(n as usize);
            let mut rank = Vec::new();
            for r in 0..n {
                let dense = spread(colex_unrank(r, k, squares.count), squares);
                let image = colex_rank(mirror.apply(dense), |s| squares.rank[s as usize] as u32);
                if r <= image {
                    ordinal.push(rank.len() as u32);
                    rank.push(r);
                } else {
                    ordinal.push(u32::MAX);
                }
            }
            Box::leak(Box::new(LeadTable {
                ordinal,
                rank,
                squares: squares.clone(),
            }))
        })
    }
}
