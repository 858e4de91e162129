//! PDN, the text format of draughts games: writing finished games ([`write_game`]) and reading
//! the first game of a text ([`read_pdn`]), with the variant its tags call for
//! ([`pdn_variant`]). The match runner and `polydam dxp` write their games here, the web board
//! reads and writes its game, and a book line's moves ([`crate::openings::parse_book`]) are read
//! as PDN movetext.
//!
//! Written tags: `Event`, `Site`, `Date`, `Round` (the game number), `White`, `Black` (the first
//! player's name under `Black` in the games where Black moves first, see [`player_tags`]), `Result`
//! (`*` for a game that did not finish), then `GameType` for the variants PDN numbers or
//! `Variant` otherwise, `FEN` when the game does not start from the variant's start position (or
//! when its GameType is another game's, as Frysk! is written as Frisian), and `Termination`
//! with the referee's reason. The GameType and the result style are the variant's registry
//! row's ([`VariantEntry`] `pdn_game_type`, `pdn_result`).

use std::fmt::Write as _;

use std::iter::Peekable;
use std::str::Chars;

use polydam_engine::game::Side;
use polydam_engine::variants::{lookup, PdnResultStyle, VariantEntry, VARIANTS};
use polydam_protocol::lexer::excerpt;

/// The game's result from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdnResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl PdnResult {
    /// A win for `side`.
    pub fn win_for(side: Side) -> PdnResult {
        match side {
            Side::White => PdnResult::WhiteWins,
            Side::Black => PdnResult::BlackWins,
        }
    }
}

/// One finished game, ready to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// The `Event` tag (`polydam match`, `polydam dxp`).
    pub event: String,
    /// The `Site` tag (`?` when there is nothing to say).
    pub site: String,
    /// The variant's registry name.
    pub variant: String,
    /// Round number (the game number in the match).
    pub round: usize,
    /// Date as `YYYY.MM.DD`.
    pub date: String,
    /// The first player's name (White's, or Black's where Black moves first).
    pub white: String,
    /// The second player's name.
    pub black: String,
    /// The result, or `None` for a game that did not finish (written `*`).
    pub result: Option<PdnResult>,
    /// The start position's FEN when it is not the variant's start.
    pub fen: Option<String>,
    /// Why the game ended.
    pub termination: String,
    /// The moves in PDN style, from the start position.
    pub moves: Vec<String>,
    /// Whether the first move is the second player's (numbered `1...`).
    pub second_player_starts: bool,
}

/// The tags that name the first and the second player of `variant`: `White`, `Black`, except
/// in the games where Black moves first (English and Pool checkers, whose start position's FEN
/// has Black to move), written as checkers programs write them: `Black` for the first player.
pub fn player_tags(variant: &str) -> [&'static str; 2] {
    match lookup(variant) {
        Ok(v) if first_colour((v.start_fen)().as_str()) == "Black" => ["Black", "White"],
        _ => ["White", "Black"],
    }
}

/// The colour that moves first from a start position written as a PDN FEN: its side letter.
pub fn first_colour(start_fen: &str) -> &'static str {
    if start_fen.starts_with('B') {
        "Black"
    } else {
        "White"
    }
}

/// The PDN `GameType` tag value of a variant (its registry row's), when PDN numbers it.
pub fn game_type(variant: &str) -> Option<String> {
    lookup(variant).ok()?.pdn_game_type.tag_value()
}

/// The result token in the variant's style (its registry row's): `1-0`, `0-1`, `1/2-1/2` for
/// checkers (English and pool, as their PDN files write it), `2-0`, `0-2`, `1-1` for draughts,
/// and for an unknown name.
pub fn result_text(variant: &str, result: PdnResult) -> &'static str {
    let style = lookup(variant).map_or(PdnResultStyle::Draughts, |v| v.pdn_result);
    match (style, result) {
        (PdnResultStyle::Checkers, PdnResult::WhiteWins) => "1-0",
        (PdnResultStyle::Checkers, PdnResult::BlackWins) => "0-1",
        (PdnResultStyle::Checkers, PdnResult::Draw) => "1/2-1/2",
        (PdnResultStyle::Draughts, PdnResult::WhiteWins) => "2-0",
        (PdnResultStyle::Draughts, PdnResult::BlackWins) => "0-2",
        (PdnResultStyle::Draughts, PdnResult::Draw) => "1-1",
    }
}

/// A tag value as PDN writes it: quotes and backslashes escaped (`\"`, `\\`), and every line
/// break or other control character a space, since a tag is one line and PDN strings have no
/// escape for them (a name from a DXP peer may hold any of them).
fn tag(out: &mut String, name: &str, value: &str) {
    let mut escaped = String::with_capacity(value.len() + 2);
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                escaped.push('\\');
                escaped.push(c);
            }
            c if is_line_breaking(c) => escaped.push(' '),
            c => escaped.push(c),
        }
    }
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}

