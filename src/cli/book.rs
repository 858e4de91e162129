//! `polydam book grow|merge|show`: the opening book ([`polydam_engine::book`], docs/book.md),
//! grown best first by the engine's own search ([`crate::forge::opening`]), merged from shards,
//! and summarised.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use polydam_engine::book::OpeningBook;
use polydam_engine::game::{Game, MoveStyle};
use polydam_engine::variants::{dispatch, GameVisitor};
use polydam_protocol::book::DEFAULT_MARGIN;

use super::CliError;
use crate::files::{refuse_input_as_output, replace_with};
use crate::forge::opening::{grow, GrowSpec, GrowStats};

/// The subcommands of `polydam book`.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum BookCommand {
    /// Grow a book best first from the start position: score every move of the most likely
    /// positions not in the book yet by a search, and write the book (atomically).
    Grow(GrowOptions),
    /// Merge books into one: where several have a position, the deeper search's entry (the
    /// later file's when equally deep).
    Merge(MergeOptions),
    /// Summarise a book: positions, search depths, and the moves of one position.
    Show(ShowOptions),
}

/// Options of `polydam book grow`.
#[derive(clap::Args, Clone, Debug)]
pub struct GrowOptions {
    /// Variant name (see `polydam variants`).
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: String,
    /// The book to grow; it need not exist yet. Rewritten in place unless `-o` is given.
    #[arg(long)]
    pub book: PathBuf,
    /// Where to write the grown book (default: the `--book` file). Written to a temporary file
    /// and renamed, so an interrupted job never leaves a damaged book.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// New positions wanted.
    #[arg(long, default_value_t = 100)]
    pub positions: usize,
    /// Depth of the search scoring a position (each move's position is searched one less).
    #[arg(long, short = 'd', default_value_t = 12)]
    pub depth: i32,
    /// Moves within this many hundredths of a man of the best lead on to new positions.
    #[arg(long, default_value_t = 2 * DEFAULT_MARGIN)]
    pub margin: i32,
    /// This job's part `I/K` of the frontier (split by position key), to grow on K machines
    /// and merge the outputs with `polydam book merge`.
    #[arg(long, value_name = "I/K")]
    pub shard: Option<String>,
    /// Transposition table of the searches, in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Stop after this many seconds even if fewer positions were added.
    #[arg(long, value_name = "SECONDS")]
    pub max_time: Option<f64>,
    /// Save the book every this many seconds while growing (0: only at the end).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub save_every: f64,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Options of `polydam book merge`.
#[derive(clap::Args, Clone, Debug)]
pub struct MergeOptions {
    /// Variant name (default: the one the first book's header names, else International).
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// The books, in order.
    #[arg(required = true)]
    pub books: Vec<PathBuf>,
    /// The merged book to write (atomically, as `grow` writes; never one of the books read).
    #[arg(long, short = 'o')]
    pub output: PathBuf,
}

/// Options of `polydam book show`.
#[derive(clap::Args, Clone, Debug)]
pub struct ShowOptions {
    /// The book.
    pub book: PathBuf,
    /// Variant name (default: the one the book's header names, else International).
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// The position whose moves to print (FEN or Hub string; default: the start position).
    #[arg(long)]
    pub position: Option<String>,
}

/// Runs `polydam book ...`.
pub fn run_book(cmd: &BookCommand, out: &mut dyn Write) -> Result<(), CliError> {
    match cmd {
        BookCommand::Grow(o) => run_grow(o, out),
        BookCommand::Merge(o) => {
            refuse_input_as_output("-o", &o.output, o.books.iter().map(PathBuf::as_path))?;
            let variant = variant_of(o.variant.as_deref(), o.books.first())?;
            dispatch(&variant, MergeJob { opts: o, out })?
        }
        BookCommand::Show(o) => {
            let variant = variant_of(o.variant.as_deref(), Some(&o.book))?;
            dispatch(&variant, ShowJob { opts: o, out })?
        }
    }
}

/// The variant a book's header names (`variant=NAME` in a comment line), if any.
pub fn header_variant(text: &str) -> Option<String> {
    text.lines()
        .take_while(|l| l.trim_start().starts_with('#') || l.trim().is_empty())
        .flat_map(|l| l.split_whitespace())
        .find_map(|w| w.strip_prefix("variant=").map(str::to_string))
}

/// The variant given, else the one `book`'s header names, else International.
fn variant_of(given: Option<&str>, book: Option<&PathBuf>) -> Result<String, CliError> {
    if let Some(v) = given {
        return Ok(v.to_string());
    }
    let Some(path) = book else {
        return Ok("international".into());
    };
    let text = read(path)?;
    Ok(header_variant(&text).unwrap_or_else(|| "international".into()))
}

fn read(path: &Path) -> Result<String, CliError> {
    polydam_engine::files::read_text(path, polydam_engine::files::TEXT_LIMIT)
        .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))
}

