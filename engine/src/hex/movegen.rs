//! Positions, copy-make and move generation of hex Seesaw (`../shared/rules/seesaw.md`,
//! section `seesaw` and `seesaw-5`).
//!
//! Cells are bits of a `u64` in the order of [`polydam_tables::hex`]; multi-step moves and
//! capture distances are computed by breadth-first flooding over neighbour masks, one layer
//! per step, so no allocation happens besides the output list.

use polydam_tables::hex::HexGeometry;
use polydam_tables::zobrist::keys;

use crate::game::{Duplicates, Side};

/// Largest stack size a position can hold (our limit; the card's sizes are unbounded, and a
/// stack at this size no longer grows).
pub const MAX_SIZE: u8 = 255;

/// Zobrist keys of stacks by `[size][colour][cell]`, size-major so that the small sizes met in
/// play share a few cache lines.
pub static STACK_KEYS: [[[u64; 64]; 2]; 256] = {
    const N: usize = 256 * 2 * 64;
    let flat: [u64; N] = keys::<N>(0x5EE5_4E7A_0000_0001);
    let mut out = [[[0u64; 64]; 2]; 256];
    let mut s = 0;
    while s < 256 {
        let mut c = 0;
        while c < 2 {
            let mut b = 0;
            while b < 64 {
                out[s][c][b] = flat[(s * 2 + c) * 64 + b];
                b += 1;
            }
            c += 1;
        }
        s += 1;
    }
    out
};

/// Zobrist keys of tiles by `[colour][cell]`.
pub static TILE_KEYS: [[u64; 64]; 2] = {
    let flat: [u64; 128] = keys::<128>(0x5EE5_4E7A_711E_0001);
    let mut out = [[0u64; 64]; 2];
    let mut i = 0;
    while i < 128 {
        out[i / 64][i % 64] = flat[i];
        i += 1;
    }
    out
};

/// Key XORed in when North (Black) is to move.
pub const BLACK_TO_MOVE: u64 = keys::<1>(0x5EE5_4E7A_51DE_0001)[0];
/// Key XORed in when the previous move was a pass.
pub const PASSED: u64 = keys::<1>(0x5EE5_4E7A_9A55_0001)[0];

/// A hex Seesaw position.
///
/// Built for a board by [`Position::from_setup`] (or by parsing, which goes through it) and by
/// [`play`]; read through its accessors.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Position {
    /// Stacks of each side (South = White = index 0).
    pub(crate) stacks: [u64; 2],
    /// Tiles of each colour (covered or not).
    pub(crate) tiles: [u64; 2],
    /// Stack size by cell; 0 where no stack stands.
    pub(crate) sizes: [u8; 64],
    /// The side to move.
    pub(crate) side: Side,
    /// The previous move was a pass (card: "if both players pass in succession the game is
    /// drawn"), so that the position itself tells the search when a second pass ends the game.
    pub(crate) passed: bool,
    /// Zobrist key, kept up to date by [`play`].
    pub(crate) hash: u64,
}

/// What a turn does.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum Kind {
    /// Put a tile and a 1-stack on `to`.
    Deploy,
    /// Move the stack on `from` to `to` without capturing.
    #[default]
    Step,
    /// Capture the stacks of `captured` with the stack on `from`, ending on `to` (the last
    /// captured cell, or the end of the leftover move).
    Capture,
    /// No legal move: pass.
    Pass,
}

/// A move. The path is not part of it (card); captures in different orders that take the same
/// stacks and end on the same cell are one move when duplicates are dropped.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct Move {
    /// What the turn does.
    pub kind: Kind,
    /// The moving stack's cell (equal to `to` for a deploy or a pass).
    pub from: u8,
    /// The final cell.
    pub to: u8,
    /// The stack gains a disc at the end of the turn.
    pub promotes: bool,
    /// Captured stacks.
    pub captured: u64,
}

/// Iterates over the cell indices of `b`.
#[inline(always)]
pub fn cells(mut b: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let c = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(c)
        }
    })
}

/// The neighbours of every cell of `set`.
#[inline(always)]
pub fn spread(g: &HexGeometry, set: u64) -> u64 {
    let mut out = 0;
    for c in cells(set) {
        out |= g.all[c];
    }
    out
}