/// Whether `c` may not stand in a one-line tag: a control character (line feed, carriage
/// return, tab, escape, ...) or a Unicode line or paragraph separator.
fn is_line_breaking(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// The game as PDN text, ending with a blank line.
pub fn write_game(game: &PdnGame) -> String {
    write_game_keeping(game, &[])
}

/// Tags that [`write_game_keeping`] writes itself from the game (the moves and the variant
/// decide them) and so never takes from a loaded game's tags.
const TAGS_FROM_THE_GAME: [&str; 3] = ["GameType", "Variant", "FEN"];

/// [`write_game`], keeping the `tags` of a game that was loaded: the loaded Event, Site, Date,
/// Round, White and Black stand for the game's, the loaded Result and Termination stand when
/// the game itself has no result (a game that ended by resignation or on time), and any other
/// tag (Annotator, WhiteElo, ...) is written after them. `GameType`, `Variant` and `FEN` are
/// always the game's own.
pub fn write_game_keeping(game: &PdnGame, tags: &[(String, String)]) -> String {
    write_game_tree(game, tags, &PdnLine::of_moves(&game.moves))
}

/// [`write_game_keeping`] with the movetext of `line` (its comments and variations) instead of
/// the game's moves; `game.moves` is not read.
pub fn write_game_tree(game: &PdnGame, tags: &[(String, String)], line: &PdnLine) -> String {
    let kept = |name: &str| {
        tags.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let mut out = String::new();
    let loaded_result = kept("Result").filter(|_| game.result.is_none());
    let result = game
        .result
        .map(|r| result_text(&game.variant, r))
        .or(loaded_result)
        .unwrap_or("*");
    let round = game.round.to_string();
    tag(&mut out, "Event", kept("Event").unwrap_or(&game.event));
    tag(&mut out, "Site", kept("Site").unwrap_or(&game.site));
    tag(&mut out, "Date", kept("Date").unwrap_or(&game.date));
    tag(&mut out, "Round", kept("Round").unwrap_or(&round));
    // The first player's tag first: `Black` in the games where Black moves first.
    let [first, second] = player_tags(&game.variant);
    tag(&mut out, first, kept(first).unwrap_or(&game.white));
    tag(&mut out, second, kept(second).unwrap_or(&game.black));
    tag(&mut out, "Result", result);
    match game_type(&game.variant) {
        Some(value) => tag(&mut out, "GameType", &value),
        None => tag(&mut out, "Variant", &game.variant),
    }
    // A variant written under another game's GameType names its start.
    let fen = game.fen.clone().or_else(|| {
        let v = lookup(&game.variant).ok()?;
        v.pdn_game_type.needs_fen().then(|| (v.start_fen)())
    });
    if let Some(fen) = &fen {
        tag(&mut out, "FEN", fen);
    }
    let termination = kept("Termination")
        .filter(|_| loaded_result.is_some())
        .unwrap_or(&game.termination);
    tag(&mut out, "Termination", termination);
    const WRITTEN: [&str; 8] = [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "Termination",
    ];
    for (name, value) in tags {
        let mut ours = WRITTEN.iter().chain(&TAGS_FROM_THE_GAME);
        if !ours.any(|n| n.eq_ignore_ascii_case(name)) {
            tag(&mut out, name, value);
        }
    }
    out.push('\n');
    let mut tokens = Vec::new();
    line_tokens(line, usize::from(game.second_player_starts), &mut tokens);
    tokens.push(result.to_owned());
    let mut text = String::new();
    for t in tokens {
        if !text.is_empty() && text.len() + 1 + t.len() > 79 {
            out.push_str(&text);
            out.push('\n');
            text.clear();
        }
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&t);
    }
    out.push_str(&text);
    out.push_str("\n\n");
    out
}

/// The movetext tokens of `line`, whose first move is ply `ply` of the game (from 0, counted
/// from the variant's first player): each move with its number when it is the first player's,
/// or when it is the second player's and follows a comment, a variation or nothing (`12...`);
/// a comment `{...}` after its move, then each variation in `( ... )`.
fn line_tokens(line: &PdnLine, ply: usize, tokens: &mut Vec<String>) {
    if let Some(c) = &line.comment {
        tokens.push(comment_token(c));
    }
    let mut numbered = false;
    for (i, mv) in line.moves.iter().enumerate() {
        let p = ply + i;
        // Move marks are glued to the move (`32-28!`), numeric glyphs follow it (`$14`).
        let (glued, nags): (Vec<&String>, Vec<&String>) =
            mv.marks.iter().partition(|m| !m.starts_with('$'));
        let text = match glued.first() {
            Some(mark) => format!("{}{mark}", mv.text),
            None => mv.text.clone(),
        };
        if p.is_multiple_of(2) {
            tokens.push(format!("{}. {text}", p / 2 + 1));
        } else if !numbered {
            tokens.push(format!("{}... {text}", p / 2 + 1));
        } else {
            tokens.push(text);
        }
        // A second move mark has no place glued: written as the glyph it stands for.
        tokens.extend(glued.iter().skip(1).map(|m| nag_of(m).to_string()));
        tokens.extend(nags.into_iter().cloned());
        numbered = true;
        if let Some(c) = &mv.comment {
            tokens.push(comment_token(c));
            numbered = false;
        }
        for variation in mv.variations.iter().filter(|v| !v.moves.is_empty()) {
            let first = tokens.len();
            line_tokens(variation, p, tokens);
            tokens[first].insert(0, '(');
            if let Some(last) = tokens.last_mut() {
                last.push(')');
            }
            numbered = false;
        }
    }
}

/// The numeric annotation glyph of a move mark (`!` is `$1`, `?` `$2`, `!!` `$3`, `??` `$4`,
/// `!?` `$5`, `?!` `$6`).
fn nag_of(mark: &str) -> &str {
    match mark {
        "!" => "$1",
        "?" => "$2",
        "!!" => "$3",
        "??" => "$4",
        "!?" => "$5",
        "?!" => "$6",
        other => other,
    }
}

/// A comment as PDN writes it: in braces, on one line, a `}` (which PDN cannot escape) as `)`.
fn comment_token(text: &str) -> String {
    let body: String = text
        .chars()
        .map(|c| match c {
            '}' => ')',
            c if is_line_breaking(c) => ' ',
            c => c,
        })
        .collect();
    format!("{{{}}}", body.trim())
}

/// A line of moves with its comments and variations: a game's main line, or a variation.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PdnLine {
    /// A comment before the line's first move (for the main line: before the game).
    pub comment: Option<String>,
    /// The moves, in order.
    pub moves: Vec<PdnMove>,
}

