//! `polydam dxp` and DXP engines in `polydam match`, end to end over loopback TCP: two Polydam
//! processes playing each other in both directions, a raw client sending every kind of bad
//! input, an initiator whose follower vanishes, and matches between a Hub Polydam and a DXP
//! one (started by the referee, already running, or a fake that misbehaves). Every game the
//! programs write is read back and replayed move by move with Polydam's rules. Ports are
//! ephemeral (port 0, read back from `listening on ...`), so the tests run in parallel.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use polydam_engine::diagonal::{rules::International, Diagonal};
use polydam_engine::game::Game;
use polydam_engine::record::GameRecord;
use polydam_protocol::dxp::conn::{Connection, RecvError};
use polydam_protocol::dxp::message::{
    Acceptance, Colour, DxpMove, EndReason, GameAcc, GameEnd, GameReq, Message, Piece,
};

type Intl = Diagonal<International>;

/// How long anything may take on a loaded machine before the test gives up.
const WAIT: Duration = Duration::from_secs(120);

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_polydam")
}

fn temp_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("polydam-dxp-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// A running `polydam dxp`, its output read by threads.
struct Dxp {
    child: Child,
    lines: Receiver<String>,
    stderr: Receiver<Vec<u8>>,
    seen: Vec<String>,
}

impl Dxp {
    fn start(args: &[&str]) -> Dxp {
        let mut child = crate::common::polydam()
            .arg("dxp")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start polydam dxp");
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr = child.stderr.take().expect("stderr");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let (etx, stderr_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut all = Vec::new();
            let _ = stderr.read_to_end(&mut all);
            let _ = etx.send(all);
        });
        Dxp {
            child,
            lines,
            stderr: stderr_rx,
            seen: Vec::new(),
        }
    }

    /// The port from the first line, `listening on 127.0.0.1:PORT`.
    fn port(&mut self) -> u16 {
        let line = self
            .lines
            .recv_timeout(WAIT)
            .expect("a 'listening on' line");
        self.seen.push(line.clone());
        line.strip_prefix("listening on 127.0.0.1:")
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("not a listening line: {line}"))
    }

    /// Waits for the process to end; returns its exit code, stdout and stderr.
    fn finish(mut self) -> (Option<i32>, String, String) {
        let until = Instant::now() + WAIT;
        let status = loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                break status;
            }
            if Instant::now() > until {
                let _ = self.child.kill();
                panic!(
                    "polydam dxp did not exit; output so far:\n{}",
                    self.seen.join("\n")
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(line);
        }
        let err = self
            .stderr
            .recv_timeout(Duration::from_secs(5))
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        assert!(!err.contains("panicked"), "{err}");
        (status.code(), self.seen.join("\n"), err)
    }
}

impl Drop for Dxp {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// One game of a PDN file.
#[derive(Debug)]
struct PdnGame {
    tags: HashMap<String, String>,
    moves: Vec<String>,
    result: String,
}

fn read_pdn(path: &Path) -> Vec<PdnGame> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("PDN {} not written: {e}", path.display()));
    let _ = std::fs::remove_file(path);
    let mut games = Vec::new();
    let mut current: Option<PdnGame> = None;
    for line in text.lines() {
        if let Some(tag) = line.strip_prefix('[') {
            if current.as_ref().is_some_and(|g| !g.result.is_empty()) {
                games.extend(current.take());
            }
            let game = current.get_or_insert_with(|| PdnGame {
                tags: HashMap::new(),
                moves: Vec::new(),
                result: String::new(),
            });
            let (name, value) = tag.split_once(' ').expect("a tag");
            let value = value.trim_end_matches(']').trim_matches('"');
            game.tags
                .insert(name.to_owned(), value.replace("\\\"", "\""));
        } else if let Some(game) = current.as_mut() {
            for token in line.split_whitespace() {
                if ["2-0", "0-2", "1-1", "*"].contains(&token) {
                    game.result = token.to_owned();
                } else if !token.ends_with('.') {
                    game.moves.push(token.to_owned());
                }
            }
        }
    }
    games.extend(current);
    games
}

