//! `polydam play` driven through its stdin and stdout: a few moves of Turkish draughts, Seesaw
//! Draughts and hex Seesaw against the engine at depth 2 (fixed depth keeps the engine's
//! answers fast and reproducible).

use std::process::Stdio;

/// Runs `polydam play --variant V --engine-side black --depth 2 --ascii` with `extra` options
/// and `input` on stdin; returns stdout.
fn play(variant: &str, extra: &[&str], input: &str) -> String {
    let mut args = vec![
        "--variant",
        variant,
        "--engine-side",
        "black",
        "--depth",
        "2",
    ];
    args.extend_from_slice(extra);
    crate::common::play_session(&args, input)
}

/// The boards printed, in order (each from its first rank line to its status line).
fn boards(output: &str) -> Vec<String> {
    let mut boards = Vec::new();
    let mut current = String::new();
    for line in output.lines() {
        let line = line.trim_start_matches("> ");
        if line.starts_with("move ") && line.contains(" to move") {
            boards.push(std::mem::take(&mut current));
        } else if line.starts_with("engine plays")
            || line.starts_with("error")
            || line.starts_with("took back")
            || line.contains("legal moves:")
            || line.starts_with("polydam play")
        {
            current.clear();
        } else {
            current.push_str(line);
            current.push('\n');
        }
    }
    boards
}

fn count(text: &str, c: char) -> usize {
    text.chars().filter(|&x| x == c).count()
}

/// Occurrences of `c` on the board itself, not in the file letters or the legend.
fn count_on_board(board: &str, c: char) -> usize {
    board
        .lines()
        .filter(|l| !l.starts_with('(') && !l.trim_start().starts_with("a "))
        .map(|l| count(l, c))
        .sum()
}

#[test]
fn turkish_game_against_the_engine() {
    let out = play(
        "turkish",
        &[],
        "moves\ne3-e4\nz9-z10\nundo\nd3-d4\nc3-c4\nfen\nquit\n",
    );
    assert!(out.starts_with("polydam play: turkish"), "{out}");
    // `moves` lists the eight opening moves in the variant's notation.
    assert!(
        out.contains("8 legal moves: a3-a4 b3-b4 c3-c4 d3-d4 e3-e4 f3-f4 g3-g4 h3-h4"),
        "{out}"
    );
    // The engine answers e3-e4, d3-d4 (after the undo) and c3-c4.
    assert_eq!(out.matches("engine plays ").count(), 3, "{out}");
    // The garbled move gets a one-line error, and the game goes on.
    let error = out
        .lines()
        .find(|l| l.contains("error:"))
        .expect("an error line");
    assert!(error.contains("z9-z10"), "{error}");
    assert_eq!(out.matches("error:").count(), 1, "{out}");
    assert!(out.contains("took back 2 plies"), "{out}");

    let boards = boards(&out);
    assert!(boards.len() >= 4, "{out}");
    let start = &boards[0];
    assert_eq!(count_on_board(start, 'w'), 16, "{start}");
    assert_eq!(count_on_board(start, 'b'), 16, "{start}");
    assert!(start.contains("3  w  w  w  w  w  w  w  w"), "{start}");
    // After e3-e4 and the engine's answer: a white man on e4, and the answer marked.
    assert!(
        boards[1].contains("4  .  .  .  .  w  .  .  ."),
        "{}",
        boards[1]
    );
    assert_eq!(count(&boards[1], '['), 2, "{}", boards[1]);
    // The undo brings the start position back.
    assert_eq!(&boards[2], start, "after undo");
    // The final position has White's men on c4 and d4.
    let fen = out
        .lines()
        .map(|l| l.trim_start_matches("> "))
        .find(|l| l.starts_with("W:") || l.starts_with("B:"))
        .expect("a FEN line");
    assert_ne!(fen, "W:Wa2-h3:Ba6-h7", "{out}");
    assert!(fen.contains("c4") && fen.contains("d4"), "{fen}");
}

