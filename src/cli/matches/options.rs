//! The options of `polydam match` (a clap struct) and their checks: the engines' commands,
//! parameters and names, the referee's settings and the SPRT bounds.

use std::path::PathBuf;
use std::time::Duration;

use polydam_protocol::lexer::excerpt;

use super::settings::{
    split_command, Adjudication, DxpTarget, EngineSpec, Protocol, RefereeConfig, TimeControl,
};
use crate::cli::CliError;

/// Options of `polydam match` (see docs/match.md).
#[derive(Clone, Debug, clap::Args)]
pub struct MatchOptions {
    /// Variant name (see `polydam variants`).
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: String,
    /// An engine command speaking Hub, e.g. "polydam hub" (split on spaces; "..." groups), or
    /// a DXP engine: "dxp:HOST:PORT" (running) or "dxp:CMD ARGS" (started, `{port}` replaced
    /// by a free port). Give it two or more times.
    #[arg(long = "engine", required = true)]
    pub engines: Vec<String>,
    /// An engine parameter sent as set-param: N:name=value (N = engine number from 1).
    #[arg(long = "engine-option", value_name = "N:NAME=VALUE")]
    pub engine_options: Vec<String>,
    /// An engine's name in the report and the PDN: N:name (default: its `id name=`).
    #[arg(long = "name", value_name = "N:NAME")]
    pub names: Vec<String>,
    /// Games per pair of engines (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Two engines: play games F to F+games-1 of a longer match (F odd, where a pair of
    /// games starts), with the openings, colours and game numbers that match gives them:
    /// the shards of one match (cluster/) play its games exactly.
    #[arg(long, value_name = "F", default_value_t = 1)]
    pub first_game: usize,
    /// Seconds per move (`level move-time`).
    #[arg(long)]
    pub movetime: Option<f64>,
    /// Clock per side and game in seconds (`level time= inc=`).
    #[arg(long)]
    pub time: Option<f64>,
    /// Clock increment per move in seconds.
    #[arg(long, default_value_t = 0.0)]
    pub inc: f64,
    /// Depth limit per move (`level depth`), alone or with a time limit.
    #[arg(long, short = 'd')]
    pub depth: Option<u32>,
    /// Node limit per move (`level nodes`), alone or with other limits: fixed-node matches
    /// for iterating, independent of the machine's load.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Seconds a move may take before a time forfeit, without a clock
    /// (default: max(1, 10 x movetime), or 60 with --depth or --nodes only).
    #[arg(long)]
    pub move_timeout: Option<f64>,
    /// Book of openings: one per line, a position, moves from the start, or POSITION;MOVES.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Random legal plies from the start as the opening of each pair of games (no book).
    #[arg(long, default_value_t = 0)]
    pub random_plies: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (each worker runs its own engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Adjudicate when both engines' scores agree for this many plies (0 = never).
    #[arg(long, default_value_t = 0)]
    pub adjudicate_plies: usize,
    /// Win adjudication: both scores at least this many men, same winner.
    #[arg(long, default_value_t = 5.0)]
    pub win_score: f64,
    /// Draw adjudication: both scores at most this many men.
    #[arg(long, default_value_t = 0.05)]
    pub draw_score: f64,
    /// No draw adjudication before this ply.
    #[arg(long, default_value_t = 80)]
    pub draw_min_plies: usize,
    /// A game still going after this many plies is drawn (the ply cap).
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// SPRT: elo0,elo1 (logistic Elo), e.g. 0,5.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// SPRT type I error.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// SPRT type II error.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Write every game to this PDN file.
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// No progress bar: a plain line per finished game on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Seconds each handshake answer (`wait`, `ready`) may take.
    #[arg(long, default_value_t = 10.0)]
    pub handshake_timeout: f64,
    /// With a clock: seconds past zero a move may arrive before it loses on time (one
    /// tolerance for the whole game; programs keeping their own clock may need more).
    #[arg(long, default_value_t = 0.1)]
    pub grace: f64,
}

impl Default for MatchOptions {
    fn default() -> Self {
        MatchOptions {
            variant: "international".into(),
            engines: Vec::new(),
            engine_options: Vec::new(),
            names: Vec::new(),
            games: 2,
            first_game: 1,
            movetime: None,
            time: None,
            inc: 0.0,
            depth: None,
            nodes: None,
            move_timeout: None,
            book: None,
            random_plies: 0,
            seed: 1,
            concurrency: 1,
            adjudicate_plies: 0,
            win_score: 5.0,
            draw_score: 0.05,
            draw_min_plies: 80,
            max_plies: 400,
            sprt: None,
            alpha: 0.05,
            beta: 0.05,
            pdn: None,
            quiet: false,
            handshake_timeout: 10.0,
            grace: 0.1,
        }
    }
}

/// Without a clock or move time (depth only), how long a move may take by default.
const DEPTH_TIMEOUT_SECS: f64 = 60.0;

/// `value` if it is a number of seconds (or men) from 0 to 1000000; else an error naming
/// the option.
fn positive(name: &str, value: f64) -> Result<f64, CliError> {
    if (0.0..=1e6).contains(&value) {
        Ok(value)
    } else {
        Err(CliError(format!(
            "{name} must be a number from 0 to 1000000, not {value}"
        )))
    }
}

/// `N:rest` with N an engine number from 1 to `count`.
fn engine_index<'a>(
    option: &str,
    text: &'a str,
    count: usize,
) -> Result<(usize, &'a str), CliError> {
    let bad = || {
        CliError(format!(
            "{option} '{}': expected N:..., with N an engine number from 1 to {count}",
            excerpt(text)
        ))
    };
    let (n, rest) = text.split_once(':').ok_or_else(bad)?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || n > count {
        return Err(bad());
    }
    Ok((n - 1, rest))
}

