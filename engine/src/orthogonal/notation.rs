//! Notation of the orthogonal family: algebraic squares, the family's FEN, the `pos` string and
//! moves in Hub and Turkish (PDN) form.
//!
//! - **Squares** are algebraic, `a1`..`h8`, White's back rank being rank 1.
//! - **FEN**: `W:Wa2-h3:Ba6-h7` (the side to move, then each side's pieces). An item is a
//!   square (`d4`), a king (`Kd4`) or a rectangle given by two opposite corners (`a2-h3` is
//!   every square of files a-h on ranks 2-3; `Kc1-c4` four kings on the c-file). `[FEN "..."]`
//!   wrapping is accepted.
//! - **Position string** (Hub `pos=`): the side to move (`W` or `B`), then 64 characters for
//!   a8, b8, ..., h8, a7, ..., h1 (rank 8 first, as the board is drawn): `w`/`b` a white/black
//!   man, `W`/`B` a king, `e` (or `.`) an empty square.
//! - **Moves**: quiet `c3-c4` (line leaps and Dameo line moves too, `a1-a4`). Captures in Hub
//!   form `c3xe5xc4xd5` (from, to, then the captured squares in alphabetical order) for the
//!   protocol, and in Turkish form `c3xc5xe5` (from, then every landing square) with `--pdn`.
//!   [`parse_move`] accepts either, a capture given by its two ends only, and, for a flying
//!   king that goes on along the same line, any of the squares it could have landed on.
//!
//! Parsing goes through [`Setup`], an unchecked list of pieces; [`Position::from_setup`]
//! validates it and returns a [`SetupError`] that says exactly what is wrong.

use super::movegen::{self, capture_paths, CapturePath};
use super::position::{Move, Position};
use super::rules::Rules;
use super::setup::{Setup, SetupError};
use crate::game::{Duplicates, MoveError, MoveStyle, Side};
use crate::text::excerpt;

/// The algebraic name of bit index `sq` (`0` -> `a1`).
pub fn square_name(sq: u8) -> String {
    let file = (b'a' + (sq & 7)) as char;
    let rank = (b'1' + (sq >> 3)) as char;
    format!("{file}{rank}")
}

/// The bit index of an algebraic square name (`c3`, case-insensitive), if it is one.
pub fn parse_square(text: &str) -> Option<u8> {
    let b = text.trim().as_bytes();
    if b.len() != 2 {
        return None;
    }
    let file = b[0].to_ascii_lowercase();
    let rank = b[1];
    if !(b'a'..=b'h').contains(&file) || !(b'1'..=b'8').contains(&rank) {
        return None;
    }
    Some((rank - b'1') * 8 + (file - b'a'))
}

fn parse_side(text: &str) -> Result<Side, SetupError> {
    match text.trim() {
        "W" | "w" => Ok(Side::White),
        "B" | "b" => Ok(Side::Black),
        other => Err(SetupError::BadSide(other.to_string())),
    }
}