/// Replays a game by Polydam's rules (every move must be legal) and checks that a result
/// given for a rules ending is the rules'.
fn replay(game: &PdnGame) -> GameRecord<Intl> {
    let start = match game.tags.get("FEN") {
        Some(fen) => Intl::parse_position(fen).expect("the FEN tag reads"),
        None => Intl::start(),
    };
    let mut record = GameRecord::<Intl>::new(start);
    for (i, mv) in game.moves.iter().enumerate() {
        if let Err(e) = record.push_text(mv) {
            panic!("move {} ({mv}) is not legal: {e}\n{game:?}", i + 1);
        }
    }
    let why = &game.tags["Termination"];
    let by_rules = [
        "has no legal move",
        "no pieces left",
        "repetition",
        "move-count rule",
    ]
    .iter()
    .any(|t| why.contains(t));
    if by_rules {
        assert!(record.outcome().is_some(), "{why}, but the game goes on");
    }
    record
}

/// A book of two openings, so that the games differ.
fn book() -> PathBuf {
    let path = temp_file("book.txt");
    std::fs::write(&path, "32-28 19-23\n34-29 17-21\n").expect("write the book");
    path
}

/// The games of both sides' files: the same moves and results, all legal, all finished.
fn same_games(a: &[PdnGame], b: &[PdnGame], games: usize) {
    assert_eq!(a.len(), games, "{a:?}");
    assert_eq!(b.len(), games, "{b:?}");
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x.moves, y.moves);
        assert_eq!(x.result, y.result);
        assert_eq!(x.tags["White"], y.tags["White"]);
        assert_ne!(x.result, "*", "an unfinished game: {x:?}");
        let record = replay(x);
        assert!(record.moves().len() > 10, "{x:?}");
    }
}

#[test]
fn initiator_listens_follower_connects() {
    let (pdn_a, pdn_b, book) = (temp_file("i1.pdn"), temp_file("f1.pdn"), book());
    let mut a = Dxp::start(&[
        "--listen",
        "127.0.0.1:0",
        "--initiator",
        "--games",
        "4",
        "--time",
        "1",
        "--book",
        book.to_str().unwrap(),
        "--depth",
        "3",
        "--hash",
        "8",
        "--name",
        "Initiator",
        "--pdn",
        pdn_a.to_str().unwrap(),
    ]);
    let port = a.port();
    let b = Dxp::start(&[
        "--connect",
        &format!("127.0.0.1:{port}"),
        "--depth",
        "2",
        "--hash",
        "8",
        "--name",
        "Follower",
        "--pdn",
        pdn_b.to_str().unwrap(),
    ]);
    let (code_a, out_a, err_a) = a.finish();
    let (code_b, out_b, err_b) = b.finish();
    let _ = std::fs::remove_file(&book);
    assert_eq!(code_a, Some(0), "{out_a}\n{err_a}");
    assert_eq!(code_b, Some(0), "{out_b}\n{err_b}");
    assert!(out_a.contains("dxp: 4 games: +"), "{out_a}");
    assert!(out_a.contains("game 1: Initiator - Follower ("), "{out_a}");
    assert!(out_a.contains("game 2: Follower - Initiator ("), "{out_a}");
    let (ga, gb) = (read_pdn(&pdn_a), read_pdn(&pdn_b));
    same_games(&ga, &gb, 4);
    // Colours alternate and each opening is played twice.
    let whites: Vec<&str> = ga.iter().map(|g| g.tags["White"].as_str()).collect();
    assert_eq!(whites, ["Initiator", "Follower", "Initiator", "Follower"]);
    assert_eq!(ga[0].tags.get("FEN"), ga[1].tags.get("FEN"));
    assert_ne!(ga[0].tags.get("FEN"), ga[2].tags.get("FEN"));
    assert_eq!(ga[0].tags["Event"], "polydam dxp");
}