/// The engine specs from the options.
pub(super) fn engine_specs(opts: &MatchOptions) -> Result<Vec<EngineSpec>, CliError> {
    if opts.engines.len() < 2 {
        return Err(CliError(
            "a match needs at least two --engine options".into(),
        ));
    }
    let mut specs = Vec::new();
    for (i, text) in opts.engines.iter().enumerate() {
        let at = |e: String| CliError(format!("engine {}: {e}", i + 1));
        let (command, protocol) = match text.trim_start().strip_prefix("dxp:") {
            Some(rest) => (
                Vec::new(),
                Protocol::Dxp(DxpTarget::parse(rest).map_err(at)?),
            ),
            None => (split_command(text).map_err(at)?, Protocol::Hub),
        };
        if matches!(protocol, Protocol::Dxp(DxpTarget::Address(_))) && opts.concurrency > 1 {
            return Err(at(format!(
                "a running DXP engine ({}) plays one game at a time: use --concurrency 1, or \
                 give a command for the referee to start one per worker",
                excerpt(text)
            )));
        }
        specs.push(EngineSpec {
            command,
            protocol,
            name: None,
            options: Vec::new(),
        });
    }
    let count = specs.len();
    for text in &opts.engine_options {
        let (i, rest) = engine_index("--engine-option", text, count)?;
        let (name, value) = rest.split_once('=').ok_or_else(|| {
            CliError(format!(
                "--engine-option '{}': expected N:name=value",
                excerpt(text)
            ))
        })?;
        if name.trim().is_empty() {
            return Err(CliError(format!(
                "--engine-option '{}': empty parameter name",
                excerpt(text)
            )));
        }
        if specs[i].protocol != Protocol::Hub {
            return Err(CliError(format!(
                "--engine-option '{}': engine {} speaks DXP, which has no parameters (give \
                 them on its command line)",
                excerpt(text),
                i + 1
            )));
        }
        specs[i]
            .options
            .push((name.trim().to_owned(), value.trim().to_owned()));
    }
    for text in &opts.names {
        let (i, name) = engine_index("--name", text, count)?;
        specs[i].name = Some(name.trim().to_owned());
    }
    Ok(specs)
}

/// The referee's settings from the options.
pub(super) fn referee_config(opts: &MatchOptions) -> Result<RefereeConfig, CliError> {
    let time_control = match (opts.movetime, opts.time) {
        (Some(_), Some(_)) => {
            return Err(CliError("give --movetime or --time, not both".into()));
        }
        (Some(s), None) => Some(TimeControl::MoveTime(positive("--movetime", s)?)),
        // A clock of zero would lose every game on its first move: refused.
        (None, Some(t)) if t <= 0.0 => {
            return Err(CliError(format!(
                "--time must be a number of seconds above 0, up to 1000000, not {t}"
            )));
        }
        (None, Some(t)) => Some(TimeControl::Clock {
            time: positive("--time", t)?,
            inc: positive("--inc", opts.inc)?,
        }),
        (None, None) => None,
    };
    if time_control.is_none() && opts.depth.is_none() && opts.nodes.is_none() {
        return Err(CliError(
            "give a limit per move: --movetime, --time [--inc], --depth or --nodes".into(),
        ));
    }
    if opts.depth == Some(0) {
        return Err(CliError("--depth must be at least 1".into()));
    }
    if opts.nodes == Some(0) {
        return Err(CliError("--nodes must be at least 1".into()));
    }
    let default_timeout = match time_control {
        Some(TimeControl::MoveTime(s)) => (10.0 * s).max(1.0),
        _ => DEPTH_TIMEOUT_SECS,
    };
    let move_timeout = match opts.move_timeout {
        Some(s) => positive("--move-timeout", s)?,
        None => default_timeout,
    };
    let adjudication = if opts.adjudicate_plies > 0 {
        Some(Adjudication {
            plies: opts.adjudicate_plies,
            win_score: positive("--win-score", opts.win_score)?,
            draw_score: positive("--draw-score", opts.draw_score)?,
            draw_min_plies: opts.draw_min_plies,
        })
    } else {
        None
    };
    if opts.max_plies == 0 {
        return Err(CliError("--max-plies must be at least 1".into()));
    }
    Ok(RefereeConfig {
        time_control,
        depth: opts.depth,
        nodes: opts.nodes,
        move_timeout: Duration::from_secs_f64(move_timeout),
        grace: Duration::from_secs_f64(positive("--grace", opts.grace)?),
        max_plies: opts.max_plies,
        adjudication,
    })
}

