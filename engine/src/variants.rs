//! The variant registry: every game Polydam plays, listed once.
//!
//! A row holds every per-variant fact that is not a rule (name, aliases, family, one-line
//! description, PDN tags, pydraughts numbering) and the game type that carries the hot rules.
//! [`dispatch`] turns a name into a call of a generic function on the fully monomorphised
//! game, once (at `init`, or when a command starts); [`dispatch_tables`] does the same for the
//! variants whose rows say they have endgame tables, and [`open_tables`] opens them for a game
//! type known only as [`Game`].
//!
//! Each variant's name is written once, beside its rule sheet ([`Game::NAME`], set by the
//! family's sheet macro); the row reads it from the game type it names.

use std::any::Any;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use crate::diagonal::{rules as dr, Diagonal};
use crate::egtb::{EgtbError, TableGame, TableProbe, TableSet, TableVisitor};
use crate::game::{DrawRules, Game};
use crate::learn::features::{Features, FeaturesVisitor};
use crate::learn::source::{self, WeightsError, WeightsSource};
use crate::orthogonal::{rules as or, Orthogonal};

/// The four families of the project; each is one implementation of [`Game`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Men and kings on the dark squares of 8x8, 10x10 and 12x12 boards.
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

/// A variant's PDN `GameType` tag (the PDN standard's GameType list: 20 International, 21
/// English, 22 Italian, 23 American pool, 24 Spanish, 25 Russian, 26 Brazilian, 27 Canadian,
/// 29 Czech, 30 Turkish, 31 Thai, 40 Frisian, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdnGameType {
    /// A number of the standard's list.
    Listed {
        /// The GameType number.
        number: u8,
        /// The rest of the tag value, leading comma included (start colour, board width and
        /// height, notation, invert flag: `,W,8,8,A0,0`), when the number alone does not
        /// describe the game; empty otherwise.
        suffix: &'static str,
    },
    /// Another game's number, whose rules the game plays from its own start: the `FEN` tag is
    /// always written (Frysk!, written as Frisian from its start, as pydraughts does).
    FromPosition {
        /// The GameType number.
        number: u8,
    },
    /// The list numbers no such game; the game is written with a `Variant` tag instead.
    Unlisted {
        /// Why there is no number.
        reason: &'static str,
    },
}

impl PdnGameType {
    /// The `GameType` tag value (`20`, or the number with its suffix), if the game has one.
    pub fn tag_value(self) -> Option<String> {
        match self {
            PdnGameType::Listed { number, suffix } => Some(format!("{number}{suffix}")),
            PdnGameType::FromPosition { number } => Some(number.to_string()),
            PdnGameType::Unlisted { .. } => None,
        }
    }

    /// Whether a game's `FEN` tag must be written even from the variant's start.
    pub fn needs_fen(self) -> bool {
        matches!(self, PdnGameType::FromPosition { .. })
    }
}

/// A GameType number of the PDN standard, with no suffix.
const fn game_type(number: u8) -> PdnGameType {
    PdnGameType::Listed { number, suffix: "" }
}

/// The GameType of a variant that the PDN standard does not list.
const UNLISTED: PdnGameType = PdnGameType::Unlisted {
    reason: "the PDN standard's GameType list has no number for this game",
};

/// Frysk!: Frisian's GameType 40 with the start in a `FEN` tag (card `frisian.md`: Lidraughts
/// writes 97, pydraughts 40; 97 is no number of the PDN standard's list).
const FRISIAN_FROM_POSITION: PdnGameType = PdnGameType::FromPosition { number: 40 };

/// Sri Lankan: Canadian's GameType 27 on a board whose bottom-left square does not play
/// (PDN's invert flag 1, as Italian's `22,W,8,8,N2,1`), square 1 top left (our choice: the PDN
/// standard lists no Sri Lankan game).
const SRILANKAN_GAME_TYPE: PdnGameType = PdnGameType::Listed {
    number: 27,
    suffix: ",W,12,12,N2,1",
};

