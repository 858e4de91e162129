//! Compile-time rule sheets of the diagonal family.
//!
//! Each variant is a zero-sized type implementing [`Rules`]; the generator reads `R::SHEET`'s
//! fields as constants, so every variant gets its own monomorphised move generator (a runtime
//! struct measured 1.3-1.6x slower, see `../shared/ARCHITECTURE.md`). A variant that is "X plus
//! one clause" is X's sheet with one field changed (struct update syntax).
//!
//! The rule cards are `../shared/rules/diagonal-10x10.md` and `../shared/rules/diagonal-8x8.md`;
//! each field cites the clause it encodes.

use std::sync::OnceLock;

use polydam_tables::diagonal::{Geometry, EIGHT, TEN};

use super::bits::Bits;
use super::learned::Learned;

use crate::game::DrawRules;

/// Which capture sequences the player may choose among (the "majority" or precedence rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precedence {
    /// Free choice among all complete sequences (Russian, Pool, English).
    Free,
    /// The sequence capturing the most pieces, a king counting one (International, Brazilian).
    MostPieces,
    /// Most pieces, then most kings captured (Spanish).
    MostPiecesThenKings,
    /// Italian: most pieces; then with a king rather than a man; then most kings; then the
    /// kings met earliest.
    Italian,
    /// Czech: a king that can capture must; otherwise free.
    KingFirst,
}

/// What happens to a man that reaches its far row during a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promotion {
    /// Crowned only if the move ends there; passing the row does nothing (International).
    AtEnd,
    /// Crowned at once, and goes on capturing as a king (Russian).
    CrownAndContinue,
    /// Crowned, and the move ends there (English, Italian).
    CrownAndStop,
}

/// Where a king must land after the last capture of a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// Anywhere beyond the last captured piece.
    None,
    /// Right behind the last piece if it is a king (Killer, `dbc-killer`).
    LastKing,
    /// Right behind if at least two pieces were taken and the last is a king
    /// (`dbc-killer-light`).
    LastKingOfTwoOrMore,
    /// Right behind if at least two pieces were taken (`dbc-halt`).
    TwoOrMore,
    /// Right behind if at least two pieces were taken and the last two are kings (`dbc-halt-2`).
    LastTwoKings,
}

/// How the game is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A player with no piece or no legal move loses.
    Normal,
    /// A player with no piece or no legal move wins (antidraughts).
    NoMoveWins,
    /// The first player to crown a king wins (breakthrough).
    FirstKingWins,
}

/// Hot knobs of one diagonal variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSheet {
    /// The board: 8x8 or 10x10.
    pub board: Geometry,
    /// Men capture backward as well as forward ("men capture" column of the 8x8 card).
    pub men_capture_backward: bool,
    /// A man may capture backward as the first jump of a sequence (false in `dbc`: "a man may
    /// not capture backward as the first jump of a sequence").
    pub man_first_jump_backward: bool,
    /// Men may capture kings (false in Italian: "men may not capture kings").
    pub men_capture_kings: bool,
    /// Kings fly: move and capture at any distance along a diagonal.
    pub flying_kings: bool,
    /// The precedence rule among captures.
    pub precedence: Precedence,
    /// Promotion during a capture.
    pub promotion: Promotion,
    /// Halt rule for a king's final landing.
    pub halt: Halt,
    /// Constitutional draughts' restriction on non-capturing king slides.
    pub constitutional: bool,
    /// How the game is won.
    pub goal: Goal,
}

/// International draughts (FMJD), the base of the 10x10 card.
pub const INTERNATIONAL: RuleSheet = RuleSheet {
    board: TEN,
    men_capture_backward: true,
    man_first_jump_backward: true,
    men_capture_kings: true,
    flying_kings: true,
    precedence: Precedence::MostPieces,
    promotion: Promotion::AtEnd,
    halt: Halt::None,
    constitutional: false,
    goal: Goal::Normal,
};

