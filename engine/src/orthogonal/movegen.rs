//! Move generation for the orthogonal family, monomorphised per rule sheet.
//!
//! Directions are those of [`polydam_tables::orthogonal`] (0 = N, clockwise). A sheet's
//! direction sets are relative to the mover; [`abs_dirs`] turns them into board directions
//! (Black's are White's turned by 180 degrees).
//!
//! Capture sequences are searched depth-first from every piece that can jump. The moving
//! piece's start square counts as empty once it has left (card, note on `turkish`). With
//! immediate removal each captured square joins the empty squares at once; with removal at the
//! end captured pieces keep blocking and can no longer be jumped.

use std::marker::PhantomData;

use polydam_tables::orthogonal::{ascending, nearest, opposite, step, RAYS};

use super::position::{Move, Position};
use super::rules::{Landing, Promotion, Removal, Rules, FIRST_RANK, FWD, FWD_LEFT, FWD_RIGHT};
use crate::game::{Duplicates, Side};

/// Card "First-rank line leap" and Dameo line move: "in direction N, NE or NW".
const LINE_DIRS: u8 = FWD | FWD_RIGHT | FWD_LEFT;

/// The board directions of the relative direction set `rel` for `side`.
#[inline(always)]
pub const fn abs_dirs(rel: u8, side: Side) -> u8 {
    match side {
        Side::White => rel,
        Side::Black => rel.rotate_left(4),
    }
}

/// Lowest set bit of `b` as a mask.
#[inline(always)]
const fn lowest(b: u64) -> u64 {
    b & b.wrapping_neg()
}

/// Squares from which a short leap in one of `dirs` takes a piece of `targets` and lands on
/// `empty`.
#[inline(always)]
fn leap_sources(dirs: u8, targets: u64, empty: u64) -> u64 {
    let mut sources = 0u64;
    let mut ds = dirs;
    while ds != 0 {
        let d = ds.trailing_zeros() as usize;
        ds &= ds - 1;
        let back = opposite(d);
        sources |= step(step(empty, back) & targets, back);
    }
    sources
}

/// The square (as a mask) of the first piece seen from square `sq` in direction `d`, or 0.
#[inline(always)]
fn first_blocker(sq: usize, d: usize, empty: u64) -> u64 {
    let blockers = RAYS[d][sq] & !empty;
    if blockers == 0 {
        0
    } else {
        1u64 << nearest(blockers, d)
    }
}

/// The empty squares seen from square `sq` in direction `d` before the first piece.
#[inline(always)]
fn open_ray(sq: usize, d: usize, empty: u64) -> u64 {
    let ray = RAYS[d][sq];
    let blockers = ray & !empty;
    if blockers == 0 {
        ray
    } else {
        let b = nearest(blockers, d) as usize;
        ray & !(RAYS[d][b] | (1u64 << b))
    }
}

/// Whether a king of the sheet `R` on square `sq` has a first jump over a piece of `targets`.
#[inline(always)]
fn king_can_capture<R: Rules>(sq: usize, targets: u64, empty: u64) -> bool {
    let mut dirs = R::SHEET.king_capture;
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let victim = if R::SHEET.king_capture_flying {
            first_blocker(sq, d, empty)
        } else {
            step(1u64 << sq, d)
        };
        if victim & targets != 0 && step(victim, d) & empty != 0 {
            return true;
        }
    }
    false
}

/// Whether the piece of `side` on `sq` (a king if `king`) could start a capture, with `targets`
/// the enemy pieces and `empty` the empty squares.
#[inline]
fn piece_can_capture<R: Rules>(
    sq: usize,
    king: bool,
    side: Side,
    targets: u64,
    empty: u64,
) -> bool {
    if king {
        king_can_capture::<R>(sq, targets, empty)
    } else {
        leap_sources(abs_dirs(R::SHEET.man_capture, side), targets, empty) & (1u64 << sq) != 0
    }
}

/// Whether the side to move has a capture.
#[inline(always)]
pub fn has_capture<R: Rules>(pos: &Position) -> bool {
    can_capture::<R>(pos, pos.side)
}

