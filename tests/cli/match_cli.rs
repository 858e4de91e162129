//! `polydam match` end to end: the built binary referees games between `polydam hub` and fake
//! engines (`fake_engines/fake_hub.py`) that play an illegal move, crash, never answer or
//! answer without a move. Each misbehaviour must lose the game with its reason reported, and
//! the match must go on to its last game.

use std::path::PathBuf;
use std::process::Output;

fn polydam_engine() -> String {
    format!("\"{}\" hub", env!("CARGO_BIN_EXE_polydam"))
}

fn fake(mode: &str) -> String {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cli/fake_engines/fake_hub.py");
    format!("python3 \"{}\" {mode}", script.display())
}

fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("polydam-match-{}-{name}", std::process::id()))
}

fn run(args: &[&str]) -> Output {
    crate::common::polydam()
        .arg("match")
        .args(args)
        .output()
        .expect("polydam runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a match that must succeed; returns stdout, stderr.
fn run_ok(args: &[&str]) -> (String, String) {
    let o = run(args);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}\nstdout:\n{out}\nstderr:\n{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    (out, err)
}

fn pdn_results(path: &PathBuf) -> Vec<String> {
    let pdn = std::fs::read_to_string(path).expect("PDN written");
    let _ = std::fs::remove_file(path);
    pdn.lines()
        .filter_map(|l| l.strip_prefix("[Result \""))
        .map(|l| l.trim_end_matches("\"]").to_owned())
        .collect()
}

/// A match of `polydam hub` (engine 1) against one fake engine: the fake loses every game,
/// for `reason`, and every game is played and saved.
/// The fake engine in `mode` loses every game. Its moves are limited by depth, so that a loaded
/// machine cannot turn a slow answer into a time forfeit, except for `silent`, whose forfeit is
/// a time forfeit and so needs a clock.
fn bad_engine_loses_every_game(mode: &str, games: usize, reason: &str) {
    let pdn = temp_file(&format!("{mode}.pdn"));
    let (polydam, bad) = (polydam_engine(), fake(mode));
    let games_text = games.to_string();
    let limit: [&str; 2] = if mode == "silent" {
        ["--movetime", "0.01"]
    } else {
        ["--depth", "2"]
    };
    let (out, err) = run_ok(&[
        "--engine",
        &polydam,
        "--engine",
        &bad,
        "--games",
        &games_text,
        limit[0],
        limit[1],
        "--max-plies",
        "30",
        "--pdn",
        pdn.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(
        out.contains(&format!("Polydam vs fake-{mode}: +{games} =0 -0")),
        "{out}"
    );
    let on_time = if mode == "silent" {
        format!(" (on time: Polydam 0, fake-{mode} {games})")
    } else {
        String::new()
    };
    assert!(
        out.contains(&format!("forfeits: {games}{on_time}\n")),
        "{out}"
    );
    for g in 1..=games {
        assert!(
            out.contains(&format!("game {g}: fake-{mode} loses: {reason}")),
            "game {g}, wanted '{reason}':\n{out}"
        );
        assert!(err.contains(&format!("game {g}/{games}: ")), "{err}");
    }
    assert!(
        out.contains(&format!("pdn: {games} games written")),
        "{out}"
    );
    let results = pdn_results(&pdn);
    let expected: Vec<&str> = (0..games)
        .map(|g| if g % 2 == 0 { "2-0" } else { "0-2" })
        .collect();
    assert_eq!(results, expected);
}

#[test]
fn illegal_move_loses_and_the_match_goes_on() {
    bad_engine_loses_every_game("illegal", 4, "illegal move 50-45");
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    bad_engine_loses_every_game("crash", 3, "crashed (exit status 3)");
}

#[test]
fn silence_is_a_time_forfeit() {
    bad_engine_loses_every_game("silent", 2, "time forfeit (no move within 1.00 s)");
}

#[test]
fn bare_done_is_no_move() {
    bad_engine_loses_every_game("nomove", 2, "no move (bare done)");
}

#[test]
fn round_robin_with_concurrency_completes() {
    let engines = [
        polydam_engine(),
        fake("crash"),
        fake("silent"),
        fake("illegal"),
    ];
    let mut args: Vec<&str> = Vec::new();
    for e in &engines {
        args.extend(["--engine", e]);
    }
    args.extend([
        "--depth",
        "2",
        "--max-plies",
        "20",
        "--concurrency",
        "2",
        "-q",
    ]);
    let (out, err) = run_ok(&args);
    // 4 engines: 6 pairs of 2 games.
    assert!(
        out.contains("match: international, 4 engines, 12 games"),
        "{out}"
    );
    assert_eq!(
        err.lines().filter(|l| l.starts_with("game ")).count(),
        12,
        "{err}"
    );
    assert!(out.contains("engine 1: Polydam"), "{out}");
    assert!(out.contains(", 6 / 6 points\n"), "{out}");
    for reason in [
        "crashed (exit status 3)",
        "time forfeit",
        "illegal move 50-45",
    ] {
        assert!(out.contains(reason), "{reason}:\n{out}");
    }
    // Fake against fake: whoever has to move first loses, so every game is a forfeit.
    assert!(out.contains("forfeits: 12 (on time: "), "{out}");
}

#[test]
fn polydam_against_itself_with_random_openings_and_sprt() {
    let pdn = temp_file("self.pdn");
    let e = polydam_engine();
    let (out, _) = run_ok(&[
        "--engine",
        &e,
        "--engine",
        &e,
        "--name",
        "2:Other",
        "--engine-option",
        "2:hash=8",
        "--games",
        "4",
        "--depth",
        "2",
        "--random-plies",
        "4",
        "--seed",
        "3",
        "--max-plies",
        "12",
        "--sprt",
        "0,10",
        "--pdn",
        pdn.to_str().unwrap(),
        "-q",
    ]);
    assert!(out.contains("Polydam vs Other: "), "{out}");
    assert!(out.contains("forfeits: 0\n"), "{out}");
    assert!(out.contains("SPRT elo0 0 elo1 10"), "{out}");
    assert!(out.contains("Elo "), "{out}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(text.matches("[GameType \"20\"]").count(), 4, "{text}");
    assert_eq!(text.matches("[White \"Polydam\"]").count(), 2, "{text}");
    assert_eq!(text.matches("[Black \"Polydam\"]").count(), 2, "{text}");
    // The 4 random plies are the first moves of each game, then 8 more to the ply cap.
    assert!(text.contains("1. "), "{text}");
    assert_eq!(pdn_results(&pdn).len(), 4);
}

#[test]
fn clock_games_and_depth_limits_finish_without_forfeits() {
    let e = polydam_engine();
    let (out, err) = run_ok(&[
        "--engine",
        &e,
        "--engine",
        &e,
        "--games",
        "2",
        "--time",
        "1",
        "--inc",
        "0.05",
        "--max-plies",
        "12",
        "-q",
    ]);
    assert!(out.contains("1 s + 0.05 s per move"), "{out}");
    assert!(out.contains("forfeits: 0\n"), "{out}");
    // Same names are told apart by number.
    assert!(out.contains("Polydam #1 vs Polydam #2: "), "{out}");
    assert!(out.contains("endings: ply cap (12 plies) 2;"), "{out}");
    // The least time left when a move arrived: below the 1 s clock plus the increments.
    let margin = out
        .lines()
        .find_map(|l| l.strip_prefix("clock margin: worst "))
        .and_then(|l| l.split(' ').next())
        .and_then(|m| m.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no clock margin line: {out}"));
    assert!(margin > -0.1 && margin < 1.3, "{out}");
    // Each game's line gives the seconds White and Black spent, within the clock.
    let game_lines: Vec<&str> = err.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(game_lines.len(), 2, "{err}");
    for line in game_lines {
        let used: Vec<f64> = line
            .split_once("; time used ")
            .map(|(_, t)| {
                t.split(", ")
                    .filter_map(|x| x.trim_end_matches(" s").parse().ok())
            })
            .unwrap_or_else(|| panic!("no time used: {line}"))
            .collect();
        assert_eq!(used.len(), 2, "{line}");
        assert!(used.iter().all(|&t| t > 0.0 && t < 1.7), "{line}");
    }
    let (out, err) = run_ok(&[
        "--engine",
        &e,
        "--engine",
        &e,
        "--depth",
        "2",
        "--max-plies",
        "8",
        "-q",
    ]);
    assert!(out.contains("depth 2"), "{out}");
    assert!(out.contains("forfeits: 0\n"), "{out}");
    assert!(!out.contains("clock margin"), "no clock, no margin: {out}");
    assert!(!err.contains("time used"), "no clock, no time used: {err}");
}

#[test]
fn fixed_node_games_repeat_exactly() {
    // One search thread counts nodes exactly: the same engine with colours swapped plays the
    // same game twice, move for move. Without the limit reaching the engine it would search
    // until the move timeout and forfeit. The opening book off: its moves are chosen at random.
    let e = format!("{} --set book=false", polydam_engine());
    let pdn = temp_file("nodes.pdn");
    let (out, _) = run_ok(&[
        "--engine",
        &e,
        "--engine",
        &e,
        "--nodes",
        "3000",
        "--max-plies",
        "20",
        "--move-timeout",
        "20",
        "--pdn",
        pdn.to_str().unwrap(),
        "-q",
    ]);
    assert!(out.contains("no clock, 3000 nodes"), "{out}");
    assert!(out.contains("forfeits: 0\n"), "{out}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    let _ = std::fs::remove_file(&pdn);
    let games: Vec<String> = text
        .split("[Event")
        .skip(1)
        .map(|g| {
            g.lines()
                .filter(|l| !l.starts_with('[') && !l.trim().is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(games.len(), 2, "{text}");
    assert!(games[0].contains("10. "), "{text}");
    assert_eq!(games[0], games[1], "{text}");
}

#[test]
fn other_variants_use_card_numbering_and_their_tags() {
    for (variant, tag) in [
        ("russian", "[GameType \"25\"]"),
        ("english", "[GameType \"21\"]"),
        ("seesaw", "[Variant \"seesaw\"]"),
        ("turkish", "[GameType \"30\"]"),
    ] {
        let pdn = temp_file(&format!("{variant}.pdn"));
        let e = polydam_engine();
        let (out, _) = run_ok(&[
            "--variant",
            variant,
            "--engine",
            &e,
            "--engine",
            &e,
            "--games",
            "2",
            "--depth",
            "2",
            "--max-plies",
            "16",
            "--pdn",
            pdn.to_str().unwrap(),
            "-q",
        ]);
        assert!(out.contains("forfeits: 0\n"), "{variant}: {out}");
        let text = std::fs::read_to_string(&pdn).unwrap();
        let _ = std::fs::remove_file(&pdn);
        assert_eq!(text.matches(tag).count(), 2, "{variant}: {text}");
    }
}

#[test]
fn bad_input_is_an_error_with_status_2() {
    let e = polydam_engine();
    let book = temp_file("bad.book");
    std::fs::write(&book, "32-28 19-23\n32-29\n").unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "--variant",
                "nosuch",
                "--engine",
                &e,
                "--engine",
                &e,
                "--movetime",
                "0.01",
            ],
            "unknown variant 'nosuch'",
        ),
        (
            vec![
                "--engine",
                &e,
                "--engine",
                "/nonexistent/engine hub",
                "--movetime",
                "0.01",
            ],
            "engine 2: cannot start '/nonexistent/engine hub'",
        ),
        (
            vec!["--engine", &e, "--movetime", "0.01"],
            "at least two --engine",
        ),
        (
            vec!["--engine", &e, "--engine", &e],
            "give a limit per move",
        ),
        (
            vec![
                "--engine",
                &e,
                "--engine",
                &e,
                "--movetime",
                "0.01",
                "--book",
                book.to_str().unwrap(),
            ],
            "book line 2:",
        ),
        (
            vec![
                "--engine",
                &e,
                "--engine",
                &e,
                "--movetime",
                "0.01",
                "--engine-option",
                "5:x=1",
            ],
            "--engine-option '5:x=1'",
        ),
        (
            vec![
                "--engine",
                &e,
                "--engine",
                &e,
                "--movetime",
                "0.01",
                "--sprt",
                "5",
            ],
            "--sprt '5'",
        ),
    ];
    for (args, message) in cases {
        let o = run(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(message),
            "{args:?}: wanted {message:?} in {err:?}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let _ = std::fs::remove_file(&book);
}

#[test]
fn an_engine_refusing_its_options_stops_the_match() {
    // Once, `--engine-option 1:bogus=1` or `1:hash=99999999` was refused by the engine
    // and the refusal silently ignored; the games went on with the engine's defaults.
    let e = polydam_engine();
    for (option, said) in [
        ("1:bogus=1", "unknown parameter 'bogus'"),
        (
            "1:hash=99999999",
            "cannot allocate a hash table of 99999999 MiB",
        ),
    ] {
        let o = run(&[
            "--engine",
            &e,
            "--engine",
            &e,
            "--engine-option",
            option,
            "--games",
            "2",
            "--depth",
            "1",
            "-q",
        ]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{option}: {err}");
        assert!(
            err.contains("engine 1: handshake failed: the engine refused its settings ("),
            "{err}"
        );
        assert!(err.contains(said), "{option}: {err}");
    }
}

#[test]
fn a_clock_of_zero_is_refused() {
    let e = polydam_engine();
    let o = run(&["--engine", &e, "--engine", &e, "--time", "0", "-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--time must be a number of seconds above 0"));
}

#[test]
fn losses_on_time_are_reported_apart_with_the_grace_given() {
    let (polydam, silent) = (polydam_engine(), fake("silent"));
    let (out, _) = run_ok(&[
        "--engine",
        &polydam,
        "--engine",
        &silent,
        "--games",
        "2",
        "--time",
        "0.3",
        "--grace",
        "0.2",
        "--max-plies",
        "30",
        "--quiet",
    ]);
    assert!(out.contains("Polydam vs fake-silent: +2 =0 -0"), "{out}");
    assert!(
        out.contains("forfeits: 2 (on time: Polydam 0, fake-silent 2)\n"),
        "{out}"
    );
    assert!(
        out.contains("time forfeit (no move within 0.50 s)"),
        "the grace extends the wait: {out}"
    );
    assert!(
        out.contains("  without the 2 games lost on time: +0 =0 -0\n"),
        "{out}"
    );
    assert!(out.contains("time per game: Polydam "), "{out}");
    let o = run(&[
        "--engine",
        &polydam,
        "--engine",
        &polydam,
        "--time",
        "1",
        "--grace=-1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--grace must be"),
        "{}",
        text(&o.stderr)
    );
}

/// Whole games on a sudden-death clock of a third of a second: the time manager spends the
/// clock without ever going past zero (no grace at all), and uses most of it.
#[test]
fn tiny_sudden_death_clocks_are_never_overrun() {
    let e = polydam_engine();
    let (out, _) = run_ok(&[
        "--engine",
        &e,
        "--engine",
        &e,
        "--games",
        "4",
        "--time",
        "0.3",
        "--grace",
        "0",
        "--random-plies",
        "2",
        "--concurrency",
        "2",
        "--quiet",
    ]);
    assert!(out.contains("forfeits: 0\n"), "{out}");
    let used = out
        .lines()
        .find_map(|l| l.strip_prefix("time per game: Polydam #1 "))
        .and_then(|l| l.split(' ').next())
        .and_then(|m| m.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no time per game line: {out}"));
    assert!(used > 0.05 && used <= 0.3, "{out}");
}

/// A match of `polydam hub` (White) against the fake in `mode` (Black), one game at depth 1,
/// with `extra` options and the environment variable `env` set. Returns the match's output,
/// its exit time, and the most memory it held (its VmHWM, read from /proc while it runs).
fn watched_match(
    mode: &str,
    extra: &[&str],
    env: (&str, &std::path::Path),
) -> (String, std::time::SystemTime, u64) {
    use std::io::Read;
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let (polydam, bad) = (polydam_engine(), fake(mode));
    let mut child = crate::common::polydam()
        .arg("match")
        .args(["--engine", &polydam, "--engine", &bad, "--games", "1"])
        .args(["--depth", "1", "--max-plies", "30", "--quiet"])
        .args(extra)
        .env(env.0, env.1)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("polydam runs");
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let status = format!("/proc/{}/status", child.id());
    let until = Instant::now() + Duration::from_secs(120);
    let mut hwm_kib = 0u64;
    let exited = loop {
        if let Ok(text) = std::fs::read_to_string(&status) {
            let field = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
            hwm_kib = hwm_kib.max(field.unwrap_or(0));
        }
        if let Ok(Some(_)) = child.try_wait() {
            break std::time::SystemTime::now();
        }
        if Instant::now() > until {
            let _ = child.kill();
            panic!("polydam match did not end");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let out = reader.join().expect("stdout read");
    (out, exited, hwm_kib)
}

/// The times (seconds since the epoch) at which the fake engine was told `go`.
fn go_times(log: &std::path::Path) -> Vec<f64> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let _ = std::fs::remove_file(log);
    text.lines()
        .filter_map(|l| l.strip_prefix("go "))
        .filter_map(|t| t.parse().ok())
        .collect()
}

/// An engine that floods its output, in lines or in one endless line, forfeits on time within
/// its deadline plus a second, and the referee's memory stays under 100 MB (it once grew to
/// 3.5 GB, and a 3 s forfeit took 34 s).
#[test]
fn a_flooding_engine_forfeits_within_its_deadline_in_bounded_memory() {
    for mode in ["flood", "longline"] {
        let log = temp_file(&format!("{mode}.log"));
        let _ = std::fs::remove_file(&log);
        let (out, exited, hwm_kib) =
            watched_match(mode, &["--move-timeout", "2"], ("FAKE_HUB_LOG", &log));
        assert!(
            out.contains(&format!(
                "game 1: fake-{mode} loses: time forfeit (no move within 2.00 s)"
            )),
            "{mode}: {out}"
        );
        let gos = go_times(&log);
        assert_eq!(gos.len(), 1, "{mode}: {gos:?}");
        let exit = exited
            .duration_since(std::time::UNIX_EPOCH)
            .expect("a clock after 1970")
            .as_secs_f64();
        let took = exit - gos[0];
        assert!(
            took <= 3.0,
            "{mode}: the match ended {took:.2} s after the engine's go (deadline 2 s)"
        );
        assert!(
            hwm_kib < 100 * 1024,
            "{mode}: the referee held {} MB",
            hwm_kib / 1024
        );
    }
}

/// An engine that writes a second `done` after its move (here a second before its next
/// turn): the stale `done` is dropped by the ping/pong before the next `pos`, never played.
#[test]
fn a_second_done_never_becomes_the_next_move() {
    let pdn = temp_file("twice.pdn");
    let (out, _, _) = watched_match(
        "twice",
        &["--move-timeout", "3", "--pdn", pdn.to_str().unwrap()],
        ("FAKE_HUB_LOG", &temp_file("twice.log")),
    );
    let _ = std::fs::remove_file(temp_file("twice.log"));
    assert!(
        out.contains("game 1: fake-twice loses: time forfeit (no move within 3.00 s)"),
        "the stale done was taken for a move: {out}"
    );
    let text = std::fs::read_to_string(&pdn).expect("PDN written");
    let _ = std::fs::remove_file(&pdn);
    let movetext: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('[') && !l.is_empty())
        .flat_map(str::split_whitespace)
        .filter(|t| !t.ends_with('.') && *t != "2-0")
        .collect();
    assert_eq!(movetext.len(), 3, "{text}");
    assert_eq!(movetext[1], "19-23", "{text}");
}

/// An engine killed after a time forfeit (and one that quits at the end) takes the processes
/// it started with it: the referee kills its whole process group.
#[test]
fn no_child_of_a_killed_engine_survives() {
    let pids = temp_file("spawn.pids");
    let _ = std::fs::remove_file(&pids);
    let (out, _, _) = watched_match("spawn", &["--move-timeout", "1"], ("FAKE_HUB_PIDS", &pids));
    assert!(
        out.contains("game 1: fake-spawn loses: time forfeit"),
        "{out}"
    );
    let text = std::fs::read_to_string(&pids).expect("the fake wrote its child's pid");
    let _ = std::fs::remove_file(&pids);
    let pids: Vec<u32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
    assert!(!pids.is_empty());
    // Alive: /proc/PID exists and the process is not a zombie.
    let alive = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            s.rsplit(')')
                .next()
                .is_some_and(|rest| !rest.trim_start().starts_with('Z'))
        })
    };
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while pids.iter().any(|&p| alive(p)) && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let survivors: Vec<u32> = pids.iter().copied().filter(|&p| alive(p)).collect();
    for pid in &survivors {
        let _ = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status();
    }
    assert!(
        survivors.is_empty(),
        "children still running: {survivors:?} of {pids:?}"
    );
}

#[test]
fn slices_of_a_match_play_its_games() {
    // A 6-game match with random openings, then the same match as three slices of one pair
    // each (--first-game 1, 3, 5): the slices' PDNs, put together, are the match's. The book
    // is off (its moves are chosen at random) and depth limits make the games repeat.
    let e = format!("{} --set book=false", polydam_engine());
    let common = [
        "--engine",
        &e,
        "--engine",
        &e,
        "--depth",
        "2",
        "--random-plies",
        "6",
        "--seed",
        "11",
        "--max-plies",
        "40",
        "-q",
    ];
    let read = |path: &PathBuf| {
        let text = std::fs::read_to_string(path).expect("PDN written");
        let _ = std::fs::remove_file(path);
        // The date is today's in both; the rest must be the same bytes.
        text.lines()
            .filter(|l| !l.starts_with("[Date "))
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    };
    let whole = temp_file("slices-whole.pdn");
    let mut args = common.to_vec();
    args.extend(["--games", "6", "--pdn", whole.to_str().unwrap()]);
    let (out, _) = run_ok(&args);
    assert!(out.contains("6 games"), "{out}");
    let whole = read(&whole);
    assert_eq!(whole.matches("[Event ").count(), 6, "{whole}");
    let mut pieces = String::new();
    for first in ["1", "3", "5"] {
        let part = temp_file(&format!("slices-{first}.pdn"));
        let mut args = common.to_vec();
        args.extend(["--games", "2", "--first-game", first]);
        args.extend(["--pdn", part.to_str().unwrap()]);
        let (out, err) = run_ok(&args);
        assert!(out.contains("pdn: 2 games written"), "{out}");
        // Each game line counts to the slice's last game, not to the slice's length.
        let last = first.parse::<usize>().unwrap() + 1;
        assert!(err.contains(&format!("game {last}/{last}: ")), "{err}");
        pieces.push_str(&read(&part));
    }
    assert!(pieces.contains("[Round \"5\"]"), "{pieces}");
    assert_eq!(pieces, whole);
    // A slice must start a pair, and a round robin cannot be sliced.
    let o = run(&[
        "--engine",
        &e,
        "--engine",
        &e,
        "--depth",
        "1",
        "--first-game",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--first-game must be odd"));
    let o = run(&[
        "--engine",
        &e,
        "--engine",
        &e,
        "--engine",
        &e,
        "--depth",
        "1",
        "--first-game",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("exactly two engines"));
}