/// Reads the family's FEN (`W:Wa2-h3:Ba6-h7`, `B:WKd4:Bc6,e6`).
pub fn parse_fen(text: &str) -> Result<Setup, SetupError> {
    let mut body = text.trim();
    if let Some(inner) = body.strip_prefix("[FEN") {
        body = inner.trim().trim_end_matches(']').trim();
    }
    let body = body.trim().trim_matches('"').trim();
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
            None => continue,
            Some(_) => {
                return Err(SetupError::BadToken(format!(
                    "FEN section '{section}' must start with W or B"
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
            let (a, b) = rest.split_once('-').unwrap_or((rest, rest));
            let bad = || {
                SetupError::BadToken(format!(
                    "FEN item '{}' is not a square (a1..h8), K+square or a range like a2-h3",
                    excerpt(item)
                ))
            };
            let a = parse_square(a).ok_or_else(bad)?;
            let b = parse_square(b).ok_or_else(bad)?;
            let (f0, f1) = ((a & 7).min(b & 7), (a & 7).max(b & 7));
            let (r0, r1) = ((a >> 3).min(b >> 3), (a >> 3).max(b >> 3));
            for r in r0..=r1 {
                for f in f0..=f1 {
                    setup.pieces.push((r * 8 + f, owner, king));
                }
            }
        }
    }
    if !seen_colour {
        return Err(SetupError::BadToken(format!(
            "FEN '{}' has no piece list (expected e.g. W:Wa2-h3:Ba6-h7)",
            excerpt(body)
        )));
    }
    Ok(setup)
}

/// Reads a position string: `W` or `B`, then 64 of `w b W B e .` for a8..h8, a7..h1.
pub fn parse_pos_string(text: &str) -> Result<Setup, SetupError> {
    let text = text.trim();
    let count = text.chars().count();
    if count != 65 {
        return Err(SetupError::BadLength { got: count });
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
            // i = 0 is a8; rank 8 first, files a..h.
            let rank = 7 - (i / 8) as u8;
            let file = (i % 8) as u8;
            setup.pieces.push((rank * 8 + file, owner, king));
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
pub fn start<R: Rules>() -> Position {
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
fn read_start<R: Rules>() -> Result<Position, SetupError> {
    parse_fen(R::INFO.start_fen)?.position::<R>()
}

/// Reads a position in any accepted form: `start`, a position string or a FEN.
pub fn parse_any<R: Rules>(text: &str) -> Result<Position, SetupError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(SetupError::Empty);
    }
    if t == "start" {
        return read_start::<R>();
    }
    let setup = if t.contains(':') {
        parse_fen(t)?
    } else {
        parse_pos_string(t)?
    };
    setup.position::<R>()
}

fn side_letter(side: Side) -> char {
    match side {
        Side::White => 'W',
        Side::Black => 'B',
    }
}

/// The position as the family's FEN, with rectangles where pieces of one kind fill them.
pub fn fen(pos: &Position) -> String {
    let mut out = String::new();
    out.push(side_letter(pos.side));
    for owner in [Side::White, Side::Black] {
        out.push(':');
        out.push(side_letter(owner));
        let own = pos.pieces[owner.index()];
        // Runs along each rank, then runs of equal spans stacked on consecutive ranks.
        // (rank0, rank1, file0, file1, king)
        let mut rects: Vec<(u8, u8, u8, u8, bool)> = Vec::new();
        for rank in 0..8u8 {
            let mut file = 0u8;
            while file < 8 {
                let sq = rank * 8 + file;
                if own & (1u64 << sq) == 0 {
                    file += 1;
                    continue;
                }
                let king = pos.kings & (1u64 << sq) != 0;
                let mut end = file;
                while end + 1 < 8 {
                    let next = 1u64 << (rank * 8 + end + 1);
                    if own & next == 0 || (pos.kings & next != 0) != king {
                        break;
                    }
                    end += 1;
                }
                match rects
                    .iter_mut()
                    .find(|r| r.1 + 1 == rank && r.2 == file && r.3 == end && r.4 == king)
                {
                    Some(r) => r.1 = rank,
                    None => rects.push((rank, rank, file, end, king)),
                }
                file = end + 1;
            }
        }
        let items: Vec<String> = rects
            .iter()
            .map(|&(r0, r1, f0, f1, king)| {
                let prefix = if king { "K" } else { "" };
                let a = square_name(r0 * 8 + f0);
                if r0 == r1 && f0 == f1 {
                    format!("{prefix}{a}")
                } else {
                    format!("{prefix}{a}-{}", square_name(r1 * 8 + f1))
                }
            })
            .collect();
        out.push_str(&items.join(","));
    }
    out
}

/// The position as a position string (`pos=` of the Hub protocol).
pub fn pos_string(pos: &Position) -> String {
    let mut out = String::with_capacity(65);
    out.push(side_letter(pos.side));
    for rank in (0..8u8).rev() {
        for file in 0..8u8 {
            let bit = 1u64 << (rank * 8 + file);
            let king = pos.kings & bit != 0;
            out.push(
                match (pos.pieces[0] & bit != 0, pos.pieces[1] & bit != 0, king) {
                    (true, _, false) => 'w',
                    (true, _, true) => 'W',
                    (_, true, false) => 'b',
                    (_, true, true) => 'B',
                    _ => 'e',
                },
            );
        }
    }
    out
}

fn bits(mut b: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let low = b.trailing_zeros() as u8;
            b &= b - 1;
            Some(low)
        }
    })
}

