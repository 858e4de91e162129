//! The rules of every variant as a person reads them: the data behind the page's variant
//! picker (proper names, groups, search words) and the rules page `/rules/VARIANT`.
//!
//! Most of a page is written from the engine's own rule sheets (`engine/src/diagonal/rules.rs`,
//! `engine/src/orthogonal/rules.rs`) and registry (start position, draw rules), so that what the
//! page says is what the engine plays; the clauses a sheet holds only as a flag (Italian
//! precedence, Dameo's line move, Frisian's value rule, ...) and the whole of the stack games
//! are copied here from the rule cards in `../shared/rules/` (the project's contract), each row
//! naming its card. A test checks that every registered variant has one entry whose every
//! section has text.

use polydam_engine::diagonal::rules::{
    self as dr, DiagonalInfo, Endgames, Goal, Halt, Numbering, Precedence,
    Promotion as DiagonalPromotion, RuleSheet as DiagonalSheet,
};
use polydam_engine::game::DrawRules;
use polydam_engine::hex::{HexBoard, Side4, Side5};
use polydam_engine::orthogonal::rules::{
    self as or, Landing, OrthogonalInfo, Promotion as OrthogonalPromotion, Removal,
    RuleSheet as OrthogonalSheet,
};
use polydam_engine::variants::{self, UnknownVariant, VariantEntry};
use polydam_engine::Game;

/// A group of the picker: variants a player looks for together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// International draughts and the 10x10 games built on it.
    International,
    /// Frisian draughts and Frysk!.
    Frisian,
    /// The 8x8 national games with men and kings on the dark squares.
    Diagonal8,
    /// The 12x12 games.
    Diagonal12,
    /// Turkish draughts and the games "as Turkish".
    Turkish,
    /// The other games of the Gothic page (Winther).
    Gothic,
    /// Seesaw Draughts.
    Stacks,
    /// Hex Seesaw.
    Hex,
}

impl Group {
    /// Every group, in the picker's order.
    pub const ALL: [Group; 8] = [
        Group::International,
        Group::Frisian,
        Group::Diagonal8,
        Group::Diagonal12,
        Group::Turkish,
        Group::Gothic,
        Group::Stacks,
        Group::Hex,
    ];

    /// A short identifier (for JSON and HTML).
    pub fn id(self) -> &'static str {
        match self {
            Group::International => "international",
            Group::Frisian => "frisian",
            Group::Diagonal8 => "diagonal-8x8",
            Group::Diagonal12 => "diagonal-12x12",
            Group::Turkish => "turkish",
            Group::Gothic => "gothic",
            Group::Stacks => "stacks",
            Group::Hex => "hex",
        }
    }

    /// The group's heading.
    pub fn title(self) -> &'static str {
        match self {
            Group::International => "International family (10x10)",
            Group::Frisian => "Frisian family (10x10)",
            Group::Diagonal8 => "8x8 diagonal (national games)",
            Group::Diagonal12 => "12x12 diagonal",
            Group::Turkish => "Turkish family (orthogonal 8x8)",
            Group::Gothic => "Gothic-page games (orthogonal 8x8)",
            Group::Stacks => "Stacks",
            Group::Hex => "Hex",
        }
    }
}

/// The section of a rules page a clause belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The board, the start and the first move.
    Board,
    /// How men move and capture.
    Men,
    /// How kings move and capture (or what the game has instead).
    Kings,
    /// Compulsory capture, precedence, removal.
    Captures,
    /// Promotion.
    Promotion,
    /// How the game ends, and draws.
    End,
    /// The card's "(our choice)" items and Polydam's own readings.
    Choices,
    /// Where the rules come from.
    Sources,
}

impl Part {
    /// Every part, in page order.
    pub const ALL: [Part; 8] = [
        Part::Board,
        Part::Men,
        Part::Kings,
        Part::Captures,
        Part::Promotion,
        Part::End,
        Part::Choices,
        Part::Sources,
    ];

    /// The section's heading.
    pub fn title(self) -> &'static str {
        match self {
            Part::Board => "Board and start",
            Part::Men => "Men",
            Part::Kings => "Kings",
            Part::Captures => "Captures",
            Part::Promotion => "Promotion",
            Part::End => "End of the game and draws",
            Part::Choices => "Our choices",
            Part::Sources => "Sources",
        }
    }

    /// A short identifier (HTML `id`).
    pub fn id(self) -> &'static str {
        match self {
            Part::Board => "board",
            Part::Men => "men",
            Part::Kings => "kings",
            Part::Captures => "captures",
            Part::Promotion => "promotion",
            Part::End => "end",
            Part::Choices => "choices",
            Part::Sources => "sources",
        }
    }
}

/// What the engine plays, as far as the page reads it.
#[derive(Clone, Copy, Debug)]
enum Sheet {
    /// A diagonal variant's rule sheet and cold data.
    Diagonal(DiagonalSheet, DiagonalInfo),
    /// An orthogonal variant's rule sheet and cold data.
    Orthogonal(OrthogonalSheet, OrthogonalInfo),
    /// Seesaw Draughts (no sheet: one variant).
    Stacks,
    /// Hex Seesaw on a board of this side.
    Hex(u32),
}

/// One variant's entry: what is not in the engine's sheets.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The registry name, read from the game type.
    name: &'static str,
    /// The proper name.
    title: &'static str,
    group: Group,
    /// Other names people know it by (searched by the picker).
    known_as: &'static [&'static str],
    sheet: Sheet,
    /// The rule card and its section (a file of `../shared/rules/`).
    card: &'static str,
    /// Clauses of the card the sheet does not spell out, by section.
    notes: &'static [(Part, &'static str)],
}

const fn diagonal<R: dr::Rules>() -> (&'static str, Sheet) {
    (R::NAME, Sheet::Diagonal(R::SHEET, R::INFO))
}

const fn orthogonal<R: or::Rules>() -> (&'static str, Sheet) {
    (R::NAME, Sheet::Orthogonal(R::SHEET, R::INFO))
}

const fn hex<B: HexBoard>(side: u32) -> (&'static str, Sheet) {
    (B::NAME, Sheet::Hex(side))
}

/// An entry from a game's name and sheet.
const fn entry(
    game: (&'static str, Sheet),
    title: &'static str,
    group: Group,
    known_as: &'static [&'static str],
    card: &'static str,
    notes: &'static [(Part, &'static str)],
) -> Entry {
    Entry {
        name: game.0,
        title,
        group,
        known_as,
        sheet: game.1,
        card,
        notes,
    }
}

const TEN_CARD: &str = "diagonal-10x10.md";
const EIGHT_CARD: &str = "diagonal-8x8.md";
const ORTHOGONAL_CARD: &str = "orthogonal.md";

