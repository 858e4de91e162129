//! The learned evaluation of hex Seesaw: weights of what stands on each cell (a tile, a stack
//! by size) and of stack and tile counts, fitted by `polydam train` to self-play games (see
//! `docs/training.md`).
//!
//! The feature set is `hex-psq-v1-37cells` (`seesaw`) / `hex-psq-v1-61cells` (`seesaw-5`),
//! seen from the side to move: for North the board is turned half a turn (the cell at doubled
//! coordinates `(x, y)` is read as `(-x, -y)`; North's forward S, SE, SW becomes N, NW, NE, so
//! that one table serves both colours). The rules are also the same in the board's mirror
//! image (`x` to `-x`: N stays N, NE and NW swap), so a cell and its mirror image share their
//! weights: the tables are kept for the cells of the left half and the middle column (22 on
//! side 4, 35 on side 5, the **orbits**), and a cell counts as its left-half twin.
//!
//! For each game phase, each orbit and each **cell state** one weight; a cell's state is the
//! tile under it (none, own, opponent's) and the stack on it (none, or own or opponent's by
//! size bucket, [`linear::size_bucket`]): 3 × 13 = 39 states, of which the empty cell (no tile,
//! no stack) is never active. Then a bias and one-hot counts of own stacks, opponent stacks,
//! own tiles and opponent tiles, each from 0 to half the cells, larger counts clamped.
//!
//! **Phase.** Tiles are never removed, so the tiles on the board are the game's clock, as the
//! men left are in draughts: the first tables are used while at most half the cells have a
//! tile (room to deploy), the second from there on.
//!
//! [`HexLayout`] numbers the features; [`active_features`] lists a position's, and
//! [`Learned::evaluate`] sums their weights: one table read per tiled or occupied cell.
//!
//! A variant has learned weights when the weights source in use gives it a file: the
//! shipped one by default, or one the program names (see [`crate::learn::source`]).

use std::marker::PhantomData;

use polydam_tables::hex::HexGeometry;

use super::movegen::{cells, Position};
use super::notation::cell_name;
use super::HexBoard;
use crate::learn::linear::{
    self, size_bucket, CountTail, FixedWeights, SIZE_BUCKETS, SIZE_BUCKET_NAMES,
};
use crate::learn::source::{WeightsError, WeightsSource};
use crate::learn::weights::{Base, WeightsFile};

/// Stack states of a cell: none, then the own size buckets, then the opponent's.
pub const STACK_STATES: usize = 1 + 2 * SIZE_BUCKETS;

/// States of a cell: the tile (none, own, opponent's) times the stack.
pub const CELL_STATES: usize = 3 * STACK_STATES;

/// The count groups' names, for feature names.
pub const COUNT_NAMES: [&str; 4] = ["own-stacks", "opp-stacks", "own-tiles", "opp-tiles"];

/// The phase names, for feature names: while at most half the cells have a tile, and after.
const PHASES: [&str; 2] = ["mid", "end"];

/// The tile names by tile state, for feature names.
const TILES: [&str; 3] = ["notile", "owntile", "opptile"];

/// `ORBITS[side][cell]`: the orbit that `cell` counts as when `side` (0 South, 1 North) is to
/// move: the cell turned half a turn for North, then folded onto the left half of the board
/// (an orbit is numbered by the index of its cell there, `x <= 0`).
const fn orbit_table(g: &HexGeometry) -> [[u8; 64]; 2] {
    let mut out = [[0u8; 64]; 2];
    let mut c = 0;
    while c < g.cells {
        let (x, y) = (g.x[c] as i32, g.y[c] as i32);
        let left = if x < 0 { x } else { -x };
        // South reads the cell as it is; North reads (-x, -y); both folded to x <= 0.
        let sides = [y, -y];
        let mut s = 0;
        while s < 2 {
            out[s][c] = match g.cell_at(left, sides[s]) {
                Some(o) => o,
                None => 0,
            };
            s += 1;
        }
        c += 1;
    }
    out
}

/// The orbit tables of board `B`, computed once at compile time.
struct Orbits<B>(PhantomData<B>);

impl<B: HexBoard> Orbits<B> {
    const TABLE: [[u8; 64]; 2] = orbit_table(B::GEOMETRY);
}

