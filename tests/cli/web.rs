//! `polydam serve`: the real binary on a free port, driven over HTTP and its WebSocket API
//! (docs/web.md) by a WebSocket client: games in two variants, searches, and every kind of
//! bad message, each answered with an error while the server goes on serving.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// How long any reply may take.
const TIMEOUT: Duration = Duration::from_secs(30);

/// A `polydam serve --port 0` process, killed when dropped (also used by `web_rules`).
pub(crate) struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub(crate) addr: String,
}

impl Server {
    /// The server with these extra arguments.
    pub(crate) fn start(extra: &[&str]) -> Server {
        Server::start_with_env(extra, &[])
    }

    /// The server with these environment variables set.
    fn start_with_env(extra: &[&str], vars: &[(&str, &str)]) -> Server {
        let mut child = crate::common::polydam()
            .args(["serve", "--port", "0"])
            .args(extra)
            .envs(vars.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("polydam serve starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = match rx.recv_timeout(TIMEOUT) {
            Ok(line) => line,
            Err(_) => {
                let _ = child.kill();
                panic!("polydam serve printed no URL");
            }
        };
        let addr = line
            .trim()
            .strip_prefix("http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("first line is not the URL: {line:?}"))
            .to_string();
        Server { child, addr }
    }

    fn connect(&self) -> Client {
        Client::connect(&self.addr).expect("the WebSocket opens")
    }

    /// A raw HTTP/1.1 GET; answers the status code and the body.
    fn get(&self, path: &str) -> (u16, String) {
        self.get_as(path, &self.addr)
    }

    /// A raw HTTP/1.1 GET with this `Host` header; answers the status code and the body.
    fn get_as(&self, path: &str, host: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.addr).expect("TCP connect");
        stream.set_read_timeout(Some(TIMEOUT)).expect("timeout set");
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .expect("request sent");
        let mut reply = String::new();
        stream.read_to_string(&mut reply).expect("reply read");
        let status = reply
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let body = reply
            .split_once("\r\n\r\n")
            .map_or(String::new(), |(_, b)| b.to_string());
        (status, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Client {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
}

impl Client {
    fn connect(addr: &str) -> Result<Client, tungstenite::Error> {
        let (ws, _) = tungstenite::connect(format!("ws://{addr}/ws"))?;
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(TIMEOUT))?;
        }
        Ok(Client { ws })
    }

    fn send(&mut self, value: Value) {
        self.send_text(&value.to_string());
    }

    fn send_text(&mut self, text: &str) {
        self.ws
            .send(Message::Text(text.to_string().into()))
            .expect("message sent");
    }

    /// The next JSON message; panics on a close or a timeout.
    fn recv(&mut self) -> Value {
        loop {
            match self.ws.read().expect("a message arrives") {
                Message::Text(t) => {
                    return serde_json::from_str(t.as_str()).expect("the server sends JSON")
                }
                Message::Close(frame) => panic!("connection closed: {frame:?}"),
                _ => {}
            }
        }
    }

    /// The next message of type `kind`, skipping search reports (`searching`, `info`) on the
    /// way; any other message first is a failure.
    fn expect(&mut self, kind: &str) -> Value {
        let started = Instant::now();
        loop {
            let msg = self.recv();
            if msg["type"] == kind {
                return msg;
            }
            assert!(
                msg["type"] == "info" || msg["type"] == "searching",
                "expected {kind}, got {:.300}",
                msg.to_string()
            );
            assert!(started.elapsed() < TIMEOUT, "no {kind} in time");
        }
    }

    /// The `error` the server answers `request` with; then checks it still serves this
    /// connection (a `state` request is answered) and that the game did not change.
    fn expect_error(&mut self, request: &str, fen_before: &str) -> String {
        self.send_text(request);
        let reply = self.expect("error");
        let message = reply["message"].as_str().unwrap_or_default().to_string();
        assert!(!message.is_empty(), "{reply}");
        self.send(json!({"type": "state"}));
        let state = self.expect("state");
        assert_eq!(
            state["fen"], fen_before,
            "the game changed after {request:.60}"
        );
        message
    }

    /// Reads the welcome (`variants`, then `state`) and answers the state.
    fn welcome(&mut self) -> Value {
        let variants = self.expect("variants");
        let list = variants["variants"].as_array().expect("a list of variants");
        assert!(list.len() >= 50, "{} variants", list.len());
        for name in ["international", "turkish", "seesaw-draughts", "seesaw"] {
            assert!(list.iter().any(|v| v["name"] == name), "{name} listed");
        }
        assert!(list
            .iter()
            .all(|v| v["description"].as_str().is_some_and(|d| !d.is_empty())));
        self.expect("state")
    }
}

fn history(state: &Value) -> Vec<String> {
    state["history"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// The legal move of `state` written `text`.
fn legal<'a>(state: &'a Value, text: &str) -> &'a Value {
    state["moves"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["text"] == text))
        .unwrap_or_else(|| panic!("{text} is not legal in {}", state["fen"]))
}

#[test]
fn serve_plays_international_and_turkish_games() {
    let server = Server::start(&[]);
    let mut c = server.connect();
    let state = c.welcome();
    assert_eq!(state["variant"]["name"], "international");
    assert_eq!(
        (state["rows"].as_u64(), state["cols"].as_u64()),
        (Some(10), Some(10))
    );
    assert_eq!(state["cells"].as_array().map(Vec::len), Some(100));
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(9));
    assert_eq!(legal(&state, "32-28")["path"], json!(["32", "28"]));
    assert_eq!(state["side"], "white");