/// The neighbours of every cell of `set` in `side`'s forward (`forward`) or backward directions.
#[inline(always)]
pub fn spread_dir(g: &HexGeometry, set: u64, side: Side, forward: bool) -> u64 {
    let up = (side == Side::White) == forward;
    let mut out = 0;
    for c in cells(set) {
        out |= if up { g.up[c] } else { g.down[c] };
    }
    out
}

/// Cells a stack on `from` can end a non-capturing move on with 1..=`steps` steps in the
/// directions its parity allows, through cells of `free` only. Card: "forward if s is odd,
/// backward if s is even; it may change between these three from step to step. Every cell it
/// enters ... must hold no disc".
#[inline]
pub fn walk(g: &HexGeometry, from: usize, steps: u32, free: u64, side: Side, odd: bool) -> u64 {
    let mut frontier = 1u64 << from;
    let mut reached = 0u64;
    let mut k = 0;
    while k < steps && frontier != 0 {
        frontier = spread_dir(g, frontier, side, odd) & free & !reached;
        reached |= frontier;
        k += 1;
    }
    reached
}

/// Enemy stacks within `steps` of `from` with the direction restriction lifted, each with the
/// length of the shortest path through `free` cells (card: "the steps used are the length of
/// the shortest disc-free path to that cell"). Calls `found(target, distance)`.
#[inline]
pub fn reach_targets(
    g: &HexGeometry,
    from: usize,
    steps: u32,
    free: u64,
    targets: u64,
    mut found: impl FnMut(usize, u32),
) {
    let mut frontier = 1u64 << from;
    let mut visited = frontier;
    let mut hit = 0u64;
    let mut k = 1;
    while k <= steps && frontier != 0 {
        let around = spread(g, frontier);
        let new_hits = around & targets & !hit;
        for t in cells(new_hits) {
            found(t, k);
        }
        hit |= new_hits;
        frontier = around & free & !visited;
        visited |= frontier;
        k += 1;
    }
}

/// Whether any cell of `targets` is within `steps` of `from` through `free` cells.
#[inline]
pub fn any_target(g: &HexGeometry, from: usize, steps: u32, free: u64, targets: u64) -> bool {
    let mut frontier = 1u64 << from;
    let mut visited = frontier;
    let mut k = 1;
    while k <= steps && frontier != 0 {
        let around = spread(g, frontier);
        if around & targets != 0 {
            return true;
        }
        frontier = around & free & !visited;
        visited |= frontier;
        k += 1;
    }
    false
}

/// The Zobrist key of a stack.
#[inline(always)]
pub fn stack_key(colour: usize, cell: usize, size: u8) -> u64 {
    STACK_KEYS[size as usize][colour][cell]
}

impl Position {
    /// An empty board with `side` to move.
    pub(crate) fn empty(side: Side) -> Position {
        let mut p = Position {
            stacks: [0, 0],
            tiles: [0, 0],
            sizes: [0; 64],
            side,
            passed: false,
            hash: 0,
        };
        p.hash = p.compute_hash();
        p
    }

    /// The Zobrist key computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        if self.side == Side::Black {
            h ^= BLACK_TO_MOVE;
        }
        if self.passed {
            h ^= PASSED;
        }
        for (c, tile_keys) in TILE_KEYS.iter().enumerate() {
            for cell in cells(self.stacks[c]) {
                h ^= stack_key(c, cell, self.sizes[cell]);
            }
            for cell in cells(self.tiles[c]) {
                h ^= tile_keys[cell];
            }
        }
        h
    }

    /// Cells holding a disc.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.stacks[0] | self.stacks[1]
    }

    /// The stacks of `side`, one bit per cell.
    #[inline]
    pub fn stacks(&self, side: Side) -> u64 {
        self.stacks[side.index()]
    }

    /// The tiles of colour `side`, covered or not.
    #[inline]
    pub fn tiles(&self, side: Side) -> u64 {
        self.tiles[side.index()]
    }

    /// The size of the stack on `cell` (0 if none stands there).
    #[inline]
    pub fn size_at(&self, cell: u8) -> u8 {
        self.sizes[cell as usize]
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// Whether the previous move was a pass (a second pass in a row draws).
    #[inline]
    pub fn passed(&self) -> bool {
        self.passed
    }

    /// The Zobrist key, kept up to date by [`play`] (equal to [`Position::compute_hash`]).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
}

