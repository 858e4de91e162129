//! Drives the `polydam hub` binary with a transcript: lines to send and patterns of the lines
//! expected back.
//!
//! A transcript is plain text, one directive per line:
//!
//! ```text
//! # a comment (blank lines are ignored too)
//! > pos start                  send this line
//! < done move=*                the next output line must match (`*` matches any text)
//! <* info *                    any number of output lines matching, possibly none
//! <~ done move=*               skip output lines until one matches (at most 10 000 lines)
//! ! sleep 200                  wait 200 ms
//! ! bytes 6170 6e67 ff 0a      send raw bytes (hex; invalid UTF-8 on purpose)
//! ! eof                        close the engine's input
//! ```
//!
//! At the end the engine's input is closed (if it is not yet); then it must exit with status 0
//! within 5 seconds and print nothing more, and nothing may have gone to stderr.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The start of the line a session without endgame tables writes on stderr, once, to say how
/// to build them (the only thing a Hub session may write there).
pub const NO_TABLES_HINT: &str = "polydam: no endgame tables for ";

/// A data directory that is never created, so that the program finds no tables there, whatever
/// the machine running the tests has in its own data directory.
pub fn no_data_dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("polydam-tests-no-data-{}", std::process::id()))
}

/// The `polydam` program, its data directory [`no_data_dir`] (a test that wants tables sets
/// `POLYDAM_DATA_DIR` again).
pub fn polydam() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_polydam"));
    cmd.env("POLYDAM_DATA_DIR", no_data_dir());
    cmd
}

