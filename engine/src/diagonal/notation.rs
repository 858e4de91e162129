//! Notation of the diagonal family: square numbering per variant, PDN FEN, Hub position
//! strings, and moves in Hub and PDN form.
//!
//! Parsing goes through [`Setup`], an unchecked list of pieces; [`Position::from_setup`]
//! validates it and returns a [`SetupError`] that says exactly what is wrong.
use super::bits::{singles, Bits};
use super::movegen::{self, promotion_row, step};
use super::position::{Move, Position};
use super::rules::{Numbering, PdnCaptures, Promotion, Rules};
use super::setup::{Setup, SetupError};
use crate::game::{Duplicates, MoveError, MoveStyle, Side};
use crate::text::excerpt;

/// Internal square index (0-based) of the variant's square number `n` (1-based).
pub fn internal_of_number<R: Rules>(n: usize) -> Option<usize> {
    let g = R::SHEET.board;
    let h = g.half as usize;
    if n == 0 || n > g.squares() {
        return None;
    }
    let row = (n - 1) / h;
    let col = (n - 1) % h;
    Some(match R::INFO.numbering {
        Numbering::Standard => n - 1,
        Numbering::Italian => row * h + (h - 1 - col),
        Numbering::Spanish => (g.rows as usize - 1 - row) * h + col,
    })
}

/// The variant's square number of an internal square index.
pub fn number_of_internal<R: Rules>(s: usize) -> usize {
    let g = R::SHEET.board;
    (1..=g.squares())
        .find(|&n| internal_of_number::<R>(n) == Some(s))
        .unwrap_or(0)
}

/// The variant's square number of a bit index.
pub fn number_of_bit<R: Rules>(bit: u32) -> usize {
    R::SHEET
        .board
        .square_of_bit(bit)
        .map_or(0, number_of_internal::<R>)
}

/// The variant's square number of a single-bit mask.
fn number_of_mask<R: Rules>(mask: R::Bits) -> usize {
    number_of_bit::<R>(mask.trailing_zeros())
}

/// Whether the variant's board is drawn mirrored relative to the internal layout (the turned
/// Italian and Spanish boards, where a1 is a light square).
fn mirrored<R: Rules>() -> bool {
    R::INFO.numbering != Numbering::Standard
}

/// Algebraic name (`c3`) of an internal square, as seen from White's side.
pub fn algebraic_of_internal<R: Rules>(s: usize) -> String {
    let g = R::SHEET.board;
    let (row, file) = g.row_file(s);
    let file = if mirrored::<R>() {
        2 * g.half - 1 - file
    } else {
        file
    };
    format!("{}{}", (b'a' + file as u8) as char, g.rows - row)
}

/// Internal square of an algebraic name, if it is a playing square.
pub fn internal_of_algebraic<R: Rules>(text: &str) -> Option<usize> {
    let g = R::SHEET.board;
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let rank: u32 = chars.as_str().parse().ok()?;
    let file = letter as u32 - 'a' as u32;
    if file >= 2 * g.half || rank == 0 || rank > g.rows {
        return None;
    }
    let file = if mirrored::<R>() {
        2 * g.half - 1 - file
    } else {
        file
    };
    g.square_at(g.rows - rank, file)
}

/// A square read from text: its internal index, or why it is not one.
fn parse_square<R: Rules>(token: &str) -> Result<usize, String> {
    let token = token.trim();
    if token.is_empty() {
        return Err("empty square".into());
    }
    if token.chars().count() > 12 {
        return Err(format!("'{}' is not a square", excerpt(token)));
    }
    let squares = R::SHEET.board.squares();
    if token.bytes().all(|b| b.is_ascii_digit()) {
        let n: usize = token
            .parse()
            .map_err(|_| format!("square {token} is too large"))?;
        return internal_of_number::<R>(n)
            .ok_or_else(|| format!("square {n} is off the board (squares are 1-{squares})"));
    }
    internal_of_algebraic::<R>(token).ok_or_else(|| {
        format!("'{token}' is not a square (use 1-{squares}, or a dark square such as c3)")
    })
}

/// The text of a square in the variant's printed form.
fn square_text<R: Rules>(bit: R::Bits, style: MoveStyle) -> String {
    if style == MoveStyle::Pdn && R::INFO.algebraic {
        let s = R::SHEET
            .board
            .square_of_bit(bit.trailing_zeros())
            .unwrap_or(0);
        algebraic_of_internal::<R>(s)
    } else {
        number_of_mask::<R>(bit).to_string()
    }
}

