//! `polydam match`: games between Hub and DXP engines, refereed with Polydam's rules.
//!
//! Every pair of engines (a round robin when there are more than two) plays `games` games,
//! each opening twice with colours swapped. Worker threads (`concurrency`) each run their own
//! engine processes; results come back through a channel and are reported in game order. An
//! illegal move, a crash, a bare `done` or a late answer loses the game, is reported, and the
//! match goes on (a crashed or killed engine is restarted for the next game).
//!
//! The parts: [`MatchOptions`] and their checks (`options.rs`), the engines and the referee's
//! settings they give ([`settings`]), the openings ([`crate::openings`]), the schedule and the
//! worker threads (`games.rs`), each engine's process ([`engine`] for Hub, [`dxp_engine`] for
//! DXP, behind one [`player::Player`]), one game's refereeing ([`referee`]), the progress and
//! the PDN file while the match runs (`progress.rs`, [`crate::pdn`]), and the final report
//! (`report.rs`, [`stats`]).
//!
//! See `docs/match.md` for the options, the book format and the output.

pub mod dxp_engine;
pub mod engine;
mod games;
pub mod kept;
mod options;
pub mod player;
mod process;
mod progress;
pub mod referee;
mod report;
pub mod settings;
pub mod stats;

use std::collections::BTreeMap;
use std::io::Write;

use polydam_engine::game::Game;
use polydam_engine::variants::{dispatch, GameVisitor};

use self::progress::{PdnLog, Progress, StartTags};
use self::settings::{EngineSpec, RefereeConfig};
use super::CliError;
use crate::openings::{random_openings, read_book, Opening};
pub use options::MatchOptions;
use options::{engine_specs, handshake_timeout, referee_config, sprt_settings};

/// A match whose options have been checked, waiting for its variant's game type.
struct MatchJob<'a, W: Write> {
    opts: &'a MatchOptions,
    specs: Vec<EngineSpec>,
    config: RefereeConfig,
    sprt: Option<(f64, f64)>,
    out: &'a mut W,
}

impl<W: Write> GameVisitor for MatchJob<'_, W> {
    type Output = Result<(), CliError>;

    /// Starts the engines, plays every game, shows them as they end and prints the report.
    fn visit<G: Game>(self) -> Self::Output {
        let openings = load_openings::<G>(self.opts)?;
        let starts = StartTags::of(&openings);
        let config = self.config;
        let referee = games::referee(&openings, &config);
        let variant = (G::NAME, G::fen(&G::start()));
        run_games(self, variant, &starts, &referee)
    }
}

/// Starts the engines, plays every game with `referee`, shows them as they end and prints the
/// report: the match of `variant` (its name and start FEN) from openings with these `starts`.
/// Not generic in the game, so that it is compiled once.
fn run_games<W: Write>(
    job: MatchJob<'_, W>,
    variant: (&'static str, String),
    starts: &[StartTags],
    referee: &games::Referee<'_>,
) -> Result<(), CliError> {
    let o = job.opts;
    let timeout = handshake_timeout(o)?;
    let names = games::start_engines(&job.specs, variant.0, timeout)?;
    let skip = o.first_game - 1;
    let jobs = games::schedule(job.specs.len(), o.games, starts.len(), skip);
    let clock = matches!(
        job.config.time_control,
        Some(settings::TimeControl::Clock { .. })
    );
    let counts = (jobs.len(), skip + jobs.len());
    let progress = Progress::new(variant.0, &names, counts, o.quiet, clock);
    let name = variant.0;
    let mut pdn_log = PdnLog::create(o.pdn.as_deref(), variant, starts, &names, skip)?;
    let setup = games::Setup {
        variant: name,
        specs: &job.specs,
        referee,
        timeout,
    };
    let mut finished = BTreeMap::new();
    games::play_all(&setup, &jobs, o.concurrency, &mut |done| {
        progress.game_over(&done);
        finished.insert(done.job.number, done);
        pdn_log.catch_up(&finished);
    });
    progress.finish();
    let written = pdn_log.finish()?;
    let report = report::text(&report::Summary {
        variant: name,
        specs: &job.specs,
        names: &names,
        config: &job.config,
        games_per_pair: o.games,
        total: jobs.len(),
        finished: &finished,
        sprt: job.sprt.map(|(elo0, elo1)| (elo0, elo1, o.alpha, o.beta)),
        pdn: o.pdn.as_deref().map(|path| (path, written)),
    });
    let io = |e: std::io::Error| CliError(format!("cannot write output: {e}"));
    job.out.write_all(report.as_bytes()).map_err(io)?;
    job.out.flush().map_err(io)
}

/// The openings the options ask for: the book's, one random opening per pair of games, or
/// the start position alone.
fn load_openings<G: Game>(opts: &MatchOptions) -> Result<Vec<Opening<G>>, CliError> {
    // The openings of the games before the first one played too: the random ones come from
    // one stream, so that a slice of a match gets the openings the whole match gives it.
    let pairs_per_match = (opts.first_game - 1 + opts.games).div_ceil(2);
    match &opts.book {
        Some(path) => read_book::<G>(path),
        None if opts.random_plies > 0 => {
            random_openings::<G>(pairs_per_match, opts.random_plies, opts.seed)
        }
        None => Ok(vec![Opening {
            start: G::start(),
            moves: Vec::new(),
        }]),
    }
}

/// Runs `polydam match`, writing the report to `out` (the progress goes to stderr).
pub fn run_match(opts: &MatchOptions, mut out: &mut dyn Write) -> Result<(), CliError> {
    // Not generic in the writer, so that every variant's code is compiled once, here,
    // and not again in each caller.
    run_match_to(opts, &mut out)
}

fn run_match_to<W: Write>(opts: &MatchOptions, out: &mut W) -> Result<(), CliError> {
    let specs = engine_specs(opts)?;
    let config = referee_config(opts)?;
    let sprt = sprt_settings(opts)?;
    if opts.games == 0 {
        return Err(CliError("--games must be at least 1".into()));
    }
    if opts.first_game.is_multiple_of(2) {
        return Err(CliError(format!(
            "--first-game must be odd (a pair of games starts there), got {}",
            opts.first_game
        )));
    }
    if opts.first_game > 1 && specs.len() != 2 {
        return Err(CliError(
            "--first-game needs exactly two engines (a slice of a round robin is not one)".into(),
        ));
    }
    if opts.concurrency == 0 {
        return Err(CliError("--concurrency must be at least 1".into()));
    }
    dispatch(
        &opts.variant,
        MatchJob {
            opts,
            specs,
            config,
            sprt,
            out,
        },
    )?
}
