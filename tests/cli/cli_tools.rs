//! The command-line tools: output format, and bad input answered on stderr with exit status 2
//! (never a panic).

use std::process::Output;

fn polydam(args: &[&str]) -> Output {
    crate::common::polydam()
        .args(args)
        // The test hook that stands for the machine's available memory (100 MiB: tables of up
        // to 87 MiB), so that refusals are tested without asking for gigabytes.
        .env("POLYDAM_AVAILABLE_MIB", "100")
        .output()
        .expect("polydam runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn fails_with(args: &[&str], message: &str) {
    let o = polydam(args);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{args:?}: status {:?}, stderr {}",
        o.status,
        stderr(&o)
    );
    assert!(
        stderr(&o).contains(message),
        "{args:?}: stderr was {:?}, wanted {message:?}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"), "{args:?} panicked");
    assert!(
        stdout(&o).is_empty(),
        "{args:?}: nothing on stdout on error"
    );
}

#[test]
fn perft_prints_one_line_per_depth() {
    let o = polydam(&["perft", "--variant", "international", "--depth", "4"]);
    assert!(o.status.success());
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 4);
    for (line, (depth, nodes)) in lines.iter().zip([(1, 9), (2, 81), (3, 658), (4, 4265)]) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            f[0..4],
            ["depth", &depth.to_string(), "nodes", &nodes.to_string()],
            "{line}"
        );
        assert_eq!((f[4], f[6]), ("time", "nps"), "{line}");
    }
}

#[test]
fn perft_divide_and_threads_agree() {
    let o = polydam(&[
        "perft",
        "-v",
        "russian",
        "-d",
        "6",
        "--divide",
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    // 7 root moves, then 6 depth lines.
    assert_eq!(lines.len(), 13, "{text}");
    let sum: u64 = lines[..7]
        .iter()
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .and_then(|n| n.parse::<u64>().ok())
                .expect("count")
        })
        .sum();
    assert_eq!(sum, 37986);
    assert!(
        lines[12].starts_with("depth 6 nodes 37986 "),
        "{}",
        lines[12]
    );
}

#[test]
fn perft_keeps_duplicates_on_request() {
    let o = polydam(&[
        "perft",
        "-v",
        "brazilian",
        "-d",
        "8",
        "--duplicates",
        "keep",
    ]);
    assert!(stdout(&o)
        .lines()
        .last()
        .unwrap_or("")
        .starts_with("depth 8 nodes 907836 "));
    let o = polydam(&[
        "perft",
        "-v",
        "brazilian",
        "-d",
        "8",
        "--duplicates",
        "drop",
    ]);
    assert!(stdout(&o)
        .lines()
        .last()
        .unwrap_or("")
        .starts_with("depth 8 nodes 907830 "));
}

#[test]
fn moves_lists_sorted_hub_and_pdn_forms() {
    let o = polydam(&["moves", "--variant", "international"]);
    assert_eq!(
        stdout(&o),
        "31-26\n31-27\n32-27\n32-28\n33-28\n33-29\n34-29\n34-30\n35-30\n"
    );
    let o = polydam(&["moves", "-v", "russian", "--fen", "W:W9:B6,7", "--pdn"]);
    assert_eq!(stdout(&o), "b6:d8:f6\nb6:d8:g5\nb6:d8:h4\n");
    let o = polydam(&["moves", "-v", "russian", "--moves", "c3-d4 f6-e5"]);
    assert_eq!(stdout(&o), "18x11x15\n");
}

#[test]
fn variants_lists_every_registered_game() {
    let o = polydam(&["variants"]);
    let text = stdout(&o);
    for name in polydam_engine::variants::names() {
        assert!(
            text.lines().any(|l| l.starts_with(name)),
            "{name} missing from:\n{text}"
        );
    }
    assert!(text.contains("normal"), "aliases are shown");
}

#[test]
fn every_subcommand_has_help() {
    for sub in ["perft", "moves", "variants"] {
        let o = polydam(&[sub, "--help"]);
        assert!(o.status.success(), "{sub} --help");
        assert!(stdout(&o).contains("Usage"), "{sub} --help prints usage");
    }
}

#[test]
fn bad_input_exits_with_status_2_and_a_message() {
    fails_with(
        &["perft", "--variant", "chess", "--depth", "2"],
        "unknown variant 'chess'",
    );
    fails_with(
        &["moves", "--fen", "W:W51:B1"],
        "square 51 is off the board",
    );
    fails_with(
        &["moves", "--fen", "W:W3:B40"],
        "white man on square 3, its promotion row",
    );
    fails_with(&["moves", "--fen", "hello"], "bad position");
    fails_with(
        &["moves", "--moves", "32-28 32-28"],
        "move 2 ('32-28'): illegal move: 32-28",
    );
    fails_with(
        &[
            "moves",
            "-v",
            "english",
            "--fen",
            "W:W31:B26,17,9,27,19,10",
            "--moves",
            "31x6",
        ],
        "ambiguous move: 31x6",
    );
    fails_with(
        &["perft", "--depth", "3", "--threads", "0"],
        "--threads must be at least 1",
    );
    // clap's own errors also exit with 2.
    let o = polydam(&["perft", "--depth", "lots"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid value 'lots'"));
}

#[test]
fn a_table_beyond_the_machine_is_refused_with_status_2() {
    // `--hash 100000` once aborted (status 134); `--hash 18446744073709551615` and
    // `--hash 17592186044416` panicked in tt.rs ("index out of bounds: the len is 0").
    let too_big =
        "cannot allocate a hash table of 100000 MiB: this machine can give at most 87 MiB";
    fails_with(&["analyse", "--hash", "100000", "-d", "1"], too_big);
    fails_with(&["bench", "--hash", "100000"], too_big);
    fails_with(
        &["analyse", "--hash", "18446744073709551615", "-d", "1"],
        "at most 87 MiB",
    );
    fails_with(
        &["analyse", "--hash", "17592186044416", "-d", "1"],
        "at most 87 MiB",
    );
    let o = polydam(&["play", "--hash", "88", "-d", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--hash 88: cannot allocate"),
        "{}",
        stderr(&o)
    );
    let o = polydam(&["analyse", "--hash", "87", "-d", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn perft_depth_0_counts_the_root() {
    // `perft -d 0` once printed nothing and exited 0.
    let o = polydam(&["perft", "-d", "0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "depth 0 nodes 1 time 0.000 nps 0\n");
}

#[test]
fn negative_numbers_name_the_argument_and_its_range() {
    // `-d -5` and `--movetime -1` once gave clap's "unexpected argument '-5' found".
    fails_with(
        &["analyse", "-d", "-5"],
        "--depth must be an integer from 1 to",
    );
    fails_with(
        &["analyse", "--movetime", "-1"],
        "--movetime must be a number of seconds from 0",
    );
    fails_with(
        &["play", "-d", "-5"],
        "--depth must be an integer from 1 to",
    );
    fails_with(
        &["play", "--movetime", "-1"],
        "--movetime must be a number of seconds from 0",
    );
}
