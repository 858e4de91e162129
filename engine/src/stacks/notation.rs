//! Notation of Seesaw Draughts: squares 1-32 (Brazilian numbering), the sized PDN FEN,
//! the Hub character string, and moves in Hub and PDN form.
//!
//! Sized FEN: a PDN FEN in which any square may carry `^size` (`W:W21,22,23^3:B1,2^2`); a range
//! takes one size for all its squares (`W:W21-32^2:B1-12`). A plain PDN FEN reads with every
//! size 1. Parsing goes through [`Setup`]; [`Position::from_setup`] validates it and returns a
//! [`SetupError`] saying exactly what is wrong.

use polydam_tables::diagonal::EIGHT;

use super::movegen::{self, bits, capture_in, range_of, Move, Position, MASK};
use super::setup::{Setup, SetupError};
use crate::game::{Duplicates, MoveError, MoveStyle, Side};
use crate::text::excerpt;

/// The start position: card "White: 12 stacks of size 1 on 21-32; Black: 12 on 1-12. White
/// moves first."
pub const START_FEN: &str = "W:W21-32:B1-12";

/// The start position, [`START_FEN`], built square by square (a unit test checks that the
/// FEN reads as the same position).
pub fn start() -> Position {
    let mut pos = Position::empty(Side::White);
    for n in 1..=12 {
        pos.put(Side::Black, EIGHT.bit_index(n - 1), 1);
    }
    for n in 21..=32 {
        pos.put(Side::White, EIGHT.bit_index(n - 1), 1);
    }
    pos.hash = pos.compute_hash();
    pos
}

/// Bit index of square number `n` (1-32), or `None`.
pub fn bit_of_number(n: usize) -> Option<u32> {
    (1..=32).contains(&n).then(|| EIGHT.bit_index(n - 1))
}

/// Square number (1-32) of a bit index (0 for a ghost bit).
pub fn number_of_bit(bit: u32) -> usize {
    EIGHT.square_of_bit(bit).map_or(0, |s| s + 1)
}

fn number_of_mask(m: u64) -> usize {
    number_of_bit(m.trailing_zeros())
}

fn parse_side(text: &str) -> Result<Side, SetupError> {
    match text.trim() {
        "W" | "w" => Ok(Side::White),
        "B" | "b" => Ok(Side::Black),
        other => Err(SetupError::BadSide(other.to_string())),
    }
}

fn parse_number(text: &str, item: &str) -> Result<usize, SetupError> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) || t.len() > 6 {
        return Err(SetupError::BadToken(format!(
            "FEN item '{}': '{}' is not a square number",
            excerpt(item),
            excerpt(t)
        )));
    }
    let n: usize = t.parse().unwrap_or(0);
    if !(1..=32).contains(&n) {
        return Err(SetupError::BadToken(format!(
            "FEN item '{}': square {n} is off the board (squares are 1-32)",
            excerpt(item)
        )));
    }
    Ok(n)
}

/// Reads a sized PDN FEN (`W:W21,22,23^3:B1,2^2`), or a plain one, optionally in `[FEN "..."]`.
pub fn parse_fen(text: &str) -> Result<Setup, SetupError> {
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
            Some('H') | Some('F') => continue,
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
            if item.starts_with(['K', 'k']) {
                return Err(SetupError::King(item.to_string()));
            }
            let (squares, size) = match item.split_once('^') {
                Some((sq, size)) => {
                    let size_text = size.trim();
                    if size_text.is_empty() || !size_text.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(SetupError::BadToken(format!(
                            "FEN item '{}': size '{}' is not a number",
                            excerpt(item),
                            excerpt(size_text)
                        )));
                    }
                    // Sizes beyond u32 are reported as too large by the square's check below.
                    let size = size_text.parse::<u32>().unwrap_or(u32::MAX);
                    (sq, size)
                }
                None => (item, 1),
            };
            if let Some((a, b)) = squares.split_once('-') {
                let lo = parse_number(a, item)?;
                let hi = parse_number(b, item)?;
                if lo > hi {
                    return Err(SetupError::BadToken(format!(
                        "FEN range '{}' runs backwards",
                        excerpt(item)
                    )));
                }
                for n in lo..=hi {
                    setup.stacks.push((n, owner, size));
                }
            } else {
                let n = parse_number(squares, item)?;
                setup.stacks.push((n, owner, size));
            }
        }
    }
    if !seen_colour {
        return Err(SetupError::BadToken(format!(
            "FEN '{}' has no stack list (expected e.g. W:W21-32:B1-12)",
            excerpt(body)
        )));
    }
    Ok(setup)
}

