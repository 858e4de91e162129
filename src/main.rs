//! The `polydam` program: the Hub engine (default) and the command-line tools. Each subcommand's
//! options are a clap struct in its module under `polydam::cli`; this file only dispatches.

#![forbid(unsafe_code)]

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::{Parser, Subcommand};
use polydam::cli::{
    self, analyse::AnalyseOptions, bench::BenchOptions, matches::MatchOptions, perft::MovesOptions,
    perft::PerftOptions, play::PlayOptions, CliError,
};
use polydam_engine::learn::source::WeightsSource;
use polydam_engine::variants;

/// Polydam, a draughts engine for the whole draughts family.
#[derive(Parser, Debug)]
#[command(name = "polydam", version, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The learned evaluation's weights: `shipped` (built into the program), `none` (the
    /// hand evaluation only), or weights files FILE[,FILE...], each for the variant its
    /// header names (the others keep their shipped weights).
    #[arg(
        long,
        global = true,
        env = "POLYDAM_WEIGHTS",
        value_name = "SOURCE",
        default_value = "shipped"
    )]
    weights: String,
}

/// Options of `polydam hub`.
#[derive(clap::Args, Debug, Default)]
struct HubOptions {
    /// Set a parameter before the session starts, as `set-param name=NAME value=VALUE` would
    /// (repeatable): `--set book=false`, for an engine started by `polydam match`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Speak the Hub protocol (v2) on stdin/stdout: the engine as a GUI or pydraughts runs it.
    /// Also what a bare `polydam` does.
    Hub(HubOptions),
    /// Count move paths to a depth (one line per depth).
    Perft(PerftOptions),
    /// List the legal moves, one per line, sorted.
    Moves(MovesOptions),
    /// List the supported variants.
    Variants,
    /// Search a position, printing each completed iteration and the best move.
    Analyse(AnalyseOptions),
    /// Play against the engine in the terminal (type `help` at the prompt).
    Play(PlayOptions),
    /// Search fixed positions to a fixed depth with one thread; prints `nodes N` and `nps X`.
    Bench(BenchOptions),
    /// Play games between Hub engines (a round robin for more than two), refereed with
    /// Polydam's rules; prints W/D/L, score, Elo with its 95% interval and an optional SPRT.
    Match(Box<MatchOptions>),
    /// Play over DamExchange (DXP) with Kingsrow, Scan and other 10x10 programs, as initiator
    /// or follower, listening or connecting; every game is appended to a PDN file.
    Dxp(Box<cli::dxp::DxpOptions>),
    /// Play the engine against itself and write training data: quiet positions with the
    /// game's result and the search score (see docs/training.md).
    Selfplay(Box<cli::selfplay::SelfplayOptions>),
    /// Write balanced start positions with few pieces (8 to 12 by default), picked from
    /// selfplay games and checked by a search: openings for matches that reach the endgame.
    Positions(Box<cli::positions::PositionsOptions>),
    /// Write a deck of balanced openings for matches: every distinct position a few plies
    /// from the start that a search finds balanced, as moves from the start (see
    /// docs/match.md).
    Openings(Box<cli::openings::OpeningsOptions>),
    /// The opening book: grow it by the engine's own search, merge shards, show it (see
    /// docs/book.md).
    #[command(subcommand)]
    Book(cli::book::BookCommand),
    /// Endgame tables: build them by retrograde analysis, probe a position, verify them
    /// (see docs/egtb.md).
    #[command(subcommand)]
    Egtb(cli::egtb::EgtbCommand),
    /// Fit the weights of a linear evaluation to selfplay data (logistic regression); prints
    /// the training and validation loss per epoch and writes a weights file.
    Train(Box<cli::train::TrainOptions>),
    /// Serve a board in the browser for every variant (play, analyse, load FEN or PDN);
    /// prints the page's URL first (see docs/web.md).
    Serve(cli::serve::ServeOptions),
}

/// Standard output that notes a broken pipe (a reader such as `head` that stopped reading), so
/// that `main` can end quietly instead of reporting an error nobody asked about.
struct PipeOut<W: Write>(W);

