//! A Hub client over a child process: the referee's side of the protocol.
//!
//! The child's stdout is read by a thread that forwards each line through a channel, so that
//! every read can have a deadline: an engine that never answers is detected, not waited for.
//! What an engine writes is bounded however much it writes: a line longer than
//! [`MAX_ENGINE_LINE`] is dropped as it streams in, the channel holds at most
//! [`BUFFERED_LINES`] lines (the reader, and so the engine's writes, wait while it is full),
//! and every read stops at its deadline even while lines keep coming. Before each move the
//! referee sends `ping` and drops everything up to the `pong`, so that nothing written after
//! an earlier answer (a second `done`) is taken for this one. The engine runs in a process
//! group of its own, killed whole.

use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use polydam_protocol::lexer::lex;

use super::process::{kill_group, own_group};
use super::settings::EngineSpec;

/// The longest line of an engine's output that is read, in bytes: longer ones are dropped
/// as they stream in (an `info` line with a whole principal variation takes a few hundred).
pub const MAX_ENGINE_LINE: usize = 64 * 1024;
/// The most lines of an engine's output waiting for the referee; with [`MAX_ENGINE_LINE`], the
/// memory one engine's output can take (4 MiB).
pub const BUFFERED_LINES: usize = 64;

/// Why an engine failed during a game. Each loses the game for the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFailure {
    /// The engine's output closed (it exited or crashed), or its input could not be written.
    Crashed(String),
    /// No answer before the deadline.
    Timeout,
    /// A DXP engine broke the protocol: a malformed message, a message out of turn, a refused
    /// game, a game ended where the rules do not end it.
    Protocol(String),
    /// A DXP engine gave up (GAMEEND reason 1) instead of moving.
    Resigned,
}

/// What an engine answered to `go think`.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The move of `done move=`, or `None` for a bare `done`.
    pub mv: Option<String>,
    /// The last `score=` of its `info` lines, in men, from the mover's point of view.
    pub score: Option<f64>,
    /// Time from sending `go` to reading `done`.
    pub elapsed: Duration,
    /// The last `error message=` the engine wrote since the `pos` line, if any.
    pub error: Option<String>,
}

/// One running engine speaking Hub.
#[derive(Debug)]
pub struct HubEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The name from `id name=` (or the command's first word).
    pub id_name: String,
    /// The names of the parameters the engine advertised with `param`.
    pub params: Vec<String>,
}

