//! Move generation for the diagonal family, monomorphised per rule sheet.
//!
//! Directions: 0 = up-left, 1 = up-right, 2 = down-left, 3 = down-right ("up" is towards square
//! 1); Frisian captures add 4 = up the file (two rows), 5 = left along the row, 6 = right, 7 =
//! down the file. White's men step up, Black's down. The opposite of `d` is `d ^ 3`, and the
//! directions with `d & 2 == 0` go towards bit 0.
//!
//! Captured pieces stay on the board until the sequence ends (every card of this family but
//! Thai: "removed only when the sequence is over"): they keep blocking lines and are no longer
//! jumpable. Under Thai's immediate removal their squares are empty at once. The moving piece's
//! start square counts as empty, so a king may cross it again.

use super::bits::Bits;
use super::position::{Move, Position};
use super::rules::{Goal, Halt, Precedence, Promotion, Rules};
use crate::game::{Duplicates, Side};

/// One step of every bit of `b` in direction `d` (a step off the board lands on a ghost bit
/// or outside the board mask; along a row the edge squares are masked first).
#[inline(always)]
pub(crate) fn step<R: Rules>(b: R::Bits, d: usize) -> R::Bits {
    let h = R::SHEET.board.half;
    match d {
        0 => b >> (h + 1),
        1 => b >> h,
        2 => b << h,
        3 => b << (h + 1),
        4 => b >> (2 * h + 1),
        5 => (b & R::Bits::from_wide(const { !R::SHEET.board.wide_column_mask(0) })) >> 1,
        6 => {
            let last = const { !R::SHEET.board.wide_column_mask(R::SHEET.board.half - 1) };
            (b & R::Bits::from_wide(last)) << 1
        }
        _ => b << (2 * h + 1),
    }
}

/// The number of capture directions: 8 with Frisian's orthogonal captures, else the 4
/// diagonals.
#[inline(always)]
pub(crate) const fn capture_dirs<R: Rules>() -> usize {
    if R::SHEET.orthogonal_captures {
        8
    } else {
        4
    }
}

/// The capture directions as a bit mask.
#[inline(always)]
const fn all_dirs<R: Rules>() -> u8 {
    if R::SHEET.orthogonal_captures {
        0xFF
    } else {
        0x0F
    }
}

/// Frisian's king that may not make a quiet move: the side to move's king that has made three
/// successive quiet moves, or nothing.
#[inline(always)]
pub(crate) fn restricted_king<R: Rules>(pos: &Position<R::Bits>) -> R::Bits {
    if !R::SHEET.king_move_limit {
        return R::Bits::ZERO;
    }
    match pos.king_moves.count(pos.side) {
        Some((3, bit)) => R::Bits::bit(bit),
        _ => R::Bits::ZERO,
    }
}

/// Mask of all playing squares.
#[inline(always)]
pub(crate) fn board_mask<R: Rules>() -> R::Bits {
    // `const` blocks make sure the mask loops run at compile time, not at every node.
    R::Bits::from_wide(const { R::SHEET.board.wide_mask() })
}

/// The row on which `side`'s men are crowned.
#[inline(always)]
pub(crate) fn promotion_row<R: Rules>(side: Side) -> R::Bits {
    R::Bits::from_wide(match side {
        Side::White => const { R::SHEET.board.wide_row_mask(0) },
        Side::Black => const { R::SHEET.board.wide_row_mask(R::SHEET.board.rows - 1) },
    })
}

/// Whether direction `d` is forward for `side` (along a row is neither way).
#[inline(always)]
pub(crate) fn is_forward(side: Side, d: usize) -> bool {
    match side {
        Side::White => d < 2 || d == 4,
        Side::Black => d == 2 || d == 3 || d == 7,
    }
}

/// Whether a man of `side` may jump in direction `d`, as the first jump of its sequence or
/// a later one.
#[inline(always)]
fn man_may_jump<R: Rules>(side: Side, d: usize, first: bool) -> bool {
    is_forward(side, d)
        || (R::SHEET.men_capture_backward && (!first || R::SHEET.man_first_jump_backward))
}

