//! Evaluation of diagonal-family positions, 8x8 and 10x10, and the cheap bitboard tests the
//! search asks for (can a side capture, can it move).
//!
//! Everything is computed with whole-board bitboard operations and popcounts on masks built at
//! compile time, so an evaluation costs a few dozen instructions; the only loops are over kings
//! (mobility) and over advanced men (runaways). All weights live in [`Weights`], one constant per
//! kind of variant, so that they can be tuned in one place.
//!
//! Conventions: "advancement" of a man is the number of rows it stands in front of its own back
//! row; White's men move towards internal row 0. Every feature is computed for both sides with
//! mirrored masks and subtracted, so the evaluation is colour-symmetric by construction.

use polydam_tables::diagonal::{Geometry, EIGHT, TEN, TWELVE};

use super::bits::Bits;
use super::learned::learned;
use super::movegen::{
    board_mask, is_forward, kings_can_capture, men_with_first_jump, ray, restricted_king, step,
};
use super::position::Position;
use super::rules::{Goal, Rules};
use crate::game::Side;
use crate::learn::weights::Base;

mod weights;

pub use weights::{
    king_value_percent, lone_king_holds_against, main_road_decides, weights, Weights, ANTIDRAUGHTS,
    BREAKTHROUGH, EIGHT_FLYING, EIGHT_SHORT, FRISIAN, TEN_FLYING, THAI, TWELVE_FLYING,
};

/// Masks of one board, built at compile time (as `u128`: the word of a narrower board reads
/// their low bits). Side-relative masks are indexed by [`Side::index`].
struct Masks {
    /// `[side][a]`: the row `a` rows in front of the side's back row.
    advance_row: [[u128; 12]; 2],
    /// The central squares (the same for both sides).
    centre: u128,
    /// `[side]`: the rows of the opponent's half, where a man may be a runaway.
    advanced: [u128; 2],
    /// `[side][bit]`: the rows a man of `side` on `bit` still has to go.
    to_go: [[u8; 128]; 2],
    /// The long diagonal from the bottom-left corner to the top-right one (a1-h8 on 8x8).
    main_road: u128,
}

const fn advance_row_of(g: Geometry, side: usize, a: u32) -> u128 {
    if a >= g.rows {
        return 0;
    }
    if side == 0 {
        g.wide_row_mask(g.rows - 1 - a)
    } else {
        g.wide_row_mask(a)
    }
}

const fn build_masks(g: Geometry) -> Masks {
    let mut advance_row = [[0u128; 12]; 2];
    let mut a = 0;
    while a < 12 {
        advance_row[0][a] = advance_row_of(g, 0, a as u32);
        advance_row[1][a] = advance_row_of(g, 1, a as u32);
        a += 1;
    }
    let width = 2 * g.half;
    let mut centre = 0u128;
    let mut main_road = 0u128;
    let mut s = 0;
    while s < g.squares() {
        let (r, f) = g.row_file(s);
        let bit = g.bit_index(s) as usize;
        let b = 1u128 << bit;
        if (r == g.rows / 2 - 1 || r == g.rows / 2) && f >= 2 && f + 3 <= width {
            centre |= b;
        }
        if r + f == g.rows - 1 {
            main_road |= b;
        }
        s += 1;
    }
    let mut advanced = [0u128; 2];
    let mut to_go = [[0u8; 128]; 2];
    let mut a = g.rows / 2;
    while a < g.rows - 1 {
        advanced[0] |= advance_row_of(g, 0, a);
        advanced[1] |= advance_row_of(g, 1, a);
        a += 1;
    }
    let mut s = 0;
    while s < g.squares() {
        let (r, _) = g.row_file(s);
        let bit = g.bit_index(s) as usize;
        to_go[0][bit] = r as u8;
        to_go[1][bit] = (g.rows - 1 - r) as u8;
        s += 1;
    }
    Masks {
        advance_row,
        centre,
        advanced,
        to_go,
        main_road,
    }
}

