//! `polydam positions`: the front-end of [`crate::forge::positions`]: a book of balanced positions with
//! few pieces from selfplay data, for matches that must reach the endgame (the endgame
//! tables' match, docs/egtb.md). Writes the book, then a summary.

use std::io::Write;
use std::path::PathBuf;

use polydam_engine::game::Game;
use polydam_engine::variants::{dispatch, GameVisitor};

use super::CliError;
use crate::files::{refuse_input_as_output, OutputFile};
use crate::forge::positions::{collect, Entry, PositionsSpec};

/// Options of `polydam positions`.
#[derive(clap::Args, Clone, Debug)]
pub struct PositionsOptions {
    /// Variant name (see `polydam variants`); the data must be of this variant.
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: String,
    /// Selfplay data files (`polydam selfplay -o`), read in order; a game is a run of lines
    /// whose ply increases.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The book to write (replaced if it exists, once it is complete: through a temporary file
    /// renamed at the end): a comment line, then one position a line. Never one of the data
    /// files.
    #[arg(long, short = 'o')]
    pub output: PathBuf,
    /// Positions wanted.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Fewest pieces on the board (both sides).
    #[arg(long, default_value_t = 8)]
    pub min_pieces: u32,
    /// Most pieces on the board (both sides).
    #[arg(long, default_value_t = 12)]
    pub max_pieces: u32,
    /// Largest absolute score kept, in men, both the recorded one and the new search's.
    #[arg(long, default_value_t = 0.3)]
    pub max_score: f64,
    /// Smallest absolute score kept, in men (both scores): above 0 the book holds positions
    /// one side should win, for matches that test converting and defending them.
    #[arg(long, default_value_t = 0.0)]
    pub min_score: f64,
    /// Depth of the search that checks each candidate's balance.
    #[arg(long, short = 'd', default_value_t = 12)]
    pub depth: i32,
    /// Transposition table of that search, in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

struct PositionsJob<'a, W: Write> {
    opts: &'a PositionsOptions,
    out: &'a mut W,
}

impl<W: Write> GameVisitor for PositionsJob<'_, W> {
    type Output = Result<(), CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let o = self.opts;
        let spec = PositionsSpec {
            count: o.count,
            min_pieces: o.min_pieces,
            max_pieces: o.max_pieces,
            max_score: o.max_score,
            min_score: o.min_score,
            depth: o.depth,
            hash_mib: o.hash,
        };
        let (book, games_read) = collect::<G>(&spec, &o.data).map_err(|e| CliError(e.0))?;
        write_book(o, G::NAME, &book, games_read, self.out)
    }
}

/// Writes the `book` of `variant` (found in `games_read` games) and its summary on `out`; not
/// generic in the game, so that it is compiled once.
fn write_book(
    o: &PositionsOptions,
    variant: &str,
    book: &[Entry],
    games_read: usize,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let counts: Vec<u32> = (o.min_pieces..=o.max_pieces).collect();
    let io = |e: std::io::Error| CliError(format!("cannot write {}: {e}", o.output.display()));
    let mut file = OutputFile::create(&o.output)?;
    let data: Vec<String> = o
        .data
        .iter()
        .map(|p| {
            p.file_name()
                .map_or(p.display().to_string(), |n| n.to_string_lossy().into())
        })
        .collect();
    writeln!(
        file,
        "# polydam positions variant={} data={} count={} pieces={}-{} max-score={}{} depth={}",
        variant,
        data.join(","),
        o.count,
        o.min_pieces,
        o.max_pieces,
        o.max_score,
        if o.min_score > 0.0 {
            format!(" min-score={}", o.min_score)
        } else {
            String::new()
        },
        o.depth
    )
    .map_err(io)?;
    for (fen, _, _) in book {
        writeln!(file, "{fen}").map_err(io)?;
    }
    file.commit()?;

    let out_err = |e: std::io::Error| CliError(format!("cannot write output: {e}"));
    let per_count: Vec<String> = counts
        .iter()
        .map(|&n| format!("{n}:{}", book.iter().filter(|b| b.1 == n).count()))
        .collect();
    let mean = if book.is_empty() {
        0.0
    } else {
        book.iter().map(|b| b.2 as f64).sum::<f64>() / book.len() as f64
    };
    writeln!(
        out,
        "positions {} games-read {games_read} pieces {} mean-score {:.1}",
        book.len(),
        per_count.join(" "),
        mean
    )
    .map_err(out_err)?;
    writeln!(out, "output {}", o.output.display()).map_err(out_err)?;
    if book.len() < o.count {
        return Err(CliError(format!(
            "found {} positions of the {} asked: give more selfplay games",
            book.len(),
            o.count
        )));
    }
    Ok(())
}

/// Runs `polydam positions`: writes the book, then a summary on `out`.
pub fn run_positions(opts: &PositionsOptions, mut out: &mut dyn Write) -> Result<(), CliError> {
    run_positions_to(opts, &mut out)
}

fn run_positions_to<W: Write>(opts: &PositionsOptions, out: &mut W) -> Result<(), CliError> {
    refuse_input_as_output("-o", &opts.output, opts.data.iter().map(PathBuf::as_path))?;
    if opts.count == 0 {
        return Err(CliError("--count must be at least 1".into()));
    }
    if opts.min_pieces == 0 || opts.min_pieces > opts.max_pieces {
        return Err(CliError(format!(
            "--min-pieces ({}) must be at least 1 and at most --max-pieces ({})",
            opts.min_pieces, opts.max_pieces
        )));
    }
    if !opts.max_score.is_finite() || opts.max_score < 0.0 || opts.max_score > 100.0 {
        return Err(CliError(format!(
            "--max-score must be a number of men from 0 to 100, got {}",
            opts.max_score
        )));
    }
    if !opts.min_score.is_finite() || opts.min_score < 0.0 || opts.min_score > opts.max_score {
        return Err(CliError(format!(
            "--min-score must be a number of men from 0 to --max-score ({}), got {}",
            opts.max_score, opts.min_score
        )));
    }
    super::check_depth(Some(opts.depth))?;
    dispatch(
        &opts.variant,
        PositionsJob {
            opts,
            out: &mut *out,
        },
    )?
}
