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
mod games;
pub mod openings;
mod options;
pub mod pdn;
pub mod referee;
pub mod stats;

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use polydam_engine::game::Game;
use polydam_engine::variants::{dispatch, GameVisitor};

use self::engine::EngineSpec;
use self::games::Finished;
use self::pdn::PdnGame;
use self::referee::{Opening, RefereeConfig, TimeControl};
use self::stats::{Sample, Verdict};
use super::CliError;
pub use options::MatchOptions;
use options::{engine_specs, handshake_timeout, referee_config, sprt_settings};

struct MatchJob<'a, W: Write> {
    opts: &'a MatchOptions,
    specs: Vec<EngineSpec>,
    config: RefereeConfig,
    sprt: Option<(f64, f64)>,
    out: &'a mut W,
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

        let names = games::start_engines::<G>(&self.specs, timeout)?;
        let jobs = games::schedule(self.specs.len(), o.games, openings.len());
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

        let mut finished: BTreeMap<usize, Finished> = BTreeMap::new();
        let mut wins = vec![0.0f64; self.specs.len()];
        let mut written = 0usize;
        let mut pdn_error = None;
        let setup = games::Setup {
            specs: &self.specs,
            config: &self.config,
            openings: &openings,
            timeout,
        };
        games::play_all(&setup, &jobs, o.concurrency, |done| {
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
            wins[done.second()] += 1.0 - points;
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