static TEN_MASKS: Masks = build_masks(TEN);
static EIGHT_MASKS: Masks = build_masks(EIGHT);
static TWELVE_MASKS: Masks = build_masks(TWELVE);

#[inline(always)]
fn masks<R: Rules>() -> &'static Masks {
    if R::SHEET.board.half == TEN.half {
        &TEN_MASKS
    } else if R::SHEET.board.half == TWELVE.half {
        &TWELVE_MASKS
    } else {
        &EIGHT_MASKS
    }
}

/// Whether `side` would have a capture if it were its turn (bitboards only, no move list).
#[inline]
pub fn can_capture<R: Rules>(pos: &Position<R::Bits>, side: Side) -> bool {
    let us = side.index();
    let own = pos.pieces[us];
    let enemy = pos.pieces[1 - us];
    let empty = !(own | enemy) & board_mask::<R>();
    let men = own & !pos.kings;
    let man_targets = if R::SHEET.men_capture_kings {
        enemy
    } else {
        enemy & !pos.kings
    };
    if !men_with_first_jump::<R>(side, men, man_targets, empty).is_empty() {
        return true;
    }
    let kings = own & pos.kings;
    !kings.is_empty() && kings_can_capture::<R>(kings, enemy, empty)
}

/// Whether the side to move has any legal move (bitboards only).
#[inline]
pub fn can_move<R: Rules>(pos: &Position<R::Bits>) -> bool {
    let us = pos.side.index();
    let own = pos.pieces[us];
    let empty = !pos.occupied() & board_mask::<R>();
    let men = own & !pos.kings;
    // Frisian: a king after three successive quiet moves may only capture.
    let kings = own & pos.kings & !restricted_king::<R>(pos);
    for d in 0..4 {
        let movers = if is_forward(pos.side, d) {
            men | kings
        } else {
            kings
        };
        // One step is always legal when the square is free (Constitutional restricts only
        // slides past a threatened square).
        if !(step::<R>(movers, d) & empty).is_empty() {
            return true;
        }
    }
    can_capture::<R>(pos, pos.side)
}

/// Per-square tables of one kind of variant, built at compile time from its [`Weights`].
///
/// Each entry packs a man's four terms (middle-game value, endgame value, left/right balance,
/// count) in 16-bit fields, see [`Packed4`]. [`Position::men_terms`] holds each side's sum of
/// them, kept up to date move by move by [`super::position::play`]: an evaluation then reads
/// the men's material, advancement and centre in one load per side instead of a lookup per man
/// (or per row).
pub(crate) struct Tables {
    /// `[side][bit]`: the packed terms of a man of `side` on `bit`.
    square: [[i64; 128]; 2],
}

/// Four signed 16-bit fields in one `i64`, summed with plain additions as long as every field's
/// total fits in 16 bits: middle-game value, endgame value, left/right balance, count of men.
struct Packed4;

impl Packed4 {
    const fn pack(mid: i32, end: i32, balance: i32, count: i32) -> i64 {
        mid as i64 + ((end as i64) << 16) + ((balance as i64) << 32) + ((count as i64) << 48)
    }

    #[inline(always)]
    fn unpack(v: i64) -> [i32; 4] {
        let a = v as i16 as i64;
        let v = (v - a) >> 16;
        let b = v as i16 as i64;
        let v = (v - b) >> 16;
        let c = v as i16 as i64;
        let v = (v - c) >> 16;
        [a as i32, b as i32, c as i32, v as i16 as i32]
    }
}

/// `mid` and `end` packed in one `i32`, so that one addition updates both.
const fn pack(mid: i32, end: i32) -> i32 {
    mid + (end << 16)
}

#[inline(always)]
fn unpack(packed: i32) -> (i32, i32) {
    let mid = packed as i16 as i32;
    let end = (packed - mid) >> 16;
    (mid, end)
}