/// Thai: GameType 31, whose default (`31,B,8,8,N2,0`) has Black begin; our first player, on
/// 25-32, is called White (card `thai.md`, our choice), so the tag says so.
const THAI_GAME_TYPE: PdnGameType = PdnGameType::Listed {
    number: 31,
    suffix: ",W,8,8,N2,0",
};

/// How a variant's PDN files write a game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdnResultStyle {
    /// Checkers files (English, American pool): `1-0`, `0-1`, `1/2-1/2`.
    Checkers,
    /// Draughts files, in match points: `2-0`, `0-2`, `1-1`.
    Draughts,
}

/// How `pydraughts` (0.6.x), the main Hub client of the 8x8 games, numbers a variant's squares
/// against its rule card. The Hub session's translator (`polydam_protocol::numbering`) applies
/// it when the client asks for pydraughts numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PydraughtsNumbering {
    /// As the card, in moves, `fen=` and `pos=`.
    Card,
    /// Moves and `fen=` numbered from a1 (the 8x8 card's ranks flipped: card square `4r+k+1`
    /// is the client's `4(7-r)+k+1`); `pos=` as the card (Russian, Brazilian).
    RankFlip,
    /// Moves and `fen=` as the card; `pos=` turned 180 degrees with colours and the side letter
    /// swapped (English).
    Turned,
}

/// Whether a variant has endgame tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableSupport {
    /// Its game implements [`TableGame`]: `polydam egtb` builds its tables, the search probes
    /// them.
    Tables,
    /// No tables.
    NoTables,
}

/// One registry row.
#[derive(Clone, Copy)]
pub struct VariantEntry {
    /// The canonical name (as in the rule cards): the game type's [`Game::NAME`].
    pub name: &'static str,
    /// Other names accepted (`normal`, `losing`, ...).
    pub aliases: &'static [&'static str],
    /// The family.
    pub family: Family,
    /// One line for `polydam variants`.
    pub description: &'static str,
    /// The PDN `GameType` tag.
    pub pdn_game_type: PdnGameType,
    /// How PDN writes the result.
    pub pdn_result: PdnResultStyle,
    /// How pydraughts numbers the squares.
    pub pydraughts: PydraughtsNumbering,
    /// Whether it has endgame tables.
    pub tables: TableSupport,
    /// The start position as the family's FEN.
    pub start_fen: fn() -> String,
    /// The draw rules.
    pub draw_rules: fn() -> DrawRules,
    /// The variant name its learned weights are kept under (its own, or the variant it
    /// shares them with), or `None` without a learned evaluation.
    pub weights_name: fn() -> Option<&'static str>,
    /// Builds the weights a source gives it, without using them yet.
    pub prepare_weights: fn(&WeightsSource) -> Result<(), WeightsError>,
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
        write!(
            f,
            "unknown variant '{}' (known: {})",
            crate::text::excerpt(&self.0),
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
    ($( $game:ty => $family:ident, [$($alias:literal),*], $pdn:expr, $result:ident,
        $pydraughts:ident, $tables:ident, $desc:literal; )*) => {
        /// Every registered variant, in the order `polydam variants` prints them.
        pub static VARIANTS: &[VariantEntry] = &[
            $( VariantEntry {
                name: <$game as Game>::NAME,
                aliases: &[$($alias),*],
                family: Family::$family,
                description: $desc,
                pdn_game_type: $pdn,
                pdn_result: PdnResultStyle::$result,
                pydraughts: PydraughtsNumbering::$pydraughts,
                tables: TableSupport::$tables,
                start_fen: start_fen_of::<$game>,
                draw_rules: <$game as Game>::draw_rules,
                weights_name: <$game as Features>::weights_name,
                prepare_weights: <$game as Features>::prepare_weights,
            }, )*
        ];

        /// Calls `visitor` with the game type of the variant called `name` (or an alias).
        pub fn dispatch<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, UnknownVariant> {
            let entry = lookup(name)?;
            $( if entry.name == <$game as Game>::NAME {
                return Ok(visitor.visit::<$game>());
            } )*
            Err(UnknownVariant(name.to_string()))
        }

        /// Calls `visitor` with the game type of the variant called `name`, with its feature
        /// sets for learning (every family has them: a row whose game lacks them does not
        /// compile).
        pub fn dispatch_features<V: FeaturesVisitor>(
            name: &str,
            visitor: V,
        ) -> Result<V::Output, UnknownVariant> {
            let entry = lookup(name)?;
            $( if entry.name == <$game as Game>::NAME {
                return Ok(visitor.visit::<$game>());
            } )*
            Err(UnknownVariant(name.to_string()))
        }

        /// Calls `visitor` with the game type of the variant called `name` (or an alias), or
        /// says that it has no endgame tables (only the rows marked `Tables` are tried: their
        /// games implement [`TableGame`], or the registry does not compile).
        pub fn dispatch_tables<V: TableVisitor>(
            name: &str,
            visitor: V,
        ) -> Result<V::Output, EgtbError> {
            let entry = lookup(name).map_err(|_| no_tables(name))?;
            $( table_arm!($tables, entry, visitor, $game); )*
            Err(no_tables(entry.name))
        }
    };
}