/// Whether `side` could capture if it were to move (the side to move, or a threat of the
/// other side).
#[inline(always)]
pub fn can_capture<R: Rules>(pos: &Position, side: Side) -> bool {
    let us = side.index();
    let own = pos.pieces[us];
    let enemy = pos.pieces[1 - us];
    let empty = !(own | enemy);
    let men = own & !pos.kings;
    if men & leap_sources(abs_dirs(R::SHEET.man_capture, side), enemy, empty) != 0 {
        return true;
    }
    let mut ks = own & pos.kings;
    while ks != 0 {
        let k = ks.trailing_zeros() as usize;
        ks &= ks - 1;
        if king_can_capture::<R>(k, enemy, empty) {
            return true;
        }
    }
    false
}

/// One landing of a capture path, as the notation needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathStep {
    /// The landing square (for the first entry: the start square).
    pub sq: u8,
    /// The direction of the jump that landed here (8 for the start).
    pub dir: u8,
    /// Every square the jump could have landed on: a flying king with "any" landing that goes
    /// on along the same line may be said to land on any of them.
    pub run: u64,
}

/// What a capture sequence has done so far.
#[derive(Clone, Copy)]
struct Seq {
    captured: u64,
    count: u32,
    /// Squares a piece may cross or land on now.
    empty: u64,
}

impl Seq {
    #[inline(always)]
    fn take<R: Rules>(self, victim: u64) -> Seq {
        Seq {
            captured: self.captured | victim,
            count: self.count + 1,
            empty: match R::SHEET.removal {
                Removal::Immediate => self.empty | victim,
                Removal::End => self.empty,
            },
        }
    }
}

/// A complete legal capture with one of its paths.
pub type CapturePath = (Move, Vec<PathStep>);

struct CaptureGen<'a, R: Rules, const PATHS: bool> {
    /// Enemy pieces at the start of the move.
    targets: u64,
    /// The mover's promotion zone.
    zone: u64,
    /// Board directions of a man's jumps, and of its jumps after the first.
    man_dirs: u8,
    man_later_dirs: u8,
    from: u8,
    best: u32,
    dups: Duplicates,
    out: &'a mut Vec<Move>,
    path: Vec<PathStep>,
    paths: Vec<CapturePath>,
    _rules: PhantomData<R>,
}

