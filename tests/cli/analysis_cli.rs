//! Multi-PV and strength levels through the Hub (`set-param name=multipv`, `name=level`) and
//! `polydam analyse --multipv`; `polydam play`'s `save`, `resign` and `--time`.

use crate::common::{polydam, Engine};

/// The value of `key=` in a Hub line.
fn value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = line.find(&format!(" {key}="))? + key.len() + 2;
    let rest = &line[start..];
    if let Some(quoted) = rest.strip_prefix('"') {
        return quoted.split('"').next();
    }
    rest.split(' ').next()
}

/// A Hub score (`0.25`, `-1.05`) in hundredths of a man.
fn centi(score: &str) -> i64 {
    let men: f64 = score.parse().expect("a score in men");
    (men * 100.0).round() as i64
}

/// The `info` lines of the last depth of a search that ended with the `done` just read.
fn last_depth(lines: &[String]) -> Vec<String> {
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info ")).collect();
    let last = infos
        .last()
        .and_then(|l| value(l, "depth"))
        .expect("an info line with a depth")
        .to_owned();
    infos
        .into_iter()
        .filter(|l| value(l, "depth") == Some(last.as_str()))
        .cloned()
        .collect()
}

#[test]
fn hub_multipv_reports_distinct_moves_ordered_by_score() {
    let mut e = Engine::start();
    e.send("hub");
    let (_, params) = e.until("wait");
    assert!(
        params
            .iter()
            .any(|l| l == "param name=multipv value=1 type=int min=1 max=64"),
        "{params:?}"
    );
    e.send("set-param name=book value=false");
    e.send("set-param name=multipv value=4");
    e.send("init");
    e.expect("ready");
    e.send("pos start");
    e.send("level depth=5");
    e.send("go think");
    let (done, lines) = e.until("done *");
    let last = last_depth(&lines);
    assert_eq!(last.len(), 4, "{last:#?}");
    let mut firsts = Vec::new();
    let mut scores = Vec::new();
    for (k, line) in last.iter().enumerate() {
        assert_eq!(
            value(line, "multipv"),
            Some((k + 1).to_string().as_str()),
            "{line}"
        );
        let pv = value(line, "pv").expect("a pv");
        firsts.push(pv.split(' ').next().expect("a move").to_owned());
        scores.push(centi(value(line, "score").expect("a score")));
    }
    let mut distinct = firsts.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        4,
        "the lines start with distinct moves: {firsts:?}"
    );
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {scores:?}\n{last:#?}"
    );
    // The move played is the first line's.
    assert_eq!(value(&done, "move"), Some(firsts[0].as_str()), "{done}");

    // Back to one line: no multipv= key, one line per depth.
    e.send("set-param name=multipv value=1");
    e.send("pos start");
    e.send("level depth=3");
    e.send("go think");
    let (_, lines) = e.until("done *");
    assert!(lines.iter().all(|l| !l.contains("multipv=")), "{lines:#?}");
    assert_eq!(last_depth(&lines).len(), 1);

    // Out of range: refused, the old value stays.
    e.send("set-param name=multipv value=0");
    e.expect("error message=*multipv must be an integer from 1 to 64*");
    e.send("quit");
    e.finish();
}

#[test]
fn hub_level_plays_a_legal_move_and_refuses_bad_levels() {
    let mut e = Engine::start();
    e.send("hub");
    e.until("wait");
    e.send("set-param name=level value=1");
    e.send("set-param name=level value=7");
    e.expect("error message=*level must be an integer from 0 to 6*");
    e.send("init");
    e.expect("ready");
    // The beginner's move from the start is one of White's nine.
    e.send("pos start");
    e.send("go think");
    let (done, lines) = e.until("done *");
    let mv = value(&done, "move").expect("a move");
    assert!(
        ["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"]
            .contains(&mv),
        "{done}"
    );
    // The level searches several lines, at most its depth (1).
    assert!(lines.iter().any(|l| l.contains("multipv=2")), "{lines:#?}");
    assert!(
        lines
            .iter()
            .all(|l| value(l, "depth").is_none_or(|d| d == "1")),
        "{lines:#?}"
    );
    e.send("quit");
    e.finish();
}

