//! The `Game` abstraction: what the search, perft and the protocol need from a family of
//! variants, and nothing more.
//!
//! A family (the diagonal games, the orthogonal 8x8 games, stack draughts, hex Seesaw) is one
//! generic implementation of [`Game`]; each variant is one monomorphised instance of it, chosen
//! once through the registry (see [`crate::variants`]). Positions and moves are family types:
//! the generic code only copies them, compares them and hands them back.

pub mod view;

use std::fmt;

/// A side. White is the side that starts at the bottom of the internal board.
///
/// Stored as a full word: positions are copied whole (copy-make), and a one-byte side written
/// just before such a copy was read back as part of an eight-byte load, which the processor
/// cannot forward from the smaller store (a stall measured in the search's move loop).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u64)]
pub enum Side {
    /// The side on the high-numbered squares in International draughts.
    White,
    /// The other side.
    Black,
}

impl Side {
    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }

    /// The side's name in lower case.
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

/// The result of a finished game, from the point of view of the side to move in the final
/// position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move has won (antidraughts with no move left, for example).
    Win,
    /// The side to move has lost.
    Loss,
    /// Drawn.
    Draw,
}

/// Whether capture sequences that differ only in the order of their jumps count once or once per
/// path (see `../shared/perft/README.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Duplicates {
    /// Same piece, same final square and same captured set: one move (how the engine plays).
    #[default]
    Drop,
    /// Every distinct capture path is its own move.
    Keep,
}

/// How a move is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MoveStyle {
    /// The Hub protocol's form: from, to, then every captured square (`28x19x23`).
    #[default]
    Hub,
    /// The family's written notation (PDN landing squares, or algebraic where the variant's
    /// players write that).
    Pdn,
}

/// The draw rules a variant plays with, as cold data read by [`crate::record::GameRecord`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRules {
    /// How many times a position must occur for a draw (3, or 4 in Italian); 0 = never.
    pub repetitions: u8,
    /// Draw after this many successive plies without an irreversible move (a man move or a
    /// capture, as the family defines it); 0 = no such rule.
    pub quiet_plies: u16,
    /// Whether the family's material-specific endgame counters apply (the FMJD 16- and 5-move
    /// rules in International draughts).
    pub endgame_counters: bool,
}