/// Whether a stack of `size` of `side` ending its turn on `to` gains a disc. Card: "an odd
/// stack on a tile of the opponent's colour, or an even stack on a tile of its own colour,
/// gains one disc".
#[inline(always)]
pub fn promotes(pos: &Position, side: Side, size: u8, to: usize) -> bool {
    let tiles = if size % 2 == 1 {
        pos.tiles[1 - side.index()]
    } else {
        pos.tiles[side.index()]
    };
    tiles & (1u64 << to) != 0 && size < MAX_SIZE
}

/// The position after `mv` (copy-make, incremental key).
// Always inlined: perft's move loop called it (10% of perft's instructions) once perft became
// generic over the families.
#[inline(always)]
pub fn play(pos: &Position, mv: &Move) -> Position {
    let us = pos.side.index();
    let them = 1 - us;
    let mut p = *pos;
    let mut h = pos.hash ^ BLACK_TO_MOVE;
    if pos.passed {
        h ^= PASSED;
    }
    p.passed = false;
    match mv.kind {
        Kind::Pass => {
            p.passed = true;
            h ^= PASSED;
        }
        Kind::Deploy => {
            // Card: "put a tile of your colour, then a 1-stack of yours on it".
            let to = mv.to as usize;
            p.tiles[us] |= 1u64 << to;
            p.stacks[us] |= 1u64 << to;
            p.sizes[to] = 1;
            h ^= TILE_KEYS[us][to] ^ stack_key(us, to, 1);
        }
        Kind::Step | Kind::Capture => {
            let (from, to) = (mv.from as usize, mv.to as usize);
            let size = pos.sizes[from];
            let new_size = size + mv.promotes as u8;
            // Card: "the enemy stack is removed whole (its tile stays)".
            for c in cells(mv.captured) {
                h ^= stack_key(them, c, pos.sizes[c]);
                p.sizes[c] = 0;
            }
            p.stacks[them] &= !mv.captured;
            h ^= stack_key(us, from, size) ^ stack_key(us, to, new_size);
            p.sizes[from] = 0;
            p.stacks[us] = (p.stacks[us] & !(1u64 << from)) | (1u64 << to);
            p.sizes[to] = new_size;
        }
    }
    p.side = pos.side.opponent();
    p.hash = h;
    p
}

struct CaptureGen<'a> {
    g: &'a HexGeometry,
    pos: &'a Position,
    side: Side,
    from: usize,
    size: u8,
    start: usize,
    dups: Duplicates,
    out: &'a mut Vec<Move>,
}

impl CaptureGen<'_> {
    fn emit(&mut self, to: usize, captured: u64, count: u32) {
        let mv = Move {
            kind: Kind::Capture,
            from: self.from as u8,
            to: to as u8,
            // Card: promotion "at the end of the turn ... This also holds when the player
            // stops with steps left over".
            promotes: promotes(self.pos, self.side, self.size, to),
            captured,
        };
        // One capture fixes its path; only sequences of two or more can meet again.
        if self.dups == Duplicates::Drop && count >= 2 && self.out[self.start..].contains(&mv) {
            return;
        }
        self.out.push(mv);
    }

    /// Continues a sequence whose stack stands on `cur` (just captured there) with `rem` steps
    /// left; `free` holds the disc-free cells (the moving stack lifted, captured stacks gone),
    /// `enemies` the enemy stacks still on the board.
    fn after_capture(
        &mut self,
        cur: usize,
        rem: u32,
        captured: u64,
        count: u32,
        free: u64,
        enemies: u64,
    ) {
        let g = self.g;
        // Card: "if steps remain and another enemy is within reach of the remaining steps, you
        // must capture again with the same stack".
        let mut targets = [(0u8, 0u8); 64];
        let mut n = 0;
        if rem > 0 {
            reach_targets(g, cur, rem, free, enemies, |t, k| {
                targets[n] = (t as u8, k as u8);
                n += 1;
            });
        }
        if n > 0 {
            for &(t, k) in &targets[..n] {
                let t = t as usize;
                self.after_capture(
                    t,
                    rem - k as u32,
                    captured | 1u64 << t,
                    count + 1,
                    free | 1u64 << t,
                    enemies & !(1u64 << t),
                );
            }
            return;
        }
        // Card: "otherwise you may spend the remaining steps on one non-capturing move of
        // that stack (direction-restricted by its parity as above) or stop".
        self.emit(cur, captured, count);
        if rem > 0 {
            let dests = walk(g, cur, rem, free, self.side, self.size % 2 == 1);
            for d in cells(dests) {
                self.emit(d, captured, count);
            }
        }
    }
}

