//! The variant registry: every game Polydam plays, listed once.
//!
//! A row holds the cold data (name, aliases, family, one-line description) and the game type
//! that carries the hot rules. [`dispatch`] turns a name into a call of a generic function on
//! the fully monomorphised game, once (at `init`, or when a command starts).

use std::fmt;

use crate::diagonal::{rules as dr, Diagonal};
use crate::game::{DrawRules, Game};

/// The four families of the project; each is one implementation of [`Game`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Men and kings on the dark squares of 8x8 and 10x10 boards.
    Diagonal,
    /// Turkish draughts and the Gothic games on all 64 squares.
    Orthogonal,
    /// Seesaw Draughts: stacks on the dark squares.
    Stacks,
    /// Hex Seesaw: tiles and stacks on a hexhex board.
    Hex,
}

impl Family {
    /// The family's name as printed.
    pub fn name(self) -> &'static str {
        match self {
            Family::Diagonal => "diagonal",
            Family::Orthogonal => "orthogonal",
            Family::Stacks => "stacks",
            Family::Hex => "hex",
        }
    }
}

/// One registry row.
#[derive(Clone, Copy)]
pub struct VariantEntry {
    /// The canonical name (as in the rule cards).
    pub name: &'static str,
    /// Other names accepted (`normal`, `losing`, ...).
    pub aliases: &'static [&'static str],
    /// The family.
    pub family: Family,
    /// One line for `polydam variants`.
    pub description: &'static str,
    /// The start position as the family's FEN.
    pub start_fen: fn() -> String,
    /// The draw rules.
    pub draw_rules: fn() -> DrawRules,
}

impl fmt::Debug for VariantEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VariantEntry")
            .field("name", &self.name)
            .field("family", &self.family)
            .finish()
    }
}

/// A name that is no registered variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown: String = self.0.chars().take(40).collect();
        write!(
            f,
            "unknown variant '{shown}' (known: {})",
            names().join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

/// Something to do with a game type chosen at run time.
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Called with the variant's game type.
    fn visit<G: Game>(self) -> Self::Output;
}

fn start_fen_of<G: Game>() -> String {
    G::fen(&G::start())
}

macro_rules! registry {
    ($( $name:literal, [$($alias:literal),*], $family:ident, $game:ty, $desc:literal; )*) => {
        /// Every registered variant, in the order `polydam variants` prints them.
        pub static VARIANTS: &[VariantEntry] = &[
            $( VariantEntry {
                name: $name,
                aliases: &[$($alias),*],
                family: Family::$family,
                description: $desc,
                start_fen: start_fen_of::<$game>,
                draw_rules: <$game as Game>::draw_rules,
            }, )*
        ];

        /// Calls `visitor` with the game type of the variant called `name` (or an alias).
        pub fn dispatch<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, UnknownVariant> {
            let entry = lookup(name)?;
            match entry.name {
                $( $name => Ok(visitor.visit::<$game>()), )*
                _ => Err(UnknownVariant(name.to_string())),
            }
        }
    };
}

registry! {
    "international", ["normal", "standard"], Diagonal, Diagonal<dr::International>,
        "International draughts (FMJD), 10x10, flying kings, majority capture";
    "killer", [], Diagonal, Diagonal<dr::Killer>,
        "Killer draughts: International, a king landing right behind a last-captured king";
    "brazilian", [], Diagonal, Diagonal<dr::Brazilian>,
        "Brazilian draughts: International rules on 8x8";
    "russian", [], Diagonal, Diagonal<dr::Russian>,
        "Russian draughts (shashki), 8x8, free capture choice, crown and continue";
    "pool", [], Diagonal, Diagonal<dr::Pool>,
        "Pool checkers, 8x8, flying kings, free capture choice, Black moves first";
    "english", ["american", "checkers"], Diagonal, Diagonal<dr::English>,
        "English draughts / American checkers, 8x8, short kings, men capture forward";
    "italian", [], Diagonal, Diagonal<dr::Italian>,
        "Italian draughts, 8x8, men may not capture kings, Italian capture precedence";
    "spanish", [], Diagonal, Diagonal<dr::Spanish>,
        "Spanish draughts, 8x8, flying kings, most pieces then most kings";
    "czech", [], Diagonal, Diagonal<dr::Czech>,
        "Czech draughts, 8x8, flying kings, king captures first";
    "antidraughts", ["losing"], Diagonal, Diagonal<dr::Antidraughts>,
        "Antidraughts: International moves, lose all your pieces or moves to win";
    "breakthrough", ["bt"], Diagonal, Diagonal<dr::Breakthrough>,
        "Breakthrough: International moves, the first king wins";
    "dbc", [], Diagonal, Diagonal<dr::Dbc>,
        "Deferred backward capture (Winther): a man's first jump may not be backward";
    "dbc-killer", [], Diagonal, Diagonal<dr::DbcKiller>,
        "dbc with the Killer halt behind a last-captured king";
    "dbc-killer-light", [], Diagonal, Diagonal<dr::DbcKillerLight>,
        "dbc with the sequential killer halt (two or more pieces, last a king)";
    "dbc-halt", [], Diagonal, Diagonal<dr::DbcHalt>,
        "dbc with the sequential halt rule (two or more pieces)";
    "dbc-halt-2", [], Diagonal, Diagonal<dr::DbcHalt2>,
        "dbc with the halt when the last two captured pieces are kings";
    "constitutional", [], Diagonal, Diagonal<dr::Constitutional>,
        "Constitutional draughts (Zapala): no king slide past a threatened square";
    "seesaw-draughts", [], Stacks, crate::stacks::SeesawDraughts,
        "Seesaw Draughts: 8x8 stacks, size sets direction (parity) and capture range";
    "seesaw", [], Hex, crate::hex::Hex<crate::hex::Side4>,
        "Seesaw on a hexhex board of side 4: tiles, deploys, multi-step stacks";
    "seesaw-5", [], Hex, crate::hex::Hex<crate::hex::Side5>,
        "Seesaw on a hexhex board of side 5";
}

/// The registry row of `name` (canonical or alias, case-insensitive).
pub fn lookup(name: &str) -> Result<&'static VariantEntry, UnknownVariant> {
    let wanted = name.trim().to_ascii_lowercase();
    VARIANTS
        .iter()
        .find(|v| v.name == wanted || v.aliases.iter().any(|a| *a == wanted))
        .ok_or_else(|| UnknownVariant(name.to_string()))
}

/// The canonical names of every variant.
pub fn names() -> Vec<&'static str> {
    VARIANTS.iter().map(|v| v.name).collect()
}