/// The numbering of `hex-psq-v1` on one board.
#[derive(Clone, Copy, Debug)]
pub struct HexLayout {
    /// The board.
    pub geometry: &'static HexGeometry,
    /// Its orbits: the cells with `x <= 0`, which come first in the cell order.
    pub orbits: usize,
}

impl HexLayout {
    /// The layout of board `B`.
    pub const fn of<B: HexBoard>() -> HexLayout {
        let g = B::GEOMETRY;
        // The middle column has 2 * side - 1 cells; the others pair off with their mirrors.
        HexLayout {
            geometry: g,
            orbits: (g.cells + 2 * g.side as usize - 1) / 2,
        }
    }

    /// The feature set's name: `hex-psq-v1-37cells` (the cells are part of it, so that
    /// weights are never read for the other board).
    pub fn name(self) -> String {
        format!("hex-psq-v1-{}cells", self.geometry.cells)
    }

    /// The index of orbit `orbit` in cell state `state` in phase `phase`.
    #[inline(always)]
    pub const fn cell(self, phase: usize, orbit: usize, state: usize) -> usize {
        (phase * self.orbits + orbit) * CELL_STATES + state
    }

    /// The index of the bias, after the cell tables.
    #[inline(always)]
    pub const fn bias(self) -> usize {
        2 * self.orbits * CELL_STATES
    }

    /// The bias and the counts that end the set, clamped at half the cells.
    #[inline(always)]
    pub const fn tail(self) -> CountTail {
        CountTail {
            bias: self.bias(),
            men: self.geometry.cells / 2,
            groups: &COUNT_NAMES,
        }
    }

    /// The number of features.
    pub const fn total(self) -> usize {
        self.tail().total()
    }

    /// The phase of a position with `tiles` tiles on the board: 0 while at most half the
    /// cells have one, 1 after.
    #[inline(always)]
    pub const fn phase(self, tiles: u32) -> usize {
        (tiles as usize > self.geometry.cells / 2) as usize
    }

    /// A readable name of feature `index`: `mid-c2-own1-opptile` (phase, the orbit's cell in
    /// the left half of the side-relative board, the stack: `empty`, `own` or `opp` and its
    /// size bucket, then the tile under it), `bias`, `own-tiles=7`, ...; `unused-N` past the
    /// end.
    pub fn feature_name(self, index: usize) -> String {
        if index < self.bias() {
            let state = index % CELL_STATES;
            let orbit = index / CELL_STATES % self.orbits;
            let phase = index / (CELL_STATES * self.orbits);
            let (tile, stack) = (state / STACK_STATES, state % STACK_STATES);
            let stack = match stack {
                0 => "empty".to_string(),
                s if s <= SIZE_BUCKETS => format!("own{}", SIZE_BUCKET_NAMES[s - 1]),
                s => format!("opp{}", SIZE_BUCKET_NAMES[s - 1 - SIZE_BUCKETS]),
            };
            format!(
                "{}-{}-{stack}-{}",
                PHASES[phase],
                cell_name(self.geometry, orbit as u8),
                TILES[tile]
            )
        } else {
            self.tail()
                .name(index)
                .unwrap_or_else(|| format!("unused-{index}"))
        }
    }
}

/// Calls `visit` with the cell-table index of every cell of `pos` that holds a tile or a
/// stack, and answers the four counts: own stacks, opponent stacks, own tiles, opponent
/// tiles. The evaluation and the feature list both go through here, so they cannot differ.
#[inline(always)]
fn walk(
    l: HexLayout,
    orbits: &[[u8; 64]; 2],
    pos: &Position,
    mut visit: impl FnMut(usize),
) -> [u32; 4] {
    let us = pos.side.index();
    let (own, opp) = (pos.stacks[us], pos.stacks[1 - us]);
    let (own_tiles, opp_tiles) = (pos.tiles[us], pos.tiles[1 - us]);
    let phase = l.phase((own_tiles | opp_tiles).count_ones());
    let base = l.cell(phase, 0, 0);
    let orbit = &orbits[us];
    for c in cells(own | opp | own_tiles | opp_tiles) {
        let bit = 1u64 << c;
        // A cell holds at most one tile: 0 none, 1 own, 2 the opponent's.
        let tile = usize::from(own_tiles & bit != 0) + 2 * usize::from(opp_tiles & bit != 0);
        let stack = if (own | opp) & bit != 0 {
            1 + size_bucket(pos.sizes[c]) + SIZE_BUCKETS * usize::from(opp & bit != 0)
        } else {
            0
        };
        visit(base + orbit[c] as usize * CELL_STATES + tile * STACK_STATES + stack);
    }
    [
        own.count_ones(),
        opp.count_ones(),
        own_tiles.count_ones(),
        opp_tiles.count_ones(),
    ]
}

