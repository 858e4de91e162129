//! The perfect index of a material slice: placements of men and kings numbered
//! combinatorially, so that every slice is a dense array of positions.
//!
//! Positions are always seen from the side to move ("us", moving towards the low squares on
//! the diagonal boards, towards the high ones on the orthogonal board: whatever the family's
//! [`super::TableGame`] says); a position with the other colour to move is turned first.
//! Squares are *dense* square numbers `0..SQUARES` (bit `s` of a [`Placement`] set), not the
//! engine's bit layout.
//!
//! The index of a placement is, most significant first:
//!
//! 1. our men, ranked as a combination of the squares where our men may stand (colex order:
//!    the set `{p1 < p2 < .. < pk}` of compressed positions has rank `C(p1,1) + .. + C(pk,k)`);
//! 2. their men, the same way over their own man squares (a white and a black man on one
//!    square make an index that is no position: such holes are marked invalid);
//! 3. our kings, as a combination of the squares left free by the men;
//! 4. their kings, as a combination of the squares left free by the men and our kings.
//!
//! Only the men may collide, so holes are rare (2.2% of the International 1-man-each indices).
//!
//! A board whose rules are the same in a mirror ([`Board::mirror`]: Turkish's left-right
//! mirror) indexes each position and its mirror image once. The *lead* group (the first of the
//! four above that is not empty) is ranked among its canonical sets only (the sets whose colex
//! rank is not above their mirror image's), so the slice is about half as large. A placement
//! whose lead is not canonical is mirrored before ranking; one whose lead is its own mirror
//! image takes the smaller index of itself and its mirror image, and the other index is a
//! hole. So the index of a placement and of its mirror image are always the same.

mod bmi2;
mod colex;
mod lead;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

pub use bmi2::fast_bmi2;
use bmi2::{pdep, pext};
pub use colex::binomial;
use colex::{colex_rank, colex_unrank, next_combination, spread, Divisor};
use lead::Lead;

/// The most pieces a side may have in a slice (the index tables go this far).
pub const MAX_SIDE_PIECES: u8 = 8;

/// The material of a slice, from the side to move's view: men and kings of "us" (the side to
/// move, index 0) and of "them" (index 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Men of us, then of them.
    pub men: [u8; 2],
    /// Kings of us, then of them.
    pub kings: [u8; 2],
}

impl Material {
    /// The number of distinct material ids ([`Material::id`] is below it).
    pub const IDS: usize = 9 * 9 * 9 * 9;

    /// Material with `um` men and `uk` kings to move against `tm` men and `tk` kings.
    pub const fn new(um: u8, uk: u8, tm: u8, tk: u8) -> Material {
        Material {
            men: [um, tm],
            kings: [uk, tk],
        }
    }

    /// A dense number for arrays of slices.
    #[inline]
    pub fn id(&self) -> usize {
        let [um, tm] = self.men.map(|m| m.min(8) as usize);
        let [uk, tk] = self.kings.map(|k| k.min(8) as usize);
        ((um * 9 + uk) * 9 + tm) * 9 + tk
    }

    /// The same material with the other side to move.
    #[inline]
    pub fn mirror(&self) -> Material {
        Material {
            men: [self.men[1], self.men[0]],
            kings: [self.kings[1], self.kings[0]],
        }
    }

    /// Pieces of one side (0 = us, 1 = them).
    #[inline]
    pub fn side_pieces(&self, side: usize) -> u32 {
        (self.men[side] + self.kings[side]) as u32
    }

    /// All pieces.
    #[inline]
    pub fn pieces(&self) -> u32 {
        self.side_pieces(0) + self.side_pieces(1)
    }

    /// All men.
    #[inline]
    pub fn total_men(&self) -> u32 {
        (self.men[0] + self.men[1]) as u32
    }

    /// The slice's file stem: `m1k2-m0k1` is one man and two kings to move against one king.
    pub fn name(&self) -> String {
        format!(
            "m{}k{}-m{}k{}",
            self.men[0], self.kings[0], self.men[1], self.kings[1]
        )
    }