impl PdnLine {
    /// A line of these moves, without comments or variations.
    pub fn of_moves(moves: &[String]) -> PdnLine {
        PdnLine {
            comment: None,
            moves: moves
                .iter()
                .map(|text| PdnMove {
                    text: text.clone(),
                    ..PdnMove::default()
                })
                .collect(),
        }
    }

    /// The moves of the line, without variations.
    pub fn texts(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.text.clone()).collect()
    }

    /// How many moves the line holds with all its variations.
    pub fn count(&self) -> usize {
        self.moves
            .iter()
            .map(|m| 1 + m.variations.iter().map(PdnLine::count).sum::<usize>())
            .sum()
    }
}

/// A move of a [`PdnLine`].
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PdnMove {
    /// The move as written (move numbers and glyphs left out).
    pub text: String,
    /// Its annotation glyphs as written, in order: move marks (`!`, `?`, `!!`, `??`, `!?`,
    /// `?!`) and numeric annotation glyphs (`$0` to `$999`), at most four.
    pub marks: Vec<String>,
    /// The comment after it, if any (several comments in a row are joined by a space).
    pub comment: Option<String>,
    /// The variations: other moves instead of this one, each a line starting from the
    /// position before it.
    pub variations: Vec<PdnLine>,
}

/// A PDN game as read: the `FEN`, `GameType` and `Variant` tags, the moves, and the whole
/// movetext with its comments and variations.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PdnRead {
    /// The `FEN` tag's value, if any.
    pub fen: Option<String>,
    /// The `GameType` tag's value (`20`, `31,W,8,8,N2,0`), if any.
    pub game_type: Option<String>,
    /// The `Variant` tag's value, if any (Polydam writes it for games the PDN standard does
    /// not number).
    pub variant: Option<String>,
    /// The moves of the main line, as written.
    pub moves: Vec<String>,
    /// Every tag read, name and value, in the order written (those above too).
    pub tags: Vec<(String, String)>,
    /// The main line with its comments and variations (its moves are [`PdnRead::moves`]).
    pub tree: PdnLine,
}

impl PdnRead {
    /// Keeps a tag's value when it is one of those read.
    fn set_tag(&mut self, name: &str, value: String) {
        if !name.is_empty() {
            self.tags.push((name.to_string(), value.clone()));
        }
        if name.eq_ignore_ascii_case("FEN") {
            self.fen = Some(value);
        } else if name.eq_ignore_ascii_case("GameType") {
            self.game_type = Some(value);
        } else if name.eq_ignore_ascii_case("Variant") {
            self.variant = Some(value);
        }
    }
}