const fn build_tables(g: Geometry, w: &Weights) -> Tables {
    let m = build_masks(g);
    // Per-square values first.
    let mut square = [[0i64; 128]; 2];
    let width = 2 * g.half;
    let mut s = 0;
    while s < g.squares() {
        let (r, f) = g.row_file(s);
        let bit = g.bit_index(s) as usize;
        let centre = if m.centre & (1u128 << bit) != 0 {
            w.centre
        } else {
            0
        };
        // The file's signed distance from the middle, negative on the left.
        let balance = if f < width / 2 {
            -((width / 2 - f).div_ceil(2) as i32)
        } else {
            ((f - width / 2 + 2) / 2) as i32
        };
        let mut side = 0;
        while side < 2 {
            let a = if side == 0 { g.rows - 1 - r } else { r } as usize;
            let mid = w.man + w.advance[a] + centre;
            let end = w.man + w.advance_endgame[a];
            square[side][bit] = Packed4::pack(mid, end, balance, 1);
            side += 1;
        }
        s += 1;
    }
    Tables { square }
}

static TEN_FLYING_TABLES: Tables = build_tables(TEN, &TEN_FLYING);
static EIGHT_FLYING_TABLES: Tables = build_tables(EIGHT, &EIGHT_FLYING);
static EIGHT_SHORT_TABLES: Tables = build_tables(EIGHT, &EIGHT_SHORT);
static BREAKTHROUGH_TABLES: Tables = build_tables(TEN, &BREAKTHROUGH);
static ANTIDRAUGHTS_TABLES: Tables = build_tables(TEN, &ANTIDRAUGHTS);
static TWELVE_FLYING_TABLES: Tables = build_tables(TWELVE, &TWELVE_FLYING);
static FRISIAN_TABLES: Tables = build_tables(TEN, &FRISIAN);
static THAI_TABLES: Tables = build_tables(EIGHT, &THAI);

/// The per-square tables the variant `R` is evaluated with.
#[inline(always)]
pub(crate) fn tables<R: Rules>() -> &'static Tables {
    match R::SHEET.goal {
        Goal::NoMoveWins => &ANTIDRAUGHTS_TABLES,
        Goal::FirstKingWins => &BREAKTHROUGH_TABLES,
        Goal::Normal => {
            if R::SHEET.orthogonal_captures {
                &FRISIAN_TABLES
            } else if R::SHEET.board.half == TEN.half {
                &TEN_FLYING_TABLES
            } else if R::SHEET.board.half == TWELVE.half {
                &TWELVE_FLYING_TABLES
            } else if R::SHEET.king_lands_behind {
                &THAI_TABLES
            } else if R::SHEET.flying_kings {
                &EIGHT_FLYING_TABLES
            } else {
                &EIGHT_SHORT_TABLES
            }
        }
    }
}

/// One side's terms: packed mid/end score, and the piece counts the caller needs.
struct SideTerms {
    packed: i32,
    men: i32,
    kings: i32,
    /// Squares the side's kings can move to, summed (counted only where a term uses it).
    king_room: i32,
}

/// The packed terms of a man of `side` (by index) on `bit`, for [`super::position::play`].
#[inline(always)]
pub(crate) fn man_square_terms(t: &Tables, side: usize, bit: u32) -> i64 {
    t.square[side][bit as usize]
}

/// Both sides' [`Position::men_terms`] computed from scratch.
pub(crate) fn men_terms_from_scratch<R: Rules>(pos: &Position<R::Bits>) -> [i64; 2] {
    let t = tables::<R>();
    let mut sums = [0i64; 2];
    for (side, sum) in sums.iter_mut().enumerate() {
        let mut men = pos.pieces[side] & !pos.kings;
        while !men.is_empty() {
            *sum += t.square[side][men.trailing_zeros() as usize];
            men = men.clear_lowest();
        }
    }
    sums
}

