//! The weights of the hand evaluation, one constant per kind of variant, and the per-rule
//! facts the evaluation scales them by (what a king is worth, how many pieces a lone king
//! holds against).

use polydam_tables::diagonal::{EIGHT, TEN, TWELVE};

use crate::diagonal::rules::{Goal, Halt, RuleSheet, Rules};

/// The tunable weights of one kind of variant, in hundredths of a man.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king.
    pub king: i32,
    /// Per man, by advancement (rows in front of its own back row), in the middle game.
    pub advance: [i32; 12],
    /// The same in the endgame (interpolated by the number of men left).
    pub advance_endgame: [i32; 12],
    /// Per man on the central squares.
    pub centre: i32,
    /// Per man on the own back row while the opponent has no king (it stops breakthroughs).
    pub back_guard: i32,
    /// Penalty per unit of left/right imbalance of a side's men (files weighted by their
    /// distance from the middle).
    pub balance: i32,
    /// Per forward step a man could make now (a side that runs out of moves loses).
    pub mobility: i32,
    /// Per square a king could move to.
    pub king_mobility: i32,
    /// A runaway man (nothing can stop it reaching the far row), by rows still to go.
    pub runaway: [i32; 12],
    /// Bonus for the side ahead in material, growing as material comes off (trade when ahead).
    pub exchange: i32,
}

/// Flying kings on 10x10 (International and its relatives).
pub const TEN_FLYING: Weights = Weights {
    man: 100,
    king: 320,
    advance: [0, 2, 4, 6, 8, 9, 10, 12, 16, 0, 0, 0],
    advance_endgame: [0, 4, 8, 12, 16, 20, 26, 34, 44, 0, 0, 0],
    centre: 6,
    back_guard: 5,
    balance: 2,
    mobility: 2,
    king_mobility: 2,
    runaway: [0, 250, 220, 190, 150, 110, 70, 40, 0, 0, 0, 0],
    exchange: 20,
};

/// Flying kings on 12x12 (Canadian): International's weights, advancement spread over the
/// two more rows.
pub const TWELVE_FLYING: Weights = Weights {
    man: 100,
    king: 320,
    advance: [0, 2, 3, 5, 6, 8, 9, 10, 12, 14, 18, 0],
    advance_endgame: [0, 3, 6, 10, 13, 17, 21, 26, 32, 38, 46, 0],
    centre: 5,
    back_guard: 5,
    balance: 2,
    mobility: 2,
    king_mobility: 2,
    runaway: [0, 250, 225, 200, 175, 150, 120, 90, 60, 30, 0, 0],
    exchange: 20,
};

/// Frisian draughts (10x10, captures along rows and files too): International's weights with
/// a king worth a little less, since a king that has made three quiet moves must rest
/// (untuned starting values; the learned weights correct them).
pub const FRISIAN: Weights = Weights {
    king: 280,
    ..TEN_FLYING
};

/// Thai draughts (8x8, eight men each, kings that land right behind each piece they take):
/// the 8x8 flying weights with a cheaper king, which cannot take from afar and escape
/// (untuned starting values).
pub const THAI: Weights = Weights {
    king: 200,
    ..EIGHT_FLYING
};

/// Flying kings on 8x8 (Russian, Brazilian, Pool, Spanish, Czech).
pub const EIGHT_FLYING: Weights = Weights {
    man: 100,
    king: 260,
    advance: [0, 3, 6, 9, 12, 15, 20, 0, 0, 0, 0, 0],
    advance_endgame: [0, 6, 12, 18, 26, 36, 48, 0, 0, 0, 0, 0],
    centre: 8,
    back_guard: 6,
    balance: 2,
    mobility: 2,
    king_mobility: 2,
    runaway: [0, 200, 160, 120, 80, 40, 0, 0, 0, 0, 0, 0],
    exchange: 20,
};

/// Short kings on 8x8 (English, Italian): a king is worth much less.
pub const EIGHT_SHORT: Weights = Weights {
    man: 100,
    king: 150,
    advance: [0, 2, 4, 6, 8, 10, 14, 0, 0, 0, 0, 0],
    advance_endgame: [0, 4, 8, 12, 16, 20, 26, 0, 0, 0, 0, 0],
    centre: 8,
    back_guard: 8,
    balance: 1,
    mobility: 2,
    king_mobility: 4,
    runaway: [0, 40, 30, 20, 10, 0, 0, 0, 0, 0, 0, 0],
    exchange: 20,
};

/// Breakthrough: the first king wins, so advancement and runaways dominate.
pub const BREAKTHROUGH: Weights = Weights {
    man: 100,
    king: 0,
    advance: [0, 3, 6, 10, 15, 22, 32, 46, 66, 0, 0, 0],
    advance_endgame: [0, 6, 12, 20, 30, 44, 64, 92, 132, 0, 0, 0],
    centre: 4,
    back_guard: 12,
    balance: 2,
    mobility: 2,
    king_mobility: 0,
    runaway: [0, 3000, 2600, 2200, 1800, 1400, 1000, 600, 0, 0, 0, 0],
    exchange: 0,
};

