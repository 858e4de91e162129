//! Checkpoints of a slice pair being solved, so that a build stopped in the middle of a large
//! pair (the process killed, the machine restarted) resumes it where the last checkpoint left
//! it instead of solving it again from the start.
//!
//! A checkpoint is taken at a wave boundary, where the solver's whole state is each position's
//! state byte, the two wave bit sets and the don't-care bit set of every slice of the pair, and
//! the wave number. It is written to `checkpoint/<slice>.ckpt` in the variant's directory
//! (named after the pair's first slice) through a temporary file, and removed once the pair's
//! tables are written.
//!
//! Layout, little-endian: the magic `PDTB-CKP`, the format version (u64), a digest of the
//! tables the pair was solved against (u64, [`digest`]), the wave number (u64), the seconds
//! spent solving the pair up to the checkpoint, over every run (f64 bits), the number of
//! slices (u64), then per slice its material id and positions (u64 each); then per slice its
//! state bytes, its two wave bit sets and its don't-care bit set (u64 words); and a checksum
//! of everything before it (u64, [`polydam_engine::egtb::codec::checksum`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use polydam_engine::egtb::codec::Checksum;
use polydam_engine::egtb::index::Material;
use polydam_engine::egtb::sidefile;
use polydam_engine::egtb::EgtbError;

const MAGIC: &[u8; 8] = b"PDTB-CKP";
// 2: the seconds solved so far; the checksum runs on across pieces (format 1 restarted its
// word at each state piece).
const VERSION: u64 = 2;
/// Bytes converted per read or write.
const PIECE: usize = 1 << 23;

/// One slice's solver state, as [`write()`] saves it and [`read()`] restores it.
pub struct SliceState<'a> {
    /// The slice.
    pub material: Material,
    /// One state byte per position.
    pub state: &'a [AtomicU8],
    /// The current and the next wave's bit sets.
    pub waves: [&'a [AtomicU64]; 2],
    /// The don't-care bit set.
    pub dont_care: &'a [AtomicU64],
}

/// Where a checkpoint lets a pair resume.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resume {
    /// The wave it was taken at.
    pub wave: u32,
    /// Seconds spent solving the pair up to it, over every run.
    pub seconds: f64,
}

/// The checkpoint file of the pair whose first slice is `m`, in the variant directory `vdir`.
pub fn path(vdir: &Path, m: Material) -> PathBuf {
    vdir.join("checkpoint").join(format!("{}.ckpt", m.name()))
}

/// A digest of the tables a pair is solved against: their materials and the stored checksums
/// of their `.wdl` files.
pub fn digest(tables: &[(Material, u64)]) -> u64 {
    let mut sum = Checksum::default();
    for &(m, checksum) in tables {
        sum.update(&(m.id() as u64).to_le_bytes());
        sum.update(&checksum.to_le_bytes());
    }
    sum.finish()
}