    // A move by text, one by the cells clicked, an engine move, a take-back.
    c.send(json!({"type": "move", "text": "32-28"}));
    let state = c.expect("state");
    assert_eq!(history(&state), ["32-28"]);
    assert_eq!(state["side"], "black");
    assert_eq!(state["last_path"], json!(["32", "28"]));
    c.send(json!({"type": "move", "path": ["19", "23"]}));
    let state = c.expect("state");
    assert_eq!(history(&state), ["32-28", "19-23"]);
    // White must take: 28x19.
    assert!(state["moves"]
        .as_array()
        .is_some_and(|m| m.iter().all(|m| m["capture"] == true)));
    c.send(json!({"type": "go", "depth": 3}));
    let searching = c.expect("searching");
    assert_eq!(searching["mode"], "go");
    let done = c.expect("done");
    assert_eq!(done["search"], searching["search"]);
    let best = done["best"]
        .as_str()
        .expect("the engine found a move")
        .to_string();
    let state = c.expect("state");
    assert_eq!(history(&state), ["32-28", "19-23", best.as_str()]);
    c.send(json!({"type": "undo", "plies": 2}));
    let state = c.expect("state");
    assert_eq!(history(&state), ["32-28"]);

    // A capture chosen square by square: a man of 28 takes 23 and 13 (the path has three
    // cells, though the PDN text names only the ends).
    c.send(json!({"type": "load", "fen": "W:W28:B23,13"}));
    let state = c.expect("state");
    assert_eq!(history(&state), Vec::<String>::new());
    let capture = &state["moves"][0];
    assert_eq!(capture["path"], json!(["28", "19", "8"]), "{state}");
    c.send(json!({"type": "move", "path": ["28", "19", "8"]}));
    let state = c.expect("state");
    assert_eq!(state["result"]["winner"], "white", "{state}");

    // Turkish: the 64-square board, algebraic moves, the engine's answer.
    c.send(json!({"type": "new", "variant": "turkish"}));
    let state = c.expect("state");
    assert_eq!(state["variant"]["name"], "turkish");
    assert_eq!(state["variant"]["family"], "orthogonal");
    assert_eq!(state["cells"].as_array().map(Vec::len), Some(64));
    assert_eq!(
        state["col_labels"],
        json!(["a", "b", "c", "d", "e", "f", "g", "h"])
    );
    c.send(json!({"type": "move", "path": ["d3", "d4"]}));
    assert_eq!(history(&c.expect("state")), ["d3-d4"]);
    c.send(json!({"type": "go", "movetime": 0.2}));
    c.expect("done");
    let state = c.expect("state");
    assert_eq!(history(&state).len(), 2);
    assert_eq!(state["side"], "white");
    c.send(json!({"type": "undo"}));
    assert_eq!(history(&c.expect("state")), ["d3-d4"]);

    // Analysis until stopped: lines in the variant's notation, then `done`.
    c.send(json!({"type": "analyse"}));
    c.expect("searching");
    let info = c.recv();
    assert_eq!(info["type"], "info", "{info}");
    assert!(info["pv"]
        .as_str()
        .is_some_and(|pv| pv.contains('-') || pv.contains('x')));
    c.send(json!({"type": "stop"}));
    let done = c.expect("done");
    assert_eq!(done["mode"], "analyse");
    // The analysis did not play its move.
    c.send(json!({"type": "state"}));
    assert_eq!(history(&c.expect("state")), ["d3-d4"]);