/// Reads a Hub character string (`W` + 32 of `w b e`): every stack of size 1.
pub fn parse_hub(text: &str) -> Result<Setup, SetupError> {
    let text = text.trim();
    let count = text.chars().count();
    if count != 33 {
        return Err(SetupError::BadLength { got: count });
    }
    let mut chars = text.chars();
    let side = parse_side(&chars.next().map(String::from).unwrap_or_default())?;
    let mut setup = Setup::new(side);
    for (i, ch) in chars.enumerate() {
        match ch {
            'w' => setup.stacks.push((i + 1, Side::White, 1)),
            'b' => setup.stacks.push((i + 1, Side::Black, 1)),
            'e' | '.' => {}
            'W' | 'B' => return Err(SetupError::King(format!("{ch} on square {}", i + 1))),
            _ => return Err(SetupError::BadPieceChar { ch, index: i + 1 }),
        }
    }
    Ok(setup)
}

/// Reads a position: `start`, a sized FEN, or a 33-character Hub string.
pub fn parse_any(text: &str) -> Result<Position, SetupError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(SetupError::Empty);
    }
    if t == "start" {
        return Ok(start());
    }
    let setup = if t.contains(':') {
        parse_fen(t)?
    } else {
        parse_hub(t)?
    };
    setup.position()
}

fn side_letter(side: Side) -> char {
    match side {
        Side::White => 'W',
        Side::Black => 'B',
    }
}

/// The position as a sized FEN: runs of three or more size-1 stacks as ranges, other sizes
/// as `square^size`.
pub fn fen(pos: &Position) -> String {
    let mut out = String::new();
    out.push(side_letter(pos.side));
    for owner in [Side::White, Side::Black] {
        out.push(':');
        out.push(side_letter(owner));
        let items: Vec<(usize, u8)> = (1..=32)
            .filter_map(|n| {
                let bit = bit_of_number(n)?;
                (pos.stacks[owner.index()] & (1u64 << bit) != 0).then(|| (n, pos.size_at(bit)))
            })
            .collect();
        let mut parts: Vec<String> = Vec::new();
        let mut i = 0;
        while i < items.len() {
            let (n, size) = items[i];
            let mut j = i;
            while j + 1 < items.len()
                && items[j + 1].0 == items[j].0 + 1
                && items[j + 1].1 == 1
                && size == 1
            {
                j += 1;
            }
            if size != 1 {
                parts.push(format!("{n}^{size}"));
                i += 1;
            } else if j >= i + 2 {
                parts.push(format!("{n}-{}", items[j].0));
                i = j + 1;
            } else {
                parts.push(n.to_string());
                i += 1;
            }
        }
        out.push_str(&parts.join(","));
    }
    out
}

/// Landing squares (start first) of a capture, found again from the position.
pub fn capture_path(pos: &Position, mv: &Move) -> Option<Vec<u64>> {
    let from = 1u64 << mv.from;
    let empty = !pos.occupied() & MASK | from;
    let range = range_of(pos.size_at(mv.from as u32));
    let mut path = vec![from];
    path_search(empty, 1u64 << mv.to, mv.captured, range, &mut path).then_some(path)
}

fn path_search(empty: u64, to: u64, left: u64, range: u32, path: &mut Vec<u64>) -> bool {
    let cur = *path.last().unwrap_or(&0);
    if left == 0 {
        return cur == to;
    }
    for d in 0..4 {
        let (victim, land) = capture_in(cur, d, range, empty, left);
        if victim == 0 {
            continue;
        }
        path.push(land);
        if path_search(empty, to, left & !victim, range, path) {
            return true;
        }
        path.pop();
    }
    false
}