/// Reads the first game of a PDN text: its tags (`FEN`, `GameType`, `Variant` and the others)
/// and its movetext up to the result: the moves without move numbers, their annotation glyphs
/// (`!`, `?!`, `$14`) as their marks, the comments (`{...}`, `;` to the end of the line) and
/// the variations (`(...)`, nested to any depth) as a tree ([`PdnRead::tree`]), the main line's moves also in
/// [`PdnRead::moves`].
pub fn read_pdn(text: &str) -> Result<PdnRead, String> {
    let mut out = PdnRead::default();
    let mut chars = text.chars().peekable();
    let mut token = String::new();
    // The lines being read: the main line first, then each open variation.
    let mut lines = vec![PdnLine::default()];
    let mut movetext = false;
    let mut ended = false;
    while !ended {
        let Some(c) = chars.next() else { break };
        let word_ends = matches!(c, '{' | ';' | '(' | ')')
            || c.is_whitespace()
            || (c == '[' && lines.len() == 1);
        if word_ends && !token.is_empty() {
            ended = add_word(&std::mem::take(&mut token), &mut lines);
            if ended {
                break;
            }
        }
        match c {
            '{' => {
                let mut comment = String::new();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    comment.push(c);
                }
                if !closed {
                    return Err("a comment '{' is never closed".into());
                }
                add_comment(&comment, &mut lines);
            }
            ';' => {
                let comment: String = chars.by_ref().take_while(|&c| c != '\n').collect();
                add_comment(&comment, &mut lines);
            }
            '(' => {
                movetext = true;
                lines.push(PdnLine::default());
            }
            ')' => {
                if lines.len() == 1 {
                    return Err("')' closes no variation".into());
                }
                let variation = lines.pop().unwrap_or_default();
                // A variation is another move instead of the one before it; one before any
                // move has nothing to stand for and is left out.
                if let Some(mv) = lines.last_mut().and_then(|l| l.moves.last_mut()) {
                    mv.variations.push(variation);
                }
            }
            '[' if lines.len() == 1 => {
                if movetext {
                    // The next game's tags: only the first game is read.
                    break;
                }
                let (name, value) = read_tag(&mut chars)?;
                out.set_tag(&name, value.trim().to_string());
            }
            c if c.is_whitespace() => {}
            c => {
                movetext = true;
                token.push(c);
            }
        }
    }
    if !ended && !token.is_empty() {
        add_word(&token, &mut lines);
    }
    if lines.len() > 1 {
        return Err("a variation '(' is never closed".into());
    }
    out.tree = lines.pop().unwrap_or_default();
    out.moves = out.tree.texts();
    Ok(out)
}

/// Adds a movetext word to the innermost line being read: a move (without its number, its
/// glyphs kept as its marks), a glyph standing alone (a mark of the move before it, dropped
/// when there is none), nothing for a move number. Answers whether the word is the game's
/// result, which ends the main line's movetext (in a variation it is left out).
fn add_word(word: &str, lines: &mut [PdnLine]) -> bool {
    if matches!(
        word,
        "*" | "1-0" | "0-1" | "2-0" | "0-2" | "1-1" | "1/2-1/2" | "0-0"
    ) {
        return lines.len() == 1;
    }
    let Some(line) = lines.last_mut() else {
        return false;
    };
    if let Some(mark) = mark_of(word) {
        if let Some(mv) = line.moves.last_mut() {
            push_mark(mv, mark);
        }
        return false;
    }
    if let Some((text, suffix)) = move_of(word) {
        let mut mv = PdnMove {
            text,
            ..PdnMove::default()
        };
        if let Some(mark) = suffix.and_then(mark_of) {
            push_mark(&mut mv, mark);
        }
        line.moves.push(mv);
    }
    false
}

/// Most marks kept on one move: an annotator writes one or two; more are left out.
const MAX_MARKS: usize = 4;

/// Adds `mark` to the move's marks, up to [`MAX_MARKS`].
fn push_mark(mv: &mut PdnMove, mark: &str) {
    if mv.marks.len() < MAX_MARKS {
        mv.marks.push(mark.to_string());
    }
}

/// The word as an annotation glyph, when it is one: a move mark (`!`, `?`, `!!`, `??`, `!?`,
/// `?!`) or a numeric annotation glyph (`$` and 1 to 3 digits).
fn mark_of(word: &str) -> Option<&str> {
    let is_mark = matches!(word, "!" | "?" | "!!" | "??" | "!?" | "?!")
        || word
            .strip_prefix('$')
            .is_some_and(|n| (1..=3).contains(&n.len()) && n.bytes().all(|b| b.is_ascii_digit()));
    is_mark.then_some(word)
}

/// Adds a comment to the innermost line being read: after its last move, or before its first.
fn add_comment(comment: &str, lines: &mut [PdnLine]) {
    let comment = comment.trim();
    let Some(line) = lines.last_mut() else { return };
    if comment.is_empty() {
        return;
    }
    let slot = match line.moves.last_mut() {
        Some(mv) => &mut mv.comment,
        None => &mut line.comment,
    };
    match slot {
        Some(text) => {
            text.push(' ');
            text.push_str(comment);
        }
        None => *slot = Some(comment.to_string()),
    }
}

