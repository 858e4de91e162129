//! The variant registry: every game Polydam plays, listed once.
//!
//! A row holds the cold data (name, aliases, family, one-line description) and the game type
//! that carries the hot rules. [`dispatch`] turns a name into a call of a generic function on
//! the fully monomorphised game, once (at `init`, or when a command starts).

use std::fmt;

use crate::diagonal::{rules as dr, Diagonal};
use crate::game::{DrawRules, Game};
use crate::learn::features::FeaturesVisitor;
use crate::orthogonal::{rules as or, Orthogonal};

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

/// `Some(visit)` for the families that have a feature set (see [`crate::learn::features`]),
/// `None` for the others.
macro_rules! visit_features {
    (Diagonal, $game:ty, $visitor:ident) => {
        Some($visitor.visit::<$game>())
    };
    ($family:ident, $game:ty, $visitor:ident) => {
        None
    };
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

        /// Calls `visitor` with the game type of the variant called `name`, if its family
        /// has a feature set for learning (`Ok(None)` if not).
        pub fn dispatch_features<V: FeaturesVisitor>(
            name: &str,
            visitor: V,
        ) -> Result<Option<V::Output>, UnknownVariant> {
            let entry = lookup(name)?;
            match entry.name {
                $( $name => Ok(visit_features!($family, $game, visitor)), )*
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
    "turkish", [], Orthogonal, Orthogonal<or::Turkish>,
        "Turkish draughts (Dama), 8x8 orthogonal, flying kings, immediate removal, majority";
    "turkish-modified", [], Orthogonal, Orthogonal<or::TurkishModified>,
        "Modified Turkish: men start bottommost and may leap a friendly line from rank 1";
    "armenian", [], Orthogonal, Orthogonal<or::Armenian>,
        "Armenian (Tama): Turkish, men also step and kings also move diagonally";
    "armenian-2", [], Orthogonal, Orthogonal<or::Armenian2>,
        "Armenian II: Turkish, men capture backward but not as the first jump";
    "armenian-3", [], Orthogonal, Orthogonal<or::Armenian3>,
        "Armenian III: Armenian with promotion during the capture (crown and continue)";
    "gothic", [], Orthogonal, Orthogonal<or::Gothic>,
        "Gothic (Altdeutsche Dame): men step diagonally forward, one-step kings, crown and stop";
    "gothic-modified", [], Orthogonal, Orthogonal<or::GothicModified>,
        "Modified Gothic: Gothic plus the first-rank line leap";
    "gothic-modified-2", [], Orthogonal, Orthogonal<or::GothicModified2>,
        "Modified Gothic II: Modified Gothic without the majority rule";
    "adigha", [], Orthogonal, Orthogonal<or::Adigha>,
        "Adigha: Turkish with removal at the end and crown and continue";
    "croda", [], Orthogonal, Orthogonal<or::Croda>,
        "Croda: 24 men each, men capture orthogonally all round, removal at the end";
    "modern-gothic", [], Orthogonal, Orthogonal<or::ModernGothic>,
        "Modern Gothic: 24 men each, diagonal steps, orthogonal captures, line leap";
    "modern-gothic-2", [], Orthogonal, Orthogonal<or::ModernGothic2>,
        "Modern Gothic II: Modern Gothic with 16 men each";
    "teutonic", [], Orthogonal, Orthogonal<or::Teutonic>,
        "Teutonic: 24 men each, men capture in the five non-retreating directions";
    "teutonic-2", [], Orthogonal, Orthogonal<or::Teutonic2>,
        "Teutonic II: Teutonic with 16 men each";
    "greek", [], Orthogonal, Orthogonal<or::Greek>,
        "Greek (Ntama): Turkish, the king halts right behind every captured piece";
    "greek-2", [], Orthogonal, Orthogonal<or::Greek2>,
        "Greek II: halting king, no majority rule";
    "greek-3", [], Orthogonal, Orthogonal<or::Greek3>,
        "Greek III: Turkish without the majority rule";
    "greek-4", [], Orthogonal, Orthogonal<or::Greek4>,
        "Greek IV: Turkish, a man crowned on the last rank captures on as a king";
    "greek-5", [], Orthogonal, Orthogonal<or::Greek5>,
        "Greek V: Greek IV without the majority rule";
    "greek-6", [], Orthogonal, Orthogonal<or::Greek6>,
        "Greek VI: halting king, crown and continue";
    "greek-7", [], Orthogonal, Orthogonal<or::Greek7>,
        "Greek VII: halting king, crown and continue, no majority rule";
    "universal", [], Orthogonal, Orthogonal<or::Universal>,
        "Universal: 24 men each, capture in all eight directions, removal at the end";
    "dameo", [], Orthogonal, Orthogonal<or::Dameo>,
        "Dameo (Freeling): 18 men each, line moves, orthogonal captures, queen-moving kings";
    "turkthic", [], Orthogonal, Orthogonal<or::Turkthic>,
        "Turkthic: men step and capture five ways, halting eight-way flying kings";
    "turkthic-2", [], Orthogonal, Orthogonal<or::Turkthic2>,
        "Turkthic II: Turkthic with one-step kings";
    "keny", [], Orthogonal, Orthogonal<or::Keny>,
        "Ossetian Keny: Turkish, kings may turn 180 degrees, crown and continue";
    "keny-2", [], Orthogonal, Orthogonal<or::Keny2>,
        "Ossetian Keny II: Turkish, kings may turn 180 degrees";
    "harzdame", [], Orthogonal, Orthogonal<or::Harzdame>,
        "Harzdame (Rosenau): 21 men each from opposite corners, own promotion zones";
    "bahrain", [], Orthogonal, Orthogonal<or::Bahrain>,
        "Bahrain: Turkish plus the threatened-man rule";
    "bosnian", [], Orthogonal, Orthogonal<or::Bosnian>,
        "Bosnian: Turkish, men also capture backward";
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
