//! Reading a message: its characters checked, then the fields of its type read left to right.

use super::{
    Acceptance, Colour, DxpError, DxpMove, DxpPosition, EndReason, GameAcc, GameEnd, GameReq, Kind,
    Message, Piece, MAX_MESSAGE_LEN, NAME_LEN, SQUARES,
};

impl Message {
    /// Reads one message (without its `\0`).
    pub fn parse(bytes: &[u8]) -> Result<Message, DxpError> {
        if bytes.is_empty() {
            return Err(DxpError::Empty);
        }
        if bytes.len() > MAX_MESSAGE_LEN {
            return Err(DxpError::TooLong { len: bytes.len() });
        }
        if let Some((index, &byte)) = bytes.iter().enumerate().find(|(_, &b)| b == 0 || b > 127) {
            return Err(DxpError::NotAscii { index, byte });
        }
        match bytes[0] {
            b'R' => parse_game_req(bytes),
            b'A' => parse_game_acc(bytes),
            b'M' => parse_move(bytes),
            b'E' => parse_game_end(bytes),
            b'C' => Ok(Message::Chat(
                String::from_utf8_lossy(&bytes[1..]).into_owned(),
            )),
            b'B' => parse_back_req(bytes),
            b'K' => parse_back_acc(bytes),
            c => Err(DxpError::UnknownType(char::from(c))),
        }
    }
}

/// A field holding a code not among the `expected` ones.
fn bad_code(kind: Kind, field: &'static str, c: u8, expected: &'static str) -> DxpError {
    DxpError::BadField {
        kind,
        field,
        text: char::from(c).to_string(),
        expected,
    }
}

/// GAMEREQ: version, initiator's name, follower's colour, thinking time, number of moves, and
/// the starting position (A: the normal start, B: a position follows).
fn parse_game_req(bytes: &[u8]) -> Result<Message, DxpError> {
    let kind = Kind::GameReq;
    let len = bytes.len();
    if len != 43 && len != 94 {
        return Err(wrong_length(
            kind,
            len,
            "43 (start position) or 94 (with a position)",
        ));
    }
    let mut f = Fields::new(bytes, kind);
    let version = f.number(2, "version")? as u8;
    let initiator = f.text(NAME_LEN).trim_end().to_owned();
    let follower_colour = Colour::from_letter("follower colour", kind, f.byte())?;
    let minutes = f.number(3, "thinking time")?;
    let moves = f.number(3, "number of moves")?;
    let position = match (f.byte(), len) {
        (b'A', 43) => None,
        (b'B', 94) => Some(game_req_position(&mut f)?),
        (b'A', _) => {
            return Err(wrong_length(kind, len, "43 with start position A"));
        }
        (b'B', _) => {
            return Err(wrong_length(kind, len, "94 with start position B"));
        }
        (c, _) => {
            return Err(bad_code(
                kind,
                "starting position",
                c,
                "A (normal start) or B (a position follows)",
            ));
        }
    };
    Ok(Message::GameReq(GameReq {
        version,
        initiator,
        follower_colour,
        minutes,
        moves,
        position,
    }))
}

/// The position of a GAMEREQ: the colour to move, then a piece letter per square.
fn game_req_position(f: &mut Fields<'_>) -> Result<DxpPosition, DxpError> {
    let kind = f.kind;
    let to_move = Colour::from_letter("colour to move", kind, f.byte())?;
    let mut squares = [Piece::Empty; SQUARES];
    for (i, sq) in squares.iter_mut().enumerate() {
        let c = char::from(f.byte());
        *sq = Piece::from_letter(c).ok_or_else(|| DxpError::BadField {
            kind,
            field: "position",
            text: format!("{c} (square {})", i + 1),
            expected: "a piece: e, w, z, W or Z",
        })?;
    }
    Ok(DxpPosition { to_move, squares })
}

/// GAMEACC: the follower's name and the acceptance code.
fn parse_game_acc(bytes: &[u8]) -> Result<Message, DxpError> {
    let kind = Kind::GameAcc;
    if bytes.len() != 34 {
        return Err(wrong_length(kind, bytes.len(), "34"));
    }
    let mut f = Fields::new(bytes, kind);
    let follower = f.text(NAME_LEN).trim_end().to_owned();
    let acceptance = match f.byte() {
        b'0' => Acceptance::Accepted,
        b'1' => Acceptance::WrongVersion,
        b'2' => Acceptance::NotThisGame,
        b'3' => Acceptance::NoGames,
        c => return Err(bad_code(kind, "acceptance code", c, "0, 1, 2 or 3")),
    };
    Ok(Message::GameAcc(GameAcc {
        follower,
        acceptance,
    }))
}

