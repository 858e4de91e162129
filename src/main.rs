//! The `polydam` program: the Hub engine (default) and the command-line tools.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use polydam::cli::play::{EngineSide, PlayOptions};
use polydam::cli::{
    self, analyse::AnalyseOptions, matches::MatchOptions, perft::PerftOptions, CliError,
};
use polydam_engine::game::Duplicates;

/// Polydam, a draughts engine for the whole draughts family.
#[derive(Parser, Debug)]
#[command(name = "polydam", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum DupArg {
    /// Capture paths with the same start, end and captured set count once.
    Drop,
    /// Every capture path counts.
    Keep,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum SideArg {
    /// The engine plays White.
    White,
    /// The engine plays Black.
    Black,
    /// No engine: two people play.
    None,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Speak the Hub protocol (v2) on stdin/stdout: the engine as a GUI or pydraughts runs it.
    /// Also what a bare `polydam` does.
    Hub,
    /// Count move paths to a depth (one line per depth).
    Perft {
        /// Variant name (see `polydam variants`).
        #[arg(long, short = 'v', default_value = "international")]
        variant: String,
        /// Start position: PDN FEN (`W:W31-50:B1-20`) or Hub string.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play from that position first, space-separated.
        #[arg(long)]
        moves: Option<String>,
        /// Last depth to count.
        #[arg(long, short = 'd')]
        depth: u32,
        /// Duplicate capture paths: drop (as the engine plays) or keep.
        #[arg(long, value_enum, default_value = "drop")]
        duplicates: DupArg,
        /// Print the count of each root move at the last depth.
        #[arg(long)]
        divide: bool,
        /// Worker threads (the work is split by the positions two plies deep).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// List the legal moves, one per line, sorted.
    Moves {
        /// Variant name.
        #[arg(long, short = 'v', default_value = "international")]
        variant: String,
        /// Position: PDN FEN or Hub string.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first.
        #[arg(long)]
        moves: Option<String>,
        /// Print PDN form (landing squares; algebraic in Russian and Czech) instead of Hub form.
        #[arg(long)]
        pdn: bool,
    },
    /// List the supported variants.
    Variants,
    /// Search a position, printing each completed iteration and the best move.
    Analyse {
        /// Variant name.
        #[arg(long, short = 'v', default_value = "international")]
        variant: String,
        /// Position: PDN FEN or Hub string.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first.
        #[arg(long)]
        moves: Option<String>,
        /// Last iteration to search (14 when no limit is given).
        #[arg(long, short = 'd')]
        depth: Option<i32>,
        /// Time to search, in seconds.
        #[arg(long)]
        movetime: Option<f64>,
        /// Nodes to search.
        #[arg(long)]
        nodes: Option<u64>,
        /// Search threads.
        #[arg(long, short = 't', default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// Play against the engine in the terminal (type `help` at the prompt).
    Play {
        /// Variant name.
        #[arg(long, short = 'v', default_value = "international")]
        variant: String,
        /// Start position: PDN FEN or Hub string.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first.
        #[arg(long)]
        moves: Option<String>,
        /// The engine's side (`none`: two people play).
        #[arg(long, value_enum, default_value = "black")]
        engine_side: SideArg,
        /// Seconds per engine move (1 when neither this nor --depth is given).
        #[arg(long)]
        movetime: Option<f64>,
        /// Search depth per engine move.
        #[arg(long, short = 'd')]
        depth: Option<i32>,
        /// Draw the board in plain ASCII (w b W B).
        #[arg(long)]
        ascii: bool,
        /// Colour the last move (only when the output is a terminal).
        #[arg(long)]
        color: bool,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
    },
    /// Search fixed positions to a fixed depth with one thread; prints `nodes N` and `nps X`.
    Bench {
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
    },
    /// Play games between Hub engines (a round robin for more than two), refereed with
    /// Polydam's rules; prints W/D/L, score, Elo with its 95% interval and an optional SPRT.
    Match(Box<MatchArgs>),
    /// Play the engine against itself and write training data: quiet positions with the
    /// game's result and the search score (see docs/training.md).
    Selfplay(Box<cli::selfplay::SelfplayOptions>),
    /// Fit the weights of a linear evaluation to selfplay data (logistic regression); prints
    /// the training and validation loss per epoch and writes a weights file.
    Train(Box<cli::train::TrainOptions>),
}

/// The options of `polydam match` (see docs/match.md).
#[derive(clap::Args, Debug)]
struct MatchArgs {
    /// Variant name (see `polydam variants`).
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// An engine command speaking Hub, e.g. "polydam hub" (split on spaces; "..." groups).
    /// Give it two or more times.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// An engine parameter sent as set-param: N:name=value (N = engine number from 1).
    #[arg(long = "engine-option", value_name = "N:NAME=VALUE")]
    engine_options: Vec<String>,
    /// An engine's name in the report and the PDN: N:name (default: its `id name=`).
    #[arg(long = "name", value_name = "N:NAME")]
    names: Vec<String>,
    /// Games per pair of engines (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Seconds per move (`level move-time`).
    #[arg(long)]
    movetime: Option<f64>,
    /// Clock per side and game in seconds (`level time= inc=`).
    #[arg(long)]
    time: Option<f64>,
    /// Clock increment per move in seconds.
    #[arg(long, default_value_t = 0.0)]
    inc: f64,
    /// Depth limit per move (`level depth`), alone or with a time limit.
    #[arg(long, short = 'd')]
    depth: Option<u32>,
    /// Seconds a move may take before a time forfeit, without a clock
    /// (default: max(1, 10 x movetime), or 60 with --depth only).
    #[arg(long)]
    move_timeout: Option<f64>,
    /// Book of openings: one per line, a position, moves from the start, or POSITION;MOVES.
    #[arg(long)]
    book: Option<std::path::PathBuf>,
    /// Random legal plies from the start as the opening of each pair of games (no book).
    #[arg(long, default_value_t = 0)]
    random_plies: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (each worker runs its own engine processes).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Adjudicate when both engines' scores agree for this many plies (0 = never).
    #[arg(long, default_value_t = 0)]
    adjudicate_plies: usize,
    /// Win adjudication: both scores at least this many men, same winner.
    #[arg(long, default_value_t = 5.0)]
    win_score: f64,
    /// Draw adjudication: both scores at most this many men.
    #[arg(long, default_value_t = 0.05)]
    draw_score: f64,
    /// No draw adjudication before this ply.
    #[arg(long, default_value_t = 80)]
    draw_min_plies: usize,
    /// A game still going after this many plies is drawn (the ply cap).
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// SPRT: elo0,elo1 (logistic Elo), e.g. 0,5.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    sprt: Option<String>,
    /// SPRT type I error.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// SPRT type II error.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Write every game to this PDN file.
    #[arg(long)]
    pdn: Option<std::path::PathBuf>,
    /// No progress bar: a plain line per finished game on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Seconds each handshake answer (`wait`, `ready`) may take.
    #[arg(long, default_value_t = 10.0)]
    handshake_timeout: f64,
}

fn run(cli: Cli) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match cli.command {
        None | Some(Command::Hub) => {
            drop(out);
            run_hub()
        }
        Some(Command::Perft {
            variant,
            fen,
            moves,
            depth,
            duplicates,
            divide,
            threads,
        }) => {
            let duplicates = match duplicates {
                DupArg::Drop => Duplicates::Drop,
                DupArg::Keep => Duplicates::Keep,
            };
            let opts = PerftOptions {
                variant,
                fen,
                moves,
                depth,
                duplicates,
                divide,
                threads,
            };
            cli::perft::run_perft(&opts, &mut out)
        }
        Some(Command::Moves {
            variant,
            fen,
            moves,
            pdn,
        }) => cli::perft::run_moves(&variant, fen.as_deref(), moves.as_deref(), pdn, &mut out),
        Some(Command::Analyse {
            variant,
            fen,
            moves,
            depth,
            movetime,
            nodes,
            threads,
            hash,
        }) => {
            let opts = AnalyseOptions {
                variant,
                fen,
                moves,
                depth,
                movetime,
                nodes,
                threads,
                hash_mib: hash,
            };
            cli::analyse::run_analyse(&opts, &mut out)
        }
        Some(Command::Play {
            variant,
            fen,
            moves,
            engine_side,
            movetime,
            depth,
            ascii,
            color,
            hash,
        }) => {
            use std::io::IsTerminal;
            let opts = PlayOptions {
                variant,
                fen,
                moves,
                engine_side: match engine_side {
                    SideArg::White => EngineSide::White,
                    SideArg::Black => EngineSide::Black,
                    SideArg::None => EngineSide::None,
                },
                movetime,
                depth,
                ascii,
                // Escape codes only make sense on a terminal; piped output stays plain.
                color: color && std::io::stdout().is_terminal(),
                hash_mib: hash,
            };
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            cli::play::run_play(&opts, &mut input, &mut out)
        }
        Some(Command::Match(m)) => {
            let m = *m;
            let opts = MatchOptions {
                variant: m.variant,
                engines: m.engines,
                engine_options: m.engine_options,
                names: m.names,
                games: m.games,
                movetime: m.movetime,
                time: m.time,
                inc: m.inc,
                depth: m.depth,
                move_timeout: m.move_timeout,
                book: m.book,
                random_plies: m.random_plies,
                seed: m.seed,
                concurrency: m.concurrency,
                adjudicate_plies: m.adjudicate_plies,
                win_score: m.win_score,
                draw_score: m.draw_score,
                draw_min_plies: m.draw_min_plies,
                max_plies: m.max_plies,
                sprt: m.sprt,
                alpha: m.alpha,
                beta: m.beta,
                pdn: m.pdn,
                quiet: m.quiet,
                handshake_timeout: m.handshake_timeout,
            };
            cli::matches::run_match(&opts, &mut out)
        }
        Some(Command::Selfplay(o)) => cli::selfplay::run_selfplay(&o, &mut out),
        Some(Command::Train(o)) => cli::train::run_train(&o, &mut out),
        Some(Command::Bench { hash }) => cli::bench::run_bench(hash, &mut out),
        Some(Command::Variants) => out
            .write_all(cli::variants_text().as_bytes())
            .map_err(|e| CliError(format!("cannot write output: {e}"))),
    }
}

/// Runs the Hub session on stdin/stdout; exits the process (status 0) when it ends, without
/// waiting for the input thread, which may still be blocked reading.
fn run_hub() -> Result<(), CliError> {
    let out = std::sync::Arc::new(polydam_protocol::io::Output::stdout());
    let input = std::io::BufReader::with_capacity(1 << 16, std::io::stdin());
    polydam_protocol::session::run(input, out);
    std::process::exit(0);
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("polydam: {e}");
            ExitCode::from(2)
        }
    }
}
