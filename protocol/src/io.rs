//! Line input with bounded memory, and line output written whole.
//!
//! Input is read as bytes, not `String` lines, so that invalid UTF-8 is an error for that line
//! only; a line longer than [`MAX_LINE_BYTES`] is discarded as it streams in (only the cap is
//! ever buffered) and reported as an error. Output goes through [`Output`], which writes each
//! reply as one `write_all` of the whole line under a lock, then flushes, so that lines from
//! the search thread and the session never interleave.

use std::io::{self, BufRead, Write};
use std::sync::Mutex;

use crate::reply::Reply;

/// The longest input line accepted, in bytes (without its line break). A whole International
/// game in `moves=` takes a few kilobytes; a megabyte is a client bug.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of input, or why it cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputLine {
    /// A line of valid UTF-8 (without its `\n`; a trailing `\r` is left to the lexer).
    Text(String),
    /// The line is not valid UTF-8.
    InvalidUtf8 {
        /// Byte offset of the first invalid byte.
        at: usize,
    },
    /// The line was longer than [`MAX_LINE_BYTES`]; its bytes were dropped.
    TooLong {
        /// Its length in bytes.
        bytes: usize,
    },
}

impl InputLine {
    /// The error message for an unusable line.
    pub fn error(&self) -> Option<String> {
        match self {
            InputLine::Text(_) => None,
            InputLine::InvalidUtf8 { at } => Some(format!(
                "line is not valid UTF-8 (bad byte at offset {at}); line ignored"
            )),
            InputLine::TooLong { bytes } => Some(format!(
                "line too long ({bytes} bytes; at most {MAX_LINE_BYTES}); line ignored"
            )),
        }
    }
}

/// Reads lines of at most [`MAX_LINE_BYTES`] bytes from a byte stream.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
}

impl<R: BufRead> LineReader<R> {
    /// A reader over `inner`.
    pub fn new(inner: R) -> LineReader<R> {
        LineReader { inner }
    }

    /// The next line, or `None` at the end of input (or on a read error, which ends input
    /// just the same). A last line without `\n` still counts.
    pub fn next_line(&mut self) -> Option<InputLine> {
        let mut buf: Vec<u8> = Vec::new();
        let mut total = 0usize;
        let mut seen_any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if chunk.is_empty() {
                if !seen_any {
                    return None;
                }
                break;
            }
            seen_any = true;
            let (part, used, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            total = total.saturating_add(part.len());
            if total <= MAX_LINE_BYTES {
                buf.extend_from_slice(part);
            } else if !buf.is_empty() {
                // Over the cap: stop buffering, only count.
                buf = Vec::new();
            }
            self.inner.consume(used);
            if end {
                break;
            }
        }
        if total > MAX_LINE_BYTES {
            return Some(InputLine::TooLong { bytes: total });
        }
        Some(match String::from_utf8(buf) {
            Ok(text) => InputLine::Text(text),
            Err(e) => InputLine::InvalidUtf8 {
                at: e.utf8_error().valid_up_to(),
            },
        })
    }
}

/// Where replies go: one locked writer shared by the session and the search thread.
pub struct Output {
    sink: Mutex<Box<dyn Write + Send>>,
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Output")
    }
}

impl Output {
    /// Replies written to `sink`.
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Mutex::new(sink),
        }
    }

    /// Replies written to the process's standard output.
    pub fn stdout() -> Output {
        Output::new(Box::new(io::stdout()))
    }

    /// Writes `reply` as one whole line and flushes. Write errors are ignored: a client that
    /// has gone away will close our input too, and that ends the session.
    pub fn send(&self, reply: &Reply) {
        self.send_raw(&reply.to_line());
    }

    /// Writes `line` (which must end in `\n`) in one call and flushes.
    pub fn send_raw(&self, line: &str) {
        let mut sink = match self.sink.lock() {
            Ok(sink) => sink,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = sink.write_all(line.as_bytes());
        let _ = sink.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<InputLine> {
        let mut reader = LineReader::new(input);
        let mut out = Vec::new();
        while let Some(line) = reader.next_line() {
            out.push(line);
        }
        out
    }

    #[test]
    fn splits_lines_and_keeps_a_last_partial_one() {
        assert_eq!(
            lines(b"hub\r\ninit\n\nquit"),
            vec![
                InputLine::Text("hub\r".into()),
                InputLine::Text("init".into()),
                InputLine::Text(String::new()),
                InputLine::Text("quit".into()),
            ]
        );
        assert!(lines(b"").is_empty());
    }

    #[test]
    fn invalid_utf8_is_one_bad_line() {
        assert_eq!(
            lines(b"ping\nab\xff\xfe\nping\n"),
            vec![
                InputLine::Text("ping".into()),
                InputLine::InvalidUtf8 { at: 2 },
                InputLine::Text("ping".into()),
            ]
        );
    }

    #[test]
    fn long_lines_are_dropped_not_buffered() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\nping\n");
        // A small buffer forces many chunks.
        let mut reader = LineReader::new(io::BufReader::with_capacity(1000, &input[..]));
        assert_eq!(
            reader.next_line(),
            Some(InputLine::TooLong {
                bytes: MAX_LINE_BYTES + 10
            })
        );
        assert_eq!(reader.next_line(), Some(InputLine::Text("ping".into())));
        assert_eq!(reader.next_line(), None);
        let exact = vec![b'y'; MAX_LINE_BYTES];
        assert!(matches!(
            LineReader::new(&exact[..]).next_line(),
            Some(InputLine::Text(t)) if t.len() == MAX_LINE_BYTES
        ));
    }
}
