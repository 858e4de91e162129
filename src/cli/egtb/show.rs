//! What `polydam egtb` shows while it works: progress bars on stderr, one line per slice built
//! or verified, the lines of a worker thread streamed to the output, memory figures.

use std::io::Write;
use std::sync::mpsc::Sender;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use polydam_engine::egtb::{Material, TableGame};

use crate::cli::CliError;
use crate::forge::egtb::build::plan;
use crate::forge::egtb::job::{BuildEvent, SliceReport, Step};
use crate::forge::egtb::ledger::SliceCheck;

/// The process's resident memory now and at its peak, in MiB (Linux; zeros elsewhere).
pub(super) fn memory_mib() -> (f64, f64) {
    let text = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<f64>().ok())
            .map_or(0.0, |kib| kib / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Memory the system can still give (`MemAvailable`, Linux; `None` elsewhere).
pub(super) fn available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

pub(super) fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 20) as f64
}

/// One line per solved slice.
pub(super) fn report_line(r: &SliceReport) -> String {
    let (rss, peak) = memory_mib();
    let [w, d, l, dc] = r.counts;
    format!(
        "{}: {} positions, win {w} draw {d} loss {l} (don't-care {dc}), max dtc {}{}, \
         {} waves, {:.2} s, working {:.1} MiB, tables held {:.1} MiB, rss {rss:.0} MiB \
         (peak {peak:.0}), .wdl {:.1} KiB, .dtc {:.1} KiB",
        r.material,
        r.positions,
        r.max_dtc,
        if r.capped > 0 {
            format!(" ({} capped)", r.capped)
        } else {
            String::new()
        },
        r.waves,
        r.seconds,
        mib(r.working_bytes),
        mib(r.lookup_bytes),
        r.wdl_bytes as f64 / 1024.0,
        r.dtc_bytes as f64 / 1024.0
    )
}

/// A progress bar on stderr for the current slice, switched at each event.
pub(super) struct Bars {
    quiet: bool,
    bar: Mutex<Option<(ProgressBar, Step)>>,
}

impl Bars {
    pub(super) fn new(quiet: bool) -> Bars {
        use std::io::IsTerminal;
        Bars {
            quiet: quiet || !std::io::stderr().is_terminal(),
            bar: Mutex::new(None),
        }
    }

    /// Removes the bar, if any.
    pub(super) fn clear(&self) {
        if let Ok(mut slot) = self.bar.lock() {
            if let Some((b, _)) = slot.take() {
                b.finish_and_clear();
            }
        }
    }

    pub(super) fn event(&self, name: &str, e: &BuildEvent<'_>) {
        if self.quiet {
            return;
        }
        let Ok(mut slot) = self.bar.lock() else {
            return;
        };
        match e {
            BuildEvent::Begin { .. }
            | BuildEvent::Done(_)
            | BuildEvent::Kept(_)
            | BuildEvent::Checked(_)
            | BuildEvent::Warning(_)
            | BuildEvent::Checkpoint { .. }
            | BuildEvent::Resumed { .. } => {
                if let Some((b, _)) = slot.take() {
                    b.finish_and_clear();
                }
            }
            BuildEvent::Progress { step, done, total } => {
                let fresh = !matches!(&*slot, Some((_, s)) if s == step);
                if fresh {
                    if let Some((b, _)) = slot.take() {
                        b.finish_and_clear();
                    }
                    let b = ProgressBar::with_draw_target(
                        (*total > 0).then_some(*total),
                        ProgressDrawTarget::stderr(),
                    );
                    let template = if *total > 0 {
                        "{msg} {bar:40} {percent}% {elapsed_precise} (eta {eta})"
                    } else {
                        "{msg} {spinner} {pos} {elapsed_precise}"
                    };
                    if let Ok(style) = ProgressStyle::with_template(template) {
                        b.set_style(style);
                    }
                    let what = match step {
                        Step::Init => "first pass",
                        Step::Waves => "waves",
                        Step::Write => "writing",
                        Step::Load => "reading back",
                    };
                    b.set_message(format!("{name} {what}"));
                    *slot = Some((b, *step));
                }
                if let Some((b, _)) = &*slot {
                    b.set_position(*done);
                }
            }
        }
    }
}