/// The moves of PDN movetext (no tags): move numbers, comments, variations, glyphs and the
/// result left out, as [`read_pdn`] reads them.
pub fn read_moves(text: &str) -> Result<Vec<String>, String> {
    read_pdn(text).map(|game| game.moves)
}

/// The name and value of a tag after its `[`, up to its `]`: the value is the tag's quoted
/// string with its escapes (`\"`, `\\`) undone (it may hold `]`), or, unquoted, the rest of
/// the tag.
fn read_tag(chars: &mut Peekable<Chars<'_>>) -> Result<(String, String), String> {
    let mut raw = String::new();
    let mut head = String::new();
    let mut value = String::new();
    let mut quoted = false;
    let mut in_quotes = false;
    let mut escaped = false;
    for c in chars.by_ref() {
        if in_quotes {
            if escaped {
                escaped = false;
                value.push(c);
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_quotes = false;
            } else {
                value.push(c);
            }
        } else if c == ']' {
            let head = head.trim();
            let (name, rest) = head.split_once(char::is_whitespace).unwrap_or((head, ""));
            let value = if quoted {
                value
            } else {
                rest.trim().to_owned()
            };
            return Ok((name.to_owned(), value));
        } else if c == '"' {
            in_quotes = !quoted;
            quoted = true;
        } else if !quoted {
            head.push(c);
        }
        raw.push(c);
    }
    Err(format!("the tag '[{}' is never closed", excerpt(&raw)))
}

/// The move in a movetext word, if any, and the glyph glued to its end (`32-28!`): move
/// numbers (alone, `12.`, `12...`, or glued to their move, `12.32-28`) and numeric glyphs
/// (`$1`) are no move.
fn move_of(word: &str) -> Option<(String, Option<&str>)> {
    if word.starts_with('$') {
        return None;
    }
    let body = word.trim_start_matches(|c: char| c.is_ascii_digit());
    let body = if body.len() < word.len() && body.starts_with('.') {
        body.trim_start_matches('.')
    } else {
        word
    };
    let text = body.trim_end_matches(['!', '?']);
    let suffix = &body[text.len()..];
    (!text.is_empty()).then(|| (text.to_string(), (!suffix.is_empty()).then_some(suffix)))
}

/// The variant a PDN game's tags call for when it is not `current`: the one its `Variant` tag
/// names, else one with its `GameType` (the exact tag value first, then the number alone; a
/// game whose number `current` shares, as Frysk! shares Frisian's, stays in `current`).
/// `None` keeps `current`; a tag naming no game Polydam plays is an error.
pub fn pdn_variant(
    game: &PdnRead,
    current: &'static VariantEntry,
) -> Result<Option<&'static VariantEntry>, String> {
    if let Some(name) = &game.variant {
        let entry = lookup(name).map_err(|_| {
            format!(
                "the Variant tag names '{}', which is no game Polydam plays",
                excerpt(name)
            )
        })?;
        return Ok((entry.name != current.name).then_some(entry));
    }
    let Some(wanted) = &game.game_type else {
        return Ok(None);
    };
    let wanted: String = wanted.chars().filter(|c| !c.is_whitespace()).collect();
    let number = |value: &str| value.split(',').next().map(str::to_string);
    let tag = |v: &VariantEntry| v.pdn_game_type.tag_value();
    if tag(current).as_deref() == Some(wanted.as_str()) {
        return Ok(None);
    }
    if let Some(entry) = VARIANTS
        .iter()
        .find(|v| tag(v).as_deref() == Some(wanted.as_str()))
    {
        return Ok(Some(entry));
    }
    let wanted_number = number(&wanted);
    if tag(current).and_then(|t| number(&t)) == wanted_number {
        return Ok(None);
    }
    VARIANTS
        .iter()
        .find(|v| tag(v).and_then(|t| number(&t)) == wanted_number)
        .map(Some)
        .ok_or_else(|| {
            format!(
                "the GameType tag '{}' is no game Polydam plays",
                excerpt(&wanted)
            )
        })
}

