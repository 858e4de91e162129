//! The verifier's records in a variant's table directory: the slices verified ([`LEDGER`]) and
//! how far the slices being verified got ([`PARTS`]), one line per slice.

use std::io::Write;
use std::path::Path;

use polydam_engine::egtb::codec::BLOCK;
use polydam_engine::egtb::index::Material;
use polydam_engine::egtb::EgtbError;

/// The file in a variant's table directory that records the slices verified so far.
pub const LEDGER: &str = "verified.tsv";

pub(super) const LEDGER_HEAD: &str =
    "# polydam egtb verify: slice, positions, re-derived, with distances, \
                           .wdl checksum, .dtc checksum (- without one)";

/// The file in a variant's table directory that records how far the slices being verified
/// got, segment by segment.
pub const PARTS: &str = "verifying.tsv";

pub(super) const PARTS_HEAD: &str = "# polydam egtb verify, slices in progress: slice, positions, \
                          re-derived, with distances, .wdl checksum, .dtc checksum, \
                          positions checked (a whole number of blocks), seconds";

/// One slice's check, as reported while verifying and recorded in the [`LEDGER`].
#[derive(Clone, Debug, PartialEq)]
pub struct SliceCheck {
    /// The slice.
    pub material: Material,
    /// Its positions.
    pub positions: u64,
    /// Positions re-derived from their moves.
    pub checked: u64,
    /// Positions whose distance was checked too.
    pub dtc_checked: u64,
    /// Disagreements found (always 0 for a slice taken from the ledger).
    pub inconsistencies: u64,
    /// Seconds spent checking it (0 when taken from the ledger).
    pub seconds: f64,
    /// Whether it was taken from the ledger of an earlier run.
    pub earlier: bool,
    /// Its first positions, checked by an earlier run that stopped in the slice (0 when this
    /// run checked it whole); `seconds` and the counts include that run's.
    pub resumed_from: u64,
    /// The checksums stored at the end of its `.wdl` and `.dtc` files.
    pub checksums: (u64, Option<u64>),
}

impl SliceCheck {
    pub(super) fn ledger_line(&self) -> String {
        let dtc = self
            .checksums
            .1
            .map_or_else(|| "-".to_string(), |c| format!("{c:016x}"));
        format!(
            "{}\t{}\t{}\t{}\t{:016x}\t{dtc}\n",
            self.material.name(),
            self.positions,
            self.checked,
            self.dtc_checked,
            self.checksums.0
        )
    }

    pub(super) fn parse(line: &str) -> Option<SliceCheck> {
        let f: Vec<&str> = line.split('\t').collect();
        let [m, positions, checked, dtc_checked, wdl, dtc] = f[..] else {
            return None;
        };
        let hex = |x: &str| (x.len() == 16).then(|| u64::from_str_radix(x, 16).ok())?;
        Some(SliceCheck {
            material: Material::parse(m)?,
            positions: positions.parse().ok()?,
            checked: checked.parse().ok()?,
            dtc_checked: dtc_checked.parse().ok()?,
            inconsistencies: 0,
            seconds: 0.0,
            earlier: true,
            resumed_from: 0,
            checksums: (hex(wdl)?, if dtc == "-" { None } else { Some(hex(dtc)?) }),
        })
    }

    /// The [`PARTS`] line saying that its first `done` positions are checked, consistent.
    pub(super) fn part_line(&self, done: u64) -> String {
        let line = self.ledger_line();
        format!("{}\t{done}\t{:.3}\n", line.trim_end(), self.seconds)
    }

    /// Reads a [`PARTS`] line: the check so far, the positions it covers as `resumed_from`.
    pub(super) fn parse_part(line: &str) -> Option<SliceCheck> {
        let f: Vec<&str> = line.split('\t').collect();
        let [.., done, seconds] = f[..] else {
            return None;
        };
        let mut c = SliceCheck::parse(&f[..f.len() - 2].join("\t"))?;
        let done: u64 = done.parse().ok()?;
        c.seconds = seconds
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite() && *x >= 0.0)?;
        c.earlier = false;
        c.resumed_from = done;
        let fits = done.is_multiple_of(BLOCK as u64)
            && done < c.positions
            && c.dtc_checked <= c.checked
            && c.checked <= done;
        fits.then_some(c)
    }
}

/// The records of `path` read by `parse` (the last line of each slice wins), and the lines
/// that could not be read. A missing file records nothing.
pub(super) fn read_records<T>(
    path: &Path,
    parse: impl Fn(&str) -> Option<T>,
    material: impl Fn(&T) -> Material,
) -> Result<(Vec<T>, Vec<String>), EgtbError> {
    let text = match polydam_engine::files::read_text(path, polydam_engine::files::TEXT_LIMIT) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(e) => return Err(EgtbError::io(path, e)),
    };
    let mut found: Vec<T> = Vec::new();
    let mut problems = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        match parse(line) {
            Some(c) => {
                found.retain(|o| material(o) != material(&c));
                found.push(c);
            }
            None => problems.push(format!(
                "{} line {}: not a slice record, its slice is checked again: {line:?}",
                path.display(),
                n + 1
            )),
        }
    }
    Ok((found, problems))
}

/// Appends `line` to the record file at `path` (written with `head` when new).
pub(super) fn append(path: &Path, head: &str, line: &str) -> Result<(), EgtbError> {
    let fresh = !path.exists();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| EgtbError::io(path, e))?;
    let mut text = String::new();
    if fresh {
        text.push_str(head);
        text.push('\n');
    }
    text.push_str(line);
    f.write_all(text.as_bytes())
        .and_then(|()| f.sync_data())
        .map_err(|e| EgtbError::io(path, e))
}