impl<R: Rules, const PATHS: bool> CaptureGen<'_, R, PATHS> {
    #[inline(always)]
    fn push(&mut self, sq: u64, dir: usize, run: u64) {
        if PATHS {
            self.path.push(PathStep {
                sq: sq.trailing_zeros() as u8,
                dir: dir as u8,
                run,
            });
        }
    }

    #[inline(always)]
    fn pop(&mut self) {
        if PATHS {
            self.path.pop();
        }
    }

    /// Records a finished sequence ending on `to`, subject to the majority rule.
    #[inline]
    fn emit(&mut self, to: u64, s: &Seq, crowns: bool) {
        // Card "Majority": the most pieces, men and kings counting one each.
        let key = if R::SHEET.majority { s.count } else { 0 };
        if self.out.is_empty() || key > self.best {
            self.out.clear();
            if PATHS {
                self.paths.clear();
            }
            self.best = key;
        } else if key < self.best {
            return;
        }
        let mv = Move {
            from: self.from,
            to: to.trailing_zeros() as u8,
            crowns,
            captured: s.captured,
        };
        if PATHS {
            self.paths.push((mv, self.path.clone()));
        }
        // Card: "Sequences with the same piece, the same landing square and the same set of
        // captured pieces are one move." A single jump has one path, so only longer sequences
        // are checked. If one path crowned and another did not (possible only in contrived
        // crown-and-continue positions) the move crowns (our choice, see docs/orthogonal.md).
        if self.dups == Duplicates::Drop && s.count >= 2 {
            if let Some(m) = self
                .out
                .iter_mut()
                .find(|m| m.from == mv.from && m.to == mv.to && m.captured == mv.captured)
            {
                m.crowns |= crowns;
                return;
            }
        }
        self.out.push(mv);
    }

    /// Extends a man's sequence from `cur`; returns whether any jump was possible.
    fn man_jumps(&mut self, cur: u64, s: Seq, first: bool) -> bool {
        // Card `armenian-2`: backward only "as 2nd or later jump".
        let mut dirs = self.man_dirs | if first { 0 } else { self.man_later_dirs };
        let mut found = false;
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let victim = step(cur, d) & self.targets & !s.captured;
            if victim == 0 {
                continue;
            }
            let land = step(victim, d) & s.empty;
            if land == 0 {
                continue;
            }
            found = true;
            let next = s.take::<R>(victim);
            self.push(land, d, land);
            if land & self.zone != 0 {
                match R::SHEET.promotion {
                    Promotion::CrownAndStop => {
                        self.emit(land, &next, true);
                        self.pop();
                        continue;
                    }
                    Promotion::CrownAndContinue => {
                        // Card "No 180° turn": "also holds across the crowning".
                        let allowed = if R::SHEET.no_reversal {
                            !(1u8 << opposite(d))
                        } else {
                            0xFF
                        };
                        if !self.king_jumps(land, next, allowed, true) {
                            self.emit(land, &next, true);
                        }
                        self.pop();
                        continue;
                    }
                    Promotion::ContinueAsMan => {}
                }
            }
            if !self.man_jumps(land, next, false) {
                self.emit(land, &next, land & self.zone != 0);
            }
            self.pop();
        }
        found
    }

    /// Extends a king's sequence from `cur` in the board directions of `allowed`; returns
    /// whether any jump was possible. `crowned`: the king was a man when the move began.
    fn king_jumps(&mut self, cur: u64, s: Seq, allowed: u8, crowned: bool) -> bool {
        let mut dirs = R::SHEET.king_capture & allowed;
        let sq = cur.trailing_zeros() as usize;
        let mut found = false;
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let victim = if R::SHEET.king_capture_flying {
                first_blocker(sq, d, s.empty)
            } else {
                step(cur, d)
            };
            if victim & self.targets & !s.captured == 0 {
                continue;
            }
            let first_landing = step(victim, d) & s.empty;
            if first_landing == 0 {
                continue;
            }
            found = true;
            let next = s.take::<R>(victim);
            let back = 1u8 << opposite(d);
            // Going straight back can capture only with immediate removal, and the card forbids
            // it where `no_reversal` holds.
            let reverse_ok = !R::SHEET.no_reversal && R::SHEET.removal == Removal::Immediate;
            if !R::SHEET.king_capture_flying || R::SHEET.landing == Landing::Halt {
                // One landing square: right behind the victim.
                let allowed = if reverse_ok { 0xFF } else { !back };
                self.push(first_landing, d, first_landing);
                if !self.king_jumps(first_landing, next, allowed, crowned) {
                    self.emit(first_landing, &next, crowned);
                }
                self.pop();
                continue;
            }
            // "any": every empty square beyond the victim. Turning is tried from each of them;
            // going on along the same line (straight on, or straight back where allowed) is the
            // same path from all of them, so it is tried once, from the farthest.
            let run = open_ray(victim.trailing_zeros() as usize, d, next.empty);
            let farthest = if ascending(d) {
                1u64 << (63 - run.leading_zeros())
            } else {
                lowest(run)
            };
            let collinear = (1u8 << d) | back;
            let mut continued = false;
            let mut ls = run;
            while ls != 0 {
                let l = lowest(ls);
                ls &= ls - 1;
                let mut turn = !collinear;
                if l == farthest {
                    turn |= 1u8 << d;
                    if reverse_ok {
                        turn |= back;
                    }
                }
                self.push(l, d, run);
                continued |= self.king_jumps(l, next, turn, crowned);
                self.pop();
            }
            // Card: a king that can go on capturing from some landing square must land there.
            if !continued {
                let mut ls = run;
                while ls != 0 {
                    let l = lowest(ls);
                    ls &= ls - 1;
                    self.push(l, d, run);
                    self.emit(l, &next, crowned);
                    self.pop();
                }
            }
        }
        found
    }
}