/// Calls `visit` with every active feature of board `B`'s position `pos`: one per tiled or
/// occupied cell (in cell order), the bias, the four counts.
pub fn active_features<B: HexBoard>(pos: &Position, mut visit: impl FnMut(usize)) {
    let l = HexLayout::of::<B>();
    let counts = walk(l, &Orbits::<B>::TABLE, pos, &mut visit);
    l.tail().features(counts, visit);
}

/// A board's learned weights, ready for the search.
#[derive(Clone, Debug)]
pub struct Learned {
    layout: HexLayout,
    /// The orbit of each cell for each side to move.
    orbits: &'static [[u8; 64]; 2],
    /// The weights in fixed point: the cell tables indexed as [`HexLayout::cell`], then the
    /// tail.
    weights: FixedWeights,
}

impl Learned {
    /// The weights of `file` for board `B`, checked against its feature set (its name, which
    /// holds the cells, and its size) and the variant's name.
    pub fn from_file<B: HexBoard>(file: &WeightsFile, source: &str) -> Result<Learned, String> {
        let layout = HexLayout::of::<B>();
        let weights =
            FixedWeights::from_file(file, source, &layout.name(), B::NAME, layout.tail())?;
        Ok(Learned {
            layout,
            orbits: &Orbits::<B>::TABLE,
            weights,
        })
    }

    /// What the weights are added to.
    #[inline(always)]
    pub fn base(&self) -> Base {
        self.weights.base
    }

    /// Where the weights came from (`shipped` or a file's path).
    pub fn source(&self) -> &str {
        &self.weights.source
    }

    /// The sum of the active features' weights of `pos`, from the side to move's view, in
    /// hundredths of a 1-stack.
    #[inline(always)]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let table = &self.weights.table;
        let mut sum = 0i32;
        let counts = walk(self.layout, self.orbits, pos, |i| sum += table[i] as i32);
        sum += self.weights.tail_sum(self.layout.tail(), counts);
        linear::to_hundredths(sum)
    }
}

/// The learned weights of board `B` from the weights source in use (see
/// [`crate::learn::source`]), or `None` (it keeps the hand evaluation).
#[inline(always)]
pub fn learned<B: HexBoard>() -> Option<&'static Learned> {
    B::learned_cell().get(B::NAME, Learned::from_file::<B>)
}

