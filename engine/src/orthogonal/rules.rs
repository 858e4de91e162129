//! Compile-time rule sheets of the orthogonal family.
//!
//! Each variant is a zero-sized type implementing [`Rules`]; the generator reads `R::SHEET`'s
//! fields as constants, so every variant gets its own monomorphised move generator. A variant
//! that is "X plus one clause" is X's sheet with one field changed (struct update syntax).
//!
//! The rule card is `../shared/rules/orthogonal.md` ("the card"); each field and each sheet
//! cites the clause it encodes. Direction sets are bit masks of *relative* directions (bit 0 =
//! forward, then clockwise; see [`polydam_tables::orthogonal`]): for White they are the board
//! directions, for Black the board turned by 180 degrees, which is also how Harzdame's Black
//! men step "S or W" where White's step "N or E".

use polydam_tables::orthogonal::{file_mask, rank_mask, RANK_1, RANK_8};

use super::learned::Learned;
use crate::game::DrawRules;
use crate::learn::source::WeightsCell;

/// Forward (the card's N).
pub const FWD: u8 = 1 << 0;
/// Forward-right (NE).
pub const FWD_RIGHT: u8 = 1 << 1;
/// Right (E).
pub const RIGHT: u8 = 1 << 2;
/// Backward-right (SE).
pub const BACK_RIGHT: u8 = 1 << 3;
/// Backward (S).
pub const BACK: u8 = 1 << 4;
/// Backward-left (SW).
pub const BACK_LEFT: u8 = 1 << 5;
/// Left (W).
pub const LEFT: u8 = 1 << 6;
/// Forward-left (NW).
pub const FWD_LEFT: u8 = 1 << 7;

/// Card "O3" = N, E, W.
pub const O3: u8 = FWD | RIGHT | LEFT;
/// Card "O4" = N, E, S, W.
pub const O4: u8 = O3 | BACK;
/// Card "D2" = NE, NW.
pub const D2: u8 = FWD_RIGHT | FWD_LEFT;
/// Card "F5" = N, NE, NW, E, W (the five non-retreating directions).
pub const F5: u8 = O3 | D2;
/// Card "A8" = all eight directions.
pub const A8: u8 = 0xFF;
/// The four diagonal directions.
pub const DIAGONALS: u8 = FWD_RIGHT | BACK_RIGHT | BACK_LEFT | FWD_LEFT;

/// Where a flying king lands after a jump (card, "Common ground": "any" / "halt").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// On any empty square beyond the captured piece (before the next piece).
    Any,
    /// On the square immediately behind the captured piece, after every jump.
    Halt,
}

/// When captured pieces leave the board (card, "Removal").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removal {
    /// Each captured piece leaves at once: its square can be crossed or landed on later in the
    /// same sequence.
    Immediate,
    /// Captured pieces stay as obstacles until the sequence ends and may not be jumped twice.
    End,
}

/// What a man that reaches its promotion zone during a capture does (card, "Promotion").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promotion {
    /// Keeps capturing as a man if it can; crowned only if the move ends in the zone.
    ContinueAsMan,
    /// Becomes a king at once and goes on capturing as a king.
    CrownAndContinue,
    /// Becomes a king and the move ends there.
    CrownAndStop,
}

/// Hot knobs of one orthogonal variant, read as constants by the generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSheet {
    /// Card column "man step": directions of a man's one-square step.
    pub man_step: u8,
    /// Card column "man capture": directions of a man's short leap, from the first jump on.
    pub man_capture: u8,
    /// Directions a man may capture in only as the second or later jump of a sequence
    /// (`armenian-2`: "plus S only as 2nd or later jump", the deferred backward capture).
    pub man_capture_later: u8,
    /// Card column "king move": the directions of a king's quiet move.
    pub king_move: u8,
    /// Card column "king move": flying (any distance) rather than one step.
    pub king_move_flying: bool,
    /// Card column "king capture": the directions of a king's jump.
    pub king_capture: u8,
    /// Card column "king capture": flying rather than a short leap.
    pub king_capture_flying: bool,
    /// Card column "king capture": "any" or "halt" landing of a flying king.
    pub landing: Landing,
    /// Card column "removal".
    pub removal: Removal,
    /// Card "No 180° turn": a king may not reverse straight back between two consecutive jumps
    /// (immediate-removal variants; `keny`, `keny-2`: "180° allowed").
    pub no_reversal: bool,
    /// Card column "majority": the longest line (most pieces) is compulsory.
    pub majority: bool,
    /// Card column "promotion in capture".
    pub promotion: Promotion,
    /// Card "First-rank line leap": a man on its first rank may leap over a line of friendly
    /// pieces towards N, NE or NW.
    pub first_rank_leap: bool,
    /// Card note on `dameo`: the line move of an unbroken line of men along N, NE or NW.
    pub dameo_line: bool,
    /// The promotion zone of White and of Black (board squares). The far rank everywhere but
    /// in `harzdame` (card note: "White's promotion zone is c8-h8 and h3-h7 ...").
    pub zone: [u64; 2],
    /// Card note on `bahrain`: the threatened-man rule.
    pub bahrain: bool,
    /// Card "Game end": each side with exactly one piece is an immediate draw (Turkish and
    /// every variant "as Turkish").
    pub one_piece_draw: bool,
}

