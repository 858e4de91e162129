//! DXP positions and moves as a variant's own: the bridge between the wire's squares 1-50 and
//! a [`Game`]'s positions and moves, for the 10x10 variants numbered as International.
//!
//! Positions go through the variant's Hub string (the same one letter per square, `W`/`B` for
//! the side to move where DXP writes `W`/`Z`), so the variant's own validation applies: a
//! GAMEREQ position that the variant would not accept is a `IllegalPosition` error that says why.
//! A received move is matched against the legal moves of the position by its from square, its
//! to square and its set of captured squares (in any order), which is what DXP promises to
//! identify a move, ambiguous captures included.
//!
//! ```
//! use polydam_engine::diagonal::{rules::International, Diagonal};
//! use polydam_engine::game::Game;
//! use polydam_protocol::dxp::{game, message::DxpMove};
//! type Intl = Diagonal<International>;
//! let start = Intl::start();
//! let mv = DxpMove { seconds: 0, from: 32, to: 28, captured: vec![] };
//! let legal = game::move_from_dxp::<Intl>(&start, &mv).unwrap();
//! assert_eq!(game::move_to_dxp::<Intl>(&start, &legal, 3).unwrap().to, 28);
//! let bad = DxpMove { from: 32, to: 26, ..mv };
//! assert!(game::move_from_dxp::<Intl>(&start, &bad).is_err());
//! ```

use std::fmt;

use polydam_engine::game::{Duplicates, Game, MoveStyle, Side};

use super::message::{Colour, DxpMove, DxpPosition, Piece, SQUARES};

/// The colour of a side.
pub fn colour(side: Side) -> Colour {
    match side {
        Side::White => Colour::White,
        Side::Black => Colour::Black,
    }
}

/// The side of a colour.
pub fn side(colour: Colour) -> Side {
    match colour {
        Colour::White => Side::White,
        Colour::Black => Side::Black,
    }
}

/// Why a position or a move of the wire is not one of the game's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The variant is not played on 50 squares numbered as International.
    UnsupportedVariant {
        /// The variant's name.
        variant: &'static str,
    },
    /// A GAMEREQ position the variant does not accept: the family's message.
    IllegalPosition(String),
    /// A MOVE that is no legal move of the position.
    IllegalMove {
        /// The move as received (`32-27`, `05x25 (captures 22, 12)`).
        mv: String,
        /// The legal moves (Hub form), at most the first ten.
        legal: Vec<String>,
        /// How many legal moves there are.
        count: usize,
    },
    /// A move of the game that DXP cannot write (a square outside 1-50).
    UnwritableMove(String),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::UnsupportedVariant { variant } => write!(
                f,
                "{variant} is not played on the 50 squares DXP numbers (10x10 variants only)"
            ),
            GameError::IllegalPosition(e) => write!(f, "illegal position: {e}"),
            GameError::IllegalMove { mv, legal, count } => {
                write!(f, "illegal move {mv}: ")?;
                if *count == 0 {
                    return write!(f, "there is no legal move in this position");
                }
                let more = if *count > legal.len() { ", ..." } else { "" };
                write!(
                    f,
                    "not one of the {count} legal moves ({}{more})",
                    legal.join(", ")
                )
            }
            GameError::UnwritableMove(text) => {
                write!(f, "move {text} cannot be written in DXP (squares 1-50)")
            }
        }
    }
}

impl std::error::Error for GameError {}

/// Checks that `G` is played on the 50 squares of the 10x10 board, numbered as DXP numbers
/// them (White's men on the high numbers).
pub fn check_variant<G: Game>() -> Result<(), GameError> {
    check_start(&G::hub_position(&G::start()), G::NAME)
}

/// [`check_variant`] for the variant `variant` whose start position is `hub` (not generic in
/// the game).
fn check_start(hub: &str, variant: &'static str) -> Result<(), GameError> {
    let chars: Vec<char> = hub.chars().collect();
    let unsupported = GameError::UnsupportedVariant { variant };
    if chars.len() != SQUARES + 1 || !matches!(chars[0], 'W' | 'B') {
        return Err(unsupported);
    }
    if !chars[1..]
        .iter()
        .all(|c| matches!(c, 'w' | 'b' | 'W' | 'B' | 'e'))
    {
        return Err(unsupported);
    }
    // White's men start on the high-numbered squares, Black's on the low ones, as in DXP.
    let first_white = chars[1..].iter().position(|&c| c == 'w');
    let last_black = chars[1..].iter().rposition(|&c| c == 'b');
    match (first_white, last_black) {
        (Some(w), Some(b)) if b < w => Ok(()),
        _ => Err(unsupported),
    }
}