fn parse_side(text: &str) -> Result<Side, SetupError> {
    match text.trim() {
        "W" | "w" => Ok(Side::White),
        "B" | "b" => Ok(Side::Black),
        other => Err(SetupError::BadSide(other.to_string())),
    }
}

/// Reads Lidraughts' Frisian king-move field, `+<count><square>+<count><square>` with Black's
/// counter first (`+0+328`: White's king on 28 has made three quiet moves; a count of 0 has no
/// square).
fn parse_king_moves<R: Rules>(field: &str) -> Result<[Option<(u8, usize)>; 2], SetupError> {
    let bad = |why: String| SetupError::BadKingMoves(format!("'{}': {why}", excerpt(field)));
    let parts: Vec<&str> = field.split('+').collect();
    let ["", black, white] = parts[..] else {
        return Err(bad(
            "expected +<count><square>+<count><square> (Black first)".into(),
        ));
    };
    let mut out = [None, None];
    for (text, side) in [(black, Side::Black), (white, Side::White)] {
        let mut chars = text.chars();
        let count = chars
            .next()
            .and_then(|c| c.to_digit(10))
            .filter(|&c| c <= 3)
            .ok_or_else(|| bad(format!("{}'s count must be 0 to 3", side.name())))?;
        let square = chars.as_str();
        if count == 0 {
            continue;
        }
        if square.is_empty() {
            return Err(bad(format!(
                "{}'s count {count} has no square",
                side.name()
            )));
        }
        let s = parse_square::<R>(square).map_err(bad)?;
        out[side.index()] = Some((count as u8, s));
    }
    Ok(out)
}

/// Reads a PDN FEN (`W:W31-50:B1-20`, `B:WK4,28:B12-14`, optionally wrapped in `[FEN "..."]`;
/// Frisian's may end with Lidraughts' king-move field, `:+0+328`).
pub fn parse_fen<R: Rules>(text: &str) -> Result<Setup, SetupError> {
    let mut body = text.trim();
    if let Some(inner) = body.strip_prefix("[FEN") {
        body = inner.trim().trim_end_matches(']').trim().trim_matches('"');
    }
    let body = body.trim().trim_matches('"').trim_end_matches('.');
    if body.is_empty() {
        return Err(SetupError::Empty);
    }
    let mut sections = body.split(':');
    let side = parse_side(sections.next().unwrap_or(""))?;
    let mut setup = Setup::new(side);
    let mut seen_colour = false;
    for section in sections {
        let section = section.trim();
        let (owner, list) = match section.chars().next() {
            Some('W') | Some('w') => (Side::White, &section[1..]),
            Some('B') | Some('b') => (Side::Black, &section[1..]),
            // Lidraughts appends `H0:F1` (half-move clock, move number): not pieces.
            Some('H') | Some('F') => continue,
            Some('+') => {
                setup.king_moves = parse_king_moves::<R>(section)?;
                continue;
            }
            None => continue,
            Some(_) => {
                return Err(SetupError::BadToken(format!(
                    "FEN section '{}' must start with W or B",
                    excerpt(section)
                )))
            }
        };
        seen_colour = true;
        for item in list.split(',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let (king, rest) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            if let Some((a, b)) = rest.split_once('-') {
                let lo: usize = a.trim().parse().map_err(|_| bad_fen_item(item))?;
                let hi: usize = b.trim().parse().map_err(|_| bad_fen_item(item))?;
                if lo > hi {
                    return Err(SetupError::BadToken(format!(
                        "FEN range '{item}' runs backwards"
                    )));
                }
                for n in lo..=hi {
                    let s = parse_square::<R>(&n.to_string()).map_err(SetupError::BadToken)?;
                    setup.pieces.push((s, owner, king));
                }
            } else {
                let s = parse_square::<R>(rest).map_err(|e| {
                    SetupError::BadToken(format!("FEN item '{}': {e}", excerpt(item)))
                })?;
                setup.pieces.push((s, owner, king));
            }
        }
    }
    if !seen_colour {
        return Err(SetupError::BadToken(format!(
            "FEN '{}' has no piece list (expected e.g. W:W31-50:B1-20)",
            excerpt(body)
        )));
    }
    Ok(setup)
}

fn bad_fen_item(item: &str) -> SetupError {
    SetupError::BadToken(format!(
        "FEN item '{}' is not a square, a range or K+square",
        excerpt(item)
    ))
}

