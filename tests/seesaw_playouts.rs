//! Long random playouts of the Seesaw variants (the checks of [`Playouts`], over many more and
//! longer games than the test of every variant in `invariants.rs` plays), and slow independent
//! references that the Seesaw generators must agree with.

use crate::support::Playouts;
use polydam_engine::game::{Duplicates, Game, MoveStyle};
use polydam_engine::variants::{dispatch, GameVisitor};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn run(name: &str, games: usize, max_plies: usize, seed: u64) {
    let (plies, finished) = dispatch(
        name,
        Playouts {
            games,
            max_plies,
            seed,
        },
    )
    .expect("registered")
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    eprintln!("{name}: {games} games, {plies} plies, {finished} finished");
    assert!(plies > games * 10, "{name}: only {plies} plies");
}

#[test]
fn seesaw_draughts_random_playouts() {
    run("seesaw-draughts", 3000, 250, 0x5EE5_0001);
}

#[test]
fn seesaw_hex_side_4_random_playouts() {
    run("seesaw", 2000, 300, 0x5EE5_0004);
}

#[test]
fn seesaw_hex_side_5_random_playouts() {
    run("seesaw-5", 1000, 300, 0x5EE5_0005);
}

// ------------------------------------------------------------------------------------------
// An independent, slow reference for hex Seesaw: plain coordinates, hash sets and the FEN
// text, no bitboards and no geometry tables. Every position of many random games must give
// the same set of turns as the engine.

mod hex_reference {
    use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

    type Cell = (i32, i32);
    const DIRS: [Cell; 6] = [(0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)];

    #[derive(PartialEq, Debug, Clone)]
    pub struct Board {
        side: i32,
        white_to_move: bool,
        stacks: HashMap<Cell, (bool, u32)>,
        tiles: HashMap<Cell, bool>,
        passed: bool,
    }

    fn on_board(side: i32, (x, y): Cell) -> bool {
        let top = 2 * (side - 1) - x.abs();
        x.abs() < side && y.abs() <= top && (y + top) % 2 == 0
    }

    fn name(side: i32, (x, y): Cell) -> String {
        let top = 2 * (side - 1) - x.abs();
        format!(
            "{}{}",
            (b'a' + (x + side - 1) as u8) as char,
            (y + top) / 2 + 1
        )
    }

    fn cell(side: i32, text: &str) -> Cell {
        let col = text.as_bytes()[0] as i32 - 'a' as i32;
        let num: i32 = text[1..].parse().expect("number");
        let x = col - (side - 1);
        let top = 2 * (side - 1) - x.abs();
        (x, -top + 2 * (num - 1))
    }

    /// Reads the engine's FEN (`W:Wd1^2:Bd7:TWd1:TBd7[:pass]`).
    pub fn parse(side: i32, fen: &str) -> Board {
        let mut parts = fen.split(':');
        let white_to_move = parts.next() == Some("W");
        let mut b = Board {
            side,
            white_to_move,
            stacks: HashMap::new(),
            tiles: HashMap::new(),
            passed: false,
        };
        for p in parts {
            if p == "pass" {
                b.passed = true;
                continue;
            }
            let (tile, white, list) = if let Some(r) = p.strip_prefix("TW") {
                (true, true, r)
            } else if let Some(r) = p.strip_prefix("TB") {
                (true, false, r)
            } else if let Some(r) = p.strip_prefix('W') {
                (false, true, r)
            } else {
                (false, false, &p[1..])
            };
            for item in list.split(',').filter(|i| !i.is_empty()) {
                let (c, size) = match item.split_once('^') {
                    Some((c, s)) => (c, s.parse().expect("size")),
                    None => (item, 1),
                };
                if tile {
                    b.tiles.insert(cell(side, c), white);
                } else {
                    b.stacks.insert(cell(side, c), (white, size));
                }
            }
        }
        b
    }

    fn add((x, y): Cell, (dx, dy): Cell) -> Cell {
        (x + dx, y + dy)
    }

    impl Board {
        fn free(&self, c: Cell, lifted: Cell, gone: &HashSet<Cell>) -> bool {
            on_board(self.side, c)
                && (c == lifted || gone.contains(&c) || !self.stacks.contains_key(&c))
        }

        fn enemy(&self, c: Cell, gone: &HashSet<Cell>) -> bool {
            !gone.contains(&c)
                && self
                    .stacks
                    .get(&c)
                    .is_some_and(|&(w, _)| w != self.white_to_move)
        }