/// The SPRT bounds and error rates, if asked for.
pub(super) fn sprt_settings(opts: &MatchOptions) -> Result<Option<(f64, f64)>, CliError> {
    let Some(text) = &opts.sprt else {
        return Ok(None);
    };
    let bad = || {
        CliError(format!(
            "--sprt '{}': expected elo0,elo1 with elo0 < elo1",
            excerpt(text)
        ))
    };
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let elo0: f64 = a.trim().parse().map_err(|_| bad())?;
    let elo1: f64 = b.trim().parse().map_err(|_| bad())?;
    if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
        return Err(bad());
    }
    for (name, p) in [("--alpha", opts.alpha), ("--beta", opts.beta)] {
        if !(p > 0.0 && p < 0.5) {
            return Err(CliError(format!(
                "{name} must be between 0 and 0.5, not {p}"
            )));
        }
    }
    Ok(Some((elo0, elo1)))
}

/// The time each handshake answer may take.
pub(super) fn handshake_timeout(opts: &MatchOptions) -> Result<Duration, CliError> {
    Ok(Duration::from_secs_f64(positive(
        "--handshake-timeout",
        opts.handshake_timeout,
    )?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_options_and_names() {
        let opts = MatchOptions {
            engines: vec!["a hub".into(), "\"b c\" hub".into()],
            engine_options: vec!["2:hash=16".into()],
            names: vec!["1:Alpha".into()],
            ..MatchOptions::default()
        };
        let specs = engine_specs(&opts).unwrap();
        assert_eq!(specs[1].command, ["b c", "hub"]);
        assert_eq!(specs[1].options, [("hash".to_owned(), "16".to_owned())]);
        assert_eq!(specs[0].name.as_deref(), Some("Alpha"));
        let bad = MatchOptions {
            engine_options: vec!["3:x=1".into()],
            ..opts.clone()
        };
        assert!(engine_specs(&bad).is_err());
        let bad = MatchOptions {
            engine_options: vec!["1:x".into()],
            ..opts
        };
        assert!(engine_specs(&bad).is_err());
    }

    #[test]
    fn dxp_engines() {
        let opts = MatchOptions {
            engines: vec![
                "dxp:127.0.0.1:27531".into(),
                "dxp:polydam dxp --listen {port}".into(),
            ],
            ..MatchOptions::default()
        };
        let specs = engine_specs(&opts).unwrap();
        assert_eq!(
            specs[0].protocol,
            Protocol::Dxp(DxpTarget::Address("127.0.0.1:27531".into()))
        );
        assert_eq!(specs[0].display(), "dxp:127.0.0.1:27531");
        assert_eq!(specs[1].display(), "dxp:polydam dxp --listen {port}");
        let bad = MatchOptions {
            engine_options: vec!["1:hash=8".into()],
            ..opts.clone()
        };
        assert!(engine_specs(&bad).unwrap_err().0.contains("speaks DXP"));
        let bad = MatchOptions {
            concurrency: 2,
            ..opts
        };
        assert!(engine_specs(&bad)
            .unwrap_err()
            .0
            .contains("--concurrency 1"));
    }

    /// `MatchOptions::default()` (used by tests and library callers) gives clap's defaults.
    #[test]
    fn default_is_what_the_command_line_gives() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            opts: MatchOptions,
        }
        let parsed = <Cli as clap::Parser>::try_parse_from(["match", "--engine", "a"])
            .unwrap()
            .opts;
        let default = MatchOptions {
            engines: vec!["a".into()],
            ..MatchOptions::default()
        };
        assert_eq!(format!("{parsed:?}"), format!("{default:?}"));
    }
}