/// The Frisian card's clauses that are flags on the sheet.
const FRISIAN_NOTES: &[(Part, &str)] = &[
    (Part::Board, "Along a row, the next dark square is n-1 or n+1; along a file it is n-10 or n+10 (two ranks away): from 33 the orthogonal neighbours are 32, 34, 23 and 43."),
    (Part::Captures, "Value rule in full: the larger men + 2 x kings captured wins; at equal value the sequence taking fewer kings (more men); then the one played with a king; otherwise the choice is free. So 2 men beat 1 king, 2 kings beat 3 men, and 1 king + 2 men beat 2 kings."),
    (Part::Kings, "The three-move limit is counted per side (1-3 quiet moves in a row, and the king's square); a capture or a move of another piece releases it. A side that has only kings is not restricted."),
    (Part::Choices, "A side whose only moves are refused by the three-move limit has lost (as Scan and Lidraughts)."),
    (Part::Choices, "The value order of dctl, Scan and Lidraughts: 1 king + 2 men beat 2 kings."),
    (Part::Choices, "Two kings against one (no men) are drawn 14 plies after that material arose, one king against one after 4 plies (Lidraughts' counts)."),
    (Part::Choices, "Threefold repetition applies (as Scan; Lidraughts and pydraughts do not apply it); no other count."),
    (Part::Choices, "A position given without history starts with no king-move counters."),
    (Part::Choices, "A king's quiet move is diagonal only (one source lets it move straight too)."),
];

const ITALIAN_NOTES: &[(Part, &str)] = &[
    (Part::Board, "The board is turned: a1 is a light square, and square 1 is a8."),
    (Part::Choices, "Draws: a position occurring four times, and 40 moves each without a man move or a capture (some sources)."),
];