/// The position as DXP writes it. `G` must pass [`check_variant`].
pub fn position_to_dxp<G: Game>(pos: &G::Position) -> Result<DxpPosition, GameError> {
    let hub = G::hub_position(pos);
    let mut chars = hub.chars();
    let to_move = colour(G::side_to_move(pos));
    chars.next();
    let mut squares = [Piece::Empty; SQUARES];
    let mut count = 0;
    for (sq, c) in squares.iter_mut().zip(chars) {
        *sq = match c {
            'w' => Piece::WhiteMan,
            'b' => Piece::BlackMan,
            'W' => Piece::WhiteKing,
            'B' => Piece::BlackKing,
            _ => Piece::Empty,
        };
        count += 1;
    }
    if count != SQUARES {
        return Err(GameError::UnsupportedVariant { variant: G::NAME });
    }
    Ok(DxpPosition { to_move, squares })
}

/// The variant's position for a GAMEREQ position, validated by the variant.
pub fn position_from_dxp<G: Game>(pos: &DxpPosition) -> Result<G::Position, GameError> {
    let mut hub = String::with_capacity(SQUARES + 1);
    hub.push(match pos.to_move {
        Colour::White => 'W',
        Colour::Black => 'B',
    });
    hub.extend(pos.squares.iter().map(|p| match p {
        Piece::Empty => 'e',
        Piece::WhiteMan => 'w',
        Piece::BlackMan => 'b',
        Piece::WhiteKing => 'W',
        Piece::BlackKing => 'B',
    }));
    G::parse_position(&hub).map_err(|e| GameError::IllegalPosition(e.to_string()))
}

/// A move's from square, to square and captured squares (ascending), read from its Hub text.
fn squares_of<G: Game>(pos: &G::Position, mv: &G::Move) -> Result<(u8, u8, Vec<u8>), GameError> {
    hub_squares(G::move_text(pos, mv, MoveStyle::Hub))
}

/// [`squares_of`] from the move's Hub `text` (not generic in the game).
fn hub_squares(text: String) -> Result<(u8, u8, Vec<u8>), GameError> {
    let bad = || GameError::UnwritableMove(text.clone());
    let numbers = text
        .split(['-', 'x'])
        .map(|s| {
            s.parse::<u8>()
                .ok()
                .filter(|n| (1..=SQUARES as u8).contains(n))
        })
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(bad)?;
    match numbers.as_slice() {
        [from, to, caps @ ..] => {
            let mut caps = caps.to_vec();
            caps.sort_unstable();
            Ok((*from, *to, caps))
        }
        _ => Err(bad()),
    }
}

/// The MOVE message of a move of `pos`, saying it took `seconds`.
pub fn move_to_dxp<G: Game>(
    pos: &G::Position,
    mv: &G::Move,
    seconds: u16,
) -> Result<DxpMove, GameError> {
    let (from, to, captured) = squares_of::<G>(pos, mv)?;
    Ok(DxpMove {
        seconds,
        from,
        to,
        captured,
    })
}

/// The legal move of `pos` that a MOVE message describes: the same from and to squares and
/// the same captured squares, in any order.
pub fn move_from_dxp<G: Game>(pos: &G::Position, mv: &DxpMove) -> Result<G::Move, GameError> {
    let mut legal = Vec::new();
    if G::decided(pos).is_none() {
        G::generate(pos, Duplicates::Drop, &mut legal);
    }
    let mut wanted = mv.captured.clone();
    wanted.sort_unstable();
    for m in &legal {
        if let Ok((from, to, caps)) = squares_of::<G>(pos, m) {
            if from == mv.from && to == mv.to && caps == wanted {
                return Ok(*m);
            }
        }
    }
    let mut texts = Vec::with_capacity(legal.len());
    for m in &legal {
        texts.push(G::move_text(pos, m, MoveStyle::Hub));
    }
    Err(illegal_move(mv, texts))
}