/// The directions a flying king may turn to after a jump in direction `d` (straight on and
/// back excluded): the two perpendicular diagonals, or with orthogonal captures every line but
/// `d`'s.
#[inline(always)]
fn turns<R: Rules>(d: usize) -> u8 {
    if R::SHEET.orthogonal_captures {
        !(1u8 << d) & !(1u8 << (d ^ 3))
    } else if d == 0 || d == 3 {
        0b0110
    } else {
        0b1001
    }
}

/// The squares beyond the square `from` (one bit) in direction `d`, from the board's ray table
/// (see [`Bits::ray`]): a flying king's line is then one lookup, and the first piece on it one
/// bit scan, instead of a step-by-step walk whose length the processor cannot predict.
#[inline(always)]
fn ray_beyond<R: Rules>(from: R::Bits, d: usize) -> R::Bits {
    R::Bits::ray(R::SHEET.board, d, from.trailing_zeros())
}

/// The square of `set` (not empty, all on one ray in direction `d`) nearest the ray's start:
/// directions 0, 1, 4 and 5 go towards bit 0, the others towards the high bits.
#[inline(always)]
fn nearest<B: Bits>(set: B, d: usize) -> B {
    if d & 2 == 0 {
        set.highest()
    } else {
        set.lowest()
    }
}

/// The squares of `line` (a ray in direction `d`) before the square `stop` on it.
#[inline(always)]
fn before<B: Bits>(line: B, stop: B, d: usize) -> B {
    if d & 2 == 0 {
        line & !(stop | stop.wrapping_sub(B::bit(0)))
    } else {
        line & stop.wrapping_sub(B::bit(0))
    }
}

/// A flying king's line from the square `from` in direction `d` over `empty` squares: the
/// empty squares it passes and the first square that is not empty (if any), and that square.
#[inline(always)]
fn flying_line<R: Rules>(from: R::Bits, d: usize, empty: R::Bits) -> (R::Bits, R::Bits) {
    let line = ray_beyond::<R>(from, d);
    let blockers = line & !empty;
    if blockers.is_empty() {
        return (line, R::Bits::ZERO);
    }
    let first = nearest(blockers, d);
    (before(line, first, d) | first, first)
}

/// What a capture sequence has done so far.
#[derive(Clone, Copy, Default)]
struct Sequence<B: Bits> {
    captured: B,
    count: u32,
    kings: u32,
    /// Bit `15 - i` set when jump `i` took a king (Italian "kings met earliest").
    king_order: u32,
    last_was_king: bool,
    previous_was_king: bool,
    crowned: bool,
}

impl<B: Bits> Sequence<B> {
    #[inline(always)]
    fn take(mut self, victim: B, victim_is_king: bool) -> Sequence<B> {
        self.captured |= victim;
        if victim_is_king {
            self.kings += 1;
            self.king_order |= 1 << (15u32.saturating_sub(self.count));
        }
        self.count += 1;
        self.previous_was_king = self.last_was_king;
        self.last_was_king = victim_is_king;
        self
    }
}

struct CaptureGen<'a, R: Rules> {
    side: Side,
    empty: R::Bits,
    man_targets: R::Bits,
    king_targets: R::Bits,
    enemy_kings: R::Bits,
    promotion: R::Bits,
    from: R::Bits,
    from_is_king: bool,
    best: u32,
    dups: Duplicates,
    out: &'a mut Vec<Move<R::Bits>>,
    _rules: std::marker::PhantomData<R>,
}