/// Every variant, in registry order (checked by a test).
static BOOK: &[Entry] = &[
    entry(diagonal::<dr::International>(), "International draughts", Group::International,
        &["FMJD", "Polish draughts", "dammen"], TEN_CARD, &[]),
    entry(diagonal::<dr::Killer>(), "Killer draughts", Group::International, &["Freeling"],
        TEN_CARD, &[(Part::Kings, "The halt only restricts the final landing: a king that can go on capturing from some square beyond must do so (continuation stays compulsory and the majority rule still applies).")]),
    entry(diagonal::<dr::Brazilian>(), "Brazilian draughts", Group::Diagonal8, &[], EIGHT_CARD, &[]),
    entry(diagonal::<dr::Russian>(), "Russian draughts", Group::Diagonal8, &["shashki", "shashky"],
        EIGHT_CARD, &[(Part::Choices, "Draw after 15 moves each without a man move or a capture.")]),
    entry(diagonal::<dr::Pool>(), "Pool checkers", Group::Diagonal8, &["American pool", "APCA"],
        EIGHT_CARD, &[]),
    entry(diagonal::<dr::English>(), "English draughts", Group::Diagonal8,
        &["checkers", "American checkers", "straight checkers"], EIGHT_CARD, &[]),
    entry(diagonal::<dr::Italian>(), "Italian draughts", Group::Diagonal8, &["dama italiana"],
        EIGHT_CARD, ITALIAN_NOTES),
    entry(diagonal::<dr::Spanish>(), "Spanish draughts", Group::Diagonal8, &["damas"], EIGHT_CARD,
        &[(Part::Board, "The board is turned (the card's numbering table): White starts on 1-12, square 1 being h1."),
          (Part::Choices, "Draw after 25 moves each without a man move or a capture.")]),
    entry(diagonal::<dr::Czech>(), "Czech draughts", Group::Diagonal8, &["dáma"], EIGHT_CARD,
        &[(Part::Choices, "Draw after 25 moves each without a man move or a capture.")]),
    entry(diagonal::<dr::Antidraughts>(), "Antidraughts", Group::International,
        &["losing draughts", "giveaway", "suicide"], EIGHT_CARD, &[]),
    entry(diagonal::<dr::Breakthrough>(), "Breakthrough draughts", Group::International, &[],
        EIGHT_CARD, &[(Part::Choices, "A position in which the side to move already owns a king is refused (as Scan does), and perft counts a decided position as having no moves.")]),
    entry(diagonal::<dr::Dbc>(), "Deferred backward capture", Group::International,
        &["Winther", "DBC"], TEN_CARD, &[(Part::Captures, "The majority rule counts only legal sequences: a three-piece capture that would start with a backward jump is illegal, so a legal two-piece capture is compulsory.")]),
    entry(diagonal::<dr::DbcKiller>(), "Deferred backward capture with the Killer halt", Group::International,
        &["Winther", "DBC"], TEN_CARD, &[]),
    entry(diagonal::<dr::DbcKillerLight>(), "Deferred backward capture with the sequential killer halt",
        Group::International, &["Winther", "Anikejev", "DBC"], TEN_CARD, &[]),
    entry(diagonal::<dr::DbcHalt>(), "Deferred backward capture with the sequential halt rule",
        Group::International, &["Winther", "Damme", "DBC"], TEN_CARD, &[]),
    entry(diagonal::<dr::DbcHalt2>(), "Deferred backward capture with the two-king halt",
        Group::International, &["Winther", "DBC"], TEN_CARD, &[]),
    entry(diagonal::<dr::Constitutional>(), "Constitutional draughts", Group::International,
        &["Zapała", "Zapala"], TEN_CARD,
        &[(Part::Kings, "A square is threatened when an enemy king stands on a diagonal through it with only empty squares between, and the square just beyond it, on the far side from that king, is on the board and empty (the moving king lifted off its start square). The test is purely geometric; men never threaten.")]),
    entry(diagonal::<dr::Canadian>(), "Canadian draughts", Group::Diagonal12, &["dames canadiennes"],
        "canadian-12x12.md",
        &[(Part::Choices, "Draws: the FMJD draw articles, reading \"the same rules as International\" as including them (no Canadian source states its own)."),
          (Part::Choices, "Hub position string: the side letter and 72 characters in the card's numbering (no client convention exists).")]),
    entry(diagonal::<dr::SriLankan>(), "Sri Lankan draughts", Group::Diagonal12, &["sri-lankan"],
        "canadian-12x12.md",
        &[(Part::Board, "Canadian's board in a mirror: a1 is light, the long diagonal runs a12-l1, square 1 is a12."),
          (Part::Choices, "The card's note only (no Sri Lankan source): International rules on the 12x12 board with the other colouring; Canadian's start, draws and learned weights; PDN GameType 27,W,12,12,N2,1.")]),
    entry(diagonal::<dr::Frisian>(), "Frisian draughts", Group::Frisian, &["Fries dammen", "frysk dammen"],
        "frisian.md", FRISIAN_NOTES),
    entry(diagonal::<dr::Frysk>(), "Frysk!", Group::Frisian, &["frysk!"], "frisian.md",
        &[(Part::Board, "Frisian in every rule; only the start differs: five men each on the first row."),
          (Part::Choices, "PDN GameType: Lidraughts writes 97, pydraughts 40 with a FEN tag; Polydam writes 40 with a FEN tag.")]),
    entry(diagonal::<dr::Thai>(), "Thai draughts", Group::Diagonal8, &["Mak-hot", "Makhos"], "thai.md",
        &[(Part::Choices, "The side on 25-32 moves first and is called White (the sources disagree; the start is symmetric)."),
          (Part::Choices, "Draws: threefold repetition and 25 moves each with only king moves and no capture (no source gives Thai draw rules)."),
          (Part::Choices, "PDN captures are written with - (22-13) and read with - or x; duplicate capture paths are one move.")]),
    entry(orthogonal::<or::Turkish>(), "Turkish draughts", Group::Turkish, &["Dama", "Daması"],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::TurkishModified>(), "Modified Turkish draughts", Group::Turkish, &[],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Armenian>(), "Armenian draughts", Group::Turkish, &["Tama"], ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Armenian2>(), "Armenian draughts II", Group::Turkish, &["Tama"],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Armenian3>(), "Armenian draughts III", Group::Turkish, &["Tama"],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Gothic>(), "Gothic draughts", Group::Gothic, &["Altdeutsche Dame", "Old German"],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::GothicModified>(), "Modified Gothic draughts", Group::Gothic, &[],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::GothicModified2>(), "Modified Gothic draughts II", Group::Gothic, &[],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Adigha>(), "Adigha draughts", Group::Turkish, &["Adyghe"], ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Croda>(), "Croda", Group::Gothic, &[], ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::ModernGothic>(), "Modern Gothic draughts", Group::Gothic, &[], ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::ModernGothic2>(), "Modern Gothic draughts II", Group::Gothic, &[],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Teutonic>(), "Teutonic draughts", Group::Gothic, &[], ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Teutonic2>(), "Teutonic draughts II", Group::Gothic, &[], ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Greek>(), "Greek draughts", Group::Turkish, &["Ntama"], ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Greek2>(), "Greek draughts (variant 2)", Group::Turkish, &["Ntama"],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Greek3>(), "Greek draughts (variant 3)", Group::Turkish, &["Ntama"],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Greek4>(), "Greek draughts (variant 4)", Group::Turkish, &["Ntama"],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Greek5>(), "Greek draughts (variant 5)", Group::Turkish, &["Ntama"],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Greek6>(), "Greek draughts (variant 6)", Group::Turkish, &["Ntama"],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Greek7>(), "Greek draughts (variant 7)", Group::Turkish, &["Ntama"],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Universal>(), "Universal draughts", Group::Gothic, &[], ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Dameo>(), "Dameo", Group::Gothic, &["Freeling"], ORTHOGONAL_CARD,
        &[(Part::Men, "Line move: an unbroken line of friendly men (kings excluded) pointing forward or diagonally forward moves one square along itself when the square in front of it is empty (the rear man leaps over the rest of the line). Any man can be the rear of a line; a king in front blocks it; a single man is a line of one, which is the plain step.")]),
    entry(orthogonal::<or::Turkthic>(), "Turkthic", Group::Gothic, &[], ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Turkthic2>(), "Turkthic II", Group::Gothic, &[], ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Keny>(), "Ossetian Keny", Group::Turkish, &["Keny", "Ossetian draughts"],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Keny2>(), "Ossetian Keny II", Group::Turkish, &["Keny", "Ossetian draughts"],
        ORTHOGONAL_CARD, &[]),
    entry(orthogonal::<or::Harzdame>(), "Harzdame", Group::Gothic, &["Rosenau"], ORTHOGONAL_CARD,
        &[(Part::Promotion, "Promotion zones: White's is c8-h8 and h3-h7 (11 squares), Black's a1-a6 and b1-f1; a man is crowned only if its move ends in its zone.")]),
    entry(orthogonal::<or::Bahrain>(), "Bahrain draughts", Group::Turkish, &[], ORTHOGONAL_CARD,
        &[(Part::Captures, "Threatened-man rule: if at least one of the mover's men is threatened (an enemy piece could jump it as the first jump of a capture, the majority rule ignored), a non-capturing move of another, unthreatened man is illegal when, after it, that man could capture. Captures keep their priority; the rule filters only non-capturing moves of men.")]),
    entry(orthogonal::<or::Bosnian>(), "Bosnian draughts", Group::Turkish, &[], ORTHOGONAL_CARD, &[]),
    entry((polydam_engine::stacks::SeesawDraughts::NAME, Sheet::Stacks), "Seesaw Draughts",
        Group::Stacks, &["Erickson", "Amundsen", "stacks"], "seesaw.md", &[]),
    entry(hex::<Side4>(4), "Seesaw (hex, side 4)", Group::Hex, &["hexhex", "Erickson", "Amundsen"],
        "seesaw.md", &[]),
    entry(hex::<Side5>(5), "Seesaw (hex, side 5)", Group::Hex, &["hexhex", "Erickson", "Amundsen"],
        "seesaw.md", &[]),
];

/// One section of a rules page.
#[derive(Clone, Debug)]
pub struct Section {
    /// Which section.
    pub part: Part,
    /// Its clauses, one paragraph each.
    pub items: Vec<String>,
}

/// A variant's rules, ready to print.
#[derive(Clone, Debug)]
pub struct RulePage {
    /// The registry row.
    pub variant: &'static VariantEntry,
    /// The proper name.
    pub title: &'static str,
    /// The picker group.
    pub group: Group,
    /// Other names people know it by.
    pub known_as: &'static [&'static str],
    /// Every section of [`Part::ALL`], in that order.
    pub sections: Vec<Section>,
}

/// What the picker shows of one variant.
#[derive(Clone, Copy, Debug)]
pub struct PickerRow {
    /// The registry row.
    pub variant: &'static VariantEntry,
    /// The proper name.
    pub title: &'static str,
    /// The picker group.
    pub group: Group,
    /// Other names people know it by.
    pub known_as: &'static [&'static str],
}

fn find(name: &str) -> Option<&'static Entry> {
    BOOK.iter().find(|e| e.name == name)
}

/// The picker rows of every registered variant, in registry order.
pub fn picker_rows() -> Vec<PickerRow> {
    variants::VARIANTS
        .iter()
        .filter_map(|v| {
            find(v.name).map(|e| PickerRow {
                variant: v,
                title: e.title,
                group: e.group,
                known_as: e.known_as,
            })
        })
        .collect()
}