/// Reads a Hub position string: the side to move, then one of `w b W B e` per square in the
/// variant's numbering.
pub fn parse_hub<R: Rules>(text: &str) -> Result<Setup, SetupError> {
    let text = text.trim();
    let want = R::SHEET.board.squares() + 1;
    let count = text.chars().count();
    if count != want {
        return Err(SetupError::BadLength { got: count, want });
    }
    let mut chars = text.chars();
    let side = parse_side(&chars.next().map(String::from).unwrap_or_default())?;
    let mut setup = Setup::new(side);
    for (i, ch) in chars.enumerate() {
        let piece = match ch {
            'w' => Some((Side::White, false)),
            'b' => Some((Side::Black, false)),
            'W' => Some((Side::White, true)),
            'B' => Some((Side::Black, true)),
            'e' | '.' => None,
            _ => return Err(SetupError::BadPieceChar { ch, index: i + 1 }),
        };
        if let Some((owner, king)) = piece {
            let s =
                internal_of_number::<R>(i + 1).ok_or(SetupError::BadLength { got: count, want })?;
            setup.pieces.push((s, owner, king));
        }
    }
    Ok(setup)
}

/// The variant's start position, read from its start FEN (a constant of its rule sheet).
///
/// # Panics
///
/// If that FEN is not a valid position of the variant: a bug in the sheet, which the tests
/// catch for every registered variant (there is no fallback board).
pub fn start<R: Rules>() -> Position<R::Bits> {
    match read_start::<R>() {
        Ok(pos) => pos,
        Err(e) => panic!(
            "{}: start FEN '{}' is invalid: {e}",
            R::NAME,
            R::INFO.start_fen
        ),
    }
}

/// The start position, or why the variant's start FEN does not read.
fn read_start<R: Rules>() -> Result<Position<R::Bits>, SetupError> {
    parse_fen::<R>(R::INFO.start_fen)?.position::<R>()
}

/// Reads a position in any accepted form: `start`, a Hub string, or a PDN FEN.
pub fn parse_any<R: Rules>(text: &str) -> Result<Position<R::Bits>, SetupError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(SetupError::Empty);
    }
    if t == "start" {
        return read_start::<R>();
    }
    let looks_hub = !t.contains(':') && t.chars().count() == R::SHEET.board.squares() + 1;
    let setup = if looks_hub {
        parse_hub::<R>(t)?
    } else if t.contains(':') {
        parse_fen::<R>(t)?
    } else {
        // Neither: report as a Hub string of the wrong length, the likelier intent.
        parse_hub::<R>(t)?
    };
    setup.position::<R>()
}

fn side_letter(side: Side) -> char {
    match side {
        Side::White => 'W',
        Side::Black => 'B',
    }
}

/// The position as PDN FEN in the variant's numbering, with ranges (`W:W31-50:B1-20`).
pub fn fen<R: Rules>(pos: &Position<R::Bits>) -> String {
    let g = R::SHEET.board;
    let mut out = String::new();
    out.push(side_letter(pos.side));
    for owner in [Side::White, Side::Black] {
        out.push(':');
        out.push(side_letter(owner));
        let mut items: Vec<(usize, bool)> = (1..=g.squares())
            .filter_map(|n| {
                let s = internal_of_number::<R>(n)?;
                let bit = R::Bits::from_wide(g.wide_bit_of_square(s));
                (!(pos.pieces[owner.index()] & bit).is_empty())
                    .then_some((n, !(pos.kings & bit).is_empty()))
            })
            .collect();
        items.sort_unstable();
        let mut parts: Vec<String> = Vec::new();
        let mut i = 0;
        while i < items.len() {
            let (n, king) = items[i];
            let mut j = i;
            while j + 1 < items.len() && items[j + 1].0 == items[j].0 + 1 && items[j + 1].1 == king
            {
                j += 1;
            }
            let prefix = if king { "K" } else { "" };
            if j >= i + 2 {
                parts.push(format!("{prefix}{n}-{}", items[j].0));
                i = j + 1;
            } else {
                parts.push(format!("{prefix}{n}"));
                i += 1;
            }
        }
        out.push_str(&parts.join(","));
    }
    let counters = [Side::Black, Side::White].map(|side| pos.king_moves.count(side));
    if counters.iter().any(Option::is_some) {
        out.push(':');
        for counter in counters {
            out.push('+');
            if let Some((count, bit)) = counter {
                out.push_str(&format!("{count}{:02}", number_of_bit::<R>(bit)));
            } else {
                out.push('0');
            }
        }
    }
    out
}

/// The position as a Hub string.
pub fn hub<R: Rules>(pos: &Position<R::Bits>) -> String {
    let g = R::SHEET.board;
    let mut out = String::with_capacity(g.squares() + 1);
    out.push(side_letter(pos.side));
    for n in 1..=g.squares() {
        let bit =
            R::Bits::from_wide(internal_of_number::<R>(n).map_or(0, |s| g.wide_bit_of_square(s)));
        let king = !(pos.kings & bit).is_empty();
        out.push(if !(pos.pieces[0] & bit).is_empty() {
            if king {
                'W'
            } else {
                'w'
            }
        } else if !(pos.pieces[1] & bit).is_empty() {
            if king {
                'B'
            } else {
                'b'
            }
        } else {
            'e'
        });
    }
    out
}