/// The bytes of a checkpoint of `slices`.
pub fn file_bytes(slices: &[SliceState<'_>]) -> u64 {
    let head = 48 + 16 * slices.len() as u64;
    let body: u64 = slices
        .iter()
        .map(|s| s.state.len() as u64 + 8 * (2 * s.waves[0].len() + s.dont_care.len()) as u64)
        .sum();
    head + body + 8
}

/// The header: everything before the slices' states.
fn header(digest: u64, at: Resume, slices: &[SliceState<'_>]) -> Vec<u8> {
    let mut head = Vec::new();
    head.extend_from_slice(MAGIC);
    let fields = [
        VERSION,
        digest,
        at.wave as u64,
        at.seconds.to_bits(),
        slices.len() as u64,
    ];
    for x in fields {
        head.extend_from_slice(&x.to_le_bytes());
    }
    for s in slices {
        head.extend_from_slice(&(s.material.id() as u64).to_le_bytes());
        head.extend_from_slice(&(s.state.len() as u64).to_le_bytes());
    }
    head
}

/// Writes the checkpoint of `slices` at `at` to `path` through a temporary file renamed at
/// the end (removed if the writing fails, so that a full disk keeps no half-written file);
/// returns its bytes.
pub fn write(
    path: &Path,
    digest: u64,
    at: Resume,
    slices: &[SliceState<'_>],
) -> Result<u64, EgtbError> {
    sidefile::write_checked(path, |w| {
        w.put(&header(digest, at, slices))?;
        let mut bytes = Vec::with_capacity(PIECE);
        for s in slices {
            for piece in s.state.chunks(PIECE) {
                bytes.clear();
                bytes.extend(piece.iter().map(|x| x.load(Ordering::Relaxed)));
                w.put(&bytes)?;
            }
            for set in [s.waves[0], s.waves[1], s.dont_care] {
                for piece in set.chunks(PIECE / 8) {
                    bytes.clear();
                    bytes.extend(
                        piece
                            .iter()
                            .flat_map(|w| w.load(Ordering::Relaxed).to_le_bytes()),
                    );
                    w.put(&bytes)?;
                }
            }
        }
        Ok(())
    })?;
    Ok(file_bytes(slices))
}

/// Restores `slices` from the checkpoint at `path` and returns where it resumes: `Ok(None)`
/// when there is none, an error saying why when the file is there but cannot serve (damaged,
/// or taken of other slices or against other tables). After an error the slices' state is
/// partly overwritten and must be computed again.
pub fn read(
    path: &Path,
    digest: u64,
    slices: &[SliceState<'_>],
) -> Result<Option<Resume>, EgtbError> {
    let Some(mut file) =
        sidefile::open_sized(path, file_bytes(slices), "a checkpoint of these slices")?
    else {
        return Ok(None);
    };
    let zero = Resume {
        wave: 0,
        seconds: 0.0,
    };
    let head = header(digest, zero, slices);
    let mut got = vec![0u8; head.len()];
    file.take(&mut got)?;
    let field = |k: usize| sidefile::word(&got, k);
    if &got[..8] != MAGIC {
        return Err(EgtbError::damaged(path, "not a checkpoint"));
    }
    if field(8) != VERSION {
        return Err(EgtbError::damaged(
            path,
            format!("checkpoint format {}, this build reads {VERSION}", field(8)),
        ));
    }
    if field(16) != digest {
        return Err(EgtbError::damaged(
            path,
            "taken against other tables than the ones there now",
        ));
    }
    // The header as this pair would write it: the slices must be the same.
    if got[40..] != head[40..] {
        return Err(EgtbError::damaged(path, "a checkpoint of other slices"));
    }
    let wave = field(24);
    let wave = u32::try_from(wave)
        .map_err(|_| EgtbError::damaged(path, format!("wave {wave} out of range")))?;
    let seconds = f64::from_bits(field(32));
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(EgtbError::damaged(
            path,
            format!("{seconds} seconds of solving"),
        ));
    }
    let mut bytes = vec![0u8; PIECE];
    for s in slices {
        for piece in s.state.chunks(PIECE) {
            let b = &mut bytes[..piece.len()];
            file.take(b)?;
            for (x, &v) in piece.iter().zip(b.iter()) {
                x.store(v, Ordering::Relaxed);
            }
        }
        for set in [s.waves[0], s.waves[1], s.dont_care] {
            for piece in set.chunks(PIECE / 8) {
                let b = &mut bytes[..piece.len() * 8];
                file.take(b)?;
                for (k, x) in piece.iter().enumerate() {
                    x.store(sidefile::word(b, 8 * k), Ordering::Relaxed);
                }
            }
        }
    }
    file.finish()?;
    Ok(Some(Resume { wave, seconds }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slice's state bytes and its three bit sets.
    type Owned = (Vec<AtomicU8>, [Vec<AtomicU64>; 3]);

    fn state(n: usize, seed: u64) -> Owned {
        let words = n.div_ceil(64);
        let bits = |k: u64| {
            (0..words as u64)
                .map(|w| AtomicU64::new((w + k + seed).wrapping_mul(0x9E37_79B9_7F4A_7C15)))
                .collect::<Vec<_>>()
        };
        (
            (0..n)
                .map(|i| AtomicU8::new((i as u64 * 7 + seed) as u8))
                .collect(),
            [bits(1), bits(2), bits(3)],
        )
    }

    fn slices<'a>(parts: &'a [(Material, &'a Owned)]) -> Vec<SliceState<'a>> {
        parts
            .iter()
            .map(|(m, (st, b))| SliceState {
                material: *m,
                state: st,
                waves: [&b[0], &b[1]],
                dont_care: &b[2],
            })
            .collect()
    }

    fn same(a: &[SliceState<'_>], b: &[SliceState<'_>]) -> bool {
        let bytes = |s: &[AtomicU8]| {
            s.iter()
                .map(|x| x.load(Ordering::Relaxed))
                .collect::<Vec<_>>()
        };
        let words = |s: &[AtomicU64]| {
            s.iter()
                .map(|x| x.load(Ordering::Relaxed))
                .collect::<Vec<_>>()
        };
        a.iter().zip(b).all(|(x, y)| {
            bytes(x.state) == bytes(y.state)
                && words(x.waves[0]) == words(y.waves[0])
                && words(x.waves[1]) == words(y.waves[1])
                && words(x.dont_care) == words(y.dont_care)
        })
    }

    #[test]
    fn round_trip_and_every_kind_of_damage_refused() {
        let dir = std::env::temp_dir().join(format!("polydam-ckpt-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (m1, m2) = (Material::new(1, 1, 0, 2), Material::new(0, 2, 1, 1));
        let (a1, a2) = (state(1000, 1), state(777, 2));
        let src = [(m1, &a1), (m2, &a2)];
        let src = slices(&src);
        let p = path(&dir, m1);
        assert_eq!(read(&p, 5, &src).ok(), Some(None), "no file yet");
        let at = Resume {
            wave: 17,
            seconds: 123.5,
        };
        let bytes = write(&p, 5, at, &src).expect("written");
        assert_eq!(std::fs::metadata(&p).map(|m| m.len()).ok(), Some(bytes));
        assert!(!p.with_extension("tmp").exists());

        let (b1, b2) = (state(1000, 9), state(777, 9));
        let dst = [(m1, &b1), (m2, &b2)];
        let dst = slices(&dst);
        assert!(!same(&src, &dst));
        assert_eq!(read(&p, 5, &dst).ok(), Some(Some(at)));
        assert!(same(&src, &dst));

        let refused =
            |digest: u64, slices: &[SliceState<'_>], why: &str| match read(&p, digest, slices) {
                Err(e) => assert!(e.to_string().contains(why), "{e} (wanted: {why})"),
                Ok(x) => panic!("read {x:?}, wanted an error about {why}"),
            };
        refused(6, &dst, "other tables");
        let (c1, c2) = (state(1000, 0), state(777, 0));
        let other = [(m2, &c1), (m1, &c2)];
        refused(5, &slices(&other), "other slices");
        let small = state(999, 0);
        let short = [(m1, &small), (m2, &c2)];
        refused(5, &slices(&short), "bytes where");

        let original = std::fs::read(&p).expect("readable");
        let damages = [
            (0, 0x40, "not a checkpoint"),
            (8, 0x40, "format"),
            (39, 0x80, "-123.5 seconds of solving"),
            (500, 0x40, "checksum"),
        ];
        for (at, flip, why) in damages {
            let mut damaged = original.clone();
            damaged[at] ^= flip;
            std::fs::write(&p, &damaged).expect("writable");
            refused(5, &dst, why);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
