//! Square numbering as a Hub client speaks it, translated to and from the rule cards' numbering
//! that the engine library uses.
//!
//! Numbering is a convention, not a rule: the same physical square has different numbers in
//! different traditions. The engine's library numbers every variant as its rule card says
//! (8x8: square 1 is b8, White on 21-32, except Italian a8 and Spanish h1). `pydraughts`, the
//! main Hub client for the 8x8 games, numbers some of them differently, and its `pos=` string
//! is not in the same numbering as its moves. With [`Numbering::Pydraughts`] (the default of
//! the Hub session) the session translates at the protocol boundary, by the scheme of the
//! variant's registry row (`VariantEntry::pydraughts`, a [`PydraughtsNumbering`]):
//!
//! | scheme (variants) | `pos=` string (pydraughts' internal board) | moves, `fen=` (pydraughts' own numbering) |
//! |---|---|---|
//! | `Card` (`international` = pydraughts `standard`, `italian`, all others) | as the card | as the card |
//! | `RankFlip` (`russian`, `brazilian`) | as the card (char i = card square i) | own square v = card square `4*(7-r)+k+1`, where card square `n = 4r+k+1` (rank flip: 1 = a1, 4 = g1, 29 = b8, 32 = h8) |
//! | `Turned` (`english`) | char i = card square `33-i`, colours swapped, side letter swapped (`W` = Black to move) | as the card |
//!
//! With [`Numbering::Card`] everything is passed through unchanged.
//!
//! [`PydraughtsNumbering`]: polydam_engine::variants::PydraughtsNumbering

use std::fmt;

use polydam_engine::variants::{lookup, PydraughtsNumbering as Scheme};

/// Which numbering the Hub client uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Numbering {
    /// pydraughts 0.6.x conventions (see the module documentation).
    #[default]
    Pydraughts,
    /// The rule cards' numbering, exactly as the rest of Polydam prints it.
    Card,
}

impl Numbering {
    /// Every value, in the order the `numbering` parameter lists them.
    pub const ALL: [Numbering; 2] = [Numbering::Pydraughts, Numbering::Card];

    /// The parameter value naming this numbering.
    pub fn name(self) -> &'static str {
        match self {
            Numbering::Pydraughts => "pydraughts",
            Numbering::Card => "card",
        }
    }

    /// The numbering called `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Numbering> {
        let wanted = name.trim().to_ascii_lowercase();
        Numbering::ALL.into_iter().find(|n| n.name() == wanted)
    }
}

impl fmt::Display for Numbering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Translates squares, moves and positions between a client's numbering and the card's, for
/// one variant.
///
/// ```
/// use polydam_protocol::numbering::{Numbering, Translator};
/// let t = Translator::new("russian", Numbering::Pydraughts);
/// assert_eq!(t.move_in("10-14"), "22-18"); // c3-d4
/// assert_eq!(t.move_out("22-18"), "10-14");
/// assert_eq!(t.move_in("c3-d4"), "c3-d4"); // algebraic squares need no translation
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Translator {
    scheme: Scheme,
}

/// Number of playing squares of the 8x8 diagonal board.
const SQUARES_8X8: usize = 32;

/// The rank flip of the 8x8 numbering: card square `4r+k+1` <-> `4(7-r)+k+1`. An involution;
/// numbers off the board are returned unchanged (the engine reports them).
fn rank_flip(n: usize) -> usize {
    if n == 0 || n > SQUARES_8X8 {
        return n;
    }
    let (r, k) = ((n - 1) / 4, (n - 1) % 4);
    4 * (7 - r) + k + 1
}

/// The piece letter with its colour swapped.
fn swap_colour(c: char) -> char {
    match c {
        'w' => 'b',
        'b' => 'w',
        'W' => 'B',
        'B' => 'W',
        other => other,
    }
}

impl Translator {
    /// The translator for `variant` (a registry name or alias) under `numbering`: the scheme of
    /// the variant's registry row, or none (pass-through) for an unknown name.
    pub fn new(variant: &str, numbering: Numbering) -> Translator {
        let scheme = match numbering {
            Numbering::Card => Scheme::Card,
            Numbering::Pydraughts => lookup(variant).map_or(Scheme::Card, |v| v.pydraughts),
        };
        Translator { scheme }
    }

    /// Whether nothing is translated.
    pub fn is_identity(&self) -> bool {
        self.scheme == Scheme::Card
    }

    /// A square number of a move or FEN from the client, in card numbering.
    pub fn square_in(&self, n: usize) -> usize {
        match self.scheme {
            Scheme::RankFlip => rank_flip(n),
            Scheme::Card | Scheme::Turned => n,
        }
    }

    /// A card square number as the client writes it in moves.
    pub fn square_out(&self, n: usize) -> usize {
        // Every scheme's square map is an involution.
        self.square_in(n)
    }

