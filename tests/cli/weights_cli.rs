//! The weights source as a parameter: the global `--weights` option (and `POLYDAM_WEIGHTS`,
//! which it reads when absent) and the Hub `weights` parameter. A bad source is an error that
//! says what is wrong, and the weights in use stay.

use std::process::Output;

use crate::common::Engine;

fn polydam(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = crate::common::polydam();
    cmd.args(args).env_remove("POLYDAM_WEIGHTS");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("polydam runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The score line of a fixed-depth analysis of International's start position.
fn analysis(args: &[&str], env: &[(&str, &str)]) -> String {
    let mut all = vec!["analyse", "-v", "international", "--depth", "4"];
    all.extend_from_slice(args);
    let out = polydam(&all, env);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // The clock readings differ from run to run; the scores, nodes and moves may not.
    let mut kept = Vec::new();
    let mut words = text(&out.stdout)
        .split_whitespace()
        .map(String::from)
        .collect::<Vec<_>>()
        .into_iter();
    while let Some(w) = words.next() {
        if w == "time" || w == "nps" {
            words.next();
        } else {
            kept.push(w);
        }
    }
    kept.join(" ")
}

/// A scratch directory of this test process.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("polydam-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

#[test]
fn the_weights_option_chooses_the_evaluation() {
    let shipped = analysis(&[], &[]);
    let none = analysis(&["--weights", "none"], &[]);
    assert_ne!(shipped, none, "the hand evaluation searches differently");
    assert_eq!(analysis(&["--weights", "shipped"], &[]), shipped);
    // The environment variable stands in for an absent option.
    assert_eq!(analysis(&[], &[("POLYDAM_WEIGHTS", "none")]), none);
    // A file for International replaces the shipped weights (here: the same file).
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/engine/weights/international.txt"
    );
    assert_eq!(analysis(&["--weights", file], &[]), shipped);
}

#[test]
fn a_bad_weights_source_is_refused_with_its_reason() {
    let dir = scratch("weights-bad");
    let garbage = dir.join("garbage.txt");
    std::fs::write(&garbage, "this is no weights file\n").expect("written");
    let unknown = dir.join("unknown.txt");
    std::fs::write(
        &unknown,
        "feature-set x\nvariant no-such-game\nbase hand\nscale 150\nfeatures 1\n",
    )
    .expect("written");
    let cases = [
        ("/nonexistent/w.txt".to_string(), "/nonexistent/w.txt"),
        (garbage.display().to_string(), "expected 'feature-set"),
        (unknown.display().to_string(), "no learned evaluation"),
        (",".to_string(), "no weights given"),
    ];
    for (source, reason) in &cases {
        let out = polydam(&["--weights", source, "variants"], &[]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{source}: {err}");
        assert!(
            err.contains("--weights") && err.contains(reason),
            "{source}: {err}"
        );
    }
    let out = polydam(&["variants"], &[("POLYDAM_WEIGHTS", "/nonexistent/w.txt")]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_hub_weights_parameter_is_checked_and_kept() {
    let mut e = Engine::start();
    e.send("hub");
    let (_, lines) = e.until("wait");
    assert!(
        lines
            .iter()
            .any(|l| l == "param name=weights value=shipped type=string"),
        "{lines:?}"
    );
    e.send("set-param name=weights value=/nonexistent/w.txt");
    e.expect("error message=*weights file*/nonexistent/w.txt*the weights stay 'shipped'*");
    e.send("set-param name=weights value=none");
    e.send("set-param name=weights value=\"\"");
    e.expect("error message=*no weights given*the weights stay 'none'*");
    e.send("init");
    e.expect("ready");
    e.send("pos start");
    e.send("level depth=3");
    e.send("go think");
    e.until("done move=*");
    e.finish();
}