/// One line per slice verified.
pub(super) fn check_line(c: &SliceCheck) -> String {
    if c.earlier {
        format!(
            "{}: {} positions, {} re-derived ({} with distances), verified by an earlier run",
            c.material, c.positions, c.checked, c.dtc_checked
        )
    } else {
        format!(
            "{}: {} positions, {} re-derived ({} with distances), {} inconsistencies, {:.1} s{}",
            c.material,
            c.positions,
            c.checked,
            c.dtc_checked,
            c.inconsistencies,
            c.seconds,
            if c.resumed_from > 0 {
                format!(
                    " (resumed after position {}, checked by an earlier run)",
                    c.resumed_from
                )
            } else {
                String::new()
            }
        )
    }
}

/// Runs `work` on its own thread and writes the lines it sends to `out` as they come (the
/// output stays with this thread); `work`'s result once it is done.
pub(super) fn stream_lines<W: Write, R: Send>(
    out: &mut W,
    work: impl FnOnce(&std::sync::mpsc::Sender<String>) -> R + Send,
) -> Result<R, CliError> {
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let (result, written) = std::thread::scope(|scope| {
        let worker = scope.spawn(move || work(&tx));
        let mut written = Ok(());
        for line in rx {
            if written.is_ok() {
                written = writeln!(out, "{line}").and_then(|_| out.flush());
            }
        }
        (worker.join(), written)
    });
    written.map_err(|e| CliError(format!("cannot write output: {e}")))?;
    result.map_err(|_| CliError("stopped on an internal error".into()))
}

/// A slice and its twin, as progress lines name them: `m1k2-m2k1 + m2k1-m1k2`.
pub(super) fn pair_name(materials: &[Material]) -> String {
    let names: Vec<String> = materials.iter().map(|m| m.name()).collect();
    names.join(" + ")
}

/// Prints what a build of up to `pieces` pieces of `G` (`only`'s slices and those they lead
/// to) holds at its peak, and warns when the system has less memory available.
pub(super) fn print_plan<G: TableGame>(
    out: &mut impl Write,
    pieces: u32,
    only: &[Material],
) -> Result<(), CliError> {
    let p = plan::<G>(pieces, only);
    let names: Vec<String> = p.largest.iter().map(|m| m.name()).collect();
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    writeln!(
        out,
        "{}: {} slices up to {} pieces, {} positions; the most memory goes to {} ({} \
         positions): about {:.1} GiB",
        G::NAME,
        p.slices,
        pieces,
        p.positions,
        names.join(" + "),
        p.largest_positions,
        gib(p.peak_bytes)
    )
    .map_err(|e| CliError(format!("cannot write output: {e}")))?;
    if let Some(free) = available_bytes().filter(|&f| f < p.peak_bytes) {
        eprintln!(
            "polydam: warning: {} needs about {:.1} GiB and {:.1} GiB is available: the \
             build may be stopped there (it resumes at the slice it was in)",
            names.join(" + "),
            gib(p.peak_bytes),
            gib(free)
        );
    }
    Ok(())
}

/// Shows a build's event: a line to print sent to `tx`, a warning, the progress bar (named
/// after the pair being solved, kept in `current`).
pub(super) fn build_event(
    e: &BuildEvent<'_>,
    tx: &Sender<String>,
    current: &Mutex<String>,
    bars: &Bars,
) {
    match e {
        BuildEvent::Begin { materials, .. } => {
            if let Ok(mut c) = current.lock() {
                *c = pair_name(materials);
            }
        }
        BuildEvent::Done(r) => {
            bars.clear();
            let _ = tx.send(report_line(r));
        }
        BuildEvent::Kept(m) => {
            let _ = tx.send(format!("{m}: kept (built before)"));
        }
        BuildEvent::Warning(w) => {
            bars.clear();
            eprintln!("polydam: warning: {w}");
        }
        BuildEvent::Checkpoint {
            materials,
            wave,
            bytes,
            seconds,
        } => {
            bars.clear();
            let _ = tx.send(format!(
                "{}: checkpoint at wave {wave}, {:.1} MiB in {seconds:.1} s",
                pair_name(materials),
                *bytes as f64 / (1u64 << 20) as f64
            ));
        }
        BuildEvent::Resumed {
            materials,
            wave,
            seconds,
        } => {
            let _ = tx.send(format!(
                "{}: resumed from its checkpoint at wave {wave} after {seconds:.1} s of solving",
                pair_name(materials)
            ));
        }
        BuildEvent::Progress { .. } | BuildEvent::Checked(_) => {}
    }
    let name = current.lock().map(|c| c.clone()).unwrap_or_default();
    bars.event(&name, e);
}
