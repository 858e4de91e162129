//! Geometry of the full 8x8 board of the orthogonal (Turkish / Gothic) family, and its Zobrist
//! keys.
//!
//! All 64 squares are used. Bit `8 * (rank - 1) + file` holds a square, with file 0 = `a` and
//! rank 1 at the bottom (White's side): a1 is bit 0, h1 bit 7, a8 bit 56, h8 bit 63.
//!
//! Eight directions are numbered clockwise from north: 0 = N, 1 = NE, 2 = E, 3 = SE, 4 = S,
//! 5 = SW, 6 = W, 7 = NW, so that the opposite of `d` is `(d + 4) % 8` and the board turned by
//! 180 degrees maps direction `d` to `(d + 4) % 8`. A one-square step is a rotation of the
//! bitboard followed by an edge mask that clears the squares the rotation wrapped around to, so
//! [`step`] is branch-free even for a direction known only at run time.
//!
//! ```
//! use polydam_tables::orthogonal::{square, step, E, N, RAYS};
//! let c3 = 1u64 << square(2, 2);
//! assert_eq!(step(c3, N), 1u64 << square(2, 3)); // c4
//! assert_eq!(step(1u64 << square(7, 0), E), 0); // h1 has no eastern neighbour
//! assert_eq!(RAYS[N][square(0, 0) as usize].count_ones(), 7); // a2..a8
//! ```

use crate::zobrist::{keys, piece_square_keys};

/// North: towards rank 8.
pub const N: usize = 0;
/// North-east.
pub const NE: usize = 1;
/// East: towards the h-file.
pub const E: usize = 2;
/// South-east.
pub const SE: usize = 3;
/// South: towards rank 1.
pub const S: usize = 4;
/// South-west.
pub const SW: usize = 5;
/// West: towards the a-file.
pub const W: usize = 6;
/// North-west.
pub const NW: usize = 7;

/// The a-file.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file.
pub const FILE_H: u64 = FILE_A << 7;
/// Rank 1 (White's back rank).
pub const RANK_1: u64 = 0xFF;
/// Rank 8 (Black's back rank).
pub const RANK_8: u64 = RANK_1 << 56;

/// Bit index of the square on `file` (0 = a) and `rank` (0 = rank 1).
pub const fn square(file: u32, rank: u32) -> u32 {
    rank * 8 + file
}

/// Mask of rank `rank` (0 = rank 1).
pub const fn rank_mask(rank: u32) -> u64 {
    RANK_1 << (8 * rank)
}

/// Mask of file `file` (0 = a).
pub const fn file_mask(file: u32) -> u64 {
    FILE_A << file
}

/// Left-rotation amount of a one-square step in each direction.
pub const ROTATION: [u32; 8] = [8, 9, 1, 57, 56, 55, 63, 7];

/// Squares a step in each direction may land on (the others were reached by wrapping round an
/// edge).
pub const STEP_MASK: [u64; 8] = [
    !RANK_1,
    !(RANK_1 | FILE_A),
    !FILE_A,
    !(RANK_8 | FILE_A),
    !RANK_8,
    !(RANK_8 | FILE_H),
    !FILE_H,
    !(RANK_1 | FILE_H),
];

/// Whether direction `d` increases bit indices (N, NE, E, NW): along such a ray the nearest
/// square is the lowest set bit, along the others the highest.
pub const fn ascending(d: usize) -> bool {
    matches!(d, N | NE | E | NW)
}

/// The direction opposite to `d`.
pub const fn opposite(d: usize) -> usize {
    (d + 4) & 7
}

/// Every bit of `b` moved one square in direction `d`; bits leaving the board vanish.
#[inline(always)]
pub const fn step(b: u64, d: usize) -> u64 {
    b.rotate_left(ROTATION[d]) & STEP_MASK[d]
}

/// `RAYS[d][s]`: the squares seen from square `s` in direction `d`, nearest first, up to the
/// edge (`s` itself excluded).
pub static RAYS: [[u64; 64]; 8] = {
    let mut out = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 64 {
            let mut ray = 0u64;
            let mut b = step(1u64 << s, d);
            while b != 0 {
                ray |= b;
                b = step(b, d);
            }
            out[d][s] = ray;
            s += 1;
        }
        d += 1;
    }
    out
};

/// The square nearest to the origin among `blockers`, all on one ray in direction `d`
/// (`blockers` must not be empty).
#[inline(always)]
pub const fn nearest(blockers: u64, d: usize) -> u32 {
    if ascending(d) {
        blockers.trailing_zeros()
    } else {
        63 - blockers.leading_zeros()
    }
}

/// Zobrist keys of the orthogonal family: four piece kinds (white man, black man, white king,
/// black king) times 64 squares. The seed differs from every other family's.
pub static PIECES: [[u64; 64]; 4] = piece_square_keys(0x0A7B_060C_7A11_0004);

/// Zobrist key XORed in when Black is to move (orthogonal family).
pub const SIDE_TO_MOVE: u64 = keys::<1>(0x0A7B_060C_51DE_0004)[0];

#[cfg(test)]
mod tests {
    use super::*;

    /// (file, rank) offsets of the eight directions.
    const OFFSETS: [(i32, i32); 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];

    #[test]
    fn steps_match_coordinates() {
        for (d, (df, dr)) in OFFSETS.iter().enumerate() {
            for s in 0..64u32 {
                let (f, r) = ((s % 8) as i32, (s / 8) as i32);
                let (nf, nr) = (f + df, r + dr);
                let want = if (0..8).contains(&nf) && (0..8).contains(&nr) {
                    1u64 << square(nf as u32, nr as u32)
                } else {
                    0
                };
                assert_eq!(step(1u64 << s, d), want, "dir {d} square {s}");
                assert_eq!(step(want, opposite(d)) & (1u64 << s), want.min(1) << s);
            }
        }
    }

    #[test]
    fn rays_and_nearest() {
        for (d, rays) in RAYS.iter().enumerate() {
            for (s, &ray) in rays.iter().enumerate() {
                if ray != 0 {
                    assert_eq!(1u64 << nearest(ray, d), step(1u64 << s, d));
                }
            }
        }
        assert_eq!(RAYS[NE][0].count_ones(), 7);
        assert_eq!(RAYS[W][7], RANK_1 & !(1 << 7));
    }

    #[test]
    fn keys_are_distinct_from_each_other_and_the_diagonal_ones() {
        let mut all: Vec<u64> = PIECES.iter().flatten().copied().collect();
        all.push(SIDE_TO_MOVE);
        all.extend(crate::zobrist::DIAGONAL_PIECES.iter().flatten());
        all.push(crate::zobrist::SIDE_TO_MOVE);
        assert!(all.iter().all(|&k| k != 0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