/// The rules page of the variant called `name` (or an alias, case-insensitive).
pub fn rule_page(name: &str) -> Result<RulePage, UnknownVariant> {
    let variant = variants::lookup(name)?;
    let entry = find(variant.name).ok_or_else(|| UnknownVariant(name.to_string()))?;
    let mut sections: Vec<Section> = Part::ALL
        .iter()
        .map(|&part| Section {
            part,
            items: Vec::new(),
        })
        .collect();
    let mut add = |part: Part, text: String| {
        if let Some(s) = sections.iter_mut().find(|s| s.part == part) {
            s.items.push(text);
        }
    };
    let draws = (variant.draw_rules)();
    match entry.sheet {
        Sheet::Diagonal(sheet, info) => diagonal_rules(&sheet, &info, draws, &mut add),
        Sheet::Orthogonal(sheet, info) => orthogonal_rules(&sheet, &info, &mut add),
        Sheet::Stacks => stacks_rules(&mut add),
        Sheet::Hex(side) => hex_rules(side, &mut add),
    }
    if !matches!(entry.sheet, Sheet::Diagonal(..)) {
        draw_rules(draws, &mut add);
    }
    for &(part, text) in entry.notes {
        add(part, text.to_string());
    }
    family_choices(entry, &mut add);
    sources(entry, variant, &mut add);
    Ok(RulePage {
        variant,
        title: entry.title,
        group: entry.group,
        known_as: entry.known_as,
        sections,
    })
}

/// The number of men White starts with in a start FEN (`W:W31-50:B1-20`, `W:Wa2-h3:...`).
fn white_men(fen: &str) -> usize {
    // The first field is the side to move; White's list is the field that starts with `W`.
    let Some(list) = fen.split(':').skip(1).find_map(|f| f.strip_prefix('W')) else {
        return 0;
    };
    list.split(',')
        .filter(|item| !item.is_empty())
        .map(|item| {
            let item = item.trim_start_matches('K');
            let item = item.split('^').next().unwrap_or(item);
            match item.split_once('-') {
                Some((a, b)) => match (a.parse::<usize>(), b.parse::<usize>()) {
                    (Ok(a), Ok(b)) => b.abs_diff(a) + 1,
                    // Algebraic rectangles: files times ranks.
                    _ => {
                        let (a, b) = (a.as_bytes(), b.as_bytes());
                        if a.len() == 2 && b.len() == 2 {
                            (a[0].abs_diff(b[0]) as usize + 1) * (a[1].abs_diff(b[1]) as usize + 1)
                        } else {
                            1
                        }
                    }
                },
                None => 1,
            }
        })
        .sum()
}

/// The board, men, kings, captures, promotion and end of a diagonal game, from its sheet.
fn diagonal_rules(
    s: &DiagonalSheet,
    info: &DiagonalInfo,
    draws: DrawRules,
    add: &mut impl FnMut(Part, String),
) {
    let n = s.board.rows;
    let squares = s.board.squares();
    let corner = match info.numbering {
        Numbering::Standard => "square 1 is the top-left playing square as White sees the board",
        Numbering::Italian => "square 1 is the top-left corner as White sees the board",
        Numbering::Spanish => "square 1 is h1, numbered right to left from White's side",
    };
    add(
        Part::Board,
        format!(
            "{n}x{n} board; play on the {squares} dark squares, numbered 1-{squares} row by row \
             ({corner})."
        ),
    );
    let men = white_men(info.start_fen);
    add(
        Part::Board,
        format!(
            "Start: {men} men each, `{}`. {} moves first.",
            info.start_fen,
            crate::pdn::first_colour(info.start_fen)
        ),
    );
    if info.algebraic {
        add(
            Part::Board,
            "Squares may also be written algebraically (c3-d4, captures c3:e5).".into(),
        );
    }

    add(
        Part::Men,
        "A man steps one square diagonally forward to an empty square.".into(),
    );
    let direction = match (s.men_capture_backward, s.man_first_jump_backward) {
        (false, _) => "forward only (the two forward diagonals)",
        (true, true) => "forward and backward",
        (true, false) => {
            "forward and backward, but its first jump may not be backward: backward jumps only \
             as the second or a later jump of a sequence (deferred backward capture)"
        }
    };
    add(
        Part::Men,
        format!(
            "A man captures by a short leap over an adjacent enemy piece to the empty square right \
             behind it, {direction}, and goes on capturing from there while it can."
        ),
    );
    if s.orthogonal_captures {
        add(
            Part::Men,
            "Men also capture along rows and files, forward and backward: over the next dark \
             square of the row (n x n±2 over n±1) or of the file (n x n±20 over n±10), changing \
             direction freely during a sequence."
                .into(),
        );
    }
    if !s.men_capture_kings {
        add(Part::Men, "A man may not capture a king.".into());
    }

    if s.flying_kings {
        add(
            Part::Kings,
            "A king is flying: it moves any distance along a diagonal over empty squares.".into(),
        );
        let lines = if s.orthogonal_captures {
            "along a diagonal, a row or a file (its quiet moves stay diagonal)"
        } else {
            "along a diagonal"
        };
        let landing = if s.king_lands_behind {
            "but must land on the square immediately behind it, and may go on from there in any \
             direction, straight back included"
        } else {
            "landing on any empty square beyond it, from which it may go on capturing (it must \
             land where it can go on, when there is such a square)"
        };
        add(
            Part::Kings,
            format!(
                "A king captures an enemy piece at any distance {lines}, with only empty squares \
                 before it, {landing}."
            ),
        );
    } else {
        add(
            Part::Kings,
            "A king moves one square diagonally, forward or backward, and captures by a short \
             leap in all four diagonal directions."
                .into(),
        );
    }
    let halt = match s.halt {
        Halt::None => None,
        Halt::LastKing => Some("when the last piece a sequence captures is a king"),
        Halt::LastKingOfTwoOrMore => {
            Some("when the sequence captures two or more pieces and the last of them is a king")
        }
        Halt::TwoOrMore => Some("when the sequence captures two or more pieces"),
        Halt::LastTwoKings => {
            Some("when the sequence captures two or more pieces and the last two are kings")
        }
    };
    if let Some(when) = halt {
        add(
            Part::Kings,
            format!(
                "Halt rule: {when}, the capturing king must land on the square immediately behind \
                 the last piece. It only restricts the final landing: continuing stays compulsory."
            ),
        );
    }
    if s.constitutional {
        add(
            Part::Kings,
            "A king's non-capturing slide may not pass a square threatened by an enemy king to \
             end on an unthreatened square; it may always end on a threatened square, and \
             one-square moves and captures are never restricted."
                .into(),
        );
    }
    if s.king_move_limit {
        add(
            Part::Kings,
            "Three-move limit: while its side still has a man, the same king may make at most \
             three non-capturing moves in a row; after that it may only capture, and another \
             piece must move."
                .into(),
        );
    }

    add(
        Part::Captures,
        "Capturing is compulsory, and a sequence must be completed while the capturing piece can \
         go on capturing."
            .into(),
    );
    let precedence = match s.precedence {
        Precedence::Free => "Free choice: any capture sequence may be played, not necessarily \
                             the longest."
            .to_string(),
        Precedence::MostPieces => "Majority rule: the sequence that captures the most pieces must \
                                   be played (a king counts as one); among equal sequences the \
                                   choice is free."
            .to_string(),
        Precedence::MostPiecesThenKings => "Precedence: (1) the most pieces; (2) among those, the \
                                            most kings captured; then the choice is free."
            .to_string(),
        Precedence::Italian => "Italian precedence: (1) the most pieces; (2) capturing with a \
                                king rather than a man; (3) the most kings captured; (4) the \
                                kings met earliest (compare the positions of the captured kings \
                                in the order taken)."
            .to_string(),
        Precedence::KingFirst => "King captures first: a king that can capture must; otherwise \
                                  the choice is free."
            .to_string(),
        Precedence::Frisian => "Value rule: the sequence of the highest value must be played; a \
                                king is worth more than one man and less than two."
            .to_string(),
    };
    add(Part::Captures, precedence);
    add(
        Part::Captures,
        if s.immediate_removal {
            "Immediate removal: each captured piece leaves the board as soon as it is jumped, so \
             its square is empty for the rest of the sequence."
        } else {
            "Captured pieces are removed only when the sequence is over: until then they block \
             lines and may not be jumped twice; empty squares (the start square included) may be \
             crossed again."
        }
        .into(),
    );
    add(
        Part::Captures,
        "Sequences with the same piece, the same final square and the same captured pieces are \
         one move."
            .into(),
    );

    let far = match (n, info.numbering) {
        (8, Numbering::Spanish) => "the far row",
        (8, _) => "the far row (White on 1-4, Black on 29-32)",
        (10, _) => "the far row (White on 1-5, Black on 46-50)",
        _ => "the far row (White on 1-6, Black on 67-72)",
    };
    let promotion = match s.promotion {
        DiagonalPromotion::AtEnd => {
            "is crowned king only if its move ends there; passing the row \
                                     during a capture does nothing"
        }
        DiagonalPromotion::CrownAndContinue => {
            "is crowned at once, also during a capture, and \
                                                goes on capturing as a king"
        }
        DiagonalPromotion::CrownAndStop => {
            "is crowned, and the move ends there even if more \
                                            captures were possible"
        }
    };
    add(
        Part::Promotion,
        format!("A man reaching {far} {promotion}."),
    );

    let end = match s.goal {
        Goal::Normal => "A player with no pieces or no legal move loses.",
        Goal::NoMoveWins => {
            "The goal is turned round: a player with no pieces or no legal move \
                             wins."
        }
        Goal::FirstKingWins => {
            "The first player to crown a king wins (a player with no pieces \
                                or no legal move loses)."
        }
    };
    add(Part::End, end.into());
    if s.goal == Goal::FirstKingWins {
        add(
            Part::Promotion,
            "Crowning ends the game: the first king wins.".into(),
        );
    }
    draw_rules_with(draws, "only king moves and no capture", add);
    if draws.endgame_counters {
        add(
            Part::End,
            match info.endgames {
                Endgames::Fmjd => "Endgames against a lone king: with 3 kings, 2 kings + 1 man or \
                                   1 king + 2 men, 16 moves each at most; with 2 kings, 1 king + \
                                   1 man or 1 king, 5 moves each at most."
                    .into(),
                Endgames::Frisian => "Kings only: two kings against one are drawn 14 plies (seven \
                                      moves of the strong side) after that material arose; one \
                                      king against one after 4 plies."
                    .into(),
            },
        );
    }
}

