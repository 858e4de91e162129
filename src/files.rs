//! The files the program writes: replaced whole or not at all, and never one of the files the
//! same command reads.
//!
//! [`OutputFile`] writes to a temporary file beside the destination and renames it over the
//! destination at [`OutputFile::commit`]: until then the old file stays as it was, so that a
//! command killed half-way (or failing) never leaves an empty or half-written file in its
//! place. [`refuse_input_as_output`] stops a command whose output would be one of its inputs
//! (`polydam train D -o D`) before it reads anything.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::cli::CliError;

/// A file being written in place of `path`: a temporary file in the same directory, renamed
/// over `path` by [`OutputFile::commit`], removed if dropped before.
///
/// A `path` that is a symbolic link is followed (its target is replaced, the link kept). A
/// `path` that exists but is no regular file (`/dev/null`, a named pipe a reader waits on) is
/// written directly, since it cannot be replaced.
pub struct OutputFile {
    /// The path as given, for messages.
    shown: PathBuf,
    /// The file replaced at the end (`shown`, its links followed).
    target: PathBuf,
    /// The temporary file written, if any.
    tmp: Option<PathBuf>,
    out: BufWriter<File>,
    committed: bool,
}

impl OutputFile {
    /// Starts writing a new content for `path`.
    pub fn create(path: &Path) -> Result<OutputFile, CliError> {
        let fail = |e: std::io::Error| CliError(format!("cannot write {}: {e}", path.display()));
        let existing = std::fs::metadata(path).ok();
        if let Some(meta) = existing.as_ref().filter(|m| !m.is_file()) {
            if meta.is_dir() {
                return Err(CliError(format!(
                    "cannot write {}: it is a directory",
                    path.display()
                )));
            }
            let file = OpenOptions::new().write(true).open(path).map_err(fail)?;
            return Ok(OutputFile {
                shown: path.to_path_buf(),
                target: path.to_path_buf(),
                tmp: None,
                out: BufWriter::new(file),
                committed: false,
            });
        }
        let target = match existing {
            Some(_) => std::fs::canonicalize(path).map_err(fail)?,
            None => path.to_path_buf(),
        };
        let name = target
            .file_name()
            .ok_or_else(|| CliError(format!("{} is not a file name", path.display())))?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".tmp-{}", std::process::id()));
        let tmp = target.with_file_name(tmp_name);
        // A new file only: a link or file left at that name is never written through.
        let _ = std::fs::remove_file(&tmp);
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(fail)?;
        if let Some(meta) = &existing {
            // The new content keeps the old file's permissions.
            let _ = file.set_permissions(meta.permissions());
        }
        Ok(OutputFile {
            shown: path.to_path_buf(),
            target,
            tmp: Some(tmp),
            out: BufWriter::new(file),
            committed: false,
        })
    }

    /// The temporary file being written (`None` when writing straight to a special file).
    pub fn temporary(&self) -> Option<&Path> {
        self.tmp.as_deref()
    }

    /// The error of a failed write, naming the destination.
    pub fn error(&self, e: std::io::Error) -> CliError {
        CliError(format!("cannot write {}: {e}", self.shown.display()))
    }

    /// Writes what is buffered to the temporary file (a whole record: a game, a line), so
    /// that a kill loses nothing written before.
    pub fn flush_now(&mut self) -> Result<(), CliError> {
        self.out.flush().map_err(|e| self.error(e))
    }

    /// Finishes the file: everything written reaches the disk, then replaces the destination.
    pub fn commit(mut self) -> Result<(), CliError> {
        self.out.flush().map_err(|e| self.error(e))?;
        if let Some(tmp) = &self.tmp {
            self.out.get_ref().sync_all().map_err(|e| self.error(e))?;
            std::fs::rename(tmp, &self.target).map_err(|e| self.error(e))?;
        }
        self.committed = true;
        Ok(())
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if !self.committed {
            if let Some(tmp) = &self.tmp {
                let _ = std::fs::remove_file(tmp);
            }
        }
    }
}

/// Writes `text` as the whole new content of `path` ([`OutputFile`]).
pub fn replace_with(path: &Path, text: &str) -> Result<(), CliError> {
    let mut file = OutputFile::create(path)?;
    file.write_all(text.as_bytes()).map_err(|e| file.error(e))?;
    file.commit()
}

/// Whether `a` and `b` name the same existing file (hard links and symbolic links included).
fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        ma.dev() == mb.dev() && ma.ino() == mb.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (ma, mb);
        matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
    }
}

/// Refuses to write `output` (given with `option`) when it is one of `inputs`: the command
/// would read and replace the same file, and its input would be lost. Only regular files
/// count (writing to `/dev/null` what is read from it harms nothing).
pub fn refuse_input_as_output<'a>(
    option: &str,
    output: &Path,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<(), CliError> {
    if !std::fs::metadata(output).is_ok_and(|m| m.is_file()) {
        return Ok(());
    }
    for input in inputs {
        if same_file(input, output) {
            return Err(CliError(format!(
                "{option} {} is also an input ({}): writing it would replace that input; \
                 write to another file",
                output.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("polydam-out-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn the_old_file_stays_until_the_commit() {
        let dir = temp("commit");
        let path = dir.join("out.txt");
        std::fs::write(&path, "old\n").expect("written");
        let mut f = OutputFile::create(&path).expect("created");
        writeln!(f, "new").expect("written");
        f.flush_now().expect("flushed");
        assert_eq!(std::fs::read_to_string(&path).expect("reads"), "old\n");
        let tmp = f.temporary().expect("a temporary file").to_path_buf();
        assert_eq!(std::fs::read_to_string(&tmp).expect("reads"), "new\n");
        f.commit().expect("committed");
        assert_eq!(std::fs::read_to_string(&path).expect("reads"), "new\n");
        assert!(!tmp.exists());
        // Dropped before its commit: the old content stays, the temporary file goes.
        let mut f = OutputFile::create(&path).expect("created");
        writeln!(f, "lost").expect("written");
        let tmp = f.temporary().expect("a temporary file").to_path_buf();
        drop(f);
        assert_eq!(std::fs::read_to_string(&path).expect("reads"), "new\n");
        assert!(!tmp.exists());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_inputs_refused() {
        let dir = temp("links");
        let real = dir.join("real.txt");
        let link = dir.join("link.txt");
        std::fs::write(&real, "old\n").expect("written");
        std::os::unix::fs::symlink(&real, &link).expect("symlink");
        replace_with(&link, "new\n").expect("replaced");
        assert!(std::fs::symlink_metadata(&link)
            .expect("there")
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).expect("reads"), "new\n");
        let err = refuse_input_as_output("-o", &link, [real.as_path()]).expect_err("same");
        assert!(err.0.contains("is also an input"), "{err}");
        let other = dir.join("other.txt");
        assert!(refuse_input_as_output("-o", &other, [real.as_path()]).is_ok());
        let null = Path::new("/dev/null");
        assert!(refuse_input_as_output("-o", null, [null]).is_ok());
        replace_with(null, "discarded\n").expect("/dev/null is written, not replaced");
        std::fs::remove_dir_all(&dir).ok();
    }
}