/// The captured squares of `mv` in alphabetical order (file, then rank).
fn captured_sorted(mv: &Move) -> Vec<u8> {
    let mut caps: Vec<u8> = bits(mv.captured).collect();
    caps.sort_by_key(|&s| ((s & 7), (s >> 3)));
    caps
}

fn same_move(a: &Move, b: &Move) -> bool {
    a.from == b.from && a.to == b.to && a.captured == b.captured
}

/// The squares of a move's Hub text: from, to, then the captured squares.
fn hub_squares(mv: &Move) -> Vec<u8> {
    let mut out = vec![mv.from, mv.to];
    if mv.captured != 0 {
        out.extend(captured_sorted(mv));
    }
    out
}

/// The squares of a move's Turkish text: from, then every landing square.
fn pdn_squares(mv: &Move, paths: &[CapturePath]) -> Vec<u8> {
    if mv.captured == 0 {
        return vec![mv.from, mv.to];
    }
    paths.iter().find(|(m, _)| same_move(m, mv)).map_or_else(
        || vec![mv.from, mv.to],
        |(_, p)| p.iter().map(|s| s.sq).collect(),
    )
}

fn join(squares: &[u8], sep: &str) -> String {
    squares
        .iter()
        .map(|&s| square_name(s))
        .collect::<Vec<_>>()
        .join(sep)
}

/// The move as text: Hub form (`c3xe5xc4xd5`) or Turkish form (`c3xc5xe5`); quiet moves are
/// `c3-c4` in both.
pub fn move_text<R: Rules>(pos: &Position, mv: &Move, style: MoveStyle) -> String {
    if mv.captured == 0 {
        return join(&[mv.from, mv.to], "-");
    }
    match style {
        MoveStyle::Hub => join(&hub_squares(mv), "x"),
        MoveStyle::Pdn => join(&pdn_squares(mv, &capture_paths::<R>(pos)), "x"),
    }
}

/// Whether the squares `given` describe the capture path `path`: equal squares, except that
/// where the king goes on along the line of a jump, any square of that jump's landing run
/// will do.
fn path_matches(given: &[u8], path: &[super::movegen::PathStep]) -> bool {
    if given.len() != path.len() {
        return false;
    }
    let last = path.len() - 1;
    (0..path.len()).all(|i| {
        if given[i] == path[i].sq {
            return true;
        }
        if i == 0 || i == last {
            return false;
        }
        let (d, next) = (path[i].dir, path[i + 1].dir);
        let collinear = d == next || (d + 4) % 8 == next;
        collinear && path[i].run & (1u64 << given[i]) != 0
    })
}