/// Directions as words: a mask of the relative directions of `orthogonal::rules`.
fn directions(mask: u8) -> String {
    match mask {
        or::O3 => "forward or sideways".into(),
        or::O4 => "forward, backward or sideways (the four orthogonal directions)".into(),
        or::D2 => "diagonally forward".into(),
        or::F5 => {
            "forward, sideways or diagonally forward (the five non-retreating directions)".into()
        }
        or::A8 => "in any of the eight directions".into(),
        m if m == or::FWD | or::D2 => "straight or diagonally forward".into(),
        m if m == or::FWD | or::RIGHT => {
            "forward or to the right (White north or east, Black south or west)".into()
        }
        m => {
            let names = [
                (or::FWD, "forward"),
                (or::FWD_RIGHT, "forward-right"),
                (or::RIGHT, "right"),
                (or::BACK_RIGHT, "backward-right"),
                (or::BACK, "backward"),
                (or::BACK_LEFT, "backward-left"),
                (or::LEFT, "left"),
                (or::FWD_LEFT, "forward-left"),
            ];
            names
                .iter()
                .filter(|(bit, _)| m & bit != 0)
                .map(|(_, n)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        }
    }
}

/// Lines a king uses, as words.
fn king_lines(mask: u8) -> &'static str {
    match mask {
        or::O4 => "orthogonally (along ranks and files)",
        or::A8 => "in all eight directions",
        or::DIAGONALS => "diagonally",
        _ => "along its lines",
    }
}

