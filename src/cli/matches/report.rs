//! The report printed at the end of a match: the settings, each engine's points, each pair's
//! W/D/L with Elo (trinomial and pentanomial) and the SPRT, the forfeits and how games ended.

use std::collections::BTreeMap;
use std::path::Path;

use super::games::Finished;
use super::settings::{EngineSpec, RefereeConfig, TimeControl};
use super::stats::{self, Sample, Verdict};

/// What the report is made of.
pub(super) struct Summary<'a> {
    /// The variant's name.
    pub variant: &'a str,
    /// The engines.
    pub specs: &'a [EngineSpec],
    /// The engines' names in the report.
    pub names: &'a [String],
    /// The referee's settings.
    pub config: &'a RefereeConfig,
    /// Games per pair of engines.
    pub games_per_pair: usize,
    /// Games in the match.
    pub total: usize,
    /// The finished games by number.
    pub finished: &'a BTreeMap<usize, Finished>,
    /// SPRT bounds (elo0, elo1) and error rates (alpha, beta), if asked for.
    pub sprt: Option<(f64, f64, f64, f64)>,
    /// The PDN file and the games written to it, if asked for.
    pub pdn: Option<(&'a Path, usize)>,
}

/// The report's text, one line ending in a newline after another.
pub(super) fn text(s: &Summary) -> String {
    let mut report = header(s);
    report.push_str(&engine_lines(s));
    for a in 0..s.names.len() {
        for b in a + 1..s.names.len() {
            report.push_str(&pair_lines(s, a, b));
        }
    }
    report.push_str(&forfeit_lines(s));
    report.push_str(&replay_lines(s));
    report.push_str(&margin_line(s));
    report.push_str(&time_used_line(s));
    report.push_str(&endings_line(s.finished));
    if let Some((path, written)) = s.pdn {
        report.push_str(&format!(
            "pdn: {} games written to {}\n",
            written,
            path.display()
        ));
    }
    report
}

/// `match: VARIANT, N engines, N games, TIME CONTROL[, depth D]`.
fn header(s: &Summary) -> String {
    let tc = match s.config.time_control {
        Some(TimeControl::MoveTime(secs)) => format!("{secs} s per move"),
        Some(TimeControl::Clock { time, inc }) => format!("{time} s + {inc} s per move"),
        None => "no clock".to_owned(),
    };
    let depth = s
        .config
        .depth
        .map(|d| format!(", depth {d}"))
        .unwrap_or_default();
    let nodes = s
        .config
        .nodes
        .map(|n| format!(", {n} nodes"))
        .unwrap_or_default();
    format!(
        "match: {}, {} engines, {} games, {tc}{depth}{nodes}\n",
        s.variant,
        s.names.len(),
        s.total
    )
}

/// `engine I: NAME (COMMAND), P / Q points`, one line per engine.
fn engine_lines(s: &Summary) -> String {
    let mut points = vec![0.0f64; s.names.len()];
    for f in s.finished.values() {
        let first = f.first_points();
        points[f.job.first] += first;
        points[f.second()] += 1.0 - first;
    }
    let mut lines = String::new();
    for (i, name) in s.names.iter().enumerate() {
        lines.push_str(&format!(
            "engine {}: {name} ({}), {} / {} points\n",
            i + 1,
            s.specs[i].display(),
            points[i],
            s.games_per_pair * (s.names.len() - 1)
        ));
    }
    lines
}

/// The games of engines `a` and `b` (`a` first): the score, the Elo estimates, the SPRT.
fn pair_lines(s: &Summary, a: usize, b: usize) -> String {
    let games: Vec<&Finished> = s
        .finished
        .values()
        .filter(|f| f.job.first == a && (f.job.white == b || f.job.black == b))
        .collect();
    let (w, d, l) = wdl(&games);
    let points = w as f64 + d as f64 / 2.0;
    let n = games.len().max(1) as f64;
    let mut lines = format!(
        "{} vs {}: +{w} ={d} -{l}, score {points}/{} ({:.1}%)\n",
        s.names[a],
        s.names[b],
        games.len(),
        100.0 * points / n
    );
    let trinomial = Sample::trinomial(w, d, l);
    if let Some(sample) = &trinomial {
        lines.push_str(&format!("  {}\n", elo_line(sample, "trinomial")));
    }
    let pentanomial = pentanomial_counts(&games);
    let penta = Sample::pentanomial(pentanomial);
    if let Some(sample) = &penta {
        lines.push_str(&format!(
            "  {}, pairs scoring 0/0.5/1/1.5/2: {:?}\n",
            elo_line(sample, "pentanomial over game pairs"),
            pentanomial
        ));
    }
    let on_time = games.iter().filter(|g| g.lost_on_time()).count();
    if on_time > 0 {
        // A loss on time by a program that keeps its own clock says nothing of its play.
        let played: Vec<&Finished> = games
            .iter()
            .copied()
            .filter(|g| !g.lost_on_time())
            .collect();
        let (w, d, l) = wdl(&played);
        lines.push_str(&format!(
            "  without the {on_time} games lost on time: +{w} ={d} -{l}\n"
        ));
        if let Some(sample) = Sample::trinomial(w, d, l) {
            lines.push_str(&format!("  {}\n", elo_line(&sample, "trinomial")));
        }
    }
    if let Some(bounds) = s.sprt {
        // The pentanomial model when there is a pair of games, else the trinomial one.
        let (sample, model) = match (&penta, &trinomial) {
            (Some(p), _) => (Some(p), "pentanomial"),
            (None, t) => (t.as_ref(), "trinomial"),
        };
        lines.push_str(&sprt_line(sample, model, bounds));
    }
    lines
}

