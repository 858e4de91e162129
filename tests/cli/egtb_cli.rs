//! `polydam egtb` from the command line, and the tables through the Hub protocol: built,
//! resumed, verified and probed; damaged and missing tables reported while the engine plays on
//! without them.

use std::path::PathBuf;
use std::process::Output;

use crate::common::Engine;

fn polydam(args: &[&str]) -> Output {
    crate::common::polydam()
        .args(args)
        .output()
        .expect("polydam runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh directory under the system's temporary one.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("polydam-egtb-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Runs `args`, which must succeed; returns stdout.
fn ok(args: &[&str]) -> String {
    let o = polydam(args);
    assert!(
        o.status.success(),
        "{args:?}: status {:?}, stderr {}",
        o.status,
        stderr(&o)
    );
    stdout(&o)
}

/// Runs `args`, which must fail with status 2 and `message` on stderr, without a panic.
fn fails_with(args: &[&str], message: &str) {
    let o = polydam(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{args:?} panicked");
}

/// `polydam egtb <command>` on International's tables of up to 3 pieces in `d`, quiet, with
/// `extra` options.
fn intl3<'a>(command: &'a str, d: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "egtb",
        command,
        "--variant",
        "international",
        "--pieces",
        "3",
        "--dir",
        d,
        "-q",
    ];
    args.extend_from_slice(extra);
    args
}

/// Builds International's tables of up to 3 pieces in a fresh directory; returns it.
fn built(name: &str) -> (PathBuf, String) {
    let dir = temp_dir(name);
    let d = dir.to_str().expect("a UTF-8 temporary path").to_owned();
    let out = ok(&intl3("build", &d, &["-t", "1"]));
    assert!(out.contains("international: 16 slices built"), "{out}");
    // The plan comes first: the slices, and the pair that needs the most memory.
    assert!(
        out.contains("international: 16 slices up to 3 pieces, "),
        "{out}"
    );
    assert!(out.contains("the most memory goes to m"), "{out}");
    (dir, d)
}

/// A cache of resolved values that cannot serve is named in a warning; the build decides the
/// values again from the tables and goes on.
#[test]
fn egtb_damaged_cache_is_reported_and_the_build_goes_on() {
    let (dir, d) = built("cache");
    let cache = dir.join("international").join("cache");
    std::fs::create_dir_all(&cache).expect("cache dir");
    std::fs::write(cache.join("m0k2-m0k1.full"), b"not a cache").expect("planted");
    let four = |command: &'static str| -> Vec<&str> {
        vec![
            "egtb",
            command,
            "--variant",
            "international",
            "--pieces",
            "4",
            "--only",
            "m0k3-m0k1",
            "--dir",
            &d,
            "-q",
        ]
    };
    let o = polydam(&four("build"));
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("polydam: warning: ")
            && err.contains("m0k2-m0k1.full: damaged table: 11 bytes where")
            && err.contains("deciding its captures again"),
        "{err}"
    );
    assert!(stdout(&o).contains("m0k3-m0k1: "), "{}", stdout(&o));
    let verified = ok(&four("verify"));
    assert!(verified.contains(", 0 inconsistencies, "), "{verified}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn egtb_build_resume_verify_and_probe() {
    let (dir, d) = built("tools");
    // A second build keeps every slice.
    let again = ok(&intl3("build", &d, &[]));
    assert_eq!(again.matches("kept (built before)").count(), 16, "{again}");
    assert!(again.contains("0 slices built"), "{again}");
    let verify = |extra: &[&'static str]| ok(&intl3("verify", &d, extra));
    let verified = verify(&[]);
    assert!(verified.contains(", 0 inconsistencies"), "{verified}");
    assert!(verified.contains("international: 16 slices"), "{verified}");
    assert_eq!(
        verified.matches(" 0 inconsistencies, ").count(),
        16 + 1,
        "{verified}"
    );
    // A second verification takes every slice from the first one's record, unless --again.
    let resumed = verify(&[]);
    assert_eq!(
        resumed.matches("verified by an earlier run").count(),
        17,
        "{resumed}"
    );
    assert!(
        resumed.contains("(16 slices verified by an earlier run"),
        "{resumed}"
    );
    assert!(resumed.contains("international: 16 slices"), "{resumed}");
    let anew = verify(&["--again"]);
    assert!(!anew.contains("earlier run"), "{anew}");
    assert_eq!(
        anew.matches(" 0 inconsistencies, ").count(),
        16 + 1,
        "{anew}"
    );
    // The corner trap: 41-46 and the king on 5 must step in front of it.
    let probed = ok(&[
        "egtb",
        "probe",
        "--variant",
        "international",
        "--pieces",
        "3",
        "--dir",
        &d,
        "--fen",
        "W:WK41:BK5",
    ]);
    assert!(
        probed.contains("win for white, 3 plies to conversion"),
        "{probed}"
    );
    let chosen: Vec<&str> = probed.lines().filter(|l| l.ends_with('*')).collect();
    assert_eq!(chosen.len(), 1, "{probed}");
    assert!(chosen[0].trim_start().starts_with("41-46"), "{probed}");
    // analyse says where its score comes from.
    let analysed = ok(&[
        "analyse",
        "-v",
        "international",
        "--fen",
        "W:WK41:BK5",
        "-d",
        "3",
        "--egtb-dir",
        &d,
        "--bb-size",
        "3",
    ]);
    assert!(analysed.contains(" tables win dtc 3 tbhits "), "{analysed}");
    let plain = ok(&[
        "analyse",
        "-v",
        "international",
        "--fen",
        "W:WK41:BK5",
        "-d",
        "3",
    ]);
    assert!(!plain.contains("tables"), "{plain}");
    // Bad requests: a clear message, status 2.
    fails_with(
        &[
            "egtb",
            "probe",
            "--variant",
            "international",
            "--pieces",
            "3",
            "--dir",
            &d,
        ],
        "the position has 40 pieces; the tables loaded go to 3",
    );
    fails_with(
        &[
            "egtb",
            "build",
            "--variant",
            "seesaw",
            "--pieces",
            "3",
            "--dir",
            &d,
        ],
        "no endgame tables for variant 'seesaw'",
    );
    fails_with(
        &[
            "egtb",
            "build",
            "--variant",
            "international",
            "--pieces",
            "9",
            "--dir",
            &d,
        ],
        "--pieces must be from 2 to 7",
    );
    let nowhere = dir.join("nowhere");
    fails_with(
        &[
            "egtb",
            "probe",
            "--dir",
            nowhere.to_str().expect("UTF-8"),
            "--fen",
            "W:WK41:BK5",
        ],
        "table missing",
    );
    // A damaged file makes the verifier fail with its name.
    let file = dir.join("international").join("m0k1-m0k1.wdl");
    let mut bytes = std::fs::read(&file).expect("built");
    let n = bytes.len();
    bytes[n - 1] ^= 0x10;
    std::fs::write(&file, &bytes).expect("written");
    fails_with(&intl3("verify", &d, &[]), "m0k1-m0k1.wdl: damaged table");
    std::fs::remove_dir_all(&dir).ok();
}

/// Through the Hub: the tables decide the root (the info line says so, and the move is the
/// trap's); a damaged slice and a missing directory are reported as errors and the engine
/// plays on.
#[test]
fn egtb_through_the_hub() {
    let (dir, d) = built("hub");
    let mut e = Engine::start();
    e.send("hub");
    e.until("wait");
    e.send(&format!("set-param name=egtb-dir value={d}"));
    e.send("set-param name=bb-size value=3");
    e.send("init");
    e.expect("ready");
    e.send("pos fen=W:WK41:BK5");
    e.send("level depth=3");
    e.send("go think");
    let (info, _) = e.until("info *");
    assert!(info.contains(" tables=win"), "{info}");
    e.until("done move=41-46*");
    // bb-size above what `egtb build` makes is refused, the old value kept.
    e.send("set-param name=bb-size value=9");
    e.expect("error message=*bb-size*");
    // Damaged: the slice is reported, the others still serve.
    let file = dir.join("international").join("m0k2-m0k1.wdl");
    let mut bytes = std::fs::read(&file).expect("built");
    let n = bytes.len();
    bytes[n / 2] ^= 0x40;
    std::fs::write(&file, &bytes).expect("written");
    e.send(&format!("set-param name=egtb-dir value={d}"));
    e.expect("error message=*m0k2-m0k1.wdl: damaged table*");
    e.send("pos fen=W:WK41:BK5");
    e.send("go think");
    e.until("done move=41-46*");
    // Missing: reported, and the engine searches without tables.
    e.send("set-param name=egtb-dir value=/nonexistent/polydam-tables");
    e.expect("error message=*/nonexistent/polydam-tables/international: table missing*");
    e.send("pos fen=W:WK41:BK5");
    e.send("go think");
    let (done, skipped) = e.until("done move=*");
    assert!(
        skipped.iter().all(|l| !l.contains("tables=")),
        "{skipped:?}"
    );
    assert!(done.starts_with("done move=41-"), "{done}");
    e.send("quit");
    e.finish();
    std::fs::remove_dir_all(&dir).ok();
}

/// The files of a variant's directory, name and bytes, sorted (tables only: `.wdl`, `.dtc`).
fn table_files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.join("international"))
        .expect("variant directory")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| matches!(p.extension().and_then(|x| x.to_str()), Some("wdl" | "dtc")))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).expect("table file"))
        })
        .collect();
    files.sort();
    files
}