impl<R: Rules> CaptureGen<'_, R> {
    /// The precedence key of a finished sequence: only the sequences with the greatest key are
    /// legal.
    #[inline(always)]
    fn key(&self, s: &Sequence<R::Bits>) -> u32 {
        match R::SHEET.precedence {
            Precedence::Free => 0,
            Precedence::MostPieces => s.count,
            Precedence::MostPiecesThenKings => (s.count << 8) | s.kings,
            Precedence::Italian => {
                (s.count << 24)
                    | ((self.from_is_king as u32) << 23)
                    | (s.kings << 16)
                    | s.king_order
            }
            Precedence::KingFirst => self.from_is_king as u32,
            // Value P = M + 2K first, then fewer kings (K <= 20 < 64), then with a king.
            Precedence::Frisian => {
                let value = s.count + s.kings;
                (((value << 6) - s.kings) << 1) | self.from_is_king as u32
            }
        }
    }

    /// The empty squares during sequence `s`: with immediate removal the squares of the pieces
    /// taken so far too.
    #[inline(always)]
    fn empty_during(&self, s: &Sequence<R::Bits>) -> R::Bits {
        if R::SHEET.immediate_removal {
            self.empty | s.captured
        } else {
            self.empty
        }
    }

    #[inline(always)]
    fn halts(s: &Sequence<R::Bits>) -> bool {
        match R::SHEET.halt {
            Halt::None => false,
            Halt::LastKing => s.last_was_king,
            Halt::LastKingOfTwoOrMore => s.count >= 2 && s.last_was_king,
            Halt::TwoOrMore => s.count >= 2,
            Halt::LastTwoKings => s.count >= 2 && s.last_was_king && s.previous_was_king,
        }
    }

    #[inline]
    fn emit(&mut self, to: R::Bits, s: &Sequence<R::Bits>, crowns: bool) {
        let key = self.key(s);
        if self.out.is_empty() || key > self.best {
            self.out.clear();
            self.best = key;
        } else if key < self.best {
            return;
        }
        let mv = Move {
            from: self.from.trailing_zeros() as u8,
            to: to.trailing_zeros() as u8,
            crowns,
            captured: s.captured,
        };
        // Two different orders of the same jumps need at least three captures; checking only
        // then keeps the common case free.
        if self.dups == Duplicates::Drop && s.count >= 3 && self.out.contains(&mv) {
            return;
        }
        self.out.push(mv);
    }

    #[inline(always)]
    fn man_may_jump(&self, d: usize, first: bool) -> bool {
        man_may_jump::<R>(self.side, d, first)
    }

    /// The jump of a man on `cur` in direction `D` over a piece not taken yet: `(victim,
    /// landing)`, the landing square zero if there is none.
    #[inline(always)]
    fn man_jump<const D: usize>(&self, cur: R::Bits, captured: R::Bits) -> (R::Bits, R::Bits) {
        let victim = step::<R>(cur, D) & self.man_targets & !captured;
        let empty = if R::SHEET.immediate_removal {
            self.empty | captured
        } else {
            self.empty
        };
        (victim, step::<R>(victim, D) & empty)
    }

    /// Whether a man on `cur`, after its first jump, can jump again: the test
    /// [`Self::man_jumps`] makes, without the call (most sequences end after one jump).
    #[inline(always)]
    fn man_continues(&self, cur: R::Bits, captured: R::Bits) -> bool {
        (self.man_may_jump(0, false) && !self.man_jump::<0>(cur, captured).1.is_empty())
            || (self.man_may_jump(1, false) && !self.man_jump::<1>(cur, captured).1.is_empty())
            || (self.man_may_jump(2, false) && !self.man_jump::<2>(cur, captured).1.is_empty())
            || (self.man_may_jump(3, false) && !self.man_jump::<3>(cur, captured).1.is_empty())
            || (R::SHEET.orthogonal_captures && self.man_continues_orthogonally(cur, captured))
    }

    /// [`Self::man_continues`] along the rows and files.
    #[inline(always)]
    fn man_continues_orthogonally(&self, cur: R::Bits, captured: R::Bits) -> bool {
        (self.man_may_jump(4, false) && !self.man_jump::<4>(cur, captured).1.is_empty())
            || (self.man_may_jump(5, false) && !self.man_jump::<5>(cur, captured).1.is_empty())
            || (self.man_may_jump(6, false) && !self.man_jump::<6>(cur, captured).1.is_empty())
            || (self.man_may_jump(7, false) && !self.man_jump::<7>(cur, captured).1.is_empty())
    }

    /// Extends a man's sequence from `cur`; returns whether any jump was possible.
    fn man_jumps(&mut self, cur: R::Bits, s: Sequence<R::Bits>, first: bool) -> bool {
        // The four directions unrolled, each with its shifts known at compile time, in the
        // order 0..4 (the order moves are listed in).
        let a = self.man_jumps_towards::<0>(cur, s, first);
        let b = self.man_jumps_towards::<1>(cur, s, first);
        let c = self.man_jumps_towards::<2>(cur, s, first);
        let d = self.man_jumps_towards::<3>(cur, s, first);
        if R::SHEET.orthogonal_captures {
            let e = self.man_jumps_towards::<4>(cur, s, first);
            let f = self.man_jumps_towards::<5>(cur, s, first);
            let g = self.man_jumps_towards::<6>(cur, s, first);
            let h = self.man_jumps_towards::<7>(cur, s, first);
            return a | b | c | d | e | f | g | h;
        }
        a | b | c | d
    }

    /// [`Self::man_jumps`] in direction `D`.
    #[inline(always)]
    fn man_jumps_towards<const D: usize>(
        &mut self,
        cur: R::Bits,
        s: Sequence<R::Bits>,
        first: bool,
    ) -> bool {
        if !self.man_may_jump(D, first) {
            return false;
        }
        let (victim, land) = self.man_jump::<D>(cur, s.captured);
        if land.is_empty() {
            return false;
        }
        let next = s.take(victim, !(victim & self.enemy_kings).is_empty());
        if !(land & self.promotion).is_empty() {
            match R::SHEET.promotion {
                Promotion::CrownAndStop => {
                    self.emit(land, &next, true);
                    return true;
                }
                Promotion::CrownAndContinue => {
                    let crowned = Sequence {
                        crowned: true,
                        ..next
                    };
                    if !self.king_jumps(land, crowned, all_dirs::<R>() & !(1 << (D ^ 3))) {
                        self.emit(land, &crowned, true);
                    }
                    return true;
                }
                Promotion::AtEnd => {}
            }
        }
        if self.man_continues(land, next.captured) {
            self.man_jumps(land, next, false);
        } else {
            self.emit(land, &next, !(land & self.promotion).is_empty());
        }
        true
    }

    /// Extends a king's sequence from `cur` in the directions of `dirs`; returns whether any
    /// jump was possible.
    fn king_jumps(&mut self, cur: R::Bits, s: Sequence<R::Bits>, dirs: u8) -> bool {
        let a = self.king_jumps_towards::<0>(cur, s, dirs);
        let b = self.king_jumps_towards::<1>(cur, s, dirs);
        let c = self.king_jumps_towards::<2>(cur, s, dirs);
        let d = self.king_jumps_towards::<3>(cur, s, dirs);
        if R::SHEET.orthogonal_captures {
            let e = self.king_jumps_towards::<4>(cur, s, dirs);
            let f = self.king_jumps_towards::<5>(cur, s, dirs);
            let g = self.king_jumps_towards::<6>(cur, s, dirs);
            let h = self.king_jumps_towards::<7>(cur, s, dirs);
            return a | b | c | d | e | f | g | h;
        }
        a | b | c | d
    }

    /// [`Self::king_jumps`] in direction `D`.
    #[inline(always)]
    fn king_jumps_towards<const D: usize>(
        &mut self,
        cur: R::Bits,
        s: Sequence<R::Bits>,
        dirs: u8,
    ) -> bool {
        if dirs & (1 << D) == 0 {
            return false;
        }
        if R::SHEET.flying_kings {
            return self.flying_king_jumps_towards::<D>(cur, s);
        }
        let victim = step::<R>(cur, D);
        if (victim & self.king_targets & !s.captured).is_empty() {
            return false;
        }
        let landing = step::<R>(victim, D) & self.empty_during(&s);
        if landing.is_empty() {
            return false;
        }
        let next = s.take(victim, !(victim & self.enemy_kings).is_empty());
        let back = if R::SHEET.immediate_removal {
            0
        } else {
            1 << (D ^ 3)
        };
        if !self.king_jumps(landing, next, all_dirs::<R>() & !back) {
            self.emit(landing, &next, next.crowned);
        }
        true
    }

    /// [`Self::king_jumps_towards`] for a flying king: the line and the squares beyond the
    /// victim come from the ray tables. (Written out rather than through [`flying_line`]:
    /// returning as soon as the line is empty saved 0.3% of the search's instructions.)
    #[inline(always)]
    fn flying_king_jumps_towards<const D: usize>(
        &mut self,
        cur: R::Bits,
        s: Sequence<R::Bits>,
    ) -> bool {
        let empty = self.empty_during(&s);
        let line = ray_beyond::<R>(cur, D);
        let blockers = line & !empty;
        if blockers.is_empty() {
            return false;
        }
        let victim = nearest(blockers, D);
        if (victim & self.king_targets & !s.captured).is_empty() {
            return false;
        }
        if R::SHEET.king_lands_behind {
            return self.king_jump_behind::<D>(victim, s);
        }
        let beyond = ray_beyond::<R>(victim, D);
        let beyond_blockers = beyond & !empty;
        let landings = if beyond_blockers.is_empty() {
            beyond
        } else {
            before(beyond, nearest(beyond_blockers, D), D)
        };
        if landings.is_empty() {
            return false;
        }
        let next = s.take(victim, !(victim & self.enemy_kings).is_empty());
        // A flying king may land on any empty square beyond the victim. Turning is tried
        // from each of them, nearest first; going straight on is the same line from all of
        // them, so it is tried once, from the last, to avoid counting one path several times.
        let mut continued = false;
        let mut left = landings;
        while !left.is_empty() {
            let landing = nearest(left, D);
            left &= !landing;
            let turn = turns::<R>(D) | if left.is_empty() { 1 << D } else { 0 };
            continued |= self.king_jumps(landing, next, turn);
        }
        // Continuing is compulsory: the sequence may end here only if no landing square
        // lets it go on.
        if !continued {
            if Self::halts(&next) {
                self.emit(nearest(landings, D), &next, next.crowned);
            } else {
                let mut left = landings;
                while !left.is_empty() {
                    let landing = nearest(left, D);
                    left &= !landing;
                    self.emit(landing, &next, next.crowned);
                }
            }
        }
        true
    }

    /// A Thai king's jump over `victim` in direction `D`: it lands on the square right behind,
    /// which must be empty, and goes on from there in any direction, straight back included
    /// (the pieces taken so far are gone, so the way back is open).
    #[inline(always)]
    fn king_jump_behind<const D: usize>(&mut self, victim: R::Bits, s: Sequence<R::Bits>) -> bool {
        let landing = step::<R>(victim, D) & self.empty_during(&s);
        if landing.is_empty() {
            return false;
        }
        let next = s.take(victim, !(victim & self.enemy_kings).is_empty());
        if !self.king_jumps(landing, next, all_dirs::<R>()) {
            self.emit(landing, &next, next.crowned);
        }
        true
    }
}