/// The move as text: Hub form (`26x10x15x22`: from, to, captured squares ascending) or PDN
/// form (landing squares, `26x17x10`). Quiet moves are `22-18` in both.
pub fn move_text(pos: &Position, mv: &Move, style: MoveStyle) -> String {
    let from = 1u64 << mv.from;
    let to = 1u64 << mv.to;
    if mv.captured == 0 {
        return format!("{}-{}", number_of_mask(from), number_of_mask(to));
    }
    match style {
        MoveStyle::Hub => {
            let mut caps: Vec<usize> = bits(mv.captured).map(number_of_mask).collect();
            caps.sort_unstable();
            let mut out = format!("{}x{}", number_of_mask(from), number_of_mask(to));
            for c in caps {
                out.push('x');
                out.push_str(&c.to_string());
            }
            out
        }
        MoveStyle::Pdn => capture_path(pos, mv)
            .unwrap_or_else(|| vec![from, to])
            .iter()
            .map(|&b| number_of_mask(b).to_string())
            .collect::<Vec<_>>()
            .join("x"),
    }
}

/// Whether the landing squares `path` (start first) trace `mv`: consecutive landings on one
/// diagonal, exactly one stack of `mv.captured` between them, right before the landing.
fn path_matches(mv: &Move, path: &[u64]) -> bool {
    if path.len() != mv.captured.count_ones() as usize + 1 {
        return false;
    }
    let mut taken = 0u64;
    for pair in path.windows(2) {
        let mut found = None;
        for d in 0..4 {
            let mut x = movegen::step(pair[0], d) & MASK;
            let mut between = 0u64;
            let mut before = 0u64;
            while x != 0 && x != pair[1] {
                between |= x;
                before = x;
                x = movegen::step(x, d) & MASK;
            }
            if x == pair[1] {
                found = Some((between, before));
                break;
            }
        }
        let Some((between, before)) = found else {
            return false;
        };
        let caught = between & mv.captured & !taken;
        if caught.count_ones() != 1 || caught != before {
            return false;
        }
        taken |= caught;
    }
    taken == mv.captured
}

/// Reads a move leniently: Hub form, PDN form, `-`, `x` or `:` separators, or a capture given
/// by its start and end alone. Exactly one legal move must match.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
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
    if tokens.len() > 33 {
        return Err(MoveError::Malformed(format!(
            "'{}' names too many squares",
            excerpt(t)
        )));
    }
    let mut squares = Vec::with_capacity(tokens.len());
    for tok in &tokens {
        let tok = tok.trim();
        let n: Option<usize> =
            if !tok.is_empty() && tok.len() <= 3 && tok.bytes().all(|b| b.is_ascii_digit()) {
                tok.parse().ok()
            } else {
                None
            };
        let bit = n.and_then(bit_of_number).ok_or_else(|| {
            MoveError::Malformed(format!(
                "'{}' is not a square (squares are 1-32) in '{}'",
                excerpt(tok),
                excerpt(t)
            ))
        })?;
        squares.push(1u64 << bit);
    }
    let mut legal = Vec::new();
    movegen::generate(pos, Duplicates::Drop, &mut legal);
    let first = squares[0];
    let second = squares[1];
    let last = squares[squares.len() - 1];
    let rest: u64 = squares[2..].iter().fold(0, |a, &b| a | b);
    let mut matches: Vec<Move> = legal
        .into_iter()
        .filter(|m| {
            let from = 1u64 << m.from;
            let to = 1u64 << m.to;
            if from != first {
                return false;
            }
            if squares.len() == 2 {
                return to == second;
            }
            if m.captured == 0 {
                return false;
            }
            let hub = to == second
                && rest == m.captured
                && squares.len() - 2 == m.captured.count_ones() as usize;
            let pdn = to == last && path_matches(m, &squares);
            hub || pdn
        })
        .collect();
    if matches.len() > 1 && squares.len() == 2 {
        // `26x17` is also the PDN form of a single capture: prefer the move it traces exactly.
        let exact: Vec<Move> = matches
            .iter()
            .copied()
            .filter(|m| path_matches(m, &squares))
            .collect();
        if exact.len() == 1 {
            matches = exact;
        }
    }
    match matches.len() {
        1 => Ok(matches[0]),
        0 => Err(MoveError::Illegal(excerpt(t))),
        _ => Err(MoveError::Ambiguous(
            excerpt(t),
            matches
                .iter()
                .map(|m| move_text(pos, m, MoveStyle::Hub))
                .collect(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fen_reads_as_the_start_position() {
        let read = parse_fen(START_FEN).and_then(|s| s.position());
        assert_eq!(read, Ok(start()));
        assert_eq!(fen(&start()), START_FEN);
    }
}