    // A PDN game with a FEN tag.
    c.send(json!({"type": "load",
        "pdn": "[Event \"x\"]\n[FEN \"W:Wa2-h3:Ba6-h7\"]\n1. e3-e4 b6-b5 2. e4-e5 *"}));
    let state = c.expect("state");
    assert_eq!(history(&state), ["e3-e4", "b6-b5", "e4-e5"]);
    assert!(state["pdn"]
        .as_str()
        .is_some_and(|p| p.contains("1. e3-e4 b6-b5 2. e4-e5")));

    // Another game's PDN: its GameType switches the variant.
    c.send(json!({"type": "load", "pdn": "[GameType \"20\"]\n1. 32-28 19-23 *"}));
    let state = c.expect("state");
    assert_eq!(state["variant"]["name"], "international");
    assert_eq!(history(&state), ["32-28", "19-23"]);
}

#[test]
fn serve_plays_both_seesaw_games() {
    let server = Server::start(&[]);
    let mut c = server.connect();
    c.welcome();
    c.send(json!({"type": "new", "variant": "seesaw-draughts"}));
    let state = c.expect("state");
    let sizes = state["cells"].as_array().map(|cells| {
        cells
            .iter()
            .filter(|c| c["piece"]["size"].as_u64().is_some())
            .count()
    });
    assert_eq!(sizes, Some(24), "every stack has its size");
    c.send(json!({"type": "go", "depth": 2}));
    c.expect("done");
    assert_eq!(history(&c.expect("state")).len(), 1);

    c.send(json!({"type": "new", "variant": "seesaw"}));
    let state = c.expect("state");
    assert_eq!(state["variant"]["family"], "hex");
    assert!(state["cells"]
        .as_array()
        .is_some_and(|c| c.iter().any(|c| c["tile"] == "white")));
    // Every legal move is selectable by its cells; play the first by them.
    let moves = state["moves"].as_array().expect("moves");
    assert!(moves
        .iter()
        .all(|m| m["path"].as_array().is_some_and(|p| !p.is_empty())));
    let first = moves[0].clone();
    c.send(json!({"type": "move", "path": first["path"]}));
    assert_eq!(
        history(&c.expect("state")),
        [first["text"].as_str().unwrap_or("?")]
    );
}

