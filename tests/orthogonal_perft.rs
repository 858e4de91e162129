//! perft of the orthogonal family: the published Turkish counts from `../shared/perft/`, the
//! depth-4 table of all thirty variants (recorded in `docs/orthogonal.md`), and a cross-check of
//! the bitboard generator against a deliberately naive one written separately from the rule card
//! (a mailbox board, every direction tried from every landing square, pieces lifted and put
//! back), on random games and on random sparse positions full of kings.

use crate::support::perft_rows;
use polydam_engine::game::{Duplicates, Game, Side};
use polydam_engine::orthogonal::rules::*;
use polydam_engine::orthogonal::{movegen, Orthogonal, Position, Setup};
use polydam_engine::perft::count_paths;
use polydam_engine::variants::{dispatch, lookup, Family, GameVisitor};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

struct Perft {
    depth: u32,
    dups: Duplicates,
}

impl GameVisitor for Perft {
    type Output = (u64, String);
    fn visit<G: Game>(self) -> (u64, String) {
        let start = G::start();
        (
            count_paths::<G>(&start, self.depth, self.dups),
            G::fen(&start),
        )
    }
}

fn perft_of(name: &str, depth: u32, dups: Duplicates) -> u64 {
    dispatch(name, Perft { depth, dups })
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

/// Every published count for an orthogonal variant (turkish: 8, 64, 708, 7538, 85090, 931312),
/// up to depth 6.
#[test]
fn published_orthogonal_perft() {
    let rows = perft_rows().expect("reference.tsv");
    let mut checked = 0;
    for row in rows {
        let Ok(entry) = lookup(&row.variant) else {
            continue;
        };
        if entry.family != Family::Orthogonal || row.position != "start" || row.depth > 6 {
            continue;
        }
        let dups = if row.duplicates == "keep" {
            Duplicates::Keep
        } else {
            Duplicates::Drop
        };
        assert_eq!(
            perft_of(&row.variant, row.depth, dups),
            row.nodes,
            "{} depth {}",
            row.variant,
            row.depth
        );
        checked += 1;
    }
    assert!(
        checked >= 6,
        "only {checked} published orthogonal counts found"
    );
}

/// perft(7) of Turkish, with both duplicate conventions (no duplicate paths occur this early).
#[test]
fn turkish_perft_7() {
    assert_eq!(perft_of("turkish", 7, Duplicates::Keep), 10_782_308);
    assert_eq!(perft_of("turkish", 7, Duplicates::Drop), 10_782_308);
}

// ---------------------------------------------------------------------------------------------
// The naive reference generator

mod naive {
    use super::*;

    /// (file, rank) steps of the eight directions, clockwise from north.
    const DV: [(i32, i32); 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    enum Cell {
        Empty,
        Man(usize),
        King(usize),
    }

    fn owner(c: Cell) -> Option<usize> {
        match c {
            Cell::Empty => None,
            Cell::Man(s) | Cell::King(s) => Some(s),
        }
    }

    fn step(sq: usize, d: usize) -> Option<usize> {
        let f = (sq % 8) as i32 + DV[d].0;
        let r = (sq / 8) as i32 + DV[d].1;
        ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
    }

    /// Whether the relative direction set `rel` contains board direction `d` for `side`.
    fn has(rel: u8, d: usize, side: usize) -> bool {
        let r = if side == 0 { d } else { (d + 4) % 8 };
        rel & (1 << r) != 0
    }

    fn cells(pos: &Position) -> [Cell; 64] {
        let mut c = [Cell::Empty; 64];
        for (sq, cell) in c.iter_mut().enumerate() {
            let b = 1u64 << sq;
            for (side, owner) in [Side::White, Side::Black].into_iter().enumerate() {
                if pos.pieces(owner) & b != 0 {
                    *cell = if pos.kings() & b != 0 {
                        Cell::King(side)
                    } else {
                        Cell::Man(side)
                    };
                }
            }
        }
        c
    }

    /// A finished capture: (to, captured, crowns, count).
    type Found = (usize, u64, bool, u32);

    struct Search<'a> {
        sheet: &'a RuleSheet,
        side: usize,
        found: Vec<Found>,
    }

    impl Search<'_> {
        fn enemy(&self, c: Cell) -> bool {
            owner(c) == Some(1 - self.side)
        }

        fn zone(&self, sq: usize) -> bool {
            self.sheet.zone[self.side] & (1u64 << sq) != 0
        }

        /// Extends a sequence; returns whether any jump was possible.
        #[allow(clippy::too_many_arguments)]
        fn go(
            &mut self,
            board: &mut [Cell; 64],
            cur: usize,
            king: bool,
            crowned: bool,
            captured: u64,
            count: u32,
            last: Option<usize>,
        ) -> bool {
            let sheet = self.sheet;
            let mut any = false;
            for d in 0..8 {
                if !king {
                    let ok = has(sheet.man_capture, d, self.side)
                        || (last.is_some() && has(sheet.man_capture_later, d, self.side));
                    if !ok {
                        continue;
                    }
                    let Some(v) = step(cur, d) else { continue };
                    if !self.enemy(board[v]) || captured & (1u64 << v) != 0 {
                        continue;
                    }
                    let Some(l) = step(v, d) else { continue };
                    if board[l] != Cell::Empty {
                        continue;
                    }
                    any = true;
                    let saved = board[v];
                    if sheet.removal == Removal::Immediate {
                        board[v] = Cell::Empty;
                    }
                    let cap = captured | (1u64 << v);
                    if self.zone(l) && sheet.promotion == Promotion::CrownAndStop {
                        self.found.push((l, cap, true, count + 1));
                    } else if self.zone(l) && sheet.promotion == Promotion::CrownAndContinue {
                        if !self.go(board, l, true, true, cap, count + 1, Some(d)) {
                            self.found.push((l, cap, true, count + 1));
                        }
                    } else if !self.go(board, l, false, false, cap, count + 1, Some(d)) {
                        self.found.push((l, cap, self.zone(l), count + 1));
                    }
                    board[v] = saved;
                } else {
                    if sheet.king_capture & (1 << d) == 0 {
                        continue;
                    }
                    if sheet.no_reversal && last == Some((d + 4) % 8) {
                        continue;
                    }
                    let mut t = step(cur, d);
                    if sheet.king_capture_flying {
                        while let Some(x) = t {
                            if board[x] != Cell::Empty {
                                break;
                            }
                            t = step(x, d);
                        }
                    }
                    let Some(v) = t else { continue };
                    if !self.enemy(board[v]) || captured & (1u64 << v) != 0 {
                        continue;
                    }
                    let mut landings = Vec::new();
                    let mut l = step(v, d);
                    while let Some(x) = l {
                        if board[x] != Cell::Empty {
                            break;
                        }
                        landings.push(x);
                        if !sheet.king_capture_flying || sheet.landing == Landing::Halt {
                            break;
                        }
                        l = step(x, d);
                    }
                    if landings.is_empty() {
                        continue;
                    }
                    any = true;
                    let saved = board[v];
                    if sheet.removal == Removal::Immediate {
                        board[v] = Cell::Empty;
                    }
                    let cap = captured | (1u64 << v);
                    let mut ends = Vec::new();
                    let mut went_on = false;
                    for &l in &landings {
                        if self.go(board, l, true, crowned, cap, count + 1, Some(d)) {
                            went_on = true;
                        } else {
                            ends.push(l);
                        }
                    }
                    if !went_on {
                        for l in ends {
                            self.found.push((l, cap, crowned, count + 1));
                        }
                    }
                    board[v] = saved;
                }
            }
            any
        }
    }

    /// Whether the piece on `sq` could make a first jump.
    fn can_jump(sheet: &RuleSheet, board: &[Cell; 64], sq: usize) -> bool {
        let Some(side) = owner(board[sq]) else {
            return false;
        };
        let king = matches!(board[sq], Cell::King(_));
        (0..8).any(|d| {
            if king {
                if sheet.king_capture & (1 << d) == 0 {
                    return false;
                }
                let mut t = step(sq, d);
                if sheet.king_capture_flying {
                    while let Some(x) = t {
                        if board[x] != Cell::Empty {
                            break;
                        }
                        t = step(x, d);
                    }
                }
                let Some(v) = t else { return false };
                owner(board[v]) == Some(1 - side)
                    && step(v, d).is_some_and(|l| board[l] == Cell::Empty)
            } else {
                has(sheet.man_capture, d, side)
                    && step(sq, d).is_some_and(|v| {
                        owner(board[v]) == Some(1 - side)
                            && step(v, d).is_some_and(|l| board[l] == Cell::Empty)
                    })
            }
        })
    }

    /// The legal moves as sorted (from, to, captured, crowns), duplicate paths merged.
    pub fn legal(sheet: &RuleSheet, pos: &Position) -> Vec<(u8, u8, u64, bool)> {
        let side = pos.side_to_move().index();
        let mut board = cells(pos);
        let mut moves: Vec<(u8, u8, u64, bool)> = Vec::new();
        let mut best = 0;
        let mut caps: Vec<(usize, Found)> = Vec::new();
        for from in 0..64 {
            let cell = board[from];
            if owner(cell) != Some(side) {
                continue;
            }
            board[from] = Cell::Empty;
            let mut s = Search {
                sheet,
                side,
                found: Vec::new(),
            };
            s.go(
                &mut board,
                from,
                matches!(cell, Cell::King(_)),
                false,
                0,
                0,
                None,
            );
            board[from] = cell;
            for f in s.found {
                best = best.max(f.3);
                caps.push((from, f));
            }
        }
        for (from, (to, cap, crowns, count)) in caps {
            if !sheet.majority || count == best {
                moves.push((from as u8, to as u8, cap, crowns));
            }
        }
        if moves.is_empty() {
            let zone = sheet.zone[side];
            let first_rank = if side == 0 { 0..8 } else { 56..64 };
            for from in 0..64 {
                match board[from] {
                    Cell::Man(s) if s == side => {
                        for d in 0..8 {
                            let line_dir = has(FWD | FWD_LEFT | FWD_RIGHT, d, side);
                            if has(sheet.man_step, d, side) {
                                let mut t = step(from, d);
                                if sheet.dameo_line {
                                    while let Some(x) = t {
                                        if board[x] != Cell::Man(side) {
                                            break;
                                        }
                                        t = step(x, d);
                                    }
                                }
                                if let Some(x) = t.filter(|&x| board[x] == Cell::Empty) {
                                    moves.push((from as u8, x as u8, 0, zone & (1 << x) != 0));
                                }
                            }
                            if sheet.first_rank_leap && line_dir && first_rank.contains(&from) {
                                let mut t = step(from, d);
                                let mut over = 0;
                                while let Some(x) = t {
                                    if owner(board[x]) != Some(side) {
                                        break;
                                    }
                                    over += 1;
                                    t = step(x, d);
                                }
                                if let Some(x) = t.filter(|&x| over > 0 && board[x] == Cell::Empty)
                                {
                                    moves.push((from as u8, x as u8, 0, zone & (1 << x) != 0));
                                }
                            }
                        }
                    }
                    Cell::King(s) if s == side => {
                        for d in 0..8 {
                            if sheet.king_move & (1 << d) == 0 {
                                continue;
                            }
                            let mut t = step(from, d);
                            while let Some(x) = t {
                                if board[x] != Cell::Empty {
                                    break;
                                }
                                moves.push((from as u8, x as u8, 0, false));
                                if !sheet.king_move_flying {
                                    break;
                                }
                                t = step(x, d);
                            }
                        }
                    }
                    _ => {}
                }
            }
            if sheet.bahrain {
                // Our men that an enemy piece could take as its first jump.
                let threatened: Vec<usize> = (0..64)
                    .filter(|&sq| board[sq] == Cell::Man(side))
                    .filter(|&sq| {
                        (0..64).any(|e| {
                            owner(board[e]) == Some(1 - side) && {
                                // Does the enemy on e have a first jump over sq?
                                let king = matches!(board[e], Cell::King(_));
                                (0..8).any(|d| {
                                    let mut t = step(e, d);
                                    if king {
                                        if sheet.king_capture & (1 << d) == 0 {
                                            return false;
                                        }
                                        if sheet.king_capture_flying {
                                            while let Some(x) = t {
                                                if board[x] != Cell::Empty {
                                                    break;
                                                }
                                                t = step(x, d);
                                            }
                                        }
                                    } else if !has(sheet.man_capture, d, 1 - side) {
                                        return false;
                                    }
                                    t == Some(sq)
                                        && step(sq, d).is_some_and(|l| board[l] == Cell::Empty)
                                })
                            }
                        })
                    })
                    .collect();
                if !threatened.is_empty() {
                    let keep: Vec<(u8, u8, u64, bool)> = moves
                        .iter()
                        .copied()
                        .filter(|&(from, to, _, crowns)| {
                            let (from, to) = (from as usize, to as usize);
                            if matches!(board[from], Cell::King(_)) || threatened.contains(&from) {
                                return true;
                            }
                            let mut after = board;
                            after[from] = Cell::Empty;
                            after[to] = if crowns {
                                Cell::King(side)
                            } else {
                                Cell::Man(side)
                            };
                            !can_jump(sheet, &after, to)
                        })
                        .collect();
                    if !keep.is_empty() {
                        moves = keep;
                    }
                }
            }
        }
        merge(moves)
    }

    /// Sorts and merges moves with the same from, to and captured set (crowning if any does).
    pub fn merge(mut moves: Vec<(u8, u8, u64, bool)>) -> Vec<(u8, u8, u64, bool)> {
        moves.sort();
        let mut out: Vec<(u8, u8, u64, bool)> = Vec::new();
        for m in moves {
            match out.last_mut() {
                Some(l) if (l.0, l.1, l.2) == (m.0, m.1, m.2) => l.3 |= m.3,
                _ => out.push(m),
            }
        }
        out
    }
}