/// Builds the table `source` gives `B` without using it yet (see [`crate::learn::source::WeightsCell::prepare`]).
pub fn prepare<B: HexBoard>(source: &WeightsSource) -> Result<(), WeightsError> {
    B::learned_cell().prepare(source, B::NAME, Learned::from_file::<B>)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::{Duplicates, Game, Side};
    use crate::hex::{Hex, Side4, Side5};
    use polydam_tables::zobrist::splitmix64;

    #[test]
    fn shipped_weights_load() {
        for (name, text) in crate::learn::source::shipped_of_family("hex").iter() {
            let file = WeightsFile::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(file.variant, *name);
            let loaded = match *name {
                "seesaw" => Learned::from_file::<Side4>(&file, "shipped"),
                "seesaw-5" => Learned::from_file::<Side5>(&file, "shipped"),
                other => panic!("no hex variant {other}"),
            };
            assert!(loaded.is_ok(), "{name}: {:?}", loaded.err());
        }
        assert!(learned::<Side4>().is_some(), "seesaw has shipped weights");
    }

    /// Random weights in -100 .. 100 for `B`'s feature set, with the bias and counts.
    pub(crate) fn random_file<B: HexBoard>(seed: u64, base: Base) -> WeightsFile {
        let l = HexLayout::of::<B>();
        let mut state = seed;
        let weights = (0..l.total())
            .map(|_| {
                let (s, r) = splitmix64(state);
                state = s;
                (r % 20001) as f64 / 100.0 - 100.0
            })
            .collect();
        WeightsFile {
            feature_set: l.name(),
            variant: B::NAME.into(),
            base,
            scale: 150.0,
            weights,
        }
    }

    /// Calls `visit` with every position of a pseudo-random game of `B` from the start (at
    /// most `plies` plies, until a side has no stack left).
    pub(crate) fn random_game<B: HexBoard>(
        seed: u64,
        plies: usize,
        mut visit: impl FnMut(&Position),
    ) {
        let mut pos = Hex::<B>::start();
        let mut moves = Vec::new();
        let mut state = seed;
        for _ in 0..plies {
            if Hex::<B>::decided(&pos).is_some() {
                break;
            }
            visit(&pos);
            Hex::<B>::generate(&pos, Duplicates::Drop, &mut moves);
            if moves.is_empty() {
                break;
            }
            let (s, r) = splitmix64(state);
            state = s;
            pos = Hex::<B>::play(&pos, &moves[(r % moves.len() as u64) as usize]);
        }
    }

    /// `pos` with every cell moved by `map` (a map of doubled coordinates), the colours
    /// swapped and the other side to move when `swap`; built through a setup.
    fn mapped<B: HexBoard>(
        pos: &Position,
        swap: bool,
        map: impl Fn(i32, i32) -> (i32, i32),
    ) -> Position {
        let g = B::GEOMETRY;
        let to = |c: u8| {
            let (x, y) = map(g.x[c as usize] as i32, g.y[c as usize] as i32);
            g.cell_at(x, y).expect("the map keeps the board")
        };
        let colour = |s: Side| if swap { s.opponent() } else { s };
        let mut setup = pos.to_setup();
        if swap {
            setup.side = setup.side.opponent();
        }
        for (c, owner, _) in &mut setup.stacks {
            *c = to(*c);
            *owner = colour(*owner);
        }
        for (c, owner) in &mut setup.tiles {
            *c = to(*c);
            *owner = colour(*owner);
        }
        Position::from_setup::<B>(setup).expect("the mapped position is a position")
    }

    /// The twin of `pos`: the board turned half a turn, the colours swapped, the other side
    /// to move.
    pub(crate) fn twin<B: HexBoard>(pos: &Position) -> Position {
        mapped::<B>(pos, true, |x, y| (-x, -y))
    }

    /// `pos` in the mirror (the columns reversed), the same side to move.
    pub(crate) fn mirror<B: HexBoard>(pos: &Position) -> Position {
        mapped::<B>(pos, false, |x, y| (-x, y))
    }

    /// The features of `pos` recounted cell by cell from the doubled coordinates of a setup,
    /// independently of the orbit tables and the bit order.
    fn features_by_coordinates<B: HexBoard>(pos: &Position) -> Vec<usize> {
        let g = B::GEOMETRY;
        let l = HexLayout::of::<B>();
        let us = pos.side_to_move();
        let setup = pos.to_setup();
        let phase = usize::from(setup.tiles.len() > g.cells / 2);
        let mut state = vec![0usize; g.cells];
        let mut counts = [0u32; 4];
        for &(c, owner, size) in &setup.stacks {
            let own = owner == us;
            counts[usize::from(!own)] += 1;
            let b = match size {
                1..=4 => size as usize - 1,
                _ if size % 2 == 1 => 4,
                _ => 5,
            };
            state[c as usize] += 1 + b + if own { 0 } else { 6 };
        }
        for &(c, owner) in &setup.tiles {
            let own = owner == us;
            counts[2 + usize::from(!own)] += 1;
            state[c as usize] += 13 * if own { 1 } else { 2 };
        }
        let mut out = Vec::new();
        for (c, &s) in state.iter().enumerate() {
            if s == 0 {
                continue;
            }
            let (x, y) = (g.x[c] as i32, g.y[c] as i32);
            let (x, y) = if us == Side::White { (x, y) } else { (-x, -y) };
            let orbit = g.cell_at(-x.abs(), y).expect("on the board") as usize;
            assert!(orbit < l.orbits);
            out.push((phase * l.orbits + orbit) * 39 + s);
        }
        out.push(l.bias());
        out.extend(
            counts
                .iter()
                .enumerate()
                .map(|(i, &n)| l.tail().count(i, n)),
        );
        out.sort_unstable();
        out
    }

    pub(crate) fn features<B: HexBoard>(pos: &Position) -> Vec<usize> {
        let mut f = Vec::new();
        active_features::<B>(pos, |i| f.push(i));
        f
    }

    fn sorted<B: HexBoard>(pos: &Position) -> Vec<usize> {
        let mut f = features::<B>(pos);
        f.sort_unstable();
        f
    }

    fn check_features<B: HexBoard>() {
        let l = HexLayout::of::<B>();
        let file = random_file::<B>(7, Base::None);
        let learned = Learned::from_file::<B>(&file, "test").expect("random weights load");
        let (mut positions, mut late, mut big) = (0, 0, 0);
        for seed in 1..=12 {
            random_game::<B>(seed, 150, |pos| {
                positions += 1;
                let f = features::<B>(pos);
                late += usize::from(f[0] >= l.cell(1, 0, 0));
                big += usize::from(pos.sizes.iter().any(|&s| s >= 3));
                assert!(f.iter().all(|&i| i < l.total()));
                let fen = Hex::<B>::fen(pos);
                let s = sorted::<B>(pos);
                assert_eq!(s, features_by_coordinates::<B>(pos), "{fen}");
                // Seen from the side to move: the twin has the same features, and so has
                // the mirror image (its cells share their weights).
                assert_eq!(s, sorted::<B>(&twin::<B>(pos)), "{fen}");
                assert_eq!(s, sorted::<B>(&mirror::<B>(pos)), "{fen}");
                let sum: f64 = f.iter().map(|&i| file.weights[i]).sum();
                let got = learned.evaluate(pos);
                let slack = 0.5 + f.len() as f64 / 16.0;
                assert!((got as f64 - sum).abs() <= slack, "{got} vs {sum}");
            });
        }
        assert!(positions > 600, "{}: {positions} positions", B::NAME);
        assert!(
            late > 100,
            "{}: {late} with more than half the tiles",
            B::NAME
        );
        assert!(big > 20, "{}: {big} with a stack of 3 or more", B::NAME);
    }

    #[test]
    fn features_match_a_recount_by_coordinates_the_twin_and_the_mirror() {
        check_features::<Side4>();
        check_features::<Side5>();
    }

    #[test]
    fn orbits_are_the_left_half_and_the_middle_column() {
        for (l, g) in [
            (HexLayout::of::<Side4>(), Side4::GEOMETRY),
            (HexLayout::of::<Side5>(), Side5::GEOMETRY),
        ] {
            let left = (0..g.cells).filter(|&c| g.x[c] <= 0).count();
            assert_eq!(l.orbits, left);
            assert!((0..l.orbits).all(|c| g.x[c] <= 0));
        }
        assert_eq!(HexLayout::of::<Side4>().orbits, 22);
        assert_eq!(HexLayout::of::<Side5>().orbits, 35);
        let t = &Orbits::<Side4>::TABLE;
        let g = Side4::GEOMETRY;
        // South's corner d1 is its own orbit; for North it is read as d7.
        let (d1, d7) = (g.bottom() as usize, g.top() as usize);
        assert_eq!((t[0][d1] as usize, t[1][d1] as usize), (d1, d7));
        // f1 (x = 2, the bottom of its column) folds onto b1 for South; North reads it
        // turned, as b5 (x = -2, the top of its column), already in the left half.
        let cell = |name| crate::hex::notation::parse_cell(g, name).expect("a cell") as usize;
        assert_eq!(t[0][cell("f1")] as usize, cell("b1"));
        assert_eq!(t[1][cell("f1")] as usize, cell("b5"));
    }

    #[test]
    fn the_layout_numbers_and_names_every_feature() {
        let l = HexLayout::of::<Side4>();
        assert_eq!(l.name(), "hex-psq-v1-37cells");
        assert_eq!(l.total(), 2 * 22 * 39 + 1 + 4 * 19);
        let l5 = HexLayout::of::<Side5>();
        assert_eq!(l5.name(), "hex-psq-v1-61cells");
        assert_eq!(l5.total(), 2 * 35 * 39 + 1 + 4 * 31);
        let names: std::collections::HashSet<String> =
            (0..l.total()).map(|i| l.feature_name(i)).collect();
        assert_eq!(names.len(), l.total());
        assert!(names.iter().all(|n| !n.contains(' ')));
        for name in [
            "bias",
            "own-tiles=18",
            "opp-stacks=0",
            "mid-d1-own1-owntile",
            "end-a4-opp6even-notile",
            "mid-c3-empty-opptile",
        ] {
            assert!(names.contains(name), "{name}");
        }
        assert_eq!(l.feature_name(l.total()), format!("unused-{}", l.total()));
    }

    fn check_start<B: HexBoard>() {
        let l = HexLayout::of::<B>();
        let g = B::GEOMETRY;
        let start = Hex::<B>::start();
        // An own 1-stack on an own tile in the bottom corner, the opponent's in the top.
        let t = l.tail();
        let mut want = vec![
            l.cell(0, g.bottom() as usize, STACK_STATES + 1),
            l.cell(0, g.top() as usize, 2 * STACK_STATES + 1 + SIZE_BUCKETS),
            l.bias(),
            t.count(0, 1),
            t.count(1, 1),
            t.count(2, 1),
            t.count(3, 1),
        ];
        want.sort_unstable();
        assert_eq!(sorted::<B>(&start), want);
        assert_eq!(sorted::<B>(&twin::<B>(&start)), want);
    }

    #[test]
    fn start_position_features() {
        check_start::<Side4>();
        check_start::<Side5>();
    }

    #[test]
    fn the_second_tables_take_over_past_half_the_cells_tiled() {
        let l = HexLayout::of::<Side4>();
        assert_eq!((l.phase(18), l.phase(19)), (0, 1));
        let pos = Hex::<Side4>::parse_position(
            "B:Wa1,b1^3:Bd7^2:TWa1,a2,a3,a4,b1,b2,b3,b4,b5,c1,c2,c3,c4,c5,c6,d1,d2,d3:TBd7",
        )
        .expect("test position");
        let f = features::<Side4>(&pos);
        assert_eq!(f[0] / (22 * CELL_STATES), 1, "19 tiles");
        let names: Vec<String> = f.iter().map(|&i| l.feature_name(i)).collect();
        // North to move: its 2-stack on its tile d7 reads as d1; South's 3-stack on b1 as
        // f5 (the top of column f), folded to b5, on an opponent's tile.
        assert!(names.contains(&"end-d1-own2-owntile".into()), "{names:?}");
        assert!(names.contains(&"end-b5-opp3-opptile".into()), "{names:?}");
        assert!(names.contains(&"opp-tiles=18".into()), "{names:?}");
        assert!(names.contains(&"own-tiles=1".into()), "{names:?}");
    }

    #[test]
    fn weights_for_another_set_or_variant_are_refused() {
        let file = random_file::<Side5>(1, Base::Hand);
        let err = Learned::from_file::<Side4>(&file, "x").expect_err("side-5 weights");
        assert!(
            err.contains("feature set 'hex-psq-v1-61cells', expected 'hex-psq-v1-37cells'"),
            "{err}"
        );
        let mut file = random_file::<Side4>(1, Base::Hand);
        file.variant = "seesaw-draughts".into();
        let err = Learned::from_file::<Side4>(&file, "x").expect_err("another variant's");
        assert!(
            err.contains("weights for seesaw-draughts, not seesaw"),
            "{err}"
        );
        let mut file = random_file::<Side4>(1, Base::Hand);
        file.feature_set = "stacks-psq-v1".into();
        let err = Learned::from_file::<Side4>(&file, "x").expect_err("another family's");
        assert!(err.contains("feature set 'stacks-psq-v1'"), "{err}");
        let mut file = random_file::<Side4>(1, Base::Hand);
        file.weights.pop();
        let err = Learned::from_file::<Side4>(&file, "x").expect_err("one short");
        assert!(err.contains("1792 weights, expected 1793"), "{err}");
        let mut file = random_file::<Side4>(1, Base::Hand);
        file.weights[3] = 5000.0;
        let err = Learned::from_file::<Side4>(&file, "x").expect_err("too big");
        assert!(err.contains("out of range"), "{err}");
    }
}