/// Killer draughts: International plus the halt behind a last-captured king.
pub const KILLER: RuleSheet = RuleSheet {
    halt: Halt::LastKing,
    ..INTERNATIONAL
};
/// Antidraughts: International moves, a player with no move wins.
pub const ANTIDRAUGHTS: RuleSheet = RuleSheet {
    goal: Goal::NoMoveWins,
    ..INTERNATIONAL
};
/// Breakthrough: International moves, the first king wins.
pub const BREAKTHROUGH: RuleSheet = RuleSheet {
    goal: Goal::FirstKingWins,
    ..INTERNATIONAL
};
/// Deferred backward capture (Winther): a man's first jump may not be backward.
pub const DBC: RuleSheet = RuleSheet {
    man_first_jump_backward: false,
    ..INTERNATIONAL
};
/// `dbc` plus the Killer halt.
pub const DBC_KILLER: RuleSheet = RuleSheet {
    halt: Halt::LastKing,
    ..DBC
};
/// `dbc` plus the sequential killer halt (Anikejev).
pub const DBC_KILLER_LIGHT: RuleSheet = RuleSheet {
    halt: Halt::LastKingOfTwoOrMore,
    ..DBC
};
/// `dbc` plus the sequential halt rule (Damme).
pub const DBC_HALT: RuleSheet = RuleSheet {
    halt: Halt::TwoOrMore,
    ..DBC
};
/// `dbc` plus Winther's two-king halt.
pub const DBC_HALT_2: RuleSheet = RuleSheet {
    halt: Halt::LastTwoKings,
    ..DBC
};
/// Constitutional draughts (Zapała): International plus the threatened-square slide rule.
pub const CONSTITUTIONAL: RuleSheet = RuleSheet {
    constitutional: true,
    ..INTERNATIONAL
};

/// Brazilian draughts: International rules on 8x8.
pub const BRAZILIAN: RuleSheet = RuleSheet {
    board: EIGHT,
    ..INTERNATIONAL
};
/// Russian draughts: free choice, crown-and-continue.
pub const RUSSIAN: RuleSheet = RuleSheet {
    precedence: Precedence::Free,
    promotion: Promotion::CrownAndContinue,
    ..BRAZILIAN
};
/// Pool checkers: free choice, crowned only at the end.
pub const POOL: RuleSheet = RuleSheet {
    precedence: Precedence::Free,
    ..BRAZILIAN
};
/// English draughts (checkers): men capture forward only, short kings, crown stops the move.
pub const ENGLISH: RuleSheet = RuleSheet {
    men_capture_backward: false,
    flying_kings: false,
    precedence: Precedence::Free,
    promotion: Promotion::CrownAndStop,
    ..BRAZILIAN
};
/// Italian draughts: English moves, men may not take kings, the Italian precedence order.
pub const ITALIAN: RuleSheet = RuleSheet {
    men_capture_kings: false,
    precedence: Precedence::Italian,
    ..ENGLISH
};
/// Spanish draughts: men capture forward only, flying kings, most pieces then most kings.
pub const SPANISH: RuleSheet = RuleSheet {
    men_capture_backward: false,
    precedence: Precedence::MostPiecesThenKings,
    ..BRAZILIAN
};
/// Czech draughts: men capture forward only, flying kings, king captures first.
pub const CZECH: RuleSheet = RuleSheet {
    men_capture_backward: false,
    precedence: Precedence::KingFirst,
    ..BRAZILIAN
};

/// How a variant numbers its squares relative to the internal layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbering {
    /// Square 1 is the top-left playing square (b8 / b10), numbered left to right.
    Standard,
    /// Italian: the board is turned, square 1 is a8 (rows numbered right to left internally).
    Italian,
    /// Spanish: square 1 is h1 on a turned board, numbered right to left from White's side.
    Spanish,
}

/// Cold data of a diagonal variant: everything that is not read in the generator.
#[derive(Clone, Copy, Debug)]
pub struct DiagonalInfo {
    /// The start position as PDN FEN in the variant's own numbering.
    pub start_fen: &'static str,
    /// The variant's square numbering.
    pub numbering: Numbering,
    /// Whether its players write squares algebraically (`c3-d4`, `c3:e5`) in PDN form.
    pub algebraic: bool,
    /// Draw rules.
    pub draws: DrawRules,
}

/// A diagonal variant: its rule sheet and its cold data.
pub trait Rules: Send + Sync + 'static {
    /// The bitboard word of the sheet's board: `u64` on 8x8 and 10x10, `u128` on 12x12.
    type Bits: Bits;
    /// The registry name, written only here (the registry row reads it).
    const NAME: &'static str;
    /// The hot knobs, read as constants by the generator.
    const SHEET: RuleSheet;
    /// The cold data.
    const INFO: DiagonalInfo;
    /// Where the variant's learned evaluation is kept once loaded (see [`super::learned`]),
    /// or `None` (the default) for a rule sheet that never has one.
    fn learned_cell() -> Option<&'static OnceLock<Option<Learned>>> {
        None
    }
}

const fn draws(repetitions: u8, moves_each: u16, endgame_counters: bool) -> DrawRules {
    DrawRules {
        repetitions,
        quiet_plies: moves_each * 2,
        endgame_counters,
    }
}