/// The fast generator's moves in the naive generator's form.
fn fast<R: Rules>(pos: &Position) -> Vec<(u8, u8, u64, bool)> {
    let mut list = Vec::new();
    Orthogonal::<R>::generate(pos, Duplicates::Drop, &mut list);
    let n = list.len();
    let out = naive::merge(
        list.iter()
            .map(|m| (m.from, m.to, m.captured, m.crowns))
            .collect(),
    );
    assert_eq!(out.len(), n, "{}: duplicate moves in the list", R::NAME);
    out
}

/// Compares both generators in `pos`; returns whether the moves are captures.
fn compare<R: Rules>(pos: &Position) -> bool {
    let want = naive::legal(&R::SHEET, pos);
    let got = fast::<R>(pos);
    // perft's bulk count at the last ply must agree with the list.
    assert_eq!(
        movegen::count_moves::<R>(pos, Duplicates::Drop, &mut Vec::new()),
        got.len() as u64,
        "{}: bulk count in {}",
        R::NAME,
        Orthogonal::<R>::fen(pos)
    );
    assert_eq!(
        got,
        want,
        "{}: fast vs naive in {}",
        R::NAME,
        Orthogonal::<R>::fen(pos)
    );
    want.first().is_some_and(|m| m.2 != 0)
}