#[test]
fn follower_listens_initiator_connects_from_a_fen() {
    let (pdn_a, pdn_b) = (temp_file("f2.pdn"), temp_file("i2.pdn"));
    let mut a = Dxp::start(&[
        "--listen",
        "127.0.0.1:0",
        "--connections",
        "1",
        "--depth",
        "2",
        "--hash",
        "8",
        "--pdn",
        pdn_a.to_str().unwrap(),
    ]);
    let port = a.port();
    // Black to move, a few men each: short games.
    let fen = "B:W27,28,33,36,38,42,47:B4,8,12,13,17,19,22";
    let b = Dxp::start(&[
        "--connect",
        &format!("127.0.0.1:{port}"),
        "--initiator",
        "--games",
        "2",
        "--time",
        "0",
        "--fen",
        fen,
        "--depth",
        "3",
        "--hash",
        "8",
        "--pdn",
        pdn_b.to_str().unwrap(),
    ]);
    let (code_b, out_b, err_b) = b.finish();
    let (code_a, out_a, err_a) = a.finish();
    assert_eq!(code_a, Some(0), "{out_a}\n{err_a}");
    assert_eq!(code_b, Some(0), "{out_b}\n{err_b}");
    assert!(out_a.contains("connection from 127.0.0.1:"), "{out_a}");
    let (ga, gb) = (read_pdn(&pdn_a), read_pdn(&pdn_b));
    for g in ga.iter().chain(&gb) {
        assert_eq!(
            g.tags["FEN"],
            Intl::fen(&Intl::parse_position(fen).unwrap())
        );
    }
    same_games(&ga, &gb, 2);
}

/// A raw DXP client for the bad-input tests.
struct Client {
    conn: Connection,
}

impl Client {
    fn connect(port: u16) -> Client {
        let addr = ([127, 0, 0, 1], port).into();
        Client {
            conn: Connection::connect(&addr, WAIT).expect("connect"),
        }
    }

    fn send(&mut self, m: &Message) {
        self.conn.send(m).expect("send");
    }

    fn raw(&mut self, bytes: &[u8]) {
        self.conn.send_raw(bytes).expect("send");
    }

    fn recv(&mut self) -> Message {
        match self.conn.recv(Instant::now() + WAIT) {
            Ok(m) => m,
            Err(e) => panic!("no message: {e}"),
        }
    }

    /// The next CHAT, which must contain `text`.
    fn chat(&mut self, text: &str) {
        match self.recv() {
            Message::Chat(t) => assert!(t.contains(text), "'{t}' lacks '{text}'"),
            other => panic!("expected a CHAT with '{text}', got {other:?}"),
        }
    }

    /// A GAMEREQ (Polydam plays Black from the start, no clock) and its acceptance.
    fn start_game(&mut self) {
        self.send(&gamereq(1, None));
        match self.recv() {
            Message::GameAcc(GameAcc {
                acceptance: Acceptance::Accepted,
                ..
            }) => {}
            other => panic!("game not accepted: {other:?}"),
        }
    }

    /// Plays 32-28 and reads Polydam's answer.
    fn first_move(&mut self) {
        self.send(&Message::Move(DxpMove {
            seconds: 1,
            from: 32,
            to: 28,
            captured: vec![],
        }));
        assert!(matches!(self.recv(), Message::Move(_)));
    }

    /// Expects Polydam's GAMEEND and confirms it.
    fn game_end(&mut self) {
        match self.recv() {
            Message::GameEnd(_) => self.send(&Message::GameEnd(GameEnd {
                reason: EndReason::Unspecified,
                stop: false,
            })),
            other => panic!("expected GAMEEND, got {other:?}"),
        }
    }
}

fn gamereq(version: u8, squares: Option<[Piece; 50]>) -> Message {
    Message::GameReq(GameReq {
        version,
        initiator: "Raw client".into(),
        follower_colour: Colour::Black,
        minutes: 0,
        moves: 0,
        position: squares.map(|squares| polydam_protocol::dxp::message::DxpPosition {
            to_move: Colour::White,
            squares,
        }),
    })
}