/// International draw rules: threefold repetition, 25 king moves each, the 16/5-move endgames.
const FMJD_DRAWS: DrawRules = draws(3, 25, true);

macro_rules! diagonal_variant {
    ($(#[$doc:meta])* $ty:ident, $name:literal, $sheet:expr, $fen:literal, $numbering:ident,
     $algebraic:literal, $draws:expr) => {
        diagonal_variant!($(#[$doc])* $ty: u64, $name, $sheet, $fen, $numbering, $algebraic,
            $draws);
    };
    ($(#[$doc:meta])* $ty:ident: $bits:ty, $name:literal, $sheet:expr, $fen:literal,
     $numbering:ident, $algebraic:literal, $draws:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $ty;
        impl Rules for $ty {
            type Bits = $bits;
            const NAME: &'static str = $name;
            const SHEET: RuleSheet = $sheet;
            const INFO: DiagonalInfo = DiagonalInfo {
                start_fen: $fen,
                numbering: Numbering::$numbering,
                algebraic: $algebraic,
                draws: $draws,
            };
            fn learned_cell() -> Option<&'static OnceLock<Option<Learned>>> {
                static CELL: OnceLock<Option<Learned>> = OnceLock::new();
                Some(&CELL)
            }
        }
    };
}

// 10x10 card: every variant plays with the FMJD draw rules.
diagonal_variant!(/// `international`
    International, "international", INTERNATIONAL, "W:W31-50:B1-20", Standard, false, FMJD_DRAWS);
diagonal_variant!(/// `killer`
    Killer, "killer", KILLER, "W:W31-50:B1-20", Standard, false, FMJD_DRAWS);
diagonal_variant!(/// `antidraughts`
    Antidraughts, "antidraughts", ANTIDRAUGHTS, "W:W31-50:B1-20", Standard, false, FMJD_DRAWS);
diagonal_variant!(/// `breakthrough`
    Breakthrough, "breakthrough", BREAKTHROUGH, "W:W31-50:B1-20", Standard, false, FMJD_DRAWS);
diagonal_variant!(/// `dbc`
    Dbc, "dbc", DBC, "W:W31-50:B1-20", Standard, false, FMJD_DRAWS);
diagonal_variant!(/// `dbc-killer`
    DbcKiller, "dbc-killer", DBC_KILLER, "W:W31-50:B1-20", Standard, false, FMJD_DRAWS);
diagonal_variant!(/// `dbc-killer-light`
    DbcKillerLight, "dbc-killer-light", DBC_KILLER_LIGHT, "W:W31-50:B1-20", Standard, false,
    FMJD_DRAWS);
diagonal_variant!(/// `dbc-halt`
    DbcHalt, "dbc-halt", DBC_HALT, "W:W31-50:B1-20", Standard, false, FMJD_DRAWS);
diagonal_variant!(/// `dbc-halt-2`
    DbcHalt2, "dbc-halt-2", DBC_HALT_2, "W:W31-50:B1-20", Standard, false, FMJD_DRAWS);
diagonal_variant!(/// `constitutional`
    Constitutional, "constitutional", CONSTITUTIONAL, "W:W31-50:B1-20", Standard, false,
    FMJD_DRAWS);

// 8x8 card: draw rules from its "Draw rules beyond repetition" paragraph.
diagonal_variant!(/// `brazilian`: "as International (25)"
    Brazilian, "brazilian", BRAZILIAN, "W:W21-32:B1-12", Standard, true, draws(3, 25, false));
diagonal_variant!(/// `russian`: 15 moves (our choice)
    Russian, "russian", RUSSIAN, "W:W21-32:B1-12", Standard, true, draws(3, 15, false));
diagonal_variant!(/// `pool`: Black (on 1-12) moves first; 15 moves
    Pool, "pool", POOL, "B:W21-32:B1-12", Standard, false, draws(3, 15, false));
diagonal_variant!(/// `english`: Black (on 1-12) moves first; 40 moves
    English, "english", ENGLISH, "B:W21-32:B1-12", Standard, false, draws(3, 40, false));
diagonal_variant!(/// `italian`: fourfold repetition and 40 moves (our choice)
    Italian, "italian", ITALIAN, "W:W21-32:B1-12", Italian, false, draws(4, 40, false));
diagonal_variant!(/// `spanish`: 25 moves (our choice)
    Spanish, "spanish", SPANISH, "W:W1-12:B21-32", Spanish, false, draws(3, 25, false));
diagonal_variant!(/// `czech`: 25 moves (our choice)
    Czech, "czech", CZECH, "W:W21-32:B1-12", Standard, true, draws(3, 25, false));