/// Squares reached by a king on the square `from` (one bit) in direction `d` over `empty`
/// squares: the empty squares passed and the first non-empty square (one step only for short
/// kings).
#[inline(always)]
pub(crate) fn ray<R: Rules>(from: R::Bits, d: usize, empty: R::Bits) -> R::Bits {
    if R::SHEET.flying_kings {
        flying_line::<R>(from, d, empty).0
    } else {
        step::<R>(from, d) & board_mask::<R>()
    }
}

/// Whether any of `kings` can make a first jump over one of `enemy`: the first piece on one of
/// its lines must be an enemy with an empty square behind it.
#[inline(always)]
pub(crate) fn kings_can_capture<R: Rules>(kings: R::Bits, enemy: R::Bits, empty: R::Bits) -> bool {
    if !R::SHEET.flying_kings {
        return (0..capture_dirs::<R>())
            .any(|d| !(step::<R>(step::<R>(kings, d) & enemy, d) & empty).is_empty());
    }
    let mut ks = kings;
    while !ks.is_empty() {
        let k = ks.lowest();
        ks = ks.clear_lowest();
        for d in 0..capture_dirs::<R>() {
            let (_, first) = flying_line::<R>(k, d, empty);
            if !(first & enemy).is_empty() && !(step::<R>(first, d) & empty).is_empty() {
                return true;
            }
        }
    }
    false
}

