//! `polydam selfplay` and `polydam train`: the data is the same for the same seed, training
//! lowers the loss, and bad input is refused with a clear message (exit status 2).

use std::path::{Path, PathBuf};
use std::process::Output;

fn polydam(args: &[&str]) -> Output {
    crate::common::polydam()
        .args(args)
        .output()
        .expect("polydam runs")
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("polydam-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).expect("output file")
}

/// The command of a `polydam hub` engine for `polydam match`.
fn hub() -> String {
    format!("\"{}\" hub", env!("CARGO_BIN_EXE_polydam"))
}

/// Runs a small selfplay (depth 2) and returns its summary.
fn selfplay(out: &Path, seed: &str, games: &str, max_plies: &str, threads: &str) -> String {
    let out = out.to_str().expect("utf-8 path");
    let args = [
        "selfplay",
        "--games",
        games,
        "--depth",
        "2",
        "--max-plies",
        max_plies,
        "--threads",
        threads,
        "--seed",
        seed,
        "-o",
        out,
    ];
    let o = polydam(&args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn selfplay_is_deterministic_for_a_seed() {
    let dir = scratch("selfplay-seed");
    let (a, b, c) = (dir.join("a.txt"), dir.join("b.txt"), dir.join("c.txt"));
    let summary = selfplay(&a, "7", "4", "40", "2");
    assert!(summary.contains("games 4 "), "{summary}");
    selfplay(&b, "7", "4", "40", "1");
    selfplay(&c, "8", "4", "40", "2");
    let (a, b, c) = (text(&a), text(&b), text(&c));
    assert_eq!(a, b, "same seed, other thread count: same bytes");
    assert_ne!(a, c, "another seed gives other games");
    let lines: Vec<&str> = a.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() > 20, "{a}");
    for line in lines {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 4, "{line}");
        assert!(["1", "0.5", "0"].contains(&f[1]), "{line}");
        f[2].parse::<i32>().expect("score");
        f[3].parse::<u32>().expect("ply");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Runs `polydam train` over `data` with `extra` options; answers the `(train, valid)` losses
/// of epochs 0 to 5 and the weights file's text.
fn train(data: &[&Path], weights: &Path, extra: &[&str]) -> (Vec<(f64, f64)>, String) {
    let mut args: Vec<&str> = vec!["train"];
    args.extend(data.iter().map(|d| d.to_str().expect("path")));
    args.extend([
        "-o",
        weights.to_str().expect("path"),
        "--epochs",
        "5",
        "--batch-size",
        "64",
        "--lr",
        "2",
        "--lambda",
        "0.5",
        "--threads",
        "2",
    ]);
    args.extend(extra);
    let o = polydam(&args);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let losses: Vec<(usize, f64, f64)> = out
        .lines()
        .filter(|l| l.starts_with("epoch "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!((f[2], f[4]), ("train-loss", "valid-loss"), "{l}");
            (
                f[1].parse().expect("epoch"),
                f[3].parse().expect("loss"),
                f[5].parse().unwrap_or(f64::NAN),
            )
        })
        .collect();
    assert_eq!(losses.len(), 6, "epoch 0 to 5: {out}");
    assert!(losses.iter().enumerate().all(|(i, l)| l.0 == i), "{out}");
    (
        losses.into_iter().map(|l| (l.1, l.2)).collect(),
        text(weights),
    )
}

#[test]
fn train_lowers_the_loss_on_generated_data() {
    let dir = scratch("train-loss");
    let (d1, d2) = (dir.join("1.txt"), dir.join("2.txt"));
    selfplay(&d1, "1", "6", "80", "2");
    selfplay(&d2, "2", "6", "80", "2");
    let data = [d1.as_path(), d2.as_path()];

    let (losses, w) = train(&data, &dir.join("psq.txt"), &["--names"]);
    assert!(losses[5].0 < losses[1].0, "{losses:?}");
    assert!(w.contains("feature-set diagonal-psq-v1-50sq"), "{w}");
    assert!(w.contains("\nvariant international\nbase none\n"), "{w}");
    assert!(w.lines().any(|l| l.ends_with(" bias")), "{w}");

    // On the hand evaluation, the start is that evaluation's loss, not ln 2 = 0.693147 (all
    // weights 0), and training lowers it.
    let (losses, w) = train(&data, &dir.join("hand.txt"), &["--base", "hand"]);
    assert!(
        (losses[0].0 - std::f64::consts::LN_2).abs() > 1e-3,
        "{losses:?}"
    );
    assert!(losses[5].0 < losses[0].0, "{losses:?}");
    assert!(w.contains("\nbase hand\n"), "{w}");
    // Without --names, the lines are INDEX WEIGHT.
    assert!(w.lines().skip(6).all(|l| l.split(' ').count() == 2), "{w}");

    let (losses, w) = train(
        &data,
        &dir.join("patterns.txt"),
        &["--features", "patterns", "--names"],
    );
    assert!(
        losses[5].0 < losses[1].0 && losses[1].0 < losses[0].0,
        "{losses:?}"
    );
    assert!(losses[5].1 < losses[0].1, "{losses:?}");
    assert!(w.contains("feature-set diagonal-patterns-v2-50sq"), "{w}");
    assert!(w.contains("\nfeatures 210037\n"), "{}", &w[..200]);
    assert!(w.lines().any(|l| l.ends_with(" mid-w0-oooooooo")));

    // Training goes on from a weights file: its epoch 0 is the end of the run that wrote it
    // (the same data and split; the file's weights are rounded to 1/100), and it stays
    // below where the run from zeros was after one epoch.
    let first = dir.join("patterns.txt");
    let (more, _) = train(
        &data,
        &dir.join("more.txt"),
        &[
            "--features",
            "patterns",
            "--init",
            first.to_str().expect("path"),
        ],
    );
    assert!(
        (more[0].0 - losses[5].0).abs() < 2e-3,
        "{more:?} {losses:?}"
    );
    assert!(more[5].0 < losses[1].0, "{more:?} {losses:?}");
    // A file of another feature set, base or scale is refused, naming what differs.
    let psq = dir.join("psq.txt");
    let init = psq.to_str().expect("path");
    let refused = dir.join("refused.txt");
    let refused = refused.to_str().expect("path");
    let o = polydam(&[
        "train",
        data[0].to_str().expect("path"),
        "-o",
        refused,
        "--features",
        "patterns",
        "--init",
        init,
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("has feature set diagonal-psq-v1-50sq"),
        "{err}"
    );
    let o = polydam(&[
        "train",
        data[0].to_str().expect("path"),
        "-o",
        refused,
        "--init",
        init,
        "--base",
        "hand",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("has base none, but this run trains base hand"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn turkish_selfplay_data_trains_the_line_patterns() {
    let dir = scratch("train-turkish");
    let data = dir.join("turkish.txt");
    let weights = dir.join("weights.txt");
    let (data, weights) = (
        data.to_str().expect("path"),
        weights.to_str().expect("path"),
    );
    let args = [
        "selfplay",
        "-v",
        "turkish",
        "--games",
        "2",
        "--depth",
        "2",
        "--max-plies",
        "30",
        "-o",
        data,
    ];
    let o = polydam(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // No --features: the orthogonal family's first set, its line patterns, is the default.
    let args = [
        "train", data, "--epochs", "1", "-v", "turkish",
        // The 30-ply games are adjudicated draws: without the search score in the target
        // every weight would stay 0.
        "--lambda", "0.5", "--names", "-o", weights,
    ];
    let o = polydam(&args);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("(orthogonal-lines-v2-16men)"), "{out}");
    let w = text(Path::new(weights));
    assert!(
        w.contains("\nfeature-set orthogonal-lines-v2-16men\nvariant turkish\n"),
        "{w}"
    );
    assert!(w.contains("\nfeatures 210277\n"), "{w}");
    assert!(w.lines().any(|l| l.ends_with(" bias")), "{w}");
    assert!(w.lines().any(|l| l.contains(" mid-rank")), "{w}");
    // The smaller piece-square set trains on the same data when asked for.
    let args = [
        "train",
        data,
        "--epochs",
        "1",
        "-v",
        "turkish",
        "--features",
        "psq",
        "--lambda",
        "0.5",
        "--names",
        "-o",
        weights,
    ];
    let o = polydam(&args);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("(orthogonal-psq-v1-16men)"), "{out}");
    let w = text(Path::new(weights));
    assert!(w.contains("\nfeatures 581\n"), "{w}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Plays `games` games of `variant` at depth 2 into a data file in `dir` and trains the
/// family's default set on them, on the hand evaluation and on nothing: on both, the
/// validation loss falls. Answers the weights file trained on nothing.
fn check_family_trains(dir: &Path, variant: &str, games: &str, set: &str) -> String {
    let data = dir.join(format!("{variant}.txt"));
    let o = polydam(&[
        "selfplay",
        "-v",
        variant,
        "--games",
        games,
        "--depth",
        "2",
        "--max-plies",
        "120",
        "--threads",
        "2",
        "-q",
        "-o",
        data.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let data = [data.as_path()];
    // No --features and no --variant: the family's only set, for the data's variant.
    let (losses, w) = train(&data, &dir.join("hand.txt"), &["--base", "hand"]);
    assert!(losses[5].1 < losses[0].1, "{variant} on hand: {losses:?}");
    assert!(
        (losses[0].0 - std::f64::consts::LN_2).abs() > 1e-3,
        "{losses:?}"
    );
    assert!(
        w.contains(&format!(
            "\nfeature-set {set}\nvariant {variant}\nbase hand\n"
        )),
        "{w}"
    );
    let (losses, w) = train(&data, &dir.join("none.txt"), &["--names"]);
    assert!(
        (losses[0].1 - std::f64::consts::LN_2).abs() < 1e-6,
        "{losses:?}"
    );
    assert!(
        losses[5].1 < losses[0].1,
        "{variant} on nothing: {losses:?}"
    );
    assert!(w.lines().any(|l| l.ends_with(" bias")), "{w}");
    w
}

#[test]
fn seesaw_draughts_selfplay_data_trains_its_stack_squares() {
    let dir = scratch("train-stacks");
    let w = check_family_trains(&dir, "seesaw-draughts", "8", "stacks-psq-v1");
    assert!(w.contains("\nfeatures 821\n"), "{w}");
    assert!(w.lines().any(|l| l.contains(" mid-own-size1-sq")), "{w}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn hex_seesaw_selfplay_data_trains_its_cells() {
    let dir = scratch("train-hex");
    let w = check_family_trains(&dir, "seesaw", "8", "hex-psq-v1-37cells");
    assert!(w.contains("\nfeatures 1793\n"), "{w}");
    assert!(w.lines().any(|l| l.contains(" mid-d1-own1-owntile")), "{w}");
    let _ = std::fs::remove_dir_all(dir);
}

fn fails_with(args: &[&str], message: &str) {
    let o = polydam(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(message),
        "{args:?}: {err:?}, wanted {message:?}"
    );
    assert!(!err.contains("panicked"), "{args:?} panicked");
}

#[test]
fn bad_training_input_is_refused_clearly() {
    let dir = scratch("train-bad");
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "# comment\nW:W31-50:B1-20 0.5 3 0\nW:W31-50:B1-20 2 3 0\n",
    )
    .expect("write");
    let bad = bad.to_str().expect("path").to_string();
    let w = dir.join("w.txt");
    let w = w.to_str().expect("path");
    fails_with(
        &["train", &bad, "-o", w],
        &format!("{bad}:3: result '2' is not 1, 0.5 or 0"),
    );
    let missing = dir.join("missing.txt");
    fails_with(
        &["train", missing.to_str().expect("path"), "-o", w],
        "cannot read",
    );
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# nothing\n").expect("write");
    fails_with(
        &["train", empty.to_str().expect("path"), "-o", w],
        "holds no position",
    );
    let position = dir.join("position.txt");
    std::fs::write(&position, "W:Wxx 1 0 0\n").expect("write");
    fails_with(
        &["train", position.to_str().expect("path"), "-o", w],
        ":1: bad international position",
    );
    // The data's own header names its variant: another one is refused.
    let russian = dir.join("russian.txt");
    std::fs::write(
        &russian,
        "# polydam selfplay variant=russian seed=1\nW:W21-32:B1-12 0.5 0 8\n",
    )
    .expect("write");
    fails_with(
        &["train", russian.to_str().expect("path"), "-o", w, "-v", "international"],
        "russian.txt:1: the data was generated for russian, not international (give --variant russian)",
    );
    fails_with(
        &["train", &bad, "-o", w, "--variant", "nosuch"],
        "unknown variant 'nosuch'",
    );
    fails_with(
        &[
            "train",
            &bad,
            "-o",
            w,
            "--variant",
            "seesaw-draughts",
            "--features",
            "patterns",
        ],
        "no 'patterns' feature set for seesaw-draughts (its family has psq",
    );
    fails_with(
        &[
            "train",
            &bad,
            "-o",
            w,
            "--variant",
            "seesaw-5",
            "--features",
            "patterns",
        ],
        "no 'patterns' feature set for seesaw-5 (its family has psq",
    );
    fails_with(
        &["train", &bad, "-o", w, "--features", "nosuch"],
        "unknown feature set 'nosuch'",
    );
    fails_with(
        &["train", &bad, "-o", w, "--base", "nosuch"],
        "unknown base 'nosuch' (none or hand)",
    );
    fails_with(
        &["selfplay", "-o", w, "--variant", "nosuch"],
        "unknown variant 'nosuch'",
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn train_takes_the_variant_from_the_data() {
    let dir = scratch("train-variant");
    let (data, w) = (dir.join("russian.txt"), dir.join("w.txt"));
    let o = polydam(&[
        "selfplay",
        "-v",
        "russian",
        "--games",
        "2",
        "--depth",
        "2",
        "--max-plies",
        "30",
        "-q",
        "-o",
        data.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = polydam(&[
        "train",
        data.to_str().expect("path"),
        "--features",
        "patterns",
        "--epochs",
        "1",
        "-q",
        "-o",
        w.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let w = text(&w);
    assert!(
        w.contains("feature-set diagonal-patterns-v2-32sq\nvariant russian\n"),
        "{w}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Pieces of an International FEN (`W:W31,33-35:BK4`).
fn intl_pieces(fen: &str) -> u32 {
    let mut n = 0;
    for side in fen.split(':').skip(1) {
        for tok in side[1..].split(',').filter(|t| !t.is_empty()) {
            let tok = tok.trim_start_matches('K');
            n += match tok.split_once('-') {
                Some((a, b)) => {
                    b.parse::<u32>().expect("square") - a.parse::<u32>().expect("square") + 1
                }
                None => 1,
            };
        }
    }
    n
}

/// The score `polydam analyse` gives `fen` at depth 3, with its output.
fn depth3_score(fen: &str) -> (f64, String) {
    let o = polydam(&["analyse", "--fen", fen, "--depth", "3", "--hash", "16"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let text = out
        .split("(score ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .unwrap_or_else(|| panic!("{fen}: {out}"));
    // A forced result (`win 4`, `loss 4`) counts as far beyond any margin in men.
    let score = match text.split_once(' ') {
        Some(("win", _)) => 100.0,
        Some(("loss", _)) => -100.0,
        _ => text.parse().unwrap_or_else(|_| panic!("{fen}: {out}")),
    };
    (score, out)
}

/// `polydam positions` picks one position a game within the piece range, spreads the counts, keeps
/// them balanced, writes a book `polydam match --book` reads, and refuses bad options.
#[test]
fn positions_picks_balanced_positions_with_few_pieces() {
    let dir = scratch("book");
    let data = dir.join("data.txt");
    selfplay(&data, "3", "12", "300", "2");
    let book = dir.join("book.txt");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "positions",
            data.to_str().expect("utf-8"),
            "-o",
            book.to_str().expect("utf-8"),
            "--depth",
            "3",
        ];
        args.extend_from_slice(extra);
        polydam(&args)
    };
    let o = run(&["--count", "4", "--max-score", "100"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary = String::from_utf8_lossy(&o.stdout);
    assert!(summary.starts_with("positions 4 "), "{summary}");
    let written = text(&book);
    assert!(written.starts_with("# polydam positions variant=international"));
    let fens: Vec<&str> = written.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(fens.len(), 4);
    let counts: Vec<u32> = fens.iter().map(|f| intl_pieces(f)).collect();
    assert!(counts.iter().all(|n| (8..=12).contains(n)), "{counts:?}");
    let mut sorted = fens.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 4, "distinct positions");
    // Balanced within 0.3 men: fewer than asked (an error), but those found are written and a
    // search of the same depth agrees they are balanced.
    let o = run(&["--count", "1000", "--max-score", "0.3"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("of the 1000 asked"), "{err}");
    let kept: Vec<String> = text(&book)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect();
    assert!(!kept.is_empty(), "seed 3's games have a balanced position");
    for fen in &kept {
        let (score, out) = depth3_score(fen);
        assert!(score.abs() <= 0.3, "{fen}: {out}");
    }
    // With --min-score, only positions one side should win.
    let o = run(&["--count", "2", "--min-score", "0.5", "--max-score", "100"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text(&book).starts_with("# polydam positions variant=international"));
    for fen in text(&book).lines().filter(|l| !l.starts_with('#')) {
        let (score, out) = depth3_score(fen);
        assert!(score.abs() >= 0.5, "{fen}: {out}");
    }
    // Bad options and data are refused with a message.
    let o = run(&["--min-score", "2", "--max-score", "1"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("--min-score"));
    let o = run(&["--min-pieces", "9", "--max-pieces", "8"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("--min-pieces (9)"));
    std::fs::write(&data, "W:W31:B20 2 0 8\n").expect("write");
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 1"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `polydam openings` writes a deck of distinct balanced openings that `polydam match --book`
/// plays, and refuses bad options.
#[test]
fn openings_writes_a_deck_of_balanced_openings_match_plays() {
    let dir = scratch("deck");
    let deck = dir.join("russian.txt");
    let deck_arg = deck.to_str().expect("utf-8");
    let o = polydam(&[
        "openings", "-v", "russian", "--plies", "2", "--depth", "4", "-o", deck_arg, "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary = String::from_utf8_lossy(&o.stdout);
    assert!(summary.contains(" positions 49 sequences 49 "), "{summary}");
    let written = text(&deck);
    assert!(
        written.starts_with("# polydam openings variant=russian plies=2 max-score=0.3 depth=4"),
        "{written}"
    );
    let lines: Vec<&str> = written.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!lines.is_empty() && lines.len() <= 49, "{written}");
    assert!(
        summary.starts_with(&format!("openings {} ", lines.len())),
        "{summary}"
    );
    for line in &lines {
        // `c3-d4 f6-g5 {+0.05}`: two moves and a score within the bound.
        let (moves, score) = line.split_once(" {").expect("a score");
        assert_eq!(moves.split(' ').count(), 2, "{line}");
        let score: f64 = score.trim_end_matches('}').parse().expect("a number");
        assert!(score.abs() <= 0.3, "{line}");
    }
    // The deck is a book the referee reads: two games from its first opening.
    let o = polydam(&[
        "match",
        "-v",
        "russian",
        "--engine",
        &hub(),
        "--engine",
        &hub(),
        "--book",
        deck_arg,
        "--games",
        "2",
        "--depth",
        "1",
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("forfeits: 0"));
    // Bad options are refused with a message, and the deck is left as it was.
    for (args, message) in [
        (&["--plies", "0"][..], "--plies must be from 1 to 6"),
        (&["--plies", "7"], "--plies must be from 1 to 6"),
        (&["--max-score=-1"], "--max-score must be"),
        (&["-v", "nonsense"], "nonsense"),
    ] {
        let mut all = vec!["openings", "-o", deck_arg, "-q"];
        all.extend_from_slice(args);
        let o = polydam(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
    }
    assert_eq!(text(&deck), written);
    std::fs::remove_dir_all(&dir).ok();
}
