//! `polydam dxp`: Polydam as a DamExchange (DXP) program, the protocol Kingsrow, Scan and the
//! other 10x10 programs play each other over.
//!
//! Either end of the connection (`--listen` or `--connect`) and either role: the initiator
//! (`--initiator`) sends a GAMEREQ for each game, colours alternating; the follower answers
//! GAMEREQs and plays its side. Moves are checked against Polydam's own rules; the clock is the
//! game budget of the GAMEREQ; every game is appended to a PDN file as it ends, however it
//! ends. An opponent that closes the connection, goes silent past its clock and `--timeout`,
//! sends a malformed message or an illegal move ends the game with a report on stderr (and a
//! CHAT to the opponent saying what was wrong), never a hang or a panic.
//!
//! The wire is `polydam_protocol::dxp`; the protocol and these choices: `docs/dxp.md`.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use polydam_engine::game::{Game, MoveStyle, Side};
use polydam_engine::record::GameRecord;
use polydam_engine::search::{Clock, Depth, Limits, SearchControl, Searcher};
use polydam_engine::variants::{dispatch, GameVisitor};
use polydam_protocol::dxp::conn::{Connection, RecvError};
use polydam_protocol::dxp::game::{
    check_variant, colour, move_from_dxp, move_to_dxp, position_from_dxp, position_to_dxp, side,
};
use polydam_protocol::dxp::message::{
    Acceptance, EndReason, GameAcc, GameEnd, GameReq, Message, VERSION,
};

use super::matches::referee::rules_end;
use super::CliError;
use crate::openings::read_book;
use crate::pdn::{self, PdnGame, PdnResult};

/// Options of `polydam dxp` (see docs/dxp.md).
#[derive(Clone, Debug, clap::Args)]
pub struct DxpOptions {
    /// Listen for connections on [ADDR:]PORT (ADDR defaults to 127.0.0.1; port 0 picks a free
    /// port, printed as `listening on ADDR:PORT`).
    #[arg(long, value_name = "[ADDR:]PORT", conflicts_with = "connect")]
    pub listen: Option<String>,
    /// Connect to a DXP program at HOST:PORT.
    #[arg(long, value_name = "HOST:PORT")]
    pub connect: Option<String>,
    /// Be the initiator: send a GAMEREQ for each game (otherwise answer them as the follower).
    #[arg(long)]
    pub initiator: bool,
    /// Variant: international, or another 10x10 variant both programs agree on beforehand
    /// (DXP has no variant field).
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: String,
    /// Initiator: games to play on each connection (colours alternate) [default: 2].
    #[arg(long)]
    pub games: Option<usize>,
    /// Initiator: thinking time per player for the whole game, in minutes (GAMEREQ, 0-999;
    /// 0 = none announced) [default: 5].
    #[arg(long, value_name = "MIN")]
    pub time: Option<u16>,
    /// Initiator: the number of moves of the whole game (GAMEREQ, 0-999; 0 = no limit). The
    /// side to move ends the game once each side has played them [default: 0].
    #[arg(long)]
    pub moves: Option<u16>,
    /// Initiator: the start position of every game (PDN FEN or Hub string).
    #[arg(long, conflicts_with = "book")]
    pub fen: Option<String>,
    /// Initiator: openings, one per line as in `polydam match --book` (a position, moves from
    /// the start, or POSITION;MOVES); each is played twice, colours swapped.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// The name sent in GAMEREQ and GAMEACC.
    #[arg(long, default_value = "Polydam")]
    pub name: String,
    /// Last iteration to search per move (with or without the clock).
    #[arg(long, short = 'd', allow_negative_numbers = true)]
    pub depth: Option<i32>,
    /// Seconds per move (with or without the clock).
    #[arg(long, allow_negative_numbers = true)]
    pub movetime: Option<f64>,
    /// Nodes per move (with or without the clock).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search threads.
    #[arg(long, short = 't', default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB.
    #[arg(long = "hash", value_name = "HASH", default_value_t = 64)]
    pub hash_mib: usize,
    /// Seconds the opponent may take beyond its clock (or per answer when there is no clock)
    /// before the game is ended.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub timeout: f64,
    /// The PDN file every game is appended to as it ends.
    #[arg(long, default_value = "polydam-dxp.pdn")]
    pub pdn: PathBuf,
    /// With --listen: connections to serve before exiting [default: 1 for an initiator, no
    /// limit for a follower].
    #[arg(long)]
    pub connections: Option<usize>,
}

impl Default for DxpOptions {
    fn default() -> Self {
        DxpOptions {
            listen: None,
            connect: None,
            initiator: false,
            variant: "international".into(),
            games: None,
            time: None,
            moves: None,
            fen: None,
            book: None,
            name: "Polydam".into(),
            depth: None,
            movetime: None,
            nodes: None,
            threads: 1,
            hash_mib: 64,
            timeout: 60.0,
            pdn: "polydam-dxp.pdn".into(),
            connections: None,
        }
    }
}