/// Set when a write to standard output found the pipe closed.
static BROKEN_PIPE: AtomicBool = AtomicBool::new(false);

impl<W: Write> PipeOut<W> {
    fn note<T>(result: std::io::Result<T>) -> std::io::Result<T> {
        if let Err(e) = &result {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                BROKEN_PIPE.store(true, Ordering::Relaxed);
            }
        }
        result
    }
}

impl<W: Write> Write for PipeOut<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        Self::note(self.0.write(buf))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Self::note(self.0.flush())
    }
}

fn run(command: Command) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = PipeOut(stdout.lock());
    match command {
        Command::Hub(opts) => {
            drop(out);
            run_hub(&opts)
        }
        Command::Perft(opts) => cli::perft::run_perft(&opts, &mut out),
        Command::Moves(opts) => cli::perft::run_moves(&opts, &mut out),
        Command::Variants => out
            .write_all(cli::variants_text().as_bytes())
            .map_err(|e| CliError(format!("cannot write output: {e}"))),
        Command::Analyse(opts) => cli::analyse::run_analyse(&opts, &mut out),
        Command::Play(mut opts) => {
            // Escape codes only make sense on a terminal; piped output stays plain.
            opts.color &= std::io::stdout().is_terminal();
            // A person typing gets line editing and history; piped input is read as it is.
            if std::io::stdin().is_terminal() {
                cli::play::run_play_terminal(&opts, &mut out)
            } else {
                cli::play::run_play(&opts, &mut std::io::stdin().lock(), &mut out)
            }
        }
        Command::Bench(opts) => cli::bench::run_bench(&opts, &mut out),
        Command::Match(opts) => cli::matches::run_match(&opts, &mut out),
        Command::Dxp(opts) => cli::dxp::run_dxp(&opts, &mut out),
        Command::Selfplay(o) => cli::selfplay::run_selfplay(&o, &mut out),
        Command::Train(o) => cli::train::run_train(&o, &mut out),
        Command::Positions(o) => cli::positions::run_positions(&o, &mut out),
        Command::Openings(o) => cli::openings::run_openings(&o, &mut out),
        Command::Book(cmd) => cli::book::run_book(&cmd, &mut out),
        Command::Egtb(cmd) => cli::egtb::run_egtb(&cmd, &mut out),
        Command::Serve(opts) => cli::serve::run_serve(&opts, &mut out),
    }
}

/// Runs the Hub session on stdin/stdout; exits the process (status 0) when it ends, without
/// waiting for the input thread, which may still be blocked reading.
fn run_hub(opts: &HubOptions) -> Result<(), CliError> {
    if opts.set.is_empty() {
        cli::run_hub_session();
    } else {
        cli::run_hub_session_with(&opts.set)?;
    }
    std::process::exit(0);
}

/// What a bare `polydam` says on stderr when a person runs it on a terminal.
const HUB_NOTICE: &str = "polydam: speaking the Hub protocol on stdin/stdout (a GUI's engine \
command); type `quit` to leave. `polydam --help` lists the commands (`polydam play` to play \
in the terminal, `polydam serve` for a board in the browser).";

/// Installs the weights source `--weights` names.
fn set_weights(spec: &str) -> Result<(), CliError> {
    let source = WeightsSource::parse(spec).map_err(|e| CliError(format!("--weights: {e}")))?;
    variants::set_weights(source).map_err(|e| CliError(format!("--weights: {e}")))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli.command.unwrap_or_else(|| {
        if std::io::stdin().is_terminal() {
            // A person who typed `polydam` alone would otherwise face a silent wait.
            eprintln!("{HUB_NOTICE}");
        }
        Command::Hub(HubOptions::default())
    });
    match set_weights(&cli.weights).and_then(|()| run(command)) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`polydam moves ... | head`): nothing is wrong, nothing to say.
        Err(_) if BROKEN_PIPE.load(Ordering::Relaxed) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("polydam: {e}");
            ExitCode::from(2)
        }
    }
}
