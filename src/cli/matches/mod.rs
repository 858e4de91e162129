//! `polydam match`: games between Hub engines, refereed with Polydam's rules.
//!
//! Every pair of engines (a round robin when there are more than two) plays `games` games,
//! each opening twice with colours swapped. Worker threads (`concurrency`) each run their own
//! engine processes; results come back through a channel and are reported in game order. An
//! illegal move, a crash, a bare `done` or a late answer loses the game, is reported, and the
//! match goes on (a crashed or killed engine is restarted for the next game).
//!
//! See `docs/match.md` for the options, the book format and the output.

pub mod engine;
pub mod openings;
mod options;
pub mod pdn;
pub mod referee;
pub mod stats;

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use polydam_engine::game::{Game, Side};
use polydam_engine::variants::{dispatch, GameVisitor};

use self::engine::{EngineSpec, HubEngine};
use self::pdn::{PdnGame, PdnResult};
use self::referee::{Opening, RefereeConfig, TimeControl};
use self::stats::{Sample, Verdict};
use super::CliError;
pub use options::MatchOptions;
use options::{engine_specs, handshake_timeout, referee_config, sprt_settings};

/// One game to play.
#[derive(Clone, Copy, Debug)]
struct Job {
    /// Game number from 1.
    number: usize,
    /// Engine playing White, and Black (indices into the specs).
    white: usize,
    black: usize,
    /// The first engine of the pair (results are counted from its side).
    first: usize,
    /// Index of the opening.
    opening: usize,
}

/// A finished game.
#[derive(Clone, Debug)]
struct Finished {
    job: Job,
    result: PdnResult,
    termination: String,
    /// The engine that forfeited and why.
    forfeit: Option<(usize, String)>,
    pdn_moves: Vec<String>,
}

impl Finished {
    /// Points of the pair's first engine: 1, 1/2 or 0.
    fn first_points(&self) -> f64 {
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
}

struct MatchJob<'a, W: Write> {
    opts: &'a MatchOptions,
    specs: Vec<EngineSpec>,
    config: RefereeConfig,
    sprt: Option<(f64, f64)>,
    out: &'a mut W,
}

/// Starts the engine `index` for a worker, or says why it cannot.
fn ensure_started<'e>(
    engines: &'e mut [Option<HubEngine>],
    specs: &[EngineSpec],
    index: usize,
    variant: &str,
    timeout: Duration,
) -> Result<&'e mut HubEngine, String> {
    if engines[index].is_none() {
        engines[index] = Some(HubEngine::start(&specs[index], variant, timeout)?);
    }
    engines[index]
        .as_mut()
        .ok_or_else(|| "engine not running".to_owned())
}

/// Plays one job with a worker's engines.
fn play_job<G: Game>(
    job: Job,
    openings: &[Opening<G>],
    engines: &mut [Option<HubEngine>],
    specs: &[EngineSpec],
    config: &RefereeConfig,
    timeout: Duration,
) -> Finished {
    let lost = |side: Side, who: usize, why: String| Finished {
        job,
        result: match side {
            Side::White => PdnResult::BlackWins,
            Side::Black => PdnResult::WhiteWins,
        },
        termination: format!("{} forfeits: {why}", side.name()),
        forfeit: Some((who, why)),
        pdn_moves: Vec::new(),
    };
    for (side, who) in [(Side::White, job.white), (Side::Black, job.black)] {
        if let Err(why) = ensure_started(engines, specs, who, G::NAME, timeout) {
            return lost(side, who, format!("could not be started ({why})"));
        }
    }
    // Two distinct slots: take both out, play, put them back.
    let (Some(mut white), Some(mut black)) = (engines[job.white].take(), engines[job.black].take())
    else {
        return lost(Side::White, job.white, "engine not running".into());
    };
    let end = referee::play_game::<G>(&openings[job.opening], [&mut white, &mut black], config);
    if !end.restart[Side::White.index()] {
        engines[job.white] = Some(white);
    }
    if !end.restart[Side::Black.index()] {
        engines[job.black] = Some(black);
    }
    let forfeit = end.forfeit.map(|(side, why)| {
        let who = if side == Side::White {
            job.white
        } else {
            job.black
        };
        (who, why)
    });
    Finished {
        job,
        result: end.result,
        termination: end.termination,
        forfeit,
        pdn_moves: end.pdn_moves,
    }
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_owned()
    } else {
        format!("{x:+.1}")
    }
}

fn elo_line(sample: &Sample, model: &str) -> String {
    let (e, lo, hi) = sample.elo_interval();
    format!(
        "Elo {} [{}, {}] (95%, {model}, n={})",
        signed(e),
        signed(lo),
        signed(hi),
        sample.n
    )
}