/// Reads the book at `path`; the error names the file and the line.
fn read_book<G: Game>(path: &Path) -> Result<OpeningBook<G>, CliError> {
    polydam_protocol::book::read_book_file::<G>(path).map_err(CliError)
}

/// Writes `book` to `path` through a temporary file in the same directory and a rename, so
/// that `path` holds either the old book or the new one, never a part
/// ([`crate::files::OutputFile`]).
pub fn write_book_atomically<G: Game>(
    book: &OpeningBook<G>,
    header: &str,
    path: &Path,
) -> Result<(), CliError> {
    replace_with(path, &book.to_text(header))
}

/// Reads `I/K` (1 <= I <= K).
fn parse_shard(text: &str) -> Result<(u64, u64), CliError> {
    let bad = || CliError(format!("--shard must be I/K with 1 <= I <= K, got {text}"));
    let (i, k) = text.split_once('/').ok_or_else(bad)?;
    let i: u64 = i.trim().parse().map_err(|_| bad())?;
    let k: u64 = k.trim().parse().map_err(|_| bad())?;
    if i == 0 || k == 0 || i > k {
        return Err(bad());
    }
    Ok((i, k))
}

fn run_grow(o: &GrowOptions, out: &mut dyn Write) -> Result<(), CliError> {
    super::check_depth(Some(o.depth))?;
    if o.depth < 2 {
        return Err(CliError(format!(
            "--depth must be at least 2 (each move is searched one less), got {}",
            o.depth
        )));
    }
    if o.margin < 0 {
        return Err(CliError(format!(
            "--margin must not be negative, got {}",
            o.margin
        )));
    }
    if let Some(t) = o.max_time {
        if !t.is_finite() || t < 0.0 {
            return Err(CliError(format!("--max-time must be seconds, got {t}")));
        }
    }
    if !o.save_every.is_finite() || o.save_every < 0.0 {
        return Err(CliError(format!(
            "--save-every must be seconds, got {}",
            o.save_every
        )));
    }
    let shard = o.shard.as_deref().map(parse_shard).transpose()?;
    dispatch(
        &o.variant,
        GrowJob {
            opts: o,
            shard,
            out,
        },
    )?
}

struct GrowJob<'a> {
    opts: &'a GrowOptions,
    shard: Option<(u64, u64)>,
    out: &'a mut dyn Write,
}

impl GameVisitor for GrowJob<'_> {
    type Output = Result<(), CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let o = self.opts;
        let mut book = if o.book.exists() {
            read_book::<G>(&o.book)?
        } else {
            OpeningBook::<G>::new()
        };
        let before = book.len();
        let output = o.output.clone().unwrap_or_else(|| o.book.clone());
        let spec = GrowSpec {
            positions: o.positions,
            depth: o.depth,
            margin: o.margin,
            shard: self.shard,
            hash_mib: o.hash,
            max_time: o.max_time.map(Duration::from_secs_f64),
        };
        let shard_text = self
            .shard
            .map_or(String::new(), |(i, k)| format!(" shard={i}/{k}"));
        let header = |book: &OpeningBook<G>| {
            format!(
                "polydam opening book variant={} positions={}\n\
                 grown by: polydam book grow --depth {} --margin {}{shard_text}",
                G::NAME,
                book.len(),
                o.depth,
                o.margin
            )
        };
        let bar = super::counting_bar(o.positions, "positions", o.quiet);
        let started = Instant::now();
        let mut last_save = Instant::now();
        let mut save_error = None;
        let save_every = Duration::from_secs_f64(o.save_every);
        let stats = grow(
            &mut book,
            &spec,
            &mut |book: &OpeningBook<G>, stats: &GrowStats| {
                bar.set_position(stats.added as u64);
                bar.set_message(format!("ply {}", stats.max_ply));
                if o.save_every > 0.0 && last_save.elapsed() >= save_every {
                    last_save = Instant::now();
                    if let Err(e) = write_book_atomically(book, &header(book), &output) {
                        save_error.get_or_insert(e);
                    }
                }
            },
        )
        .map_err(CliError)?;
        bar.finish_and_clear();
        if let Some(e) = save_error {
            return Err(e);
        }
        write_book_atomically(&book, &header(&book), &output)?;
        let secs = started.elapsed().as_secs_f64();
        writeln!(
            self.out,
            "book {} positions ({} before, {} added) depth {} deepest ply {} frontier {} \
             nodes {} time {:.1}s ({:.2}s a position)",
            book.len(),
            before,
            stats.added,
            o.depth,
            stats.max_ply,
            stats.frontier,
            stats.nodes,
            secs,
            secs / stats.added.max(1) as f64
        )
        .map_err(|e| CliError(format!("cannot write output: {e}")))
    }
}

struct MergeJob<'a> {
    opts: &'a MergeOptions,
    out: &'a mut dyn Write,
}

