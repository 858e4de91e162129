//! The defects of issue 48, each pinned by a test that failed before its fix: numbering of a
//! Black-first game, the web board's result reasons and loaded tags, `analyse`'s best move
//! and notation, `polydam play`'s line editing, `match`'s progress and Elo, `moves` on a
//! closed pipe, and the FMJD count of an ending entered by a capture. (The page's own
//! behaviour, defects 2, 3, 8's "no engine move", 11 and 12, is checked in the browser:
//! tests/browser/web_board.py.)

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

const TIMEOUT: Duration = Duration::from_secs(30);

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn run(args: &[&str]) -> Output {
    crate::common::polydam()
        .args(args)
        .output()
        .expect("polydam runs")
}

/// A `polydam serve --port 0` and one WebSocket connection to it; the server is killed when
/// dropped.
struct Board {
    child: Child,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
}

impl Board {
    fn open() -> Board {
        let mut child = crate::common::polydam()
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("polydam serve starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(TIMEOUT).unwrap_or_default();
        let addr = line
            .trim()
            .strip_prefix("http://")
            .and_then(|r| r.strip_suffix('/'))
            .unwrap_or_else(|| panic!("no URL: {line:?}"))
            .to_string();
        let (ws, _) = tungstenite::connect(format!("ws://{addr}/ws")).expect("WebSocket opens");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(TIMEOUT)).expect("timeout set");
        }
        let mut board = Board { child, ws };
        board.expect("state");
        board
    }

    fn send(&mut self, value: Value) {
        self.ws
            .send(Message::Text(value.to_string().into()))
            .expect("sent");
    }

    /// The next message of type `kind` (others skipped).
    fn expect(&mut self, kind: &str) -> Value {
        let started = Instant::now();
        loop {
            assert!(started.elapsed() < TIMEOUT, "no {kind} in time");
            if let Message::Text(t) = self.ws.read().expect("a message") {
                let msg: Value = serde_json::from_str(t.as_str()).expect("JSON");
                if msg["type"] == kind {
                    return msg;
                }
                assert!(
                    msg["type"] != "error",
                    "error while waiting for {kind}: {msg}"
                );
            }
        }
    }

    /// Sends `request` and answers the `state` that follows.
    fn state_after(&mut self, request: Value) -> Value {
        self.send(request);
        self.expect("state")
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ------------------------------------------------------------------ 1: English numbering

/// English checkers: Black moves first, so `1. 11-15 23-18` (no `1...`), and the page is told
/// the variant's first side to number its list the same way.
#[test]
fn english_game_is_numbered_from_blacks_first_move() {
    let mut b = Board::open();
    let state = b.state_after(json!({"type": "new", "variant": "english"}));
    assert_eq!(state["side"], "black");
    assert_eq!(state["start_side"], "black", "{:.200}", state.to_string());
    b.state_after(json!({"type": "move", "text": "11-15"}));
    let state = b.state_after(json!({"type": "move", "text": "23-18"}));
    let pdn = state["pdn"].as_str().unwrap_or_default();
    assert!(pdn.contains("1. 11-15 23-18"), "{pdn}");
    assert!(!pdn.contains("1..."), "{pdn}");
}

// ------------------------------------------------------------------ 7: result reasons

/// One wording of why a game ended: the capture of the last piece says so.
#[test]
fn capturing_the_last_piece_says_no_pieces_left() {
    let mut b = Board::open();
    b.state_after(json!({"type": "load", "fen": "W:W28:B23"}));
    let state = b.state_after(json!({"type": "move", "text": "28x19"}));
    let reason = state["result"]["reason"].as_str().unwrap_or_default();
    assert_eq!(reason, "black has no pieces left", "{}", state["result"]);
}

/// Hex Seesaw's "decided by the position" says what happened.
#[test]
fn hex_seesaw_win_names_what_happened() {
    let mut b = Board::open();
    let state = b.state_after(json!({"type": "new", "variant": "seesaw"}));
    // Play the first capture whenever there is one, else the first move, until the game ends.
    let mut state = state;
    for _ in 0..400 {
        if !state["result"].is_null() {
            break;
        }
        let moves = state["moves"].as_array().cloned().unwrap_or_default();
        let mv = moves
            .iter()
            .find(|m| m["capture"] == true)
            .or(moves.first())
            .expect("a legal move")
            .clone();
        state = b.state_after(json!({"type": "move", "path": mv["path"]}));
    }
    let reason = state["result"]["reason"].as_str().unwrap_or_default();
    assert!(!reason.is_empty(), "the game did not end: {}", state["fen"]);
    assert!(!reason.contains("decided by the position"), "{reason}");
}

// ------------------------------------------------------------------ 8: loaded tags

/// A loaded PDN keeps its tags (players, event, result) in the game's PDN.
#[test]
fn loaded_pdn_keeps_its_tags() {
    let mut b = Board::open();
    let game = "[Event \"Club final\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"2-0\"]\n\
                [Annotator \"Cas\"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n";
    let state = b.state_after(json!({"type": "load", "pdn": game}));
    let pdn = state["pdn"].as_str().unwrap_or_default();
    for tag in [
        "[Event \"Club final\"]",
        "[White \"Ann\"]",
        "[Black \"Bob\"]",
        "[Result \"2-0\"]",
        "[Annotator \"Cas\"]",
    ] {
        assert!(pdn.contains(tag), "{tag} lost:\n{pdn}");
    }
    assert!(pdn.trim_end().ends_with("2-0"), "{pdn}");
    // Taken back, the game is no longer the one that ended 2-0; the players stay.
    let state = b.state_after(json!({"type": "undo", "plies": 1}));
    let pdn = state["pdn"].as_str().unwrap_or_default();
    assert!(pdn.contains("[Result \"*\"]"), "{pdn}");
    assert!(pdn.contains("[White \"Ann\"]"), "{pdn}");
}

// ------------------------------------------------------------------ 4, 5: analyse

/// The best move and its ponder move are those of the last line printed, whatever stopped
/// the search; the score is explained; `--pdn` writes PDN moves.
#[test]
fn analyse_best_move_agrees_with_its_last_line() {
    let cases: [&[&str]; 4] = [
        &["-v", "turkish", "--movetime", "0.7"],
        &["-v", "turkish", "--movetime", "0.4"],
        &["-v", "international", "--movetime", "0.8"],
        &["-v", "international", "--nodes", "30000"],
    ];
    for args in cases {
        let mut all = vec!["analyse"];
        all.extend_from_slice(args);
        let o = run(&all);
        let out = text(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
        let lines: Vec<&str> = out.lines().collect();
        let best = lines.last().expect("a bestmove line");
        let before = lines[lines.len() - 2];
        let pv: Vec<&str> = before
            .split(" pv ")
            .nth(1)
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        let words: Vec<&str> = best.split_whitespace().collect();
        assert_eq!(words.first(), Some(&"bestmove"), "{out}");
        assert_eq!(Some(&words[1]), pv.first(), "{args:?}:\n{out}");
        if words.get(2) == Some(&"ponder") {
            assert_eq!(Some(&words[3]), pv.get(1), "{args:?}:\n{out}");
        }
    }
}

/// Russian: the Hub numbers its a-h board's squares; `--pdn` writes them as PDN does.
#[test]
fn analyse_explains_its_score_and_writes_pdn_moves() {
    let o = run(&["analyse", "-v", "russian", "-d", "2"]);
    let hub = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    // The best move and its reply, as the Hub numbers them (the engine's choice, whatever the
    // weights make it): the `--pdn` run below must name the same squares on the a-h board.
    let best = hub
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a bestmove line");
    let words: Vec<&str> = best.split_whitespace().collect();
    assert_eq!(words.get(1), Some(&"ponder"), "{hub}");
    let (best, ponder) = (words[0], words[2]);
    assert!(hub.starts_with("# score: men"), "{hub}");
    assert!(hub.contains("side to move (white)"), "{hub}");
    assert!(
        hub.contains("win N / loss N: a forced win / loss in N plies"),
        "{hub}"
    );
    let o = run(&["analyse", "-v", "russian", "-d", "2", "--pdn"]);
    let pdn = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let (best, ponder) = (algebraic(best), algebraic(ponder));
    assert!(pdn.contains(&format!("pv {best} {ponder}")), "{pdn}");
    assert!(
        pdn.contains(&format!("bestmove {best} ponder {ponder}")),
        "{pdn}"
    );
}

/// A quiet 8x8 move in Hub numbers (`21-17`: squares 1-32 row by row from a8's row, the dark
/// squares only) written on the a-h board (`a3-b4`), as Russian PDN writes it.
fn algebraic(hub_move: &str) -> String {
    let square = |n: &str| {
        let n: u32 = n.parse().expect("a square number");
        let row = (n - 1) / 4;
        // Rows from the top: the even ones start on b, the odd ones on a.
        let file = 2 * ((n - 1) % 4) + u32::from(row.is_multiple_of(2));
        format!("{}{}", (b'a' + file as u8) as char, 8 - row)
    };
    let (from, to) = hub_move.split_once('-').expect("a quiet move");
    format!("{}-{}", square(from), square(to))
}

// ------------------------------------------------------------------ 6: play on a terminal

/// Runs `polydam play` on a pseudo-terminal (util-linux `script`) fed with `keys`.
fn play_on_a_terminal(keys: &[u8]) -> Option<String> {
    let bin = env!("CARGO_BIN_EXE_polydam");
    let command = format!("'{bin}' play --engine-side none --ascii");
    let mut child = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("POLYDAM_DATA_DIR", crate::common::no_data_dir())
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        out
    });
    // One line at a time, as a person types: the editor reads each in its own raw mode.
    for chunk in keys.split_inclusive(|&b| b == b'\r') {
        std::thread::sleep(Duration::from_millis(400));
        stdin.write_all(chunk).ok()?;
        stdin.flush().ok()?;
    }
    std::thread::sleep(Duration::from_millis(400));
    drop(stdin);
    let started = Instant::now();
    while child.try_wait().ok()?.is_none() {
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.wait();
    reader.join().ok().map(|out| text(&out))
}

/// The up arrow brings back the line typed before instead of landing in an error message.
#[test]
fn play_on_a_terminal_edits_lines_and_keeps_history() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` command to make a terminal");
        return;
    }
    let out = play_on_a_terminal(b"moves\r\x1b[A\rquit\r").expect("play ran on a terminal");
    assert!(
        !out.contains("[A"),
        "the arrow's code was read as text:\n{out}"
    );
    assert_eq!(out.matches("9 legal moves").count(), 2, "{out}");
}

// ------------------------------------------------------------------ 9: match

fn self_match(extra: &[&str]) -> Vec<String> {
    let engine = format!("\"{}\" hub", env!("CARGO_BIN_EXE_polydam"));
    let mut args = vec![
        "match".to_string(),
        "--engine".into(),
        engine.clone(),
        "--engine".into(),
        engine,
        "--games".into(),
        "2".into(),
        "--depth".into(),
        "1".into(),
        "--max-plies".into(),
        "4".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// Two drawn games: a score of exactly one half is `Elo 0.0`, not `Elo -0.0`.
#[test]
fn match_at_fifty_percent_prints_elo_zero() {
    let args = self_match(&["-q"]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&refs);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(out.contains("Elo 0.0 [0.0, 0.0]"), "{out}");
    assert!(!out.contains("-0.0"), "{out}");
}

/// On a terminal the match prints a line per game above its bar.
#[test]
fn match_on_a_terminal_prints_a_line_per_game() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` command to make a terminal");
        return;
    }
    let args = self_match(&[]);
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let command = format!(
        "'{}' {} </dev/null",
        env!("CARGO_BIN_EXE_polydam"),
        quoted.join(" ")
    );
    let o = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("POLYDAM_DATA_DIR", crate::common::no_data_dir())
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    let out = text(&o.stdout);
    assert!(out.contains("game 1/2: "), "{out}");
    assert!(out.contains("game 2/2: "), "{out}");
}