#[inline(always)]
fn side_terms<R: Rules>(
    pos: &Position<R::Bits>,
    side: Side,
    w: &Weights,
    m: &Masks,
    men_packed: i32,
    balance: i32,
    n_men: i32,
) -> SideTerms {
    let s = side.index();
    let own = pos.pieces[s];
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    let enemy_kings = pos.pieces[1 - s] & pos.kings;
    let empty = !pos.occupied() & board_mask::<R>();

    // Material, advancement and centre come from the tables; a side with all its men on one
    // wing gets squeezed.
    let mut packed = men_packed - pack(balance.abs() * w.balance, 0);

    if enemy_kings.is_empty() && w.back_guard != 0 {
        let guards = (men & R::Bits::from_wide(m.advance_row[s][0])).count_ones() as i32;
        packed += pack(guards * w.back_guard, 0);
    }

    // Men mobility: free forward steps (a side that runs out of moves loses).
    if w.mobility != 0 {
        let mut steps = R::Bits::ZERO;
        for d in 0..4 {
            if is_forward(side, d) {
                steps |= step::<R>(men, d) & empty;
            }
        }
        let n = steps.count_ones() as i32 * w.mobility;
        packed += pack(n, n);
    }

    // Kings: value and mobility along their diagonals.
    let mut n_kings = 0;
    let mut king_room = 0;
    let mut k = kings;
    while !k.is_empty() {
        let b = k.lowest();
        k = k.clear_lowest();
        n_kings += 1;
        let mut squares = R::Bits::ZERO;
        // Both constant per variant: the mobility weight, and the lone-king term of
        // `evaluate`, which reads the room.
        if w.king_mobility != 0 || lone_king_holds_against(&R::SHEET) > 0 {
            for d in 0..4 {
                squares |= ray::<R>(b, d, empty) & empty;
            }
        }
        let room = squares.count_ones() as i32;
        king_room += room;
        let v = king_value::<R>(w) + room * w.king_mobility;
        packed += pack(v, v);
    }

    // Runaways: a man whose forward triangle is empty reaches the far row unless an enemy
    // king can catch it.
    if enemy_kings.is_empty() {
        let advanced = R::Bits::from_wide(m.advanced[s]);
        let mut c = runaways::<R>(side, men & advanced, pos.occupied());
        while !c.is_empty() {
            let i = c.trailing_zeros() as usize;
            c = c.clear_lowest();
            let v = w.runaway[m.to_go[s][i] as usize];
            packed += pack(v, v);
        }
    }
    SideTerms {
        packed,
        men: n_men,
        kings: n_kings,
        king_room,
    }
}

/// The men of `candidates` (men of `side` in the opponent's half) whose forward triangle, up to
/// the far row, holds none of `occupied`.
///
/// Computed for all of them at once: the squares behind each piece, within its backward
/// triangle, are filled row by row (as far back as a triangle from the opponent's half can
/// reach), and a man on one of them has that piece in its forward triangle. Every square of a
/// triangle is reached by diagonal steps that stay inside it, so the fill is exact.
#[inline(always)]
fn runaways<R: Rules>(side: Side, candidates: R::Bits, occupied: R::Bits) -> R::Bits {
    if candidates.is_empty() {
        return R::Bits::ZERO;
    }
    let mut wave = occupied;
    let mut shadow = R::Bits::ZERO;
    for _ in 0..R::SHEET.board.rows / 2 - 1 {
        let mut behind = R::Bits::ZERO;
        for d in 0..4 {
            if !is_forward(side, d) {
                behind |= step::<R>(wave, d);
            }
        }
        // Masked at every row: a step off the edge lands on a ghost bit, which must not step
        // on to a real square.
        wave = behind & board_mask::<R>();
        shadow |= wave;
    }
    candidates & !shadow
}