/// Games per connection of an initiator when `--games` is not given.
const DEFAULT_GAMES: usize = 2;
/// Minutes per player announced by an initiator when `--time` is not given.
const DEFAULT_MINUTES: u16 = 5;
/// Seconds per move when neither the GAMEREQ (0 minutes) nor the options give a limit.
const DEFAULT_MOVETIME: f64 = 1.0;
/// The longest wait for the GAMEEND that confirms the end of a game.
const CONFIRM_TIMEOUT: Duration = Duration::from_secs(10);
/// The pause between two messages sent in a row (see `Connection::set_pacing`): pydraughts
/// 0.6.7 loses a first MOVE that arrives in the same read as its GAMEACC (docs/dxp.md).
const PACING: Duration = Duration::from_millis(100);

/// Runs `polydam dxp`; game lines go to `out`, reports of problems to stderr.
pub fn run_dxp(opts: &DxpOptions, out: &mut dyn Write) -> Result<(), CliError> {
    check_options(opts)?;
    dispatch(&opts.variant, DxpJob { opts, out })?
}

/// The checks that need no variant.
fn check_options(opts: &DxpOptions) -> Result<(), CliError> {
    if opts.listen.is_none() && opts.connect.is_none() {
        return Err(CliError(
            "give --listen [ADDR:]PORT or --connect HOST:PORT".into(),
        ));
    }
    if !opts.initiator {
        for (given, name) in [
            (opts.games.is_some(), "--games"),
            (opts.time.is_some(), "--time"),
            (opts.moves.is_some(), "--moves"),
            (opts.fen.is_some(), "--fen"),
            (opts.book.is_some(), "--book"),
        ] {
            if given {
                return Err(CliError(format!(
                    "{name} is for the initiator (--initiator): a follower plays the games it \
                     is asked for"
                )));
            }
        }
    }
    if opts.games == Some(0) {
        return Err(CliError("--games must be at least 1".into()));
    }
    if let Some(t) = opts.time.filter(|&t| t > 999) {
        return Err(CliError(format!(
            "--time must be a number of minutes from 0 to 999, not {t}"
        )));
    }
    if let Some(m) = opts.moves.filter(|&m| m > 999) {
        return Err(CliError(format!(
            "--moves must be a number from 0 to 999, not {m}"
        )));
    }
    if opts.threads == 0 {
        return Err(CliError("--threads must be at least 1".into()));
    }
    if opts.connections == Some(0) {
        return Err(CliError("--connections must be at least 1".into()));
    }
    if opts.connections.is_some() && opts.listen.is_none() {
        return Err(CliError("--connections is for --listen".into()));
    }
    if opts.nodes == Some(0) {
        return Err(CliError("--nodes must be at least 1".into()));
    }
    if !(opts.timeout.is_finite() && opts.timeout > 0.0 && opts.timeout <= 1e6) {
        return Err(CliError(format!(
            "--timeout must be a number of seconds above 0, up to 1000000, not {}",
            opts.timeout
        )));
    }
    super::check_depth(opts.depth)?;
    super::check_movetime(opts.movetime)?;
    Ok(())
}

/// `[ADDR:]PORT` as the addresses to listen on (ADDR defaults to 127.0.0.1).
fn listen_addrs(text: &str) -> Result<Vec<SocketAddr>, CliError> {
    let text = text.trim();
    let full = if text.parse::<u16>().is_ok() {
        format!("127.0.0.1:{text}")
    } else {
        text.to_owned()
    };
    resolve(&full, "--listen")
}

/// `HOST:PORT` resolved.
fn resolve(text: &str, option: &str) -> Result<Vec<SocketAddr>, CliError> {
    let addrs: Vec<SocketAddr> = text
        .to_socket_addrs()
        .map_err(|e| CliError(format!("{option} '{text}': not an address and port ({e})")))?
        .collect();
    if addrs.is_empty() {
        return Err(CliError(format!("{option} '{text}': no address found")));
    }
    Ok(addrs)
}

