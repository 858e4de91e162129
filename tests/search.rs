//! The search, through its public API: reproducibility, legality of every answer in every
//! variant, tactics with known answers, forced wins with their distance, the draw rules inside
//! the search, and the controls (stop, ponder hit, single move, threads).
//!
//! Every search here is bounded by depth or nodes (never by time in an assertion), so the
//! results are deterministic and the tests cheap enough for CI.

use std::time::Duration;

use polydam_engine::diagonal::rules::{English, International, Russian};
use polydam_engine::diagonal::Diagonal;
use polydam_engine::game::{Duplicates, Game, MoveStyle};
use polydam_engine::record::GameRecord;
use polydam_engine::search::{
    legal_prefix, Clock, Limits, Ply, Score, SearchControl, SearchResult, Searcher,
};
use polydam_engine::variants::{dispatch, GameVisitor, VARIANTS};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

type Intl = Diagonal<International>;

fn record<G: Game>(fen: &str, moves: &[&str]) -> GameRecord<G> {
    let start = if fen == "start" {
        G::start()
    } else {
        G::parse_position(fen).expect("test position parses")
    };
    let mut r = GameRecord::new(start);
    for m in moves {
        r.push_text(m).expect("test move is legal");
    }
    r
}

fn search<G: Game>(r: &GameRecord<G>, limits: Limits) -> SearchResult<G> {
    let mut s = Searcher::<G>::new(16, 1);
    s.search(r, &limits, &SearchControl::new(), &mut |_| {})
}

fn legal<G: Game>(pos: &G::Position) -> Vec<G::Move> {
    let mut moves = Vec::new();
    if G::decided(pos).is_none() {
        G::generate(pos, Duplicates::Drop, &mut moves);
    }
    moves
}

fn text<G: Game>(pos: &G::Position, mv: Option<G::Move>) -> String {
    mv.map_or_else(|| "none".into(), |m| G::move_text(pos, &m, MoveStyle::Hub))
}

/// A quiet International middle game, 16 men each.
const INTL_MIDDLE: &str = "W:W26-28,32-36,38,39,42,45,46,48-50:B2,3,5-7,9,14,16-21,23-25";

#[test]
fn same_search_gives_same_nodes_and_move() {
    fn twice<G: Game>(fen: &str, depth: i32) {
        let r = record::<G>(fen, &[]);
        let a = search(&r, Limits::depth(depth));
        let b = search(&r, Limits::depth(depth));
        assert_eq!(a.nodes, b.nodes, "{} {fen}", G::NAME);
        assert_eq!(a.best_move, b.best_move, "{} {fen}", G::NAME);
        assert_eq!(a.score, b.score);
        assert_eq!(a.pv, b.pv);
        // `clear` makes a used searcher behave like a new one.
        let mut s = Searcher::<G>::new(16, 1);
        let control = SearchControl::new();
        s.search(&r, &Limits::depth(depth - 2), &control, &mut |_| {});
        s.clear();
        let c = s.search(&r, &Limits::depth(depth), &control, &mut |_| {});
        assert_eq!(a.nodes, c.nodes, "{} after clear", G::NAME);
        assert_eq!(a.best_move, c.best_move);
    }
    twice::<Intl>(INTL_MIDDLE, 8);
    twice::<Intl>("start", 8);
    twice::<Diagonal<Russian>>("start", 10);
    twice::<Diagonal<English>>("start", 10);
}

#[test]
fn node_limit_is_exact_with_one_thread() {
    let r = record::<Intl>(INTL_MIDDLE, &[]);
    let result = search(&r, Limits::nodes(12_345));
    assert_eq!(result.nodes, 12_345);
    let best = result.best_move.expect("a move");
    assert!(legal::<Intl>(r.current()).contains(&best));
}

#[test]
fn info_is_reported_once_per_iteration_with_a_legal_pv() {
    let r = record::<Intl>(INTL_MIDDLE, &[]);
    let mut s = Searcher::<Intl>::new(16, 1);
    let mut depths = Vec::new();
    let root = *r.current();
    let result = s.search(&r, &Limits::depth(7), &SearchControl::new(), &mut |info| {
        depths.push(info.depth.plies());
        assert!(!info.pv.is_empty());
        assert_eq!(legal_prefix::<Intl>(&root, &info.pv), info.pv);
        assert!(info.mean_depth > 0.0);
        assert!(info.nodes > 0);
    });
    assert_eq!(depths, (1..=7).collect::<Vec<_>>());
    assert_eq!(result.depth.plies(), 7);
    assert_eq!(result.pv.first().copied(), result.best_move);
}