/// Fills `out` with the legal captures; leaves it empty if there is none.
pub fn generate_captures(g: &HexGeometry, pos: &Position, dups: Duplicates, out: &mut Vec<Move>) {
    out.clear();
    let us = pos.side.index();
    let enemies = pos.stacks[1 - us];
    let free = !pos.occupied() & g.mask;
    for from in cells(pos.stacks[us]) {
        let size = pos.sizes[from];
        let start = out.len();
        let mut gen = CaptureGen {
            g,
            pos,
            side: pos.side,
            from,
            size,
            start,
            dups,
            out,
        };
        let lifted = free | 1u64 << from;
        let mut targets = [(0u8, 0u8); 64];
        let mut n = 0;
        // Card: "if any of your stacks can reach an enemy stack in at most s steps with the
        // direction restriction lifted (all six directions, every intermediate cell free of
        // discs), you must capture".
        reach_targets(g, from, size as u32, lifted, enemies, |t, k| {
            targets[n] = (t as u8, k as u8);
            n += 1;
        });
        for &(t, k) in &targets[..n] {
            let t = t as usize;
            gen.after_capture(
                t,
                size as u32 - k as u32,
                1u64 << t,
                1,
                lifted | 1u64 << t,
                enemies & !(1u64 << t),
            );
        }
    }
}

/// Whether `side` could capture in `pos`.
pub fn can_capture(g: &HexGeometry, pos: &Position, side: Side) -> bool {
    let us = side.index();
    let enemies = pos.stacks[1 - us];
    if enemies == 0 {
        return false;
    }
    let free = !pos.occupied() & g.mask;
    cells(pos.stacks[us]).any(|from| {
        any_target(
            g,
            from,
            pos.sizes[from] as u32,
            free | 1u64 << from,
            enemies,
        )
    })
}

/// Cells where `side` may deploy. Card: "on a cell that has no tile and no disc and is adjacent
/// to at least one cell with a tile of your colour (covered or not)".
#[inline]
pub fn deploy_cells(g: &HexGeometry, pos: &Position, side: Side) -> u64 {
    spread(g, pos.tiles[side.index()]) & !(pos.tiles[0] | pos.tiles[1] | pos.occupied()) & g.mask
}

/// Fills `out` with the non-capturing moves and deploys (call only when there is no capture).
pub fn generate_quiet(g: &HexGeometry, pos: &Position, out: &mut Vec<Move>) {
    out.clear();
    let us = pos.side.index();
    let free = !pos.occupied() & g.mask;
    for from in cells(pos.stacks[us]) {
        let size = pos.sizes[from];
        let dests = walk(g, from, size as u32, free, pos.side, size % 2 == 1);
        for to in cells(dests) {
            out.push(Move {
                kind: Kind::Step,
                from: from as u8,
                to: to as u8,
                promotes: promotes(pos, pos.side, size, to),
                captured: 0,
            });
        }
    }
    for to in cells(deploy_cells(g, pos, pos.side)) {
        out.push(Move {
            kind: Kind::Deploy,
            from: to as u8,
            to: to as u8,
            promotes: false,
            captured: 0,
        });
    }
}

/// Fills `out` with every legal move. Empty when the game is over: the side to move has no
/// stacks (the opponent won), or it has no move right after a pass (a draw). Otherwise a side
/// with no move gets exactly the pass.
#[inline]
pub fn generate(g: &HexGeometry, pos: &Position, dups: Duplicates, out: &mut Vec<Move>) {
    out.clear();
    if pos.stacks[pos.side.index()] == 0 {
        return;
    }
    generate_captures(g, pos, dups, out);
    if out.is_empty() {
        generate_quiet(g, pos, out);
    }
    if out.is_empty() && !pos.passed {
        let c = g.bottom();
        out.push(Move {
            kind: Kind::Pass,
            from: c,
            to: c,
            promotes: false,
            captured: 0,
        });
    }
}

/// Whether the side to move has a move other than a pass.
pub fn has_real_move(g: &HexGeometry, pos: &Position) -> bool {
    let side = pos.side;
    if pos.stacks[side.index()] == 0 {
        return false;
    }
    if deploy_cells(g, pos, side) != 0 || can_capture(g, pos, side) {
        return true;
    }
    let free = !pos.occupied() & g.mask;
    cells(pos.stacks[side.index()])
        .any(|c| spread_dir(g, 1u64 << c, side, pos.sizes[c] % 2 == 1) & free != 0)
}