    /// Reads a [`Material::name`] back.
    pub fn parse(name: &str) -> Option<Material> {
        let b = name.as_bytes();
        if b.len() != 9 || b[0] != b'm' || b[2] != b'k' || b[4] != b'-' || b[5] != b'm' {
            return None;
        }
        if b[7] != b'k' {
            return None;
        }
        let digit = |c: u8| c.is_ascii_digit().then(|| c - b'0');
        Some(Material::new(
            digit(b[1])?,
            digit(b[3])?,
            digit(b[6])?,
            digit(b[8])?,
        ))
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Pieces on dense squares, from the side to move's view: index 0 is us (to move), 1 them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Men of us, then of them.
    pub men: [u64; 2],
    /// Kings of us, then of them.
    pub kings: [u64; 2],
}

impl Placement {
    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.men[0] | self.men[1] | self.kings[0] | self.kings[1]
    }

    /// The pieces of one side.
    #[inline]
    pub fn side(&self, side: usize) -> u64 {
        self.men[side] | self.kings[side]
    }

    /// The placement's material.
    #[inline]
    pub fn material(&self) -> Material {
        Material::new(
            self.men[0].count_ones() as u8,
            self.kings[0].count_ones() as u8,
            self.men[1].count_ones() as u8,
            self.kings[1].count_ones() as u8,
        )
    }

    /// The placement as the other side sees it: the board turned by 180 degrees (dense square
    /// `s` becomes `squares - 1 - s`) and the two sides swapped.
    #[inline]
    pub fn flip(&self, squares: u32) -> Placement {
        let turn = |b: u64| b.reverse_bits() >> (64 - squares);
        Placement {
            men: [turn(self.men[1]), turn(self.men[0])],
            kings: [turn(self.kings[1]), turn(self.kings[0])],
        }
    }
}

/// Where men may stand on one side's view, as a dense-square set with rank and select tables.
#[derive(Clone, Debug)]
pub struct ManSquares {
    /// The squares.
    pub set: u64,
    /// `rank[s]`: how many squares of the set lie below `s`.
    rank: [u8; 64],
    /// `square[r]`: the `r`-th square of the set.
    square: [u8; 64],
    /// How many squares the set has.
    pub count: u32,
}

impl ManSquares {
    /// The tables of the set `set`.
    pub fn new(set: u64) -> ManSquares {
        let mut rank = [0u8; 64];
        let mut square = [0u8; 64];
        let mut r = 0u8;
        for (s, slot) in rank.iter_mut().enumerate() {
            *slot = r;
            if set & (1u64 << s) != 0 {
                square[r as usize] = s as u8;
                r += 1;
            }
        }
        ManSquares {
            set,
            rank,
            square,
            count: set.count_ones(),
        }
    }
}

/// The squares and man squares of a board, seen from the side to move.
#[derive(Clone, Debug)]
pub struct Board {
    /// Dense squares: `0..squares`.
    pub squares: u32,
    /// Where our men may stand (index 0) and where theirs may (index 1).
    pub men: [ManSquares; 2],
    /// A mirror of the dense squares that the rules do not see (it maps each side's man
    /// squares onto themselves and is its own inverse), when there is one: positions and their
    /// mirror images then share an index.
    pub mirror: Option<Mirror>,
}

/// A symmetry of a board's dense squares that the rules do not see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mirror {
    /// 8x8 squares numbered by ranks (a1 = 0, h8 = 63): the a-file swapped with the h-file,
    /// each rank's byte reversed.
    Files8,
}

impl Mirror {
    /// The image of the square set `b`.
    #[inline(always)]
    pub fn apply(self, b: u64) -> u64 {
        match self {
            Mirror::Files8 => b.swap_bytes().reverse_bits(),
        }
    }
}

impl Placement {
    /// The placement's mirror image under `mirror`.
    #[inline(always)]
    pub fn mirrored(&self, mirror: Mirror) -> Placement {
        let f = |b| mirror.apply(b);
        Placement {
            men: [f(self.men[0]), f(self.men[1])],
            kings: [f(self.kings[0]), f(self.kings[1])],
        }
    }
}

/// What the last index decoded shares with the next (see [`SliceIndex::unrank_cached`]): its
/// men, its kings of the side to move, and their kings.
#[derive(Clone, Copy, Debug, Default)]
pub struct MenCache {
    key: Option<(Material, u64)>,
    men: [u64; 2],
    /// The index without its last group (their kings), when the men do not collide.
    kings_key: Option<(Material, u64)>,
    kings0: u64,
    /// The last rank of their kings and its set of positions among the free squares.
    last: Option<(u64, u64)>,
}