/// Random games in every registered variant; at each position a small search must return a
/// legal move (and a legal principal variation) exactly when a legal move exists.
struct RandomPositions {
    positions: usize,
    seed: u64,
}

impl GameVisitor for RandomPositions {
    type Output = usize;

    fn visit<G: Game>(self) -> usize {
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let mut searcher = Searcher::<G>::new(1, 1);
        let control = SearchControl::new();
        let mut checked = 0;
        let mut game = 0usize;
        while checked < self.positions {
            game += 1;
            let mut r = GameRecord::<G>::new(G::start());
            for ply in 0..300usize {
                let pos = *r.current();
                let moves = legal::<G>(&pos);
                let limits = match (game + ply) % 3 {
                    0 => Limits::depth(1 + (ply % 3) as i32),
                    1 => Limits::nodes(1 + rng.gen_range(0..400)),
                    _ => Limits {
                        depth: Some(polydam_engine::search::Depth(3)),
                        move_time: Some(Duration::from_secs(60)),
                        ..Limits::default()
                    },
                };
                let result = searcher.search(&r, &limits, &control, &mut |_| {});
                checked += 1;
                match result.best_move {
                    None => assert!(moves.is_empty(), "{}: no move in {}", G::NAME, G::fen(&pos)),
                    Some(m) => {
                        assert!(
                            moves.contains(&m),
                            "{}: illegal {:?} in {}",
                            G::NAME,
                            m,
                            G::fen(&pos)
                        );
                        assert_eq!(legal_prefix::<G>(&pos, &result.pv), result.pv);
                        assert_eq!(result.pv.first(), Some(&m));
                        if let Some(p) = result.ponder_move {
                            assert!(legal::<G>(&G::play(&pos, &m)).contains(&p));
                        }
                    }
                }
                if moves.is_empty() || r.outcome().is_some() {
                    break;
                }
                let mv = moves[rng.gen_range(0..moves.len())];
                r.push(mv);
            }
        }
        checked
    }
}

#[test]
fn every_variant_always_gets_a_legal_move() {
    for (i, v) in VARIANTS.iter().enumerate() {
        let checked = dispatch(
            v.name,
            RandomPositions {
                positions: 1200,
                seed: 1000 + i as u64,
            },
        )
        .expect("registered variant");
        assert!(checked >= 1000, "{}: only {checked} positions", v.name);
    }
}

#[test]
fn finds_a_win_in_one_ply_and_scores_it_by_distance() {
    // The king takes the last black piece: Black is left without pieces.
    let r = record::<Intl>("W:WK46:B10", &[]);
    let result = search(&r, Limits::depth(4));
    assert_eq!(text::<Intl>(r.current(), result.best_move), "46x5x10");
    assert_eq!(result.score, Score::win_in(Ply(1)));
    assert_eq!(result.score.hub(), "99.99");
}

#[test]
fn a_repetition_the_losing_side_can_claim_scores_zero() {
    // A lone White king against two kings and three men. After the moves below, the position
    // after 41-37 would occur for the third time: White takes the draw.
    let r = record::<Intl>(
        "W:WK46:B1,2,3,K45,K50",
        &[
            "46-37", "45-40", "37-46", "40-45", "46-37", "45-40", "37-41", "40-45",
        ],
    );
    let result = search(&r, Limits::depth(6));
    assert_eq!(text::<Intl>(r.current(), result.best_move), "41-37");
    assert_eq!(result.score, Score::DRAW);
    // Without the history the same position is simply lost.
    let fresh = record::<Intl>(&Intl::fen(r.current()), &[]);
    assert!(search(&fresh, Limits::depth(6)).score < Score::from_centi(-300));
}

/// Plays king moves only, never repeating a position and never allowing a capture, until the
/// quiet-move counter reaches `plies`.
fn king_walk<G: Game>(r: &mut GameRecord<G>, plies: u16) {
    let mut seen = vec![G::hash(r.current())];
    while r.quiet_plies() < plies {
        let pos = *r.current();
        let mut moves = legal::<G>(&pos);
        moves.sort_by_key(|m| G::move_text(&pos, m, MoveStyle::Hub));
        let next = moves.into_iter().find(|m| {
            let after = G::play(&pos, m);
            !G::is_irreversible(&pos, m)
                && !seen.contains(&G::hash(&after))
                && !G::has_capture(&after)
        });
        let mv = next.expect("the walk finds a fresh king move");
        r.push(mv);
        seen.push(G::hash(r.current()));
    }
}