#[test]
fn bad_input_is_answered_reported_and_saved() {
    let pdn = temp_file("bad.pdn");
    let mut server = Dxp::start(&[
        "--listen",
        "127.0.0.1:0",
        "--connections",
        "4",
        "--depth",
        "1",
        "--timeout",
        "2",
        "--hash",
        "1",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    let port = server.port();

    // 1. Between games: garbage of every kind, a wrong version, an illegal position.
    let mut c = Client::connect(port);
    c.raw(b"X12\0");
    c.chat("unknown message type 'X'");
    let mut long = vec![b'C'; 200];
    long.push(0);
    c.raw(&long);
    c.chat("longer than 127 characters");
    c.raw(b"M0012511100\0");
    c.chat("MOVE from square 51 is off the board");
    c.raw(b"R01Raw client                      Z0x5000A\0");
    c.chat("GAMEREQ thinking time '0x5'");
    c.raw(b"R01Raw client                      Z005000B\0");
    c.chat("94 with start position B");
    c.send(&gamereq(2, None));
    c.chat("protocol version 02");
    assert!(matches!(
        c.recv(),
        Message::GameAcc(GameAcc {
            acceptance: Acceptance::WrongVersion,
            ..
        })
    ));
    let mut squares = [Piece::Empty; 50];
    squares[2] = Piece::WhiteMan; // a white man on 3, where it would have been crowned
    squares[40] = Piece::BlackMan;
    c.send(&gamereq(1, Some(squares)));
    c.chat("illegal position: white man on square 3");
    assert!(matches!(
        c.recv(),
        Message::GameAcc(GameAcc {
            acceptance: Acceptance::NotThisGame,
            ..
        })
    ));
    drop(c);

    // 2. In games: each malformed MOVE kind and an illegal move ends its game.
    let mut c = Client::connect(port);
    for (bytes, said) in [
        (&b"M00123228\0"[..], "MOVE message has 9 characters"),
        (b"M00x2322800\0", "MOVE time '00x2'"),
        (b"M0000325500\0", "MOVE to square 55 is off the board"),
        (
            b"M0000322600\0",
            "illegal move 32-26: not one of the 9 legal moves",
        ),
    ] {
        c.start_game();
        c.raw(bytes);
        c.chat(said);
        c.game_end();
    }
    drop(c);

    // 3. The connection closes in the middle of a game.
    let mut c = Client::connect(port);
    c.start_game();
    c.first_move();
    drop(c);

    // 4. The opponent goes silent: the game ends after --timeout, the connection closes.
    let mut c = Client::connect(port);
    c.start_game();
    c.first_move();
    let silent_from = Instant::now();
    assert!(matches!(c.recv(), Message::GameEnd(_)));
    assert!(silent_from.elapsed() >= Duration::from_millis(1900));
    assert!(matches!(
        c.conn.recv(Instant::now() + WAIT),
        Err(RecvError::Closed { .. })
    ));

    let (code, out, err) = server.finish();
    assert_eq!(code, Some(2), "{out}\n{err}");
    for report in [
        "unknown message type 'X'",
        "longer than 127 characters",
        "refused the GAMEREQ of Raw client: protocol version 02",
        "refused the GAMEREQ of Raw client: illegal position: white man on square 3",
        "game 1: malformed message 'M00123228'",
        "game 4: white sent an illegal move 32-26",
        "game 5: the connection was closed (after 2 plies); game saved unfinished",
        "game 6: no move from white within 2.0 s",
    ] {
        assert!(err.contains(report), "'{report}' missing:\n{err}");
    }
    assert!(err.contains("ended on a fault"), "{err}");
    assert!(
        out.contains("dxp: 6 games: +0 =0 -0, 6 unfinished"),
        "{out}"
    );
    let games = read_pdn(&pdn);
    assert_eq!(games.len(), 6, "{games:?}");
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.result, "*");
        assert_eq!(g.moves.len(), if i < 4 { 0 } else { 2 }, "{g:?}");
        replay(g);
    }
    assert!(games[2].tags["Termination"].contains("to square 55 is off the board"));
    assert!(games[4].tags["Termination"].contains("connection was closed"));
}

