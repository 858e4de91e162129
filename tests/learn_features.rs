//! The learning features of the diagonal family (`polydam_engine::learn::features`) over
//! random playouts: every index is below the set's count, a position and its colour-mirrored
//! twin give the same features, and the pattern set's indices equal a slow reference that
//! reads the FEN square by square.

use polydam_engine::diagonal::rules::{Brazilian, International};
use polydam_engine::diagonal::Diagonal;
use polydam_engine::game::Duplicates;
use polydam_engine::learn::features::{FeatureKind, Features};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A piece read from a FEN: square number (standard numbering), white, king.
type Piece = (usize, bool, bool);

/// The side to move (white?) and the pieces of a FEN in standard numbering (`W:W31,K45-47:B7`).
fn read_fen(fen: &str) -> (bool, Vec<Piece>) {
    let mut parts = fen.split(':');
    let white_to_move = parts.next() == Some("W");
    let mut pieces = Vec::new();
    for part in parts {
        let white = part.starts_with('W');
        for item in part[1..].split(',').filter(|i| !i.is_empty()) {
            let king = item.starts_with('K');
            let item = item.trim_start_matches('K');
            let (a, b) = item.split_once('-').unwrap_or((item, item));
            let (a, b): (usize, usize) = (a.parse().expect("square"), b.parse().expect("square"));
            pieces.extend((a..=b).map(|n| (n, white, king)));
        }
    }
    (white_to_move, pieces)
}

/// The FEN of the same position seen from the other side: colours swapped, the board turned
/// half a turn (square `n` becomes `squares + 1 - n`), the other side to move.
fn mirrored_fen(fen: &str, squares: usize) -> String {
    let (white_to_move, pieces) = read_fen(fen);
    let list = |white: bool| {
        let mut turned: Vec<(usize, bool)> = pieces
            .iter()
            .filter(|p| p.1 != white)
            .map(|&(n, _, king)| (squares + 1 - n, king))
            .collect();
        turned.sort_unstable();
        let items: Vec<String> = turned
            .iter()
            .map(|&(n, king)| format!("{}{n}", if king { "K" } else { "" }))
            .collect();
        items.join(",")
    };
    let side = if white_to_move { "B" } else { "W" };
    format!("{side}:W{}:B{}", list(true), list(false))
}

/// The pattern features computed square by square from the FEN of a board with `rows` rows
/// (standard numbering: square 1 is the top row's leftmost dark square, on file 1).
fn reference_patterns(fen: &str, rows: usize) -> Vec<u32> {
    let half = rows / 2;
    let men_per_side = half * (rows / 2 - 1);
    let (white_to_move, pieces) = read_fen(fen);
    // Cells seen from the side to move, by (row, file); Black's board is turned.
    let mut cell = vec![vec![0usize; rows]; rows];
    let mut counts = [0usize; 4];
    for &(n, white, king) in &pieces {
        let row = (n - 1) / half;
        let file = 2 * ((n - 1) % half) + (1 - row % 2);
        let (row, file) = if white_to_move {
            (row, file)
        } else {
            (rows - 1 - row, rows - 1 - file)
        };
        let own = white == white_to_move;
        counts[usize::from(!own) + 2 * usize::from(king)] += 1;
        if !king {
            cell[row][file] = if own { 1 } else { 2 };
        }
    }
    let per_row = rows / 2 - 1;
    let windows = per_row * per_row;
    let phase = usize::from(counts[0] + counts[1] <= men_per_side);
    let mut out = Vec::new();
    for w in 0..windows {
        let (top, left) = (2 * (w / per_row), 2 * (w % per_row));
        let (mut state, mut power) = (0, 1);
        for (row, cells) in cell.iter().enumerate().skip(top).take(4) {
            for (file, &digit) in cells.iter().enumerate().skip(left).take(4) {
                if (row + file) % 2 == 1 {
                    state += digit * power;
                    power *= 3;
                }
            }
        }
        out.push(((phase * windows + w) * 6561 + state) as u32);
    }
    let bias = 2 * windows * 6561;
    out.push(bias as u32);
    for (group, n) in counts.into_iter().enumerate() {
        out.push((bias + 1 + group * (men_per_side + 1) + n.min(men_per_side)) as u32);
    }
    out
}

fn features<G: Features>(kind: FeatureKind, fen: &str) -> Vec<u32> {
    let pos = G::parse_position(fen).expect("position reads");
    let mut f = Vec::new();
    G::features(kind, &pos, &mut f);
    f
}

/// Random playouts of `G` (a standard-numbered board of `rows` rows), checking every position.
fn check_playouts<G: Features>(rows: usize, games: usize, seed: u64) -> usize {
    let squares = rows * rows / 2;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut list = Vec::new();
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = G::start();
        for _ in 0..200 {
            let fen = G::fen(&pos);
            let twin = mirrored_fen(&fen, squares);
            for kind in FeatureKind::ALL {
                let mut f = features::<G>(kind, &fen);
                assert!(
                    f.iter().all(|&i| (i as usize) < G::feature_count(kind)),
                    "{fen}: {f:?}"
                );
                let mut t = features::<G>(kind, &twin);
                f.sort_unstable();
                t.sort_unstable();
                assert_eq!(f, t, "{kind:?}: {fen} and its twin {twin}");
            }
            assert_eq!(
                features::<G>(FeatureKind::Patterns, &fen),
                reference_patterns(&fen, rows),
                "{fen}"
            );
            checked += 1;
            G::generate(&pos, Duplicates::Drop, &mut list);
            if list.is_empty() || G::decided(&pos).is_some() {
                break;
            }
            pos = G::play(&pos, &list[rng.gen_range(0..list.len())]);
        }
    }
    checked
}

#[test]
fn international_features_match_the_reference_and_the_mirrored_twin() {
    let checked = check_playouts::<Diagonal<International>>(10, 12, 16);
    assert!(checked > 500, "{checked} positions");
}

#[test]
fn brazilian_features_match_the_reference_and_the_mirrored_twin() {
    let checked = check_playouts::<Diagonal<Brazilian>>(8, 12, 17);
    assert!(checked > 300, "{checked} positions");
}

#[test]
fn the_mirrored_fen_helper_turns_the_board() {
    assert_eq!(mirrored_fen("W:W31,K45:B7,12", 50), "B:W39,44:BK6,20");
    assert_eq!(
        read_fen("B:WK1-3:B50"),
        (
            false,
            vec![
                (1, true, true),
                (2, true, true),
                (3, true, true),
                (50, false, false)
            ]
        )
    );
}