/// The far rank of each side: rank 8 for White, rank 1 for Black (card: "Promotion on the
/// far rank").
pub const FAR_RANK: [u64; 2] = [RANK_8, RANK_1];

/// Harzdame's zones (card note on `harzdame`): White c8-h8 and h3-h7, Black a1-a6 and b1-f1.
pub const HARZ_ZONE: [u64; 2] = [
    (RANK_8 & !(file_mask(0) | file_mask(1)))
        | (file_mask(7)
            & (rank_mask(2) | rank_mask(3) | rank_mask(4) | rank_mask(5) | rank_mask(6))),
    (file_mask(0) & !(rank_mask(6) | rank_mask(7))) | (RANK_1 & !(file_mask(6) | file_mask(7))),
];

/// `turkish` (card row `turkish`): T16; men step and capture O3; flying orthogonal king, any
/// landing, no 180° turn; immediate removal; majority; continue-as-man; 1-v-1 draw.
pub const TURKISH: RuleSheet = RuleSheet {
    man_step: O3,
    man_capture: O3,
    man_capture_later: 0,
    king_move: O4,
    king_move_flying: true,
    king_capture: O4,
    king_capture_flying: true,
    landing: Landing::Any,
    removal: Removal::Immediate,
    no_reversal: true,
    majority: true,
    promotion: Promotion::ContinueAsMan,
    first_rank_leap: false,
    dameo_line: false,
    zone: FAR_RANK,
    bahrain: false,
    one_piece_draw: true,
};

/// `turkish-modified`: B16 and the first-rank line leap ("Otherwise it's the same as Turkish").
pub const TURKISH_MODIFIED: RuleSheet = RuleSheet {
    first_rank_leap: true,
    ..TURKISH
};

/// `armenian`: men also step D2; kings move in all 8 directions but capture orthogonally.
pub const ARMENIAN: RuleSheet = RuleSheet {
    man_step: O3 | D2,
    king_move: A8,
    ..TURKISH
};

/// `armenian-2`: as Turkish, men capture backward only as the second or later jump.
pub const ARMENIAN_2: RuleSheet = RuleSheet {
    man_capture_later: BACK,
    ..TURKISH
};

/// `armenian-3`: Armenian with crown-and-continue.
pub const ARMENIAN_3: RuleSheet = RuleSheet {
    promotion: Promotion::CrownAndContinue,
    ..ARMENIAN
};

/// `gothic`: men step D2 and capture F5; one-step king in all 8 directions with a short leap;
/// immediate removal; majority; crown-and-stop; no 1-v-1 draw (not "as Turkish").
pub const GOTHIC: RuleSheet = RuleSheet {
    man_step: D2,
    man_capture: F5,
    king_move: A8,
    king_move_flying: false,
    king_capture: A8,
    king_capture_flying: false,
    promotion: Promotion::CrownAndStop,
    one_piece_draw: false,
    ..TURKISH
};

/// `gothic-modified`: Gothic plus the first-rank line leap.
pub const GOTHIC_MODIFIED: RuleSheet = RuleSheet {
    first_rank_leap: true,
    ..GOTHIC
};

/// `gothic-modified-2`: Modified Gothic without the majority rule.
pub const GOTHIC_MODIFIED_2: RuleSheet = RuleSheet {
    majority: false,
    ..GOTHIC_MODIFIED
};

/// `adigha`: as Turkish, with removal at the end and crown-and-continue.
pub const ADIGHA: RuleSheet = RuleSheet {
    removal: Removal::End,
    promotion: Promotion::CrownAndContinue,
    ..TURKISH
};

