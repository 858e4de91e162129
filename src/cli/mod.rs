//! The command-line subcommands: each is a function returning `Result<(), CliError>`; `main`
//! prints the error on stderr and exits with status 2.

pub mod analyse;
pub mod bench;
pub mod book;
pub mod dxp;
pub mod egtb;
pub mod matches;
pub mod openings;
pub mod perft;
pub mod play;
pub mod positions;
pub mod selfplay;
pub mod serve;
pub mod setup;
pub mod tables;
pub mod train;

use std::fmt;

/// An error to report on stderr (exit status 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CliError {}

impl From<polydam_engine::variants::UnknownVariant> for CliError {
    fn from(e: polydam_engine::variants::UnknownVariant) -> Self {
        CliError(e.to_string())
    }
}

/// A progress bar of `total` games on stderr, or a hidden one with `quiet` or when stderr is
/// not a terminal (a log file gets no escape codes).
pub fn games_bar(total: usize, quiet: bool) -> indicatif::ProgressBar {
    counting_bar(total, "games", quiet)
}

/// A progress bar of `total` things called `unit` on stderr, hidden as [`games_bar`]'s.
pub fn counting_bar(total: usize, unit: &str, quiet: bool) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    let template =
        format!("{{bar:40}} {{pos}}/{{len}} {unit}, {{elapsed_precise}} (eta {{eta}}) {{msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// Checks a `--depth` given on the command line: from 1 to the search's maximum depth.
pub fn check_depth(depth: Option<i32>) -> Result<(), CliError> {
    let max = polydam_engine::search::Depth::MAX.plies();
    match depth {
        Some(d) if !(1..=max).contains(&d) => Err(CliError(format!(
            "--depth must be an integer from 1 to {max}, got {d}"
        ))),
        _ => Ok(()),
    }
}

/// Checks a `--movetime` given on the command line: a number of seconds, not negative.
pub fn check_movetime(movetime: Option<f64>) -> Result<(), CliError> {
    match movetime {
        Some(s) if !s.is_finite() || s < 0.0 => Err(CliError(format!(
            "--movetime must be a number of seconds from 0 to 1000000, got {s}"
        ))),
        _ => Ok(()),
    }
}

/// A table size given with `--hash` that this machine cannot give.
impl From<polydam_engine::search::HashError> for CliError {
    fn from(e: polydam_engine::search::HashError) -> Self {
        CliError(format!("--hash {}: {e}", e.requested_mib))
    }
}

/// Runs the Hub session on stdin/stdout until `quit` or the end of input.
// Here in the library rather than in main.rs: the session's engines (every variant's search)
// are then compiled once, with the library's own searches, and not again in the binary.
pub fn run_hub_session() {
    let out = std::sync::Arc::new(polydam_protocol::io::Output::stdout());
    let input = std::io::BufReader::with_capacity(1 << 16, std::io::stdin());
    polydam_protocol::session::run(input, out);
}

/// [`run_hub_session`] with parameters set before the first line, each `NAME=VALUE` as
/// `set-param` takes it (`polydam hub --set book=false`); a bad one is an error before the
/// session starts.
pub fn run_hub_session_with(settings: &[String]) -> Result<(), CliError> {
    let mut params = polydam_protocol::params::Params::default();
    for setting in settings {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| CliError(format!("--set wants NAME=VALUE, got '{setting}'")))?;
        params
            .set(name.trim(), value)
            .map_err(|e| CliError(format!("--set {setting}: {e}")))?;
    }
    let out = std::sync::Arc::new(polydam_protocol::io::Output::stdout());
    let input = std::io::BufReader::with_capacity(1 << 16, std::io::stdin());
    polydam_protocol::session::run_with(input, out, params);
    Ok(())
}

/// `polydam variants`: one line per variant.
pub fn variants_text() -> String {
    use polydam_engine::variants::VARIANTS;
    let width = VARIANTS.iter().map(|v| v.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for v in VARIANTS {
        let aliases = if v.aliases.is_empty() {
            String::new()
        } else {
            format!(" (also: {})", v.aliases.join(", "))
        };
        out.push_str(&format!(
            "{:width$}  {:10}  {}{}\n",
            v.name,
            v.family.name(),
            v.description,
            aliases
        ));
    }
    out
}