/// The board, men, kings, captures, promotion and end of an orthogonal game, from its sheet.
fn orthogonal_rules(
    s: &OrthogonalSheet,
    info: &OrthogonalInfo,
    add: &mut impl FnMut(Part, String),
) {
    add(
        Part::Board,
        "8x8 board, all 64 squares used, named a1-h8 (rank 1 at White's side).".into(),
    );
    let setup = match info.start_fen {
        or::T16 => "on the second and third ranks (White a2-h3, Black a6-h7)",
        or::B16 => "on the first two ranks (White a1-h2, Black a7-h8)",
        or::B24 => "on the first three ranks (White a1-h3, Black a6-h8)",
        or::DAMEO18 => "in a trapezoid (White a1-h1, b2-g2, c3-f3; Black a8-h8, b7-g7, c6-f6)",
        or::HARZ21 => "in a triangle in opposite corners (White from a1, Black from h8)",
        _ => "as the FEN shows",
    };
    add(
        Part::Board,
        format!(
            "Start: {} men each {setup}, `{}`. White moves first.",
            white_men(info.start_fen),
            info.start_fen
        ),
    );

    add(
        Part::Men,
        format!(
            "A man steps one square {} to an empty square.",
            directions(s.man_step)
        ),
    );
    let mut capture = format!(
        "A man captures by a short leap over an adjacent enemy piece to the empty square right \
         behind it, {}",
        directions(s.man_capture)
    );
    if s.man_capture_later != 0 {
        capture.push_str(&format!(
            "; {} too, but only as the second or a later jump of a sequence",
            directions(s.man_capture_later)
        ));
    }
    capture.push_str(", and goes on capturing while it can.");
    add(Part::Men, capture);
    if s.first_rank_leap {
        add(
            Part::Men,
            "First-rank line leap: a man on its own first rank may, as a non-capturing move, leap \
             over an unbroken line of friendly pieces that starts next to it forward or \
             diagonally forward, landing on the first square beyond it, which must be empty."
                .into(),
        );
    }

    let moves = if s.king_move_flying {
        format!(
            "A king is flying: it moves any distance over empty squares {}{}.",
            king_lines(s.king_move),
            if s.king_move == or::A8 {
                " (like a chess queen)"
            } else {
                ""
            }
        )
    } else {
        format!(
            "A king moves one square {}{}.",
            king_lines(s.king_move),
            if s.king_move == or::A8 {
                " (like a chess king)"
            } else {
                ""
            }
        )
    };
    add(Part::Kings, moves);
    let capture = if s.king_capture_flying {
        let landing = match s.landing {
            Landing::Any => "lands on any empty square beyond it (before the next piece)",
            Landing::Halt => "lands on the square immediately behind it, after every jump",
        };
        format!(
            "A king captures {}: along a line over empty squares, exactly one enemy piece, and \
             {landing}. When it can go on capturing from some landing square, it must land on \
             such a square.",
            king_lines(s.king_capture)
        )
    } else {
        format!(
            "A king captures an adjacent enemy piece by a short leap, {}.",
            king_lines(s.king_capture)
        )
    };
    add(Part::Kings, capture);
    // Card: "No 180° turn (immediate-removal variants only)", a flying king's rule.
    if s.removal == Removal::Immediate && s.king_capture_flying {
        add(
            Part::Kings,
            if s.no_reversal {
                "A king may not turn 180° between two jumps (a U-turn of two 90° turns is allowed)."
            } else {
                "A king may turn 180° between two jumps."
            }
            .into(),
        );
    }

    add(
        Part::Captures,
        "Capturing is compulsory, and a sequence must be completed while the same piece can go on \
         capturing. A piece never jumps its own pieces, nor two pieces at once."
            .into(),
    );
    add(
        Part::Captures,
        if s.majority {
            "Majority rule: the sequence that captures the most pieces must be played (men and \
             kings count one each); among equal ones the choice is free."
        } else {
            "No majority rule: any capture sequence may be chosen."
        }
        .into(),
    );
    add(
        Part::Captures,
        match s.removal {
            Removal::Immediate => {
                "Immediate removal: each captured piece leaves the board at \
                                   once, so its square can be crossed or landed on later in the \
                                   same sequence."
            }
            Removal::End => {
                "Captured pieces stay on the board as obstacles until the sequence \
                             ends and may not be jumped twice (empty squares may be crossed \
                             again)."
            }
        }
        .into(),
    );

    let (far, arriving) = if s.zone == or::FAR_RANK {
        ("the far rank", "on the far rank")
    } else {
        ("its promotion zone", "in its promotion zone")
    };
    add(
        Part::Promotion,
        format!("A man that arrives {arriving} by a plain step is crowned at once."),
    );
    add(
        Part::Promotion,
        format!(
            "During a capture, a man reaching {far} {}.",
            match s.promotion {
                OrthogonalPromotion::ContinueAsMan =>
                    "keeps capturing as a man if it can, and is \
                                                       crowned only if the move ends there",
                OrthogonalPromotion::CrownAndContinue =>
                    "becomes a king at once and goes on \
                                                          capturing as a king",
                OrthogonalPromotion::CrownAndStop =>
                    "becomes a king and the move ends there, \
                                                      even if more captures were possible",
            }
        ),
    );

    add(
        Part::End,
        "A player who has no pieces or no legal move loses.".into(),
    );
    if s.one_piece_draw {
        add(
            Part::End,
            "When each side has exactly one piece (of any kind), the game is drawn at once.".into(),
        );
    }
}

/// Seesaw Draughts, from the card (one variant, no sheet).
fn stacks_rules(add: &mut impl FnMut(Part, String)) {
    let text: &[(Part, &str)] = &[
        (Part::Board, "8x8 board, dark squares only, numbered 1-32 as in Brazilian draughts: a1 (White's left corner) is square 29, square 1 is b8."),
        (Part::Board, "Start: 12 stacks of size 1 each, White on 21-32, Black on 1-12, `W:W21-32:B1-12`. White moves first. Every piece is a stack of one colour, and its size is everything."),
        (Part::Men, "Size parity sets the step: an odd stack steps one square diagonally forward, an even stack one square diagonally backward. A quiet move is always exactly one square."),
        (Part::Men, "Size sets the capture range: a stack of size n captures, in any of the four diagonal directions, an enemy stack 1..n squares away with only empty squares between, landing on the square right behind it, which must be empty. A 1-stack captures like a Brazilian man."),
        (Part::Kings, "There are no kings: a stack grows instead (see Promotion), and a big stack captures from afar like a Thai king."),
        (Part::Captures, "Capturing is compulsory, and a sequence goes on while the same stack can capture again (its size and range do not change during the sequence). No majority rule: any capture and any continuation may be chosen."),
        (Part::Captures, "Captured stacks stay on the board until the sequence ends (they block lines and cannot be jumped twice), then each is removed whole, whatever its size."),
        (Part::Promotion, "Checked once, at the end of the turn, for the stack that moved only: an odd stack ending on the opponent's back rank, or an even stack ending on its own back rank, gets one more piece (size + 1). Passing a back rank during a sequence does nothing."),
        (Part::End, "A player who has no legal move (including no stacks) loses. No position can repeat: every quiet move takes a stack strictly up or down the board."),
        (Part::Choices, "Stack sizes are stored in a byte: a position with a stack above 255 is refused, and in play a stack of 255 no longer grows."),
    ];
    for &(part, t) in text {
        add(part, t.into());
    }
}

