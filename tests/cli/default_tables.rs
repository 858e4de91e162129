//! Endgame tables by default: `polydam egtb build` writes into the data directory
//! (`POLYDAM_DATA_DIR` here, never the real home), the Hub engine and `analyse` use the tables
//! there without being told, and a session that finds none says how to build them, once, on
//! stderr.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{polydam, Engine, NO_TABLES_HINT};

/// A fresh directory under the system's temporary one.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "polydam-default-tables-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Runs `polydam args` with the data directory `data`.
fn run(data: &Path, args: &[&str]) -> Output {
    polydam()
        .env("POLYDAM_DATA_DIR", data)
        .args(args)
        .output()
        .expect("polydam runs")
}

/// Runs `polydam args` with the data directory `data`, which must succeed; returns stdout and
/// stderr.
fn ok(data: &Path, args: &[&str]) -> (String, String) {
    let o = run(data, args);
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    );
    assert!(o.status.success(), "{args:?}: {:?}\n{out}\n{err}", o.status);
    (out, err)
}

/// A Hub session with the data directory `data`.
fn hub(data: &Path) -> Engine {
    let data = data.to_str().expect("a UTF-8 temp path");
    Engine::start_with_env(false, &[("POLYDAM_DATA_DIR", data)])
}

/// The lines of `stderr` that are the missing-tables hint.
fn hints(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with(NO_TABLES_HINT))
        .collect()
}

/// Searches `W:WK41:BK5` (a table win: 41-46 traps the lone king) to depth 3 in a session
/// that never set `egtb-dir`; returns the `info` lines and the `done` line.
fn search_the_trap(e: &mut Engine) -> (Vec<String>, String) {
    e.send("pos fen=W:WK41:BK5");
    e.send("level depth=3");
    e.send("go think");
    let (done, infos) = e.until("done*");
    (infos, done)
}

#[test]
fn build_writes_into_the_data_dir_and_the_engine_finds_the_tables() {
    let data = temp_dir("built");
    let args = ["egtb", "build", "-v", "international", "-p", "3", "-q"];
    ok(&data, &args);
    let vdir = data.join("egtb").join("international");
    for slice in ["m0k1-m0k1", "m0k2-m0k1", "m1k0-m0k2"] {
        assert!(
            vdir.join(format!("{slice}.wdl")).is_file(),
            "{slice} not in {}",
            vdir.display()
        );
    }
    // `probe` finds them without --dir.
    let (out, _) = ok(&data, &["egtb", "probe", "--fen", "W:WK41:BK5"]);
    assert!(out.contains("win"), "{out}");
    // So does `analyse`.
    let (out, err) = ok(&data, &["analyse", "--fen", "W:WK41:BK5", "-d", "3"]);
    assert!(out.contains(" tables win"), "{out}");
    assert!(err.is_empty(), "{err}");
    // And the Hub engine, egtb-dir never set (the default bb-size 6 finds the 2-3 set and
    // keeps quiet about the slices not built).
    let mut e = hub(&data);
    e.send("hub");
    let (param, _) = e.until("param name=egtb-dir *");
    let shown = data.join("egtb").display().to_string();
    assert!(param.contains(&shown), "{param}");
    e.until("wait");
    e.send("init");
    e.expect("ready");
    let (infos, done) = search_the_trap(&mut e);
    assert!(infos.iter().any(|l| l.contains(" tables=win")), "{infos:?}");
    assert!(done.starts_with("done move=41-46"), "{done}");
    e.send("quit");
    let stderr = e.finish_with_stderr();
    assert!(stderr.is_empty(), "{stderr}");
    std::fs::remove_dir_all(&data).ok();
}

#[test]
fn a_session_without_tables_says_so_once_on_stderr() {
    let data = temp_dir("empty");
    let mut e = hub(&data);
    e.send("hub");
    e.until("wait");
    e.send("init");
    e.expect("ready");
    for _ in 0..2 {
        e.send("new-game");
        let (infos, done) = search_the_trap(&mut e);
        assert!(infos.iter().all(|l| !l.contains("tables=")), "{infos:?}");
        assert!(done.starts_with("done move="), "{done}");
    }
    // Another variant with tables, and one without: still nothing more.
    for variant in ["russian", "frisian"] {
        e.send(&format!("set-param name=variant value={variant}"));
        e.send("init");
        e.expect("ready");
        e.send("pos start");
        e.send("level depth=2");
        e.send("go think");
        e.until("done*");
    }
    e.send("quit");
    let stderr = e.finish_with_stderr();
    let dir = data.join("egtb").display().to_string();
    assert_eq!(
        hints(&stderr),
        [format!(
            "polydam: no endgame tables for international in {dir}; build the 2-5 piece set \
             (about 5 minutes on 2 cores) with: polydam egtb build -v international -p 5"
        )],
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    std::fs::remove_dir_all(&data).ok();
}

#[test]
fn no_hint_when_the_tables_are_turned_off_or_the_variant_has_none() {
    let data = temp_dir("off");
    // egtb-dir set empty, before and after init; then bb-size 0.
    for (before, after) in [
        ("set-param name=egtb-dir value=\"\"", "new-game"),
        ("new-game", "set-param name=egtb-dir value=\"\""),
        ("set-param name=bb-size value=0", "new-game"),
    ] {
        let mut e = hub(&data);
        e.send("hub");
        e.until("wait");
        e.send(before);
        e.send("init");
        e.expect("ready");
        e.send(after);
        for _ in 0..2 {
            let (infos, _) = search_the_trap(&mut e);
            assert!(infos.iter().all(|l| !l.starts_with("error")), "{infos:?}");
        }
        e.send("quit");
        let stderr = e.finish_with_stderr();
        // Set after init, the tables were looked for once, at init: the hint then came first.
        if before == "new-game" {
            assert_eq!(hints(&stderr).len(), 1, "{stderr}");
        } else {
            assert!(stderr.is_empty(), "{before}: {stderr}");
        }
    }
    // Frisian has no tables: nothing to build, nothing said.
    let mut e = hub(&data);
    e.send("set-param name=variant value=frisian");
    e.send("init");
    e.expect("ready");
    e.send("quit");
    let stderr = e.finish_with_stderr();
    assert!(stderr.is_empty(), "{stderr}");
    std::fs::remove_dir_all(&data).ok();
}

#[test]
fn egtb_help_shows_the_default_dir_and_no_home_means_no_default() {
    let data = temp_dir("help");
    let (out, _) = ok(&data, &["egtb", "build", "--help"]);
    let shown = format!("[default: {}]", data.join("egtb").display());
    assert!(out.contains(&shown), "{out}");
    // No POLYDAM_DATA_DIR, XDG_DATA_HOME or HOME: build wants --dir; analyse plays without
    // tables and says why, once.
    let homeless = |args: &[&str]| {
        polydam()
            .env_remove("POLYDAM_DATA_DIR")
            .env_remove("XDG_DATA_HOME")
            .env_remove("HOME")
            .args(args)
            .output()
            .expect("polydam runs")
    };
    let o = homeless(&["egtb", "build", "-v", "international", "-p", "2", "-q"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no data directory") && err.contains("give --dir"),
        "{err}"
    );
    let o = homeless(&["analyse", "-d", "1"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no data directory"), "{err}");
    std::fs::remove_dir_all(&data).ok();
}
