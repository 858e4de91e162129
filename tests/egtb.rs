//! Endgame tables: the backward move generator against the forward one, small
//! builds verified, the known results they must show, damaged and missing files, and the
//! search playing with them.
//!
//! Every build here is small (kings-only slices, or at most three pieces with men), so that the
//! whole file takes seconds; the big builds and their figures are in docs/egtb.md.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use polydam::forge::egtb::build::build;
use polydam::forge::egtb::job::BuildOptions;
use polydam::forge::egtb::verify::verify;
use polydam_engine::diagonal::eval::hand_evaluate;
use polydam_engine::diagonal::rules::{
    Breakthrough, Constitutional, Dbc, DbcKillerLight, English, International, Russian,
};
use polydam_engine::diagonal::Diagonal;
use polydam_engine::egtb::codec::{self, Kind, TableBytes, BLOCK};
use polydam_engine::egtb::index::SliceIndex;
use polydam_engine::egtb::{EgtbError, Material, Placement, TableGame, TableProbe, TableSet, Wdl};
use polydam_engine::game::{Duplicates, Game, Outcome, Side};
use polydam_engine::orthogonal::rules::Turkish;
use polydam_engine::orthogonal::Orthogonal;
use polydam_engine::record::{DrawCounters, GameRecord};
use polydam_engine::search::{Limits, SearchControl, Searcher};
use polydam_engine::variants::open_tables;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

type Intl = Diagonal<International>;

/// A fresh directory under the system's temporary one.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("polydam-egtb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Builds `G`'s slices of up to `pieces` pieces (only those `only` leads to, if any) into
/// `dir`, verifies them, and asserts that the verifier finds nothing wrong.
fn build_and_verify<G: TableGame>(dir: &Path, pieces: u32, only: &[Material]) {
    let quiet = |_: polydam::forge::egtb::job::BuildEvent<'_>| {};
    let opts = BuildOptions {
        dir: dir.to_path_buf(),
        pieces,
        dtc: true,
        only: only.to_vec(),
        on_event: &quiet,
        checkpoints: None,
    };
    let reports = build::<G>(&opts).unwrap_or_else(|e| panic!("{}: {e}", G::NAME));
    assert!(!reports.is_empty(), "{}: nothing built", G::NAME);
    let report = verify::<G>(dir, pieces, only, false, &quiet).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        report.inconsistencies,
        0,
        "{}: {:?}",
        G::NAME,
        report.examples
    );
    assert!(report.checked > 0 && report.dtc_checked > 0);
    assert!(report.without_dtc.is_empty());
}

fn tables<G: TableGame>(dir: &Path, pieces: u32) -> Arc<dyn TableProbe<G>> {
    open_tables::<G>(dir, pieces)
        .unwrap_or_else(|e| panic!("{e}"))
        .expect("the variant has tables")
}

fn value<G: TableGame>(t: &Arc<dyn TableProbe<G>>, fen: &str) -> Wdl {
    let pos = G::parse_position(fen).expect("test position parses");
    t.value(&pos)
        .unwrap_or_else(|| panic!("{} {fen}: not covered", G::NAME))
}

/// Every position of `G`'s slice `m` whose side to move has no capture.
fn quiet_positions<G: TableGame>(m: Material) -> impl Iterator<Item = G::Position> {
    let board = G::board();
    let idx = SliceIndex::new(board, m);
    (0..idx.size)
        .filter_map(move |i| idx.unrank(board, i))
        .map(|p| G::position_of(&p))
        .filter(|pos| !G::has_capture(pos))
}

/// Random placements of random materials, each with its position: what the backward
/// generator is checked on.
fn random_placements<G: TableGame>(seed: u64, count: usize, pieces: u32) -> Vec<Placement> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let slices = polydam_engine::egtb::slices::<G>(pieces);
    let board = G::board();
    let mut out = Vec::new();
    while out.len() < count {
        let m = slices[rng.gen_range(0..slices.len())];
        let idx = SliceIndex::new(board, m);
        let i = rng.gen_range(0..idx.size);
        if let Some(p) = idx.unrank(board, i) {
            assert_eq!(idx.rank(board, &p), i);
            out.push(p);
        }
    }
    out
}

/// Every quiet move that keeps the material, played backward from its result, gives its
/// start back exactly once; and every backward move gives a position whose forward moves lead
/// back (unless that position must capture, which the solver knows already).
fn unmoves_invert_quiet_moves<G: TableGame>(seed: u64) {
    let mut moves = Vec::new();
    let mut preds = Vec::new();
    let mut checked = 0;
    for q in random_placements::<G>(seed, 3000, 5) {
        if G::terminal(&q).is_some() {
            continue;
        }
        let pos = G::position_of(&q);
        if G::decided(&pos).is_some() {
            continue;
        }
        G::generate(&pos, Duplicates::Drop, &mut moves);
        if moves.first().is_some_and(|m| G::is_capture(m)) {
            continue;
        }
        for mv in moves.iter().filter(|m| G::stays(m)) {
            let p = G::child_of(&q, mv);
            G::unmoves(&p, &mut preds);
            let n = preds.iter().filter(|&&x| x == q).count();
            assert_eq!(n, 1, "{}: {} after {mv:?}", G::NAME, G::fen(&pos));
            checked += 1;
            let mut back = Vec::new();
            for pred in &preds {
                assert_eq!(pred.material(), q.material());
                let ppos = G::position_of(pred);
                G::generate(&ppos, Duplicates::Drop, &mut back);
                if back.first().is_some_and(|m| G::is_capture(m)) {
                    continue;
                }
                let leads = back
                    .iter()
                    .filter(|m| G::stays(m) && G::child_of(pred, m) == p)
                    .count();
                assert_eq!(
                    leads,
                    1,
                    "{}: {} does not lead back",
                    G::NAME,
                    G::fen(&ppos)
                );
            }
        }
    }
    assert!(checked > 1000, "{}: only {checked} moves checked", G::NAME);
}