/// The first engine's wins, draws and losses in `games`.
fn wdl(games: &[&Finished]) -> (u64, u64, u64) {
    let (mut w, mut d, mut l) = (0u64, 0u64, 0u64);
    for g in games {
        match g.first_points() {
            p if p > 0.75 => w += 1,
            p if p > 0.25 => d += 1,
            _ => l += 1,
        }
    }
    (w, d, l)
}

/// How many pairs of games (an opening played twice) the first engine scored 0, 1/2, 1, 3/2
/// and 2 points in.
fn pentanomial_counts(games: &[&Finished]) -> [u64; 5] {
    let mut counts = [0u64; 5];
    for pair in games.chunks_exact(2) {
        let twice = 2.0 * (pair[0].first_points() + pair[1].first_points());
        counts[(twice.round() as usize).min(4)] += 1;
    }
    counts
}

/// `  SPRT elo0 E0 elo1 E1 alpha A beta B (MODEL): LLR ... , VERDICT`.
fn sprt_line(
    sample: Option<&Sample>,
    model: &str,
    (elo0, elo1, alpha, beta): (f64, f64, f64, f64),
) -> String {
    let verdict = sample
        .and_then(|s| stats::sprt(s, elo0, elo1, alpha, beta))
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
    format!("  SPRT elo0 {elo0} elo1 {elo1} alpha {alpha} beta {beta} ({model}): {verdict}\n")
}

/// `forfeits: N`, then a line per forfeit.
fn forfeit_lines(s: &Summary) -> String {
    let forfeits: Vec<&Finished> = s
        .finished
        .values()
        .filter(|f| f.forfeit.is_some())
        .collect();
    let mut lines = format!("forfeits: {}", forfeits.len());
    let mut on_time = vec![0usize; s.names.len()];
    for f in forfeits.iter().filter(|f| f.lost_on_time()) {
        if let Some((who, _)) = &f.forfeit {
            on_time[*who] += 1;
        }
    }
    if on_time.iter().any(|&n| n > 0) {
        let each: Vec<String> = on_time
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{} {n}", s.names[i]))
            .collect();
        lines.push_str(&format!(" (on time: {})", each.join(", ")));
    }
    lines.push('\n');
    for f in forfeits {
        if let Some((who, why)) = &f.forfeit {
            lines.push_str(&format!(
                "  game {}: {} loses: {why}\n",
                f.job.number, s.names[*who]
            ));
        }
    }
    lines
}

/// `played again: N`, then a line per game whose first attempt an engine lost by failing
/// before the first move; nothing when there is none.
fn replay_lines(s: &Summary) -> String {
    let replayed: Vec<(usize, &(usize, String))> = s
        .finished
        .values()
        .filter_map(|f| f.replayed.as_ref().map(|r| (f.job.number, r)))
        .collect();
    if replayed.is_empty() {
        return String::new();
    }
    let mut lines = format!("played again: {}\n", replayed.len());
    for (game, (who, why)) in replayed {
        lines.push_str(&format!(
            "  game {game}: {} failed before the first move: {why}\n",
            s.names[*who]
        ));
    }
    lines
}

/// With a clock: `clock margin: worst +X s (game N, ENGINE); median of games' worst +Y s`,
/// the least time any engine had left when a move arrived (negative: late, within the
/// tolerance), and the typical game's worst.
fn margin_line(s: &Summary) -> String {
    let mut worst: Vec<(f64, usize, usize)> = s
        .finished
        .values()
        .filter_map(|f| f.worst_margin.map(|(m, who)| (m, f.job.number, who)))
        .collect();
    if worst.is_empty() {
        return String::new();
    }
    worst.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (m, game, who) = worst[0];
    let median = worst[worst.len() / 2].0;
    format!(
        "clock margin: worst {m:+.3} s (game {game}, {}); median of games' worst {median:+.3} s\n",
        s.names[who]
    )
}

/// With a clock: `time per game: NAME X s, ...`, the mean time each engine spent on its
/// moves in a game.
fn time_used_line(s: &Summary) -> String {
    if !matches!(s.config.time_control, Some(TimeControl::Clock { .. })) {
        return String::new();
    }
    let mut total = vec![(0.0f64, 0usize); s.names.len()];
    for f in s.finished.values() {
        for (who, used) in [(f.job.white, f.used[0]), (f.job.black, f.used[1])] {
            total[who].0 += used;
            total[who].1 += 1;
        }
    }
    let each: Vec<String> = total
        .iter()
        .enumerate()
        .map(|(i, (t, n))| format!("{} {:.1} s", s.names[i], t / (*n).max(1) as f64))
        .collect();
    format!("time per game: {}\n", each.join(", "))
}

/// `endings: KIND N; ...`: how many games ended each way (every forfeit counted as one kind).
fn endings_line(finished: &BTreeMap<usize, Finished>) -> String {
    let mut endings: BTreeMap<String, usize> = BTreeMap::new();
    for f in finished.values() {
        let kind = if f.forfeit.is_some() {
            "forfeit".to_owned()
        } else {
            f.termination.clone()
        };
        *endings.entry(kind).or_default() += 1;
    }
    let mut line = "endings:".to_owned();
    for (kind, n) in endings {
        line.push_str(&format!(" {kind} {n};"));
    }
    line.push('\n');
    line
}

/// A signed Elo figure with one decimal, or `+inf` / `-inf`; a figure that rounds to zero is
/// `0.0` (never `-0.0` or `+0.0`, which say a direction the match did not show).
pub fn signed(x: f64) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "+inf" } else { "-inf" }.to_owned();
    }
    let tenths = (x * 10.0).round();
    if tenths == 0.0 {
        "0.0".to_owned()
    } else {
        format!("{:+.1}", tenths / 10.0)
    }
}

/// `Elo E [LO, HI] (95%, MODEL, n=N)`.
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
