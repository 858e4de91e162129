//! Endgame tables: win/draw/loss for every position of a few pieces, built by retrograde
//! analysis under the variant's own rules, stored compressed, probed by the search.
//!
//! - [`index`]: the perfect index of a material slice (men by their squares, then kings
//!   among the free squares), always from the side to move's view.
//! - [`codec`]: the file format (a run-length code over win/draw/loss in blocks of 4096
//!   positions with an offset table, so that one probe decodes a few hundred bytes at most),
//!   and the distance-to-conversion files.
//! - [`sidefile`]: files written and read through a trailing checksum.
//! - [`probe`]: the loaded tables and what the search asks of them.
//!
//! The tables are built and verified by the program's workshop (`polydam::forge::egtb`), which
//! writes the formats read here.
//!
//! A family takes part by implementing [`TableGame`] (the diagonal family in
//! `diagonal/retro.rs`, Turkish in `orthogonal/retro.rs`); the registry
//! (`crate::variants::dispatch_tables`) lists the variants that have tables. The format and the
//! measurements are in `docs/egtb.md`.

pub mod codec;
pub mod index;
pub mod probe;
pub mod sidefile;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::game::{Game, Outcome};
pub use index::{Board, Material, Placement, SliceIndex};
pub use probe::{dtc_missing, TableProbe, TableSet};

/// A table value, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Wdl {
    /// The side to move loses with best play.
    Loss = 0,
    /// Neither side can force a win.
    Draw = 1,
    /// The side to move wins with best play.
    Win = 2,
}

impl Wdl {
    /// The value from the other side's view.
    #[inline]
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// The value of a finished game's outcome.
    #[inline]
    pub fn of(outcome: Outcome) -> Wdl {
        match outcome {
            Outcome::Win => Wdl::Win,
            Outcome::Draw => Wdl::Draw,
            Outcome::Loss => Wdl::Loss,
        }
    }

    /// From the two low bits of a stored code (3 reads as a draw: never stored).
    #[inline]
    pub fn from_code(c: u8) -> Wdl {
        match c & 3 {
            0 => Wdl::Loss,
            2 => Wdl::Win,
            _ => Wdl::Draw,
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What goes wrong with tables: files that cannot be read, are damaged or missing, variants
/// without tables. Every message names the file and says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EgtbError {
    /// A file or directory that cannot be read or written.
    Io {
        /// The path.
        path: PathBuf,
        /// The system's message.
        error: String,
    },
    /// A file whose contents are not a valid table.
    Damaged {
        /// The path.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A table that a build or a verification needs is not there.
    Missing {
        /// The path.
        path: PathBuf,
    },
    /// A variant that has no endgame tables.
    Unsupported {
        /// The name asked for.
        variant: String,
        /// The variants that have tables, by registry name (the registry lists them).
        supported: Vec<&'static str>,
    },
    /// A request the tables cannot serve (too many pieces, a position they do not cover).
    Invalid(String),
}

impl fmt::Display for EgtbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EgtbError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            EgtbError::Damaged { path, why } => {
                write!(f, "{}: damaged table: {why}", path.display())
            }
            EgtbError::Missing { path } => write!(f, "{}: table missing", path.display()),
            EgtbError::Unsupported { variant, supported } => write!(
                f,
                "no endgame tables for variant '{variant}' (tables exist for {})",
                supported.join(", ")
            ),
            EgtbError::Invalid(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for EgtbError {}

impl EgtbError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, e: std::io::Error) -> EgtbError {
        EgtbError::Io {
            path: path.to_path_buf(),
            error: e.to_string(),
        }
    }

    /// A damaged file.
    pub fn damaged(path: &Path, why: impl Into<String>) -> EgtbError {
        EgtbError::Damaged {
            path: path.to_path_buf(),
            why: why.into(),
        }
    }
}

/// A family's side of the tables: its board in dense squares, how its positions turn into
/// placements and back, and the quiet moves played backward.
///
/// Placements are seen from the side to move, who plays as the family's White does (the
/// family's own orientation); [`Placement::flip`] turns the board by 180 degrees and swaps the
/// sides, which every rule of these families respects.
pub trait TableGame: Game {
    /// The dense board and where each side's men may stand.
    fn board() -> &'static Board;

    /// Whether the variant has positions of this material with the side to move first (both
    /// sides own a piece, and the variant's rules allow it: no kings in breakthrough, where
    /// the first king ends the game; not one piece each in Turkish, an immediate draw).
    fn slice_exists(m: Material) -> bool;

    /// The result of a position that needs no table: the side to move has no piece left, or
    /// the position decides the game by itself ([`Game::decided`]). `None` otherwise.
    fn terminal(p: &Placement) -> Option<Outcome>;

    /// The number of pieces on the board.
    fn piece_count(pos: &Self::Position) -> u32;

    /// The position of a placement with the family's White to move, for move generation only
    /// (its evaluation terms and key may be left out).
    fn position_of(p: &Placement) -> Self::Position;

    /// The placement of a real position, turned when the family's Black is to move.
    fn placement_of(pos: &Self::Position) -> Placement;

    /// The placement after `mv`, a legal move of `p`'s position, seen from the next side to
    /// move.
    fn child_of(p: &Placement, mv: &Self::Move) -> Placement;

    /// Whether `mv` keeps the material: a quiet move that crowns no man.
    fn stays(mv: &Self::Move) -> bool;

    /// Clears `out` and fills it with every predecessor of `p`, each once: the placements
    /// (seen from their own side to move, the opponent of `p`'s) from which a legal quiet move
    /// that crowns no man leads to `p`. Whether such a predecessor has a capture, which would
    /// forbid the quiet move, is not checked: the solver has decided those positions already.
    fn unmoves(p: &Placement, out: &mut Vec<Placement>);
}

/// Something to do with a variant that has tables.
pub trait TableVisitor {
    /// What the visit returns.
    type Output;
    /// Called with the variant's game type.
    fn visit<G: TableGame>(self) -> Self::Output;
}

/// The directory of a variant's tables under `dir`.
pub fn variant_dir(dir: &Path, variant: &str) -> PathBuf {
    dir.join(variant)
}

/// The path of a slice's file of kind `kind` in the variant directory `vdir`.
pub fn slice_path(vdir: &Path, m: Material, kind: codec::Kind) -> PathBuf {
    vdir.join(format!("{}.{}", m.name(), kind.extension()))
}

/// Every material of at most `pieces` pieces that the variant has, in build order: fewer
/// pieces first, then fewer men (a crowning leads to one man fewer), then by the counts.
pub fn slices<G: TableGame>(pieces: u32) -> Vec<Material> {
    let mut all = Vec::new();
    let max = index::MAX_SIDE_PIECES;
    for um in 0..=max {
        for uk in 0..=max {
            for tm in 0..=max {
                for tk in 0..=max {
                    let m = Material::new(um, uk, tm, tk);
                    if m.pieces() <= pieces
                        && m.side_pieces(0) > 0
                        && m.side_pieces(1) > 0
                        && G::slice_exists(m)
                    {
                        all.push(m);
                    }
                }
            }
        }
    }
    all.sort_by_key(|m| (m.pieces(), m.total_men(), *m));
    all
}
