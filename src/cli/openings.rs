//! `polydam openings`: the front-end of [`crate::forge::deck`]: a deck of balanced openings
//! (every distinct position a few plies from the start that a search finds balanced), written
//! as moves from the start for `polydam match --book`. Writes the deck, then a summary.

use std::io::Write;
use std::path::PathBuf;

use polydam_engine::game::Game;
use polydam_engine::variants::{dispatch, GameVisitor};

use super::CliError;
use crate::files::OutputFile;
use crate::forge::deck::{build, Deck, DeckSpec};

/// Most plies a deck may walk: the sequences grow about tenfold with each ply.
const MAX_PLIES: u32 = 6;

/// Options of `polydam openings`.
#[derive(clap::Args, Clone, Debug)]
pub struct OpeningsOptions {
    /// Variant name (see `polydam variants`).
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: String,
    /// The deck to write (replaced if it exists, once it is complete): comment lines, then one
    /// opening a line, its moves from the start and the search's score in braces.
    #[arg(long, short = 'o')]
    pub output: PathBuf,
    /// Plies from the start position (1 to 6).
    #[arg(long, default_value_t = 3)]
    pub plies: u32,
    /// Largest absolute score kept, in men, for the side to move after the opening.
    #[arg(long, default_value_t = 0.3)]
    pub max_score: f64,
    /// Depth of the search that judges each position.
    #[arg(long, short = 'd', default_value_t = 12)]
    pub depth: i32,
    /// Transposition table of that search, in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

struct OpeningsJob<'a> {
    opts: &'a OpeningsOptions,
    out: &'a mut dyn Write,
}

impl GameVisitor for OpeningsJob<'_> {
    type Output = Result<(), CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let o = self.opts;
        let spec = DeckSpec {
            plies: o.plies,
            max_score: o.max_score,
            depth: o.depth,
            hash_mib: o.hash,
        };
        let bar = super::counting_bar(0, "positions", o.quiet);
        let deck = build::<G>(&spec, &mut |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        })
        .map_err(|e| CliError(e.0))?;
        bar.finish_and_clear();
        write_deck(o, G::NAME, &deck, self.out)
    }
}

/// Writes the `deck` of `variant` and its summary on `out`; not generic in the game, so that
/// it is compiled once.
fn write_deck(
    o: &OpeningsOptions,
    variant: &str,
    deck: &Deck,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if deck.lines.is_empty() {
        return Err(CliError(format!(
            "none of the {} positions {} plies from the start scores within {} men at depth {}: \
             raise --max-score",
            deck.positions, o.plies, o.max_score, o.depth
        )));
    }
    let io = |e: std::io::Error| CliError(format!("cannot write {}: {e}", o.output.display()));
    let mut file = OutputFile::create(&o.output)?;
    writeln!(
        file,
        "# polydam openings variant={variant} plies={} max-score={} depth={}: {} of {} \
         positions ({} sequences)",
        o.plies,
        o.max_score,
        o.depth,
        deck.lines.len(),
        deck.positions,
        deck.sequences
    )
    .map_err(io)?;
    writeln!(
        file,
        "# Each line: the moves from the start, then the search's score in men for the side \
         to move after them."
    )
    .map_err(io)?;
    for line in &deck.lines {
        writeln!(
            file,
            "{} {{{:+.2}}}",
            line.moves.join(" "),
            f64::from(line.score) / 100.0
        )
        .map_err(io)?;
    }
    file.commit()?;
    let mean = deck
        .lines
        .iter()
        .map(|l| f64::from(l.score.abs()))
        .sum::<f64>()
        / deck.lines.len() as f64
        / 100.0;
    let out_err = |e: std::io::Error| CliError(format!("cannot write output: {e}"));
    writeln!(
        out,
        "openings {} positions {} sequences {} mean-abs-score {mean:.2}",
        deck.lines.len(),
        deck.positions,
        deck.sequences
    )
    .map_err(out_err)?;
    writeln!(out, "output {}", o.output.display()).map_err(out_err)
}

/// Runs `polydam openings`: writes the deck, then a summary on `out`.
pub fn run_openings(opts: &OpeningsOptions, out: &mut dyn Write) -> Result<(), CliError> {
    if opts.plies == 0 || opts.plies > MAX_PLIES {
        return Err(CliError(format!(
            "--plies must be from 1 to {MAX_PLIES}, got {}",
            opts.plies
        )));
    }
    if !opts.max_score.is_finite() || opts.max_score < 0.0 || opts.max_score > 100.0 {
        return Err(CliError(format!(
            "--max-score must be a number of men from 0 to 100, got {}",
            opts.max_score
        )));
    }
    super::check_depth(Some(opts.depth))?;
    dispatch(&opts.variant, OpeningsJob { opts, out })?
}
