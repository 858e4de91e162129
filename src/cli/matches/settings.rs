//! What a match is asked for: the engines (how each is reached and set up) and the referee's
//! settings (time control, limits, adjudication), as the options give them and every other
//! part of the match reads them.

use std::time::Duration;

use polydam_protocol::lexer::excerpt;

/// How an engine is started and set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program and its arguments (Hub; empty for a DXP engine, whose target says it all).
    pub command: Vec<String>,
    /// The protocol, and for DXP where the engine is.
    pub protocol: Protocol,
    /// The name to report, or `None` for the `id name=` of the engine.
    pub name: Option<String>,
    /// `set-param` options sent after the handshake, in order.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// The engine as given on the command line (`polydam hub`, `dxp:127.0.0.1:27531`).
    pub fn display(&self) -> String {
        match &self.protocol {
            Protocol::Hub => self.command.join(" "),
            Protocol::Dxp(DxpTarget::Address(a)) => format!("dxp:{a}"),
            Protocol::Dxp(DxpTarget::Command(c)) => format!("dxp:{}", c.join(" ")),
        }
    }
}

/// Splits an engine command on whitespace; a double-quoted part may hold spaces.
///
/// ```
/// use polydam::cli::matches::settings::split_command;
/// assert_eq!(split_command("polydam hub").unwrap(), ["polydam", "hub"]);
/// assert_eq!(split_command("\"my engine\" --x").unwrap(), ["my engine", "--x"]);
/// ```
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut in_word = false;
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    parts.push(std::mem::take(&mut current));
                    in_word = false;
                }
            }
            c => {
                current.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return Err(format!(
            "unterminated quote in engine command '{}'",
            excerpt(text)
        ));
    }
    if in_word {
        parts.push(current);
    }
    if parts.is_empty() {
        return Err("empty engine command".into());
    }
    Ok(parts)
}

/// How an engine is reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Hub on the standard input and output of `EngineSpec::command`.
    Hub,
    /// DamExchange over TCP (`--engine dxp:...`).
    Dxp(DxpTarget),
}

/// Where a DXP engine is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DxpTarget {
    /// Already running at `HOST:PORT`.
    Address(String),
    /// Started by the referee: the program and its arguments, `{port}` to be replaced.
    Command(Vec<String>),
}

impl DxpTarget {
    /// Reads what follows `dxp:`: `HOST:PORT` (one word whose last `:` part is a port number),
    /// or a command.
    pub fn parse(text: &str) -> Result<DxpTarget, String> {
        let text = text.trim();
        if !text.contains(char::is_whitespace) {
            if let Some((host, port)) = text.rsplit_once(':') {
                if !host.is_empty() && port.parse::<u16>().is_ok() {
                    return Ok(DxpTarget::Address(text.to_owned()));
                }
            }
        }
        split_command(text).map(DxpTarget::Command)
    }
}

/// How much time an engine gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A fixed time per move, in seconds (`level move-time=S`).
    MoveTime(f64),
    /// A clock per side with a Fischer increment, in seconds (`level time=T inc=I`).
    Clock {
        /// Starting time of each side.
        time: f64,
        /// Added after each move.
        inc: f64,
    },
}

/// Score adjudication.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Adjudication {
    /// Consecutive plies the scores must agree for.
    pub plies: usize,
    /// Both engines' scores at least this large (in men), with the same winner: a win.
    pub win_score: f64,
    /// Both engines' scores at most this large (in men): a draw.
    pub draw_score: f64,
    /// No draw adjudication before this many plies of the game.
    pub draw_min_plies: usize,
}

/// The referee's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RefereeConfig {
    /// The time control, if any.
    pub time_control: Option<TimeControl>,
    /// A depth limit sent as `level depth=D`, if any.
    pub depth: Option<u32>,
    /// A node limit sent as `level nodes=N`, if any.
    pub nodes: Option<u64>,
    /// How long a move may take without a clock before the engine forfeits.
    pub move_timeout: Duration,
    /// With a clock: how far past its clock an engine may answer and still not lose on time.
    pub grace: Duration,
    /// Plies after which the game is drawn (counting the opening's).
    pub max_plies: usize,
    /// Score adjudication, if enabled.
    pub adjudication: Option<Adjudication>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_command_handles_quotes_and_blanks() {
        assert_eq!(split_command("  a  b ").unwrap(), ["a", "b"]);
        assert_eq!(split_command("a \"b c\" d").unwrap(), ["a", "b c", "d"]);
        assert_eq!(split_command("\"\"").unwrap(), [""]);
        assert!(split_command("   ").is_err());
        assert!(split_command("a \"b").is_err());
    }

    #[test]
    fn targets() {
        assert_eq!(
            DxpTarget::parse("127.0.0.1:27531"),
            Ok(DxpTarget::Address("127.0.0.1:27531".into()))
        );
        assert_eq!(
            DxpTarget::parse("[::1]:1"),
            Ok(DxpTarget::Address("[::1]:1".into()))
        );
        assert_eq!(
            DxpTarget::parse("polydam dxp --listen {port}"),
            Ok(DxpTarget::Command(vec![
                "polydam".into(),
                "dxp".into(),
                "--listen".into(),
                "{port}".into()
            ]))
        );
        assert_eq!(
            DxpTarget::parse("kingsrow"),
            Ok(DxpTarget::Command(vec!["kingsrow".into()]))
        );
        assert!(DxpTarget::parse("  ").is_err());
    }
}