        /// Enemy stacks within `steps` of `from` (all directions, through free cells), with
        /// the shortest distance.
        fn targets(
            &self,
            from: Cell,
            steps: u32,
            lifted: Cell,
            gone: &HashSet<Cell>,
        ) -> Vec<(Cell, u32)> {
            let mut dist: HashMap<Cell, u32> = HashMap::new();
            let mut out: HashMap<Cell, u32> = HashMap::new();
            let mut queue = VecDeque::new();
            dist.insert(from, 0);
            queue.push_back(from);
            while let Some(c) = queue.pop_front() {
                let d = dist[&c];
                if d == steps {
                    continue;
                }
                for dir in DIRS {
                    let n = add(c, dir);
                    if !on_board(self.side, n) {
                        continue;
                    }
                    if self.enemy(n, gone) {
                        out.entry(n).or_insert(d + 1);
                    } else if self.free(n, lifted, gone) && !dist.contains_key(&n) {
                        dist.insert(n, d + 1);
                        queue.push_back(n);
                    }
                }
            }
            let mut v: Vec<(Cell, u32)> = out.into_iter().collect();
            v.sort();
            v
        }

        /// Cells a direction-restricted walk of 1..=steps reaches.
        fn walk(
            &self,
            from: Cell,
            steps: u32,
            odd: bool,
            lifted: Cell,
            gone: &HashSet<Cell>,
        ) -> BTreeSet<Cell> {
            let up = odd == self.white_to_move;
            let dirs: Vec<Cell> = DIRS.iter().copied().filter(|d| (d.1 > 0) == up).collect();
            let mut reached = BTreeSet::new();
            let mut layer = vec![from];
            for _ in 0..steps {
                let mut next = Vec::new();
                for &c in &layer {
                    for &d in &dirs {
                        let n = add(c, d);
                        if self.free(n, lifted, gone) && n != from && reached.insert(n) {
                            next.push(n);
                        }
                    }
                }
                layer = next;
            }
            reached
        }

        fn sequences(
            &self,
            from: Cell,
            cur: Cell,
            rem: u32,
            gone: &mut HashSet<Cell>,
            size: u32,
            out: &mut BTreeSet<String>,
        ) {
            let t = if rem > 0 {
                self.targets(cur, rem, from, gone)
            } else {
                Vec::new()
            };
            if !t.is_empty() {
                for (c, k) in t {
                    gone.insert(c);
                    self.sequences(from, c, rem - k, gone, size, out);
                    gone.remove(&c);
                }
                return;
            }
            let mut caps: Vec<String> = gone.iter().map(|&c| name(self.side, c)).collect();
            caps.sort();
            let caps = caps.join(",");
            out.insert(format!(
                "x {} {} {caps}",
                name(self.side, from),
                name(self.side, cur)
            ));
            for d in self.walk(cur, rem, size % 2 == 1, from, gone) {
                out.insert(format!(
                    "x {} {} {caps}",
                    name(self.side, from),
                    name(self.side, d)
                ));
            }
        }

        /// The board after the turn `canonical` (as produced by [`Board::turns`]), with the
        /// card's promotion at the end of the turn.
        pub fn apply(&self, canonical: &str) -> Board {
            let mut b = self.clone();
            b.white_to_move = !self.white_to_move;
            b.passed = canonical == "pass";
            if b.passed {
                return b;
            }
            let f: Vec<&str> = canonical.split(' ').collect();
            let (from, to) = (cell(self.side, f[1]), cell(self.side, f[2]));
            if f[0] == "@" {
                b.tiles.insert(to, self.white_to_move);
                b.stacks.insert(to, (self.white_to_move, 1));
                return b;
            }
            for c in f[3].split(',').filter(|c| !c.is_empty()) {
                b.stacks.remove(&cell(self.side, c));
            }
            let (w, size) = b.stacks.remove(&from).expect("moving stack");
            let promote = match self.tiles.get(&to) {
                Some(&tw) => (size % 2 == 1) == (tw != w),
                None => false,
            };
            b.stacks.insert(to, (w, size + promote as u32));
            b
        }