/// `croda`: men step N + D2, capture O4; flying orthogonal king; removal at the end; majority
/// and continue-as-man (both "our choice" on the card); no 1-v-1 draw.
pub const CRODA: RuleSheet = RuleSheet {
    man_step: FWD | D2,
    man_capture: O4,
    removal: Removal::End,
    one_piece_draw: false,
    ..TURKISH
};

/// `modern-gothic`: men step D2, capture O4; flying orthogonal king; removal at the end;
/// majority; continue-as-man; first-rank line leap.
pub const MODERN_GOTHIC: RuleSheet = RuleSheet {
    man_step: D2,
    first_rank_leap: true,
    ..CRODA
};

/// `teutonic`: Modern Gothic with men capturing F5.
pub const TEUTONIC: RuleSheet = RuleSheet {
    man_capture: F5,
    ..MODERN_GOTHIC
};

/// `greek`: as Turkish, the king halts right behind every captured piece.
pub const GREEK: RuleSheet = RuleSheet {
    landing: Landing::Halt,
    ..TURKISH
};

/// `greek-2`: halt, no majority.
pub const GREEK_2: RuleSheet = RuleSheet {
    majority: false,
    ..GREEK
};

/// `greek-3`: any landing, no majority.
pub const GREEK_3: RuleSheet = RuleSheet {
    majority: false,
    ..TURKISH
};

/// `greek-4`: any landing, majority, crown-and-continue.
pub const GREEK_4: RuleSheet = RuleSheet {
    promotion: Promotion::CrownAndContinue,
    ..TURKISH
};

/// `greek-5`: any landing, no majority, crown-and-continue.
pub const GREEK_5: RuleSheet = RuleSheet {
    majority: false,
    ..GREEK_4
};

/// `greek-6`: halt, majority, crown-and-continue.
pub const GREEK_6: RuleSheet = RuleSheet {
    promotion: Promotion::CrownAndContinue,
    ..GREEK
};

/// `greek-7`: halt, no majority, crown-and-continue.
pub const GREEK_7: RuleSheet = RuleSheet {
    majority: false,
    ..GREEK_6
};

/// `universal`: men step F5 and capture A8; flying king in all 8 directions, any landing;
/// removal at the end; majority and continue-as-man ("our choice"); no 1-v-1 draw.
pub const UNIVERSAL: RuleSheet = RuleSheet {
    man_step: F5,
    man_capture: A8,
    king_move: A8,
    king_capture: A8,
    removal: Removal::End,
    one_piece_draw: false,
    ..TURKISH
};

/// `dameo`: men step N + D2 as line moves, capture O4; kings move in all 8 directions and
/// capture orthogonally, any landing; removal at the end; majority; continue-as-man.
pub const DAMEO: RuleSheet = RuleSheet {
    man_step: FWD | D2,
    man_capture: O4,
    king_move: A8,
    removal: Removal::End,
    dameo_line: true,
    one_piece_draw: false,
    ..TURKISH
};

/// `turkthic`: men step and capture F5; flying king in all 8 directions, halting, no 180°
/// turn; immediate removal; majority (our choice); crown-and-continue; no 1-v-1 draw (the seed
/// does not call it "same as Turkish").
pub const TURKTHIC: RuleSheet = RuleSheet {
    man_step: F5,
    man_capture: F5,
    king_move: A8,
    king_capture: A8,
    landing: Landing::Halt,
    promotion: Promotion::CrownAndContinue,
    one_piece_draw: false,
    ..TURKISH
};

/// `turkthic-2`: Turkthic with a one-step king that captures by short leap.
pub const TURKTHIC_2: RuleSheet = RuleSheet {
    king_move_flying: false,
    king_capture_flying: false,
    ..TURKTHIC
};

/// `keny`: as Turkish, 180° turns allowed, crown-and-continue.
pub const KENY: RuleSheet = RuleSheet {
    no_reversal: false,
    promotion: Promotion::CrownAndContinue,
    ..TURKISH
};

/// `keny-2`: as Turkish, 180° turns allowed.
pub const KENY_2: RuleSheet = RuleSheet {
    no_reversal: false,
    ..TURKISH
};