/// A problem with a move given as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in this variant's notation.
    Malformed(String),
    /// Well-formed, but no legal move matches.
    Illegal(String),
    /// Several legal moves match; the text must say which.
    Ambiguous(String, Vec<String>),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(why) => write!(f, "not a move: {why}"),
            MoveError::Illegal(text) => write!(f, "illegal move: {text}"),
            MoveError::Ambiguous(text, options) => {
                write!(
                    f,
                    "ambiguous move: {text} (could be {})",
                    options.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// A family of variants as the generic code sees it.
///
/// Implementations are zero-sized marker types; every method is an associated function so that
/// each variant is fully monomorphised.
pub trait Game: Sized + Send + Sync + 'static {
    /// A position: small and `Copy` (copy-make), with its Zobrist key inside.
    type Position: Copy + Eq + Send + Sync + fmt::Debug;
    /// A move: small and `Copy`.
    type Move: Copy + Eq + Send + Sync + fmt::Debug;

    /// The variant's registry name (`international`, `russian`, ...).
    const NAME: &'static str;

    /// The start position.
    fn start() -> Self::Position;

    /// What is wrong with a position given as text, or with its contents: the family's own
    /// setup error, which says exactly what (the Hub front end prints it in `error message`).
    ///
    /// ```
    /// use polydam_engine::diagonal::{rules::International, Diagonal, SetupError};
    /// use polydam_engine::game::Game;
    /// let err = Diagonal::<International>::parse_position("W:W31,31:B1").unwrap_err();
    /// assert_eq!(err, SetupError::SquareTwice(31));
    /// assert_eq!(err.to_string(), "square 31 is given twice");
    /// ```
    type SetupError: std::error::Error + Clone + PartialEq + Eq + Send + Sync + 'static;

    /// Parses a position in any text form the family accepts (PDN FEN, the Hub string, ...).
    fn parse_position(text: &str) -> Result<Self::Position, Self::SetupError>;

    /// The position as the family's FEN.
    fn fen(pos: &Self::Position) -> String;

    /// The position as a Hub `pos=` string.
    fn hub_position(pos: &Self::Position) -> String;

    /// The side to move.
    fn side_to_move(pos: &Self::Position) -> Side;

    /// The Zobrist key of the position (kept incrementally by [`Game::play`]).
    fn hash(pos: &Self::Position) -> u64;

    /// Recomputes the Zobrist key from scratch (for consistency checks).
    fn hash_from_scratch(pos: &Self::Position) -> u64;

    /// Clears `out` and fills it with the legal moves. An empty list means the game is over.
    fn generate(pos: &Self::Position, dups: Duplicates, out: &mut Vec<Self::Move>);

    /// The position after `mv`, which must be one of the moves [`Game::generate`] returned.
    fn play(pos: &Self::Position, mv: &Self::Move) -> Self::Position;

    /// A result decided by the position itself before looking at moves (a breakthrough king, a
    /// side with no stacks left), or `None`.
    fn decided(pos: &Self::Position) -> Option<Outcome>;

    /// The result when the side to move has no legal move.
    fn no_move_outcome(pos: &Self::Position) -> Outcome;

    /// Whether `mv` is a capture.
    fn is_capture(mv: &Self::Move) -> bool;

    /// Whether `mv` can never be undone (resets the repetition window and the quiet-move count).
    fn is_irreversible(pos: &Self::Position, mv: &Self::Move) -> bool;

    /// The variant's draw rules.
    fn draw_rules() -> DrawRules;

    /// Whether the material on the board is one of the endgames that the family's endgame
    /// counter rule covers, and the ply limit that applies to it (FMJD's 16- and 5-move rules).
    fn endgame_ply_limit(_pos: &Self::Position) -> Option<u16> {
        None
    }

    /// The move in text form.
    fn move_text(pos: &Self::Position, mv: &Self::Move, style: MoveStyle) -> String;

    /// The cells a move passes through, named as the cells of [`Game::board_view`]: its start,
    /// each landing square of a capture in order, its end (a hex deploy: its one cell; a pass:
    /// none). Front ends select moves by these cells, a click at a time. The default splits the
    /// PDN text at its separators; families whose PDN text may leave landing squares out
    /// override it.
    fn move_path(pos: &Self::Position, mv: &Self::Move) -> Vec<String> {
        Self::move_text(pos, mv, MoveStyle::Pdn)
            .split(['-', 'x', 'X', ':', '@'])
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    }

    /// Reads a move leniently (Hub form, PDN form, captures without their captured squares)
    /// and returns the one legal move it names.
    fn parse_move(pos: &Self::Position, text: &str) -> Result<Self::Move, MoveError>;

    /// Static evaluation from the side to move's point of view, in hundredths of a man
    /// (a man is worth about 100). Must be symmetric: the same position with colours swapped
    /// and the other side to move scores the same.
    fn evaluate(pos: &Self::Position) -> i32;

    /// Clears `out` and fills it with the legal captures only, leaving it empty when the legal
    /// moves are all quiet (quiescence search). The default filters [`Game::generate`];
    /// families override it to skip generating quiet moves.
    fn generate_captures(pos: &Self::Position, out: &mut Vec<Self::Move>) {
        Self::generate(pos, Duplicates::Drop, out);
        out.retain(|m| Self::is_capture(m));
    }

    /// Whether the side to move has a legal capture. The default generates the moves;
    /// families override it with a cheaper test.
    fn has_capture(pos: &Self::Position) -> bool {
        let mut moves = Vec::new();
        Self::generate_captures(pos, &mut moves);
        !moves.is_empty()
    }

    /// Whether the side to move has any legal move at all. The default generates the moves;
    /// families override it with a cheaper test.
    fn has_move(pos: &Self::Position) -> bool {
        let mut moves = Vec::new();
        Self::generate(pos, Duplicates::Drop, &mut moves);
        !moves.is_empty()
    }

    /// The number of legal moves when the side to move has no capture and the family can
    /// count them without listing them (bitboards); `None` when it has a capture, or when
    /// counting would cost as much as generating. Where it answers, the number must equal
    /// [`Game::generate`]'s list length, and none of those moves is a capture. The search
    /// counts the moves of shallow nodes that it will most likely prune before moving, and
    /// generates them only if it does search them. The default counts nothing.
    fn quiet_move_count(_pos: &Self::Position) -> Option<usize> {
        None
    }

    /// Whether the side *not* to move could capture if it were its turn: a threat that a
    /// search should resolve before trusting a static evaluation. The default, `false`, only
    /// makes the search a little less sharp.
    fn capture_threat(_pos: &Self::Position) -> bool {
        false
    }

    /// The number of pieces on the board, for the time manager's idea of how far the game
    /// has gone (the fraction of the start position's pieces left); `None` where the family
    /// cannot tell cheaply, and the time manager then plans without it.
    fn board_pieces(_pos: &Self::Position) -> Option<u32> {
        None
    }

    /// The number of distinct values [`Game::move_index`] may return.
    const MOVE_INDEX_BOUND: usize = 1;

    /// A small index (below [`Game::MOVE_INDEX_BOUND`]) identifying `mv` well enough for move
    /// ordering statistics (the search's history table), typically from-square and to-square.
    /// The default puts every move in one slot, which turns those statistics off.
    fn move_index(_pos: &Self::Position, _mv: &Self::Move) -> usize {
        0
    }

    /// The position described for display (see [`view`]), with the start and end cells
    /// of `last` (the move that led to it) marked. Families override it with their board; the
    /// default only carries the FEN.
    fn board_view(pos: &Self::Position, _last: Option<&Self::Move>) -> view::BoardView {
        view::BoardView::note_only(Self::fen(pos))
    }

    /// The number of legal moves, [`Game::generate`]'s list length, for perft's last ply
    /// ("bulk counting", see [`crate::perft`]). `scratch` is a list the count may fill and
    /// leave in any state. The default generates the moves into it; families override it to
    /// count quiet moves from bitboards without listing them.
    #[inline]
    fn count_moves(pos: &Self::Position, dups: Duplicates, scratch: &mut Vec<Self::Move>) -> u64 {
        Self::generate(pos, dups, scratch);
        scratch.len() as u64
    }
}