// ------------------------------------------------------------------ 10: small CLI things

/// `polydam moves ... | head`: the reader gone, the program ends quietly.
#[test]
fn moves_into_a_closed_pipe_ends_quietly() {
    let mut child = crate::common::polydam()
        .args(["moves", "-v", "international"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("polydam runs");
    // Close the reading end before the program writes.
    drop(child.stdout.take());
    let o = child.wait_with_output().expect("polydam ends");
    let err = crate::common::without_hint(&text(&o.stderr));
    assert!(err.is_empty(), "{err}");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn play_says_one_legal_move_and_not_a_move() {
    let mut child = crate::common::polydam()
        .args([
            "play",
            "--engine-side",
            "none",
            "--fen",
            "W:W28:B23",
            "--ascii",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("polydam runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"moves\nxyz\nquit\n")
        .expect("written");
    let o = child.wait_with_output().expect("polydam ends");
    let out = text(&o.stdout);
    assert!(out.contains("1 legal move: 28x19"), "{out}");
    assert!(out.contains("not a move: 'xyz'"), "{out}");
    assert!(!out.contains("empty square"), "{out}");
}

/// A bare `polydam` on a terminal says on stderr what it is waiting for.
#[test]
fn bare_polydam_on_a_terminal_says_it_speaks_hub() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` command to make a terminal");
        return;
    }
    let command = format!("echo quit | '{}' 2>&1", env!("CARGO_BIN_EXE_polydam"));
    // stdin a pipe: nothing is said (a GUI starts it so).
    let o = Command::new("sh")
        .args(["-c", &command])
        .env("POLYDAM_DATA_DIR", crate::common::no_data_dir())
        .output()
        .expect("sh runs");
    assert!(
        !text(&o.stdout).contains("Hub protocol"),
        "{}",
        text(&o.stdout)
    );
    let terminal = format!("'{}'", env!("CARGO_BIN_EXE_polydam"));
    let mut child = Command::new("script")
        .args(["-qec", &terminal, "/dev/null"])
        .env("POLYDAM_DATA_DIR", crate::common::no_data_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("script runs");
    let mut stdin = child.stdin.take().expect("stdin");
    std::thread::sleep(Duration::from_millis(500));
    let _ = stdin.write_all(b"quit\r");
    drop(stdin);
    let o = child.wait_with_output().expect("script ends");
    let out = text(&o.stdout);
    assert!(out.contains("speaking the Hub protocol"), "{out}");
    assert!(out.contains("polydam --help"), "{out}");
}

// ------------------------------------------------------------------ 13: FMJD count

/// FMJD rules, article 6 (draws; shared/rules/diagonal-10x10.md): "with 2 kings, 1 king + 1
/// man or 1 king against a lone king, 5 moves each at most" — counted once the ending is on
/// the board. From `W:WK45:BK29,K3`, 45x18 leaves one king each with Black to move: the game
/// is drawn once each side has made 5 moves after the capture (10 plies). It used to end one
/// ply early, after White's 5th move counting the capture and Black's 4th, as issue 48 saw
/// from `W:WK35,K45:BK3`: the capture that entered the ending was counted as one of the 5.
#[test]
fn fmjd_one_king_each_after_a_capture_gets_five_moves_each() {
    let o = run(&["moves", "-v", "international", "--fen", "W:WK45:BK29,K3"]);
    assert!(text(&o.stdout).contains("45x18"), "{}", text(&o.stdout));
    // Black's king shuttles 3-8-3; White's walks 18-23-28-32-37-41, never on a line with it
    // and never repeating a position.
    let moves = "45x18 3-8 18-23 8-3 23-28 3-8 28-32 8-3 32-37 3-8 37-41";
    let moves: Vec<&str> = moves.split(' ').collect();
    // `polydam play` shows the game's end before its first prompt.
    let end = |n: usize| {
        let line = moves[..n].join(" ");
        let mut child = crate::common::polydam()
            .args([
                "play",
                "--engine-side",
                "none",
                "--ascii",
                "-v",
                "international",
            ])
            .args(["--fen", "W:WK45:BK29,K3", "--moves", &line])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("polydam runs");
        let _ = child.stdin.take().expect("stdin").write_all(b"quit\n");
        let o = child.wait_with_output().expect("polydam ends");
        let out = text(&o.stdout);
        out.lines()
            .find(|l| l.contains("game over"))
            .map(String::from)
    };
    // After the capture and 9 plies (White has made 4 moves since): the game goes on.
    assert_eq!(end(10), None, "drawn too early");
    // After White's 5th move since the capture: drawn by the count.
    assert_eq!(
        end(11).as_deref(),
        Some("game over: draw (endgame move-count rule)")
    );
}
