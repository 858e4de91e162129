//! Zobrist keys from a fixed seed, generated at compile time with SplitMix64.
//!
//! The same keys on every machine and every run make hashes (and so searches with a fresh
//! transposition table) reproducible.

/// One SplitMix64 step: returns the next state and its output.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// `N` keys from `seed`.
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, value) = splitmix64(state);
        state = next;
        out[i] = value;
        i += 1;
    }
    out
}

/// Keys for four piece kinds (white man, black man, white king, black king) times 64 bit
/// positions, from `seed`: the layout of the diagonal and orthogonal families' keys.
pub const fn piece_square_keys(seed: u64) -> [[u64; 64]; 4] {
    let flat: [u64; 256] = keys(seed);
    let mut out = [[0u64; 64]; 4];
    let mut k = 0;
    while k < 4 {
        let mut b = 0;
        while b < 64 {
            out[k][b] = flat[k * 64 + b];
            b += 1;
        }
        k += 1;
    }
    out
}

/// Keys for the diagonal family: four piece kinds (white man, black man, white king, black
/// king) times 64 bit positions.
pub static DIAGONAL_PIECES: [[u64; 64]; 4] = piece_square_keys(0x5EED_0D1A_6041_0001);

/// Keys for the diagonal family on every board: [`DIAGONAL_PIECES`] for bits 0-63 (so the
/// 8x8 and 10x10 keys stay as they were), fresh keys for bits 64-127 (12x12).
pub static DIAGONAL_PIECES_WIDE: [[u64; 128]; 4] =
    widen(&DIAGONAL_PIECES, &piece_square_keys(0x5EED_0D1A_6041_0128));

const fn widen(low: &[[u64; 64]; 4], high: &[[u64; 64]; 4]) -> [[u64; 128]; 4] {
    let mut out = [[0u64; 128]; 4];
    let mut k = 0;
    while k < 4 {
        let mut b = 0;
        while b < 64 {
            out[k][b] = low[k][b];
            out[k][b + 64] = high[k][b];
            b += 1;
        }
        k += 1;
    }
    out
}

/// Keys of Frisian draughts' king-move counters: `[side][count - 1][bit]`, XORed in while a
/// side's king on `bit` has made `count` (1 to 3) successive quiet moves.
pub static KING_MOVES: [[[u64; 64]; 3]; 2] = king_move_keys(0x5EED_0F12_1A40_0001);

const fn king_move_keys(seed: u64) -> [[[u64; 64]; 3]; 2] {
    let flat: [u64; 384] = keys(seed);
    let mut out = [[[0u64; 64]; 3]; 2];
    let mut i = 0;
    while i < 384 {
        out[i / 192][(i / 64) % 3][i % 64] = flat[i];
        i += 1;
    }
    out
}

/// Key XORed in when Black is to move.
pub const SIDE_TO_MOVE: u64 = keys::<1>(0x5EED_0000_51DE_0001)[0];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = DIAGONAL_PIECES.iter().flatten().copied().collect();
        all.push(SIDE_TO_MOVE);
        assert!(all.iter().all(|&k| k != 0));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 257);
        let mut wide: Vec<u64> = DIAGONAL_PIECES_WIDE.iter().flatten().copied().collect();
        wide.extend(KING_MOVES.iter().flatten().flatten());
        wide.push(SIDE_TO_MOVE);
        assert!(wide.iter().all(|&k| k != 0));
        wide.sort_unstable();
        wide.dedup();
        assert_eq!(wide.len(), 512 + 384 + 1);
        assert_eq!(DIAGONAL_PIECES_WIDE[3][63], DIAGONAL_PIECES[3][63]);
    }
}