/// One row's arm of [`dispatch_tables`]: the visit of its game when the row has tables,
/// nothing when it has none.
macro_rules! table_arm {
    (Tables, $entry:ident, $visitor:ident, $game:ty) => {
        if $entry.name == <$game as Game>::NAME {
            return Ok($visitor.visit::<$game>());
        }
    };
    (NoTables, $entry:ident, $visitor:ident, $game:ty) => {};
}

// One row per variant: game type => family, [aliases], PDN GameType, PDN result style,
// pydraughts numbering, endgame tables (`Tables`: the game implements `TableGame`, or
// `NoTables`), description.
registry! {
    Diagonal<dr::International> => Diagonal, ["normal", "standard"], game_type(20), Draughts,
        Card, Tables, "International draughts (FMJD), 10x10, flying kings, majority capture";
    Diagonal<dr::Killer> => Diagonal, [], UNLISTED, Draughts, Card, Tables,
        "Killer draughts: International, a king landing right behind a last-captured king";
    Diagonal<dr::Brazilian> => Diagonal, [], game_type(26), Draughts, RankFlip, Tables,
        "Brazilian draughts: International rules on 8x8";
    Diagonal<dr::Russian> => Diagonal, [], game_type(25), Draughts, RankFlip, Tables,
        "Russian draughts (shashki), 8x8, free capture choice, crown and continue";
    Diagonal<dr::Pool> => Diagonal, [], game_type(23), Checkers, Card, Tables,
        "Pool checkers, 8x8, flying kings, free capture choice, Black moves first";
    Diagonal<dr::English> => Diagonal, ["american", "checkers"], game_type(21), Checkers,
        Turned, Tables,
        "English draughts / American checkers, 8x8, short kings, men capture forward";
    Diagonal<dr::Italian> => Diagonal, [], game_type(22), Draughts, Card, Tables,
        "Italian draughts, 8x8, men may not capture kings, Italian capture precedence";
    Diagonal<dr::Spanish> => Diagonal, [], game_type(24), Draughts, Card, Tables,
        "Spanish draughts, 8x8, flying kings, most pieces then most kings";
    Diagonal<dr::Czech> => Diagonal, [], game_type(29), Draughts, Card, Tables,
        "Czech draughts, 8x8, flying kings, king captures first";
    Diagonal<dr::Antidraughts> => Diagonal, ["losing"], UNLISTED, Draughts, Card, Tables,
        "Antidraughts: International moves, lose all your pieces or moves to win";
    Diagonal<dr::Breakthrough> => Diagonal, ["bt"], UNLISTED, Draughts, Card, Tables,
        "Breakthrough: International moves, the first king wins";
    Diagonal<dr::Dbc> => Diagonal, [], UNLISTED, Draughts, Card, Tables,
        "Deferred backward capture (Winther): a man's first jump may not be backward";
    Diagonal<dr::DbcKiller> => Diagonal, [], UNLISTED, Draughts, Card, Tables,
        "dbc with the Killer halt behind a last-captured king";
    Diagonal<dr::DbcKillerLight> => Diagonal, [], UNLISTED, Draughts, Card, Tables,
        "dbc with the sequential killer halt (two or more pieces, last a king)";
    Diagonal<dr::DbcHalt> => Diagonal, [], UNLISTED, Draughts, Card, Tables,
        "dbc with the sequential halt rule (two or more pieces)";
    Diagonal<dr::DbcHalt2> => Diagonal, [], UNLISTED, Draughts, Card, Tables,
        "dbc with the halt when the last two captured pieces are kings";
    Diagonal<dr::Constitutional> => Diagonal, [], UNLISTED, Draughts, Card, Tables,
        "Constitutional draughts (Zapala): no king slide past a threatened square";
    Diagonal<dr::Canadian> => Diagonal, [], game_type(27), Draughts, Card, NoTables,
        "Canadian draughts: International rules on 12x12, 30 men each";
    Diagonal<dr::SriLankan> => Diagonal, ["sri-lankan"], SRILANKAN_GAME_TYPE, Draughts,
        Card, NoTables, "Sri Lankan draughts: Canadian's rules on the 12x12 board with a light a1";
    Diagonal<dr::Frisian> => Diagonal, [], game_type(40), Draughts, Card, NoTables,
        "Frisian draughts: orthogonal captures too, the value rule, three quiet king moves";
    Diagonal<dr::Frysk> => Diagonal, ["frysk!"], FRISIAN_FROM_POSITION, Draughts, Card, NoTables,
        "Frysk!: Frisian draughts from five men each on the first row";
    Diagonal<dr::Thai> => Diagonal, [], THAI_GAME_TYPE, Draughts, Card, NoTables,
        "Thai draughts (Mak-hot), 8x8, 8 men each, kings land right behind, no precedence";
    Orthogonal<or::Turkish> => Orthogonal, [], game_type(30), Draughts, Card, Tables,
        "Turkish draughts (Dama), 8x8 orthogonal, flying kings, immediate removal, majority";
    Orthogonal<or::TurkishModified> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Modified Turkish: men start bottommost and may leap a friendly line from rank 1";
    Orthogonal<or::Armenian> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Armenian (Tama): Turkish, men also step and kings also move diagonally";
    Orthogonal<or::Armenian2> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Armenian II: Turkish, men capture backward but not as the first jump";
    Orthogonal<or::Armenian3> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Armenian III: Armenian with promotion during the capture (crown and continue)";
    Orthogonal<or::Gothic> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Gothic (Altdeutsche Dame): men step diagonally forward, one-step kings, crown and stop";
    Orthogonal<or::GothicModified> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Modified Gothic: Gothic plus the first-rank line leap";
    Orthogonal<or::GothicModified2> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Modified Gothic II: Modified Gothic without the majority rule";
    Orthogonal<or::Adigha> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Adigha: Turkish with removal at the end and crown and continue";
    Orthogonal<or::Croda> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Croda: 24 men each, men capture orthogonally all round, removal at the end";
    Orthogonal<or::ModernGothic> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Modern Gothic: 24 men each, diagonal steps, orthogonal captures, line leap";
    Orthogonal<or::ModernGothic2> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Modern Gothic II: Modern Gothic with 16 men each";
    Orthogonal<or::Teutonic> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Teutonic: 24 men each, men capture in the five non-retreating directions";
    Orthogonal<or::Teutonic2> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Teutonic II: Teutonic with 16 men each";
    Orthogonal<or::Greek> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Greek (Ntama): Turkish, the king halts right behind every captured piece";
    Orthogonal<or::Greek2> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Greek II: halting king, no majority rule";
    Orthogonal<or::Greek3> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Greek III: Turkish without the majority rule";
    Orthogonal<or::Greek4> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Greek IV: Turkish, a man crowned on the last rank captures on as a king";
    Orthogonal<or::Greek5> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Greek V: Greek IV without the majority rule";
    Orthogonal<or::Greek6> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Greek VI: halting king, crown and continue";
    Orthogonal<or::Greek7> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Greek VII: halting king, crown and continue, no majority rule";
    Orthogonal<or::Universal> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Universal: 24 men each, capture in all eight directions, removal at the end";
    Orthogonal<or::Dameo> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Dameo (Freeling): 18 men each, line moves, orthogonal captures, queen-moving kings";
    Orthogonal<or::Turkthic> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Turkthic: men step and capture five ways, halting eight-way flying kings";
    Orthogonal<or::Turkthic2> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Turkthic II: Turkthic with one-step kings";
    Orthogonal<or::Keny> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Ossetian Keny: Turkish, kings may turn 180 degrees, crown and continue";
    Orthogonal<or::Keny2> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Ossetian Keny II: Turkish, kings may turn 180 degrees";
    Orthogonal<or::Harzdame> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Harzdame (Rosenau): 21 men each from opposite corners, own promotion zones";
    Orthogonal<or::Bahrain> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Bahrain: Turkish plus the threatened-man rule";
    Orthogonal<or::Bosnian> => Orthogonal, [], UNLISTED, Draughts, Card, NoTables,
        "Bosnian: Turkish, men also capture backward";
    crate::stacks::SeesawDraughts => Stacks, [], UNLISTED, Draughts, Card, NoTables,
        "Seesaw Draughts: 8x8 stacks, size sets direction (parity) and capture range";
    crate::hex::Hex<crate::hex::Side4> => Hex, [], UNLISTED, Draughts, Card, NoTables,
        "Seesaw on a hexhex board of side 4: tiles, deploys, multi-step stacks";
    crate::hex::Hex<crate::hex::Side5> => Hex, [], UNLISTED, Draughts, Card, NoTables,
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

/// Makes `source` the learned weights of every variant (see [`crate::learn::source`]): the
/// files it names are checked against the variants they name and built first, so that on an
/// error nothing changes and the weights in use stay.
pub fn set_weights(source: WeightsSource) -> Result<(), WeightsError> {
    if *source::current_source() == source {
        return Ok(());
    }
    if let WeightsSource::Files(files) = &source {
        for f in files {
            let wanted = f.file.variant.as_str();
            let rows: Vec<&VariantEntry> = VARIANTS
                .iter()
                .filter(|v| (v.weights_name)() == Some(wanted))
                .collect();
            if rows.is_empty() {
                return Err(WeightsError::NoLearnedEvaluation {
                    path: f.path.clone(),
                    variant: f.file.variant.clone(),
                });
            }
            for row in rows {
                (row.prepare_weights)(&source)?;
            }
        }
    }
    source::install(source);
    Ok(())
}

/// The canonical names of every variant.
pub fn names() -> Vec<&'static str> {
    VARIANTS.iter().map(|v| v.name).collect()
}

