//! Where the opening book is found: the one place that decides for the Hub session and every
//! command that plays (`polydam play`, `polydam dxp`).
//!
//! A file the user names is loaded, and an error when it cannot be. Otherwise the variant's
//! file in the data directory (`book/VARIANT.book` in [`crate::egtb::data_dir`]) is loaded
//! when it exists, else the book built into the program for the variant
//! ([`polydam_engine::book::embedded`]: International), else there is none.

use std::path::{Path, PathBuf};

use polydam_engine::book::{embedded, OpeningBook};
use polydam_engine::game::Game;

/// The default score margin of book moves, in hundredths of a man: moves within 0.05 of a man
/// of the best are played at random, so that games from the book do not all repeat.
pub const DEFAULT_MARGIN: i32 = 5;

/// The default book file of `variant` (a registry name), if there is a data directory.
pub fn default_book_file(variant: &str) -> Option<PathBuf> {
    crate::egtb::data_dir().map(|d| d.join("book").join(format!("{variant}.book")))
}

/// A book and where it came from (for messages).
pub struct LoadedBook<G: Game> {
    /// The book.
    pub book: OpeningBook<G>,
    /// Its file, or `built-in` for the embedded one.
    pub source: String,
}

/// Reads the book file at `path` for game `G`; the error names the file and the line.
pub fn read_book_file<G: Game>(path: &Path) -> Result<OpeningBook<G>, String> {
    let text = polydam_engine::files::read_text(path, polydam_engine::files::TEXT_LIMIT)
        .map_err(|e| format!("cannot read book {}: {e}", path.display()))?;
    OpeningBook::<G>::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The book of game `G`: the file `given` if any (an error if it cannot be read or parsed),
/// else the data directory's file for the variant when it exists, else the built-in one;
/// `Ok(None)` when the variant has none.
pub fn load<G: Game>(given: Option<&Path>) -> Result<Option<LoadedBook<G>>, String> {
    let file = given
        .map(Path::to_path_buf)
        .or_else(|| default_book_file(G::NAME).filter(|p| p.is_file()));
    if let Some(path) = file {
        return read_book_file::<G>(&path).map(|book| {
            Some(LoadedBook {
                book,
                source: path.display().to_string(),
            })
        });
    }
    match embedded(G::NAME) {
        Some(text) => OpeningBook::<G>::parse(text)
            .map(|book| {
                Some(LoadedBook {
                    book,
                    source: "built-in".to_string(),
                })
            })
            .map_err(|e| format!("built-in book: {e}")),
        None => Ok(None),
    }
}

/// What the user asked of the book: the Hub's `book` parameters, or the command line's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSettings {
    /// Whether to play from the book at all.
    pub enabled: bool,
    /// The book file named (`None`: the default, see [`load`]).
    pub file: Option<PathBuf>,
    /// Moves within this many hundredths of a man of the best are chosen at random.
    pub margin: i32,
    /// The seed of that choice; 0 for one from the clock.
    pub seed: u64,
}

impl Default for BookSettings {
    fn default() -> Self {
        BookSettings {
            enabled: true,
            file: None,
            margin: DEFAULT_MARGIN,
            seed: 0,
        }
    }
}

impl BookSettings {
    /// The seed to use: the one given, or one from the clock for 0.
    pub fn effective_seed(&self) -> u64 {
        if self.seed != 0 {
            return self.seed;
        }
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id()).rotate_left(32)
    }
}

/// A loaded book with the state of its choices: what the Hub engine and the commands that play
/// keep.
pub struct BookPlayer<G: Game> {
    loaded: Option<LoadedBook<G>>,
    /// The file asked for when `loaded` was loaded.
    loaded_for: Option<Option<PathBuf>>,
    settings: BookSettings,
    /// The `seed` setting the generator was last seeded for.
    seeded_for: Option<u64>,
    rng: polydam_engine::book::BookRng,
}

impl<G: Game> Default for BookPlayer<G> {
    fn default() -> Self {
        BookPlayer {
            loaded: None,
            loaded_for: None,
            settings: BookSettings {
                enabled: false,
                ..BookSettings::default()
            },
            seeded_for: None,
            rng: polydam_engine::book::BookRng::new(1),
        }
    }
}

impl<G: Game> BookPlayer<G> {
    /// Applies `settings`, loading the book when it is wanted and its file changed. On error
    /// nothing changes (the previous book, if any, stays) and the message says what is wrong.
    pub fn configure(&mut self, settings: &BookSettings) -> Result<(), String> {
        if settings.enabled && self.loaded_for.as_ref() != Some(&settings.file) {
            let loaded = load::<G>(settings.file.as_deref())?;
            self.loaded = loaded;
            self.loaded_for = Some(settings.file.clone());
        }
        if self.seeded_for != Some(settings.seed) {
            self.rng = polydam_engine::book::BookRng::new(settings.effective_seed());
            self.seeded_for = Some(settings.seed);
        }
        self.settings = settings.clone();
        Ok(())
    }

    /// The book move for `pos`, with its score and the book's source, when the book is on and
    /// has the position.
    pub fn choose(
        &mut self,
        pos: &G::Position,
    ) -> Option<(G::Move, polydam_engine::search::Score, &str)> {
        if !self.settings.enabled {
            return None;
        }
        let loaded = self.loaded.as_ref()?;
        let mv = loaded
            .book
            .choose(pos, self.settings.margin, &mut self.rng)?;
        let score = loaded
            .book
            .probe(pos)
            .iter()
            .find(|m| m.mv == mv)
            .map(|m| m.score)?;
        Some((mv, score, &loaded.source))
    }

    /// The loaded book's size and source, if one is loaded.
    pub fn describe(&self) -> Option<(usize, &str)> {
        self.loaded
            .as_ref()
            .map(|l| (l.book.len(), l.source.as_str()))
    }
}