/// The men of `side` among `men` that can make a first jump over one of `targets` onto an
/// `empty` square: all men at once, for the generator and the evaluation's capture tests.
#[inline(always)]
pub(crate) fn men_with_first_jump<R: Rules>(
    side: Side,
    men: R::Bits,
    targets: R::Bits,
    empty: R::Bits,
) -> R::Bits {
    let mut jumpers = R::Bits::ZERO;
    for d in 0..capture_dirs::<R>() {
        if man_may_jump::<R>(side, d, true) {
            let back = d ^ 3;
            jumpers |= step::<R>(step::<R>(empty, back) & targets, back);
        }
    }
    jumpers & men
}

/// Fills `out` with the legal captures (after the precedence rule); leaves it empty if there
/// is none.
pub(crate) fn generate_captures<R: Rules>(
    pos: &Position<R::Bits>,
    dups: Duplicates,
    out: &mut Vec<Move<R::Bits>>,
) {
    out.clear();
    let us = pos.side.index();
    let own = pos.pieces[us];
    let enemy = pos.pieces[1 - us];
    let empty = !(own | enemy) & board_mask::<R>();
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    let man_targets = if R::SHEET.men_capture_kings {
        enemy
    } else {
        enemy & !pos.kings
    };
    let mut jumpers = men_with_first_jump::<R>(pos.side, men, man_targets, empty);
    // Most positions with kings have no king capture: test all kings at once first.
    let mut ks = if !kings.is_empty() && kings_can_capture::<R>(kings, enemy, empty) {
        kings
    } else {
        R::Bits::ZERO
    };
    // Most positions have no capture at all: nothing more to set up then.
    if jumpers.is_empty() && ks.is_empty() {
        return;
    }
    let mut gen = CaptureGen::<R> {
        side: pos.side,
        empty,
        man_targets,
        king_targets: enemy,
        enemy_kings: enemy & pos.kings,
        promotion: promotion_row::<R>(pos.side),
        from: R::Bits::ZERO,
        from_is_king: false,
        best: 0,
        dups,
        out,
        _rules: std::marker::PhantomData,
    };

    while !jumpers.is_empty() {
        let m = jumpers.lowest();
        jumpers = jumpers.clear_lowest();
        gen.from = m;
        gen.from_is_king = false;
        gen.empty = empty | m;
        gen.man_jumps(m, Sequence::default(), true);
    }

    while !ks.is_empty() {
        let k = ks.lowest();
        ks = ks.clear_lowest();
        gen.from = k;
        gen.from_is_king = true;
        gen.empty = empty | k;
        gen.king_jumps(k, Sequence::default(), all_dirs::<R>());
    }
}