/// `harzdame`: men step N or E (Black: S or W), capture O4; flying orthogonal king; removal at
/// the end; majority; continue-as-man; its own promotion zone; no 1-v-1 draw ("single Man
/// against single King is not generally drawn").
pub const HARZDAME: RuleSheet = RuleSheet {
    man_step: FWD | RIGHT,
    man_capture: O4,
    removal: Removal::End,
    zone: HARZ_ZONE,
    one_piece_draw: false,
    ..TURKISH
};

/// `bahrain`: Turkish plus the threatened-man rule.
pub const BAHRAIN: RuleSheet = RuleSheet {
    bahrain: true,
    ..TURKISH
};

/// `bosnian`: Turkish with men capturing O4.
pub const BOSNIAN: RuleSheet = RuleSheet {
    man_capture: O4,
    ..TURKISH
};

/// Card setup T16: White a2-h3, Black a6-h7.
pub const T16: &str = "W:Wa2-h3:Ba6-h7";
/// Card setup B16 ("bottommost"): White a1-h2, Black a7-h8.
pub const B16: &str = "W:Wa1-h2:Ba7-h8";
/// Card setup B24: White a1-h3, Black a6-h8.
pub const B24: &str = "W:Wa1-h3:Ba6-h8";
/// Card setup Dameo18: White a1-h1, b2-g2, c3-f3; Black a8-h8, b7-g7, c6-f6.
pub const DAMEO18: &str = "W:Wa1-h1,b2-g2,c3-f3:Bc6-f6,b7-g7,a8-h8";
/// Card setup Harz21: White a1-f1, a2-e2, a3-d3, a4-c4, a5-b5, a6; Black c8-h8, d7-h7,
/// e6-h6, f5-h5, g4-h4, h3.
pub const HARZ21: &str = "W:Wa1-f1,a2-e2,a3-d3,a4-c4,a5-b5,a6:Bh3,g4-h4,f5-h5,e6-h6,d7-h7,c8-h8";

/// Cold data of an orthogonal variant.
#[derive(Clone, Copy, Debug)]
pub struct OrthogonalInfo {
    /// The start position in the family's FEN (algebraic squares, rectangular ranges).
    pub start_fen: &'static str,
    /// Draw rules.
    pub draws: DrawRules,
}

/// An orthogonal variant: its rule sheet and its cold data.
pub trait Rules: Send + Sync + 'static {
    /// The registry name (as on the card), written only here (the registry row reads it).
    const NAME: &'static str;
    /// The hot knobs, read as constants by the generator.
    const SHEET: RuleSheet;
    /// The cold data.
    const INFO: OrthogonalInfo;
    /// Where the variant's learned evaluation is kept once loaded (see [`super::learned`]),
    /// or `None` (the default) for a rule sheet that never has one.
    fn learned_cell() -> Option<&'static WeightsCell<Learned>> {
        None
    }
}

/// The number of pieces White has in `fen`, a start FEN as the sheets write them (a side
/// letter, then `:W` and `:B` lists of squares and rectangles such as `a2-h3`), counted at
/// compile time.
///
/// # Panics
///
/// On a FEN without a White list (a build error where it is evaluated as a constant).
pub const fn white_pieces_in_fen(fen: &str) -> usize {
    let b = fen.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() && !(b[i] == b':' && b[i + 1] == b'W') {
        i += 1;
    }
    assert!(i + 1 < b.len(), "a start FEN without a White list");
    i += 2;
    let mut count = 0;
    while i + 1 < b.len() && b[i] != b':' {
        if b[i] == b',' || b[i] == b'K' {
            i += 1;
            continue;
        }
        // A square (file letter, rank digit), or a rectangle from one corner to the other.
        let (f0, r0) = (b[i], b[i + 1]);
        let (mut f1, mut r1) = (f0, r0);
        i += 2;
        if i + 2 < b.len() && b[i] == b'-' {
            (f1, r1) = (b[i + 1], b[i + 2]);
            i += 3;
        }
        count += (f0.abs_diff(f1) as usize + 1) * (r0.abs_diff(r1) as usize + 1);
    }
    count
}

/// The men each side starts with in variant `R` (every start is the same for both sides
/// turned half a turn): 16, 18 (Dameo), 21 (Harzdame) or 24. A constant of the variant.
pub const fn men_per_side<R: Rules>() -> usize {
    white_pieces_in_fen(R::INFO.start_fen)
}

/// Card "Game end": threefold repetition is a draw in every variant; the card gives no
/// move-count rule.
pub const DRAWS: DrawRules = DrawRules {
    repetitions: 3,
    quiet_plies: 0,
    endgame_counters: false,
};

