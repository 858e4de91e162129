//! Compile-time rule sheets of the diagonal family.
//!
//! Each variant is a zero-sized type implementing [`Rules`]; the generator reads `R::SHEET`'s
//! fields as constants, so every variant gets its own monomorphised move generator (a runtime
//! struct measured 1.3-1.6x slower, see `../shared/ARCHITECTURE.md`). A variant that is "X plus
//! one clause" is X's sheet with one field changed (struct update syntax).
//!
//! The rule cards are `../shared/rules/diagonal-10x10.md`, `../shared/rules/diagonal-8x8.md`,
//! `../shared/rules/canadian-12x12.md`, `../shared/rules/frisian.md` and
//! `../shared/rules/thai.md`; each field cites the clause it encodes.

use polydam_tables::diagonal::{Geometry, EIGHT, TEN, TWELVE};

use super::bits::Bits;
use super::learned::Learned;
use crate::learn::source::WeightsCell;

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
    /// Frisian value rule: the larger men + 2 x kings captured; then fewer kings; then the
    /// sequence played with a king.
    Frisian,
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
    /// The board: 8x8, 10x10 or 12x12.
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
    /// Men and kings also capture along rows and files (Frisian), not only diagonals.
    pub orthogonal_captures: bool,
    /// A king's every jump lands on the square right behind the captured piece (Thai); else
    /// anywhere beyond it.
    pub king_lands_behind: bool,
    /// Captured pieces leave the board at once, so their squares are empty for the rest of the
    /// sequence (Thai); else they stay until the sequence ends, blocking lines.
    pub immediate_removal: bool,
    /// Frisian's limit of three successive quiet moves by one king while its side has men,
    /// counted in the position.
    pub king_move_limit: bool,
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
    orthogonal_captures: false,
    king_lands_behind: false,
    immediate_removal: false,
    king_move_limit: false,
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

/// Canadian draughts (card `canadian-12x12.md`): "the rules of the Canadian and the
/// International game are the same; the only differences are the number of squares, 144, and
/// of men, 30 against 30" (men capture backward, flying kings, majority rule, crowned only at
/// the end, no huffing).
pub const CANADIAN: RuleSheet = RuleSheet {
    board: TWELVE,
    ..INTERNATIONAL
};

/// Frisian draughts (card `frisian.md`), International's board and numbering.
pub const FRISIAN: RuleSheet = RuleSheet {
    // "A man captures in eight directions, forward and backward: the four diagonals ... and
    // the four orthogonal lines"; "A king captures in all eight directions at any distance";
    // a king's simple move is "flying and diagonal only".
    orthogonal_captures: true,
    // "Value rule": P = M + 2K, then fewer kings, then played with a king, then free.
    precedence: Precedence::Frisian,
    // "Three-move limit": one king, three successive quiet moves while its side has men.
    king_move_limit: true,
    // "Crowned only if its move ends on the far row"; captured pieces "stay on the board
    // until the sequence is over"; men capture kings; kings fly: International's values.
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
/// Thai draughts, Mak-hot (card `thai.md`), on the 8x8 board with a1 dark.
pub const THAI: RuleSheet = RuleSheet {
    // "A man captures forward only (the two forward diagonals)".
    men_capture_backward: false,
    // "A king captures an enemy piece at any distance ... but must land on the square
    // immediately behind it"; "a 180° turn is allowed" (every direction is tried after each
    // jump: with immediate removal the way back is open).
    king_lands_behind: true,
    // "Immediate removal: each captured piece leaves the board as soon as it is jumped".
    immediate_removal: true,
    // "No precedence: any capture sequence may be chosen".
    precedence: Precedence::Free,
    // "A man that ends a step or a capture on the far row becomes a king" (it can never
    // capture on from there, so crowning at the end is the whole rule); flying kings.
    ..BRAZILIAN
};

/// How a variant numbers its squares relative to the internal layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbering {
    /// Square 1 is the top-left playing square (b8 / b10), numbered left to right.
    Standard,
    /// Italian: the board is turned, square 1 is a8 (rows numbered right to left internally);
    /// also Sri Lankan's 12x12 board, where square 1 is a12.
    Italian,
    /// Spanish: square 1 is h1 on a turned board, numbered right to left from White's side.
    Spanish,
}

/// Which endgame counter rule a variant's draws include (when its
/// [`DrawRules::endgame_counters`] is set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endgames {
    /// FMJD: against a lone king, 16 moves each for 3 pieces, 5 for 2 or 1 (with a king).
    Fmjd,
    /// Frisian: 2 kings against 1, 7 moves each; 1 king against 1, 2 moves each (no men).
    Frisian,
}