/// Whether a king of `side` stands on the main road.
#[inline(always)]
fn on_main_road<R: Rules>(pos: &Position<R::Bits>, side: Side, m: &Masks) -> bool {
    let road = R::Bits::from_wide(m.main_road);
    !(pos.pieces[side.index()] & pos.kings & road).is_empty()
}

/// Bonus for a won kings-only ending against a lone king: a clear advantage, so that trading
/// into it is welcome.
const LONE_KING_WIN: i32 = 300;
/// Its reduction per square the lone king can move to (the attacker hems it in first).
const LONE_KING_ROOM: i32 = 4;

/// `w.king` scaled for `R`'s rules by [`king_value_percent`] (a constant per variant).
#[inline(always)]
fn king_value<R: Rules>(w: &Weights) -> i32 {
    w.king * king_value_percent(&R::SHEET) / 100
}

/// Static evaluation from the side to move's view, in hundredths of a man: the variant's
/// learned weights (see [`super::learned`]) on their base, or the hand evaluation alone.
#[inline]
pub fn evaluate<R: Rules>(pos: &Position<R::Bits>) -> i32 {
    match learned::<R>() {
        None => hand_evaluate::<R>(pos),
        Some(l) => {
            let base = match l.base() {
                Base::Hand => hand_evaluate::<R>(pos),
                Base::None => 0,
            };
            base + l.evaluate(R::SHEET.board, pos)
        }
    }
}