/// Runs the capture search: fills `out` with the legal captures (majority applied, empty if
/// none) and, with `PATHS`, returns every legal capture path.
fn capture_search<R: Rules, const PATHS: bool>(
    pos: &Position,
    dups: Duplicates,
    out: &mut Vec<Move>,
) -> Vec<CapturePath> {
    out.clear();
    let us = pos.side.index();
    let own = pos.pieces[us];
    let enemy = pos.pieces[1 - us];
    let empty = !(own | enemy);
    let men = own & !pos.kings;
    let man_dirs = abs_dirs(R::SHEET.man_capture, pos.side);
    let mut gen = CaptureGen::<R, PATHS> {
        targets: enemy,
        zone: R::SHEET.zone[us],
        man_dirs,
        man_later_dirs: abs_dirs(R::SHEET.man_capture_later, pos.side),
        from: 0,
        best: 0,
        dups,
        out,
        path: Vec::new(),
        paths: Vec::new(),
        _rules: PhantomData,
    };
    let mut jumpers = men & leap_sources(man_dirs, enemy, empty);
    while jumpers != 0 {
        let m = lowest(jumpers);
        jumpers &= jumpers - 1;
        gen.from = m.trailing_zeros() as u8;
        if PATHS {
            gen.path.clear();
            gen.push(m, 8, m);
        }
        let s = Seq {
            captured: 0,
            count: 0,
            empty: empty | m,
        };
        gen.man_jumps(m, s, true);
    }
    let mut ks = own & pos.kings;
    while ks != 0 {
        let k = lowest(ks);
        ks &= ks - 1;
        gen.from = k.trailing_zeros() as u8;
        if PATHS {
            gen.path.clear();
            gen.push(k, 8, k);
        }
        let s = Seq {
            captured: 0,
            count: 0,
            empty: empty | k,
        };
        gen.king_jumps(k, s, 0xFF, false);
    }
    gen.paths
}

/// Fills `out` with the legal captures (empty if there is none).
#[inline]
pub fn generate_captures<R: Rules>(pos: &Position, dups: Duplicates, out: &mut Vec<Move>) {
    capture_search::<R, false>(pos, dups, out);
}

/// Every legal capture with every one of its paths (for notation).
pub fn capture_paths<R: Rules>(pos: &Position) -> Vec<CapturePath> {
    let mut out = Vec::new();
    capture_search::<R, true>(pos, Duplicates::Keep, &mut out)
}

/// For each man of `men`, walks from it in direction `d` over the squares of `line` and
/// returns (from, landing) when the first square after the line is empty; `need_line`: the
/// line must hold at least one piece.
#[inline]
fn line_moves(
    men: u64,
    line: u64,
    empty: u64,
    d: usize,
    need_line: bool,
    mut f: impl FnMut(u64, u64),
) {
    let mut ms = men;
    while ms != 0 {
        let m = lowest(ms);
        ms &= ms - 1;
        let mut t = step(m, d);
        if need_line && t & line == 0 {
            continue;
        }
        while t & line != 0 {
            t = step(t, d);
        }
        if t & empty != 0 {
            f(m, t);
        }
    }
}

/// The men of `men` whose walk in direction `d` over `line` ends on an empty square (a
/// Kogge-Stone style fill backwards from the empty squares).
#[inline(always)]
fn line_sources(line: u64, empty: u64, d: usize) -> u64 {
    let back = opposite(d);
    let mut x = step(empty, back) & line;
    loop {
        let nx = x | (step(x, back) & line);
        if nx == x {
            return x;
        }
        x = nx;
    }
}