        /// Every legal turn as `kind from to captured`, or empty when the game is over.
        pub fn turns(&self) -> BTreeSet<String> {
            let mut out = BTreeSet::new();
            let mine: Vec<(Cell, u32)> = self
                .stacks
                .iter()
                .filter(|(_, &(w, _))| w == self.white_to_move)
                .map(|(&c, &(_, s))| (c, s))
                .collect();
            if mine.is_empty() {
                return out;
            }
            let mut gone = HashSet::new();
            for &(c, size) in &mine {
                for (t, k) in self.targets(c, size, c, &gone) {
                    gone.insert(t);
                    self.sequences(c, t, size - k, &mut gone, size, &mut out);
                    gone.remove(&t);
                }
            }
            if !out.is_empty() {
                return out;
            }
            for &(c, size) in &mine {
                for d in self.walk(c, size, size % 2 == 1, c, &gone) {
                    out.insert(format!("- {} {} ", name(self.side, c), name(self.side, d)));
                }
            }
            for (&t, &w) in &self.tiles {
                if w != self.white_to_move {
                    continue;
                }
                for dir in DIRS {
                    let n = add(t, dir);
                    if on_board(self.side, n)
                        && !self.tiles.contains_key(&n)
                        && !self.stacks.contains_key(&n)
                    {
                        out.insert(format!("@ {} {} ", name(self.side, n), name(self.side, n)));
                    }
                }
            }
            if out.is_empty() && !self.passed {
                out.insert("pass".into());
            }
            out
        }
    }
}

struct HexReference {
    side: i32,
    games: usize,
    seed: u64,
}

impl GameVisitor for HexReference {
    type Output = Result<usize, String>;
    fn visit<G: Game>(self) -> Self::Output {
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let mut list = Vec::new();
        let mut checked = 0;
        for game in 0..self.games {
            let mut pos = G::start();
            for ply in 0..300 {
                let fen = G::fen(&pos);
                let reference = hex_reference::parse(self.side, &fen).turns();
                G::generate(&pos, Duplicates::Drop, &mut list);
                let ours: std::collections::BTreeSet<String> = list
                    .iter()
                    .map(|m| canonical(&G::move_text(&pos, m, MoveStyle::Hub)))
                    .collect();
                if ours != reference || ours.len() != list.len() {
                    return Err(format!(
                        "game {game} ply {ply} in {fen}:\n engine    {ours:?}\n reference {reference:?}"
                    ));
                }
                checked += 1;
                if list.is_empty() || G::decided(&pos).is_some() {
                    break;
                }
                let m = list[rng.gen_range(0..list.len())];
                let next = G::play(&pos, &m);
                let text = G::move_text(&pos, &m, MoveStyle::Hub);
                let expected = hex_reference::parse(self.side, &fen).apply(&canonical(&text));
                if hex_reference::parse(self.side, &G::fen(&next)) != expected {
                    return Err(format!(
                        "game {game} ply {ply}: {text} from {fen} gives {}",
                        G::fen(&next)
                    ));
                }
                pos = next;
            }
        }
        Ok(checked)
    }
}

/// `d1xd4xe5-e7` as `x d1 e7 d4,e5`; `d1-d3` as `- d1 d3 `; `@d2` as `@ d2 d2 `.
fn canonical(text: &str) -> String {
    if text == "pass" {
        return text.into();
    }
    if let Some(c) = text.strip_prefix('@') {
        return format!("@ {c} {c} ");
    }
    if !text.contains('x') {
        let (a, b) = text.split_once('-').expect("step");
        return format!("- {a} {b} ");
    }
    let (head, tail) = match text.split_once('-') {
        Some((h, t)) => (h, Some(t)),
        None => (text, None),
    };
    let mut parts: Vec<&str> = head.split('x').collect();
    let from = parts.remove(0);
    let end = tail.unwrap_or(parts[parts.len() - 1]);
    parts.sort();
    format!("x {from} {end} {}", parts.join(","))
}

#[test]
fn hex_generator_matches_a_naive_reference() {
    for (name, side, games) in [("seesaw", 4, 300), ("seesaw-5", 5, 150)] {
        let checked = dispatch(
            name,
            HexReference {
                side,
                games,
                seed: 0x5EE5_0100 + side as u64,
            },
        )
        .expect("registered")
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!("{name}: {checked} positions agree with the reference");
    }
}

// ------------------------------------------------------------------------------------------
// An independent, slow reference for Seesaw Draughts: ranks and files, hash maps and the FEN
// text. Every position of many random games must give the same moves, and every move the same
// resulting position (sizes and promotions included).

mod sd_reference {
    use std::collections::{BTreeSet, HashMap};

    /// (row from the top, file from the left).
    type Sq = (i32, i32);

    #[derive(PartialEq, Debug, Clone)]
    pub struct Board {
        white_to_move: bool,
        stacks: HashMap<Sq, (bool, u32)>,
    }

    fn sq(n: i32) -> Sq {
        let row = (n - 1) / 4;
        let file = 2 * ((n - 1) % 4) + if row % 2 == 0 { 1 } else { 0 };
        (row, file)
    }

    fn number((row, file): Sq) -> i32 {
        row * 4 + file / 2 + 1
    }