    /// Rewrites every all-digit square token of `text` (separated by `-`, `x`, `X`, `:` or
    /// `,`) with `map`, keeping everything else (algebraic squares, separators, `K`) as is.
    fn map_numbers(text: &str, map: impl Fn(usize) -> usize) -> String {
        let mut out = String::with_capacity(text.len() + 4);
        let mut token = String::new();
        let flush = |token: &mut String, out: &mut String| {
            let mapped = if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
                token.parse::<usize>().ok().map(&map)
            } else {
                None
            };
            match mapped {
                Some(n) => out.push_str(&n.to_string()),
                None => out.push_str(token),
            }
            token.clear();
        };
        for c in text.chars() {
            if matches!(c, '-' | 'x' | 'X' | ':' | ',') || c.is_whitespace() {
                flush(&mut token, &mut out);
                out.push(c);
            } else {
                token.push(c);
            }
        }
        flush(&mut token, &mut out);
        out
    }

    /// A move from the client, rewritten in card numbering (still to be parsed leniently by
    /// the engine).
    pub fn move_in(&self, text: &str) -> String {
        match self.scheme {
            Scheme::RankFlip => Self::map_numbers(text, rank_flip),
            Scheme::Card | Scheme::Turned => text.to_owned(),
        }
    }

    /// A move in card numbering (Hub form), rewritten for the client.
    pub fn move_out(&self, text: &str) -> String {
        match self.scheme {
            Scheme::RankFlip => {
                // Hub form lists the captured squares in ascending order: keep them so in the
                // client's numbering.
                let mapped = Self::map_numbers(text, rank_flip);
                let parts: Vec<&str> = mapped.split('x').collect();
                if parts.len() > 2 {
                    let mut captured: Vec<&str> = parts[2..].to_vec();
                    captured.sort_by_key(|s| s.parse::<usize>().unwrap_or(usize::MAX));
                    let mut all = vec![parts[0], parts[1]];
                    all.extend(captured);
                    all.join("x")
                } else {
                    mapped
                }
            }
            Scheme::Card | Scheme::Turned => text.to_owned(),
        }
    }

    /// A `pos=` string from the client as a card Hub string. Errors name the client's own
    /// character positions.
    pub fn position_in(&self, text: &str) -> Result<String, String> {
        match self.scheme {
            Scheme::Card | Scheme::RankFlip => Ok(text.to_owned()),
            Scheme::Turned => {
                let text = text.trim();
                let count = text.chars().count();
                if count != SQUARES_8X8 + 1 {
                    // Let the engine word the length error.
                    return Ok(text.to_owned());
                }
                let mut chars = text.chars();
                let side = match chars.next() {
                    Some('W' | 'w') => 'B',
                    Some('B' | 'b') => 'W',
                    Some(other) => {
                        return Err(format!(
                            "side to move must be W or B, not '{other}' (pydraughts numbering: \
                             W = the side on 21-32, Black in English)"
                        ))
                    }
                    None => return Ok(String::new()),
                };
                let mut body: Vec<char> = Vec::with_capacity(SQUARES_8X8);
                for (i, c) in chars.enumerate() {
                    if !matches!(c, 'w' | 'b' | 'W' | 'B' | 'e' | '.') {
                        return Err(format!(
                            "character '{c}' at position {} is not a piece code (w, b, W, B or e)",
                            i + 1
                        ));
                    }
                    body.push(swap_colour(c));
                }
                body.reverse();
                let mut out = String::with_capacity(SQUARES_8X8 + 1);
                out.push(side);
                out.extend(body);
                Ok(out)
            }
        }
    }

    /// A PDN FEN from the client (in its own numbering, real colours) in card numbering.
    /// Ranges are expanded where the numbering does not keep them contiguous.
    pub fn fen_in(&self, text: &str) -> String {
        match self.scheme {
            Scheme::Card | Scheme::Turned => text.to_owned(),
            Scheme::RankFlip => {
                // Sections: side, then W..., B... (others, e.g. H0, F1, kept).
                let mut sections = Vec::new();
                for (i, section) in text.split(':').enumerate() {
                    let trimmed = section.trim();
                    let colour = trimmed.chars().next().filter(|c| "WBwb".contains(*c));
                    match colour {
                        Some(c) if i > 0 => {
                            let list = &trimmed[c.len_utf8()..];
                            let items: Vec<String> = list
                                .split(',')
                                .flat_map(|item| Self::fen_item_in(item.trim()))
                                .collect();
                            sections.push(format!("{c}{}", items.join(",")));
                        }
                        _ => sections.push(section.to_owned()),
                    }
                }
                sections.join(":")
            }
        }
    }

    /// One FEN item (`12`, `K12`, `1-12`, `K1-3`, `a1`) in card numbering; ranges of numbers
    /// on the board become single squares.
    fn fen_item_in(item: &str) -> Vec<String> {
        let (king, rest) = match item.strip_prefix(['K', 'k']) {
            Some(rest) => ("K", rest),
            None => ("", item),
        };
        if let Some((a, b)) = rest.split_once('-') {
            if let (Ok(lo), Ok(hi)) = (a.trim().parse::<usize>(), b.trim().parse::<usize>()) {
                if lo >= 1 && lo <= hi && hi <= SQUARES_8X8 {
                    return (lo..=hi)
                        .map(|n| format!("{king}{}", rank_flip(n)))
                        .collect();
                }
            }
            // Leave malformed or off-board ranges for the engine to report.
            return vec![item.to_owned()];
        }
        vec![format!("{king}{}", Self::map_numbers(rest, rank_flip))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_flip_is_an_involution_and_matches_pydraughts() {
        for n in 0..=40 {
            assert_eq!(rank_flip(rank_flip(n)), n);
        }
        // pydraughts: pos char i <-> own square i + 28 - 8*((i-1)/4).
        for i in 1..=32 {
            assert_eq!(rank_flip(i), i + 28 - 8 * ((i - 1) / 4));
        }
        assert_eq!(rank_flip(1), 29); // b8
        assert_eq!(rank_flip(29), 1); // a1
        assert_eq!(rank_flip(22), 10); // c3
        assert_eq!(rank_flip(18), 14); // d4
    }

    #[test]
    fn moves_both_ways() {
        let t = Translator::new("russian", Numbering::Pydraughts);
        assert_eq!(t.move_in("10-14"), "22-18");
        assert_eq!(t.move_in("c3:e5"), "c3:e5");
        assert_eq!(t.move_in("9x18x14"), "21x14x18");
        // Captured squares come out in ascending client order.
        assert_eq!(t.move_out("21x14x17"), "9x18x13");
        assert_eq!(t.move_out("31x15x18x26"), "3x19x6x14");
        assert_eq!(t.move_out("22-18"), "10-14");
        let b = Translator::new("brazilian", Numbering::Pydraughts);
        assert_eq!(b.move_in("10-14"), "22-18");
        for v in ["international", "italian", "english", "pool", "turkish"] {
            let t = Translator::new(v, Numbering::Pydraughts);
            assert_eq!(t.move_in("11-15"), "11-15");
            assert_eq!(t.move_out("28x19x23"), "28x19x23");
        }
        let card = Translator::new("russian", Numbering::Card);
        assert!(card.is_identity());
        assert_eq!(card.move_in("10-14"), "10-14");
    }

    #[test]
    fn schemes_are_the_registry_rows() {
        // pydraughts numbers Russian and Brazilian from a1 and turns the English board; every
        // other variant is as the card.
        for v in polydam_engine::variants::VARIANTS {
            let expected = match v.name {
                "russian" | "brazilian" => Scheme::RankFlip,
                "english" => Scheme::Turned,
                _ => Scheme::Card,
            };
            for name in std::iter::once(&v.name).chain(v.aliases) {
                let t = Translator::new(name, Numbering::Pydraughts);
                assert_eq!(t.scheme, expected, "{name}");
                assert!(Translator::new(name, Numbering::Card).is_identity());
            }
        }
        assert!(Translator::new("frisian", Numbering::Pydraughts).is_identity());
    }

    #[test]
    fn english_position_is_turned_with_colours_swapped() {
        let t = Translator::new("english", Numbering::Pydraughts);
        // The start as pydraughts sends it is the card start, Black to move.
        assert_eq!(
            t.position_in("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww")
                .as_deref(),
            Ok("Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww")
        );
        // After 11-15 (a Black man, card squares): White to move, pydraughts side letter B.
        let card = format!(
            "W{}e{}ee{}eeeee{}",
            "b".repeat(10),
            "b",
            "b",
            "w".repeat(12)
        );
        let client = format!("B{}eeeeeweewe{}", "b".repeat(12), "w".repeat(10));
        assert_eq!(t.position_in(&client).as_deref(), Ok(card.as_str()));
        assert!(t
            .position_in("Wxbbbbbbbbbbbeeeeeeeewwwwwwwwwwww")
            .is_err_and(|e| e.contains("'x' at position 1")));
        assert_eq!(t.position_in("W").as_deref(), Ok("W"));
    }

    #[test]
    fn fen_ranges_are_expanded() {
        let t = Translator::new("russian", Numbering::Pydraughts);
        assert_eq!(t.fen_in("W:W1-3,K12:B29,a7"), "W:W29,30,31,K24:B1,a7");
        assert_eq!(t.fen_in("B:WK1-2:B"), "B:WK29,K30:B");
        assert_eq!(t.fen_in("W:W31-40:B1"), "W:W31-40:B29");
        let e = Translator::new("english", Numbering::Pydraughts);
        assert_eq!(e.fen_in("B:W21-32:B1-12"), "B:W21-32:B1-12");
    }

    #[test]
    fn names() {
        assert_eq!(Numbering::from_name("Card"), Some(Numbering::Card));
        assert_eq!(
            Numbering::from_name("pydraughts"),
            Some(Numbering::Pydraughts)
        );
        assert_eq!(Numbering::from_name("scan"), None);
        assert_eq!(Numbering::default().to_string(), "pydraughts");
    }
}
