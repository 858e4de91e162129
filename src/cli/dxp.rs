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
//! This file is the front end: the options, the sockets, the lines on stdout and stderr and
//! the PDN file. The session that plays is `polydam_protocol::dxp::session`, the wire
//! `polydam_protocol::dxp`; the protocol and these choices: `docs/dxp.md`.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use polydam_engine::game::Game;
use polydam_engine::record::GameRecord;
use polydam_engine::search::{Depth, Limits, Searcher};
use polydam_engine::text::printable;
use polydam_engine::variants::{dispatch, GameVisitor};
use polydam_protocol::dxp::conn::Connection;
use polydam_protocol::dxp::game::check_variant;
use polydam_protocol::dxp::session::{
    board, Decision, DxpBoard, DxpSession, PlayedGame, Report, Requests, Settings, Tally,
};

use super::book::BookArgs;
use super::tables::TablesArgs;
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
    /// The endgame tables.
    #[command(flatten)]
    pub tables: TablesArgs,
    /// The opening book (`--opening-book`: `--book` is the initiator's start positions).
    #[command(flatten)]
    pub opening_book: BookArgs,
    /// Seconds the opponent may take beyond its clock (or per answer when there is no clock)
    /// before the game is ended, and that a follower's connection may go without a GAMEREQ
    /// (from its start or the last game's end; other messages do not extend it).
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Seconds a game may last before it is abandoned and its connection closed, so that no
    /// opponent holds the program forever [default: twice the game's budget per player plus
    /// 600, or 3600 without a clock].
    #[arg(long, value_name = "SECS")]
    pub game_limit: Option<f64>,
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
            tables: TablesArgs::default(),
            opening_book: BookArgs::default(),
            timeout: 60.0,
            game_limit: None,
            pdn: "polydam-dxp.pdn".into(),
            connections: None,
        }
    }
}