/// The hand-written evaluation from the side to move's view, in hundredths of a man (the
/// base of learned weights trained with `--base hand`).
pub fn hand_evaluate<R: Rules>(pos: &Position<R::Bits>) -> i32 {
    let w = weights::<R>();
    let m = masks::<R>();
    let s = pos.side.index();
    let [mid, end, bal, n] = Packed4::unpack(pos.men_terms[s]);
    let us = side_terms::<R>(pos, pos.side, w, m, pack(mid, end), bal, n);
    let [mid, end, bal, n] = Packed4::unpack(pos.men_terms[1 - s]);
    let them = side_terms::<R>(pos, pos.side.opponent(), w, m, pack(mid, end), bal, n);

    // Taper between the middle-game and endgame values by the men left on the board.
    let g = R::SHEET.board;
    let start_men = (2 * g.half * (g.rows / 2 - 1)) as i32;
    let phase = (us.men + them.men).min(start_men);
    let (mid, end) = unpack(us.packed - them.packed);
    let mut score = (mid * phase + end * (start_men - phase)) / start_men;

    if R::SHEET.goal == Goal::Normal {
        // Trading down when ahead: the same advantage is worth more with less material left
        // (`exchange` percent more once everything is gone).
        let king = king_value::<R>(w);
        let mat_us = us.men * w.man + us.kings * king;
        let mat_them = them.men * w.man + them.kings * king;
        let diff = mat_us - mat_them;
        let start = start_men * w.man;
        let gone = (start - (mat_us + mat_them).min(start)).max(0);
        score += diff * w.exchange / 100 * gone / start;

        // Few pieces against a king rarely win with flying kings: shrink the advantage. How
        // few depends on the rules (see `lone_king_holds_against`); above the limit, a
        // kings-only ending against a lone king is a win, and the defender's room to move is
        // what the attacker must take away.
        let limit = lone_king_holds_against(&R::SHEET);
        if limit > 0 && diff != 0 {
            let (strong, weak) = if diff > 0 { (&us, &them) } else { (&them, &us) };
            let strong_side = if diff > 0 {
                pos.side
            } else {
                pos.side.opponent()
            };
            // On 8x8 a lone king loses to three once an attacking king stands on the main road.
            let road_lost = main_road_decides(&R::SHEET)
                && weak.kings == 1
                && weak.men == 0
                && strong.men + strong.kings == limit
                && on_main_road::<R>(pos, strong_side, m);
            if weak.kings > 0 && strong.men + strong.kings <= limit && !road_lost {
                score /= 8;
            } else if weak.kings == 1 && weak.men == 0 && strong.men == 0 {
                let sign = if diff > 0 { 1 } else { -1 };
                score += sign * (LONE_KING_WIN - LONE_KING_ROOM * weak.king_room);
            }
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagonal::patterns::Windows;
    use crate::diagonal::rules::*;
    use crate::diagonal::{learned, Diagonal, Move, Setup};
    use crate::game::{Duplicates, Game};

    /// `p` with the board turned, the colours swapped and the other side to move.
    fn mirrored<R: Rules>(p: &Position<R::Bits>) -> Position<R::Bits> {
        let squares = R::SHEET.board.squares();
        let mut setup = Setup::new(p.side_to_move().opponent());
        for (s, owner, king) in p.to_setup::<R>().pieces {
            setup.pieces.push((squares - 1 - s, owner.opponent(), king));
        }
        Position::from_setup::<R>(setup).expect("the mirror image of a valid position")
    }

    fn check_symmetry<R: Rules>(fens: &[&str]) {
        for fen in fens {
            let p = Diagonal::<R>::parse_position(fen).expect("test position");
            let q = mirrored::<R>(&p);
            assert_eq!(evaluate::<R>(&p), evaluate::<R>(&q), "{fen}");
        }
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        check_symmetry::<International>(&[
            "W:W31-50:B1-20",
            "B:W28,32,33,34,K45:B3,12,13,K17,19",
            "W:W6,K30:B44,45",
        ]);
        check_symmetry::<Russian>(&[
            "W:W21-32:B1-12",
            "B:WK5,22,25:B10,K27",
            "W:WK29,K30,K31:BK21",
            "B:WK21:BK29,K30,K31",
            "W:WK4:BK30,K31,K32",
        ]);
        check_symmetry::<English>(&["B:W21-32:B1-12", "W:WK5,22:B10,K27,26"]);
        check_symmetry::<Canadian>(&["W:W43-72:B1-30", "B:WK5,40,45:B10,K27,33"]);
        check_symmetry::<Frisian>(&["W:W31-50:B1-20", "B:W28,32,33,34,K45:B3,12,13,K17,19"]);
        check_symmetry::<Thai>(&["W:W25-32:B1-8", "B:WK5,22,25:B10,K27"]);
    }

    /// Plays a fixed pseudo-random game of `R` from the start for at most `plies` moves,
    /// handing `check` every position reached with its legal moves.
    fn random_game<R: Rules>(
        mut seed: u64,
        plies: usize,
        mut check: impl FnMut(&Position<R::Bits>, &[Move<R::Bits>]),
    ) {
        let mut pos = Diagonal::<R>::start();
        let mut moves = Vec::new();
        for _ in 0..plies {
            Diagonal::<R>::generate(&pos, Duplicates::Drop, &mut moves);
            check(&pos, &moves);
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = moves[(seed >> 33) as usize % moves.len()];
            pos = Diagonal::<R>::play(&pos, &mv);
        }
    }

    fn check_bitboard_tests<R: Rules>() {
        for seed in [12345, 777, 31337] {
            random_game::<R>(seed, 300, |pos, moves| {
                assert_eq!(can_move::<R>(pos), !moves.is_empty(), "{}", R::NAME);
                let caps = moves.first().is_some_and(|m| !m.captured.is_empty());
                assert_eq!(can_capture::<R>(pos, pos.side), caps, "{}", R::NAME);
            });
        }
    }

    #[test]
    fn bitboard_tests_agree_with_the_generator() {
        check_bitboard_tests::<International>();
        check_bitboard_tests::<Frisian>();
        check_bitboard_tests::<Frysk>();
        check_bitboard_tests::<Thai>();
        check_bitboard_tests::<Canadian>();
    }

    /// Checks the men's terms kept by `play` against a recount after every move of a
    /// pseudo-random game of `R` (and the key against its own recount).
    fn check_quiet_move_count<R: Rules>() {
        let mut with_kings = 0;
        for seed in 1..=200 {
            random_game::<R>(seed, 300, |pos, moves| {
                let counted = Diagonal::<R>::quiet_move_count(pos);
                let captures = moves.first().is_some_and(|m| !m.captured.is_empty());
                let kings = !(pos.pieces[pos.side.index()] & pos.kings).is_empty();
                with_kings += usize::from(kings && !captures);
                if captures {
                    assert_eq!(counted, None, "{}: a capture, yet counted", R::NAME);
                } else if R::SHEET.constitutional && kings {
                    assert_eq!(counted, None, "{}: a slide rule to apply", R::NAME);
                } else {
                    assert_eq!(counted, Some(moves.len()), "{}", R::NAME);
                }
            });
        }
        // The kings' slides were counted too, not only men's steps.
        assert!(
            with_kings > 100,
            "{}: {with_kings} positions with kings",
            R::NAME
        );
    }

    #[test]
    fn quiet_move_count_matches_the_generator() {
        check_quiet_move_count::<International>();
        check_quiet_move_count::<Russian>();
        check_quiet_move_count::<English>();
        check_quiet_move_count::<Constitutional>();
        check_quiet_move_count::<Antidraughts>();
        check_quiet_move_count::<Frisian>();
        check_quiet_move_count::<Frysk>();
        check_quiet_move_count::<Thai>();
        check_quiet_move_count::<Canadian>();
    }

    fn check_incremental_terms<R: Rules>() {
        random_game::<R>(2024, 300, |pos, _| {
            assert_eq!(
                pos.men_terms,
                men_terms_from_scratch::<R>(pos),
                "{}",
                R::NAME
            );
            assert_eq!(pos.hash, pos.compute_hash(), "{}", R::NAME);
            let windows = Windows::<R::Bits>::of(R::SHEET.board);
            assert_eq!(pos.windows, windows.from_scratch(pos), "{}", R::NAME);
            let mut features = Vec::new();
            learned::active_features::<R>(pos, |i| features.push(i));
            assert_eq!(
                features,
                pattern_features_by_coordinates::<R>(pos),
                "{}",
                R::NAME
            );
            // Colour symmetry over the whole game, learned weights included: the twin with
            // the board turned, the colours swapped and the other side to move scores the
            // same for its side to move (so the negation from White's point of view).
            // (Breakthrough ends at the first king: a position with one has no valid twin.)
            if R::SHEET.goal != Goal::FirstKingWins || pos.kings.is_empty() {
                let twin = mirrored::<R>(pos);
                assert_eq!(evaluate::<R>(pos), evaluate::<R>(&twin), "{}", R::NAME);
            }
        });
    }

    /// The `diagonal-patterns-v1` features of `pos` recomputed from the pieces' rows and
    /// files, independently of the window tables and the incremental states.
    fn pattern_features_by_coordinates<R: Rules>(pos: &Position<R::Bits>) -> Vec<usize> {
        let g = R::SHEET.board;
        let l = learned::PatternLayout::of(g);
        let n = (g.rows / 2 - 1) as usize;
        let us = pos.side_to_move();
        let mut states = vec![0usize; n * n];
        let mut counts = [0u32; 4];
        for (s, owner, king) in pos.to_setup::<R>().pieces {
            let own = owner == us;
            counts[usize::from(!own) + 2 * usize::from(king)] += 1;
            if king {
                continue;
            }
            // The side to move's view: Black's board is turned half a turn.
            let s = if us == Side::White {
                s
            } else {
                g.squares() - 1 - s
            };
            let (row, file) = g.row_file(s);
            let (row, file) = (row as usize, file as usize);
            for wr in 0..n {
                for wc in 0..n {
                    if row < 2 * wr || row >= 2 * wr + 4 || file < 2 * wc || file >= 2 * wc + 4 {
                        continue;
                    }
                    // The square's place among the window's dark squares, row by row.
                    let k = 2 * (row - 2 * wr) + (file - 2 * wc) / 2;
                    states[wr * n + wc] += if own { 1 } else { 2 } * 3usize.pow(k as u32);
                }
            }
        }
        let phase = l.phase(counts[0] + counts[1]);
        let mut out: Vec<usize> = (0..n * n).map(|w| l.window(phase, w, states[w])).collect();
        out.push(l.bias());
        out.extend(counts.iter().enumerate().map(|(g, &c)| l.count(g, c)));
        out
    }

    #[test]
    fn incremental_men_terms_and_windows_match_a_recount() {
        // One variant per evaluation table (and both board sizes, crowning mid-capture).
        check_incremental_terms::<International>();
        check_incremental_terms::<Russian>();
        check_incremental_terms::<English>();
        check_incremental_terms::<Antidraughts>();
        check_incremental_terms::<Breakthrough>();
        check_incremental_terms::<Constitutional>();
        // Every other variant (all have shipped weights).
        check_incremental_terms::<Killer>();
        check_incremental_terms::<Brazilian>();
        check_incremental_terms::<Pool>();
        check_incremental_terms::<Italian>();
        check_incremental_terms::<Spanish>();
        check_incremental_terms::<Czech>();
        check_incremental_terms::<Dbc>();
        check_incremental_terms::<DbcKiller>();
        check_incremental_terms::<DbcKillerLight>();
        check_incremental_terms::<DbcHalt>();
        check_incremental_terms::<DbcHalt2>();
        // The new boards and rules: 12x12's 25 windows, Frisian's counters in the key.
        check_incremental_terms::<Canadian>();
        check_incremental_terms::<Frisian>();
        check_incremental_terms::<Frysk>();
        check_incremental_terms::<Thai>();
        // The 21 variants checked above are the ones with shipped weights.
        assert_eq!(
            crate::learn::source::shipped_of_family("diagonal").len(),
            21
        );
    }

    /// The forward triangle of a man of `side` on square `s`, by coordinates.
    fn cone(g: Geometry, side: usize, s: usize) -> u128 {
        let (r, f) = g.row_file(s);
        let mut cone = 0;
        for t in 0..g.squares() {
            let (r2, f2) = g.row_file(t);
            let ahead = if side == 0 { r2 < r } else { r2 > r };
            if ahead && f2.abs_diff(f) <= r.abs_diff(r2) {
                cone |= g.wide_bit_of_square(t);
            }
        }
        cone
    }

    fn check_runaways<R: Rules>() {
        let g = R::SHEET.board;
        let m = masks::<R>();
        let mut seed = 99u64;
        for _ in 0..2000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // About a third of the squares occupied.
            let mut occupied = 0u128;
            let mut x = seed;
            for s in 0..g.squares() {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                if (x >> 60) < 5 {
                    occupied |= g.wide_bit_of_square(s);
                }
            }
            for (side, colour) in [Side::White, Side::Black].into_iter().enumerate() {
                let candidates = occupied & m.advanced[side];
                let mut expected = 0u128;
                for s in 0..g.squares() {
                    let b = g.wide_bit_of_square(s);
                    if candidates & b != 0 && cone(g, side, s) & occupied == 0 {
                        expected |= b;
                    }
                }
                let got = runaways::<R>(
                    colour,
                    R::Bits::from_wide(candidates),
                    R::Bits::from_wide(occupied),
                );
                assert_eq!(got.to_wide(), expected);
            }
        }
    }

    #[test]
    fn runaways_match_the_triangle_definition() {
        check_runaways::<International>();
        check_runaways::<Russian>();
        check_runaways::<Canadian>();
    }

    #[test]
    fn start_position_is_balanced() {
        let start = Diagonal::<International>::start();
        assert_eq!(hand_evaluate::<International>(&start), 0);
        // The learned weights add only what having the move is worth (a few hundredths).
        assert!(evaluate::<International>(&start).abs() <= 20);
    }
}
