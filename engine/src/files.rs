//! Opening the files a user names as input (tables, books, weights, data), defensively.
//!
//! A path may name something that is not a file at all: a named pipe (FIFO), whose opening
//! blocks until a writer comes and may never return; a device such as `/dev/zero`, which never
//! ends; a directory. [`open_regular`] refuses anything that is not a regular file (after
//! following symbolic links) before opening it, with an error that says what the path is, and
//! [`read_limited`] and [`read_text`] read a regular file whole only up to a limit, so that a
//! file that is far too large (or grows while it is read) fails with a message instead of
//! exhausting the memory. [`read_line_limited`] bounds one line of a file read line by line.
//!
//! The errors are [`std::io::Error`]s without the path: callers name the file in their own
//! message (`cannot read PATH: a named pipe (FIFO), not a regular file`).
//!
//! ```
//! use polydam_engine::files::open_regular;
//! let dir = std::env::temp_dir();
//! let err = open_regular(&dir).expect_err("a directory is not a regular file");
//! assert!(err.to_string().contains("a directory"));
//! ```

use std::fs::{File, Metadata};
use std::io::{self, BufRead, Read};
use std::path::Path;

/// The largest text file read whole into memory by default (a book, a weights file, a list
/// of openings): far more than any real one, far less than an endless stream fills.
pub const TEXT_LIMIT: u64 = 1 << 30;

/// The longest line accepted by a reader of line-oriented data (training data, books).
pub const LINE_LIMIT: usize = 1 << 20;

/// What a file that is not a regular file is, for messages: `a named pipe (FIFO)`, `a
/// character device`, `a directory`, ...
pub fn kind_of(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

/// The error for a path that is `what` (see [`kind_of`]) instead of a regular file.
fn not_regular(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{what}, not a regular file"),
    )
}

/// Opens `path` for reading if it is a regular file (symbolic links followed); refuses a
/// named pipe, a device, a directory or a socket without opening it, so that the call never
/// blocks on a pipe nobody writes to. A missing file gives [`io::ErrorKind::NotFound`] as
/// [`File::open`] does.
///
/// The type is checked again on the opened file, so that a path swapped between the check
/// and the opening is still refused (a pipe swapped in at that very moment could still block
/// the opening: closing that window needs `O_NONBLOCK`, which the standard library does not
/// name portably).
pub fn open_regular(path: &Path) -> io::Result<File> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(not_regular(kind_of(&meta)));
    }
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular(kind_of(&meta)));
    }
    Ok(file)
}

/// Sizes in messages: bytes below a KiB, else KiB, MiB or GiB.
pub fn size_text(bytes: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in UNITS {
        if bytes >= size {
            return if bytes.is_multiple_of(size) {
                format!("{} {unit}", bytes / size)
            } else {
                format!("{:.1} {unit}", bytes as f64 / size as f64)
            };
        }
    }
    format!("{bytes} bytes")
}

/// The error for a file larger than `limit` bytes (`len` when its size is known).
fn too_large(len: Option<u64>, limit: u64) -> io::Error {
    let size = len.map_or("more".to_string(), size_text);
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{size}, more than the {} this file may hold",
            size_text(limit)
        ),
    )
}

/// Reads the regular file at `path` whole ([`open_regular`]), refusing one of more than
/// `limit` bytes, whether its size says so or it turns out longer while read.
pub fn read_limited(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let len = file.metadata()?.len();
    if len > limit {
        return Err(too_large(Some(len), limit));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    // One byte past the limit tells a file that grew (or a file whose size says 0, as those
    // of /proc do) from one that fits.
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(None, limit));
    }
    Ok(bytes)
}

/// [`read_limited`] for a text file: the bytes must be UTF-8.
pub fn read_text(path: &Path, limit: u64) -> io::Result<String> {
    let bytes = read_limited(path, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Reads one line of `reader` into `line` (cleared first, the `\n` and a `\r` before it
/// left off), refusing a line of more than `limit` bytes; `Ok(false)` at the end of input.
///
/// ```
/// use polydam_engine::files::read_line_limited;
/// let mut input: &[u8] = b"short\nfar too long\n";
/// let mut line = String::new();
/// assert!(read_line_limited(&mut input, &mut line, 8).unwrap());
/// assert_eq!(line, "short");
/// assert!(read_line_limited(&mut input, &mut line, 8).is_err());
/// ```
pub fn read_line_limited<R: BufRead>(
    reader: &mut R,
    line: &mut String,
    limit: usize,
) -> io::Result<bool> {
    line.clear();
    let mut bytes = Vec::new();
    let mut any = false;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if bytes.len() + take > limit {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a line longer than {}", size_text(limit as u64)),
            ));
        }
        bytes.extend_from_slice(&chunk[..take]);
        reader.consume(if done { take + 1 } else { take });
        if done {
            break;
        }
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "a line that is not UTF-8"))?;
    line.push_str(&text);
    Ok(any)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("polydam-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn regular_files_read_and_others_are_named() {
        let dir = temp("kinds");
        let file = dir.join("a.txt");
        std::fs::write(&file, "hello\n").expect("written");
        assert_eq!(read_text(&file, 100).expect("reads"), "hello\n");
        let err = read_text(&dir, 100).expect_err("a directory");
        assert!(
            err.to_string().contains("a directory, not a regular file"),
            "{err}"
        );
        let missing = open_regular(&dir.join("none")).expect_err("missing");
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        #[cfg(unix)]
        {
            let err = read_text(Path::new("/dev/zero"), 100).expect_err("a device");
            assert!(err.to_string().contains("a character device"), "{err}");
            let link = dir.join("zero.wdl");
            std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
            let err = open_regular(&link).expect_err("a link to a device");
            assert!(err.to_string().contains("a character device"), "{err}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn files_over_the_limit_are_refused() {
        let dir = temp("limit");
        let file = dir.join("big.txt");
        std::fs::write(&file, vec![b'x'; 3000]).expect("written");
        let err = read_limited(&file, 2048).expect_err("too large");
        assert!(
            err.to_string().contains("2.9 KiB, more than the 2 KiB"),
            "{err}"
        );
        assert_eq!(read_limited(&file, 3000).expect("fits").len(), 3000);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn lines_are_bounded() {
        let mut input: &[u8] = b"a\r\nbb\n\nlast";
        let mut line = String::new();
        let mut got = Vec::new();
        while read_line_limited(&mut input, &mut line, 4).expect("reads") {
            got.push(line.clone());
        }
        assert_eq!(got, ["a", "bb", "", "last"]);
        let mut long: &[u8] = b"12345\n";
        assert!(read_line_limited(&mut long, &mut line, 4).is_err());
    }
}