/// The first rank of each side (where the line leap starts).
pub const FIRST_RANK: [u64; 2] = [RANK_1, RANK_8];

/// Number of one-square man steps from each square to the promotion zone on an empty board
/// (`u8::MAX` where it is unreachable), for White (`[0]`) and Black (`[1]`): the evaluation's
/// measure of advancement, computed at compile time from the sheet.
pub const fn promotion_distance(sheet: &RuleSheet) -> [[u8; 64]; 2] {
    let mut out = [[u8::MAX; 64]; 2];
    let mut side = 0;
    while side < 2 {
        // Relative directions turn by 180 degrees for Black.
        let dirs = if side == 0 {
            sheet.man_step
        } else {
            sheet.man_step.rotate_left(4)
        };
        let mut s = 0;
        while s < 64 {
            if sheet.zone[side] & (1u64 << s) != 0 {
                out[side][s] = 0;
            }
            s += 1;
        }
        // Relax until stable: at most 64 rounds.
        let mut round = 0;
        while round < 64 {
            let mut s = 0;
            while s < 64 {
                let mut d = 0;
                while d < 8 {
                    if dirs & (1 << d) != 0 {
                        let t = polydam_tables::orthogonal::step(1u64 << s, d);
                        if t != 0 {
                            let dt = out[side][t.trailing_zeros() as usize];
                            if dt != u8::MAX && dt + 1 < out[side][s] {
                                out[side][s] = dt + 1;
                            }
                        }
                    }
                    d += 1;
                }
                s += 1;
            }
            round += 1;
        }
        side += 1;
    }
    out
}

macro_rules! orthogonal_variant {
    ($(#[$doc:meta])* $ty:ident, $name:literal, $sheet:expr, $setup:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $ty;
        impl Rules for $ty {
            const NAME: &'static str = $name;
            const SHEET: RuleSheet = $sheet;
            const INFO: OrthogonalInfo = OrthogonalInfo {
                start_fen: $setup,
                draws: DRAWS,
            };
            fn learned_cell() -> Option<&'static WeightsCell<Learned>> {
                static CELL: WeightsCell<Learned> = WeightsCell::new();
                Some(&CELL)
            }
        }
    };
}

orthogonal_variant!(/// `turkish` (card row `turkish`, setup T16).
    Turkish, "turkish", TURKISH, T16);
orthogonal_variant!(/// `turkish-modified` (card row, setup B16).
    TurkishModified, "turkish-modified", TURKISH_MODIFIED, B16);
orthogonal_variant!(/// `armenian` (card row, setup T16).
    Armenian, "armenian", ARMENIAN, T16);
orthogonal_variant!(/// `armenian-2` (card row, setup T16).
    Armenian2, "armenian-2", ARMENIAN_2, T16);
orthogonal_variant!(/// `armenian-3` (card row, setup T16).
    Armenian3, "armenian-3", ARMENIAN_3, T16);
orthogonal_variant!(/// `gothic` (card row, setup B16).
    Gothic, "gothic", GOTHIC, B16);
orthogonal_variant!(/// `gothic-modified` (card row, setup B16).
    GothicModified, "gothic-modified", GOTHIC_MODIFIED, B16);
orthogonal_variant!(/// `gothic-modified-2` (card row, setup B16).
    GothicModified2, "gothic-modified-2", GOTHIC_MODIFIED_2, B16);
orthogonal_variant!(/// `adigha` (card row, setup T16).
    Adigha, "adigha", ADIGHA, T16);
orthogonal_variant!(/// `croda` (card row, setup B24).
    Croda, "croda", CRODA, B24);
orthogonal_variant!(/// `modern-gothic` (card row, setup B24).
    ModernGothic, "modern-gothic", MODERN_GOTHIC, B24);
orthogonal_variant!(/// `modern-gothic-2` (card row: Modern Gothic with setup B16).
    ModernGothic2, "modern-gothic-2", MODERN_GOTHIC, B16);
orthogonal_variant!(/// `teutonic` (card row, setup B24).
    Teutonic, "teutonic", TEUTONIC, B24);
orthogonal_variant!(/// `teutonic-2` (card row: Teutonic with setup B16).
    Teutonic2, "teutonic-2", TEUTONIC, B16);
orthogonal_variant!(/// `greek` (card row, setup T16).
    Greek, "greek", GREEK, T16);