#[test]
fn the_quiet_move_rule_is_applied_inside_the_search() {
    // International: 25 moves each (50 plies) without a man move or a capture draw. White,
    // a king down to two kings and three men, must move its king: every move ends the game.
    let mut r = record::<Intl>("B:WK46:B1,2,3,K45,K50", &[]);
    let limit = Intl::draw_rules().quiet_plies;
    king_walk(&mut r, limit - 1);
    assert_eq!(Intl::side_to_move(r.current()), polydam_engine::Side::White);
    let result = search(&r, Limits::depth(5));
    assert_eq!(result.score, Score::DRAW);
    let fresh = record::<Intl>(&Intl::fen(r.current()), &[]);
    assert!(search(&fresh, Limits::depth(5)).score < Score::from_centi(-300));
}

#[test]
fn a_single_legal_move_in_a_timed_search_is_played_at_once() {
    // White must capture 28x19x23... the only capture.
    let r = record::<Intl>("W:W28,40:B23,5", &[]);
    assert_eq!(legal::<Intl>(r.current()).len(), 1);
    let limits = Limits::move_time(Duration::from_secs(30));
    let result = search(&r, limits);
    assert_eq!(result.nodes, 0);
    assert_eq!(text::<Intl>(r.current(), result.best_move), "28x19x23");
    // Analysis searches it anyway.
    let analysis = search(
        &r,
        Limits {
            analyze: true,
            depth: Some(polydam_engine::search::Depth(4)),
            ..Limits::default()
        },
    );
    assert!(analysis.nodes > 0);
}

#[test]
fn stop_ends_an_infinite_search_with_a_legal_move() {
    for threads in [1, 2] {
        let r = record::<Intl>(INTL_MIDDLE, &[]);
        let mut s = Searcher::<Intl>::new(16, threads);
        let control = SearchControl::new();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let result = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                control.stop();
            });
            s.search(&r, &limits, &control, &mut |_| {})
        });
        let best = result.best_move.expect("a move");
        assert!(legal::<Intl>(r.current()).contains(&best));
    }
}

#[test]
fn ponder_hit_turns_pondering_into_a_timed_search() {
    let r = record::<Intl>(INTL_MIDDLE, &[]);
    let mut s = Searcher::<Intl>::new(16, 2);
    let control = SearchControl::new();
    control.reset(true);
    let limits = Limits {
        clock: Some(Clock {
            time: Duration::from_millis(500),
            increment: Duration::ZERO,
            moves_to_go: None,
        }),
        ..Limits::default()
    };
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            control.ponder_hit();
        });
        s.search(&r, &limits, &control, &mut |_| {})
    });
    assert!(!control.is_pondering());
    let best = result.best_move.expect("a move");
    assert!(legal::<Intl>(r.current()).contains(&best));
}

#[test]
fn no_legal_move_gives_no_move_and_the_result() {
    // Black to move has no piece left.
    let r = record::<Intl>("B:W28:B", &[]);
    let result = search(&r, Limits::depth(3));
    assert!(result.best_move.is_none());
    assert_eq!(result.score, Score::loss_in(Ply(0)));
}

/// A position with a known best move: variant, FEN, move (Hub form), depth.
struct Tactic {
    fen: &'static str,
    best: &'static str,
    depth: i32,
}

fn solve<G: Game>(tactics: &[Tactic]) {
    for t in tactics {
        let r = record::<G>(t.fen, &[]);
        let result = search(&r, Limits::depth(t.depth));
        assert_eq!(
            text::<G>(r.current(), result.best_move),
            t.best,
            "{} {} (score {})",
            G::NAME,
            t.fen,
            result.score
        );
        assert!(
            result.score > Score::from_centi(50),
            "{} {}",
            G::NAME,
            t.fen
        );
    }
}

#[test]
fn international_shots() {
    solve::<Intl>(&[
        // 30-24 20x29 34x3: the sacrifice opens the way to the far row.
        Tactic {
            fen: "W:W28,30-32,34,36,37,40-43,45-50:B1,2,4-8,10,11,13-16,18,20,21,26",
            best: "30-24",
            depth: 9,
        },
        // 30-25 17x39 25x23: a man back for a double capture.
        Tactic {
            fen: "W:W22,30,32,33,35,36,38,40-50:B1-11,13,15-17,19-21",
            best: "30-25",
            depth: 9,
        },
    ]);
}