/// Antidraughts: material counts against its owner.
pub const ANTIDRAUGHTS: Weights = Weights {
    man: -100,
    king: -150,
    advance: [0; 12],
    advance_endgame: [0; 12],
    centre: 0,
    back_guard: 0,
    balance: 0,
    mobility: -3,
    king_mobility: -1,
    runaway: [0; 12],
    exchange: 0,
};

/// The weights the variant `R` is evaluated with.
#[inline(always)]
pub fn weights<R: Rules>() -> &'static Weights {
    match R::SHEET.goal {
        Goal::NoMoveWins => &ANTIDRAUGHTS,
        Goal::FirstKingWins => &BREAKTHROUGH,
        Goal::Normal => {
            if R::SHEET.orthogonal_captures {
                &FRISIAN
            } else if R::SHEET.board.half == TEN.half {
                &TEN_FLYING
            } else if R::SHEET.board.half == TWELVE.half {
                &TWELVE_FLYING
            } else if R::SHEET.king_lands_behind {
                &THAI
            } else if R::SHEET.flying_kings {
                &EIGHT_FLYING
            } else {
                &EIGHT_SHORT
            }
        }
    }
}

/// What a king is worth under `sheet`'s rules, in percent of its family's [`Weights::king`].
///
/// A flying king's value comes from being hard to catch. The halt rules (card
/// `diagonal-10x10.md`, "Deferred backward capture") make a king that captures into a trap land
/// right behind the last piece it took, where it can be taken back, and the Constitutional
/// restriction (card, "`constitutional`") forbids it to slide past threatened squares: both
/// make kings easier to trap, the more so the more captures the rule affects. Untuned starting
/// values in the order of how often each rule bites.
#[inline]
pub const fn king_value_percent(sheet: &RuleSheet) -> i32 {
    if sheet.constitutional {
        return 85;
    }
    match sheet.halt {
        Halt::None => 100,
        // Every capture whose last piece is a king halts (Killer, `dbc-killer`).
        Halt::LastKing => 80,
        // Every multiple capture halts (`dbc-halt`).
        Halt::TwoOrMore => 85,
        // Multiple captures ending on a king (`dbc-killer-light`).
        Halt::LastKingOfTwoOrMore => 90,
        // Multiple captures ending on two kings (`dbc-halt-2`).
        Halt::LastTwoKings => 95,
    }
}

/// The largest number of pieces a lone defending king usually holds a draw against, when the
/// attackers have nothing else (a guide for the evaluation; the search finds the actual wins).
///
/// With flying kings, International's lone king on the long diagonal holds against three;
/// so does the 8x8 one on the main road (a1-h8), but there the attackers win once one of
/// their kings stands on the road (see [`main_road_decides`]).
/// Canadian's 12x12 board is taken to be like 10x10, not measured.
/// Each halt rule lets the attacker sacrifice a king so that the lone king's capture must stop
/// right behind it, on a square where it is taken: against one extra piece when any capture of
/// a king halts (Killer, `dbc-killer`), against two more when only multiple captures halt
/// (`dbc-killer-light`, `dbc-halt`, `dbc-halt-2`). The Constitutional restriction stops the
/// lone king sliding past the attackers' threats, so two kings beat one. Measured with
/// `polydam analyse --depth 14` on random positions with the lone king on the long diagonal:
/// every such position above the limit was a forced win, none at the limit.
#[inline]
pub const fn lone_king_holds_against(sheet: &RuleSheet) -> i32 {
    if !sheet.flying_kings {
        return 0;
    }
    // Frisian kings also take along rows and files, and the card gives two kings seven moves
    // to win against one; Thai kings must land right behind, and two beat one [MS]. Taken
    // from the rules, not measured.
    if sheet.orthogonal_captures || sheet.king_lands_behind {
        return 1;
    }
    if sheet.board.half == EIGHT.half {
        return 3;
    }
    if sheet.constitutional {
        return 1;
    }
    match sheet.halt {
        Halt::None => 3,
        Halt::LastKing => 1,
        Halt::LastKingOfTwoOrMore | Halt::TwoOrMore | Halt::LastTwoKings => 2,
    }
}

/// Whether three kings against a lone king are decided by the main road (the long diagonal,
/// a1-h8): on the 8x8 board with flying kings the lone king draws while it has the road to
/// itself, and loses once an attacking king stands on it (Petrov's triangle), as the 2-4
/// piece tables of Russian, Brazilian and pool say (tests/egtb.rs checks Russian's). On
/// 10x10 three kings draw against one even when they hold the long diagonal.
#[inline]
pub const fn main_road_decides(sheet: &RuleSheet) -> bool {
    lone_king_holds_against(sheet) == 3 && sheet.board.half == EIGHT.half
}