#[test]
fn egtb_unmoves_invert_quiet_moves() {
    unmoves_invert_quiet_moves::<Intl>(1);
    unmoves_invert_quiet_moves::<Diagonal<Constitutional>>(2);
    unmoves_invert_quiet_moves::<Diagonal<English>>(3);
    unmoves_invert_quiet_moves::<Diagonal<Russian>>(4);
    unmoves_invert_quiet_moves::<Diagonal<Breakthrough>>(5);
    unmoves_invert_quiet_moves::<Orthogonal<Turkish>>(6);
}

#[test]
fn egtb_placements_round_trip_through_positions() {
    for p in random_placements::<Intl>(7, 500, 6) {
        let pos = Intl::position_of(&p);
        assert_eq!(Intl::placement_of(&pos), p);
        // The same position with Black to move is seen turned.
        let fen = Intl::fen(&pos).replacen('W', "B", 1);
        let black = Intl::parse_position(&fen).expect("FEN reads back");
        assert_eq!(Intl::side_to_move(&black), Side::Black);
        assert_eq!(Intl::placement_of(&black), p.flip(50));
    }
}

/// International: two kings against one draw from general positions, three against one draw
/// with the lone king on the long diagonal, four against one win; the small slices with men
/// verified too.
#[test]
fn egtb_international_kings_endings() {
    let dir = temp_dir("intl");
    build_and_verify::<Intl>(&dir, 3, &[]);
    build_and_verify::<Intl>(&dir, 5, &[Material::new(0, 4, 0, 1)]);
    let t = tables::<Intl>(&dir, 5);
    for fen in [
        "W:WK2,K25:BK28",
        "W:WK7,K6:BK46",
        "W:WK20,K25:BK41",
        "W:WK9,K37:BK49",
        "W:WK1,K25:BK44",
        "B:WK26,K39:BK17",
    ] {
        assert_eq!(value(&t, fen), Wdl::Draw, "2 kings v 1: {fen}");
    }
    // With a capture for the side to move the tables search it through: here White takes
    // the lone king at once.
    assert_eq!(value(&t, "W:WK26,K39:BK17"), Wdl::Win);
    // Even one king against one wins by a trap: 41-46, and the king in the corner 5 must
    // step onto the long diagonal in front of it.
    assert_eq!(value(&t, "W:WK41:BK5"), Wdl::Win);
    // Over all two-against-one positions without a capture, wins are the exception (the
    // stronger side forcing a shot at once).
    let (mut wins, mut quiet) = (0u64, 0u64);
    for pos in quiet_positions::<Intl>(Material::new(0, 2, 0, 1)) {
        quiet += 1;
        if t.value(&pos) == Some(Wdl::Win) {
            wins += 1;
        }
    }
    assert!(
        quiet > 10_000 && wins * 10 < quiet,
        "International 2 kings v 1: {wins} wins of {quiet}"
    );
    // Three kings against one holding the long diagonal (5-46): a draw.
    for fen in [
        "W:WK30,K49,K39:BK5",
        "W:WK6,K49,K1:BK14",
        "W:WK33,K12,K18:BK37",
        "W:WK13,K48,K3:BK28",
        "W:WK43,K31,K1:BK41",
    ] {
        assert_eq!(value(&t, fen), Wdl::Draw, "3 kings v 1: {fen}");
    }
    // Four kings against one win, lone king on the long diagonal or not.
    for fen in [
        "W:WK30,K49,K39,K44:BK5",
        "W:WK1,K2,K3,K4:BK46",
        "W:WK6,K49,K1,K45:BK14",
        "B:WK13,K48,K3,K47:BK28",
    ] {
        let v = value(&t, fen);
        let want = if fen.starts_with('B') {
            Wdl::Loss
        } else {
            Wdl::Win
        };
        assert_eq!(v, want, "4 kings v 1: {fen}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The wins that tests/endgames.rs plays out, by the tables: two kings beat one under
/// `constitutional`, three beat one under `dbc-killer-light`; the parents draw.
#[test]
fn egtb_constitutional_and_dbc_killer_light_wins() {
    let dir = temp_dir("rare");
    let two = [Material::new(0, 2, 0, 1)];
    let three = [Material::new(0, 3, 0, 1)];
    build_and_verify::<Diagonal<Constitutional>>(&dir, 3, &two);
    build_and_verify::<Intl>(&dir, 3, &two);
    build_and_verify::<Diagonal<DbcKillerLight>>(&dir, 4, &three);
    build_and_verify::<Diagonal<Dbc>>(&dir, 4, &three);
    let con = tables::<Diagonal<Constitutional>>(&dir, 3);
    let intl = tables::<Intl>(&dir, 3);
    for fen in [
        "W:WK2,K25:BK28",
        "W:WK7,K6:BK46",
        "W:WK20,K25:BK41",
        "W:WK9,K37:BK49",
        "W:WK1,K25:BK44",
    ] {
        assert_eq!(value(&con, fen), Wdl::Win, "constitutional {fen}");
        assert_eq!(value(&intl, fen), Wdl::Draw, "international {fen}");
    }
    let light = tables::<Diagonal<DbcKillerLight>>(&dir, 4);
    let dbc = tables::<Diagonal<Dbc>>(&dir, 4);
    for fen in [
        "W:WK30,K49,K39:BK5",
        "W:WK6,K49,K1:BK14",
        "W:WK33,K12,K18:BK37",
        "W:WK13,K48,K3:BK28",
        "W:WK43,K31,K1:BK41",
    ] {
        assert_eq!(value(&light, fen), Wdl::Win, "dbc-killer-light {fen}");
        assert_eq!(value(&dbc, fen), Wdl::Draw, "dbc {fen}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// English: two kings beat one (no flying kings: the lone king is driven out of the double
/// corner), with men the small slices verified; Russian and Turkish small slices verified.
#[test]
fn egtb_english_two_kings_win_and_small_builds_verify() {
    let dir = temp_dir("eight");
    build_and_verify::<Diagonal<English>>(&dir, 3, &[]);
    let t = tables::<Diagonal<English>>(&dir, 3);
    let (mut wins, mut quiet) = (0, 0);
    for pos in quiet_positions::<Diagonal<English>>(Material::new(0, 2, 0, 1)) {
        quiet += 1;
        // Every 2 v 1 position wins but for the lone king forking or trapping a king.
        if t.value(&pos) == Some(Wdl::Win) {
            wins += 1;
        }
    }
    assert!(
        wins * 100 > quiet * 97,
        "English 2 kings v 1: {wins} wins of {quiet}"
    );
    assert_eq!(value(&t, "W:WK1,K2:BK32"), Wdl::Win);
    assert_eq!(value(&t, "B:WK1,K2:BK32"), Wdl::Loss);
    build_and_verify::<Diagonal<Russian>>(&dir, 3, &[]);
    build_and_verify::<Orthogonal<Turkish>>(&dir, 3, &[]);
    // Turkish's index shares a position with its mirror image: a 4-piece slice with men on
    // both sides verifies, and a win and its mirror image read as wins.
    build_and_verify::<Orthogonal<Turkish>>(&dir, 4, &[Material::new(1, 1, 1, 1)]);
    let t = tables::<Orthogonal<Turkish>>(&dir, 4);
    assert_eq!(value(&t, "W:Wg5,Kc1:Bg6,Kf7"), Wdl::Win);
    assert_eq!(value(&t, "W:Wb5,Kf1:Bb6,Kc7"), Wdl::Win);
    assert_eq!(value(&t, "W:Wc3,Kd4:Bf6,Kb7"), Wdl::Draw);
    std::fs::remove_dir_all(&dir).ok();
}

/// The squares of a PDN FEN's pieces, the side to move's first: `W:WK30-32:BK29` gives
/// `([30, 31, 32], [29])`.
fn fen_squares(fen: &str) -> (Vec<u32>, Vec<u32>) {
    let mut sides = [Vec::new(), Vec::new()];
    for part in fen.split(':').skip(1) {
        let (colour, list) = part.split_at(1);
        let side = usize::from(colour != &fen[..1]);
        for item in list.split(',').filter(|i| !i.is_empty()) {
            let item = item.trim_start_matches('K');
            let (a, b) = item.split_once('-').unwrap_or((item, item));
            let (a, b): (u32, u32) = (a.parse().expect("square"), b.parse().expect("square"));
            sides[side].extend(a..=b);
        }
    }
    let [us, them] = sides;
    (us, them)
}

/// Russian: three kings against one draw while the lone king has the main road (a1-h8:
/// squares 29, 25, 22, 18, 15, 11, 8, 4) to itself and win once one of the three stands on
/// it (Petrov's triangle); the hand evaluation judges both as the tables do.
#[test]
fn egtb_russian_three_kings_against_one_and_the_main_road() {
    type Ru = Diagonal<Russian>;
    let dir = temp_dir("russian-road");
    build_and_verify::<Ru>(&dir, 4, &[Material::new(0, 3, 0, 1)]);
    let t = tables::<Ru>(&dir, 4);
    let road = [29, 25, 22, 18, 15, 11, 8, 4];
    // [positions, wins] with the road the lone king's alone, and with an attacker on it.
    let (mut held, mut lost) = ([0u64; 2], [0u64; 2]);
    let (mut worst_held, mut worst_lost) = (String::new(), String::new());
    let (mut held_eval, mut lost_eval) = (i32::MIN, i32::MAX);
    for pos in quiet_positions::<Ru>(Material::new(0, 3, 0, 1)) {
        let fen = Ru::fen(&pos);
        let (us, them) = fen_squares(&fen);
        let win = u64::from(t.value(&pos) == Some(Wdl::Win));
        let eval = hand_evaluate::<Russian>(&pos);
        if road.contains(&them[0]) && !us.iter().any(|s| road.contains(s)) {
            held[0] += 1;
            held[1] += win;
            if eval.abs() > held_eval {
                (held_eval, worst_held) = (eval.abs(), fen);
            }
        } else if us.iter().any(|s| road.contains(s)) {
            lost[0] += 1;
            lost[1] += win;
            if eval < lost_eval {
                (lost_eval, worst_lost) = (eval, fen);
            }
        }
    }
    assert!(
        held[0] > 1000 && held[1] * 100 < held[0] * 5,
        "the road the lone king's: {} wins of {}",
        held[1],
        held[0]
    );
    assert!(
        lost[0] > 10_000 && lost[1] * 100 > lost[0] * 95,
        "an attacker on the road: {} wins of {}",
        lost[1],
        lost[0]
    );
    assert!(held_eval < 100, "held, judged {held_eval}: {worst_held}");
    assert!(lost_eval > 300, "lost, judged {lost_eval}: {worst_lost}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A verification resumes from its ledger: slices recorded with unchanged files are taken
/// from it, a slice whose record disagrees with its files or cannot be read is checked again,
/// and a damaged file is still found.
/// Reading a slice back takes its values from a cache made from the same `.wdl` file, never
/// from one made from another, and never when told not to (as the verifier does for the
/// slices it checks).
#[test]
fn egtb_load_reads_a_cache_only_of_the_same_wdl_file() {
    use polydam::forge::egtb::build::{load_full, needed};
    use polydam::forge::egtb::cache;
    use polydam::forge::egtb::held::Lookup;
    use polydam::forge::egtb::job::BuildEvent;
    type G = Diagonal<English>;
    let dir = temp_dir("cache");
    build_and_verify::<G>(&dir, 3, &[]);
    let vdir = dir.join(G::NAME);
    let quiet = |_: BuildEvent<'_>| {};
    let target = Material::new(0, 2, 0, 1);
    let mut lookup = Lookup::<G>::default();
    for m in needed::<G>(3, &[target]) {
        if m != target {
            let full = load_full::<G>(&vdir, m, &lookup, &quiet, false).expect("loads");
            lookup.insert(Arc::new(full));
        }
    }
    let real = load_full::<G>(&vdir, target, &lookup, &quiet, true).expect("loads");
    let size = real.index.size;
    assert!(
        (0..size).any(|i| real.get(i) != real.get(0)),
        "values differ"
    );
    let wdl = dir.join(G::NAME).join(format!("{}.wdl", target.name()));
    let sum = cache::stored_checksum(&wdl).expect("checksum");
    let path = cache::cache_path(&vdir, target);
    let forged = vec![0u64; size.div_ceil(32) as usize];
    cache::write(&path, size, sum, &forged).expect("writes");
    let cached = load_full::<G>(&vdir, target, &lookup, &quiet, true).expect("loads");
    assert!(
        (0..size).all(|i| cached.get(i) == cached.get(0)),
        "read from the cache"
    );
    let fresh = load_full::<G>(&vdir, target, &lookup, &quiet, false).expect("loads");
    assert!(
        (0..size).all(|i| fresh.get(i) == real.get(i)),
        "cache not used"
    );
    cache::write(&path, size, sum ^ 1, &forged).expect("writes");
    let warnings = std::sync::Mutex::new(Vec::new());
    let note = |e: BuildEvent<'_>| {
        if let BuildEvent::Warning(w) = e {
            warnings.lock().expect("lock").push(w);
        }
    };
    let again = load_full::<G>(&vdir, target, &lookup, &note, true).expect("loads");
    assert!(
        (0..size).all(|i| again.get(i) == real.get(i)),
        "stale cache used"
    );
    let warnings = warnings.into_inner().expect("lock");
    assert!(
        warnings.len() == 1 && warnings[0].contains("another .wdl file"),
        "{warnings:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn egtb_build_stopped_in_a_pair_resumes_from_its_checkpoint() {
    use polydam::forge::egtb::build::{needed, pairs};
    use polydam::forge::egtb::checkpoint;
    use polydam::forge::egtb::job::{BuildEvent, Checkpoints};
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::sync::Mutex;
    use std::time::Duration;
    let target = Material::new(0, 3, 0, 1);
    let reference = temp_dir("ckpt-ref");
    build_and_verify::<Intl>(&reference, 4, &[target]);
    let dir = temp_dir("ckpt");
    let vdir = dir.join(Intl::NAME);
    // The pair's checkpoint is named after its first slice.
    let pair = pairs(&needed::<Intl>(4, &[target]))
        .into_iter()
        .find(|comp| comp.contains(&target))
        .expect("the target's pair");
    let ck = checkpoint::path(&vdir, pair[0]);
    // Every pair saved at every wave; `stop_at` plays the process being killed right after
    // the target pair's checkpoint at that wave.
    let run = |stop_at: Option<u32>| {
        let events = Mutex::new(Vec::new());
        let on_event = |e: BuildEvent<'_>| {
            let line = match e {
                BuildEvent::Checkpoint {
                    materials, wave, ..
                } if materials.contains(&target) => {
                    if Some(wave) == stop_at {
                        panic!("stopped at wave {wave}");
                    }
                    format!("checkpoint {wave}")
                }
                BuildEvent::Resumed {
                    materials,
                    wave,
                    seconds,
                } => {
                    assert!(seconds > 0.0, "{seconds} s solved before the checkpoint");
                    format!("resumed {} {wave}", materials[0])
                }
                BuildEvent::Warning(w) => format!("warning {w}"),
                _ => return,
            };
            events.lock().expect("lock").push(line);
        };
        let opts = BuildOptions {
            dir: dir.clone(),
            pieces: 4,
            dtc: true,
            only: vec![target],
            on_event: &on_event,
            checkpoints: Some(Checkpoints {
                from_positions: 0,
                every: Duration::ZERO,
            }),
        };
        let result = catch_unwind(AssertUnwindSafe(|| build::<Intl>(&opts)));
        (result.is_ok(), events.into_inner().expect("lock"))
    };
    let (finished, _) = run(Some(2));
    assert!(!finished, "stopped");
    assert!(ck.exists(), "{} left", ck.display());

    // A damaged checkpoint is named, and the pair is solved from the start (stopped again).
    let mut bytes = std::fs::read(&ck).expect("readable");
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(&ck, &bytes).expect("writable");
    let (finished, events) = run(Some(2));
    assert!(!finished);
    assert!(
        events
            .iter()
            .any(|e| e.contains("checksum mismatch")
                && e.contains("solving the pair from the start")),
        "{events:?}"
    );
    assert!(
        !events.iter().any(|e| e.starts_with("resumed")),
        "{events:?}"
    );

    // Resumed at wave 2, it goes on from there and writes the same tables.
    let (finished, events) = run(None);
    assert!(finished);
    assert_eq!(
        events.first().map(String::as_str),
        Some(format!("resumed {} 2", pair[0]).as_str()),
        "{events:?}"
    );
    assert!(events.iter().any(|e| e == "checkpoint 3"), "{events:?}");
    assert!(
        !events.iter().any(|e| e.starts_with("warning")),
        "{events:?}"
    );
    assert!(!ck.exists(), "checkpoint removed once the pair is written");
    for m in [target, Material::new(0, 1, 0, 3)] {
        for ext in ["wdl", "dtc"] {
            let name = format!("{}.{ext}", m.name());
            let a = std::fs::read(reference.join(Intl::NAME).join(&name)).expect("reference");
            let b = std::fs::read(vdir.join(&name)).expect("resumed");
            assert!(a == b, "{name} differs");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&reference).ok();
}

#[test]
fn egtb_verify_resumes_from_its_ledger() {
    let dir = temp_dir("ledger");
    let quiet = |_: polydam::forge::egtb::job::BuildEvent<'_>| {};
    build_and_verify::<Diagonal<English>>(&dir, 3, &[]);
    let first = verify::<Diagonal<English>>(&dir, 3, &[], true, &quiet).expect("verifies");
    assert_eq!((first.resumed, first.inconsistencies), (0, 0));
    let second = verify::<Diagonal<English>>(&dir, 3, &[], false, &quiet).expect("verifies");
    assert_eq!(second.resumed, first.slices);
    assert_eq!(
        (
            second.slices,
            second.positions,
            second.checked,
            second.dtc_checked
        ),
        (
            first.slices,
            first.positions,
            first.checked,
            first.dtc_checked
        )
    );
    // A record whose checksum is not the file's, and a line that is not a record.
    let vdir = dir.join("english");
    let ledger = vdir.join(polydam::forge::egtb::ledger::LEDGER);
    let text = std::fs::read_to_string(&ledger).expect("written");
    let line = text
        .lines()
        .find(|l| l.starts_with("m0k2-m0k1\t"))
        .expect("recorded");
    let mut fields: Vec<String> = line.split('\t').map(String::from).collect();
    fields[4] = "0123456789abcdef".into();
    let tampered = text.replace(line, &fields.join("\t")) + "m0k2-m0k1\tnonsense\n";
    std::fs::write(&ledger, tampered).expect("written");
    let third = verify::<Diagonal<English>>(&dir, 3, &[], false, &quiet).expect("verifies");
    assert_eq!(third.resumed, first.slices - 1);
    assert_eq!(third.checked, first.checked);
    one_problem(&third.ledger_problems, "line ");
    // The slice checked again was recorded again: nothing is left to check.
    let fourth = verify::<Diagonal<English>>(&dir, 3, &[], false, &quiet).expect("verifies");
    assert_eq!(fourth.resumed, first.slices);
    // A distance file damaged in its middle is refused even though its slice is recorded.
    let dtc = vdir.join("m0k2-m0k1.dtc");
    let mut bytes = std::fs::read(&dtc).expect("built");
    let n = bytes.len();
    bytes[n / 2] ^= 0x10;
    std::fs::write(&dtc, &bytes).expect("written");
    let e = verify::<Diagonal<English>>(&dir, 3, &[], false, &quiet).expect_err("damaged");
    assert!(
        e.to_string().contains("m0k2-m0k1.dtc: damaged table"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A verification stopped inside a large slice resumes after its last recorded segment and
/// ends with the figures of a whole run; a record of other files, or one that does not fit,
/// is not used.
#[test]
fn egtb_verify_stopped_in_a_slice_resumes_after_its_last_segment() {
    use polydam::forge::egtb::job::BuildEvent;
    use polydam::forge::egtb::ledger::{SliceCheck, LEDGER, PARTS};
    use polydam::forge::egtb::verify::verify_in_segments;
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::sync::Mutex;
    let target = Material::new(0, 3, 0, 1);
    let dir = temp_dir("vparts");
    build_and_verify::<Intl>(&dir, 4, &[target]);
    let vdir = dir.join(Intl::NAME);
    let (ledger, parts) = (vdir.join(LEDGER), vdir.join(PARTS));
    let recorded = std::fs::read_to_string(&ledger).expect("written");
    let whole = recorded
        .lines()
        .find(|l| l.starts_with("m0k3-m0k1\t"))
        .expect("recorded")
        .to_string();
    // The target forgotten by the ledger, so that it is checked again, 32 blocks at a time.
    let forget =
        || std::fs::write(&ledger, recorded.replace(&format!("{whole}\n"), "")).expect("written");
    let records = || -> Vec<String> {
        std::fs::read_to_string(&parts)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("m0k3-m0k1\t"))
            .map(String::from)
            .collect()
    };
    let last_in_ledger = || {
        let text = std::fs::read_to_string(&ledger).expect("written");
        text.lines()
            .rfind(|l| l.starts_with("m0k3-m0k1\t"))
            .map(String::from)
    };
    let segment = 32 * BLOCK as u64;
    let size = SliceIndex::new(Intl::board(), target).size;
    assert!(size > 4 * segment, "{size} positions");
    // Checks the target again; the report, and the target's check as reported.
    let run = |events: &(dyn Fn(BuildEvent<'_>) + Sync)| {
        let checks: Mutex<Vec<SliceCheck>> = Mutex::new(Vec::new());
        let on_event = |e: BuildEvent<'_>| {
            if let BuildEvent::Checked(c) = &e {
                if c.material == target && !c.earlier {
                    checks.lock().expect("lock").push((*c).clone());
                }
            }
            events(e);
        };
        let report = verify_in_segments::<Intl>(&dir, 4, &[target], false, segment, &on_event)
            .expect("verifies");
        assert_eq!(report.inconsistencies, 0, "{:?}", report.examples);
        let mut checks = checks.into_inner().expect("lock");
        assert_eq!(checks.len(), 1, "{checks:?}");
        (report, checks.remove(0))
    };
    forget();
    // The process killed right after the third segment was recorded.
    let stop = |e: BuildEvent<'_>| {
        if matches!(e, BuildEvent::Progress { .. }) && records().len() >= 3 {
            panic!("stopped after three segments");
        }
    };
    assert!(catch_unwind(AssertUnwindSafe(|| run(&stop))).is_err());
    assert_eq!(records().len(), 3, "{:?}", records());
    assert_eq!(last_in_ledger(), None);
    let (_, c) = run(&|_| {});
    assert_eq!(c.resumed_from, 3 * segment);
    assert!(c.seconds > 0.0);
    assert_eq!(last_in_ledger().as_deref(), Some(whole.as_str()));
    // A record of other files (its .wdl checksum changed) is not used: checked whole.
    forget();
    let mut fields: Vec<String> = records()[2].split('\t').map(String::from).collect();
    fields[4] = "0123456789abcdef".into();
    let mut text = std::fs::read_to_string(&parts).expect("recorded");
    text.push_str(&(fields.join("\t") + "\n"));
    std::fs::write(&parts, &text).expect("written");
    let (report, c) = run(&|_| {});
    assert_eq!(c.resumed_from, 0);
    assert!(
        report.ledger_problems.is_empty(),
        "{:?}",
        report.ledger_problems
    );
    assert_eq!(last_in_ledger().as_deref(), Some(whole.as_str()));
    // A record that does not fit (positions checked not a whole number of blocks) is named.
    forget();
    fields = records()[0].split('\t').map(String::from).collect();
    fields[6] = (3 * segment + 1).to_string();
    let head = text.lines().next().expect("a heading").to_string();
    std::fs::write(&parts, format!("{head}\n{}\n", fields.join("\t"))).expect("written");
    let (report, c) = run(&|_| {});
    assert_eq!(c.resumed_from, 0);
    one_problem(&report.ledger_problems, "verifying.tsv line 2");
    assert_eq!(last_in_ledger().as_deref(), Some(whole.as_str()));
    // Checking everything again forgets both records (the whole slice is one default segment).
    let quiet = |_: BuildEvent<'_>| {};
    let again = verify::<Intl>(&dir, 4, &[target], true, &quiet).expect("verifies");
    assert_eq!(again.resumed, 0);
    assert!(!parts.exists());
    std::fs::remove_dir_all(&dir).ok();
}

/// Asserts that `problems` is one warning, saying `says`.
fn one_problem(problems: &[String], says: &str) {
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains(says), "{problems:?}");
}

/// Rewrites one slice file of `vdir` (a valid file, checksum and all) with its decoded values
/// changed by `plant`.
fn plant_in<G: TableGame>(vdir: &Path, m: Material, kind: Kind, plant: impl FnOnce(&mut [u8])) {
    let size = SliceIndex::new(G::board(), m).size;
    let path = vdir.join(format!("{}.{}", m.name(), kind.extension()));
    let t = TableBytes::read(&path, kind, G::NAME, m, size).expect("built");
    let mut all = vec![0u8; size as usize];
    for (b, out) in all.chunks_mut(BLOCK).enumerate() {
        match kind {
            Kind::Wdl => codec::decode_wdl_block(t.block(b), out).expect("decodes"),
            Kind::Dtc => codec::decode_dtc_block(t.block(b), out),
        }
    }
    plant(&mut all);
    let blocks: Vec<Vec<u8>> = all
        .chunks(BLOCK)
        .map(|values| {
            let mut out = Vec::new();
            match kind {
                Kind::Wdl => codec::encode_wdl_block(values, &mut out),
                Kind::Dtc => codec::encode_dtc_block(values, &mut out),
            }
            out
        })
        .collect();
    codec::write_file(&path, &t.header, &blocks).expect("written");
}

/// The verifier finds a wrong distance and a wrong value planted in valid files, names the
/// position, and does not record the slice as verified.
#[test]
fn egtb_verify_finds_planted_errors() {
    type E = Diagonal<English>;
    let dir = temp_dir("planted");
    let quiet = |_: polydam::forge::egtb::job::BuildEvent<'_>| {};
    build_and_verify::<E>(&dir, 3, &[]);
    let vdir = dir.join("english");
    let m = Material::new(0, 2, 0, 1);
    let size = SliceIndex::new(E::board(), m).size as usize;
    let dtc_path = vdir.join("m0k2-m0k1.dtc");
    let original = std::fs::read(&dtc_path).expect("built");
    // A stored distance of 2 or more (a decided position without a capture) made longer.
    let mut planted = None;
    plant_in::<E>(&vdir, m, Kind::Dtc, |d| {
        let i = (0..size)
            .find(|&i| (2..20).contains(&d[i]))
            .expect("a distance");
        d[i] += 2;
        planted = Some(i);
    });
    let i = planted.expect("planted");
    let r = verify::<E>(&dir, 3, &[], false, &quiet).expect("verifies");
    assert!(r.inconsistencies >= 1, "{r:?}");
    let named = format!("m0k2-m0k1 index {i} ");
    assert!(
        r.examples.iter().any(|e| e.contains(&named)),
        "{:?}",
        r.examples
    );
    // The bad slice was not recorded: the next run checks it again, and only it.
    let again = verify::<E>(&dir, 3, &[], false, &quiet).expect("verifies");
    assert_eq!(again.resumed, again.slices - 1);
    assert!(again.inconsistencies >= 1);
    std::fs::write(&dtc_path, &original).expect("restored");
    // The restored file is the one first recorded as verified.
    let ok = verify::<E>(&dir, 3, &[], false, &quiet).expect("verifies");
    assert_eq!((ok.inconsistencies, ok.resumed), (0, ok.slices));
    // A won position without a capture (it has a distance) stored as a draw.
    let dists = TableBytes::read(&dtc_path, Kind::Dtc, E::NAME, m, size as u64).expect("read");
    let mut d = vec![0u8; size];
    for (b, out) in d.chunks_mut(BLOCK).enumerate() {
        codec::decode_dtc_block(dists.block(b), out);
    }
    let mut planted = None;
    plant_in::<E>(&vdir, m, Kind::Wdl, |v| {
        let i = (0..size)
            .find(|&i| v[i] == Wdl::Win as u8 && d[i] < 255)
            .expect("a win");
        v[i] = Wdl::Draw as u8;
        planted = Some(i);
    });
    let i = planted.expect("planted");
    let r = verify::<E>(&dir, 3, &[], false, &quiet).expect("verifies");
    let named = format!("m0k2-m0k1 index {i} ");
    assert!(
        r.examples.iter().any(|e| e.contains(&named)),
        "{:?}",
        r.examples
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A damaged file is refused with its name and what is wrong, a missing one is reported,
/// and the tables still serve the rest; a missing directory is an error.
#[test]
fn egtb_damaged_and_missing_tables_are_reported() {
    let dir = temp_dir("damage");
    build_and_verify::<Intl>(&dir, 3, &[Material::new(0, 2, 0, 1)]);
    let vdir = dir.join("international");
    let damaged = vdir.join("m0k2-m0k1.wdl");
    let mut bytes = std::fs::read(&damaged).expect("built");
    let n = bytes.len();
    bytes[n / 2] ^= 0x40;
    std::fs::write(&damaged, &bytes).expect("written");
    std::fs::remove_file(vdir.join("m0k1-m0k2.wdl")).expect("removed");
    let set = TableSet::<Intl>::open(&dir, 3).expect("the directory is there");
    let problems = set.problems().join("\n");
    assert!(
        problems.contains("m0k2-m0k1.wdl: damaged table: checksum mismatch"),
        "{problems}"
    );
    assert!(problems.contains("m0k1-m0k2"), "{problems}");
    // What is left still answers; what is gone is not guessed.
    let ok = Intl::parse_position("W:WK5:BK46").expect("parses");
    assert_eq!(set.value(&ok), Some(Wdl::Loss));
    let gone = Intl::parse_position("W:WK2,K25:BK28").expect("parses");
    assert_eq!(set.value(&gone), None);
    // Verifying damaged tables fails with the file's name.
    let quiet = |_: polydam::forge::egtb::job::BuildEvent<'_>| {};
    let e =
        verify::<Intl>(&dir, 3, &[Material::new(0, 2, 0, 1)], false, &quiet).expect_err("damaged");
    assert!(e.to_string().contains("m0k"), "{e}");
    let missing = open_tables::<Intl>(&dir.join("nowhere"), 5).err();
    assert!(
        matches!(missing, Some(EgtbError::Missing { .. })),
        "{missing:?}"
    );
    assert!(missing
        .map(|e| e.to_string())
        .unwrap_or_default()
        .contains("nowhere"));
    // A variant without tables.
    let none = open_tables::<polydam_engine::stacks::SeesawDraughts>(&dir, 5).expect("no error");
    assert!(none.is_none());
    std::fs::remove_dir_all(&dir).ok();
}

/// Plays `fen` out with the engine on both sides, tables loaded, each move searched to a
/// fixed depth; returns the winner.
fn play_out<G: TableGame>(t: &Arc<dyn TableProbe<G>>, fen: &str) -> Option<Side> {
    let pos = G::parse_position(fen).expect("test position parses");
    let mut record = GameRecord::<G>::new(pos);
    let mut searchers = [Searcher::<G>::new(8, 1), Searcher::<G>::new(8, 1)];
    for s in &mut searchers {
        s.set_tables(Some(Arc::clone(t)));
    }
    for _ in 0..300 {
        if let Some((outcome, _)) = record.outcome() {
            let mover = G::side_to_move(record.current());
            return match outcome {
                Outcome::Win => Some(mover),
                Outcome::Loss => Some(mover.opponent()),
                Outcome::Draw => None,
            };
        }
        let side = G::side_to_move(record.current()).index();
        let result = searchers[side].search(
            &record,
            &Limits::depth(4),
            &SearchControl::new(),
            &mut |_| {},
        );
        record.push(result.best_move.expect("a move"));
    }
    panic!("{} {fen}: no result in 300 plies", G::NAME);
}

/// The root's filter under the move-count rules: `fen` is a kings-only table win whose
/// material no endgame counter covers, so the quiet-move rule alone limits it. With the quiet
/// count run up by `n` plies the winner's root stays a win while the shortest win still fits
/// (`n + 1 + child's distance <= limit`) and is a draw from one ply more, keeping every move
/// that does not lose; the loser's root after the winner's move likewise.
fn root_under_the_move_count<G: TableGame>(t: &Arc<dyn TableProbe<G>>, fen: &str) {
    let pos = G::parse_position(fen).expect("test position parses");
    let mut legal = Vec::new();
    G::generate(&pos, Duplicates::Drop, &mut legal);
    let limit = u32::from(G::draw_rules().quiet_plies);
    let fresh = DrawCounters::start::<G>(&pos);
    assert_eq!(
        fresh.endgame_limit(),
        None,
        "{fen}: an endgame counter covers it"
    );
    let mut kept = legal.clone();
    let root = t.root(&pos, &fresh, &mut kept).expect("covered");
    assert_eq!(root.value, Wdl::Win, "{fen}");
    let d = u32::from(root.dtc.expect("a stored distance"));
    assert!(d >= 3 && d < limit, "{fen}: distance {d}");
    // Counters after `n` quiet plies (any quiet move of the position counts one).
    let counters_after = |n: u32| {
        let mv = legal[0];
        let child = G::play(&pos, &mv);
        (0..n).fold(fresh, |c, _| c.after::<G>(&pos, &mv, &child))
    };
    // The child of a kept move is at `d - 1`; it is played at quiet count `n + 1`.
    let just_in_time = limit - d;
    let mut moves = legal.clone();
    let r = t
        .root(&pos, &counters_after(just_in_time), &mut moves)
        .expect("covered");
    assert_eq!(
        (r.value, r.dtc),
        (Wdl::Win, root.dtc),
        "{fen} after {just_in_time} plies"
    );
    let mut moves = legal.clone();
    let r = t
        .root(&pos, &counters_after(just_in_time + 1), &mut moves)
        .expect("covered");
    assert_eq!(
        (r.value, r.dtc),
        (Wdl::Draw, None),
        "{fen}: one ply too late"
    );
    let not_losing = legal
        .iter()
        .filter(|m| t.value(&G::play(&pos, m)) != Some(Wdl::Win))
        .count();
    assert_eq!(
        moves.len(),
        not_losing,
        "{fen}: the moves that keep the draw"
    );
    // The loser, after a shortest win's first move, `n + 1` plies into the count: it is lost
    // while the winner's next move still fits, a draw a ply later.
    let child = G::play(&pos, &kept[0]);
    let mut replies = Vec::new();
    G::generate(&child, Duplicates::Drop, &mut replies);
    for (n, want) in [(just_in_time, Wdl::Loss), (just_in_time + 1, Wdl::Draw)] {
        let c = counters_after(n).after::<G>(&pos, &kept[0], &child);
        let mut moves = replies.clone();
        let r = t.root(&child, &c, &mut moves).expect("covered");
        assert_eq!(r.value, want, "{fen}: the loser after {} plies", n + 1);
        assert!(!moves.is_empty());
    }
}

/// With the tables the engine converts table wins under the draw rules (here English 2 kings
/// against 1, which takes longer than a shallow search sees, and International 4 kings against
/// 1 under the 25-move rule) and holds table draws.
#[test]
fn egtb_search_converts_wins_and_holds_draws() {
    let dir = temp_dir("play");
    build_and_verify::<Diagonal<English>>(&dir, 3, &[Material::new(0, 2, 0, 1)]);
    let eng = tables::<Diagonal<English>>(&dir, 3);
    for fen in ["W:WK1,K2:BK32", "B:WK29,K30:BK5", "W:WK18:BK1,K4"] {
        let v = value(&eng, fen);
        let mover = if fen.starts_with('W') {
            Side::White
        } else {
            Side::Black
        };
        let want = match v {
            Wdl::Win => Some(mover),
            Wdl::Loss => Some(mover.opponent()),
            Wdl::Draw => None,
        };
        assert_eq!(play_out(&eng, fen), want, "English {fen}: table says {v}");
    }
    build_and_verify::<Intl>(&dir, 5, &[Material::new(0, 4, 0, 1)]);
    let intl = tables::<Intl>(&dir, 5);
    assert_eq!(play_out(&intl, "W:WK1,K2,K3,K4:BK46"), Some(Side::White));
    assert_eq!(play_out(&intl, "W:WK2,K25:BK28"), None);
    root_under_the_move_count::<Intl>(&intl, "W:WK1,K2,K3,K4:BK46");
    // The search reports what the root's tables say.
    let record =
        GameRecord::<Intl>::new(Intl::parse_position("W:WK1,K2,K3,K4:BK46").expect("parses"));
    let mut s = Searcher::<Intl>::new(8, 1);
    s.set_tables(Some(intl));
    let r = s.search(
        &record,
        &Limits::depth(3),
        &SearchControl::new(),
        &mut |_| {},
    );
    let root = r.root_table.expect("the root is covered");
    assert_eq!(root.value, Wdl::Win);
    assert!(r.score.centi() > 9_000, "{}", r.score);
    std::fs::remove_dir_all(&dir).ok();
}

/// Inside the tree a table win scores less the farther it is from the root (shorter
/// wins preferred): from these uncovered English roots (4 pieces, tables of 3) every move but
/// one reaches a 2-kings-against-1 table win 4 plies later than that one, with the same
/// material, so only the ply makes the difference; the search must pick that move, with the
/// table score of the entered slice less the 5 plies to it.
#[test]
fn egtb_search_prefers_the_nearer_table_win() {
    use polydam_engine::egtb::probe::TABLE_WIN;
    type E = Diagonal<English>;
    let dir = temp_dir("nearer");
    build_and_verify::<E>(&dir, 3, &[]);
    let t = tables::<E>(&dir, 3);
    for fen in ["W:WK26,K15:BK3,9", "W:WK7,K26:BK3,25"] {
        let pos = E::parse_position(fen).expect("test position parses");
        assert!(
            t.value(&pos).is_none(),
            "{fen}: the root must not be covered"
        );
        let search = |p| {
            let mut s = Searcher::<E>::new(8, 1);
            s.set_tables(Some(Arc::clone(&t)));
            s.search(
                &GameRecord::<E>::new(p),
                &Limits::depth(9),
                &SearchControl::new(),
                &mut |_| {},
            )
        };
        let mut moves = Vec::new();
        E::generate(&pos, Duplicates::Drop, &mut moves);
        let scores: Vec<i32> = moves
            .iter()
            .map(|mv| -search(E::play(&pos, mv)).score.centi())
            .collect();
        let best = *scores.iter().max().expect("moves");
        let nearest: Vec<usize> = (0..moves.len()).filter(|&i| scores[i] == best).collect();
        assert_eq!(nearest.len(), 1, "{fen}: {scores:?}");
        // The other moves win too, the same material, only later.
        assert!(
            scores.iter().filter(|&&s| s > 9_000 && s < best).count() >= 2,
            "{fen}: {scores:?}"
        );
        let r = search(pos);
        assert_eq!(r.best_move, Some(moves[nearest[0]]), "{fen}: {scores:?}");
        // Two kings against one piece, Black to move and lost, entered 5 plies from the root.
        assert_eq!(r.score.centi(), TABLE_WIN - 50 + 2 * 10 - 5, "{fen}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