impl GameVisitor for MergeJob<'_> {
    type Output = Result<(), CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let o = self.opts;
        let mut merged = OpeningBook::<G>::new();
        let mut read_total = 0;
        for path in &o.books {
            let book = read_book::<G>(path)?;
            read_total += book.len();
            merged.merge(book);
        }
        let header = format!(
            "polydam opening book variant={} positions={}\nmerged from {} books",
            G::NAME,
            merged.len(),
            o.books.len()
        );
        write_book_atomically(&merged, &header, &o.output)?;
        writeln!(
            self.out,
            "book {} positions from {} entries in {} books",
            merged.len(),
            read_total,
            o.books.len()
        )
        .map_err(|e| CliError(format!("cannot write output: {e}")))
    }
}

struct ShowJob<'a> {
    opts: &'a ShowOptions,
    out: &'a mut dyn Write,
}

impl GameVisitor for ShowJob<'_> {
    type Output = Result<(), CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let o = self.opts;
        let book = read_book::<G>(&o.book)?;
        let pos = match &o.position {
            Some(text) => {
                G::parse_position(text).map_err(|e| CliError(format!("--position {text}: {e}")))?
            }
            None => G::start(),
        };
        let text = show_text(&book, &pos);
        self.out
            .write_all(text.as_bytes())
            .map_err(|e| CliError(format!("cannot write output: {e}")))
    }
}

/// The summary `polydam book show` prints.
fn show_text<G: Game>(book: &OpeningBook<G>, pos: &G::Position) -> String {
    let mut out = format!("variant {}\npositions {}\n", G::NAME, book.len());
    let mut depths: std::collections::BTreeMap<i32, usize> = Default::default();
    let mut moves = 0;
    for e in book.entries() {
        *depths.entry(e.depth).or_default() += 1;
        moves += e.moves.len();
    }
    for (d, n) in &depths {
        out.push_str(&format!("depth {d}: {n} positions\n"));
    }
    if !book.is_empty() {
        out.push_str(&format!(
            "moves a position {:.1}\n",
            moves as f64 / book.len() as f64
        ));
    }
    out.push_str(&format!("position {}\n", G::fen(pos)));
    match book.get(pos) {
        None => out.push_str("not in the book\n"),
        Some(e) => {
            out.push_str(&format!("depth {}\n", e.depth));
            for m in &e.moves {
                let after = G::play(pos, &m.mv);
                let next = if book.contains(&after) {
                    " (in book)"
                } else {
                    ""
                };
                out.push_str(&format!(
                    "{:10} {:>7}{next}\n",
                    G::move_text(pos, &m.mv, MoveStyle::Hub),
                    m.score.hub()
                ));
            }
        }
    }
    out
}

/// The opening book options of the commands that play (`play`, `dxp`): the Hub's `book`
/// parameters on the command line. Named `--opening-book` because `polydam dxp --book` and
/// `polydam match --book` already mean start positions of games.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct BookArgs {
    /// The opening book (default: `book/VARIANT.book` in the data directory when it exists,
    /// else the built-in book of the variant, if any; see docs/book.md).
    #[arg(long, value_name = "FILE")]
    pub opening_book: Option<PathBuf>,
    /// Play without the opening book.
    #[arg(long, conflicts_with = "opening_book")]
    pub no_book: bool,
    /// Book moves within this many hundredths of a man of the best are chosen at random.
    #[arg(long, value_name = "CENTIMEN", default_value_t = DEFAULT_MARGIN)]
    pub book_margin: i32,
    /// The seed of that choice (0: from the clock).
    #[arg(long, value_name = "SEED", default_value_t = 0)]
    pub book_seed: u64,
}

impl Default for BookArgs {
    /// What the command line gives when no book option is given.
    fn default() -> Self {
        BookArgs {
            opening_book: None,
            no_book: false,
            book_margin: DEFAULT_MARGIN,
            book_seed: 0,
        }
    }
}

impl BookArgs {
    /// No book (for tests about the search).
    pub fn off() -> BookArgs {
        BookArgs {
            no_book: true,
            ..BookArgs::default()
        }
    }

    /// The settings these options give.
    pub fn settings(&self) -> polydam_protocol::book::BookSettings {
        polydam_protocol::book::BookSettings {
            enabled: !self.no_book,
            file: self.opening_book.clone(),
            margin: self.book_margin.max(0),
            seed: self.book_seed,
        }
    }

    /// The book of `G` as these options ask: a named book that cannot be loaded is an error;
    /// the default one is warned of on stderr and the command plays without it.
    pub fn open<G: Game>(&self) -> Result<polydam_protocol::book::BookPlayer<G>, CliError> {
        let mut player = polydam_protocol::book::BookPlayer::<G>::default();
        match player.configure(&self.settings()) {
            Ok(()) => Ok(player),
            Err(e) if self.opening_book.is_some() => Err(CliError(format!("--opening-book: {e}"))),
            Err(e) => {
                eprintln!("polydam: warning: {e}; playing without a book");
                Ok(polydam_protocol::book::BookPlayer::default())
            }
        }
    }
}