/// Squares threatened by an enemy king in Constitutional draughts, with `empty` as the empty
/// squares (the moving king already lifted): X is threatened when an enemy king sees it along a
/// diagonal over empty squares and the square beyond X, away from that king, is empty.
fn threatened<R: Rules>(enemy_kings: R::Bits, empty: R::Bits) -> R::Bits {
    let mut threats = R::Bits::ZERO;
    let mut ks = enemy_kings;
    while !ks.is_empty() {
        let k = ks.lowest();
        ks = ks.clear_lowest();
        for d in 0..4 {
            let mut x = step::<R>(k, d) & empty;
            while !x.is_empty() {
                let beyond = step::<R>(x, d) & empty;
                if !beyond.is_empty() {
                    threats |= x;
                }
                x = beyond;
            }
        }
    }
    threats
}

/// Fills `out` with the quiet moves (call only when there is no capture).
pub(crate) fn generate_quiet<R: Rules>(pos: &Position<R::Bits>, out: &mut Vec<Move<R::Bits>>) {
    out.clear();
    let us = pos.side.index();
    let own = pos.pieces[us];
    let empty = !pos.occupied() & board_mask::<R>();
    let men = own & !pos.kings;
    // Frisian: a king that has made three successive quiet moves may only capture.
    let kings = own & pos.kings & !restricted_king::<R>(pos);
    let promotion = promotion_row::<R>(pos.side);
    for d in 0..4 {
        if !is_forward(pos.side, d) {
            continue;
        }
        let mut targets = step::<R>(men, d) & empty;
        while !targets.is_empty() {
            let t = targets.lowest();
            targets = targets.clear_lowest();
            out.push(Move {
                from: step::<R>(t, 3 - d).trailing_zeros() as u8,
                to: t.trailing_zeros() as u8,
                crowns: !(t & promotion).is_empty(),
                captured: R::Bits::ZERO,
            });
        }
    }
    let enemy_kings = pos.pieces[1 - us] & pos.kings;
    let mut ks = kings;
    while !ks.is_empty() {
        let k = ks.lowest();
        ks = ks.clear_lowest();
        // Constitutional: a slide past a threatened square must end on a threatened square.
        let threats = if R::SHEET.constitutional && !enemy_kings.is_empty() {
            threatened::<R>(enemy_kings, empty | k)
        } else {
            R::Bits::ZERO
        };
        for d in 0..4 {
            let mut t = step::<R>(k, d) & empty;
            let mut passed_threat = false;
            while !t.is_empty() {
                if !passed_threat || !(t & threats).is_empty() {
                    out.push(Move {
                        from: k.trailing_zeros() as u8,
                        to: t.trailing_zeros() as u8,
                        crowns: false,
                        captured: R::Bits::ZERO,
                    });
                }
                if !R::SHEET.flying_kings {
                    break;
                }
                passed_threat |= !(t & threats).is_empty();
                t = step::<R>(t, d) & empty;
            }
        }
    }
}