/// Connects to the first of `addrs` that answers; a refused connection is tried again until
/// `patience` has passed (the other program may still be starting).
fn connect_with_patience(addrs: &[SocketAddr], patience: Duration) -> Result<Connection, String> {
    let until = Instant::now() + patience;
    loop {
        let mut last = None;
        for addr in addrs {
            match Connection::connect(addr, patience.max(Duration::from_millis(100))) {
                Ok(conn) => return Ok(conn),
                Err(e) => last = Some(format!("{addr}: {e}")),
            }
        }
        if Instant::now() >= until {
            return Err(format!(
                "cannot connect ({})",
                last.unwrap_or_else(|| "no address".into())
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

struct DxpJob<'a> {
    opts: &'a DxpOptions,
    out: &'a mut dyn Write,
}

impl GameVisitor for DxpJob<'_> {
    type Output = Result<(), CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let o = self.opts;
        check_variant::<G>().map_err(|e| CliError(format!("--variant: {e}")))?;
        let openings = if o.initiator {
            starts::<G>(o)?
        } else {
            Vec::new()
        };
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&o.pdn)
            .map_err(|e| CliError(format!("cannot open {}: {e}", o.pdn.display())))?;
        let searcher = Searcher::<G>::try_new(o.hash_mib, o.threads)?;
        let mut session = Session {
            opts: o,
            searcher,
            pdn: file,
            pdn_error: None,
            out: self.out,
            played: 0,
            tally: Tally::default(),
            timeout: Duration::from_secs_f64(o.timeout),
            openings,
        };
        session.run()?;
        session.finish()
    }
}

/// The start positions of an initiator's games: the book's openings played out, the `--fen`
/// position, or the variant's start.
fn starts<G: Game>(o: &DxpOptions) -> Result<Vec<G::Position>, CliError> {
    if let Some(path) = &o.book {
        return Ok(read_book::<G>(path)?
            .into_iter()
            .map(|opening| {
                opening
                    .moves
                    .iter()
                    .fold(opening.start, |pos, mv| G::play(&pos, mv))
            })
            .collect());
    }
    let start = match &o.fen {
        Some(text) => {
            G::parse_position(text).map_err(|e| CliError(format!("bad position: {e}")))?
        }
        None => G::start(),
    };
    if GameRecord::<G>::new(start).outcome().is_some() {
        return Err(CliError("the game is already over in this position".into()));
    }
    Ok(vec![start])
}

/// Games by how they ended, from Polydam's side.
#[derive(Default)]
struct Tally {
    wins: usize,
    draws: usize,
    losses: usize,
    unfinished: usize,
    /// Games, requests and connections that ended on a fault (ours or the opponent's).
    faults: usize,
}

/// One process's DXP work: its searcher, its PDN file, its count of games.
struct Session<'a, G: Game> {
    opts: &'a DxpOptions,
    searcher: Searcher<G>,
    pdn: File,
    pdn_error: Option<std::io::Error>,
    out: &'a mut dyn Write,
    /// Games started so far (their numbers in the output and the PDN).
    played: usize,
    tally: Tally,
    timeout: Duration,
    /// The initiator's start positions (empty for a follower).
    openings: Vec<G::Position>,
}

/// A game about to be played.
struct GameSpec<G: Game> {
    start: G::Position,
    ours: Side,
    opponent: String,
    minutes: u16,
    moves: u16,
    /// Our stop code in the GAMEEND we send: whether we want no game after this one.
    stop_after: bool,
}

/// What the connection is good for after a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum After {
    /// Another game may follow.
    GoOn,
    /// The opponent said (stop code 1) it wants no more games.
    OpponentStops,
    /// The connection is closed or no longer trusted.
    Lost,
}

/// How a game ended, as recorded.
struct Ending {
    result: Option<PdnResult>,
    why: String,
    fault: bool,
}

impl Ending {
    fn rules((result, why): (PdnResult, String)) -> Ending {
        Ending {
            result: Some(result),
            why,
            fault: false,
        }
    }

    fn fault(why: String) -> Ending {
        Ending {
            result: None,
            why,
            fault: true,
        }
    }
}