#[test]
fn analyse_multipv_prints_a_line_per_move() {
    let out = polydam()
        .args([
            "analyse",
            "--variant",
            "russian",
            "--depth",
            "4",
            "--multipv",
            "3",
        ])
        .args(["--bb-size", "0"])
        .output()
        .expect("polydam runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let depth4: Vec<&str> = text.lines().filter(|l| l.starts_with("depth 4 ")).collect();
    assert_eq!(depth4.len(), 3, "{text}");
    for (k, line) in depth4.iter().enumerate() {
        assert!(
            line.starts_with(&format!("depth 4 multipv {} ", k + 1)),
            "{line}"
        );
    }
    let bad = polydam()
        .args([
            "analyse",
            "--variant",
            "russian",
            "--multipv",
            "0",
            "--bb-size",
            "0",
        ])
        .output()
        .expect("polydam runs");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--multipv must be from 1 to 64"));
}

/// Runs `polydam play` with `args` and `input`, without tables or book; returns stdout.
fn play(args: &[&str], input: &str) -> String {
    let mut all = args.to_vec();
    all.extend_from_slice(&["--bb-size", "0", "--no-book"]);
    crate::common::play_session(&all, input)
}

#[test]
fn play_resign_then_save_writes_the_game_as_pdn() {
    let dir = std::env::temp_dir().join(format!("polydam-play-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("game.pdn");
    let path = file.to_string_lossy().into_owned();
    let input = format!(
        "32-28\nresign\n33-29\nsave\nsave {path}\nsave {}/no/such/dir/x.pdn\nquit\n",
        dir.display()
    );
    let text = play(&["--variant", "international", "--depth", "1"], &input);
    assert!(text.contains("white resigns"), "{text}");
    assert!(
        text.contains("game over: black wins (white resigned)"),
        "{text}"
    );
    assert!(text.contains("error: the game is over"), "{text}");
    assert!(text.contains("error: save needs a file name"), "{text}");
    assert!(
        text.contains(&format!("saved the game to {path}")),
        "{text}"
    );
    assert!(text.contains("error: cannot write"), "{text}");
    let pdn = std::fs::read_to_string(&file).expect("the saved game");
    assert!(pdn.contains("[Result \"0-2\"]"), "{pdn}");
    assert!(
        pdn.contains("[White \"you\"]") && pdn.contains("[Black \"Polydam\"]"),
        "{pdn}"
    );
    assert!(pdn.contains("white resigned"), "{pdn}");
    assert!(pdn.contains("1. 32-28 "), "{pdn}");
    assert!(pdn.trim_end().ends_with("0-2"), "{pdn}");
    // The saved game reads back with its two moves.
    let moves = pdn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        moves
            .split_whitespace()
            .filter(|w| w.contains('-') && w.len() > 3)
            .count(),
        2,
        "{pdn}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_time_shows_the_clocks_and_refuses_bad_settings() {
    let text = play(
        &["--variant", "russian", "--time", "1+2", "--depth", "1"],
        "c3-d4\nquit\n",
    );
    assert!(text.contains("clock: white 1:00, black 1:00"), "{text}");
    // After White's move (a few milliseconds) and the increment, White has more than a minute.
    assert!(text.contains("clock: white 1:01"), "{text}");
    // A take-back gives both sides their time back: the clocks as before White's move.
    let text = play(
        &["--variant", "russian", "--time", "1+2", "--depth", "1"],
        "c3-d4\nundo\nquit\n",
    );
    let clocks: Vec<&str> = text.lines().filter(|l| l.contains("clock: ")).collect();
    assert!(clocks.len() >= 3, "{text}");
    assert!(clocks[1].contains("clock: white 1:01, black 1:0"), "{text}");
    assert!(
        clocks[clocks.len() - 1].contains("clock: white 1:00, black 1:00"),
        "{text}"
    );
    let bad = polydam()
        .args(["play", "--variant", "russian", "--time", "soon"])
        .output()
        .expect("polydam runs");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("MIN[+INC]"));
}