impl HubEngine {
    /// Starts the engine and runs the handshake: `hub` ... `wait`, the `set-param` lines
    /// (`variant`, `numbering=card` when advertised, then `spec.options`), `init` ... `ready`.
    /// Each answer must come within `timeout`.
    pub fn start(spec: &EngineSpec, variant: &str, timeout: Duration) -> Result<Self, String> {
        let program = spec.command.first().ok_or("empty engine command")?;
        let mut child = own_group(
            Command::new(program)
                .args(&spec.command[1..])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null()),
        )
        .spawn()
        .map_err(|e| format!("cannot start '{}': {e}", spec.command.join(" ")))?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                kill_group(&mut child);
                return Err("cannot open the engine's pipes".into());
            }
        };
        let (tx, lines) = mpsc::sync_channel(BUFFERED_LINES);
        let reader = std::thread::Builder::new()
            .name("match-engine-reader".into())
            .spawn(move || forward_lines(stdout, &tx));
        let mut engine = HubEngine {
            child,
            stdin,
            lines,
            id_name: program.clone(),
            params: Vec::new(),
        };
        if let Err(e) = reader {
            engine.kill();
            return Err(format!("cannot start a reader thread: {e}"));
        }
        engine.handshake(spec, variant, timeout).map_err(|e| {
            engine.kill();
            match e {
                EngineFailure::Crashed(why) | EngineFailure::Protocol(why) => {
                    format!("handshake failed: {why}")
                }
                EngineFailure::Resigned => "handshake failed".to_owned(),
                EngineFailure::Timeout => {
                    format!(
                        "handshake failed: no answer within {:.1} s",
                        timeout.as_secs_f64()
                    )
                }
            }
        })?;
        Ok(engine)
    }

    fn handshake(
        &mut self,
        spec: &EngineSpec,
        variant: &str,
        timeout: Duration,
    ) -> Result<(), EngineFailure> {
        self.send("hub")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.read_line(deadline)?;
            let Ok(line) = lex(&line) else { continue };
            match line.command.as_str() {
                "id" => {
                    if let Some(name) = line.value("name").filter(|n| !n.trim().is_empty()) {
                        self.id_name = name.trim().to_owned();
                    }
                }
                "param" => {
                    if let Some(name) = line.value("name") {
                        self.params.push(name.to_owned());
                    }
                }
                "wait" => break,
                _ => {}
            }
        }
        if self.has_param("variant") {
            self.send(&format!("set-param name=variant value={variant}"))?;
        }
        if self.has_param("numbering") {
            // The referee speaks the rule cards' numbering (Polydam's own), not pydraughts'.
            self.send("set-param name=numbering value=card")?;
        }
        for (name, value) in &spec.options {
            self.send(&format!(
                "set-param name={} value={}",
                quote(name),
                quote(value)
            ))?;
        }
        self.send("init")?;
        let deadline = Instant::now() + timeout;
        // An engine answers a `set-param` it refuses (an unknown name, a value out of range,
        // a table it cannot allocate) with `error`, before its `ready`: the match must not go
        // on with settings other than those asked for, so the refusal ends it, shown as is.
        let mut refusals = Vec::new();
        loop {
            let line = self.read_line(deadline)?;
            match lex(&line) {
                Ok(l) if l.command == "ready" => break,
                Ok(l) if l.command == "error" => {
                    refusals.push(l.value("message").unwrap_or(line.as_str()).to_owned());
                }
                _ => {}
            }
        }
        if refusals.is_empty() {
            return Ok(());
        }
        let asked: Vec<String> = spec
            .options
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        Err(EngineFailure::Crashed(format!(
            "the engine refused its settings ({}): {}",
            if asked.is_empty() {
                "variant".to_owned()
            } else {
                asked.join(", ")
            },
            refusals.join("; ")
        )))
    }

    /// Whether the engine advertised a parameter called `name`.
    pub fn has_param(&self, name: &str) -> bool {
        self.params.iter().any(|p| p == name)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        let written = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        written.map_err(|_| EngineFailure::Crashed(self.exit_text()))
    }

    /// The next line, or a failure at `deadline` (even while lines keep coming) or when the
    /// engine's output closes.
    fn read_line(&mut self, deadline: Instant) -> Result<String, EngineFailure> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(EngineFailure::Timeout);
        }
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineFailure::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(EngineFailure::Crashed(self.exit_text())),
        }
    }

    /// How the process ended, waiting a little for it: `exit status 3`, `killed by signal 9`.
    fn exit_text(&mut self) -> String {
        let until = Instant::now() + Duration::from_secs(1);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    return match status.code() {
                        Some(code) => format!("exit status {code}"),
                        None => signal_text(&status),
                    }
                }
                Ok(None) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Ok(None) => return "output closed, process still running".into(),
                Err(e) => return format!("cannot wait for the process: {e}"),
            }
        }
    }

    /// Tells the engine a new game starts.
    pub fn new_game(&mut self) -> Result<(), EngineFailure> {
        self.send("new-game")
    }

    /// Sends the position, the level lines and `go think`, and reads up to `done`.
    pub fn think(
        &mut self,
        pos_line: &str,
        level_lines: &[String],
        timeout: Duration,
    ) -> Result<Answer, EngineFailure> {
        self.sync(timeout)?;
        self.send(pos_line)?;
        for level in level_lines {
            self.send(level)?;
        }
        self.send("go think")?;
        let started = Instant::now();
        let deadline = started + timeout;
        let mut score = None;
        let mut error = None;
        loop {
            let line = self.read_line(deadline)?;
            let Ok(line) = lex(&line) else { continue };
            match line.command.as_str() {
                "info" => {
                    if let Some(s) = line
                        .value("score")
                        .and_then(|s| s.trim().parse::<f64>().ok())
                    {
                        if s.is_finite() {
                            score = Some(s);
                        }
                    }
                }
                "error" => error = line.value("message").map(str::to_owned),
                "done" => {
                    let mv = line
                        .value("move")
                        .map(str::trim)
                        .filter(|m| !m.is_empty())
                        .map(str::to_owned);
                    return Ok(Answer {
                        mv,
                        score,
                        elapsed: started.elapsed(),
                        error,
                    });
                }
                _ => {}
            }
        }
    }

    /// Sends `ping` and drops every line up to its `pong`: lines left over from an earlier
    /// exchange (a second `done`, `info` lines written after `done`) are never taken for the
    /// answer to the next one, however late they came. The `pong` must come within `timeout`.
    fn sync(&mut self, timeout: Duration) -> Result<(), EngineFailure> {
        self.send("ping")?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.read_line(deadline) {
                Ok(line) if line.split_whitespace().next() == Some("pong") => return Ok(()),
                Ok(_) => {}
                Err(EngineFailure::Timeout) => {
                    return Err(EngineFailure::Protocol(format!(
                        "no pong to ping within {:.2} s",
                        timeout.as_secs_f64()
                    )))
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Ends the process and every process of its group at once.
    pub fn kill(&mut self) {
        kill_group(&mut self.child);
    }
}

/// The reader thread: forwards each line of `stdout` (without its line break, invalid UTF-8
/// replaced) through `tx`, waiting while the channel is full; a line longer than
/// [`MAX_ENGINE_LINE`] is dropped as it streams in. Ends at the end of the output or when the
/// engine is dropped.
fn forward_lines(stdout: ChildStdout, tx: &SyncSender<String>) {
    let mut input = BufReader::with_capacity(16 * 1024, stdout);
    let mut line: Vec<u8> = Vec::new();
    let mut overlong = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok([]) => return,
            Ok(chunk) => chunk,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        let (part, used, ends) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        if !overlong && line.len() + part.len() <= MAX_ENGINE_LINE {
            line.extend_from_slice(part);
        } else {
            overlong = true;
            line = Vec::new();
        }
        input.consume(used);
        if ends {
            if !overlong {
                let text = String::from_utf8_lossy(&line).trim_end().to_owned();
                if tx.send(text).is_err() {
                    return;
                }
            }
            line.clear();
            overlong = false;
        }
    }
}

impl Drop for HubEngine {
    /// Sends `quit`, gives the engine a moment to leave, then kills it.
    /// Processes the engine started are killed with it, whether it left or not.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

#[cfg(unix)]
fn signal_text(status: &std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match status.signal() {
        Some(sig) => format!("killed by signal {sig}"),
        None => status.to_string(),
    }
}

#[cfg(not(unix))]
fn signal_text(status: &std::process::ExitStatus) -> String {
    status.to_string()
}

/// A Hub value, quoted when empty or holding a space or `=`.
pub fn quote(value: &str) -> String {
    if value.is_empty() || value.contains(|c: char| c.is_whitespace() || c == '=') {
        format!("\"{value}\"")
    } else {
        value.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_only_when_needed() {
        assert_eq!(quote("x"), "x");
        assert_eq!(quote("a b"), "\"a b\"");
        assert_eq!(quote(""), "\"\"");
    }
}