/// The canonical names of the variants with endgame tables, in registry order.
pub fn table_names() -> Vec<&'static str> {
    VARIANTS
        .iter()
        .filter(|v| v.tables == TableSupport::Tables)
        .map(|v| v.name)
        .collect()
}

/// The error for `name`, a variant without endgame tables (or no variant at all).
fn no_tables(name: &str) -> EgtbError {
    EgtbError::Unsupported {
        variant: name.to_string(),
        supported: table_names(),
    }
}

/// The tables of `G` in `dir` (the directory holding one subdirectory per variant) up to
/// `max_pieces` pieces, for the search of a game type known only as [`Game`]: `Ok(None)` when
/// the variant has no tables at all. Missing and damaged slices are listed in the set's
/// [`TableSet::problems`]; the set serves the others.
pub fn open_tables<G: Game>(
    dir: &Path,
    max_pieces: u32,
) -> Result<Option<Arc<dyn TableProbe<G>>>, EgtbError> {
    struct Open<'a> {
        dir: &'a Path,
        max_pieces: u32,
    }
    impl TableVisitor for Open<'_> {
        type Output = Result<Box<dyn Any>, EgtbError>;
        fn visit<T: TableGame>(self) -> Self::Output {
            let set = TableSet::<T>::open(self.dir, self.max_pieces)?;
            let probe: Arc<dyn TableProbe<T>> = Arc::new(set);
            Ok(Box::new(probe))
        }
    }
    let opened = match dispatch_tables(G::NAME, Open { dir, max_pieces }) {
        Ok(result) => result?,
        Err(EgtbError::Unsupported { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    // The visit ran for the game named `G::NAME`, which is `G` itself.
    Ok(opened.downcast::<Arc<dyn TableProbe<G>>>().ok().map(|b| *b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The square numbers written in a FEN.
    fn squares(fen: &str) -> Vec<u32> {
        fen.split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse().ok())
            .collect()
    }

    #[test]
    fn every_row_has_every_fact() {
        let mut seen_names: Vec<&str> = Vec::new();
        let mut seen_game_types: Vec<(u8, &str)> = Vec::new();
        for v in VARIANTS {
            let name = v.name;
            // Names: lower case (lookup lowers its input), unique among names and aliases, and
            // each one finds this row and dispatches to the game called `name`.
            for n in std::iter::once(&name).chain(v.aliases) {
                assert!(!n.is_empty(), "{name}: an empty name");
                // Lower-case words; `frysk!` is pydraughts' own name for Frysk!.
                assert!(
                    n.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                        || *n == "frysk!",
                    "{name}: '{n}' is not a lower-case word"
                );
                assert!(!seen_names.contains(n), "{name}: '{n}' is taken");
                seen_names.push(n);
                for spelling in [n.to_string(), n.to_ascii_uppercase(), format!(" {n} ")] {
                    let row = lookup(&spelling).unwrap_or_else(|e| panic!("{e}"));
                    assert!(
                        std::ptr::eq(row, v),
                        "{name}: '{spelling}' finds {}",
                        row.name
                    );
                }
                assert_eq!(dispatch(n, Name), Ok(name));
                // Tables: a row that has them dispatches to its game's tables, one without
                // says so and lists the rows that have them.
                match (v.tables, dispatch_tables(n, Name)) {
                    (TableSupport::Tables, Ok(found)) => assert_eq!(found, name),
                    (
                        TableSupport::NoTables,
                        Err(EgtbError::Unsupported { variant, supported }),
                    ) => {
                        assert_eq!(variant, name);
                        assert_eq!(supported, table_names());
                    }
                    (t, r) => panic!("{name}: {t:?} but {r:?}"),
                }
            }
            // Description: one non-empty line.
            let d = v.description;
            assert!(!d.trim().is_empty(), "{name}: no description");
            assert!(
                !d.contains('\n') && d.trim() == d,
                "{name}: description {d:?}"
            );
            // Start position.
            assert!(!(v.start_fen)().is_empty(), "{name}: no start position");
            // PDN: a draughts number of the standard's list (20 and up; 0-19 are chess), unique
            // with its suffix, or the reason there is none.
            match v.pdn_game_type {
                PdnGameType::Listed { number, suffix } => {
                    assert!(
                        number >= 20,
                        "{name}: GameType {number} is no draughts game"
                    );
                    assert!(
                        suffix.is_empty() || suffix.starts_with(','),
                        "{name}: GameType suffix {suffix:?}"
                    );
                    assert!(
                        !seen_game_types.contains(&(number, suffix)),
                        "{name}: GameType {number}{suffix} is taken"
                    );
                    seen_game_types.push((number, suffix));
                }
                PdnGameType::FromPosition { number } => {
                    assert!(
                        seen_game_types.iter().any(|&(n, _)| n == number)
                            || VARIANTS
                                .iter()
                                .any(|w| w.pdn_game_type == game_type(number)),
                        "{name}: GameType {number} is no other variant's"
                    );
                }
                PdnGameType::Unlisted { reason } => {
                    assert!(
                        !reason.trim().is_empty(),
                        "{name}: no GameType and no reason"
                    );
                }
            }
            // Learned weights: a variant that shares another's names a row that has them.
            if let Some(w) = (v.weights_name)() {
                assert!(
                    VARIANTS.iter().any(|r| r.name == w),
                    "{name}: its weights are kept under '{w}', which is no variant"
                );
                // Every diagonal and stacks variant ships weights; orthogonal and hex ones may not.
                if matches!(v.family, Family::Diagonal | Family::Stacks) {
                    assert!(
                        source::shipped(w).is_some(),
                        "{name}: no shipped weights '{w}'"
                    );
                }
            } else {
                assert_eq!(v.family, Family::Diagonal, "{name}: no learned evaluation");
            }
            // pydraughts numbering: the translated schemes are for the 8x8 diagonal board.
            if v.pydraughts != PydraughtsNumbering::Card {
                let fen = (v.start_fen)();
                assert_eq!(v.family, Family::Diagonal, "{name}: {:?}", v.pydraughts);
                assert_eq!(squares(&fen).into_iter().max(), Some(32), "{name}: {fen}");
            }
        }
    }

    #[test]
    fn every_shipped_weights_file_belongs_to_a_variant() {
        for (w, _) in source::SHIPPED {
            assert!(
                VARIANTS.iter().any(|v| (v.weights_name)() == Some(*w)),
                "shipped weights '{w}' are no variant's"
            );
        }
    }

    #[test]
    fn tables_are_listed_in_registry_order() {
        assert_eq!(table_names().len(), 18);
        assert_eq!(table_names()[..3], ["international", "killer", "brazilian"]);
        assert!(matches!(
            dispatch_tables("seesaw", Name),
            Err(EgtbError::Unsupported { .. })
        ));
        let unknown = dispatch_tables("no-such-game", Name).map(drop);
        assert_eq!(
            unknown.map_err(|e| e.to_string()),
            Err(format!(
                "no endgame tables for variant 'no-such-game' (tables exist for {})",
                table_names().join(", ")
            ))
        );
    }

    /// The name of the game a dispatch calls.
    struct Name;

    impl GameVisitor for Name {
        type Output = &'static str;
        fn visit<G: Game>(self) -> &'static str {
            G::NAME
        }
    }

    impl TableVisitor for Name {
        type Output = &'static str;
        fn visit<G: TableGame>(self) -> &'static str {
            G::NAME
        }
    }

    #[test]
    fn a_weights_file_for_a_variant_without_weights_is_refused() {
        let dir = std::env::temp_dir().join(format!("polydam-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("gothic.txt");
        let text = "feature-set x\nvariant no-such-variant\nbase hand\nscale 150\nfeatures 1\n";
        std::fs::write(&path, text).unwrap();
        let source = WeightsSource::parse(path.to_str().unwrap()).unwrap();
        let err = set_weights(source).unwrap_err();
        assert!(
            matches!(err, WeightsError::NoLearnedEvaluation { .. }),
            "{err:?}"
        );
        assert_eq!(*source::current_source(), WeightsSource::Shipped);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn game_type_tag_values() {
        assert_eq!(game_type(20).tag_value().as_deref(), Some("20"));
        let suffixed = PdnGameType::Listed {
            number: 20,
            suffix: ",W,8,8,A0,0",
        };
        assert_eq!(suffixed.tag_value().as_deref(), Some("20,W,8,8,A0,0"));
        assert_eq!(UNLISTED.tag_value(), None);
        assert_eq!(lookup("czech").map(|v| v.pdn_game_type), Ok(game_type(29)));
    }
}