/// Today's date (UTC) as `YYYY.MM.DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
    }

    #[test]
    fn game_types_and_result_styles() {
        for (variant, value) in [
            ("international", Some("20")),
            ("english", Some("21")),
            ("italian", Some("22")),
            ("pool", Some("23")),
            ("spanish", Some("24")),
            ("russian", Some("25")),
            ("brazilian", Some("26")),
            ("czech", Some("29")),
            ("turkish", Some("30")),
            ("killer", None),
            ("seesaw", None),
            ("frisian", Some("40")),
            ("frysk", Some("40")),
            ("canadian", Some("27")),
            ("srilankan", Some("27,W,12,12,N2,1")),
            ("thai", Some("31,W,8,8,N2,0")),
            ("no-such-game", None),
        ] {
            assert_eq!(game_type(variant).as_deref(), value, "{variant}");
        }
        for (variant, tokens) in [
            ("english", ["1-0", "0-1", "1/2-1/2"]),
            ("pool", ["1-0", "0-1", "1/2-1/2"]),
            ("russian", ["2-0", "0-2", "1-1"]),
            ("seesaw", ["2-0", "0-2", "1-1"]),
            ("no-such-game", ["2-0", "0-2", "1-1"]),
        ] {
            let results = [PdnResult::WhiteWins, PdnResult::BlackWins, PdnResult::Draw];
            assert_eq!(
                results.map(|r| result_text(variant, r)),
                tokens,
                "{variant}"
            );
        }
    }

    #[test]
    fn a_short_game() {
        let game = PdnGame {
            event: "polydam match".into(),
            site: "?".into(),
            variant: "international".into(),
            round: 3,
            date: "2026.11.22".into(),
            white: "A".into(),
            black: "B \"x\"".into(),
            result: Some(PdnResult::BlackWins),
            fen: None,
            termination: "illegal move 50-45 by A".into(),
            moves: vec!["32-28".into(), "19-23".into(), "28x19".into()],
            second_player_starts: false,
        };
        let text = write_game(&game);
        assert!(text.contains("[Round \"3\"]\n"));
        assert!(text.contains("[Black \"B \\\"x\\\"\"]\n"));
        assert!(text.contains("[Result \"0-2\"]\n[GameType \"20\"]\n"));
        assert!(
            text.ends_with("\n1. 32-28 19-23 2. 28x19 0-2\n\n"),
            "{text}"
        );
        let game = PdnGame {
            variant: "seesaw".into(),
            moves: vec!["a".into(), "b".into()],
            second_player_starts: true,
            result: Some(PdnResult::Draw),
            fen: Some("F".into()),
            ..game
        };
        let text = write_game(&game);
        assert!(text.contains("[Variant \"seesaw\"]\n[FEN \"F\"]\n"));
        assert!(text.ends_with("\n1... a 2. b 1-1\n\n"), "{text}");
        let text = write_game(&PdnGame {
            result: None,
            ..game
        });
        assert!(text.contains("[Result \"*\"]\n"), "{text}");
        assert!(text.ends_with("\n1... a 2. b *\n\n"), "{text}");
    }

    /// In English and Pool checkers Black moves first: the first player's name goes under
    /// `Black`, tagged first, as checkers programs write it; the result token is unchanged.
    #[test]
    fn the_first_player_is_black_where_black_moves_first() {
        let black_first: Vec<&str> = VARIANTS
            .iter()
            .map(|v| v.name)
            .filter(|name| player_tags(name) == ["Black", "White"])
            .collect();
        assert_eq!(black_first, ["pool", "english"]);
        let game = PdnGame {
            event: "polydam match".into(),
            site: "?".into(),
            variant: "english".into(),
            round: 1,
            date: "2026.12.07".into(),
            white: "first".into(),
            black: "second".into(),
            result: Some(PdnResult::WhiteWins),
            fen: None,
            termination: "white has no pieces left".into(),
            moves: vec!["11-15".into()],
            second_player_starts: false,
        };
        let text = write_game(&game);
        assert!(
            text.contains("[Black \"first\"]\n[White \"second\"]\n[Result \"1-0\"]\n"),
            "{text}"
        );
        let text = write_game(&PdnGame {
            variant: "russian".into(),
            ..game
        });
        assert!(
            text.contains("[White \"first\"]\n[Black \"second\"]\n[Result \"2-0\"]\n"),
            "{text}"
        );
    }

    /// A name from a DXP peer may hold anything: each tag stays one line, and reading it back
    /// gives the name with its line breaks and control characters as spaces.
    #[test]
    fn tag_values_stay_on_one_line_and_read_back() {
        let white = "X\\\n[Result \"1-0\"]\r\n\u{1b}]0;pwned\u{7}\t\"q\" \\";
        let game = PdnGame {
            event: "polydam dxp".into(),
            site: "127.0.0.1:1".into(),
            variant: "international".into(),
            round: 1,
            date: "2026.12.03".into(),
            white: white.into(),
            black: "B\u{2028}C".into(),
            result: Some(PdnResult::Draw),
            fen: None,
            termination: "line\nbreak".into(),
            moves: vec!["32-28".into()],
            second_player_starts: false,
        };
        let text = write_game(&game);
        let tags: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
        assert_eq!(tags.len(), 9, "{text}");
        assert!(
            tags.iter().all(|l| l.starts_with('[') && l.ends_with(']')),
            "{text}"
        );
        let read = |line: &str| {
            let mut chars = line[1..].chars().peekable();
            read_tag(&mut chars).expect("the tag reads")
        };
        let expected = "X\\ [Result \"1-0\"]   ]0;pwned  \"q\" \\";
        assert_eq!(read(tags[4]), ("White".into(), expected.into()));
        assert_eq!(read(tags[5]), ("Black".into(), "B C".into()));
        assert_eq!(read(tags[8]), ("Termination".into(), "line break".into()));
        // The game after it is still read as a game of its own.
        let two = format!(
            "{text}{}",
            write_game(&PdnGame {
                fen: Some("W:W31-50:B1-20".into()),
                ..game
            })
        );
        let second = two.split("\n\n[").nth(1).expect("a second game");
        let read = read_pdn(&format!("[{second}")).expect("the second game reads");
        assert_eq!(read.fen.as_deref(), Some("W:W31-50:B1-20"));
        assert_eq!(read.moves, ["32-28"]);
    }

    #[test]
    fn the_new_classics_have_their_game_types() {
        let game = |variant: &str| PdnGame {
            event: "polydam match".into(),
            site: "?".into(),
            variant: variant.into(),
            round: 1,
            date: "2026.11.22".into(),
            white: "A".into(),
            black: "B".into(),
            result: Some(PdnResult::Draw),
            fen: None,
            termination: "draw".into(),
            moves: Vec::new(),
            second_player_starts: false,
        };
        let frisian = write_game(&game("frisian"));
        assert!(
            frisian.contains("[GameType \"40\"]\n[Termination"),
            "{frisian}"
        );
        // Frysk! is Frisian from its own start, as pydraughts writes it.
        let frysk = write_game(&game("frysk"));
        assert!(
            frysk.contains("[GameType \"40\"]\n[FEN \"W:W46-50:B1-5\"]\n"),
            "{frysk}"
        );
        let canadian = write_game(&game("canadian"));
        assert!(
            canadian.contains("[GameType \"27\"]\n[Termination"),
            "{canadian}"
        );
        let thai = write_game(&game("thai"));
        assert!(thai.contains("[GameType \"31,W,8,8,N2,0\"]\n"), "{thai}");
    }

    #[test]
    fn pdn_games_read_their_fen_and_moves() {
        let text = r#"[Event "x; y"]
[FEN "W:W31-50:B1-20"]
1. 32-28 {a comment (with brackets)} 19-23 2.28x19 14x23! (2... 13x24 3. 40-35) $1
3. 37-32 ; to the end
2-0
[Event "next"]
1. 33-29"#;
        let game = read_pdn(text).expect("a game");
        assert_eq!(game.fen.as_deref(), Some("W:W31-50:B1-20"));
        assert_eq!(game.moves, ["32-28", "19-23", "28x19", "14x23", "37-32"]);
        assert!(read_pdn("1. 32-28 {open").is_err());
        assert!(read_pdn("1. 32-28 (19-23").is_err());
        assert!(read_pdn("[FEN \"W:W31").is_err());
        assert_eq!(read_pdn("").map(|g| g.moves.len()), Ok(0));
    }

    #[test]
    fn pdn_tags_choose_the_variant() {
        let entry = |name| polydam_engine::variants::lookup(name).expect("registered");
        let pick = |text: &str, current| {
            let game = read_pdn(text).expect("a game");
            pdn_variant(&game, entry(current)).map(|v| v.map(|v| v.name))
        };
        assert_eq!(
            pick("[GameType \"20\"] 1. 32-28", "international"),
            Ok(None)
        );
        assert_eq!(pick("1. 32-28", "turkish"), Ok(None));
        assert_eq!(
            pick("[GameType \"25\"] 1. c3-d4", "international"),
            Ok(Some("russian"))
        );
        assert_eq!(
            pick("[GameType \"21\"]", "international"),
            Ok(Some("english"))
        );
        // Frysk! is written under Frisian's number: it stays Frysk!.
        assert_eq!(pick("[GameType \"40\"]", "frysk!"), Ok(None));
        assert_eq!(
            pick("[GameType \"40\"]", "international"),
            Ok(Some("frisian"))
        );
        assert_eq!(
            pick("[Variant \"Turkish\"]", "international"),
            Ok(Some("turkish"))
        );
        assert_eq!(pick("[Variant \"turkish\"]", "turkish"), Ok(None));
        assert!(pick("[Variant \"chess\"]", "international").is_err_and(|e| e.contains("'chess'")));
        assert!(pick("[GameType \"3\"]", "international")
            .is_err_and(|e| e.contains("GameType tag '3'")));
    }

    fn mv(text: &str) -> PdnMove {
        PdnMove {
            text: text.into(),
            ..PdnMove::default()
        }
    }

    #[test]
    fn variations_and_comments_are_read_as_a_tree() {
        let text = "{Opening} 1. 32-28 {centre; \"quoted\"} 19-23 (1... 17-21 {flank} \
                    (1... 18-22 2. 28x17) 2. 31-27) 2. 28x19 ; eol note\n14x23 $1 \
                    (2... 13x24 3. 40-35) 3. 37-32! 2-0 (4. ignored)";
        let game = read_pdn(text).expect("a game");
        assert_eq!(game.moves, ["32-28", "19-23", "28x19", "14x23", "37-32"]);
        let tree = &game.tree;
        assert_eq!(tree.comment.as_deref(), Some("Opening"));
        assert_eq!(tree.moves[0].comment.as_deref(), Some("centre; \"quoted\""));
        assert_eq!(tree.moves[2].comment.as_deref(), Some("eol note"));
        let black = &tree.moves[1];
        assert_eq!(black.variations.len(), 1);
        let flank = &black.variations[0];
        assert_eq!(flank.texts(), ["17-21", "31-27"]);
        assert_eq!(flank.moves[0].comment.as_deref(), Some("flank"));
        assert_eq!(flank.moves[0].variations[0].texts(), ["18-22", "28x17"]);
        assert_eq!(tree.moves[3].variations[0].texts(), ["13x24", "40-35"]);
        assert_eq!(tree.count(), 5 + 4 + 2);
        // Glyphs are the marks of the move before them, glued or standing alone.
        assert_eq!(tree.moves[3].marks, ["$1"]);
        assert_eq!(tree.moves[4].marks, ["!"]);
        assert!(tree.moves[0].marks.is_empty());
        assert!(read_pdn("1. 32-28 (19-23 (17-21) 18-22").is_err());
        assert!(read_pdn("1. 32-28 ) 19-23").is_err());
        // A variation before any move stands for nothing: left out.
        let lone = read_pdn("(1. 33-29) 1. 32-28").expect("a game");
        assert_eq!(lone.tree, PdnLine::of_moves(&["32-28".into()]));
    }

    #[test]
    fn annotation_glyphs_are_kept_as_marks() {
        let game = read_pdn("$3 1. 32-28!? $14 19-23?? 2. 28x19 ! $1234 $x 14x23 $0 $7 $8 $9 $10")
            .expect("a game");
        let marks: Vec<Vec<String>> = game.tree.moves.iter().map(|m| m.marks.clone()).collect();
        // A glyph before any move marks nothing; `$1234` and `$x` are no glyphs (nor moves);
        // a move keeps at most four.
        assert_eq!(
            marks,
            [
                vec!["!?".to_string(), "$14".into()],
                vec!["??".into()],
                vec!["!".into()],
                vec!["$0".into(), "$7".into(), "$8".into(), "$9".into()],
            ]
        );
        assert_eq!(game.moves, ["32-28", "19-23", "28x19", "14x23"]);
    }

    #[test]
    fn a_tree_is_written_and_read_back() {
        let line = PdnLine {
            comment: Some("a game {with} braces".into()),
            moves: vec![
                PdnMove {
                    comment: Some("the usual".into()),
                    marks: vec!["!".into(), "$14".into()],
                    ..mv("32-28")
                },
                PdnMove {
                    variations: vec![
                        PdnLine {
                            comment: Some("sharper".into()),
                            moves: vec![mv("17-21"), mv("31-27")],
                        },
                        PdnLine::of_moves(&["18-23".into()]),
                    ],
                    ..mv("19-23")
                },
                mv("28x19"),
                PdnMove {
                    marks: vec!["?!".into()],
                    ..mv("14x23")
                },
            ],
        };
        let game = PdnGame {
            event: "polydam serve".into(),
            site: "?".into(),
            variant: "international".into(),
            round: 1,
            date: "2026.12.03".into(),
            white: "?".into(),
            black: "?".into(),
            result: None,
            fen: None,
            termination: "unterminated".into(),
            moves: Vec::new(),
            second_player_starts: false,
        };
        let tags = vec![
            ("White".to_string(), "Sijbrands".to_string()),
            ("Annotator".to_string(), "X".to_string()),
        ];
        let text = write_game_tree(&game, &tags, &line);
        assert!(
            text.ends_with(
                "\n{a game {with) braces} 1. 32-28! $14 {the usual} 1... 19-23 ({sharper}\n\
                 1... 17-21 2. 31-27) (1... 18-23) 2. 28x19 14x23?! *\n\n"
            ),
            "{text}"
        );
        let read = read_pdn(&text).expect("reads back");
        let expected = PdnLine {
            comment: Some("a game {with) braces".into()),
            ..line
        };
        assert_eq!(read.tree, expected);
        assert!(read.tags.contains(&("White".into(), "Sijbrands".into())));
        assert!(read.tags.contains(&("Annotator".into(), "X".into())));
        // Without comments or variations it is the plain writer's text.
        let plain = PdnLine::of_moves(&["32-28".into(), "19-23".into()]);
        assert_eq!(
            write_game_tree(&game, &[], &plain),
            write_game(&PdnGame {
                moves: plain.texts(),
                ..game
            })
        );
    }
}