/// Hex Seesaw on a board of side `side`, from the card.
fn hex_rules(side: u32, add: &mut impl FnMut(Part, String)) {
    let cells = 3 * side * (side - 1) + 1;
    let columns = 2 * side - 1;
    let last = (b'a' + columns as u8 - 1) as char;
    let middle = (b'a' + side as u8 - 1) as char;
    add(
        Part::Board,
        format!(
            "A hexhex board of side {side}: {cells} flat-topped cells in {columns} vertical \
             columns a-{last}, numbered from 1 at the bottom of each column; each cell has up to \
             six neighbours (N, NE, SE, S, SW, NW)."
        ),
    );
    add(
        Part::Board,
        format!(
            "Start: South (White) has one tile with a 1-stack on it in the bottom corner \
             ({middle}1), North (Black) the same in the top corner. South moves first."
        ),
    );
    let text: &[(Part, &str)] = &[
        (Part::Board, "Each player has discs (stacked into stacks of one colour) and tiles of their colour; a tile lies under whatever stands on it, is never removed and never counts in a stack's size."),
        (Part::Men, "On a turn a player must do exactly one thing: capture (compulsory when possible), move a stack, or deploy a new stack."),
        (Part::Men, "Deploy: put a tile of your colour, and a 1-stack of yours on it, on a cell with no tile and no disc next to at least one cell with a tile of your colour."),
        (Part::Men, "Move: a stack of size s takes 1..s steps to adjacent cells in its three allowed directions: forward (N, NE, NW for South) if s is odd, backward if s is even, changing between them from step to step; every cell it enters must hold no disc (tiles may be crossed)."),
        (Part::Kings, "There are no kings: a stack grows instead (see Promotion); its size sets both how far it goes and, by parity, which way."),
        (Part::Captures, "If a stack of yours can reach an enemy stack in at most s steps in any of the six directions (every cell between free of discs), you must capture: the enemy stack is removed whole (its tile stays) and yours takes its cell, using the steps of the shortest disc-free path."),
        (Part::Captures, "With steps left and another enemy within reach, the same stack must capture again; otherwise it may spend the remaining steps on one non-capturing move (direction by parity) or stop."),
        (Part::Promotion, "At the end of the turn, only for the stack that moved or captured: an odd stack on a tile of the opponent's colour, or an even stack on a tile of its own colour, gains one disc (also when it stopped with steps left)."),
        (Part::End, "If at the end of your turn your opponent has no stacks on the board, you win. Positions can never repeat."),
        (Part::Choices, "South moves first (as in Ludii)."),
        (Part::Choices, "A player with no legal move passes; two passes in succession draw the game (as in Ludii)."),
        (Part::Choices, "Cells are named by column letter and number from the bottom (South's corner is the middle column's 1), deploys as @cell."),
    ];
    for &(part, t) in text {
        add(part, t.into());
    }
}

/// The draw rules of the registry, as words.
fn draw_rules(draws: DrawRules, add: &mut impl FnMut(Part, String)) {
    draw_rules_with(draws, "no man move and no capture", add);
}

fn draw_rules_with(draws: DrawRules, quiet: &str, add: &mut impl FnMut(Part, String)) {
    let mut any = false;
    if draws.repetitions > 0 {
        let times = match draws.repetitions {
            3 => "threefold".to_string(),
            4 => "fourfold".to_string(),
            n => format!("{n}-fold"),
        };
        add(
            Part::End,
            format!(
                "Draw by {times} repetition: the same position with the same side to move for the \
                 {}th time.",
                draws.repetitions
            )
            .replace("3th", "third")
            .replace("4th", "fourth"),
        );
        any = true;
    }
    if draws.quiet_plies > 0 {
        add(
            Part::End,
            format!(
                "Draw after {} successive moves by each side with {quiet}.",
                draws.quiet_plies / 2
            ),
        );
        any = true;
    }
    if !any && !draws.endgame_counters {
        add(Part::End, "No repetition or move-count rule.".into());
    }
}

/// The readings Polydam makes for a whole family, and the card's choices that a sheet's flags
/// reveal.
fn family_choices(entry: &Entry, add: &mut impl FnMut(Part, String)) {
    match entry.sheet {
        Sheet::Diagonal(..) => add(
            Part::Choices,
            "Polydam's own reading: a position with a man on its own promotion row, or with more \
             pieces than a side starts with, is refused."
                .into(),
        ),
        Sheet::Orthogonal(s, _) => {
            if s.first_rank_leap {
                add(
                    Part::Choices,
                    "First-rank line leap: kings in the line leapt over are allowed.".into(),
                );
            }
            match entry.name {
                "croda" | "universal" => add(
                    Part::Choices,
                    "The seed gives no majority or promotion rule: majority capture, and a man \
                     crowned in a capture only if the move ends there (Freeling's conventions \
                     for end-removal games)."
                        .into(),
                ),
                "turkthic" | "turkthic-2" => add(
                    Part::Choices,
                    "The seed says nothing of majority: as a \"Turkish\" game it keeps the Turkish \
                     majority rule. It is not called \"same as Turkish\", so one piece each is no \
                     draw."
                        .into(),
                ),
                "bahrain" => add(
                    Part::Choices,
                    "If the threatened-man rule leaves no move at all, the unfiltered moves are \
                     legal; \"could capture\" is tested as a first jump from the moved man's new \
                     square."
                        .into(),
                ),
                _ => {}
            }
            if s.one_piece_draw {
                add(
                    Part::Choices,
                    "\"As Turkish\" (and so the one-piece draw) covers the rows the seed calls \
                     \"same as Turkish\" and the Greek rows."
                        .into(),
                );
            }
            if s.promotion == OrthogonalPromotion::CrownAndContinue {
                add(
                    Part::Choices,
                    "The same capture reached once with a crowning and once without is one move, \
                     and it crowns."
                        .into(),
                );
            }
            add(
                Part::Choices,
                "Polydam's own reading: a position with a man in its own promotion zone, or with \
                 more pieces than the variant starts with, is refused; threefold repetition is \
                 the only draw count (the card gives no move-count rule)."
                    .into(),
            );
        }
        Sheet::Stacks | Sheet::Hex(_) => {}
    }
}