/// Fills `out` with the quiet moves, before any Bahrain filter (call only when there is no
/// capture).
fn quiet_moves<R: Rules>(pos: &Position, out: &mut Vec<Move>) {
    out.clear();
    let us = pos.side.index();
    let own = pos.pieces[us];
    let empty = !pos.occupied();
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    let zone = R::SHEET.zone[us];
    let mut push = |from: u64, to: u64, crowns: bool| {
        out.push(Move {
            from: from.trailing_zeros() as u8,
            to: to.trailing_zeros() as u8,
            crowns,
            captured: 0,
        })
    };
    let mut dirs = abs_dirs(R::SHEET.man_step, pos.side);
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        if R::SHEET.dameo_line {
            // Card note on `dameo`: the rear man of an unbroken line of men leaps to the empty
            // square in front of it; a single man is a line of one (the plain step).
            line_moves(men, men, empty, d, false, |m, t| push(m, t, t & zone != 0));
        } else {
            let back = opposite(d);
            let mut targets = step(men, d) & empty;
            while targets != 0 {
                let t = lowest(targets);
                targets &= targets - 1;
                push(step(t, back), t, t & zone != 0);
            }
        }
    }
    if R::SHEET.first_rank_leap {
        // Card "First-rank line leap": over one or more friendly pieces (kings allowed), to
        // the first square beyond, which must be empty.
        let leapers = men & FIRST_RANK[us];
        let mut dirs = abs_dirs(LINE_DIRS, pos.side);
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            line_moves(leapers, own, empty, d, true, |m, t| {
                push(m, t, t & zone != 0)
            });
        }
    }
    let mut ks = kings;
    while ks != 0 {
        let k = lowest(ks);
        ks &= ks - 1;
        let sq = k.trailing_zeros() as usize;
        let mut dirs = R::SHEET.king_move;
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let mut targets = if R::SHEET.king_move_flying {
                open_ray(sq, d, empty)
            } else {
                step(k, d) & empty
            };
            while targets != 0 {
                let t = lowest(targets);
                targets &= targets - 1;
                push(k, t, false);
            }
        }
    }
}

/// The mover's men that an enemy piece could jump as the first jump of a capture if the enemy
/// were to move now (card note on `bahrain`, majority ignored).
pub fn threatened_men<R: Rules>(pos: &Position) -> u64 {
    let us = pos.side.index();
    let them = pos.side.opponent();
    let our_men = pos.pieces[us] & !pos.kings;
    let their = pos.pieces[them.index()];
    let empty = !pos.occupied();
    let mut threatened = 0u64;
    let mut dirs = abs_dirs(R::SHEET.man_capture, them);
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        threatened |= step(their & !pos.kings, d) & our_men & step(empty, opposite(d));
    }
    let mut ks = their & pos.kings;
    while ks != 0 {
        let sq = ks.trailing_zeros() as usize;
        ks &= ks - 1;
        let mut dirs = R::SHEET.king_capture;
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let victim = if R::SHEET.king_capture_flying {
                first_blocker(sq, d, empty)
            } else {
                step(1u64 << sq, d)
            };
            if victim & our_men != 0 && step(victim, d) & empty != 0 {
                threatened |= victim;
            }
        }
    }
    threatened
}

/// Card note on `bahrain`: with a man of ours threatened, a quiet move of another man that
/// leaves it able to capture is illegal; if that leaves no move, the unfiltered moves stand
/// (our choice).
fn bahrain_filter<R: Rules>(pos: &Position, moves: &mut Vec<Move>) {
    let threatened = threatened_men::<R>(pos);
    if threatened == 0 {
        return;
    }
    let us = pos.side.index();
    let enemy = pos.pieces[1 - us];
    let allowed = |m: &Move| {
        let from = 1u64 << m.from;
        if pos.kings & from != 0 || threatened & from != 0 {
            return true;
        }
        let own = (pos.pieces[us] & !from) | (1u64 << m.to);
        let empty = !(own | enemy);
        !piece_can_capture::<R>(m.to as usize, m.crowns, pos.side, enemy, empty)
    };
    if moves.iter().any(allowed) {
        moves.retain(allowed);
    }
}

/// Fills `out` with the quiet moves (call only when there is no capture).
pub fn generate_quiet<R: Rules>(pos: &Position, out: &mut Vec<Move>) {
    quiet_moves::<R>(pos, out);
    if R::SHEET.bahrain {
        bahrain_filter::<R>(pos, out);
    }
}