/// A raw GAMEREQ in which Polydam plays Black from the start, no clock, under `name`.
fn raw_gamereq(name: &[u8]) -> Vec<u8> {
    let mut field = name.to_vec();
    field.resize(32, b' ');
    [&b"R01"[..], &field, b"Z000000A\0"].concat()
}

/// Names and CHATs are the peer's: their escape sequences and line breaks never reach the
/// terminal raw (stdout and stderr), and each PDN tag stays on one line, so that the file
/// still holds every game.
#[test]
fn a_peers_names_and_chats_reach_stdout_and_the_pdn_escaped() {
    let pdn = temp_file("escapes.pdn");
    let mut server = Dxp::start(&[
        "--listen",
        "127.0.0.1:0",
        "--connections",
        "1",
        "--depth",
        "1",
        "--hash",
        "1",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    let port = server.port();
    let mut c = Client::connect(port);
    for name in [
        &b"Esc\x1b]0;pwned\x07\x1b[2J"[..],
        b"Evil\n[Result \"2-0\"]",
    ] {
        c.raw(b"C\x1b]0;retitled\x07\x1b[2J\x1bc\rhello\0");
        c.raw(&raw_gamereq(name));
        assert!(matches!(
            c.recv(),
            Message::GameAcc(GameAcc {
                acceptance: Acceptance::Accepted,
                ..
            })
        ));
        c.raw(b"C\x1b[31mred\x1b[0m\nsecond line\0");
        c.first_move();
        c.send(&Message::GameEnd(GameEnd {
            reason: EndReason::Unspecified,
            stop: false,
        }));
        assert!(matches!(c.recv(), Message::GameEnd(_)));
    }
    drop(c);
    let (code, out, err) = server.finish();
    assert_eq!(code, Some(0), "{out}\n{err}");
    for (stream, text) in [("stdout", &out), ("stderr", &err)] {
        let raw = text.chars().find(|&c| c.is_control() && c != '\n');
        assert_eq!(raw, None, "a raw control character on {stream}:\n{text:?}");
    }
    assert!(
        out.contains(r"chat from the initiator: \u{1b}]0;retitled\u{7}\u{1b}[2J\u{1b}c\rhello"),
        "{out}"
    );
    assert!(
        out.contains(r"game 1: Esc\u{1b}]0;pwned\u{7}\u{1b}[2J - Polydam (0 min"),
        "{out}"
    );
    assert!(
        out.contains(r"\u{1b}[31mred\u{1b}[0m\nsecond line"),
        "{out}"
    );
    assert!(
        out.contains("game 2: Evil\\n[Result \"2-0\"] - Polydam"),
        "{out}"
    );
    let games = read_pdn(&pdn);
    assert_eq!(games.len(), 2, "{games:?}");
    assert_eq!(games[0].tags["White"], "Esc ]0;pwned  [2J");
    assert_eq!(games[1].tags["White"], "Evil [Result \"2-0\"]");
    for g in &games {
        assert_eq!((g.result.as_str(), g.moves.len()), ("*", 2), "{g:?}");
        assert_eq!(g.tags["Result"], "*");
    }
}

/// A DXP move in Hub text (`28x19x23`) as a MOVE message.
fn dxp_move(hub: &str) -> DxpMove {
    let squares: Vec<u8> = hub
        .split(['-', 'x'])
        .map(|s| s.parse().expect("a square"))
        .collect();
    DxpMove {
        seconds: 0,
        from: squares[0],
        to: squares[1],
        captured: squares[2..].to_vec(),
    }
}

/// A MOVE message in Hub text, for the record.
fn hub_text(m: &DxpMove) -> String {
    let sep = if m.captured.is_empty() { "-" } else { "x" };
    let mut text = format!("{}{sep}{}", m.from, m.to);
    for c in &m.captured {
        text.push_str(&format!("x{c}"));
    }
    text
}

/// The one-at-a-time listener is not held by a client that talks without playing (CHATs
/// more often than `--timeout` no longer push the deadline back) nor by one that plays a game
/// slowly, each move just within `--timeout` (`--game-limit`): both are cut off, and the next
/// client plays.
#[test]
fn a_chatty_or_slow_client_frees_the_listener_after_the_limits() {
    use polydam_engine::game::{Duplicates, MoveStyle};
    let pdn = temp_file("limits.pdn");
    let mut server = Dxp::start(&[
        "--listen",
        "127.0.0.1:0",
        "--connections",
        "3",
        "--timeout",
        "1",
        "--game-limit",
        "3",
        "--depth",
        "1",
        "--hash",
        "1",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    let port = server.port();

    // 1. CHATs every 0.2 s: the connection is closed about a second after it opened.
    let mut c = Client::connect(port);
    let opened = Instant::now();
    let closed = loop {
        if opened.elapsed() > Duration::from_secs(10) {
            break None;
        }
        if c.conn.send(&Message::Chat("still here".into())).is_err() {
            break Some(opened.elapsed());
        }
        match c.conn.recv(Instant::now() + Duration::from_millis(200)) {
            Err(RecvError::Closed { .. }) | Err(RecvError::Io(_)) => break Some(opened.elapsed()),
            _ => {}
        }
    };
    let closed = closed.expect("a chatty client held the listener for 10 s");
    assert!(closed < Duration::from_secs(5), "closed after {closed:?}");
    drop(c);

    // 2. A game played slowly: every move 0.6 s after Polydam's, within --timeout 1, until
    // the game limit of 3 s abandons it and closes the connection.
    let mut c = Client::connect(port);
    c.send(&gamereq(1, None));
    assert!(matches!(c.recv(), Message::GameAcc(_)));
    let started = Instant::now();
    let mut record = GameRecord::<Intl>::new(Intl::start());
    let mut moves = Vec::new();
    let ended = loop {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the game was never cut off"
        );
        Intl::generate(record.current(), Duplicates::Drop, &mut moves);
        let mv = *moves.first().expect("a legal move");
        let text = Intl::move_text(record.current(), &mv, MoveStyle::Hub);
        std::thread::sleep(Duration::from_millis(600));
        if c.conn.send(&Message::Move(dxp_move(&text))).is_err() {
            break started.elapsed();
        }
        record.push(mv);
        match c.conn.recv(Instant::now() + WAIT) {
            Ok(Message::Move(m)) => {
                record
                    .push_text(&hub_text(&m))
                    .expect("Polydam's move is legal");
            }
            Ok(Message::GameEnd(_)) | Err(_) => break started.elapsed(),
            Ok(other) => panic!("unexpected {other:?}"),
        }
    };
    assert!(
        ended >= Duration::from_millis(2500) && ended < Duration::from_secs(6),
        "the game ended after {ended:?}"
    );
    drop(c);

    // 3. The listener is free: a game from the start, ended at once.
    let mut c = Client::connect(port);
    c.start_game();
    c.first_move();
    c.send(&Message::GameEnd(GameEnd {
        reason: EndReason::Unspecified,
        stop: true,
    }));
    assert!(matches!(c.recv(), Message::GameEnd(_)));
    drop(c);
    let (code, out, err) = server.finish();
    assert!(
        err.contains("no GAMEREQ within 1.0 s; closing the connection"),
        "{err}"
    );
    assert!(
        err.contains("game 1: game abandoned after 3.0 s, its limit (--game-limit)"),
        "{err}"
    );
    assert_eq!(code, Some(2), "{out}\n{err}");
    assert_eq!(read_pdn(&pdn).len(), 2);
}

#[test]
fn an_initiator_whose_follower_vanishes_saves_the_game() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    let pdn = temp_file("vanish.pdn");
    let initiator = Dxp::start(&[
        "--connect",
        &format!("127.0.0.1:{port}"),
        "--initiator",
        "--games",
        "3",
        "--depth",
        "1",
        "--hash",
        "1",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    let (stream, _) = listener.accept().expect("accept");
    let mut c = Client {
        conn: Connection::new(stream),
    };
    let Message::GameReq(req) = c.recv() else {
        panic!("no GAMEREQ");
    };
    assert_eq!(req.follower_colour, Colour::Black);
    assert_eq!((req.minutes, req.moves, req.position), (5, 0, None));
    assert_eq!(req.initiator, "Polydam");
    c.send(&Message::GameAcc(GameAcc {
        follower: "Vanishing".into(),
        acceptance: Acceptance::Accepted,
    }));
    // Polydam moves first; the follower answers, reads Polydam's second move and vanishes.
    let Message::Move(first) = c.recv() else {
        panic!("no MOVE");
    };
    assert!(first.from >= 31, "{first:?}");
    c.send(&Message::Move(DxpMove {
        seconds: 0,
        from: 19,
        to: 23,
        captured: vec![],
    }));
    assert!(matches!(c.recv(), Message::Move(_)));
    drop(c);
    let (code, out, err) = initiator.finish();
    assert_eq!(code, Some(2), "{out}\n{err}");
    assert!(err.contains("game 1: the connection was closed"), "{err}");
    assert!(err.contains("2 of 3 games not played"), "{err}");
    let games = read_pdn(&pdn);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].result, "*");
    assert_eq!(games[0].tags["Black"], "Vanishing");
    assert_eq!(games[0].moves.len(), 3, "{:?}", games[0]);
    replay(&games[0]);
}

fn polydam_hub() -> String {
    format!("\"{}\" hub", bin())
}

/// Runs `polydam match` to the end; returns stdout and stderr.
fn run_match(args: &[&str]) -> (String, String) {
    let o = crate::common::polydam()
        .arg("match")
        .args(args)
        .output()
        .expect("polydam runs");
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    );
    assert_eq!(o.status.code(), Some(0), "{args:?}\n{out}\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    (out, err)
}

/// The report of a 2-game match between `polydam hub` and the DXP engine `dxp`, named DXP.
fn match_against(dxp: &str, pdn: &Path) -> String {
    let (out, _) = run_match(&[
        "--engine",
        &polydam_hub(),
        "--engine",
        dxp,
        "--name",
        "2:DXP",
        "--games",
        "2",
        "--depth",
        "2",
        "--max-plies",
        "80",
        "--pdn",
        pdn.to_str().unwrap(),
        "-q",
    ]);
    assert!(
        out.contains("match: international, 2 engines, 2 games"),
        "{out}"
    );
    assert!(out.contains("Polydam vs DXP: +"), "{out}");
    assert!(out.contains("pdn: 2 games written"), "{out}");
    let games = read_pdn(pdn);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_ne!(g.result, "*");
        replay(g);
    }
    assert_eq!(games[0].tags["Black"], "DXP");
    assert_eq!(games[1].tags["White"], "DXP");
    out
}

#[test]
fn match_between_hub_and_a_started_dxp_polydam() {
    let (pdn, dxp_pdn) = (temp_file("m1.pdn"), temp_file("m1-dxp.pdn"));
    let dxp = format!(
        "dxp:\"{}\" dxp --listen 127.0.0.1:{{port}} --depth 2 --hash 8 --pdn \"{}\"",
        bin(),
        dxp_pdn.display()
    );
    let out = match_against(&dxp, &pdn);
    assert!(out.contains("forfeits: 0\n"), "{out}");
    assert!(out.contains("engine 2: DXP (dxp:"), "{out}");
    // The DXP side saved the same games (unfinished when the ply cap ended them).
    let theirs = read_pdn(&dxp_pdn);
    assert_eq!(theirs.len(), 2);
    for g in &theirs {
        replay(g);
    }
}

#[test]
fn match_against_a_running_dxp_server() {
    let (pdn, dxp_pdn) = (temp_file("m2.pdn"), temp_file("m2-dxp.pdn"));
    let mut server = Dxp::start(&[
        "--listen",
        "127.0.0.1:0",
        "--depth",
        "2",
        "--hash",
        "8",
        "--pdn",
        dxp_pdn.to_str().unwrap(),
    ]);
    let port = server.port();
    let out = match_against(&format!("dxp:127.0.0.1:{port}"), &pdn);
    assert!(out.contains(&format!("(dxp:127.0.0.1:{port})")), "{out}");
    drop(server);
    let _ = std::fs::remove_file(&dxp_pdn);
}

/// A DXP follower that accepts every game and then plays `bad` whenever it is its turn; with
/// `drop_first`, it closes the connection at the first game request instead of answering it.
fn fake_follower(bad: &'static [u8], drop_first: bool) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    std::thread::spawn(move || {
        let mut requests = 0;
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let mut conn = Connection::new(stream);
            loop {
                let reply: Vec<Vec<u8>> = match conn.recv(Instant::now() + WAIT) {
                    Ok(Message::GameReq(_)) if drop_first && requests == 0 => {
                        requests += 1;
                        break;
                    }
                    Ok(Message::GameReq(r)) => {
                        requests += 1;
                        let acc = Message::GameAcc(GameAcc {
                            follower: "fake".into(),
                            acceptance: Acceptance::Accepted,
                        });
                        let mut out = vec![format!("{}\0", acc.encode()).into_bytes()];
                        if r.follower_colour == Colour::White {
                            out.push(bad.to_vec());
                        }
                        out
                    }
                    Ok(Message::Move(_)) => vec![bad.to_vec()],
                    Ok(Message::GameEnd(_)) => vec![b"E00\0".to_vec()],
                    Ok(_) => vec![],
                    Err(RecvError::Malformed { .. }) => vec![],
                    Err(_) => break,
                };
                for bytes in reply {
                    if conn.send_raw(&bytes).is_err() {
                        break;
                    }
                }
            }
        }
    });
    port
}