/// The error for `mv`, no move of a position whose legal moves are `texts` (Hub style).
fn illegal_move(mv: &DxpMove, mut texts: Vec<String>) -> GameError {
    texts.sort();
    let count = texts.len();
    texts.truncate(10);
    GameError::IllegalMove {
        mv: mv.to_string(),
        legal: texts,
        count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxp::message::{GameReq, Message};
    use polydam_engine::diagonal::{rules::International, Diagonal};
    use polydam_engine::record::GameRecord;

    type Intl = Diagonal<International>;

    #[test]
    fn international_is_supported_and_8x8_is_not() {
        assert_eq!(check_variant::<Intl>(), Ok(()));
        type Russian = Diagonal<polydam_engine::diagonal::rules::Russian>;
        assert!(matches!(
            check_variant::<Russian>(),
            Err(GameError::UnsupportedVariant { variant: "russian" })
        ));
    }

    #[test]
    fn the_start_position_reads_and_writes_as_dxp() {
        let start = Intl::start();
        let dxp = position_to_dxp::<Intl>(&start).unwrap();
        assert_eq!(dxp.to_move, Colour::White);
        assert_eq!(dxp.squares[0], Piece::BlackMan);
        assert_eq!(dxp.squares[49], Piece::WhiteMan);
        assert_eq!(dxp.squares[25], Piece::Empty);
        assert_eq!(position_from_dxp::<Intl>(&dxp), Ok(start));
        let text = Message::GameReq(GameReq {
            version: 1,
            initiator: "x".into(),
            follower_colour: Colour::Black,
            minutes: 1,
            moves: 0,
            position: Some(dxp),
        })
        .encode();
        assert!(text.ends_with(&format!(
            "W{}{}{}",
            "z".repeat(20),
            "e".repeat(10),
            "w".repeat(20)
        )));
    }

    #[test]
    fn an_illegal_position_says_why() {
        let mut dxp = position_to_dxp::<Intl>(&Intl::start()).unwrap();
        // A white man on square 3, where it would have been crowned.
        dxp.squares[2] = Piece::WhiteMan;
        let err = position_from_dxp::<Intl>(&dxp).unwrap_err();
        assert!(err.to_string().starts_with("illegal position: "), "{err}");
        let mut dxp = position_to_dxp::<Intl>(&Intl::start()).unwrap();
        for sq in &mut dxp.squares[20..30] {
            *sq = Piece::WhiteMan;
        }
        assert!(matches!(
            position_from_dxp::<Intl>(&dxp),
            Err(GameError::IllegalPosition(_))
        ));
    }

    /// Every legal move of many random positions goes to DXP and back unchanged, captured
    /// squares in any order.
    #[test]
    fn moves_round_trip_in_random_games() {
        let mut seed = 12345u64;
        let mut moves = Vec::new();
        let mut captures_seen = 0;
        for _ in 0..20 {
            let mut record = GameRecord::<Intl>::new(Intl::start());
            while record.outcome().is_none() && record.moves().len() < 200 {
                let pos = *record.current();
                Intl::generate(&pos, Duplicates::Drop, &mut moves);
                for mv in &moves {
                    let mut dxp = move_to_dxp::<Intl>(&pos, mv, 0).unwrap();
                    if dxp.captured.len() > 1 {
                        captures_seen += 1;
                    }
                    dxp.captured.reverse();
                    let text = Message::Move(dxp.clone()).encode();
                    let Ok(Message::Move(back)) = Message::parse(text.as_bytes()) else {
                        panic!("{text} does not read back");
                    };
                    assert_eq!(move_from_dxp::<Intl>(&pos, &back), Ok(*mv), "{text}");
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                record.push(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
        assert!(captures_seen > 0);
    }

    #[test]
    fn an_illegal_move_lists_the_legal_ones() {
        let start = Intl::start();
        let mv = DxpMove {
            seconds: 0,
            from: 32,
            to: 26,
            captured: vec![],
        };
        let err = move_from_dxp::<Intl>(&start, &mv).unwrap_err();
        assert_eq!(
            err.to_string(),
            "illegal move 32-26: not one of the 9 legal moves \
             (31-26, 31-27, 32-27, 32-28, 33-28, 33-29, 34-29, 34-30, 35-30)"
        );
        // A capture claimed where there is none.
        let mv = DxpMove {
            seconds: 0,
            from: 32,
            to: 23,
            captured: vec![28],
        };
        assert!(move_from_dxp::<Intl>(&start, &mv).is_err());
    }
}
