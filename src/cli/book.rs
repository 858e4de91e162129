//! `polydam book`: a book of balanced positions with few pieces, taken from selfplay games
//! (`polydam selfplay` data files), for matches that must reach the endgame (the endgame
//! tables' match, docs/egtb.md).
//!
//! Each game of the data gives at most one position: the first one, in game order, that has
//! the piece count the book wants next (the counts cycle through `--min-pieces..=--max-pieces`
//! so that the book spreads over them; a game without that count gives its first position of
//! any count in range), no capture for either side, a recorded score within `--max-score` (and
//! at least `--min-score`), and, searched again to `--depth` (one thread, a fresh table), a
//! score still within those bounds. Positions already in the book are skipped. The output
//! depends only on the data and the options.

use std::io::Write;
use std::path::PathBuf;

use polydam_engine::game::Game;
use polydam_engine::learn::data::DataLine;
use polydam_engine::record::GameRecord;
use polydam_engine::search::{Limits, SearchControl, Searcher};
use polydam_engine::variants::{dispatch, GameVisitor};

use super::CliError;

/// Options of `polydam book`.
#[derive(clap::Args, Clone, Debug)]
pub struct BookOptions {
    /// Variant name (see `polydam variants`); the data must be of this variant.
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: String,
    /// Selfplay data files (`polydam selfplay -o`), read in order; a game is a run of lines
    /// whose ply increases.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The book to write (replaced if it exists): a comment line, then one position a line.
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

/// A candidate line of the data, already parsed.
struct Candidate {
    position: String,
    score: i32,
}

/// Splits data text into games: a game is a run of lines whose ply increases.
fn games_of(text: &str, name: &str) -> Result<Vec<Vec<Candidate>>, CliError> {
    let mut games: Vec<Vec<Candidate>> = Vec::new();
    let mut last_ply = None;
    for (i, line) in text.lines().enumerate() {
        let parsed =
            DataLine::parse(line).map_err(|e| CliError(format!("{name} line {}: {e}", i + 1)))?;
        let Some(d) = parsed else {
            continue;
        };
        if last_ply.is_none_or(|p| d.ply <= p) {
            games.push(Vec::new());
        }
        last_ply = Some(d.ply);
        if let Some(g) = games.last_mut() {
            g.push(Candidate {
                position: d.position,
                score: d.score,
            });
        }
    }
    Ok(games)
}

/// Pieces on the board, both sides.
fn pieces<G: Game>(pos: &G::Position) -> u32 {
    G::board_view(pos, None)
        .cells
        .iter()
        .filter(|c| c.piece.is_some())
        .count() as u32
}

/// The first position of `game` that the book takes: `want` pieces (or any count in range),
/// no capture for either side, balanced by its recorded score and by a new search, not in
/// `book` yet. Returns its FEN, pieces and new score.
fn pick<G: Game>(
    game: &[Candidate],
    name: &str,
    want: Option<u32>,
    o: &BookOptions,
    searcher: &mut Searcher<G>,
    book: &[(String, u32, i32)],
) -> Result<Option<(String, u32, i32)>, CliError> {
    let limit = (o.max_score * 100.0).round() as i32;
    let floor = (o.min_score * 100.0).round() as i32;
    let control = SearchControl::new();
    for c in game {
        if c.score.abs() > limit || c.score.abs() < floor {
            continue;
        }
        let pos = G::parse_position(&c.position).map_err(|e| {
            CliError(format!(
                "{name}: '{}' is not a {} position: {e}",
                c.position,
                G::NAME
            ))
        })?;
        let n = pieces::<G>(&pos);
        if want.is_some_and(|w| w != n)
            || !(o.min_pieces..=o.max_pieces).contains(&n)
            || G::has_capture(&pos)
            || G::capture_threat(&pos)
            || G::decided(&pos).is_some()
            || !G::has_move(&pos)
        {
            continue;
        }
        let fen = G::fen(&pos);
        if book.iter().any(|b| b.0 == fen) {
            continue;
        }
        searcher.clear();
        let r = searcher.search(
            &GameRecord::new(pos),
            &Limits::depth(o.depth),
            &control,
            &mut |_| {},
        );
        let a = r.score.centi().abs();
        if (floor..=limit).contains(&a) {
            return Ok(Some((fen, n, r.score.centi())));
        }
    }
    Ok(None)
}

struct BookJob<'a, W: Write> {
    opts: &'a BookOptions,
    out: &'a mut W,
}

impl<W: Write> GameVisitor for BookJob<'_, W> {
    type Output = Result<(), CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let o = self.opts;
        let mut searcher = Searcher::<G>::try_new(o.hash, 1)?;
        let counts: Vec<u32> = (o.min_pieces..=o.max_pieces).collect();
        let mut book: Vec<(String, u32, i32)> = Vec::new();
        let mut games_read = 0usize;
        'files: for path in &o.data {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError(format!("cannot read {name}: {e}")))?;
            for game in games_of(&text, &name)? {
                if book.len() >= o.count {
                    break 'files;
                }
                games_read += 1;
                let want = counts[book.len() % counts.len()];
                // The count wanted next if the game has one that passes, else any in range.
                for exact in [true, false] {
                    if let Some(entry) =
                        pick::<G>(&game, &name, exact.then_some(want), o, &mut searcher, &book)?
                    {
                        book.push(entry);
                        break;
                    }
                }
            }
        }
        let io = |e: std::io::Error| CliError(format!("cannot write {}: {e}", o.output.display()));
        let mut file = std::io::BufWriter::new(std::fs::File::create(&o.output).map_err(io)?);
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
            "# polydam book variant={} data={} count={} pieces={}-{} max-score={}{} depth={}",
            G::NAME,
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
        for (fen, _, _) in &book {
            writeln!(file, "{fen}").map_err(io)?;
        }
        file.flush().map_err(io)?;

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
            self.out,
            "positions {} games-read {games_read} pieces {} mean-score {:.1}",
            book.len(),
            per_count.join(" "),
            mean
        )
        .map_err(out_err)?;
        writeln!(self.out, "output {}", o.output.display()).map_err(out_err)?;
        if book.len() < o.count {
            return Err(CliError(format!(
                "found {} positions of the {} asked: give more selfplay games",
                book.len(),
                o.count
            )));
        }
        Ok(())
    }
}

/// Runs `polydam book`: writes the book, then a summary on `out`.
pub fn run_book(opts: &BookOptions, mut out: &mut dyn Write) -> Result<(), CliError> {
    run_book_to(opts, &mut out)
}

fn run_book_to<W: Write>(opts: &BookOptions, out: &mut W) -> Result<(), CliError> {
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
        BookJob {
            opts,
            out: &mut *out,
        },
    )?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_split_where_the_ply_falls() {
        let text = "# polydam selfplay variant=international\n\
                    W:W31:B20 1 10 8\nB:W27:B20 0 -10 9\nW:W31:B20 0.5 0 8\nB:W31:B19 0.5 0 9\n";
        let games = games_of(text, "t").expect("parses");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].len(), 2);
        assert_eq!(games[1][1].position, "B:W31:B19");
        let bad = games_of("W:W31:B20 2 10 8\n", "t")
            .err()
            .expect("bad result");
        assert!(bad.0.contains("t line 1"), "{bad}");
    }
}