/// The index of one material slice on one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceIndex {
    /// The material.
    pub material: Material,
    /// Arrangements of our men and of theirs.
    men_ways: [u64; 2],
    /// Arrangements of our kings and of theirs among the free squares.
    king_ways: [u64; 2],
    /// Squares free of men.
    free: u32,
    /// Indices in the slice (holes included).
    pub size: u64,
    /// `king_ways[1]`, `king_ways[0]` and `men_ways[1]` as fast divisors.
    div: [Divisor; 3],
    /// The lead group, ranked among its canonical sets, on a board with a mirror.
    lead: Option<Lead>,
    /// Whether ranking and unranking use BMI2's `pext` and `pdep` ([`fast_bmi2`]): the same
    /// indices, fewer instructions.
    bmi2: bool,
}

impl SliceIndex {
    /// The index of `material` on `board`.
    pub fn new(board: &Board, material: Material) -> SliceIndex {
        let mut men_ways = [0, 1].map(|s| binomial(board.men[s].count, material.men[s] as u32));
        let free = board.squares - material.total_men();
        let mut king_ways = [
            binomial(free, material.kings[0] as u32),
            binomial(free - material.kings[0] as u32, material.kings[1] as u32),
        ];
        let lead = board.mirror.and_then(|mirror| {
            let (group, k, squares) = if material.men[0] > 0 {
                (0, material.men[0], &board.men[0])
            } else if material.men[1] > 0 {
                (1, material.men[1], &board.men[1])
            } else if material.kings[0] > 0 {
                (2, material.kings[0], all_squares(board.squares))
            } else {
                return None;
            };
            let table = Lead::table(squares, k as u32, mirror);
            let ways = table.rank.len() as u64;
            match group {
                0 => men_ways[0] = ways,
                1 => men_ways[1] = ways,
                _ => king_ways[0] = ways,
            }
            Some(Lead {
                group,
                table,
                mirror,
            })
        });
        let size = men_ways[0] * men_ways[1] * king_ways[0] * king_ways[1];
        SliceIndex {
            material,
            men_ways,
            king_ways,
            free,
            size,
            div: [
                Divisor::new(king_ways[1], size),
                Divisor::new(king_ways[0], size),
                Divisor::new(men_ways[1], size),
            ],
            lead,
            bmi2: fast_bmi2(),
        }
    }

    /// The same index, ranking and unranking without BMI2 (to compare the two ways).
    pub fn without_bmi2(self) -> SliceIndex {
        SliceIndex {
            bmi2: false,
            ..self
        }
    }

    /// The index of `p` with the lead group's rank (if any) replaced by `lead_ordinal`.
    #[inline(always)]
    fn combine<const B: bool>(
        &self,
        board: &Board,
        p: &Placement,
        lead_ordinal: Option<(u8, u64)>,
    ) -> u64 {
        // The lead group's rank is its ordinal, given: it is not ranked again.
        let (lead, o) = match lead_ordinal {
            Some((g, o)) => (g.min(2), o),
            None => (3, 0),
        };
        // With BMI2 each group is packed onto its squares at once, then ranked as it stands.
        let men = |side: usize| {
            if B {
                colex_rank(pext::<B>(p.men[side], board.men[side].set), |s| s)
            } else {
                colex_rank(p.men[side], |s| board.men[side].rank[s as usize] as u32)
            }
        };
        // Kings rank among the squares the men leave free, the inverse of unranking's `pdep`.
        let kings = |set: u64, occ: u64| colex_rank(pext::<B>(set, !occ), |s| s);
        let r1 = if lead == 0 { o } else { men(0) };
        let r2 = if lead == 1 { o } else { men(1) };
        let occ = p.men[0] | p.men[1];
        let r3 = if lead == 2 { o } else { kings(p.kings[0], occ) };
        let r4 = kings(p.kings[1], occ | p.kings[0]);
        ((r1 * self.men_ways[1] + r2) * self.king_ways[0] + r3) * self.king_ways[1] + r4
    }