impl<G: Game> Session<'_, G> {
    /// A line on stdout (a closed stdout does not stop the games).
    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}").and_then(|_| self.out.flush());
    }

    /// A report of a problem on stderr.
    fn warn(&mut self, line: &str) {
        eprintln!("polydam dxp: {line}");
    }

    /// Listens or connects, then serves each connection in its role.
    fn run(&mut self) -> Result<(), CliError> {
        let o = self.opts;
        if let Some(text) = &o.connect {
            let addrs = resolve(text, "--connect")?;
            let mut conn = connect_with_patience(&addrs, self.timeout)
                .map_err(|e| CliError(format!("--connect {text}: {e}")))?;
            self.say(&format!("connected to {}", conn.peer()));
            self.serve(&mut conn);
            conn.close();
            return Ok(());
        }
        let Some(text) = &o.listen else {
            return Err(CliError("give --listen or --connect".into()));
        };
        let addrs = listen_addrs(text)?;
        let listener = TcpListener::bind(&addrs[..])
            .map_err(|e| CliError(format!("--listen {text}: cannot listen ({e})")))?;
        let local = listener
            .local_addr()
            .map_err(|e| CliError(format!("--listen {text}: {e}")))?;
        self.say(&format!("listening on {local}"));
        let limit = o
            .connections
            .unwrap_or(if o.initiator { 1 } else { usize::MAX });
        let mut served = 0;
        while served < limit {
            let (stream, peer) = match listener.accept() {
                Ok(x) => x,
                Err(e) => {
                    self.warn(&format!("cannot accept a connection: {e}"));
                    self.tally.faults += 1;
                    std::thread::sleep(Duration::from_millis(100));
                    continue;
                }
            };
            served += 1;
            self.say(&format!("connection from {peer}"));
            let mut conn = Connection::new(stream);
            self.serve(&mut conn);
            conn.close();
            self.say(&format!("connection from {peer} closed"));
        }
        Ok(())
    }

    /// Plays on one connection in the role the options give.
    fn serve(&mut self, conn: &mut Connection) {
        conn.set_pacing(PACING);
        if self.opts.initiator {
            self.initiate(conn);
        } else {
            self.follow(conn);
        }
    }

    /// The initiator: a GAMEREQ per game, colours alternating, each opening twice.
    fn initiate(&mut self, conn: &mut Connection) {
        let o = self.opts;
        let games = o.games.unwrap_or(DEFAULT_GAMES);
        let minutes = o.time.unwrap_or(DEFAULT_MINUTES);
        let moves = o.moves.unwrap_or(0);
        for g in 0..games {
            let start = self.openings[(g / 2) % self.openings.len()];
            let ours = if g % 2 == 0 { Side::White } else { Side::Black };
            let position = if start == G::start() && G::side_to_move(&start) == Side::White {
                None
            } else {
                match position_to_dxp::<G>(&start) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        self.warn(&format!("cannot send the start position: {e}"));
                        self.tally.faults += 1;
                        return;
                    }
                }
            };
            let request = Message::GameReq(GameReq {
                version: VERSION,
                initiator: o.name.clone(),
                follower_colour: colour(ours.opponent()),
                minutes,
                moves,
                position,
            });
            if let Err(e) = conn.send(&request) {
                self.warn(&format!("cannot send the GAMEREQ of game {}: {e}", g + 1));
                self.tally.faults += 1;
                return;
            }
            let Some(follower) = self.await_acceptance(conn, g + 1) else {
                return;
            };
            let Ok(follower) = follower else {
                continue;
            };
            let spec = GameSpec {
                start,
                ours,
                opponent: follower,
                minutes,
                moves,
                stop_after: g + 1 == games,
            };
            match self.play(conn, &spec) {
                After::GoOn => {}
                After::OpponentStops => {
                    if g + 1 < games {
                        self.warn(&format!(
                            "the follower wants no more games after game {} of {games}",
                            self.played
                        ));
                        self.tally.faults += 1;
                    }
                    return;
                }
                After::Lost => {
                    if g + 1 < games {
                        self.warn(&format!(
                            "the connection is lost: {} of {games} games not played",
                            games - g - 1
                        ));
                        self.tally.faults += 1;
                    }
                    return;
                }
            }
        }
    }

    /// Waits for the GAMEACC of request `n`: `Some(Ok(name))` when accepted, `Some(Err(()))`
    /// when this game is refused but another may be asked for, `None` when no more games can
    /// be played on this connection.
    fn await_acceptance(&mut self, conn: &mut Connection, n: usize) -> Option<Result<String, ()>> {
        let deadline = Instant::now() + self.timeout;
        loop {
            match conn.recv(deadline) {
                Ok(Message::GameAcc(GameAcc {
                    follower,
                    acceptance,
                })) => {
                    if acceptance == Acceptance::Accepted {
                        return Some(Ok(follower));
                    }
                    self.warn(&format!(
                        "game request {n}: {follower} {} (code {})",
                        acceptance.meaning(),
                        acceptance.digit()
                    ));
                    self.tally.faults += 1;
                    return match acceptance {
                        Acceptance::NotThisGame => Some(Err(())),
                        _ => None,
                    };
                }
                Ok(Message::Chat(text)) => self.chat_from("the follower", &text),
                Ok(Message::GameEnd(_)) => {}
                Ok(other) => {
                    self.warn(&format!(
                        "game request {n}: expected GAMEACC, got {}; closing the connection",
                        other.kind().name()
                    ));
                    self.tally.faults += 1;
                    return None;
                }
                Err(RecvError::Malformed { text, error }) => {
                    self.malformed(conn, &text, &error.to_string());
                    self.tally.faults += 1;
                    return None;
                }
                Err(e) => {
                    self.warn(&format!(
                        "game request {n}: no GAMEACC: {}",
                        recv_text(&e, self.timeout)
                    ));
                    self.tally.faults += 1;
                    return None;
                }
            }
        }
    }

    /// The follower: answers GAMEREQs and plays, until the initiator closes the connection
    /// (or stays silent for `--timeout` between games).
    fn follow(&mut self, conn: &mut Connection) {
        loop {
            let deadline = Instant::now() + self.timeout;
            match conn.recv(deadline) {
                Ok(Message::GameReq(req)) => {
                    let Some(spec) = self.accept(conn, &req) else {
                        continue;
                    };
                    if self.play(conn, &spec) == After::Lost {
                        return;
                    }
                }
                Ok(Message::Chat(text)) => self.chat_from("the initiator", &text),
                Ok(Message::BackReq { .. }) => {
                    let _ = conn.send(&Message::BackAcc(1));
                }
                // A GAMEEND between games (pydraughts says goodbye with one): nothing to end.
                Ok(Message::GameEnd(_)) => {}
                Ok(other) => {
                    let kind = other.kind().name();
                    self.warn(&format!("ignored a {kind} outside a game"));
                    let _ = conn.send(&Message::Chat(format!(
                        "{}: ignored a {kind} outside a game",
                        self.opts.name
                    )));
                }
                Err(RecvError::Malformed { text, error }) => {
                    self.malformed(conn, &text, &error.to_string());
                    self.tally.faults += 1;
                }
                Err(RecvError::Closed { partial: false }) => return,
                Err(RecvError::Timeout) => {
                    self.warn(&format!(
                        "no GAMEREQ within {:.0} s; closing the connection",
                        self.timeout.as_secs_f64()
                    ));
                    return;
                }
                Err(e) => {
                    self.warn(&format!("between games: {}", recv_text(&e, self.timeout)));
                    self.tally.faults += 1;
                    return;
                }
            }
        }
    }

    /// Answers a GAMEREQ: the game to play, or `None` after refusing it (and saying why).
    fn accept(&mut self, conn: &mut Connection, req: &GameReq) -> Option<GameSpec<G>> {
        let refuse = |session: &mut Self, conn: &mut Connection, code: Acceptance, why: String| {
            session.warn(&format!(
                "refused the GAMEREQ of {}: {why}",
                if req.initiator.is_empty() {
                    "the initiator"
                } else {
                    &req.initiator
                }
            ));
            session.tally.faults += 1;
            let name = session.opts.name.clone();
            let _ = conn.send(&Message::Chat(format!("{name} refuses the game: {why}")));
            let _ = conn.send(&Message::GameAcc(GameAcc {
                follower: name,
                acceptance: code,
            }));
            None
        };
        if req.version != VERSION {
            let why = format!("protocol version {:02}, not 01", req.version);
            return refuse(self, conn, Acceptance::WrongVersion, why);
        }
        let start = match &req.position {
            None => G::start(),
            Some(p) => match position_from_dxp::<G>(p) {
                Ok(pos) => pos,
                Err(e) => return refuse(self, conn, Acceptance::NotThisGame, e.to_string()),
            },
        };
        if let Some((_, why)) = rules_end(&GameRecord::<G>::new(start)) {
            let why = format!("the game is already over in this position ({why})");
            return refuse(self, conn, Acceptance::NotThisGame, why);
        }
        if let Err(e) = conn.send(&Message::GameAcc(GameAcc {
            follower: self.opts.name.clone(),
            acceptance: Acceptance::Accepted,
        })) {
            self.warn(&format!("cannot send GAMEACC: {e}"));
            self.tally.faults += 1;
            return None;
        }
        Some(GameSpec {
            start,
            ours: side(req.follower_colour),
            opponent: req.initiator.clone(),
            minutes: req.minutes,
            moves: req.moves,
            stop_after: false,
        })
    }

    /// Plays one game, writes it to the PDN file and says how it ended.
    fn play(&mut self, conn: &mut Connection, spec: &GameSpec<G>) -> After {
        self.played += 1;
        let number = self.played;
        self.searcher.clear();
        let (white, black) = match spec.ours {
            Side::White => (self.opts.name.clone(), spec.opponent.clone()),
            Side::Black => (spec.opponent.clone(), self.opts.name.clone()),
        };
        self.say(&format!(
            "game {number}: {white} - {black} ({} min, {} moves{})",
            spec.minutes,
            spec.moves,
            if spec.start == G::start() {
                String::new()
            } else {
                format!(", from {}", G::fen(&spec.start))
            }
        ));
        let mut game = GameState {
            record: GameRecord::new(spec.start),
            pdn_moves: Vec::new(),
            used: [Duration::ZERO; 2],
            budget: (spec.minutes > 0).then(|| Duration::from_secs(60 * u64::from(spec.minutes))),
        };
        let (ending, after) = self.game_loop(conn, spec, &mut game);
        if ending.fault {
            self.warn(&format!("game {number}: {}", ending.why));
            self.tally.faults += 1;
        }
        match ending.result {
            None => self.tally.unfinished += 1,
            Some(PdnResult::Draw) => self.tally.draws += 1,
            Some(r) if r == PdnResult::win_for(spec.ours) => self.tally.wins += 1,
            Some(_) => self.tally.losses += 1,
        }
        let result_text = ending.result.map_or("*", |r| pdn::result_text(G::NAME, r));
        let plies = game.record.moves().len();
        self.say(&format!(
            "game {number}: {white} - {black} {result_text} ({}, {plies} {})",
            ending.why,
            if plies == 1 { "ply" } else { "plies" }
        ));
        let fen = G::fen(&spec.start);
        let text = pdn::write_game(&PdnGame {
            event: "polydam dxp".into(),
            site: conn.peer().to_owned(),
            variant: G::NAME.to_owned(),
            round: number,
            date: pdn::today(),
            white,
            black,
            result: ending.result,
            fen: (fen != G::fen(&G::start())).then_some(fen),
            termination: ending.why,
            moves: game.pdn_moves,
            second_player_starts: G::side_to_move(&spec.start) != G::side_to_move(&G::start()),
        });
        if let Err(e) = self
            .pdn
            .write_all(text.as_bytes())
            .and_then(|_| self.pdn.flush())
        {
            self.warn(&format!(
                "cannot write game {number} to {}: {e}",
                self.opts.pdn.display()
            ));
            self.pdn_error.get_or_insert(e);
        }
        after
    }

    /// The moves of one game until it ends.
    fn game_loop(
        &mut self,
        conn: &mut Connection,
        spec: &GameSpec<G>,
        game: &mut GameState<G>,
    ) -> (Ending, After) {
        let mut turn_started = Instant::now();
        loop {
            let pos = *game.record.current();
            let mover = G::side_to_move(&pos);
            let over = rules_end(&game.record);
            if mover == spec.ours {
                if let Some((result, why)) = over {
                    let reason = reason_for(result, spec.ours);
                    let after = self.end_game(conn, reason, spec.stop_after);
                    return (Ending::rules((result, why)), after);
                }
                // The move limit: the side to move may end the game once each side has
                // played the GAMEREQ's number of moves.
                let limit = usize::from(spec.moves);
                if limit > 0 && game.record.moves().len() >= 2 * limit {
                    let after = self.end_game(conn, EndReason::Unspecified, spec.stop_after);
                    let why = format!("move limit of the game request ({limit} moves) reached");
                    return (
                        Ending {
                            result: None,
                            why,
                            fault: false,
                        },
                        after,
                    );
                }
                let limits = self.limits(spec, game, mover);
                let control = SearchControl::new();
                let found = self
                    .searcher
                    .search(&game.record, &limits, &control, &mut |_| {});
                let Some(mv) = found.best_move else {
                    // The rules said the game goes on; a search without a move is a bug, but
                    // the game still ends cleanly.
                    let after = self.end_game(conn, EndReason::Unspecified, spec.stop_after);
                    return (Ending::fault("the search found no move".into()), after);
                };
                let spent = turn_started.elapsed();
                let seconds = spent.as_secs_f64().round().min(9999.0) as u16;
                let message = match move_to_dxp::<G>(&pos, &mv, seconds) {
                    Ok(m) => Message::Move(m),
                    Err(e) => {
                        let after = self.end_game(conn, EndReason::Unspecified, spec.stop_after);
                        return (Ending::fault(e.to_string()), after);
                    }
                };
                if let Err(e) = conn.send(&message) {
                    let why = format!("the connection failed while sending our move: {e}");
                    return (Ending::fault(why), After::Lost);
                }
                game.used[mover.index()] += spent;
                game.pdn_moves.push(G::move_text(&pos, &mv, MoveStyle::Pdn));
                game.record.push(mv);
                turn_started = Instant::now();
                continue;
            }
            // The opponent's turn: its clock as we measure it, plus the grace of --timeout.
            let waited_from = Instant::now();
            let left = game.budget.map_or(Duration::ZERO, |b| {
                b.saturating_sub(game.used[mover.index()])
            });
            let deadline = waited_from + left + self.timeout;
            let message = loop {
                match conn.recv(deadline) {
                    Ok(Message::Chat(text)) => self.chat_from(&spec.opponent, &text),
                    Ok(Message::BackReq { .. }) => {
                        // Taking moves back is not supported: BACKACC 1.
                        if conn.send(&Message::BackAcc(1)).is_err() {
                            let why = "the connection failed".to_owned();
                            return (Ending::fault(why), After::Lost);
                        }
                    }
                    other => break other,
                }
            };
            game.used[mover.index()] += waited_from.elapsed();
            match message {
                Ok(Message::Move(m)) => {
                    if let Some((result, why)) = over {
                        // Our move ended the game by Polydam's rules and the opponent played
                        // on: the game ends where the rules ended it.
                        let reason = reason_for(result, spec.ours);
                        let after = self.end_game(conn, reason, spec.stop_after);
                        let why = format!("{why}; the opponent played on with {m}");
                        return (Ending::rules((result, why)), after);
                    }
                    match move_from_dxp::<G>(&pos, &m) {
                        Ok(mv) => {
                            game.pdn_moves.push(G::move_text(&pos, &mv, MoveStyle::Pdn));
                            game.record.push(mv);
                            turn_started = Instant::now();
                        }
                        Err(e) => {
                            let why = format!("{} sent an {e}", mover.name());
                            let _ = conn.send(&Message::Chat(format!("{}: {why}", self.opts.name)));
                            let after =
                                self.end_game(conn, EndReason::Unspecified, spec.stop_after);
                            return (Ending::fault(why), after);
                        }
                    }
                }
                Ok(Message::GameEnd(end)) => {
                    let after = match conn.send(&Message::GameEnd(GameEnd {
                        reason: EndReason::Unspecified,
                        stop: spec.stop_after,
                    })) {
                        Ok(()) if end.stop => After::OpponentStops,
                        Ok(()) => After::GoOn,
                        Err(_) => After::Lost,
                    };
                    let who = mover.name();
                    let ending = match (over, end.reason) {
                        (Some((result, why)), _) => Ending::rules((result, why)),
                        (None, EndReason::Resigns) => Ending::rules((
                            PdnResult::win_for(mover.opponent()),
                            format!("{who} resigns"),
                        )),
                        (None, EndReason::Draw) => Ending::rules((
                            PdnResult::Draw,
                            format!("{who} ended the game as a draw"),
                        )),
                        (None, reason) => Ending {
                            result: None,
                            why: format!(
                                "{who} ended the game ({}: GAMEEND reason {})",
                                reason.meaning(),
                                reason.digit()
                            ),
                            fault: false,
                        },
                    };
                    return (ending, after);
                }
                Ok(other) => {
                    let why = format!(
                        "{} sent a {} during the game instead of a MOVE",
                        mover.name(),
                        other.kind().name()
                    );
                    let _ = conn.send(&Message::Chat(format!("{}: {why}", self.opts.name)));
                    let after = self.end_game(conn, EndReason::Unspecified, spec.stop_after);
                    return (Ending::fault(why), after);
                }
                Err(RecvError::Malformed { text, error }) => {
                    let why = self.malformed(conn, &text, &error.to_string());
                    let after = self.end_game(conn, EndReason::Unspecified, spec.stop_after);
                    return (Ending::fault(why), after);
                }
                Err(RecvError::Timeout) => {
                    let why = format!(
                        "no move from {} within {:.1} s ({:.1} s of its clock and --timeout \
                         {:.1} s); game abandoned, connection closed",
                        mover.name(),
                        (left + self.timeout).as_secs_f64(),
                        left.as_secs_f64(),
                        self.timeout.as_secs_f64()
                    );
                    let _ = conn.send(&Message::GameEnd(GameEnd {
                        reason: EndReason::Unspecified,
                        stop: true,
                    }));
                    return (Ending::fault(why), After::Lost);
                }
                Err(e) => {
                    let why = format!(
                        "{} (after {} plies); game saved unfinished",
                        recv_text(&e, self.timeout),
                        game.record.moves().len()
                    );
                    return (Ending::fault(why), After::Lost);
                }
            }
        }
    }

    /// The search limits for our move: the options' limits and the clock of the game budget.
    fn limits(&self, spec: &GameSpec<G>, game: &GameState<G>, us: Side) -> Limits {
        let o = self.opts;
        let mut limits = Limits {
            depth: o.depth.map(Depth),
            nodes: o.nodes,
            move_time: o.movetime.map(|s| Duration::from_secs_f64(s.min(1e6))),
            ..Limits::default()
        };
        if let Some(budget) = game.budget {
            // Our moves so far: half the plies, the odd one ours when we moved first.
            let plies = game.record.moves().len();
            let first = G::side_to_move(&spec.start) == us;
            let ours = if first { plies.div_ceil(2) } else { plies / 2 };
            let played = ours.min(usize::from(u16::MAX)) as u16;
            let moves_to_go = (spec.moves > played).then(|| u32::from(spec.moves - played));
            limits.clock = Some(Clock {
                time: budget.saturating_sub(game.used[us.index()]),
                increment: Duration::ZERO,
                moves_to_go,
            });
        }
        if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.move_time.is_none()
            && limits.clock.is_none()
        {
            limits.move_time = Some(Duration::from_secs_f64(DEFAULT_MOVETIME));
        }
        limits
    }

    /// Sends our GAMEEND and waits for the opponent's (a MOVE that crossed it is dropped).
    fn end_game(&mut self, conn: &mut Connection, reason: EndReason, stop: bool) -> After {
        if conn
            .send(&Message::GameEnd(GameEnd { reason, stop }))
            .is_err()
        {
            return After::Lost;
        }
        let deadline = Instant::now() + self.timeout.min(CONFIRM_TIMEOUT);
        loop {
            match conn.recv(deadline) {
                Ok(Message::GameEnd(end)) => {
                    return if end.stop {
                        After::OpponentStops
                    } else {
                        After::GoOn
                    }
                }
                Ok(Message::Chat(text)) => self.chat_from("the opponent", &text),
                Ok(_) => {}
                Err(RecvError::Malformed { text, error }) => {
                    self.malformed(conn, &text, &error.to_string());
                }
                Err(RecvError::Timeout) => {
                    self.warn("the opponent did not confirm the end of the game (no GAMEEND)");
                    return After::GoOn;
                }
                Err(_) => return After::Lost,
            }
        }
    }

    /// Reports a malformed message and tells the opponent; returns the report.
    fn malformed(&mut self, conn: &mut Connection, text: &str, error: &str) -> String {
        let why = if text.is_empty() {
            format!("malformed message: {error}")
        } else {
            format!("malformed message '{}': {error}", excerpt(text))
        };
        self.warn(&why);
        // The error alone: with the message quoted it may not fit in one CHAT.
        let _ = conn.send(&Message::Chat(format!("{}: {error}", self.opts.name)));
        why
    }

    fn chat_from(&mut self, who: &str, text: &str) {
        let line = format!("chat from {who}: {}", text.trim_end());
        self.say(&line);
    }

    /// The summary line; an error when a game or a connection ended on a fault.
    fn finish(mut self) -> Result<(), CliError> {
        let t = &self.tally;
        let line = format!(
            "dxp: {} games: +{} ={} -{}, {} unfinished; pdn: {}",
            self.played,
            t.wins,
            t.draws,
            t.losses,
            t.unfinished,
            self.opts.pdn.display()
        );
        let faults = t.faults;
        self.say(&line);
        if let Some(e) = self.pdn_error {
            return Err(CliError(format!(
                "cannot write the PDN file {}: {e}",
                self.opts.pdn.display()
            )));
        }
        if faults > 0 {
            return Err(CliError(format!(
                "{faults} game(s), request(s) or connection(s) ended on a fault (reported above)"
            )));
        }
        Ok(())
    }
}