/// How PDN writes a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdnCaptures {
    /// Every landing square (`26x17x10`).
    Path,
    /// Start and end (`26x10`), with the landing squares only when another legal capture
    /// shares both (the Canadian, Frisian and Thai cards).
    Short,
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
    /// The endgame counter rule, if `draws` has one.
    pub endgames: Endgames,
    /// How PDN writes captures.
    pub pdn_captures: PdnCaptures,
    /// The separator of a PDN capture with numbered squares (`x`; Thai `-`).
    pub pdn_capture_separator: char,
    /// The variant whose learned weights this one plays with, when both are the same game on
    /// the same internal board (Sri Lankan plays Canadian's), or `None` for its own.
    pub weights_of: Option<&'static str>,
}

impl DiagonalInfo {
    /// The fields most variants share, for struct update syntax: the FMJD endgames (read only
    /// with `draws.endgame_counters`), captures written with every landing square and `x`.
    pub const BASE: DiagonalInfo = DiagonalInfo {
        start_fen: "",
        numbering: Numbering::Standard,
        algebraic: false,
        draws: draws(3, 25, true),
        endgames: Endgames::Fmjd,
        pdn_captures: PdnCaptures::Path,
        pdn_capture_separator: 'x',
        weights_of: None,
    };
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
    fn learned_cell() -> Option<&'static WeightsCell<Learned>> {
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

/// Frisian draw rules: threefold repetition (our choice, as Scan), no quiet-move count, the
/// 2-against-1 and 1-against-1 king endgames.
const FRISIAN_DRAWS: DrawRules = draws(3, 0, true);

/// A variant's type, its [`Rules`] and its learned-weights cell: `Name[: word], "name", SHEET,
/// "start FEN", numbering, algebraic, draws` and any further [`DiagonalInfo`] fields as
/// `field: value` (the rest from [`DiagonalInfo::BASE`]). The word is `u64` unless given.
macro_rules! diagonal_variant {
    (@bits) => { u64 };
    (@bits $bits:ty) => { $bits };
    ($(#[$doc:meta])* $ty:ident $(: $bits:ty)?, $name:literal, $sheet:expr, $fen:literal,
     $numbering:ident, $algebraic:literal, $draws:expr $(, $field:ident: $value:expr)*) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $ty;
        impl Rules for $ty {
            type Bits = diagonal_variant!(@bits $($bits)?);
            const NAME: &'static str = $name;
            const SHEET: RuleSheet = $sheet;
            const INFO: DiagonalInfo = DiagonalInfo {
                start_fen: $fen,
                numbering: Numbering::$numbering,
                algebraic: $algebraic,
                draws: $draws,
                $($field: $value,)*
                ..DiagonalInfo::BASE
            };
            fn learned_cell() -> Option<&'static WeightsCell<Learned>> {
                static CELL: WeightsCell<Learned> = WeightsCell::new();
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

// 12x12 card: "Start: ... `W:W43-72:B1-30`. White moves first"; the draws are International's
// (our choice, reading "the same rules as International" as including the FMJD draw articles).
diagonal_variant!(/// `canadian`: "PDN captures `from x to`, adding landing squares only when two
    /// legal captures share start and end"
    Canadian: u128, "canadian", CANADIAN, "W:W43-72:B1-30", Standard, false, FMJD_DRAWS,
    pdn_captures: PdnCaptures::Short);
// 12x12 card, note under Perft: `srilankan` is "International rules on the 12x12 board with the
// other colouring" (dctl checks the same counts). The other colouring is Canadian's board seen
// in a mirror, so the internal game is Canadian's and only the numbering turns (our choice:
// square 1 = a12, numbered left to right row by row from the top, as Italian's 8x8 board).
diagonal_variant!(/// `srilankan`: Canadian's rules on the 12x12 board with a light a1
    SriLankan: u128, "srilankan", CANADIAN, "W:W43-72:B1-30", Italian, false, FMJD_DRAWS,
    pdn_captures: PdnCaptures::Short, weights_of: Some("canadian"));

// Frisian card: "Start: Black men on 1-20, White men on 31-50"; Frysk!: "five men each on the
// first row"; draws: threefold repetition, the 2-against-1 and 1-against-1 counts, no other;
// PDN captures `from x to` unless two legal captures share start and end.
diagonal_variant!(/// `frisian`
    Frisian, "frisian", FRISIAN, "W:W31-50:B1-20", Standard, false, FRISIAN_DRAWS,
    endgames: Endgames::Frisian, pdn_captures: PdnCaptures::Short);
diagonal_variant!(/// `frysk`: Frisian from five men each
    Frysk, "frysk", FRISIAN, "W:W46-50:B1-5", Standard, false, FRISIAN_DRAWS,
    endgames: Endgames::Frisian, pdn_captures: PdnCaptures::Short);

// Thai card: "Start: 8 men each on the two rows nearest their owner", the side on 25-32 moves
// first (our choice); draws: threefold repetition and 25 moves each (our choice); PDN captures
// with `-` (our choice), landing squares only when needed.
diagonal_variant!(/// `thai`
    Thai, "thai", THAI, "W:W25-32:B1-8", Standard, false, draws(3, 25, false),
    pdn_captures: PdnCaptures::Short, pdn_capture_separator: '-');

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
