//! The resolved values of large slices, cached on disk for builds and verifications that
//! resume.
//!
//! A `.wdl` file stores don't-care codes for positions with a capture, so reading a slice back
//! for looking children up decides every capture again from the smaller slices: for the
//! six-piece 10x10 and Turkish sets that takes tens of minutes at every resume. The first time
//! a large slice is solved or read back, its two-bit values (the same words that
//! [`super::held::Full`] holds) are written to `cache/<slice>.full` in the variant's
//! directory; later runs read them instead, when they belong to the same `.wdl` file.
//!
//! Layout, little-endian: the magic `PDTB-FUL`, the number of positions (u64), the checksum of
//! the `.wdl` file the values belong to (u64), the words (u64 each, 32 positions a word), and
//! a checksum of everything before it (u64, [`polydam_engine::egtb::codec::checksum`]). The files are only a
//! shortcut: deleting the `cache` directory loses nothing but time.

use std::io::Read;
use std::path::{Path, PathBuf};

use polydam_engine::egtb::index::Material;
use polydam_engine::egtb::sidefile;
use polydam_engine::egtb::EgtbError;

/// Slices of at least this many positions get a cache file; smaller ones are read back from
/// their `.wdl` files quickly enough.
pub const CACHE_FROM: u64 = 1 << 24;

const MAGIC: &[u8; 8] = b"PDTB-FUL";
const HEAD: usize = 24;
/// Words converted per read or write.
const PIECE: usize = 1 << 20;

/// The cache file of slice `m` in the variant directory `vdir`.
pub fn cache_path(vdir: &Path, m: Material) -> PathBuf {
    vdir.join("cache").join(format!("{}.full", m.name()))
}

/// The checksum stored at the end of the table file `path` (the file's own checksum, checked
/// when the file is read whole).
pub fn stored_checksum(path: &Path) -> Result<u64, EgtbError> {
    use std::io::{Seek, SeekFrom};
    let mut w = [0u8; 8];
    polydam_engine::files::open_regular(path)
        .and_then(|mut f| {
            f.seek(SeekFrom::End(-8))?;
            f.read_exact(&mut w)
        })
        .map_err(|e| EgtbError::io(path, e))?;
    Ok(u64::from_le_bytes(w))
}

/// Writes `words` (the values of `positions` positions) as the cache of the `.wdl` file whose
/// checksum is `wdl_sum`, through a temporary file renamed at the end (and removed if the
/// writing fails, so that a full disk keeps no half-written file).
pub fn write(path: &Path, positions: u64, wdl_sum: u64, words: &[u64]) -> Result<(), EgtbError> {
    sidefile::write_checked(path, |w| {
        let mut head = Vec::with_capacity(HEAD);
        head.extend_from_slice(MAGIC);
        head.extend_from_slice(&positions.to_le_bytes());
        head.extend_from_slice(&wdl_sum.to_le_bytes());
        w.put(&head)?;
        let mut bytes = Vec::with_capacity(PIECE * 8);
        for piece in words.chunks(PIECE) {
            bytes.clear();
            bytes.extend(piece.iter().flat_map(|w| w.to_le_bytes()));
            w.put(&bytes)?;
        }
        Ok(())
    })
}

/// Reads the cache at `path` for a slice of `positions` positions whose `.wdl` file has the
/// checksum `wdl_sum`: `Ok(None)` when there is none, an error saying why when the file is
/// there but cannot serve (damaged, or left by another `.wdl` file).
pub fn read(path: &Path, positions: u64, wdl_sum: u64) -> Result<Option<Vec<u64>>, EgtbError> {
    let n = positions.div_ceil(32) as usize;
    let expected = (HEAD + 8 * n + 8) as u64;
    let what = format!("a cache of {positions} positions");
    let Some(mut file) = sidefile::open_sized(path, expected, &what)? else {
        return Ok(None);
    };
    let mut head = [0u8; HEAD];
    file.take(&mut head)?;
    let field = |k: usize| sidefile::word(&head, k);
    if &head[..8] != MAGIC {
        return Err(EgtbError::damaged(path, "not a cache of resolved values"));
    }
    if field(8) != positions {
        return Err(EgtbError::damaged(
            path,
            format!("made for {} positions, the slice has {positions}", field(8)),
        ));
    }
    if field(16) != wdl_sum {
        return Err(EgtbError::damaged(
            path,
            "made from another .wdl file than the one there now",
        ));
    }
    let mut words = Vec::with_capacity(n);
    let mut bytes = vec![0u8; PIECE * 8];
    while words.len() < n {
        let k = (n - words.len()).min(PIECE);
        let piece = &mut bytes[..k * 8];
        file.take(piece)?;
        words.extend((0..k).map(|i| sidefile::word(piece, 8 * i)));
    }
    file.finish()?;
    Ok(Some(words))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("polydam-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn round_trip_and_every_kind_of_damage_is_refused() {
        let dir = temp("trip");
        let m = Material::new(1, 2, 0, 1);
        let path = cache_path(&dir, m);
        assert_eq!(read(&path, 100, 7).ok(), Some(None), "no file: no cache");
        let words: Vec<u64> = (0..4u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        write(&path, 100, 7, &words).expect("write");
        assert_eq!(read(&path, 100, 7).ok(), Some(Some(words.clone())));
        // Another .wdl file, another size.
        assert!(matches!(
            read(&path, 100, 8),
            Err(EgtbError::Damaged { .. })
        ));
        assert!(matches!(
            read(&path, 200, 7),
            Err(EgtbError::Damaged { .. })
        ));
        // A flipped bit in the values.
        let mut bytes = std::fs::read(&path).expect("read");
        bytes[HEAD + 3] ^= 0x10;
        std::fs::write(&path, &bytes).expect("write");
        let e = read(&path, 100, 7).expect_err("damaged");
        assert!(e.to_string().contains("checksum"), "{e}");
        // Truncated.
        std::fs::write(&path, &bytes[..bytes.len() - 1]).expect("write");
        assert!(matches!(
            read(&path, 100, 7),
            Err(EgtbError::Damaged { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_write_that_fails_reports_it_and_leaves_no_cache() {
        let dir = temp("fail");
        let path = cache_path(&dir, Material::new(0, 2, 0, 1));
        // The temporary name taken by a directory: creating the file fails.
        std::fs::create_dir_all(path.with_extension("tmp").join("x")).expect("dir");
        assert!(write(&path, 64, 1, &[0, 0]).is_err());
        assert!(!path.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn values_longer_than_one_piece_round_trip() {
        let dir = temp("long");
        let path = cache_path(&dir, Material::new(0, 3, 0, 1));
        let n = PIECE + 5;
        let words: Vec<u64> = (0..n as u64).map(|i| i ^ (i << 17)).collect();
        let positions = n as u64 * 32 - 3;
        write(&path, positions, 1, &words).expect("write");
        assert_eq!(read(&path, positions, 1).ok(), Some(Some(words)));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