/// A game in progress.
struct GameState<G: Game> {
    record: GameRecord<G>,
    pdn_moves: Vec<String>,
    /// Time each side used, by [`Side::index`] (the opponent's as we measure it).
    used: [Duration; 2],
    /// The game budget per player, if the GAMEREQ gave one.
    budget: Option<Duration>,
}

/// Our GAMEEND reason for a result: we give up, see a draw, or see our win.
fn reason_for(result: PdnResult, ours: Side) -> EndReason {
    if result == PdnResult::Draw {
        EndReason::Draw
    } else if result == PdnResult::win_for(ours) {
        EndReason::Wins
    } else {
        EndReason::Resigns
    }
}

/// A receive error in words, the timeout included.
fn recv_text(e: &RecvError, timeout: Duration) -> String {
    match e {
        RecvError::Timeout => format!("no message within {:.1} s", timeout.as_secs_f64()),
        other => other.to_string(),
    }
}

/// At most 60 characters of `text`, control characters escaped.
fn excerpt(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(60)
        .flat_map(char::escape_default)
        .collect();
    if text.chars().count() > 60 {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follower_options_are_refused_without_initiator() {
        let opts = DxpOptions {
            listen: Some("0".into()),
            games: Some(3),
            ..DxpOptions::default()
        };
        let err = check_options(&opts).unwrap_err();
        assert!(err.0.starts_with("--games is for the initiator"), "{err}");
        let opts = DxpOptions {
            initiator: true,
            ..opts
        };
        assert_eq!(check_options(&opts), Ok(()));
        assert!(check_options(&DxpOptions::default()).is_err());
    }

    /// `DxpOptions::default()` gives clap's defaults.
    #[test]
    fn default_is_what_the_command_line_gives() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            opts: DxpOptions,
        }
        let parsed = <Cli as clap::Parser>::try_parse_from(["dxp"]).unwrap().opts;
        assert_eq!(
            format!("{parsed:?}"),
            format!("{:?}", DxpOptions::default())
        );
    }

    #[test]
    fn listen_addresses() {
        assert_eq!(
            listen_addrs("27531").unwrap(),
            ["127.0.0.1:27531".parse::<SocketAddr>().unwrap()]
        );
        assert_eq!(
            listen_addrs("0.0.0.0:0").unwrap(),
            ["0.0.0.0:0".parse::<SocketAddr>().unwrap()]
        );
        assert!(listen_addrs("nonsense").is_err());
    }

    #[test]
    fn reasons_from_our_side() {
        assert_eq!(reason_for(PdnResult::Draw, Side::White), EndReason::Draw);
        assert_eq!(
            reason_for(PdnResult::WhiteWins, Side::White),
            EndReason::Wins
        );
        assert_eq!(
            reason_for(PdnResult::WhiteWins, Side::Black),
            EndReason::Resigns
        );
    }
}