#[test]
fn seesaw_draughts_game_against_the_engine() {
    // After 22-18 11-15 White must capture: 21-17 is refused, 18x11 is played.
    let out = play(
        "seesaw-draughts",
        &[],
        "22-18\n21-17\n18x11\nmoves\nundo\nmoves\n",
    );
    assert_eq!(out.matches("engine plays ").count(), 2, "{out}");
    assert!(out.contains("engine plays 7x16"), "{out}");
    assert!(out.contains("engine plays 11-15"), "{out}");
    assert!(
        out.contains("error: illegal move: 21-17"),
        "a quiet move when a capture is due:\n{out}"
    );
    assert!(out.contains("1 legal move: 18x11"), "{out}");
    assert!(out.contains("took back 2 plies"), "{out}");
    let boards = boards(&out);
    let start = &boards[0];
    // Every stack shows its size; empty squares show their numbers.
    assert_eq!(start.matches("w1").count(), 12, "{start}");
    assert_eq!(start.matches("b1").count(), 12, "{start}");
    assert!(start.contains(" 13 ") && start.contains(" 20"), "{start}");
    assert!(start.contains("stack of 3"), "legend:\n{start}");
    // The board changes with the moves, and the undo goes back to the position after the
    // engine's first reply.
    assert_ne!(&boards[1], start);
    assert!(boards.last().is_some_and(|b| b == &boards[1]), "{out}");
}

#[test]
fn hex_seesaw_game_against_the_engine() {
    let out = play("seesaw", &[], "@d2\nd9-d10\nd2-d3\nmoves\nundo\nhint\n");
    assert_eq!(out.matches("engine plays ").count(), 2, "{out}");
    assert!(out.contains("engine plays @d6"), "{out}");
    let error = out
        .lines()
        .find(|l| l.contains("error:"))
        .expect("an error line");
    assert!(error.contains("d9"), "{error}");
    assert!(
        out.contains("10 legal moves: @c1 @c2 @e1 @e2 d1-c1"),
        "{out}"
    );
    assert!(out.contains("took back 2 plies"), "{out}");
    assert!(out.contains("hint: "), "{out}");
    let boards = boards(&out);
    let start = &boards[0];
    // 37 cells drawn as 13 offset rows, the column letters under them.
    assert_eq!(start.lines().count(), 15, "{start}");
    assert!(start.contains("a    b    c    d    e    f    g"), "{start}");
    // South's stack on its tile at d1, North's at d7.
    assert!(
        start.lines().nth(12).is_some_and(|l| l.trim() == "w1+"),
        "{start}"
    );
    assert!(
        start.lines().next().is_some_and(|l| l.trim() == "b1#"),
        "{start}"
    );
    // After @d2 and the engine's @d6: a new stack and tile on d2, the answer marked.
    assert!(boards[1].contains("w1+"), "{}", boards[1]);
    assert!(boards[1].contains("[b1#]"), "{}", boards[1]);
    assert_eq!(
        count(&boards[1], '+'),
        3,
        "two white tiles and the legend's:\n{}",
        boards[1]
    );
}

#[test]
fn engine_playing_white_moves_first() {
    let mut child = crate::common::polydam()
        .args([
            "play",
            "--variant",
            "turkish",
            "--engine-side",
            "white",
            "--depth",
            "1",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("polydam starts");
    let out = child.wait().expect("polydam finishes");
    assert!(out.success());
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut child.stdout.take().expect("stdout is piped"),
        &mut text,
    )
    .expect("output read");
    assert_eq!(text.matches("engine plays ").count(), 1, "{text}");
    // Unicode glyphs by default.
    let board: String = text
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(count(&board, '●'), 16, "{text}");
    assert_eq!(count(&board, '○'), 16, "{text}");
    assert!(text.contains("black (●) to move (you)"), "{text}");
}

#[test]
fn bad_options_fail_cleanly() {
    let o = crate::common::polydam()
        .args(["play", "--variant", "nonesuch"])
        .stdin(Stdio::null())
        .output()
        .expect("polydam runs");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown variant"));
    let o = crate::common::polydam()
        .args(["play", "--variant", "turkish", "--movetime", "-1"])
        .stdin(Stdio::null())
        .output()
        .expect("polydam runs");
    assert_eq!(o.status.code(), Some(2));
}