/// Where the page's rules come from.
fn sources(entry: &Entry, variant: &VariantEntry, add: &mut impl FnMut(Part, String)) {
    add(
        Part::Sources,
        format!(
            "Rule card: `{}`, section `{}` (in ../shared/rules/, the project's contract).",
            entry.card, variant.name
        ),
    );
    let (sheet, doc) = match entry.sheet {
        Sheet::Diagonal(..) => (
            "engine/src/diagonal/rules.rs (the rule sheet, each field citing the card)",
            "docs/diagonal.md",
        ),
        Sheet::Orthogonal(..) => (
            "engine/src/orthogonal/rules.rs (the rule sheet, each field citing the card)",
            "docs/orthogonal.md",
        ),
        Sheet::Stacks => ("engine/src/stacks/", "docs/seesaw.md"),
        Sheet::Hex(_) => ("engine/src/hex/", "docs/seesaw.md"),
    };
    add(Part::Sources, format!("Engine: {sheet}; reference: {doc}."));
    let origin = match entry.card {
        TEN_CARD if entry.name == "killer" => "Freeling's Killer rules",
        TEN_CARD if entry.name.starts_with("dbc") => {
            "Mats Winther, Draughts with Deferred Backwards Capture and its halt rules"
        }
        TEN_CARD if entry.name == "constitutional" => "Zapała's Constitutional Draughts (2020)",
        TEN_CARD => "the FMJD rules",
        EIGHT_CARD if matches!(entry.name, "antidraughts" | "breakthrough") => {
            "Scan's and Lidraughts' definitions, International rules (FMJD)"
        }
        EIGHT_CARD => "the federations' rules (FMJD, Brazilian, Russian, Italian and Czech federations, APCA, WCDF) and published perft counts",
        "canadian-12x12.md" => "the Quebec association (AQJD), Wikipedia (en, fr), dctl",
        "frisian.md" => "the Official Rules for Frisian Draughts (2011), Scan, Lidraughts, dctl, pydraughts",
        "thai.md" => "dctl's Thai rules, the Checkers & Draughts Wiki (Mak-hot), mindsports.nl and other rule pages",
        ORTHOGONAL_CARD if entry.name == "turkish" => "the Turkish Draughts Federation's official rules",
        ORTHOGONAL_CARD if entry.name == "dameo" => "Christian Freeling's Dameo rules",
        ORTHOGONAL_CARD if entry.name == "harzdame" => "Benedikt Rosenau's Harzdame rules",
        ORTHOGONAL_CARD => "Mats Winther, \"Gothic Checkers Variants\"",
        _ => "Alek Erickson and Michael Amundsen (2021), and their games in the Ludii system",
    };
    add(Part::Sources, format!("The card's sources: {origin}."));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_one_entry_in_registry_order() {
        let names: Vec<&str> = BOOK.iter().map(|e| e.name).collect();
        assert_eq!(names, variants::names());
        assert_eq!(names.len(), 55);
    }

    #[test]
    fn every_rules_page_has_every_section_with_text() {
        for v in variants::VARIANTS {
            let page = rule_page(v.name).unwrap_or_else(|e| panic!("{e}"));
            let parts: Vec<Part> = page.sections.iter().map(|s| s.part).collect();
            assert_eq!(parts, Part::ALL, "{}", v.name);
            for s in &page.sections {
                assert!(
                    !s.items.is_empty(),
                    "{}: {} is empty",
                    v.name,
                    s.part.title()
                );
                for item in &s.items {
                    assert!(
                        item.trim().len() > 10,
                        "{}: {}: {item:?}",
                        v.name,
                        s.part.title()
                    );
                }
            }
            assert!(!page.title.is_empty());
        }
    }

    #[test]
    fn titles_are_unique_and_proper() {
        let rows = picker_rows();
        assert_eq!(rows.len(), variants::VARIANTS.len());
        for (i, a) in rows.iter().enumerate() {
            for b in &rows[i + 1..] {
                assert_ne!(
                    a.title, b.title,
                    "{} and {}",
                    a.variant.name, b.variant.name
                );
            }
        }
        let title = |n: &str| rule_page(n).map(|p| p.title);
        assert_eq!(title("dameo"), Ok("Dameo"));
        assert_eq!(title("greek-4"), Ok("Greek draughts (variant 4)"));
        assert_eq!(title("russian"), Ok("Russian draughts"));
        assert_eq!(title("checkers"), Ok("English draughts"));
    }

    fn text(name: &str, part: Part) -> String {
        let page = rule_page(name).unwrap_or_else(|e| panic!("{e}"));
        page.sections
            .iter()
            .filter(|s| s.part == part)
            .flat_map(|s| s.items.iter().cloned())
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn pages_say_what_the_sheets_say() {
        // English: men capture forward only, short kings, free choice, crowning stops, 40 moves.
        assert!(text("english", Part::Men).contains("forward only"));
        assert!(text("english", Part::Kings).contains("one square"));
        assert!(text("english", Part::Captures).contains("Free choice"));
        assert!(text("english", Part::Promotion).contains("the move ends there"));
        assert!(text("english", Part::End).contains("40 successive moves"));
        assert!(text("english", Part::Board).contains("Black moves first"));
        // International: majority, flying kings, the FMJD counts, 20 men.
        assert!(text("international", Part::Captures).contains("Majority rule"));
        assert!(text("international", Part::Kings).contains("flying"));
        assert!(text("international", Part::End).contains("16 moves each"));
        assert!(text("international", Part::Board).contains("20 men each"));
        // Italian: fourfold repetition, men may not take kings.
        assert!(text("italian", Part::End).contains("fourfold"));
        assert!(text("italian", Part::Men).contains("may not capture a king"));
        // Dameo: its setup, line move, end removal, queen-like king moving, orthogonal capture.
        assert!(text("dameo", Part::Board).contains("18 men each"));
        assert!(text("dameo", Part::Men).contains("Line move"));
        assert!(text("dameo", Part::Kings).contains("eight directions"));
        assert!(text("dameo", Part::Kings).contains("orthogonally"));
        assert!(text("dameo", Part::Captures).contains("stay on the board"));
        // Greek II: no majority; Keny: 180-degree turns; Turkish: the one-piece draw.
        assert!(text("greek-2", Part::Captures).contains("No majority"));
        assert!(text("keny", Part::Kings).contains("may turn 180"));
        assert!(text("turkish", Part::End).contains("exactly one piece"));
        assert!(!text("dameo", Part::End).contains("exactly one piece"));
        // Stacks and hex: no kings, no draw counts.
        assert!(text("seesaw-draughts", Part::Kings).contains("no kings"));
        assert!(text("seesaw-5", Part::Board).contains("61 flat-topped cells"));
        assert!(text("seesaw", Part::Board).contains("37 flat-topped cells"));
        // The card's choices.
        assert!(text("russian", Part::Choices).contains("15 moves"));
        assert!(text("bahrain", Part::Choices).contains("unfiltered"));
        assert!(text("international", Part::Sources).contains("diagonal-10x10.md"));
    }

    #[test]
    fn an_unknown_variant_has_no_page() {
        let err = rule_page("no-such-game").map(|p| p.title).unwrap_err();
        assert!(err
            .to_string()
            .starts_with("unknown variant 'no-such-game'"));
    }

    #[test]
    fn start_fens_count_men() {
        assert_eq!(white_men("W:W31-50:B1-20"), 20);
        assert_eq!(white_men("B:W21-32:B1-12"), 12);
        assert_eq!(white_men("W:Wa2-h3:Ba6-h7"), 16);
        assert_eq!(white_men(or::DAMEO18), 18);
        assert_eq!(white_men(or::HARZ21), 21);
    }
}