/// Runs `polydam play ARGS --ascii --weights none` with `input` on stdin (the hand evaluation
/// keeps the engine's replies fixed when shipped weights are retrained); returns stdout after
/// checking that it exited with status 0 and did not panic.
pub fn play_session(args: &[&str], input: &str) -> String {
    let mut child = polydam()
        .arg("play")
        .args(args)
        .args(["--ascii", "--weights", "none"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("polydam starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("input written");
    let out = child.wait_with_output().expect("polydam finishes");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {stderr}\nstdout:\n{stdout}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    stdout
}

/// `stderr` without the line [`NO_TABLES_HINT`] starts.
pub fn without_hint(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|l| !l.starts_with(NO_TABLES_HINT))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// How long any expected line may take to come.
const LINE_TIMEOUT: Duration = Duration::from_secs(20);

/// Whether `text` matches the glob `pattern` (`*` = any run of characters, possibly empty).
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0usize, 0usize);
    let (mut star, mut mark) = (None::<usize>, 0usize);
    while ti < t.len() {
        if pi < p.len() && p[pi] != '*' && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == '*' {
        pi += 1;
    }
    pi == p.len()
}

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Receiver<Vec<u8>>,
    /// A line read ahead by a `<*` directive.
    pending: Option<String>,
    /// Everything exchanged, for failure messages.
    pub log: Vec<String>,
}

impl Engine {
    /// Starts `polydam hub` (or bare `polydam` when `bare`).
    pub fn start_with(bare: bool) -> Engine {
        Engine::start_with_env(bare, &[])
    }

    /// Starts `polydam hub` (or bare `polydam` when `bare`) with these environment variables
    /// (the data directory is [`no_data_dir`] unless they set `POLYDAM_DATA_DIR`).
    pub fn start_with_env(bare: bool, vars: &[(&str, &str)]) -> Engine {
        let mut cmd = polydam();
        if !bare {
            cmd.arg("hub");
        }
        cmd.envs(vars.iter().copied());
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start polydam");
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr = child.stderr.take().expect("stderr");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let (etx, stderr_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut all = Vec::new();
            let _ = stderr.read_to_end(&mut all);
            let _ = etx.send(all);
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            stderr: stderr_rx,
            pending: None,
            log: Vec::new(),
        }
    }

    /// Starts `polydam hub`.
    pub fn start() -> Engine {
        Engine::start_with(false)
    }

    /// Sends one line (a `\n` is added).
    pub fn send(&mut self, line: &str) {
        self.log.push(format!("> {line}"));
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        if let Some(stdin) = self.stdin.as_mut() {
            stdin.write_all(bytes).expect("write to the engine");
            stdin.flush().expect("flush");
        }
    }

    /// Closes the engine's input.
    pub fn close(&mut self) {
        self.log.push("! eof".into());
        self.stdin = None;
    }

    /// The next output line, or a panic after [`LINE_TIMEOUT`].
    pub fn recv(&mut self) -> String {
        if let Some(line) = self.pending.take() {
            return line;
        }
        match self.lines.recv_timeout(LINE_TIMEOUT) {
            Ok(line) => {
                self.log.push(format!("< {line}"));
                line
            }
            Err(e) => self.fail(&format!("no output line ({e:?})")),
        }
    }

    /// The next output line within `timeout`, if any.
    pub fn recv_within(&mut self, timeout: Duration) -> Option<String> {
        if let Some(line) = self.pending.take() {
            return Some(line);
        }
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.log.push(format!("< {line}"));
                Some(line)
            }
            Err(_) => None,
        }
    }

    /// Panics with the exchange so far.
    pub fn fail(&mut self, why: &str) -> ! {
        panic!("{why}\n--- exchange:\n{}", self.log.join("\n"));
    }

    /// Reads lines until one matches `pattern`, returning it (and the skipped lines).
    pub fn until(&mut self, pattern: &str) -> (String, Vec<String>) {
        let mut skipped = Vec::new();
        for _ in 0..10_000 {
            let line = self.recv();
            if glob(pattern, &line) {
                return (line, skipped);
            }
            skipped.push(line);
        }
        self.fail(&format!("no line matching '{pattern}'"))
    }

    /// The next line, which must match `pattern`.
    pub fn expect(&mut self, pattern: &str) -> String {
        let line = self.recv();
        if !glob(pattern, &line) {
            self.fail(&format!("expected '{pattern}', got '{line}'"));
        }
        line
    }

    /// Closes the input, then checks the exit status (0), that nothing more was printed and
    /// that stderr stayed empty but for the hint that tables are missing.
    pub fn finish(self) {
        let stderr = self.finish_with_stderr();
        assert!(
            without_hint(&stderr).is_empty(),
            "stderr was not empty: {stderr}"
        );
    }

    /// Closes the input, then checks the exit status (0) and that nothing more was printed;
    /// returns what the engine wrote on stderr.
    pub fn finish_with_stderr(mut self) -> String {
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(5);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => {
                    let _ = self.child.kill();
                    self.fail("the engine did not exit within 5 s of its input closing");
                }
            }
        };
        if let Some(line) = self.pending.take() {
            self.fail(&format!("unexpected output at the end: '{line}'"));
        }
        match self.lines.recv_timeout(Duration::from_secs(5)) {
            Ok(line) => {
                self.log.push(format!("< {line}"));
                self.fail(&format!("unexpected output at the end: '{line}'"));
            }
            Err(RecvTimeoutError::Disconnected) => {}
            Err(RecvTimeoutError::Timeout) => self.fail("stdout not closed after exit"),
        }
        let stderr = self
            .stderr
            .recv_timeout(Duration::from_secs(5))
            .unwrap_or_default();
        if status.code() != Some(0) {
            self.fail(&format!("exit status {status}"));
        }
        String::from_utf8_lossy(&stderr).into_owned()
    }

    /// Runs a transcript (see the module documentation), then [`Engine::finish`].
    pub fn run_script(mut self, script: &str) {
        for (n, raw) in script.lines().enumerate() {
            let line = raw.trim_end_matches('\r');
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let context = format!("script line {}: {trimmed}", n + 1);
            if let Some(text) = line.strip_prefix("> ") {
                self.send(text);
            } else if line == ">" {
                self.send("");
            } else if let Some(pattern) = line.strip_prefix("<* ") {
                loop {
                    let next = self.recv();
                    if !glob(pattern, &next) {
                        self.pending = Some(next);
                        break;
                    }
                }
            } else if let Some(pattern) = line.strip_prefix("<~ ") {
                let _ = self.until(pattern);
            } else if let Some(pattern) = line.strip_prefix("< ") {
                let got = self.recv();
                if !glob(pattern, &got) {
                    self.fail(&format!("{context}: got '{got}'"));
                }
            } else if let Some(ms) = trimmed.strip_prefix("! sleep ") {
                let ms: u64 = ms.trim().parse().expect("sleep takes milliseconds");
                std::thread::sleep(Duration::from_millis(ms));
            } else if let Some(hex) = trimmed.strip_prefix("! bytes ") {
                let mut bytes = Vec::new();
                for word in hex.split_whitespace() {
                    let mut i = 0;
                    while i + 2 <= word.len() {
                        bytes.push(u8::from_str_radix(&word[i..i + 2], 16).expect("hex"));
                        i += 2;
                    }
                }
                self.log.push(format!("> (bytes) {hex}"));
                self.send_bytes(&bytes);
            } else if trimmed == "! eof" {
                self.close();
            } else {
                panic!("bad transcript directive at {context}");
            }
        }
        self.finish();
    }
}

/// Runs the transcript `script` against a fresh `polydam hub`.
pub fn run(script: &str) {
    Engine::start().run_script(script);
}