orthogonal_variant!(/// `greek-2` (card row, setup T16).
    Greek2, "greek-2", GREEK_2, T16);
orthogonal_variant!(/// `greek-3` (card row, setup T16).
    Greek3, "greek-3", GREEK_3, T16);
orthogonal_variant!(/// `greek-4` (card row, setup T16).
    Greek4, "greek-4", GREEK_4, T16);
orthogonal_variant!(/// `greek-5` (card row, setup T16).
    Greek5, "greek-5", GREEK_5, T16);
orthogonal_variant!(/// `greek-6` (card row, setup T16).
    Greek6, "greek-6", GREEK_6, T16);
orthogonal_variant!(/// `greek-7` (card row, setup T16).
    Greek7, "greek-7", GREEK_7, T16);
orthogonal_variant!(/// `universal` (card row, setup B24).
    Universal, "universal", UNIVERSAL, B24);
orthogonal_variant!(/// `dameo` (card row, setup Dameo18).
    Dameo, "dameo", DAMEO, DAMEO18);
orthogonal_variant!(/// `turkthic` (card row, setup T16).
    Turkthic, "turkthic", TURKTHIC, T16);
orthogonal_variant!(/// `turkthic-2` (card row, setup T16).
    Turkthic2, "turkthic-2", TURKTHIC_2, T16);
orthogonal_variant!(/// `keny` (card row, setup T16).
    Keny, "keny", KENY, T16);
orthogonal_variant!(/// `keny-2` (card row, setup T16).
    Keny2, "keny-2", KENY_2, T16);
orthogonal_variant!(/// `harzdame` (card row, setup Harz21).
    Harzdame, "harzdame", HARZDAME, HARZ21);
orthogonal_variant!(/// `bahrain` (card row, setup T16).
    Bahrain, "bahrain", BAHRAIN, T16);
orthogonal_variant!(/// `bosnian` (card row, setup T16).
    Bosnian, "bosnian", BOSNIAN, T16);

#[cfg(test)]
mod tests {
    use super::*;
    use polydam_tables::orthogonal::square;

    #[test]
    fn harzdame_zones_have_eleven_squares_and_turn_into_each_other() {
        assert_eq!(HARZ_ZONE[0].count_ones(), 11);
        assert_eq!(HARZ_ZONE[1].count_ones(), 11);
        assert_eq!(HARZ_ZONE[0].reverse_bits(), HARZ_ZONE[1]);
        assert_ne!(HARZ_ZONE[0] & (1u64 << square(2, 7)), 0); // c8
        assert_ne!(HARZ_ZONE[0] & (1u64 << square(7, 2)), 0); // h3
        assert_eq!(HARZ_ZONE[0] & (1u64 << square(1, 7)), 0); // b8
    }

    #[test]
    fn men_per_side_counts_the_start_fen() {
        assert_eq!(men_per_side::<Turkish>(), 16);
        assert_eq!(men_per_side::<Gothic>(), 16);
        assert_eq!(men_per_side::<Dameo>(), 18);
        assert_eq!(men_per_side::<Harzdame>(), 21);
        assert_eq!(men_per_side::<Croda>(), 24);
        // Every variant starts from one of the card's setups.
        for (fen, men) in [(T16, 16), (B16, 16), (B24, 24), (DAMEO18, 18), (HARZ21, 21)] {
            assert_eq!(white_pieces_in_fen(fen), men, "{fen}");
            let setup = crate::orthogonal::notation::parse_fen(fen).expect("card setup");
            assert_eq!(setup.pieces.len(), 2 * men, "{fen}");
        }
        assert_eq!(white_pieces_in_fen("B:WKd4,a1-b2:Bc6"), 5);
        assert_eq!(white_pieces_in_fen("W:Bc6:Wh8-g7"), 4);
    }

    #[test]
    fn promotion_distance_turkish_and_harzdame() {
        let t = promotion_distance(&TURKISH);
        assert_eq!(t[0][square(3, 2) as usize], 5); // d3
        assert_eq!(t[1][square(3, 5) as usize], 5); // d6
        let h = promotion_distance(&HARZDAME);
        assert_eq!(h[0][0], 9); // a1: seven steps N to a8, two E to c8
        assert_eq!(h[0][square(6, 2) as usize], 1); // g3 -> h3
        assert_eq!(h[1][63], 9);
    }
}