    fn on_board((r, f): Sq) -> bool {
        (0..8).contains(&r) && (0..8).contains(&f)
    }

    pub fn parse(fen: &str) -> Board {
        let mut parts = fen.split(':');
        let white_to_move = parts.next() == Some("W");
        let mut stacks = HashMap::new();
        for p in parts {
            let white = p.starts_with('W');
            for item in p[1..].split(',').filter(|i| !i.is_empty()) {
                let (squares, size) = match item.split_once('^') {
                    Some((a, s)) => (a, s.parse().expect("size")),
                    None => (item, 1),
                };
                let (lo, hi) = match squares.split_once('-') {
                    Some((a, b)) => (a.parse().expect("sq"), b.parse().expect("sq")),
                    None => {
                        let n: i32 = squares.parse().expect("sq");
                        (n, n)
                    }
                };
                for n in lo..=hi {
                    stacks.insert(sq(n), (white, size));
                }
            }
        }
        Board {
            white_to_move,
            stacks,
        }
    }

    impl Board {
        fn jumps(
            &self,
            from: Sq,
            cur: Sq,
            size: u32,
            taken: &mut Vec<Sq>,
            out: &mut BTreeSet<String>,
        ) {
            let mut any = false;
            for (dr, df) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
                let empty = |s: Sq| on_board(s) && (s == from || !self.stacks.contains_key(&s));
                let mut k = 1;
                let mut s = (cur.0 + dr, cur.1 + df);
                while k <= size as i32 && empty(s) {
                    s = (s.0 + dr, s.1 + df);
                    k += 1;
                }
                if k > size as i32 || !on_board(s) || taken.contains(&s) {
                    continue;
                }
                match self.stacks.get(&s) {
                    Some(&(w, _)) if w != self.white_to_move => {}
                    _ => continue,
                }
                let land = (s.0 + dr, s.1 + df);
                if !empty(land) {
                    continue;
                }
                any = true;
                taken.push(s);
                self.jumps(from, land, size, taken, out);
                taken.pop();
            }
            if !any && !taken.is_empty() {
                let mut caps: Vec<i32> = taken.iter().map(|&s| number(s)).collect();
                caps.sort();
                let mut text = format!("{}x{}", number(from), number(cur));
                for c in caps {
                    text.push_str(&format!("x{c}"));
                }
                out.insert(text);
            }
        }

        /// Every legal move in Hub form.
        pub fn moves(&self) -> BTreeSet<String> {
            let mut out = BTreeSet::new();
            let mine: Vec<(Sq, u32)> = self
                .stacks
                .iter()
                .filter(|(_, &(w, _))| w == self.white_to_move)
                .map(|(&s, &(_, n))| (s, n))
                .collect();
            for &(s, n) in &mine {
                self.jumps(s, s, n, &mut Vec::new(), &mut out);
            }
            if !out.is_empty() {
                return out;
            }
            let forward = if self.white_to_move { -1 } else { 1 };
            for &(s, n) in &mine {
                let dr = if n % 2 == 1 { forward } else { -forward };
                for df in [-1, 1] {
                    let t = (s.0 + dr, s.1 + df);
                    if on_board(t) && !self.stacks.contains_key(&t) {
                        out.insert(format!("{}-{}", number(s), number(t)));
                    }
                }
            }
            out
        }

        /// The board after the Hub-form move `text`.
        pub fn apply(&self, text: &str) -> Board {
            let nums: Vec<i32> = text
                .split(['x', '-'])
                .map(|t| t.parse().expect("square"))
                .collect();
            let mut b = self.clone();
            b.white_to_move = !self.white_to_move;
            for &c in &nums[2..] {
                b.stacks.remove(&sq(c));
            }
            let (w, size) = b.stacks.remove(&sq(nums[0])).expect("moving stack");
            let to = sq(nums[1]);
            let far = if w { 0 } else { 7 };
            let own = 7 - far;
            let promote = if size % 2 == 1 {
                to.0 == far
            } else {
                to.0 == own
            };
            b.stacks.insert(to, (w, size + promote as u32));
            b
        }
    }
}

struct SdReference {
    games: usize,
    seed: u64,
}

