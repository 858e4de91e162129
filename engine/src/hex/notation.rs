//! Notation of hex Seesaw: cell names, the position FEN, and turns.
//!
//! Cells: column letter from the left (`a`..`g` on side 4, `a`..`i` on side 5) and the number
//! counted from the bottom cell of that column, so South's corner is `d1` (side 4) or `e1`
//! (side 5). Turns: `@d2` deploys, `d1-d3` moves, `d1xd4` captures (`d1xd4xe5` for more),
//! `d1xd4-d6` captures and spends the leftover steps on a move to `d6`; `pass`.
//!
//! FEN: `W:Wd1^2,e3:Bd7:TWd1,c1:TBd7[:pass]`, the side to move, then White's (South's) and
//! Black's (North's) stacks with `^size` when larger than 1, then the White and Black tiles,
//! then `pass` when the previous move was a pass. Parsing goes through [`Setup`];
//! [`Position::from_setup`] validates it and returns a [`SetupError`] saying exactly what is
//! wrong.

use polydam_tables::hex::HexGeometry;

use super::movegen::{self, cells, reach_targets, walk, Kind, Move, Position};
use super::setup::{Setup, SetupError};
use crate::game::{Duplicates, MoveError, Side};
use crate::text::excerpt;

/// The name of `cell` (`d1`).
pub fn cell_name(g: &HexGeometry, cell: u8) -> String {
    let (col, num) = g.name_parts(cell);
    format!("{}{}", (b'a' + col) as char, num)
}

/// The cell named `text`, or a message saying why there is none.
pub fn parse_cell(g: &HexGeometry, text: &str) -> Result<u8, String> {
    let t = text.trim();
    let last_col = (b'a' + (2 * g.side - 2) as u8) as char;
    let mut chars = t.chars();
    let letter = chars.next().map(|c| c.to_ascii_lowercase());
    let number = chars.as_str();
    match letter {
        Some(l)
            if l.is_ascii_lowercase()
                && !number.is_empty()
                && number.len() <= 3
                && number.bytes().all(|b| b.is_ascii_digit()) =>
        {
            let col = l as u8 - b'a';
            let num: u8 = number.parse().unwrap_or(0);
            g.cell_named(col, num).ok_or_else(|| {
                format!("'{}' is off the board (columns a-{last_col}, numbered from 1 at the bottom of each column)", excerpt(t))
            })
        }
        _ => Err(format!(
            "'{}' is not a cell (a column letter a-{last_col} and a number, e.g. d1)",
            excerpt(t)
        )),
    }
}

/// The start position. Card: "South (White) has one tile with a 1-stack on it in the bottom
/// corner; North (Black) the same in the top corner. South moves first".
pub fn start(g: &HexGeometry) -> Position {
    let mut p = Position::empty(Side::White);
    for (side, cell) in [(0, g.bottom()), (1, g.top())] {
        p.stacks[side] |= 1u64 << cell;
        p.tiles[side] |= 1u64 << cell;
        p.sizes[cell as usize] = 1;
    }
    p.hash = p.compute_hash();
    p
}

/// Reads `start` or a FEN.
pub fn parse_any(g: &HexGeometry, text: &str) -> Result<Position, SetupError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(SetupError::Empty);
    }
    if t == "start" {
        return Ok(start(g));
    }
    parse_fen(g, t)?.position(g)
}