    /// The index of `p`, whose material must be this slice's and whose men must stand on their
    /// man squares. A placement and its mirror image (on a board with a mirror) share it.
    #[inline]
    pub fn rank(&self, board: &Board, p: &Placement) -> u64 {
        if self.bmi2 {
            self.rank_with::<true>(board, p)
        } else {
            self.rank_with::<false>(board, p)
        }
    }

    #[inline(always)]
    fn rank_with<const B: bool>(&self, board: &Board, p: &Placement) -> u64 {
        let Some(lead) = self.lead else {
            return self.combine::<B>(board, p, None);
        };
        let set = lead.set(p);
        let r = lead.rank_with::<B>(set);
        let image = lead.rank_with::<B>(lead.mirror.apply(set));
        // The canonical one of the two is ranked, with its lead's ordinal among canonical sets.
        let ordinal = |r: u64| Some((lead.group, lead.table.ordinal[r as usize] as u64));
        if r < image {
            self.combine::<B>(board, p, ordinal(r))
        } else if r > image {
            self.combine::<B>(board, &p.mirrored(lead.mirror), ordinal(image))
        } else {
            let a = self.combine::<B>(board, p, ordinal(r));
            let b = self.combine::<B>(board, &p.mirrored(lead.mirror), ordinal(r));
            a.min(b)
        }
    }

    /// The placement of index `i` (below [`SliceIndex::size`]), or `None` for a hole (two men
    /// on one square, or the larger index of a position whose lead is its own mirror image).
    #[inline]
    pub fn unrank(&self, board: &Board, i: u64) -> Option<Placement> {
        self.unrank_cached(board, i, &mut MenCache::default())
    }

    /// [`SliceIndex::unrank`], reusing the men of the last index decoded with `cache` when
    /// they are the same (consecutive indices differ in their kings first).
    #[inline]
    pub fn unrank_cached(&self, board: &Board, i: u64, cache: &mut MenCache) -> Option<Placement> {
        if self.bmi2 {
            self.unrank_with::<true>(board, i, cache)
        } else {
            self.unrank_with::<false>(board, i, cache)
        }
    }

    #[inline(always)]
    fn unrank_with<const B: bool>(
        &self,
        board: &Board,
        i: u64,
        cache: &mut MenCache,
    ) -> Option<Placement> {
        let m = &self.material;
        let whole = i;
        let (i1, r4) = self.div[0].div_rem(i);
        let (i, r3) = self.div[1].div_rem(i1);
        // The lead's canonical ordinal back to its colex rank among all sets.
        let full = |o: u64, group: u8| match self.lead {
            Some(l) if l.group == group => l.table.rank[o as usize],
            _ => o,
        };
        if cache.key != Some((self.material, i)) {
            let (r1, r2) = self.div[2].div_rem(i);
            let map_men = |r: u64, side: usize| {
                let set = colex_unrank(r, m.men[side] as u32, board.men[side].count);
                if B {
                    pdep::<B>(set, board.men[side].set)
                } else {
                    spread(set, &board.men[side])
                }
            };
            cache.men = [map_men(full(r1, 0), 0), map_men(full(r2, 1), 1)];
            cache.key = Some((self.material, i));
        }
        let [men0, men1] = cache.men;
        if men0 & men1 != 0 {
            return None;
        }
        let key = Some((self.material, i1));
        if cache.kings_key != key {
            let occ = men0 | men1;
            let set = colex_unrank(full(r3, 2), m.kings[0] as u32, self.free);
            cache.kings0 = pdep::<B>(set, !occ);
            cache.kings_key = key;
            cache.last = None;
        }
        let kings0 = cache.kings0;
        let k1 = m.kings[1] as u32;
        // Consecutive indices are consecutive sets of their kings: step instead of unranking.
        let set = match cache.last {
            Some((r, set)) if k1 > 0 && r + 1 == r4 => next_combination(set),
            _ => colex_unrank(r4, k1, self.free - m.kings[0] as u32),
        };
        cache.last = Some((r4, set));
        let kings1 = pdep::<B>(set, !(men0 | men1 | kings0));
        let p = Placement {
            men: [men0, men1],
            kings: [kings0, kings1],
        };
        if let Some(lead) = self.lead {
            let set = lead.set(&p);
            // A lead that is its own mirror image: the larger of the two indices is a hole.
            if lead.mirror.apply(set) == set && self.rank_with::<B>(board, &p) != whole {
                return None;
            }
        }
        Some(p)
    }
}