impl GameVisitor for SdReference {
    type Output = Result<usize, String>;
    fn visit<G: Game>(self) -> Self::Output {
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let mut list = Vec::new();
        let mut checked = 0;
        for game in 0..self.games {
            let mut pos = G::start();
            for ply in 0..400 {
                let fen = G::fen(&pos);
                let board = sd_reference::parse(&fen);
                let reference = board.moves();
                G::generate(&pos, Duplicates::Drop, &mut list);
                let ours: std::collections::BTreeSet<String> = list
                    .iter()
                    .map(|m| G::move_text(&pos, m, MoveStyle::Hub))
                    .collect();
                if ours != reference || ours.len() != list.len() {
                    return Err(format!(
                        "game {game} ply {ply} in {fen}:\n engine    {ours:?}\n reference {reference:?}"
                    ));
                }
                checked += 1;
                if list.is_empty() {
                    break;
                }
                let m = list[rng.gen_range(0..list.len())];
                let next = G::play(&pos, &m);
                let text = G::move_text(&pos, &m, MoveStyle::Hub);
                if sd_reference::parse(&G::fen(&next)) != board.apply(&text) {
                    return Err(format!(
                        "game {game} ply {ply}: {text} from {fen} gives {}",
                        G::fen(&next)
                    ));
                }
                pos = next;
            }
        }
        Ok(checked)
    }
}

#[test]
fn seesaw_draughts_generator_matches_a_naive_reference() {
    let checked = dispatch(
        "seesaw-draughts",
        SdReference {
            games: 400,
            seed: 0x5EE5_0200,
        },
    )
    .expect("registered")
    .unwrap_or_else(|e| panic!("seesaw-draughts: {e}"));
    eprintln!("seesaw-draughts: {checked} positions agree with the reference");
}

// ------------------------------------------------------------------------------------------
// The evaluations are colour-symmetric: a position and its mirror image (board turned, colours
// swapped, the other side to move) score the same.

fn sd_mirror(
    pos: &polydam_engine::stacks::Position,
) -> Result<polydam_engine::stacks::Position, String> {
    use polydam_engine::stacks::{Position, Setup};
    let mut m = Setup::new(pos.side_to_move().opponent());
    for (n, owner, size) in pos.to_setup().stacks {
        m.stacks.push((33 - n, owner.opponent(), size));
    }
    Position::from_setup(m).map_err(|e| e.to_string())
}

fn hex_mirror<B: polydam_engine::hex::HexBoard>(
    pos: &polydam_engine::hex::Position,
) -> Result<polydam_engine::hex::Position, String> {
    use polydam_engine::hex::{Position, Setup};
    let g = B::GEOMETRY;
    let flip = |c: u8| -> Result<u8, String> {
        let (col, num) = g.name_parts(c);
        let x = col as i32 - (g.side - 1);
        let len = (2 * g.side - 1 - x.abs()) as u8;
        g.cell_named(col, len + 1 - num)
            .ok_or_else(|| "cell".to_string())
    };
    let mut m = Setup::new(pos.side_to_move().opponent());
    m.passed = pos.passed();
    let setup = pos.to_setup();
    for (cell, owner, size) in setup.stacks {
        m.stacks.push((flip(cell)?, owner.opponent(), size));
    }
    for (cell, colour) in setup.tiles {
        m.tiles.push((flip(cell)?, colour.opponent()));
    }
    Position::from_setup::<B>(m).map_err(|e| e.to_string())
}

fn symmetric_over_playouts<G: Game>(
    games: usize,
    seed: u64,
    mirror: impl Fn(&G::Position) -> Result<G::Position, String>,
) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut list = Vec::new();
    let mut mirrored_list = Vec::new();
    for _ in 0..games {
        let mut pos = G::start();
        for _ in 0..200 {
            let m = mirror(&pos).expect("mirror");
            assert_eq!(
                G::evaluate(&pos),
                G::evaluate(&m),
                "{} against its mirror {}",
                G::fen(&pos),
                G::fen(&m)
            );
            G::generate(&pos, Duplicates::Drop, &mut list);
            G::generate(&m, Duplicates::Drop, &mut mirrored_list);
            assert_eq!(
                list.len(),
                mirrored_list.len(),
                "move counts in {}",
                G::fen(&pos)
            );
            if list.is_empty() || G::decided(&pos).is_some() {
                break;
            }
            pos = G::play(&pos, &list[rng.gen_range(0..list.len())]);
        }
    }
}

#[test]
fn seesaw_evaluations_are_colour_symmetric() {
    use polydam_engine::hex::{Hex, Side4, Side5};
    use polydam_engine::stacks::SeesawDraughts;
    symmetric_over_playouts::<SeesawDraughts>(200, 0x5EE5_0300, sd_mirror);
    symmetric_over_playouts::<Hex<Side4>>(200, 0x5EE5_0301, hex_mirror::<Side4>);
    symmetric_over_playouts::<Hex<Side5>>(100, 0x5EE5_0302, hex_mirror::<Side5>);
}