/// Reads a FEN (`W:Wd1^2,e3:Bd7:TWd1,c1:TBd7[:pass]`) into a setup, checking its cells and
/// sizes as text; [`Position::from_setup`] checks the rest.
pub fn parse_fen(g: &HexGeometry, text: &str) -> Result<Setup, SetupError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(SetupError::Empty);
    }
    let mut sections = t.split(':');
    let side = match sections.next().map(str::trim) {
        Some("W") | Some("w") => Side::White,
        Some("B") | Some("b") => Side::Black,
        other => return Err(SetupError::BadSide(other.unwrap_or("").to_string())),
    };
    let mut setup = Setup::new(side);
    let mut seen = false;
    for section in sections {
        let section = section.trim();
        if section.is_empty() {
            continue;
        }
        if section.eq_ignore_ascii_case("pass") {
            setup.passed = true;
            continue;
        }
        let (tile, owner, list) = if let Some(rest) = section.strip_prefix("TW") {
            (true, Side::White, rest)
        } else if let Some(rest) = section.strip_prefix("TB") {
            (true, Side::Black, rest)
        } else if let Some(rest) = section.strip_prefix('W') {
            (false, Side::White, rest)
        } else if let Some(rest) = section.strip_prefix('B') {
            (false, Side::Black, rest)
        } else {
            return Err(SetupError::BadToken(format!(
                "section '{}' must start with W or B (stacks), TW or TB (tiles), or be 'pass'",
                excerpt(section)
            )));
        };
        seen = true;
        for item in list.split(',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let (name, size) = match item.split_once('^') {
                Some((n, s)) if !tile => (n, Some(s.trim())),
                Some(_) => {
                    return Err(SetupError::BadToken(format!(
                        "tile '{}' cannot have a size",
                        excerpt(item)
                    )))
                }
                None => (item, None),
            };
            let cell = parse_cell(g, name).map_err(SetupError::BadToken)?;
            if tile {
                setup.tiles.push((cell, owner));
            } else {
                let size = match size {
                    None => 1,
                    // A size that is no number at all is reported here; the range is checked
                    // with the rest of the setup.
                    Some(s) => s.parse::<u32>().map_err(|_| SetupError::BadSize {
                        cell: cell_name(g, cell),
                        size: s.to_string(),
                    })?,
                };
                setup.stacks.push((cell, owner, size));
            }
        }
    }
    if !seen {
        return Err(SetupError::BadToken(format!(
            "'{}' has no stacks or tiles (expected e.g. W:Wd1:Bd7:TWd1:TBd7)",
            excerpt(t)
        )));
    }
    Ok(setup)
}