impl<W: Write> GameVisitor for MatchJob<'_, W> {
    type Output = Result<(), CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let o = self.opts;
        let io = |e: std::io::Error| CliError(format!("cannot write output: {e}"));
        let openings = openings::load::<G>(o)?;
        let timeout = handshake_timeout(o)?;

        // Start every engine once: a command that does not run is an error, not a forfeit.
        let mut names = Vec::new();
        for (i, spec) in self.specs.iter().enumerate() {
            let engine = HubEngine::start(spec, G::NAME, timeout)
                .map_err(|e| CliError(format!("engine {}: {e}", i + 1)))?;
            names.push(spec.name.clone().unwrap_or_else(|| engine.id_name.clone()));
        }
        // Engines with the same name are told apart by their number.
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

        let mut jobs = Vec::new();
        for a in 0..self.specs.len() {
            for b in a + 1..self.specs.len() {
                for g in 0..o.games {
                    let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                    jobs.push(Job {
                        number: jobs.len() + 1,
                        white,
                        black,
                        first: a,
                        opening: (g / 2) % openings.len(),
                    });
                }
            }
        }
        let total = jobs.len();
        let show_bar = !o.quiet && std::io::stderr().is_terminal();
        let bar = if show_bar {
            let bar =
                ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games, {elapsed_precise} (eta {eta}) {msg}",
            ) {
                bar.set_style(style);
            }
            bar
        } else {
            ProgressBar::hidden()
        };

        let mut pdn_file = match &o.pdn {
            Some(path) => Some(std::io::BufWriter::new(
                std::fs::File::create(path)
                    .map_err(|e| CliError(format!("cannot create {}: {e}", path.display())))?,
            )),
            None => None,
        };
        let date = pdn::today();
        let start_fen = G::fen(&G::start());
        let second_player_starts =
            |opening: &Opening<G>| G::side_to_move(&opening.start) != G::side_to_move(&G::start());

        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel::<Finished>();
        let workers = o.concurrency.clamp(1, total.max(1));
        let mut finished: BTreeMap<usize, Finished> = BTreeMap::new();
        let mut wins = vec![0.0f64; self.specs.len()];
        let mut written = 0usize;
        let mut pdn_error = None;
        std::thread::scope(|scope| {
            for _ in 0..workers {
                let tx = tx.clone();
                let (jobs, openings, specs, config, next) =
                    (&jobs, &openings, &self.specs, &self.config, &next);
                scope.spawn(move || {
                    let mut engines: Vec<Option<HubEngine>> =
                        (0..specs.len()).map(|_| None).collect();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&job) = jobs.get(i) else { break };
                        let done =
                            play_job::<G>(job, openings, &mut engines, specs, config, timeout);
                        if tx.send(done).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            for done in rx {
                let n = done.job.number;
                let result = pdn::result_text(G::NAME, done.result);
                let line = format!(
                    "game {n}/{total}: {} - {} {result} ({})",
                    names[done.job.white], names[done.job.black], done.termination
                );
                if show_bar {
                    bar.inc(1);
                    if let Some((who, why)) = &done.forfeit {
                        bar.println(format!("game {n}: {} forfeits: {why}", names[*who]));
                    }
                } else {
                    eprintln!("{line}");
                }
                let points = done.first_points();
                wins[done.job.first] += points;
                let second = if done.job.white == done.job.first {
                    done.job.black
                } else {
                    done.job.white
                };
                wins[second] += 1.0 - points;
                finished.insert(n, done);
                // Write the PDN in game order as soon as the games before are in.
                while let Some(game) = finished.get(&(written + 1)) {
                    written += 1;
                    if let (Some(file), None) = (pdn_file.as_mut(), pdn_error.as_ref()) {
                        let opening = &openings[game.job.opening];
                        let fen = G::fen(&opening.start);
                        let text = pdn::write_game(&PdnGame {
                            variant: G::NAME.to_owned(),
                            round: game.job.number,
                            date: date.clone(),
                            white: names[game.job.white].clone(),
                            black: names[game.job.black].clone(),
                            result: game.result,
                            fen: (fen != start_fen).then_some(fen),
                            termination: game.termination.clone(),
                            moves: game.pdn_moves.clone(),
                            second_player_starts: second_player_starts(opening),
                        });
                        if let Err(e) = file.write_all(text.as_bytes()).and_then(|_| file.flush()) {
                            pdn_error = Some(e);
                        }
                    }
                }
            }
        });
        bar.finish_and_clear();
        if let Some(e) = pdn_error {
            return Err(CliError(format!("cannot write the PDN file: {e}")));
        }

        // The report.
        let mut report = String::new();
        let tc = match self.config.time_control {
            Some(TimeControl::MoveTime(s)) => format!("{s} s per move"),
            Some(TimeControl::Clock { time, inc }) => format!("{time} s + {inc} s per move"),
            None => "no clock".to_owned(),
        };
        let depth = self
            .config
            .depth
            .map(|d| format!(", depth {d}"))
            .unwrap_or_default();
        report.push_str(&format!(
            "match: {}, {} engines, {total} games, {tc}{depth}\n",
            G::NAME,
            names.len()
        ));
        for (i, name) in names.iter().enumerate() {
            report.push_str(&format!(
                "engine {}: {name} ({}), {} / {} points\n",
                i + 1,
                self.specs[i].command.join(" "),
                wins[i],
                o.games * (names.len() - 1)
            ));
        }
        for a in 0..names.len() {
            for b in a + 1..names.len() {
                let games: Vec<&Finished> = finished
                    .values()
                    .filter(|f| f.job.first == a && (f.job.white == b || f.job.black == b))
                    .collect();
                let (mut w, mut d, mut l) = (0u64, 0u64, 0u64);
                for g in &games {
                    match g.first_points() {
                        p if p > 0.75 => w += 1,
                        p if p > 0.25 => d += 1,
                        _ => l += 1,
                    }
                }
                let points = w as f64 + d as f64 / 2.0;
                let n = games.len().max(1) as f64;
                report.push_str(&format!(
                    "{} vs {}: +{w} ={d} -{l}, score {points}/{} ({:.1}%)\n",
                    names[a],
                    names[b],
                    games.len(),
                    100.0 * points / n
                ));
                let trinomial = Sample::trinomial(w, d, l);
                if let Some(s) = &trinomial {
                    report.push_str(&format!("  {}\n", elo_line(s, "trinomial")));
                }
                let mut pentanomial = [0u64; 5];
                for pair in games.chunks_exact(2) {
                    let twice = 2.0 * (pair[0].first_points() + pair[1].first_points());
                    pentanomial[(twice.round() as usize).min(4)] += 1;
                }
                let penta = Sample::pentanomial(pentanomial);
                if let Some(s) = &penta {
                    report.push_str(&format!(
                        "  {}, pairs scoring 0/0.5/1/1.5/2: {:?}\n",
                        elo_line(s, "pentanomial over game pairs"),
                        pentanomial
                    ));
                }
                if let Some((elo0, elo1)) = self.sprt {
                    let (sample, model) = match (&penta, &trinomial) {
                        (Some(p), _) => (Some(p), "pentanomial"),
                        (None, t) => (t.as_ref(), "trinomial"),
                    };
                    let verdict = sample
                        .and_then(|s| stats::sprt(s, elo0, elo1, o.alpha, o.beta))
                        .map(|r| {
                            let v = match r.verdict {
                                Verdict::H1 => "H1 accepted",
                                Verdict::H0 => "H0 accepted",
                                Verdict::Continue => "continue",
                            };
                            format!(
                                "LLR {:.2} (bounds {:.2}, {:.2}), {v}",
                                r.llr, r.lower, r.upper
                            )
                        })
                        .unwrap_or_else(|| "LLR undefined (no variance yet), continue".into());
                    report.push_str(&format!(
                        "  SPRT elo0 {elo0} elo1 {elo1} alpha {} beta {} ({model}): {verdict}\n",
                        o.alpha, o.beta
                    ));
                }
            }
        }
        let forfeits: Vec<&Finished> = finished.values().filter(|f| f.forfeit.is_some()).collect();
        report.push_str(&format!("forfeits: {}\n", forfeits.len()));
        for f in forfeits {
            if let Some((who, why)) = &f.forfeit {
                report.push_str(&format!(
                    "  game {}: {} loses: {why}\n",
                    f.job.number, names[*who]
                ));
            }
        }
        let mut endings: BTreeMap<String, usize> = BTreeMap::new();
        for f in finished.values() {
            let kind = if f.forfeit.is_some() {
                "forfeit".to_owned()
            } else {
                f.termination.clone()
            };
            *endings.entry(kind).or_default() += 1;
        }
        report.push_str("endings:");
        for (kind, n) in endings {
            report.push_str(&format!(" {kind} {n};"));
        }
        report.push('\n');
        if let Some(path) = &o.pdn {
            report.push_str(&format!(
                "pdn: {} games written to {}\n",
                written,
                path.display()
            ));
        }
        self.out.write_all(report.as_bytes()).map_err(io)?;
        self.out.flush().map_err(io)
    }
}

/// Runs `polydam match`, writing the report to `out` (the progress goes to stderr).
pub fn run_match<W: Write>(opts: &MatchOptions, out: &mut W) -> Result<(), CliError> {
    let specs = engine_specs(opts)?;
    let config = referee_config(opts)?;
    let sprt = sprt_settings(opts)?;
    if opts.games == 0 {
        return Err(CliError("--games must be at least 1".into()));
    }
    if opts.concurrency == 0 {
        return Err(CliError("--concurrency must be at least 1".into()));
    }
    dispatch(
        &opts.variant,
        MatchJob {
            opts,
            specs,
            config,
            sprt,
            out,
        },
    )?
}