/// MOVE: time, from and to squares, the number of pieces captured and their squares.
fn parse_move(bytes: &[u8]) -> Result<Message, DxpError> {
    let kind = Kind::Move;
    let len = bytes.len();
    if len < 11 {
        return Err(wrong_length(kind, len, "at least 11"));
    }
    let mut f = Fields::new(bytes, kind);
    let seconds = f.number(4, "time")?;
    let from = f.square("from square")?;
    let to = f.square("to square")?;
    let count = f.number(2, "number captured")? as usize;
    let want = 11 + 2 * count;
    if len != want {
        return Err(wrong_length(
            kind,
            len,
            format!("11 + 2 per capture = {want} for {count} captures"),
        ));
    }
    let mut captured = Vec::with_capacity(count);
    for _ in 0..count {
        let sq = f.square("captured square")?;
        if captured.contains(&sq) {
            return Err(DxpError::CapturedTwice { square: sq });
        }
        captured.push(sq);
    }
    Ok(Message::Move(DxpMove {
        seconds,
        from,
        to,
        captured,
    }))
}

/// GAMEEND: the reason and the stop code.
fn parse_game_end(bytes: &[u8]) -> Result<Message, DxpError> {
    let kind = Kind::GameEnd;
    if bytes.len() != 3 {
        return Err(wrong_length(kind, bytes.len(), "3"));
    }
    let mut f = Fields::new(bytes, kind);
    let reason = match f.byte() {
        b'0' => EndReason::Unspecified,
        b'1' => EndReason::Resigns,
        b'2' => EndReason::Draw,
        b'3' => EndReason::Wins,
        c => return Err(bad_code(kind, "reason", c, "0, 1, 2 or 3")),
    };
    let stop = match f.byte() {
        b'0' => false,
        b'1' => true,
        c => return Err(bad_code(kind, "stop code", c, "0 or 1")),
    };
    Ok(Message::GameEnd(GameEnd { reason, stop }))
}

/// BACKREQ: the move number and the colour to move.
fn parse_back_req(bytes: &[u8]) -> Result<Message, DxpError> {
    let kind = Kind::BackReq;
    if bytes.len() != 5 {
        return Err(wrong_length(kind, bytes.len(), "5"));
    }
    let mut f = Fields::new(bytes, kind);
    let move_number = f.number(3, "move number")?;
    let to_move = Colour::from_letter("colour to move", kind, f.byte())?;
    Ok(Message::BackReq {
        move_number,
        to_move,
    })
}

/// BACKACC: the acceptance code.
fn parse_back_acc(bytes: &[u8]) -> Result<Message, DxpError> {
    let kind = Kind::BackAcc;
    if bytes.len() != 2 {
        return Err(wrong_length(kind, bytes.len(), "2"));
    }
    let code = Fields::new(bytes, kind).number(1, "acceptance code")? as u8;
    Ok(Message::BackAcc(code))
}

/// Reads fixed-width fields from a message, left to right.
struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
    kind: Kind,
}

impl<'a> Fields<'a> {
    /// The fields of `bytes`, a message of `kind`, after its type character.
    fn new(bytes: &'a [u8], kind: Kind) -> Self {
        Fields { bytes, at: 1, kind }
    }

    fn take(&mut self, n: usize) -> &'a [u8] {
        // Callers check the length first, so the slice is always there; an empty slice
        // otherwise makes the field's own check fail rather than panic.
        let out = self.bytes.get(self.at..self.at + n).unwrap_or_default();
        self.at += n;
        out
    }

    fn number(&mut self, n: usize, field: &'static str) -> Result<u16, DxpError> {
        let raw = self.take(n);
        if raw.len() != n || !raw.iter().all(u8::is_ascii_digit) {
            return Err(DxpError::BadDigits {
                kind: self.kind,
                field,
                text: String::from_utf8_lossy(raw).into_owned(),
            });
        }
        Ok(raw
            .iter()
            .fold(0u16, |acc, d| acc * 10 + u16::from(d - b'0')))
    }

    fn square(&mut self, field: &'static str) -> Result<u8, DxpError> {
        let n = self.number(2, field)?;
        if !(1..=SQUARES as u16).contains(&n) {
            return Err(DxpError::SquareOffBoard {
                kind: self.kind,
                field,
                square: n,
            });
        }
        Ok(n as u8)
    }

    fn byte(&mut self) -> u8 {
        self.take(1).first().copied().unwrap_or(0)
    }

    fn text(&mut self, n: usize) -> String {
        String::from_utf8_lossy(self.take(n)).into_owned()
    }
}

/// A [`DxpError::WrongLength`] for a message of `kind`.
fn wrong_length(kind: Kind, got: usize, want: impl Into<String>) -> DxpError {
    DxpError::WrongLength {
        kind,
        got,
        want: want.into(),
    }
}