/// Reads a move leniently: Hub form, Turkish form, `-`, `x` or `:` separators, or a capture
/// given by its start and end alone. Exactly one legal move must match.
pub fn parse_move<R: Rules>(pos: &Position, text: &str) -> Result<Move, MoveError> {
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
    if tokens.len() > 40 {
        return Err(MoveError::Malformed(format!(
            "'{}' names too many squares",
            excerpt(t)
        )));
    }
    let mut squares = Vec::with_capacity(tokens.len());
    for tok in &tokens {
        let sq = parse_square(tok).ok_or_else(|| {
            MoveError::Malformed(format!(
                "'{}' is not a square (a1..h8) in '{}'",
                excerpt(tok),
                excerpt(t)
            ))
        })?;
        squares.push(sq);
    }
    let mut legal = Vec::new();
    if !movegen::one_piece_draw::<R>(pos) {
        movegen::generate::<R>(pos, Duplicates::Drop, &mut legal);
    }
    let paths = if legal.iter().any(Move::is_capture) {
        capture_paths::<R>(pos)
    } else {
        Vec::new()
    };
    // The engine's own texts first: every printed move reads back as itself.
    let exact: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| hub_squares(m) == squares || pdn_squares(m, &paths) == squares)
        .collect();
    if exact.len() == 1 {
        return Ok(exact[0]);
    }
    let rest: u64 = squares[2..].iter().fold(0, |a, &s| a | (1u64 << s));
    let matches: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            if m.from != squares[0] {
                return false;
            }
            if squares.len() == 2 {
                return m.to == squares[1];
            }
            if m.captured == 0 {
                return false;
            }
            let hub = m.to == squares[1]
                && rest == m.captured
                && squares.len() - 2 == m.captured.count_ones() as usize;
            hub || paths
                .iter()
                .any(|(pm, p)| same_move(pm, m) && path_matches(&squares, p))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orthogonal::rules::{Dameo, Harzdame, Turkish};

    #[test]
    fn squares_round_trip() {
        for sq in 0..64u8 {
            assert_eq!(parse_square(&square_name(sq)), Some(sq));
        }
        assert_eq!(square_name(0), "a1");
        assert_eq!(square_name(63), "h8");
        assert_eq!(parse_square("i1"), None);
        assert_eq!(parse_square("a9"), None);
        assert_eq!(parse_square("a10"), None);
    }

    #[test]
    fn start_fens_print_as_given() {
        let t = parse_any::<Turkish>("start").unwrap();
        assert_eq!(fen(&t), "W:Wa2-h3:Ba6-h7");
        let d = parse_any::<Dameo>("start").unwrap();
        assert_eq!(fen(&d), "W:Wa1-h1,b2-g2,c3-f3:Bc6-f6,b7-g7,a8-h8");
        let h = parse_any::<Harzdame>("start").unwrap();
        assert_eq!(h.pieces[0].count_ones(), 21);
        assert_eq!(parse_any::<Harzdame>(&fen(&h)).unwrap(), h);
    }

    #[test]
    fn pos_string_of_the_turkish_start() {
        let t = parse_any::<Turkish>("start").unwrap();
        let s = pos_string(&t);
        assert_eq!(
            s,
            format!(
                "W{}{}{}{}",
                "e".repeat(8),
                "b".repeat(16),
                "e".repeat(16),
                "w".repeat(16)
            ) + &"e".repeat(8)
        );
        assert_eq!(parse_any::<Turkish>(&s).unwrap(), t);
    }

    #[test]
    fn bad_positions_give_typed_errors() {
        assert_eq!(parse_any::<Turkish>(""), Err(SetupError::Empty));
        assert_eq!(
            parse_any::<Turkish>("X:Wa1:Bh8"),
            Err(SetupError::BadSide("X".into()))
        );
        assert_eq!(
            parse_any::<Turkish>("Wwb"),
            Err(SetupError::BadLength { got: 3 })
        );
        assert!(matches!(
            parse_any::<Turkish>("W:Wa1,a1:Bh8"),
            Err(SetupError::SquareTwice(_))
        ));
        assert!(matches!(
            parse_any::<Turkish>("W:Wa8:Bh1"),
            Err(SetupError::ManInPromotionZone { .. })
        ));
        assert!(matches!(
            parse_any::<Turkish>("W:Wa1-h3:Bh8"),
            Err(SetupError::TooManyPieces { .. })
        ));
        assert!(matches!(
            parse_any::<Turkish>("W:Wz9:Bh8"),
            Err(SetupError::BadToken(_))
        ));
        let mut s = String::from("W");
        s.push_str(&"e".repeat(63));
        s.push('x');
        assert_eq!(
            parse_any::<Turkish>(&s),
            Err(SetupError::BadPieceChar { ch: 'x', index: 64 })
        );
    }
}