/// A random position: a few men and kings per side, men outside their own zone.
fn random_position<R: Rules>(rng: &mut SmallRng) -> Position {
    let mut setup = Setup::new(if rng.gen_bool(0.5) {
        Side::White
    } else {
        Side::Black
    });
    let mut occupied = 0u64;
    for (side, owner) in [Side::White, Side::Black].into_iter().enumerate() {
        let n = rng.gen_range(1..=10);
        for _ in 0..n {
            let sq = rng.gen_range(0..64u32);
            let b = 1u64 << sq;
            if occupied & b != 0 {
                continue;
            }
            let king = rng.gen_bool(0.35) || R::SHEET.zone[side] & b != 0;
            occupied |= b;
            setup.pieces.push((sq as u8, owner, king));
        }
    }
    Position::from_setup::<R>(setup).unwrap_or_else(|e| panic!("{}: random setup: {e}", R::NAME))
}

fn cross_check<R: Rules>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    // Random games from the start.
    let mut list = Vec::new();
    let mut captures = 0;
    for _ in 0..30 {
        let mut pos = Orthogonal::<R>::start();
        for _ in 0..160 {
            captures += compare::<R>(&pos) as usize;
            Orthogonal::<R>::generate(&pos, Duplicates::Drop, &mut list);
            if list.is_empty() || Orthogonal::<R>::decided(&pos).is_some() {
                break;
            }
            pos = Orthogonal::<R>::play(&pos, &list[rng.gen_range(0..list.len())]);
        }
    }
    // Random sparse positions, with many kings.
    let mut king_captures = 0;
    for _ in 0..1500 {
        let pos = random_position::<R>(&mut rng);
        let capture = compare::<R>(&pos);
        king_captures += (capture && pos.kings() & pos.pieces(pos.side_to_move()) != 0) as usize;
    }
    // The comparison must have seen plenty of captures, by men and by kings.
    assert!(captures > 100, "{}: {captures} capture positions", R::NAME);
    assert!(
        king_captures > 200,
        "{}: {king_captures} king capture positions",
        R::NAME
    );
}