#[test]
fn serve_answers_bad_messages_and_goes_on() {
    let server = Server::start(&[]);
    let mut c = server.connect();
    let state = c.welcome();
    let fen = state["fen"].as_str().expect("a FEN").to_string();
    let cases: &[(&str, &str)] = &[
        (
            r#"{"type":"new","variant":"chess"}"#,
            "unknown variant 'chess'",
        ),
        (r#"{"type":"move","text":"32-26"}"#, "illegal move"),
        (r#"{"type":"move","text":"zz"}"#, "not a move"),
        (r#"{"type":"move","path":["31","26","21"]}"#, "illegal move"),
        (r#"{"type":"move"}"#, "either"),
        (r#"{"type":"load","fen":"W:W99:B1"}"#, "bad position"),
        (
            r#"{"type":"load","pdn":"1. 32-28 19-23 2. 28-22"}"#,
            "move 3",
        ),
        (
            r#"{"type":"load","pdn":"[Variant \"chess\"] 1. e4 *"}"#,
            "Variant tag names 'chess'",
        ),
        (
            r#"{"type":"load","pdn":"[GameType \"3\"] 1. e4 *"}"#,
            "GameType tag '3'",
        ),
        (
            r#"{"type":"load","pdn":"[GameType \"25\"] 1. c3-d4 d4-e5 *"}"#,
            "move 2",
        ),
        (r#"{"type":"undo"}"#, "nothing to undo"),
        (r#"{"type":"go","depth":0}"#, "depth must be"),
        (r#"{"type":"go","movetime":-1}"#, "movetime must be"),
        (r#"{"type":"go","depth":"deep"}"#, "invalid type"),
        (r#"{"type":"move","text":"32-28""#, "malformed JSON"),
        ("not json at all", "malformed JSON"),
        (r#"[1,2,3]"#, "JSON object"),
        (r#"{"kind":"move"}"#, "no \"type\""),
        (r#"{"type":"castle"}"#, "unknown message type 'castle'"),
        (r#"{"type":"stop","now":1}"#, "unknown field `now`"),
    ];
    for (request, expected) in cases {
        let message = c.expect_error(request, &fen);
        assert!(message.contains(expected), "{request} -> {message}");
    }
    // A message over the 64 KiB limit: an error, and the connection goes on.
    let long = format!(r#"{{"type":"move","text":"{}"}}"#, "1".repeat(70_000));
    let message = c.expect_error(&long, &fen);
    assert!(message.contains("too long"), "{message}");
    // A binary message.
    c.ws.send(Message::Binary(vec![1u8, 2, 3].into()))
        .expect("sent");
    let reply = c.expect("error");
    assert!(
        reply["message"]
            .as_str()
            .is_some_and(|m| m.contains("binary")),
        "{reply}"
    );
    // The game still plays.
    c.send(json!({"type": "move", "text": "32-28"}));
    assert_eq!(history(&c.expect("state")), ["32-28"]);

    // A frame over the transport's limit (1 MiB): an error, then the connection is closed;
    // the server serves new connections.
    let huge = format!(r#"{{"type":"move","text":"{}"}}"#, "1".repeat(1_100_000));
    let _ = c.ws.send(Message::Text(huge.into()));
    // The close frame may be lost: the server drops a socket with unread input, which resets
    // the connection; the error before it is what the page shows.
    let mut saw_error = false;
    loop {
        match c.ws.read() {
            Ok(Message::Text(t)) => {
                let v: Value = serde_json::from_str(t.as_str()).expect("JSON");
                saw_error |= v["type"] == "error"
                    && v["message"].as_str().is_some_and(|m| m.contains("closing"));
            }
            Ok(Message::Close(frame)) => {
                assert_eq!(frame.map(|f| u16::from(f.code)), Some(1009));
                break;
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    assert!(saw_error, "no error before the connection closed");
    let mut fresh = server.connect();
    assert_eq!(fresh.welcome()["fen"], fen);
}

#[test]
fn serve_limits_connections_and_frees_their_slots() {
    let server = Server::start(&["--max-connections", "2"]);
    let mut a = server.connect();
    a.welcome();
    let mut b = server.connect();
    b.welcome();
    let mut third = server.connect();
    let refusal = third.recv();
    assert_eq!(refusal["type"], "error");
    assert!(
        refusal["message"]
            .as_str()
            .is_some_and(|m| m.contains("too many connections")),
        "{refusal}"
    );
    // A search running on a connection that closes is stopped with it; its slot is freed.
    a.send(json!({"type": "analyse"}));
    a.expect("searching");
    drop(a);
    let started = Instant::now();
    loop {
        let mut c = server.connect();
        if c.recv()["type"] == "variants" {
            break;
        }
        assert!(
            started.elapsed() < TIMEOUT,
            "the closed connection's slot stays taken"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // The second connection still plays.
    b.send(json!({"type": "move", "text": "31-26"}));
    assert_eq!(history(&b.expect("state")), ["31-26"]);
}

#[test]
fn serve_serves_the_page_and_refuses_other_sites() {
    let server = Server::start(&[]);
    let (status, body) = server.get("/");
    assert_eq!(status, 200);
    assert!(
        body.contains("board.js") && body.contains("board.css"),
        "{body:.200}"
    );
    let (status, body) = server.get("/board.js");
    assert_eq!(status, 200);
    assert!(body.contains("new WebSocket"));
    assert_eq!(server.get("/board.css").0, 200);
    assert_eq!(server.get("/nowhere").0, 404);
    // A page from another site may not open the WebSocket.
    let request = tungstenite::http::Request::builder()
        .uri(format!("ws://{}/ws", server.addr))
        .header("Host", &server.addr)
        .header("Origin", "http://evil.example")
        .header("Connection", "Upgrade")
        .header("Upgrade", "websocket")
        .header("Sec-WebSocket-Version", "13")
        .header(
            "Sec-WebSocket-Key",
            tungstenite::handshake::client::generate_key(),
        )
        .body(())
        .expect("a request");
    match tungstenite::connect(request) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403),
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a cross-site WebSocket was accepted"),
    }
}

/// A WebSocket upgrade request to `server` with these `Host` and `Origin` headers.
fn upgrade_request(server: &Server, host: &str, origin: &str) -> tungstenite::http::Request<()> {
    tungstenite::http::Request::builder()
        .uri(format!("ws://{}/ws", server.addr))
        .header("Host", host)
        .header("Origin", origin)
        .header("Connection", "Upgrade")
        .header("Upgrade", "websocket")
        .header("Sec-WebSocket-Version", "13")
        .header(
            "Sec-WebSocket-Key",
            tungstenite::handshake::client::generate_key(),
        )
        .body(())
        .expect("a request")
}

/// DNS rebinding: a page of `evil.example` whose name now resolves to 127.0.0.1 sends
/// `Host: evil.example:P` and a matching `Origin`. The Origin check alone let it in; the Host
/// must be a loopback name or one the user allowed.
#[test]
fn serve_refuses_a_rebound_host_name() {
    let server = Server::start(&["--allow-host", "board.lan"]);
    let port = server.addr.rsplit(':').next().unwrap_or("0").to_string();
    let evil = format!("evil.example:{port}");
    match tungstenite::connect(upgrade_request(&server, &evil, &format!("http://{evil}"))) {
        Err(tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 403);
            let body =
                String::from_utf8_lossy(response.body().as_deref().unwrap_or_default()).to_string();
            assert!(
                body.contains("evil.example") && body.contains("Host"),
                "{body}"
            );
        }
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a WebSocket with Host {evil} was accepted"),
    }
    // Every request, not only the WebSocket.
    let (status, body) = server.get_as("/", &evil);
    assert_eq!(status, 403, "{body}");
    assert_eq!(server.get_as("/", "evil.example").0, 403);
    assert_eq!(server.get_as("/", "127.0.0.1.evil.example").0, 403);
    assert_eq!(server.get_as("/", "localhost.evil.example:80").0, 403);
    assert_eq!(server.get_as("/", "10.1.2.3").0, 403);
    // Loopback names, with or without the port, and the name allowed.
    for host in [
        format!("localhost:{port}"),
        "LocalHost".to_string(),
        format!("127.0.0.1:{port}"),
        "127.3.4.5".to_string(),
        format!("[::1]:{port}"),
        format!("board.lan:{port}"),
    ] {
        assert_eq!(server.get_as("/", &host).0, 200, "Host {host}");
    }
    let host = format!("localhost:{port}");
    let (ws, _) = tungstenite::connect(upgrade_request(&server, &host, &format!("http://{host}")))
        .expect("a loopback name may open the WebSocket");
    if let MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(TIMEOUT)).expect("timeout set");
    }
    let mut page = Client { ws };
    page.welcome();
}

/// One WebSocket text frame as a client sends it (masked, with the all-zero mask).
fn client_frame(text: &str) -> Vec<u8> {
    let len = text.len();
    assert!(len < 126, "a short frame");
    let mut frame = vec![0x81, 0x80 | len as u8, 0, 0, 0, 0];
    frame.extend_from_slice(text.as_bytes());
    frame
}

/// The number of threads of process `pid` (Linux), if known.
fn threads_of(pid: u32) -> Option<usize> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("Threads:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Counts the `searching` and `done` messages in the raw bytes a WebSocket client reads
/// (server frames are not masked, so the JSON is there as sent).
#[derive(Default)]
struct ReplyCount {
    searching: usize,
    done: usize,
    tail: Vec<u8>,
}

impl ReplyCount {
    fn add(&mut self, bytes: &[u8]) {
        // Keep the end of the previous read so that a word split between reads is counted.
        let keep = self.tail.len();
        self.tail.extend_from_slice(bytes);
        let count = |text: &[u8], word: &[u8]| {
            text.windows(word.len())
                .enumerate()
                .filter(|(i, w)| *w == word && i + word.len() > keep)
                .count()
        };
        self.searching += count(&self.tail, b"\"type\":\"searching\"");
        self.done += count(&self.tail, b"\"type\":\"done\"");
        let cut = self.tail.len().saturating_sub(32);
        self.tail.drain(..cut);
    }
}

/// One page sends 50,000 `analyse` requests as fast as it can (its replies drained by another
/// thread); another page's `go depth 1` is still answered at once, and the server's threads
/// stay bounded (it started one per request: 515).
#[test]
fn serve_answers_one_page_while_another_floods() {
    const FLOOD: usize = 50_000;
    let server = Server::start(&[]);
    let mut calm = server.connect();
    calm.welcome();

    let (flooder, _) =
        tungstenite::connect(format!("ws://{}/ws", server.addr)).expect("the WebSocket opens");
    let MaybeTlsStream::Plain(stream) = flooder.get_ref() else {
        panic!("a plain TCP stream");
    };
    let mut writer = stream.try_clone().expect("the stream is cloned");
    let mut reader = stream.try_clone().expect("the stream is cloned");
    reader.set_read_timeout(None).expect("no read timeout");
    let counts = std::sync::Arc::new(std::sync::Mutex::new(ReplyCount::default()));
    let drained = std::sync::Arc::clone(&counts);
    let drain = std::thread::spawn(move || {
        let mut buf = vec![0u8; 1 << 16];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            if let Ok(mut c) = drained.lock() {
                c.add(&buf[..n]);
            }
        }
    });
    let count = |f: fn(&ReplyCount) -> usize| counts.lock().map(|c| f(&c)).unwrap_or(0);
    let flood: Vec<u8> = client_frame(r#"{"type":"analyse"}"#).repeat(FLOOD);
    writer.write_all(&flood).expect("the flood is sent");
    writer.flush().expect("flushed");

    // While the server reads the flood, and after: the other page's engine answers at once.
    let mut rounds = 0;
    loop {
        let handled = count(|c| c.searching);
        let sent = Instant::now();
        calm.send(json!({"type": "go", "depth": 1}));
        let done = calm.expect("done");
        let waited = sent.elapsed();
        assert!(done["best"].is_string(), "{done}");
        assert!(
            waited < Duration::from_secs(1),
            "go depth 1 answered after {waited:?} while another page floods \
             ({handled} of its {FLOOD} requests answered)"
        );
        assert_eq!(history(&calm.expect("state")).len(), 1);
        calm.send(json!({"type": "undo"}));
        calm.expect("state");
        rounds += 1;
        if rounds >= 3 && handled >= FLOOD {
            break;
        }
        assert!(
            rounds < 300,
            "the flood is not answered: {handled} of {FLOOD}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    #[cfg(target_os = "linux")]
    if let Some(threads) = threads_of(server.child.id()) {
        // The runtime's 2 workers, the main thread, the search pool (8 at most), slack.
        assert!(threads <= 16, "{threads} threads after the flood");
    }

    // The flooding page is still served: its last analysis stops on request.
    let before = count(|c| c.done);
    writer
        .write_all(&client_frame(r#"{"type":"stop"}"#))
        .expect("stop sent");
    let started = Instant::now();
    while count(|c| c.done) == before {
        assert!(started.elapsed() < TIMEOUT, "no done after stop");
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = writer.shutdown(std::net::Shutdown::Both);
    drop(flooder);
    let _ = drain.join();
}

/// Connections that send nothing, send their headers a byte at a time, or stay idle after a
/// request are closed after `--idle-timeout`; pages are still served.
#[test]
fn serve_closes_idle_and_slow_connections() {
    let server = Server::start(&["--idle-timeout", "1"]);
    let limit = Duration::from_secs(6);

    // Nothing sent at all.
    let started = Instant::now();
    let mut idle = TcpStream::connect(&server.addr).expect("TCP connect");
    idle.set_read_timeout(Some(TIMEOUT)).expect("timeout set");
    let mut buf = [0u8; 64];
    let closed = matches!(idle.read(&mut buf), Ok(0) | Err(_));
    assert!(closed, "the idle connection got an answer");
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(800) && took < limit,
        "an idle connection closed after {took:?}"
    );

    // Headers sent slowly, one line every 200 ms, never ending.
    let started = Instant::now();
    let mut slow = TcpStream::connect(&server.addr).expect("TCP connect");
    slow.set_read_timeout(Some(Duration::from_millis(200)))
        .expect("timeout set");
    let mut lines = 0;
    let _ = write!(slow, "GET / HTTP/1.1\r\nHost: {}\r\n", server.addr);
    loop {
        assert!(
            started.elapsed() < limit,
            "a slow-header connection stays open after {:?} ({lines} lines sent)",
            started.elapsed()
        );
        if write!(slow, "X-Slow-{lines}: x\r\n").is_err() {
            break;
        }
        lines += 1;
        match slow.read(&mut buf) {
            Ok(0) => break,
            Ok(_) => panic!("an answer to an unfinished request"),
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => break,
        }
    }

    // Idle after a request answered on a kept-alive connection.
    let started = Instant::now();
    let mut kept = TcpStream::connect(&server.addr).expect("TCP connect");
    kept.set_read_timeout(Some(TIMEOUT)).expect("timeout set");
    write!(
        kept,
        "GET /board.css HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.addr
    )
    .expect("request sent");
    let mut reply = Vec::new();
    let _ = kept.read_to_end(&mut reply);
    let took = started.elapsed();
    assert!(
        reply.starts_with(b"HTTP/1.1 200"),
        "{:.80}",
        String::from_utf8_lossy(&reply)
    );
    assert!(
        took >= Duration::from_millis(800) && took < limit,
        "a kept-alive connection closed after {took:?}"
    );

    // A page and a WebSocket idle beyond the timeout are still served.
    assert_eq!(server.get("/").0, 200);
    let mut page = server.connect();
    page.welcome();
    std::thread::sleep(Duration::from_millis(1500));
    page.send(json!({"type": "state"}));
    page.expect("state");
}

#[test]
fn serve_refuses_a_port_in_use() {
    let server = Server::start(&[]);
    let port = server.addr.rsplit(':').next().unwrap_or("0");
    let out = crate::common::polydam()
        .args(["serve", "--port", port])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot listen on"), "{err}");
}

/// `--open` runs the desktop's opener (`xdg-open`, here a script on `PATH` that writes down its
/// argument) with the page's URL; without an opener the server warns and serves on.
#[cfg(target_os = "linux")]
#[test]
fn serve_open_hands_the_url_to_the_opener() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("polydam-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let log = dir.join("opened");
    let script = dir.join("xdg-open");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"$1\" > '{}.tmp'\nmv '{0}.tmp' '{0}'\n",
            log.display()
        ),
    )
    .expect("the script is written");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .expect("the script is executable");
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let server = Server::start_with_env(&["--open"], &[("PATH", &path)]);
    let started = Instant::now();
    while !log.exists() {
        assert!(started.elapsed() < TIMEOUT, "the opener was not run");
        std::thread::sleep(Duration::from_millis(20));
    }
    let opened = std::fs::read_to_string(&log).expect("the opener's record");
    assert_eq!(opened.trim(), format!("http://{}/", server.addr));
    server.connect().welcome();

    // No opener at all: the server still serves.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("an empty directory");
    let lonely = Server::start_with_env(&["--open"], &[("PATH", &empty.display().to_string())]);
    lonely.connect().welcome();
    drop(server);
    drop(lonely);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The id of the first node of `state`'s game tree whose move is `text`.
fn node_of(state: &Value, text: &str) -> usize {
    state["nodes"]
        .as_array()
        .and_then(|n| n.iter().position(|n| n["move"] == text))
        .unwrap_or_else(|| panic!("no node {text} in {}", state["nodes"]))
}

#[test]
fn serve_reviews_a_game_tree() {
    let server = Server::start(&[]);
    let mut c = server.connect();
    c.welcome();
    let pdn = "[White \"A\"]\n1. 32-28! {centre} 19-23 (1... 18-22 $6 2. 37-32) 2. 28x19 14x23 *";
    c.send(json!({"type": "load", "pdn": pdn}));
    let state = c.expect("state");
    assert_eq!(history(&state), ["32-28", "19-23", "28x19", "14x23"]);
    // Annotation glyphs stay with their moves.
    assert_eq!(state["nodes"][1]["marks"], json!(["!"]));
    assert_eq!(
        state["nodes"][node_of(&state, "18-22")]["marks"],
        json!(["$6"])
    );
    assert_eq!(state["nodes"][6]["marks"], json!([]));
    assert_eq!(state["nodes"].as_array().map(Vec::len), Some(7));
    // The end of the main line is shown; the variation's nodes were made before it.
    assert_eq!(state["node"], 6);
    assert_eq!(state["nodes"][6]["move"], "14x23");
    assert_eq!(state["nodes"][6]["ply"], 4);
    let text = state["pdn"].as_str().expect("PDN");
    assert!(
        text.contains("[White \"A\"]")
            && text.contains(
                "1. 32-28! {centre} 1... 19-23 (1... 18-22 $6 2. 37-32) 2. 28x19 14x23 *"
            ),
        "{text}"
    );
    // The variation's first move, then another move there: a variation inside it.
    c.send(json!({"type": "goto", "node": node_of(&state, "18-22")}));
    let state = c.expect("state");
    assert_eq!(history(&state), ["32-28", "18-22"]);
    c.send(json!({"type": "move", "text": "34-29"}));
    let state = c.expect("state");
    assert_eq!(history(&state), ["32-28", "18-22", "34-29"]);
    c.send(json!({"type": "comment", "text": "new idea"}));
    let state = c.expect("state");
    let text = state["pdn"].as_str().expect("PDN");
    assert!(
        text.contains("(1... 18-22 $6 2. 37-32 (2. 34-29 {new idea}))"),
        "{text}"
    );
    // Taking back where moves follow only steps back; the tree keeps its 8 nodes.
    c.send(json!({"type": "goto", "node": 1}));
    assert_eq!(history(&c.expect("state")), ["32-28"]);
    c.send(json!({"type": "undo"}));
    let state = c.expect("state");
    assert!(history(&state).is_empty());
    assert_eq!(state["nodes"].as_array().map(Vec::len), Some(8));
    let fen = state["fen"].as_str().expect("a FEN").to_string();
    for (request, expected) in [
        (r#"{"type":"goto","node":8}"#, "no move 8"),
        (r#"{"type":"goto","node":-1}"#, "bad 'goto' message"),
        (r#"{"type":"comment"}"#, "missing field `text`"),
        (
            r#"{"type":"load","pdn":"1. 32-28 (1. 32-29) *"}"#,
            "variation 1 at move 1 ('32-28'): move 1 ('32-29')",
        ),
    ] {
        let message = c.expect_error(request, &fen);
        assert!(message.contains(expected), "{request} -> {message}");
    }
}

#[test]
fn serve_keeps_a_result_decided_on_the_page() {
    let server = Server::start(&[]);
    let mut c = server.connect();
    c.welcome();
    for text in ["32-28", "19-23"] {
        c.send(json!({"type": "move", "text": text}));
        c.expect("state");
    }
    c.send(json!({"type": "result", "winner": "white", "reason": "black resigned"}));
    let state = c.expect("state");
    assert_eq!(state["result"]["winner"], "white");
    assert_eq!(state["result"]["reason"], "black resigned");
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(0));
    let text = state["pdn"].as_str().expect("PDN");
    assert!(
        text.contains("[Result \"2-0\"]")
            && text.contains("[Termination \"black resigned\"]")
            && text.contains("1. 32-28 19-23 2-0"),
        "{text}"
    );
    let fen = state["fen"].as_str().expect("a FEN").to_string();
    // The game is over: no move, no second result.
    for (request, expected) in [
        (r#"{"type":"move","text":"28x19"}"#, "the game is over"),
        (
            r#"{"type":"result","reason":"draw agreed"}"#,
            "already over",
        ),
        (
            r#"{"type":"result","winner":"red","reason":"x"}"#,
            "winner 'red'",
        ),
        (
            r#"{"type":"result","winner":"white"}"#,
            "missing field `reason`",
        ),
        (r#"{"type":"result","reason":"  "}"#, "needs its reason"),
    ] {
        let message = c.expect_error(request, &fen);
        assert!(message.contains(expected), "{request} -> {message}");
    }
    // A take-back ends the decision; the game goes on and a draw is then agreed.
    c.send(json!({"type": "undo"}));
    let state = c.expect("state");
    assert!(state["result"].is_null(), "{state}");
    assert!(state["pdn"]
        .as_str()
        .expect("PDN")
        .contains("[Result \"*\"]"));
    c.send(json!({"type": "move", "text": "19-24"}));
    c.expect("state");
    c.send(json!({"type": "result", "reason": "draw agreed"}));
    let state = c.expect("state");
    assert_eq!(state["result"]["text"], "draw");
    let text = state["pdn"].as_str().expect("PDN");
    assert!(
        text.contains("[Result \"1-1\"]") && text.contains("[Termination \"draw agreed\"]"),
        "{text}"
    );
    // Reviewing the game keeps its result in the PDN; a move played on ends it.
    c.send(json!({"type": "goto", "node": 1}));
    let state = c.expect("state");
    assert!(state["result"].is_null());
    assert!(state["pdn"]
        .as_str()
        .expect("PDN")
        .contains("[Result \"1-1\"]"));
    c.send(json!({"type": "goto", "node": node_of(&state, "19-24")}));
    let state = c.expect("state");
    assert_eq!(state["result"]["reason"], "draw agreed");
    c.send(json!({"type": "result", "reason": "x".repeat(201)}));
    let message = c.expect("error");
    assert!(
        message["message"]
            .as_str()
            .unwrap_or("")
            .contains("at most 200 characters"),
        "{message}"
    );
}