/// A path of landing squares (single-bit masks, the start first) for a capture, found again
/// from the position; `None` if the move has no capture path (it cannot come from the
/// generator).
pub fn capture_path<R: Rules>(pos: &Position<R::Bits>, mv: &Move<R::Bits>) -> Option<Vec<R::Bits>> {
    let from = R::Bits::bit(mv.from as u32);
    let empty = !pos.occupied() & movegen::board_mask::<R>() | from;
    let mut path = vec![from];
    let king = !(pos.kings & from).is_empty();
    let to = R::Bits::bit(mv.to as u32);
    if path_search::<R>(pos.side, empty, to, mv.captured, king, &mut path) {
        Some(path)
    } else {
        None
    }
}

fn path_search<R: Rules>(
    side: Side,
    empty: R::Bits,
    to: R::Bits,
    left: R::Bits,
    king: bool,
    path: &mut Vec<R::Bits>,
) -> bool {
    let cur = *path.last().unwrap_or(&R::Bits::ZERO);
    if left.is_empty() {
        return cur == to;
    }
    for d in 0..movegen::capture_dirs::<R>() {
        let mut victim = step::<R>(cur, d);
        if king && R::SHEET.flying_kings {
            while !(victim & empty).is_empty() {
                victim = step::<R>(victim, d);
            }
        }
        if (victim & left).is_empty() {
            continue;
        }
        // Thai: a taken piece leaves the board at once.
        let after = if R::SHEET.immediate_removal {
            empty | victim
        } else {
            empty
        };
        let mut landing = step::<R>(victim, d) & empty;
        while !landing.is_empty() {
            let crowned = !king
                && R::SHEET.promotion == Promotion::CrownAndContinue
                && !(landing & promotion_row::<R>(side)).is_empty();
            path.push(landing);
            if path_search::<R>(side, after, to, left & !victim, king || crowned, path) {
                return true;
            }
            path.pop();
            if !(king && R::SHEET.flying_kings) || R::SHEET.king_lands_behind {
                break;
            }
            landing = step::<R>(landing, d) & empty;
        }
    }
    false
}

/// The move as text: Hub form (`28x19x23`, captured squares ascending) or PDN form (landing
/// squares, `26x17x10`; algebraic `c3:e5:g3` where the variant's players write that; start
/// and end only, `26x10`, where the card says so and no other legal capture shares them).
pub fn move_text<R: Rules>(
    pos: &Position<R::Bits>,
    mv: &Move<R::Bits>,
    style: MoveStyle,
) -> String {
    let from = R::Bits::bit(mv.from as u32);
    let to = R::Bits::bit(mv.to as u32);
    if mv.captured.is_empty() {
        return format!(
            "{}-{}",
            square_text::<R>(from, style),
            square_text::<R>(to, style)
        );
    }
    match style {
        MoveStyle::Hub => {
            let mut caps: Vec<usize> = singles(mv.captured).map(number_of_mask::<R>).collect();
            caps.sort_unstable();
            let mut out = format!("{}x{}", number_of_mask::<R>(from), number_of_mask::<R>(to));
            for c in caps {
                out.push('x');
                out.push_str(&c.to_string());
            }
            out
        }
        MoveStyle::Pdn => {
            let sep = if R::INFO.algebraic {
                ':'
            } else {
                R::INFO.pdn_capture_separator
            };
            let path = if R::INFO.pdn_captures == PdnCaptures::Short && !shares_ends::<R>(pos, mv) {
                vec![from, to]
            } else {
                capture_path::<R>(pos, mv).unwrap_or_else(|| vec![from, to])
            };
            path.iter()
                .map(|&b| square_text::<R>(b, style))
                .collect::<Vec<_>>()
                .join(&sep.to_string())
        }
    }
}

/// The cells of a move in PDN square names: start and end of a quiet move, every landing
/// square of a capture (even where the PDN text names only the ends).
pub fn move_path<R: Rules>(pos: &Position<R::Bits>, mv: &Move<R::Bits>) -> Vec<String> {
    let from = R::Bits::bit(mv.from as u32);
    let to = R::Bits::bit(mv.to as u32);
    let path = if mv.captured.is_empty() {
        vec![from, to]
    } else {
        capture_path::<R>(pos, mv).unwrap_or_else(|| vec![from, to])
    };
    path.iter()
        .map(|&b| square_text::<R>(b, MoveStyle::Pdn))
        .collect()
}

