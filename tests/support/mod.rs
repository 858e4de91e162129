//! Shared helpers for Polydam's integration tests.

use std::path::PathBuf;

use polydam_engine::game::{Duplicates, Game, MoveStyle};
use polydam_engine::variants::GameVisitor;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The legal moves of the position `fen` in variant `G` (duplicate capture paths dropped, as
/// the engine plays), written in `style` and sorted.
///
/// # Panics
///
/// If `fen` is not a position of `G`: the callers are tests, whose positions are constants.
pub fn moves_in<G: Game>(fen: &str, style: MoveStyle) -> Vec<String> {
    let pos = G::parse_position(fen).expect("test position parses");
    let mut list = Vec::new();
    G::generate(&pos, Duplicates::Drop, &mut list);
    let mut texts: Vec<String> = list.iter().map(|m| G::move_text(&pos, m, style)).collect();
    texts.sort();
    texts
}

/// [`moves_in`] in Hub form.
///
/// # Panics
///
/// If `fen` is not a position of `G`.
pub fn moves<G: Game>(fen: &str) -> Vec<String> {
    moves_in::<G>(fen, MoveStyle::Hub)
}

/// Random games of one variant, checking after every move that the incremental hash equals a
/// fresh computation, that the FEN reads back to the same position and the Hub position string
/// to itself (it has no room for Frisian's king-move counters), and at every position that no move is listed twice, that every move's text (both
/// styles) reads back to that move, and that perft's bulk count ([`Game::count_moves`]) equals
/// the list's length in both duplicate conventions, and that every move's cells
/// ([`Game::move_path`]) are cells of the board view, different for different moves. Answers the plies played and the games
/// that ended before `max_plies`.
pub struct Playouts {
    /// Games to play.
    pub games: usize,
    /// The longest game, in plies.
    pub max_plies: usize,
    /// Seed of the random move choice.
    pub seed: u64,
}

impl GameVisitor for Playouts {
    type Output = Result<(usize, usize), String>;
    fn visit<G: Game>(self) -> Self::Output {
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let mut plies = 0;
        let mut finished = 0;
        let mut list = Vec::new();
        let mut scratch = Vec::new();
        for game in 0..self.games {
            let mut pos = G::start();
            for ply in 0..self.max_plies {
                let at =
                    |what: String| format!("game {game} ply {ply}: {what} in {}", G::fen(&pos));
                if G::decided(&pos).is_some() {
                    finished += 1;
                    break;
                }
                G::generate(&pos, Duplicates::Drop, &mut list);
                for dups in [Duplicates::Drop, Duplicates::Keep] {
                    G::generate(&pos, dups, &mut scratch);
                    let listed = scratch.len() as u64;
                    let counted = G::count_moves(&pos, dups, &mut scratch);
                    if counted != listed {
                        return Err(at(format!(
                            "{counted} moves counted, {listed} listed ({dups:?})"
                        )));
                    }
                }
                if list.is_empty() {
                    finished += 1;
                    break;
                }
                // Every move's cells (what a front end selects it by) are cells of the board
                // drawn, and no two moves pass through the same cells.
                let view = G::board_view(&pos, None);
                let labels: std::collections::HashSet<&str> = view
                    .cells
                    .iter()
                    .filter(|c| c.playable)
                    .map(|c| c.label.as_str())
                    .collect();
                let mut paths = std::collections::HashSet::new();
                for m in &list {
                    let path = G::move_path(&pos, m);
                    let text = G::move_text(&pos, m, MoveStyle::Pdn);
                    if path.is_empty() && text != "pass" {
                        return Err(at(format!("'{text}' has no cells")));
                    }
                    if let Some(bad) = path.iter().find(|l| !labels.contains(l.as_str())) {
                        return Err(at(format!("'{text}' passes through '{bad}', no cell")));
                    }
                    if !paths.insert(path.clone()) {
                        return Err(at(format!("'{text}': another move has cells {path:?}")));
                    }
                }
                for (i, m) in list.iter().enumerate() {
                    if list[..i].contains(m) {
                        return Err(at(format!("{m:?} listed twice")));
                    }
                    for style in [MoveStyle::Hub, MoveStyle::Pdn] {
                        let text = G::move_text(&pos, m, style);
                        match G::parse_move(&pos, &text) {
                            Ok(back) if back == *m => {}
                            Ok(back) => {
                                return Err(at(format!(
                                    "'{text}' read back as {back:?}, not {m:?}"
                                )))
                            }
                            Err(e) => return Err(at(format!("'{text}' does not read back: {e}"))),
                        }
                    }
                }
                let m = list[rng.gen_range(0..list.len())];
                let before = pos;
                pos = G::play(&pos, &m);
                plies += 1;
                if G::hash(&pos) != G::hash_from_scratch(&pos) {
                    return Err(format!(
                        "game {game} ply {ply}: incremental hash differs after {} from {}",
                        G::move_text(&before, &m, MoveStyle::Hub),
                        G::fen(&before)
                    ));
                }
                let fen = G::fen(&pos);
                match G::parse_position(&fen) {
                    Ok(back) if back == pos => {}
                    Ok(_) => return Err(format!("{fen} reads back differently")),
                    Err(e) => return Err(format!("{fen} does not read back: {e}")),
                }
                // The Hub string is the board and the side to move only: Frisian's king-move
                // counters come from the game's moves (card `frisian.md`, "Notation"), so
                // it must read back to itself, not to the whole position.
                let hub = G::hub_position(&pos);
                match G::parse_position(&hub) {
                    Ok(back) if back == pos || G::hub_position(&back) == hub => {}
                    Ok(_) => return Err(format!("{hub} reads back differently")),
                    Err(e) => return Err(format!("{hub} does not read back: {e}")),
                }
            }
        }
        Ok((plies, finished))
    }
}

/// The `shared/` folder beside the checkout (`../shared` from the workspace root), or
/// `$POLYDAM_SHARED` when set.
pub fn shared_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("POLYDAM_SHARED") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
}

/// One row of `shared/perft/reference.tsv`.
#[derive(Clone, Debug)]
pub struct PerftRow {
    /// Variant name.
    pub variant: String,
    /// PDN FEN, or `start`.
    pub position: String,
    /// `drop` or `keep`.
    pub duplicates: String,
    /// Depth.
    pub depth: u32,
    /// Expected node count.
    pub nodes: u64,
}

/// Reads the published perft counts, `shared/perft/reference.tsv`.
pub fn perft_rows() -> Result<Vec<PerftRow>, String> {
    read_perft_file(&shared_dir().join("perft").join("reference.tsv"))
}

/// Reads our own perft counts, `tests/data/perft-own.tsv` (the games with no published counts).
pub fn own_perft_rows() -> Result<Vec<PerftRow>, String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join("perft-own.tsv");
    read_perft_file(&path)
}

/// Reads a perft file: a header line, then `variant position duplicates depth nodes source`
/// separated by tabs.
fn read_perft_file(path: &std::path::Path) -> Result<Vec<PerftRow>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 5 {
            return Err(format!(
                "{} line {}: too few columns",
                path.display(),
                i + 1
            ));
        }
        rows.push(PerftRow {
            variant: f[0].to_string(),
            position: f[1].to_string(),
            duplicates: f[2].to_string(),
            depth: f[3]
                .parse()
                .map_err(|e| format!("line {}: depth: {e}", i + 1))?,
            nodes: f[4]
                .parse()
                .map_err(|e| format!("line {}: nodes: {e}", i + 1))?,
        });
    }
    Ok(rows)
}