macro_rules! cross_checks {
    ($($name:ident: $ty:ty,)*) => {
        $(
            #[test]
            fn $name() {
                cross_check::<$ty>(0x5EED ^ stringify!($name).len() as u64);
            }
        )*
    };
}

cross_checks! {
    naive_agrees_turkish: Turkish,
    naive_agrees_turkish_modified: TurkishModified,
    naive_agrees_armenian: Armenian,
    naive_agrees_armenian_2: Armenian2,
    naive_agrees_armenian_3: Armenian3,
    naive_agrees_gothic: Gothic,
    naive_agrees_gothic_modified: GothicModified,
    naive_agrees_gothic_modified_2: GothicModified2,
    naive_agrees_adigha: Adigha,
    naive_agrees_croda: Croda,
    naive_agrees_modern_gothic: ModernGothic,
    naive_agrees_modern_gothic_2: ModernGothic2,
    naive_agrees_teutonic: Teutonic,
    naive_agrees_teutonic_2: Teutonic2,
    naive_agrees_greek: Greek,
    naive_agrees_greek_2: Greek2,
    naive_agrees_greek_3: Greek3,
    naive_agrees_greek_4: Greek4,
    naive_agrees_greek_5: Greek5,
    naive_agrees_greek_6: Greek6,
    naive_agrees_greek_7: Greek7,
    naive_agrees_universal: Universal,
    naive_agrees_dameo: Dameo,
    naive_agrees_turkthic: Turkthic,
    naive_agrees_turkthic_2: Turkthic2,
    naive_agrees_keny: Keny,
    naive_agrees_keny_2: Keny2,
    naive_agrees_harzdame: Harzdame,
    naive_agrees_bahrain: Bahrain,
    naive_agrees_bosnian: Bosnian,
}

/// perft from the start with the board turned and the colours swapped (Black to move first)
/// equals perft from the start: the generator treats both colours alike.
#[test]
fn perft_is_colour_symmetric() {
    fn check<R: Rules>() {
        let start = Orthogonal::<R>::start();
        assert_eq!(
            count_paths::<Orthogonal<R>>(&start.flipped(), 3, Duplicates::Drop),
            count_paths::<Orthogonal<R>>(&start, 3, Duplicates::Drop),
            "{}",
            R::NAME
        );
    }
    check::<Turkish>();
    check::<Harzdame>();
    check::<Dameo>();
    check::<Bahrain>();
    check::<TurkishModified>();
}