/// `--plan-json` lists every pair in build order with what it reads; building those pairs one
/// by one with `--pair` gives the same files, byte for byte, as one `egtb build`.
#[test]
fn egtb_pairs_built_alone_equal_one_build() {
    let (whole, _) = built("whole-for-pairs");
    let dir = temp_dir("pairs");
    let d = dir.to_str().expect("a UTF-8 temporary path").to_owned();
    let plan: serde_json::Value =
        serde_json::from_str(&ok(&intl3("build", &d, &["--plan-json"]))).expect("JSON plan");
    assert_eq!(plan["variant"], "international");
    assert_eq!(plan["slices"], 16);
    let pairs = plan["pairs"].as_array().expect("pairs");
    let in_pairs: usize = pairs
        .iter()
        .map(|p| p["slices"].as_array().unwrap().len())
        .sum();
    assert_eq!(in_pairs, 16);
    let mut seen: Vec<String> = Vec::new();
    for p in pairs {
        assert_eq!(p["built"], false, "{p}");
        assert!(p["memory_bytes"].as_u64().unwrap() > 0, "{p}");
        // Every slice a pair reads comes earlier in the plan.
        for r in p["reads"].as_array().unwrap() {
            assert!(
                seen.contains(&r.as_str().unwrap().to_owned()),
                "{p} before {r}"
            );
        }
        seen.extend(
            p["slices"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_owned()),
        );
    }
    // The last pair, first: what it reads is not built, an error that names it.
    let last = pairs.last().unwrap();
    let last_name = last["slices"][0].as_str().unwrap();
    assert!(!last["reads"].as_array().unwrap().is_empty());
    fails_with(
        &intl3("build", &d, &["--pair", last_name]),
        "is not built in",
    );
    fails_with(
        &intl3("build", &d, &["--pair", "m9k9-m0k1"]),
        "m9k9-m0k1 is not a slice of international",
    );
    fails_with(&intl3("build", &d, &["--pair", "kings"]), "--pair: 'kings'");
    for p in pairs {
        let name = p["slices"][0].as_str().unwrap();
        let out = ok(&intl3("build", &d, &["--pair", name, "-t", "1"]));
        let n = p["slices"].as_array().unwrap().len();
        assert!(
            out.contains(&format!("international: {n} slices built")),
            "{out}"
        );
    }
    assert_eq!(table_files(&dir), table_files(&whole));
    // Built pairs are kept, and the plan says so.
    let again = ok(&intl3("build", &d, &["--pair", last_name]));
    assert!(again.contains("0 slices built"), "{again}");
    let plan: serde_json::Value =
        serde_json::from_str(&ok(&intl3("build", &d, &["--plan-json"]))).expect("JSON plan");
    assert!(plan["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["built"] == true));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&whole);
}