/// The number of quiet moves, counted without listing them where the sheet allows (bulk
/// counting at perft's last ply).
fn count_quiet<R: Rules>(pos: &Position, scratch: &mut Vec<Move>) -> u64 {
    if R::SHEET.bahrain {
        generate_quiet::<R>(pos, scratch);
        return scratch.len() as u64;
    }
    let us = pos.side.index();
    let own = pos.pieces[us];
    let empty = !pos.occupied();
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    let mut n = 0u32;
    let mut dirs = abs_dirs(R::SHEET.man_step, pos.side);
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        n += if R::SHEET.dameo_line {
            (line_sources(men, empty, d) & men).count_ones()
        } else {
            (step(men, d) & empty).count_ones()
        };
    }
    if R::SHEET.first_rank_leap {
        let leapers = men & FIRST_RANK[us];
        if leapers != 0 {
            let mut dirs = abs_dirs(LINE_DIRS, pos.side);
            while dirs != 0 {
                let d = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                // A leaper's neighbour in `d` must start a line of own pieces that ends on an
                // empty square.
                n += (step(line_sources(own, empty, d), opposite(d)) & leapers).count_ones();
            }
        }
    }
    if kings != 0 {
        if R::SHEET.king_move_flying {
            let mut ks = kings;
            while ks != 0 {
                let sq = ks.trailing_zeros() as usize;
                ks &= ks - 1;
                let mut dirs = R::SHEET.king_move;
                while dirs != 0 {
                    let d = dirs.trailing_zeros() as usize;
                    dirs &= dirs - 1;
                    n += open_ray(sq, d, empty).count_ones();
                }
            }
        } else {
            let mut dirs = R::SHEET.king_move;
            while dirs != 0 {
                let d = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                n += (step(kings, d) & empty).count_ones();
            }
        }
    }
    n as u64
}

/// Whether the side to move has any legal move (captures, or a quiet move; the Bahrain filter
/// never removes every move).
pub fn has_move<R: Rules>(pos: &Position) -> bool {
    if has_capture::<R>(pos) {
        return true;
    }
    let us = pos.side.index();
    let own = pos.pieces[us];
    let empty = !pos.occupied();
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    let mut dirs = abs_dirs(R::SHEET.man_step, pos.side);
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let movable = if R::SHEET.dameo_line {
            line_sources(men, empty, d)
        } else {
            step(men, d) & empty
        };
        if movable != 0 {
            return true;
        }
    }
    let mut dirs = R::SHEET.king_move;
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        if step(kings, d) & empty != 0 {
            return true;
        }
    }
    if R::SHEET.first_rank_leap {
        let mut scratch = Vec::new();
        quiet_moves::<R>(pos, &mut scratch);
        return !scratch.is_empty();
    }
    false
}

/// Whether the position is an immediate draw (card "Game end": each side with exactly one
/// piece, in Turkish and the variants "as Turkish").
#[inline(always)]
pub fn one_piece_draw<R: Rules>(pos: &Position) -> bool {
    R::SHEET.one_piece_draw && pos.pieces[0].count_ones() == 1 && pos.pieces[1].count_ones() == 1
}

/// Fills `out` with every legal move.
pub fn generate<R: Rules>(pos: &Position, dups: Duplicates, out: &mut Vec<Move>) {
    // The bitboard test is much cheaper than starting the capture search, and a first jump
    // always yields at least one capture sequence.
    if has_capture::<R>(pos) {
        generate_captures::<R>(pos, dups, out);
    } else {
        generate_quiet::<R>(pos, out);
    }
}

/// The number of legal moves; `scratch` is used for captures.
#[inline]
pub fn count_moves<R: Rules>(pos: &Position, dups: Duplicates, scratch: &mut Vec<Move>) -> u64 {
    if has_capture::<R>(pos) {
        generate_captures::<R>(pos, dups, scratch);
        return scratch.len() as u64;
    }
    count_quiet::<R>(pos, scratch)
}