/// Whether another legal move of `pos` has `mv`'s start and end (so that a PDN capture must
/// name its landing squares).
fn shares_ends<R: Rules>(pos: &Position<R::Bits>, mv: &Move<R::Bits>) -> bool {
    let mut legal = Vec::new();
    movegen::generate::<R>(pos, Duplicates::Drop, &mut legal);
    legal
        .iter()
        .any(|m| m.from == mv.from && m.to == mv.to && m != mv)
}

/// Whether the landing squares `path` (start first, end last) trace `mv`: one captured piece
/// strictly between each pair of consecutive landings, which must share a diagonal.
fn path_matches<R: Rules>(mv: &Move<R::Bits>, path: &[R::Bits]) -> bool {
    if path.len() != mv.captured.count_ones() as usize + 1 {
        return false;
    }
    let mask = movegen::board_mask::<R>();
    let mut taken = R::Bits::ZERO;
    for pair in path.windows(2) {
        let mut found = None;
        for d in 0..movegen::capture_dirs::<R>() {
            let mut x = step::<R>(pair[0], d) & mask;
            let mut between = R::Bits::ZERO;
            while !x.is_empty() && x != pair[1] {
                between |= x;
                x = step::<R>(x, d) & mask;
            }
            if x == pair[1] {
                found = Some(between);
                break;
            }
        }
        let Some(between) = found else { return false };
        let caught = between & mv.captured & !taken;
        if caught.count_ones() != 1 {
            return false;
        }
        taken |= caught;
    }
    taken == mv.captured
}

/// Reads a move leniently: Hub form, PDN form, algebraic squares, `-`, `x` or `:` separators,
/// or a capture given by its start and end alone. Exactly one legal move must match.
pub fn parse_move<R: Rules>(
    pos: &Position<R::Bits>,
    text: &str,
) -> Result<Move<R::Bits>, MoveError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(MoveError::Malformed("empty move".into()));
    }
    let tokens: Vec<&str> = t.split(['-', 'x', 'X', ':']).collect();
    if tokens.len() < 2 {
        return Err(MoveError::Malformed(format!(
            "'{}' needs at least two squares separated by -, x or :",
            excerpt(t)
        )));
    }
    if tokens.len() > 64 {
        return Err(MoveError::Malformed(format!(
            "'{}' names too many squares",
            excerpt(t)
        )));
    }
    if tokens.iter().any(|tok| tok.trim().is_empty()) {
        // `xyz` splits at its `x` into nothing and `yz`: not a move with a square missing,
        // but no move at all.
        return Err(MoveError::Malformed(format!(
            "'{}' (a move is squares joined by -, x or :, such as 32-28 or 28x19)",
            excerpt(t)
        )));
    }
    let g = R::SHEET.board;
    let mut squares = Vec::with_capacity(tokens.len());
    for tok in &tokens {
        let s = parse_square::<R>(tok)
            .map_err(|e| MoveError::Malformed(format!("{e} in '{}'", excerpt(t))))?;
        squares.push(R::Bits::from_wide(g.wide_bit_of_square(s)));
    }
    let mut legal = Vec::new();
    movegen::generate::<R>(pos, Duplicates::Drop, &mut legal);
    if movegen::breakthrough_done::<R>(pos) {
        legal.clear();
    }
    let first = squares[0];
    let second = squares[1];
    let last = squares[squares.len() - 1];
    let rest = squares[2..].iter().fold(R::Bits::ZERO, |a, &b| a | b);
    let matches: Vec<Move<R::Bits>> = legal
        .into_iter()
        .filter(|m| {
            let from = R::Bits::bit(m.from as u32);
            let to = R::Bits::bit(m.to as u32);
            if from != first {
                return false;
            }
            if squares.len() == 2 {
                return to == second;
            }
            if m.captured.is_empty() {
                return false;
            }
            // Hub form: from, to, then the captured squares in any order.
            let hub = to == second
                && rest == m.captured
                && squares.len() - 2 == m.captured.count_ones() as usize;
            // PDN form: from, the landing squares, to.
            let pdn = to == last && path_matches::<R>(m, &squares);
            hub || pdn
        })
        .collect();
    match matches.len() {
        1 => Ok(matches[0]),
        0 => Err(MoveError::Illegal(excerpt(t))),
        _ => Err(MoveError::Ambiguous(
            excerpt(t),
            matches
                .iter()
                .map(|m| move_text::<R>(pos, m, MoveStyle::Hub))
                .collect(),
        )),
    }
}
