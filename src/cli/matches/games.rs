//! The games of a match: who plays whom with which opening (the schedule), the engines' names,
//! and the worker threads that play the games, each worker with its own engine processes.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use polydam_engine::game::{Game, Side};

use super::player::Player;
use super::referee::{self, GameEnd};
use super::settings::{EngineSpec, RefereeConfig};
use crate::cli::CliError;
use crate::openings::Opening;
use crate::pdn::PdnResult;

/// One game to play.
#[derive(Clone, Copy, Debug)]
pub(super) struct Job {
    /// Game number from 1.
    pub number: usize,
    /// Engine playing White (an index into the specs).
    pub white: usize,
    /// Engine playing Black.
    pub black: usize,
    /// The first engine of the pair (results are counted from its side).
    pub first: usize,
    /// Index of the opening.
    pub opening: usize,
}

/// A finished game.
#[derive(Clone, Debug)]
pub(super) struct Finished {
    /// The game that was played.
    pub job: Job,
    /// Its result.
    pub result: PdnResult,
    /// How it ended, as the PDN `Termination` tag says it.
    pub termination: String,
    /// The engine that forfeited and why.
    pub forfeit: Option<(usize, String)>,
    /// The moves in PDN notation.
    pub pdn_moves: Vec<String>,
    /// With a clock: the smallest time left when a move arrived, in seconds, and the engine.
    pub worst_margin: Option<(f64, usize)>,
    /// Seconds White and Black spent on their moves.
    pub used: [f64; 2],
    /// Plies the engines played after the opening.
    pub engine_plies: usize,
    /// When a first attempt was lost by a crash before any move and the game played again:
    /// the engine that failed then and why.
    pub replayed: Option<(usize, String)>,
}

impl Finished {
    /// Points of the pair's first engine: 1, 1/2 or 0.
    pub fn first_points(&self) -> f64 {
        let white_points = match self.result {
            PdnResult::WhiteWins => 1.0,
            PdnResult::Draw => 0.5,
            PdnResult::BlackWins => 0.0,
        };
        if self.job.white == self.job.first {
            white_points
        } else {
            1.0 - white_points
        }
    }

    /// Whether the game was lost on time.
    pub fn lost_on_time(&self) -> bool {
        self.forfeit
            .as_ref()
            .is_some_and(|(_, why)| referee::is_time_forfeit(why))
    }

    /// The other engine of the pair.
    pub fn second(&self) -> usize {
        if self.job.white == self.job.first {
            self.job.black
        } else {
            self.job.white
        }
    }
}

/// Every game of the match: each pair of engines plays `games` games, the first engine of the
/// pair White in the even ones, each opening twice in a row (colours swapped), the openings in
/// turn. With `skip` > 0 (two engines), the games `skip + 1 ..= skip + games` of a longer
/// match, with their numbers, colours and openings there.
pub(super) fn schedule(engines: usize, games: usize, openings: usize, skip: usize) -> Vec<Job> {
    let mut jobs = Vec::new();
    for a in 0..engines {
        for b in a + 1..engines {
            for g in skip..skip + games {
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                jobs.push(Job {
                    number: skip + jobs.len() + 1,
                    white,
                    black,
                    first: a,
                    opening: (g / 2) % openings,
                });
            }
        }
    }
    jobs
}

/// Starts every engine once (a command that does not run is an error, not a forfeit) and
/// returns their names: `--name`'s, or the engine's `id name=`, numbered when two are alike.
pub(super) fn start_engines(
    specs: &[EngineSpec],
    variant: &str,
    timeout: Duration,
) -> Result<Vec<String>, CliError> {
    let mut names = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let engine = Player::start(spec, variant, timeout)
            .map_err(|e| CliError(format!("engine {}: {e}", i + 1)))?;
        names.push(
            spec.name
                .clone()
                .unwrap_or_else(|| engine.id_name().to_owned()),
        );
    }
    Ok(distinct_names(names))
}

/// Engines with the same name are told apart by their number (`Polydam #1`, `Polydam #2`).
fn distinct_names(mut names: Vec<String>) -> Vec<String> {
    for i in 0..names.len() {
        if names.iter().filter(|n| **n == names[i]).count() > 1 {
            let numbered: Vec<String> = names
                .iter()
                .enumerate()
                .map(|(j, n)| {
                    if *n == names[i] {
                        format!("{n} #{}", j + 1)
                    } else {
                        n.clone()
                    }
                })
                .collect();
            names = numbered;
        }
    }
    names
}

/// Referees one game from the opening of this index between the engines given for White and
/// Black ([`referee::play_game`] on the variant's openings).
pub(super) type Referee<'a> = dyn Fn(usize, [&mut Player; 2]) -> GameEnd + Sync + 'a;

/// What the workers share: the engines to run, the referee and its settings. Not generic in
/// the game, so that the workers' threads are compiled once.
pub(super) struct Setup<'a> {
    /// The variant's name.
    pub variant: &'static str,
    /// The engines.
    pub specs: &'a [EngineSpec],
    /// The referee of one game.
    pub referee: &'a Referee<'a>,
    /// The time each handshake answer may take when an engine is (re)started.
    pub timeout: Duration,
}