/// Games per connection of an initiator when `--games` is not given.
const DEFAULT_GAMES: usize = 2;
/// Minutes per player announced by an initiator when `--time` is not given.
const DEFAULT_MINUTES: u16 = 5;
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
    if let Some(limit) = opts
        .game_limit
        .filter(|&s| !(s.is_finite() && s > 0.0 && s <= 1e7))
    {
        return Err(CliError(format!(
            "--game-limit must be a number of seconds above 0, up to 10000000, not {limit}"
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
        let pdn = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&o.pdn)
            .map_err(|e| CliError(format!("cannot open {}: {e}", o.pdn.display())))?;
        let mut searcher = Searcher::<G>::try_new(o.hash_mib, o.threads)?;
        searcher.set_tables(o.tables.open::<G>());
        play_session(
            o,
            self.out,
            pdn,
            board::<G>(searcher, openings, o.opening_book.open::<G>()?),
        )
    }
}

/// Plays the session with `board` (the variant's game, searcher and start positions), the
/// games appended to `pdn`; not generic in the game, so that it is compiled once.
fn play_session(
    o: &DxpOptions,
    out: &mut dyn Write,
    pdn: File,
    board: Box<dyn DxpBoard>,
) -> Result<(), CliError> {
    let settings = Settings {
        name: o.name.clone(),
        timeout: Duration::from_secs_f64(o.timeout),
        game_limit: o.game_limit.map(Duration::from_secs_f64),
        limits: Limits {
            depth: o.depth.map(Depth),
            nodes: o.nodes,
            move_time: o.movetime.map(|s| Duration::from_secs_f64(s.min(1e6))),
            ..Limits::default()
        },
        initiator: o.initiator.then(|| Requests {
            games: o.games.unwrap_or(DEFAULT_GAMES),
            minutes: o.time.unwrap_or(DEFAULT_MINUTES),
            moves: o.moves.unwrap_or(0),
        }),
    };
    let mut front = Front {
        opts: o,
        out,
        pdn,
        pdn_error: None,
    };
    let mut session = DxpSession::new(settings, board, &mut front);
    let done = run(o, &mut session);
    let (played, tally) = (session.played(), session.tally());
    done?;
    front.finish(played, tally)
}

/// The start positions of an initiator's games: the book's openings played out, the `--fen`
/// position, or the variant's start.
fn starts<G: Game>(o: &DxpOptions) -> Result<Vec<G::Position>, CliError> {
    if let Some(path) = &o.book {
        let book = read_book::<G>(path)?;
        let mut starts = Vec::with_capacity(book.len());
        for opening in &book {
            let mut pos = opening.start;
            for mv in &opening.moves {
                pos = G::play(&pos, mv);
            }
            starts.push(pos);
        }
        return Ok(starts);
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

/// Where the session's lines and games go: stdout, stderr and the PDN file.
struct Front<'a> {
    opts: &'a DxpOptions,
    out: &'a mut dyn Write,
    pdn: File,
    pdn_error: Option<std::io::Error>,
}

impl Report for Front<'_> {
    /// A line on stdout (a closed stdout does not stop the games). Its control characters are
    /// escaped: names and CHATs come from the peer, which may send escape sequences.
    fn say(&mut self, line: &str) {
        let line = printable(line);
        let _ = writeln!(self.out, "{line}").and_then(|_| self.out.flush());
    }

    /// A report of a problem on stderr, control characters escaped as on stdout.
    fn warn(&mut self, line: &str) {
        eprintln!("polydam dxp: {}", printable(line));
    }

    /// The game's last line on stdout, and the game appended to the PDN file.
    fn game(&mut self, game: &PlayedGame<'_>) {
        let number = game.number;
        let result = game.decision.map(|d| match d {
            Decision::Win(side) => PdnResult::win_for(side),
            Decision::Draw => PdnResult::Draw,
        });
        let facts = &game.facts;
        let result_text = result.map_or("*", |r| pdn::result_text(facts.variant, r));
        let plies = facts.plies;
        let line = format!(
            "game {number}: {} - {} {result_text} ({}, {plies} {})",
            game.white,
            game.black,
            game.why,
            if plies == 1 { "ply" } else { "plies" }
        );
        Report::say(self, &line);
        let text = pdn::write_game(&PdnGame {
            event: "polydam dxp".into(),
            site: game.peer.to_owned(),
            variant: facts.variant.to_owned(),
            round: number,
            date: pdn::today(),
            white: game.white.to_owned(),
            black: game.black.to_owned(),
            result,
            fen: facts.start_fen.clone(),
            termination: game.why.to_owned(),
            moves: game.moves.to_vec(),
            second_player_starts: facts.second_player_starts,
        });
        if let Err(e) = self
            .pdn
            .write_all(text.as_bytes())
            .and_then(|_| self.pdn.flush())
        {
            let line = format!(
                "cannot write game {number} to {}: {e}",
                self.opts.pdn.display()
            );
            Report::warn(self, &line);
            self.pdn_error.get_or_insert(e);
        }
    }
}

impl Front<'_> {
    /// The summary line; an error when a game or a connection ended on a fault.
    fn finish(self, played: usize, t: Tally) -> Result<(), CliError> {
        let line = format!(
            "dxp: {played} games: +{} ={} -{}, {} unfinished; pdn: {}",
            t.wins,
            t.draws,
            t.losses,
            t.unfinished,
            self.opts.pdn.display()
        );
        let _ = writeln!(self.out, "{line}").and_then(|_| self.out.flush());
        if let Some(e) = self.pdn_error {
            return Err(CliError(format!(
                "cannot write the PDN file {}: {e}",
                self.opts.pdn.display()
            )));
        }
        if t.faults > 0 {
            return Err(CliError(format!(
                "{} game(s), request(s) or connection(s) ended on a fault (reported above)",
                t.faults
            )));
        }
        Ok(())
    }
}

/// Listens or connects, then lets the session serve each connection in its role.
fn run(o: &DxpOptions, session: &mut DxpSession<'_>) -> Result<(), CliError> {
    let timeout = Duration::from_secs_f64(o.timeout);
    if let Some(text) = &o.connect {
        let addrs = resolve(text, "--connect")?;
        let mut conn = connect_with_patience(&addrs, timeout)
            .map_err(|e| CliError(format!("--connect {text}: {e}")))?;
        session.say(&format!("connected to {}", conn.peer()));
        session.serve(&mut conn);
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
    session.say(&format!("listening on {local}"));
    let limit = o
        .connections
        .unwrap_or(if o.initiator { 1 } else { usize::MAX });
    let mut served = 0;
    while served < limit {
        let (stream, peer) = match listener.accept() {
            Ok(x) => x,
            Err(e) => {
                session.warn(&format!("cannot accept a connection: {e}"));
                session.count_fault();
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        served += 1;
        session.say(&format!("connection from {peer}"));
        let mut conn = Connection::new(stream);
        session.serve(&mut conn);
        conn.close();
        session.say(&format!("connection from {peer} closed"));
    }
    Ok(())
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
}
