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
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read book {}: {e}", path.display()))?;
    OpeningBook::<G>::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The book of game `G`: the file `given` if any (an error if it cannot be read or parsed),
/// else the data directory's file for the variant when it exists, else the built-in one;
/// `Ok(None)` when the variant has none.
pub fn load<G: Game>(given: Option<&Path>) -> Result<Option<LoadedBook<G>>, String> {
    if let Some(path) = given {
        return read_book_file::<G>(path).map(|book| {
            Some(LoadedBook {
                book,
                source: path.display().to_string(),
            })
        });
    }
    if let Some(path) = default_book_file(G::NAME).filter(|p| p.is_file()) {
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