/// Number of quiet moves, without listing them (bulk counting at perft's last ply).
fn count_quiet<R: Rules>(pos: &Position<R::Bits>, scratch: &mut Vec<Move<R::Bits>>) -> u64 {
    match bitboard_quiet_count::<R>(pos) {
        Some(n) => n,
        None => {
            generate_quiet::<R>(pos, scratch);
            scratch.len() as u64
        }
    }
}

/// The number of moves [`generate_quiet`] would list, from bitboards: one per free forward
/// step of a man, one per free square a king can slide to (its lines over empty squares).
/// `None` for Constitutional draughts with kings on the board, whose slide rule needs the
/// threatened squares (the caller lists the moves instead). Call only when there is no
/// capture.
#[inline]
pub(crate) fn bitboard_quiet_count<R: Rules>(pos: &Position<R::Bits>) -> Option<u64> {
    let us = pos.side.index();
    let own = pos.pieces[us];
    let empty = !pos.occupied() & board_mask::<R>();
    let men = own & !pos.kings;
    let kings = own & pos.kings & !restricted_king::<R>(pos);
    let mut n = 0u64;
    for d in 0..4 {
        if is_forward(pos.side, d) {
            n += (step::<R>(men, d) & empty).count_ones() as u64;
        }
    }
    if kings.is_empty() {
        return Some(n);
    }
    if R::SHEET.constitutional {
        return None;
    }
    if R::SHEET.flying_kings {
        let mut ks = kings;
        while !ks.is_empty() {
            let k = ks.lowest();
            ks = ks.clear_lowest();
            for d in 0..4 {
                n += (ray::<R>(k, d, empty) & empty).count_ones() as u64;
            }
        }
    } else {
        for d in 0..4 {
            n += (step::<R>(kings, d) & empty).count_ones() as u64;
        }
    }
    Some(n)
}

/// Whether the game is already decided by the position (breakthrough: the opponent has
/// crowned a king).
#[inline(always)]
pub(crate) fn breakthrough_done<R: Rules>(pos: &Position<R::Bits>) -> bool {
    R::SHEET.goal == Goal::FirstKingWins
        && !(pos.pieces[1 - pos.side.index()] & pos.kings).is_empty()
}

/// Fills `out` with every legal move.
pub fn generate<R: Rules>(pos: &Position<R::Bits>, dups: Duplicates, out: &mut Vec<Move<R::Bits>>) {
    generate_captures::<R>(pos, dups, out);
    if out.is_empty() {
        generate_quiet::<R>(pos, out);
    }
}

/// The number of legal moves; `scratch` is used for captures.
pub fn count_moves<R: Rules>(
    pos: &Position<R::Bits>,
    dups: Duplicates,
    scratch: &mut Vec<Move<R::Bits>>,
) -> u64 {
    generate_captures::<R>(pos, dups, scratch);
    if !scratch.is_empty() {
        return scratch.len() as u64;
    }
    count_quiet::<R>(pos, scratch)
}
