//! Checked files: the tables ([`super::codec::write_file`]) and the files kept beside them to
//! save time (the table builder's resolved values and solver states, in the program's forge) are
//! written through a temporary file with a trailing checksum; the side files are read back
//! through the same checksum and refused when their length is not the one expected (the
//! `.dtc` files a probe keeps open are checked through it too).

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use super::codec::Checksum;
use super::EgtbError;

/// A file being written, each byte added to its checksum.
pub struct SumWriter<'a> {
    file: BufWriter<File>,
    sum: Checksum,
    path: &'a Path,
}

impl SumWriter<'_> {
    /// Writes `bytes`.
    pub fn put(&mut self, bytes: &[u8]) -> Result<(), EgtbError> {
        self.sum.update(bytes);
        self.file
            .write_all(bytes)
            .map_err(|e| EgtbError::io(self.path, e))
    }
}

/// Writes `path` through `<path>.tmp`: `body` puts the bytes, then their checksum is appended,
/// the file synced and renamed. If anything fails the temporary file is removed, so that a
/// full disk keeps no half-written file.
pub fn write_checked(
    path: &Path,
    body: impl FnOnce(&mut SumWriter<'_>) -> Result<(), EgtbError>,
) -> Result<(), EgtbError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| EgtbError::io(parent, e))?;
    }
    let tmp = path.with_extension("tmp");
    let whole = || -> Result<(), EgtbError> {
        let io = |e| EgtbError::io(&tmp, e);
        let mut w = SumWriter {
            file: BufWriter::new(File::create(&tmp).map_err(io)?),
            sum: Checksum::default(),
            path: &tmp,
        };
        body(&mut w)?;
        let SumWriter { mut file, sum, .. } = w;
        file.write_all(&sum.finish().to_le_bytes()).map_err(io)?;
        file.flush().map_err(io)?;
        file.into_inner()
            .map_err(|e| io(e.into_error()))?
            .sync_all()
            .map_err(io)
    };
    if let Err(e) = whole() {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    std::fs::rename(&tmp, path).map_err(|e| EgtbError::io(path, e))
}

/// A file being read, each byte added to its checksum.
pub struct SumReader<'a> {
    file: BufReader<File>,
    sum: Checksum,
    path: &'a Path,
}

impl<'a> SumReader<'a> {
    /// Reads `file` (opened from `path`, which errors name) from where it stands.
    pub fn new(file: File, path: &'a Path) -> SumReader<'a> {
        SumReader {
            file: BufReader::new(file),
            sum: Checksum::default(),
            path,
        }
    }

    /// Fills `bytes` from the file.
    pub fn take(&mut self, bytes: &mut [u8]) -> Result<(), EgtbError> {
        self.file
            .read_exact(bytes)
            .map_err(|e| EgtbError::io(self.path, e))?;
        self.sum.update(bytes);
        Ok(())
    }

    /// Adds the next `n` bytes to the checksum without keeping them.
    pub fn pass(&mut self, mut n: u64) -> Result<(), EgtbError> {
        let mut buf = vec![0u8; (n as usize).min(1 << 20)];
        while n > 0 {
            let k = (n as usize).min(buf.len());
            self.take(&mut buf[..k])?;
            n -= k as u64;
        }
        Ok(())
    }

    /// Reads the trailing checksum and compares it with the bytes taken.
    pub fn finish(self) -> Result<(), EgtbError> {
        self.into_file().map(drop)
    }

    /// [`SumReader::finish`], handing the file back (for reads at offsets of its own).
    pub fn into_file(mut self) -> Result<File, EgtbError> {
        let mut stored = [0u8; 8];
        self.file
            .read_exact(&mut stored)
            .map_err(|e| EgtbError::io(self.path, e))?;
        if self.sum.finish() != u64::from_le_bytes(stored) {
            return Err(EgtbError::damaged(self.path, "checksum mismatch"));
        }
        Ok(self.file.into_inner())
    }
}

/// The little-endian word at byte `k` of `bytes`.
pub fn word(bytes: &[u8], k: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[k..k + 8]);
    u64::from_le_bytes(w)
}

/// Opens `path` for reading when it is there (`Ok(None)` when it is not) and `expected` bytes
/// long; otherwise a "damaged" error saying that `what` takes `expected` bytes.
pub fn open_sized<'a>(
    path: &'a Path,
    expected: u64,
    what: &str,
) -> Result<Option<SumReader<'a>>, EgtbError> {
    let file = match crate::files::open_regular(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(EgtbError::io(path, e)),
    };
    let len = file.metadata().map_err(|e| EgtbError::io(path, e))?.len();
    if len != expected {
        return Err(EgtbError::damaged(
            path,
            format!("{len} bytes where {what} takes {expected}"),
        ));
    }
    Ok(Some(SumReader::new(file, path)))
}