/// The referee of the games from `openings` with the settings `config`.
pub(super) fn referee<'a, G: Game>(
    openings: &'a [Opening<G>],
    config: &'a RefereeConfig,
) -> impl Fn(usize, [&mut Player; 2]) -> GameEnd + Sync + 'a {
    move |opening, players| referee::play_game::<G>(&openings[opening], players, config)
}

/// Plays every job on `concurrency` worker threads (at most one per job); `on_finished` sees
/// each game as it ends, in the order the games end.
pub(super) fn play_all(
    setup: &Setup<'_>,
    jobs: &[Job],
    concurrency: usize,
    on_finished: &mut dyn FnMut(Finished),
) {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Finished>();
    let workers = concurrency.clamp(1, jobs.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || work(setup, jobs, next, &tx));
        }
        drop(tx);
        for done in rx {
            on_finished(done);
        }
    });
}

/// One worker: takes the next job until none is left (or nobody listens), with its own
/// engines, started when first needed.
fn work(setup: &Setup<'_>, jobs: &[Job], next: &AtomicUsize, tx: &mpsc::Sender<Finished>) {
    let mut engines: Vec<Option<Player>> = (0..setup.specs.len()).map(|_| None).collect();
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&job) = jobs.get(i) else { break };
        let done = play_game(setup, job, &mut engines);
        if tx.send(done).is_err() {
            break;
        }
    }
}

/// Starts the engine `index` for a worker, or says why it cannot.
fn ensure_started<'e>(
    engines: &'e mut [Option<Player>],
    specs: &[EngineSpec],
    index: usize,
    variant: &str,
    timeout: Duration,
) -> Result<&'e mut Player, String> {
    if engines[index].is_none() {
        engines[index] = Some(Player::start(&specs[index], variant, timeout)?);
    }
    engines[index]
        .as_mut()
        .ok_or_else(|| "engine not running".to_owned())
}

/// Plays one job with a worker's engines. An engine that cannot be started forfeits; one that
/// crashed or was killed is dropped, to be restarted for its next game. A game lost by a crash
/// before any engine moved (a start-up failure, not play: a DXP server resetting its first
/// connection) is played once more with the engine restarted, and the replay is reported.
fn play_game(setup: &Setup<'_>, job: Job, engines: &mut [Option<Player>]) -> Finished {
    let first = play_once(setup, job, engines);
    match &first.forfeit {
        Some((who, why)) if first.engine_plies == 0 && is_start_failure(why) => {
            let replayed = (*who, why.clone());
            let mut again = play_once(setup, job, engines);
            again.replayed = Some(replayed);
            again
        }
        _ => first,
    }
}

/// Whether a forfeit's reason is a failure to start or a crash (not a move, a refusal or the
/// clock): worth one more try when it came before the first move.
fn is_start_failure(why: &str) -> bool {
    why.starts_with("crashed") || why.starts_with("could not be started")
}

/// [`play_game`]'s one attempt.
fn play_once(setup: &Setup<'_>, job: Job, engines: &mut [Option<Player>]) -> Finished {
    for (side, who) in [(Side::White, job.white), (Side::Black, job.black)] {
        if let Err(why) = ensure_started(engines, setup.specs, who, setup.variant, setup.timeout) {
            return forfeited(job, side, format!("could not be started ({why})"));
        }
    }
    // Two distinct slots: take both out, play, put them back.
    let (Some(mut white), Some(mut black)) = (engines[job.white].take(), engines[job.black].take())
    else {
        return forfeited(job, Side::White, "engine not running".into());
    };
    let end = (setup.referee)(job.opening, [&mut white, &mut black]);
    if !end.restart[Side::White.index()] {
        engines[job.white] = Some(white);
    }
    if !end.restart[Side::Black.index()] {
        engines[job.black] = Some(black);
    }
    let forfeit = end.forfeit.map(|(side, why)| (player(job, side), why));
    Finished {
        job,
        result: end.result,
        termination: end.termination,
        forfeit,
        pdn_moves: end.pdn_moves,
        worst_margin: end.worst_margin.map(|(m, side)| (m, player(job, side))),
        used: end.used,
        engine_plies: end.engine_plies,
        replayed: None,
    }
}

/// The engine playing `side` in `job`.
fn player(job: Job, side: Side) -> usize {
    match side {
        Side::White => job.white,
        Side::Black => job.black,
    }
}

/// A game lost before its first move: `side` forfeits for `why`.
fn forfeited(job: Job, side: Side, why: String) -> Finished {
    Finished {
        job,
        result: match side {
            Side::White => PdnResult::BlackWins,
            Side::Black => PdnResult::WhiteWins,
        },
        termination: format!("{} forfeits: {why}", side.name()),
        forfeit: Some((player(job, side), why)),
        pdn_moves: Vec::new(),
        worst_margin: None,
        used: [0.0; 2],
        engine_plies: 0,
        replayed: None,
    }
}