#[test]
fn a_misbehaving_dxp_engine_forfeits_every_game() {
    for (bad, reason) in [
        (&b"M0000010200\0"[..], "illegal move 1-2"),
        (
            b"M00x0010200\0",
            "malformed message 'M00x0010200': MOVE time '00x0'",
        ),
    ] {
        let port = fake_follower(bad, false);
        let (out, _) = run_match(&[
            "--engine",
            &polydam_hub(),
            "--engine",
            &format!("dxp:127.0.0.1:{port}"),
            "--name",
            "2:fake",
            "--games",
            "2",
            "--depth",
            "1",
            "-q",
        ]);
        assert!(out.contains("Polydam vs fake: +2 =0 -0"), "{out}");
        assert!(out.contains("forfeits: 2\n"), "{out}");
        for g in 1..=2 {
            assert!(
                out.contains(&format!("game {g}: fake loses: {reason}")),
                "game {g}, wanted '{reason}':\n{out}"
            );
        }
    }
}

#[test]
fn a_game_lost_by_a_crash_before_the_first_move_is_played_again() {
    let port = fake_follower(b"M0000010200\0", true);
    let (out, err) = run_match(&[
        "--engine",
        &polydam_hub(),
        "--engine",
        &format!("dxp:127.0.0.1:{port}"),
        "--name",
        "2:fake",
        "--games",
        "2",
        "--depth",
        "1",
        "-q",
    ]);
    // The first attempt of game 1 is not counted: the game is played again and the fake's
    // illegal move decides it, as it decides game 2.
    assert!(out.contains("Polydam vs fake: +2 =0 -0"), "{out}");
    assert!(out.contains("forfeits: 2\n"), "{out}");
    assert!(
        out.contains("game 1: fake loses: illegal move 1-2"),
        "{out}"
    );
    assert!(out.contains("played again: 1\n"), "{out}");
    assert!(
        out.contains("  game 1: fake failed before the first move: crashed (connection lost"),
        "{out}"
    );
    assert!(
        err.contains("; played again: fake failed before the first move (crashed"),
        "{err}"
    );
}

#[test]
fn dxp_refuses_8x8_variants_and_bad_options() {
    let o = crate::common::polydam()
        .args(["dxp", "--listen", "0", "-v", "russian"])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("russian is not played on the 50 squares DXP numbers"),
        "{err}"
    );
    let o = crate::common::polydam()
        .args(["dxp", "--listen", "0", "--games", "3"])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--games is for the initiator"));
}