/// Every square of a board of `squares` squares, as rank and select tables (made once).
fn all_squares(squares: u32) -> &'static ManSquares {
    static ALL: OnceLock<Mutex<HashMap<u32, &'static ManSquares>>> = OnceLock::new();
    let all = ALL.get_or_init(Default::default);
    let mut all = match all.lock() {
        Ok(a) => a,
        Err(poisoned) => poisoned.into_inner(),
    };
    all.entry(squares).or_insert_with(|| {
        let set = if squares == 64 {
            u64::MAX
        } else {
            (1u64 << squares) - 1
        };
        Box::leak(Box::new(ManSquares::new(set)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ten() -> Board {
        let all = (1u64 << 50) - 1;
        Board {
            squares: 50,
            men: [
                ManSquares::new(all & !0b11111),
                ManSquares::new(all & !(0b11111 << 45)),
            ],
            mirror: None,
        }
    }

    /// Turkish's table board: men on ranks 2 to 7, the left-right mirror.
    fn orthogonal() -> Board {
        let men = !0xff00_0000_0000_00ffu64;
        Board {
            squares: 64,
            men: [ManSquares::new(men), ManSquares::new(men)],
            mirror: Some(Mirror::Files8),
        }
    }

    #[test]
    fn mirrored_index_is_shared_and_half_size() {
        let board = orthogonal();
        let plain = Board {
            mirror: None,
            ..orthogonal()
        };
        for m in [
            Material::new(1, 0, 0, 1),
            Material::new(0, 2, 0, 1),
            Material::new(0, 1, 2, 0),
            Material::new(2, 0, 1, 1),
            Material::new(0, 3, 0, 1),
        ] {
            let idx = SliceIndex::new(&board, m);
            let full = SliceIndex::new(&plain, m);
            // Half of the lead's sets, plus the self-mirrored ones.
            assert!(
                idx.size * 2 >= full.size && idx.size * 20 < full.size * 11,
                "{m}"
            );
            // Every index of the plain slice, through the mirrored one and back.
            let mut classes = std::collections::HashSet::new();
            for i in (0..full.size).step_by(3) {
                let Some(p) = full.unrank(&plain, i) else {
                    continue;
                };
                let image = p.mirrored(Mirror::Files8);
                let j = idx.rank(&board, &p);
                assert!(j < idx.size, "{m} {p:?}");
                assert_eq!(idx.rank(&board, &image), j, "{m}: image of {p:?}");
                let back = idx.unrank(&board, j).expect("a ranked index is no hole");
                assert!(back == p || back == image, "{m}: {p:?} -> {j} -> {back:?}");
                classes.insert(j);
            }
            // And every index that is no hole round-trips.
            let mut holes = 0u64;
            for j in 0..idx.size {
                match idx.unrank(&board, j) {
                    Some(p) => assert_eq!(idx.rank(&board, &p), j, "{m}: {p:?}"),
                    None => holes += 1,
                }
            }
            assert!(holes * 10 < idx.size, "{m}: {holes} holes of {}", idx.size);
            assert!(!classes.is_empty());
        }
    }

    #[test]
    fn binomials_are_right() {
        assert_eq!(binomial(50, 3), 19600);
        assert_eq!(binomial(45, 2), 990);
        assert_eq!(binomial(3, 5), 0);
        assert_eq!(binomial(64, 8), 4_426_165_368);
    }

    #[test]
    fn fast_division_is_exact() {
        for d in [1u64, 2, 3, 7, 45, 990, 1128, 19600, 230_300, 2_118_760] {
            let div = Divisor::new(d, 1 << 36);
            for n in [0u64, 1, d - 1, d, d + 1, 12_345_678_901, (1 << 36) - 1] {
                assert_eq!(div.div_rem(n), (n / d, n % d), "{n} / {d}");
            }
        }
    }

    #[test]
    fn colex_round_trips() {
        for k in 0..5 {
            for r in 0..binomial(12, k) {
                let set = colex_unrank(r, k, 12);
                assert_eq!(set.count_ones(), k);
                assert_eq!(colex_rank(set, |s| s), r);
            }
        }
    }

    #[test]
    fn bmi2_and_portable_ways_give_the_same_indices() {
        // The portable loops are the reference; where the processor has fast BMI2 (the
        // machines this runs on), `pext` and `pdep` must give the same indices and placements.
        assert_eq!(pdep::<false>(0b1_1011, 0xf0f0), 0x10b0);
        assert_eq!(pext::<false>(0x10b0, 0xf0f0), 0b1_1011);
        let eight = Board {
            squares: 32,
            men: [ManSquares::new(0xffff_fff0), ManSquares::new(0x0fff_ffff)],
            mirror: None,
        };
        let mut compared = 0u64;
        for (board, m) in [
            (&ten(), Material::new(1, 1, 1, 1)),
            (&ten(), Material::new(2, 0, 1, 2)),
            (&eight, Material::new(1, 2, 2, 1)),
            (&orthogonal(), Material::new(0, 3, 0, 2)),
            (&orthogonal(), Material::new(2, 1, 1, 1)),
            (&orthogonal(), Material::new(0, 1, 2, 1)),
        ] {
            let fast = SliceIndex::new(board, m);
            let plain = fast.without_bmi2();
            assert!(!plain.bmi2);
            assert_eq!(fast.bmi2, fast_bmi2());
            let (mut c1, mut c2) = (MenCache::default(), MenCache::default());
            for i in (0..fast.size).step_by((fast.size / 150_000).max(1) as usize) {
                let a = fast.unrank_cached(board, i, &mut c1);
                assert_eq!(a, plain.unrank_cached(board, i, &mut c2), "{m} index {i}");
                if let Some(p) = a {
                    assert_eq!(fast.rank(board, &p), i, "{m} {p:?}");
                    assert_eq!(plain.rank(board, &p), i, "{m} {p:?}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 500_000, "{compared}");
    }

    #[test]
    fn cached_unranking_agrees_in_runs_and_jumps() {
        let eight = Board {
            squares: 32,
            men: [ManSquares::new(0xffff_fff0), ManSquares::new(0x0fff_ffff)],
            mirror: None,
        };
        for (board, m) in [
            (&ten(), Material::new(1, 1, 0, 2)),
            (&ten(), Material::new(0, 2, 1, 0)),
            (&eight, Material::new(0, 1, 0, 3)),
            (&orthogonal(), Material::new(0, 2, 0, 2)),
            (&orthogonal(), Material::new(1, 0, 1, 2)),
        ] {
            let idx = SliceIndex::new(board, m);
            let mut cache = MenCache::default();
            // Every index in order (the first pass), then every 5th (the waves' jumps).
            for step in [1, 5] {
                for i in (0..idx.size.min(400_000)).step_by(step) {
                    let cached = idx.unrank_cached(board, i, &mut cache);
                    assert_eq!(cached, idx.unrank(board, i), "{m} index {i}");
                }
            }
        }
    }

    #[test]
    fn every_index_round_trips() {
        let board = ten();
        for m in [
            Material::new(1, 0, 1, 0),
            Material::new(0, 2, 0, 1),
            Material::new(1, 1, 0, 1),
            Material::new(2, 0, 1, 1),
        ] {
            let idx = SliceIndex::new(&board, m);
            let mut holes = 0;
            for i in (0..idx.size).step_by(7) {
                match idx.unrank(&board, i) {
                    None => holes += 1,
                    Some(p) => {
                        assert_eq!(p.material(), m);
                        assert_eq!(p.men[0] & 0b11111, 0, "our man on our promotion row");
                        assert_eq!(idx.rank(&board, &p), i, "{m} {p:?}");
                        assert_eq!(p.flip(50).flip(50), p);
                    }
                }
            }
            assert!(holes * 10 < idx.size / 7 + 1, "{m}: {holes} holes");
        }
        assert_eq!(
            Material::parse("m1k2-m0k1"),
            Some(Material::new(1, 2, 0, 1))
        );
        assert_eq!(Material::new(1, 2, 0, 1).name(), "m1k2-m0k1");
        assert_eq!(Material::parse("m1k2-m0k"), None);
    }
}