/// The position as FEN.
pub fn fen(g: &HexGeometry, pos: &Position) -> String {
    let list = |set: u64, sizes: bool| -> String {
        cells(set)
            .map(|c| {
                let s = pos.sizes[c];
                if sizes && s != 1 {
                    format!("{}^{s}", cell_name(g, c as u8))
                } else {
                    cell_name(g, c as u8)
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut out = format!(
        "{}:W{}:B{}:TW{}:TB{}",
        if pos.side == Side::White { 'W' } else { 'B' },
        list(pos.stacks[0], true),
        list(pos.stacks[1], true),
        list(pos.tiles[0], false),
        list(pos.tiles[1], false)
    );
    if pos.passed {
        out.push_str(":pass");
    }
    out
}

/// Replays a capture turn given as the stack's cell, the captured cells in order and the
/// optional leftover move's end; returns the captured set and the final cell if every capture
/// is legal in turn and the turn ends legally.
pub fn replay_capture(
    g: &HexGeometry,
    pos: &Position,
    from: u8,
    order: &[u8],
    leftover: Option<u8>,
) -> Option<(u64, u8)> {
    let us = pos.side.index();
    let size = pos.sizes[from as usize];
    if pos.stacks[us] & (1u64 << from) == 0 || order.is_empty() {
        return None;
    }
    let mut cur = from as usize;
    let mut rem = size as u32;
    let mut free = !pos.occupied() & g.mask | 1u64 << from;
    let mut enemies = pos.stacks[1 - us];
    let mut captured = 0u64;
    for &t in order {
        let mut dist = None;
        reach_targets(g, cur, rem, free, enemies, |c, k| {
            if c == t as usize {
                dist = Some(k);
            }
        });
        let k = dist?;
        rem -= k;
        cur = t as usize;
        captured |= 1u64 << t;
        free |= 1u64 << t;
        enemies &= !(1u64 << t);
    }
    if rem > 0 && movegen::any_target(g, cur, rem, free, enemies) {
        return None;
    }
    match leftover {
        None => Some((captured, cur as u8)),
        Some(end) => {
            let dests = walk(g, cur, rem, free, pos.side, size % 2 == 1);
            (dests & (1u64 << end) != 0).then_some((captured, end))
        }
    }
}

/// An order of the captures of `mv` and its leftover end, found again from the position.
fn capture_order(g: &HexGeometry, pos: &Position, mv: &Move) -> Option<(Vec<u8>, Option<u8>)> {
    let mut order = Vec::new();
    // Prefer ending on the last capture, then a leftover move.
    for leftover in [None, Some(mv.to)] {
        if order_search(g, pos, mv, leftover, &mut order) {
            return Some((order, leftover));
        }
    }
    None
}

fn order_search(
    g: &HexGeometry,
    pos: &Position,
    mv: &Move,
    leftover: Option<u8>,
    order: &mut Vec<u8>,
) -> bool {
    let taken: u64 = order.iter().fold(0, |a, &c| a | 1u64 << c);
    if taken == mv.captured {
        return replay_capture(g, pos, mv.from, order, leftover)
            .is_some_and(|(set, end)| set == mv.captured && end == mv.to);
    }
    for c in cells(mv.captured & !taken) {
        order.push(c as u8);
        // Prune orders whose prefix is already impossible.
        if prefix_ok(g, pos, mv.from, order) && order_search(g, pos, mv, leftover, order) {
            return true;
        }
        order.pop();
    }
    false
}

fn prefix_ok(g: &HexGeometry, pos: &Position, from: u8, order: &[u8]) -> bool {
    let us = pos.side.index();
    let mut cur = from as usize;
    let mut rem = pos.sizes[from as usize] as u32;
    let mut free = !pos.occupied() & g.mask | 1u64 << from;
    let mut enemies = pos.stacks[1 - us];
    for &t in order {
        let mut dist = None;
        reach_targets(g, cur, rem, free, enemies, |c, k| {
            if c == t as usize {
                dist = Some(k);
            }
        });
        let Some(k) = dist else { return false };
        rem -= k;
        cur = t as usize;
        free |= 1u64 << t;
        enemies &= !(1u64 << t);
    }
    true
}

/// The turn as text.
pub fn move_text(g: &HexGeometry, pos: &Position, mv: &Move) -> String {
    match mv.kind {
        Kind::Pass => "pass".to_string(),
        Kind::Deploy => format!("@{}", cell_name(g, mv.to)),
        Kind::Step => format!("{}-{}", cell_name(g, mv.from), cell_name(g, mv.to)),
        Kind::Capture => {
            let (order, leftover) = capture_order(g, pos, mv)
                .unwrap_or_else(|| (cells(mv.captured).map(|c| c as u8).collect(), Some(mv.to)));
            let mut out = cell_name(g, mv.from);
            for c in order {
                out.push('x');
                out.push_str(&cell_name(g, c));
            }
            if let Some(end) = leftover {
                out.push('-');
                out.push_str(&cell_name(g, end));
            }
            out
        }
    }
}

/// Reads a turn (`@d2`, `d1-d3`, `d1xd4xe5`, `d1xd4-d6`, `pass`); it must be legal.
pub fn parse_move(g: &HexGeometry, pos: &Position, text: &str) -> Result<Move, MoveError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(MoveError::Malformed("empty move".into()));
    }
    if t.chars().count() > 200 {
        return Err(MoveError::Malformed(format!(
            "'{}' is too long",
            excerpt(t)
        )));
    }
    let mut legal = Vec::new();
    movegen::generate(g, pos, Duplicates::Drop, &mut legal);
    let bad = |e: String| MoveError::Malformed(format!("{e} in '{}'", excerpt(t)));
    let found = if t.eq_ignore_ascii_case("pass") {
        legal.iter().find(|m| m.kind == Kind::Pass).copied()
    } else if let Some(rest) = t.strip_prefix('@') {
        let c = parse_cell(g, rest).map_err(bad)?;
        legal
            .iter()
            .find(|m| m.kind == Kind::Deploy && m.to == c)
            .copied()
    } else if t.contains(['x', 'X']) {
        let (head, tail) = match t.split_once('-') {
            Some((h, l)) => (h, Some(l)),
            None => (t, None),
        };
        let mut parts = head.split(['x', 'X']);
        let from = parse_cell(g, parts.next().unwrap_or("")).map_err(bad)?;
        let mut order = Vec::new();
        for p in parts {
            order.push(parse_cell(g, p).map_err(bad)?);
        }
        let leftover = match tail {
            Some(l) => Some(parse_cell(g, l).map_err(bad)?),
            None => None,
        };
        replay_capture(g, pos, from, &order, leftover).and_then(|(set, end)| {
            legal
                .iter()
                .find(|m| {
                    m.kind == Kind::Capture && m.from == from && m.captured == set && m.to == end
                })
                .copied()
        })
    } else if let Some((a, b)) = t.split_once('-') {
        let from = parse_cell(g, a).map_err(bad)?;
        let to = parse_cell(g, b).map_err(bad)?;
        legal
            .iter()
            .find(|m| m.kind == Kind::Step && m.from == from && m.to == to)
            .copied()
    } else {
        return Err(MoveError::Malformed(format!(
            "'{}' is not a turn (write @d2, d1-d3, d1xd4, d1xd4xe5, d1xd4-d6 or pass)",
            excerpt(t)
        )));
    };
    found.ok_or_else(|| MoveError::Illegal(excerpt(t)))
}
