//! Fitting the learned evaluation's weights to self-play data: reading the data into samples,
//! split into training and validation sets by a hash of each position's text (so a position
//! that occurs in several games always falls in the same set, whatever the order of the
//! files), and the logistic regression ([`logistic`]). `polydam train` is its front-end.

pub mod logistic;

use std::path::{Path, PathBuf};

use polydam_engine::files::{open_regular, read_line_limited, LINE_LIMIT};
use polydam_engine::learn::features::{FeatureKind, Features};
use polydam_engine::learn::weights::Base;
use polydam_protocol::lexer::excerpt;
use polydam_tables::zobrist::splitmix64;

use self::logistic::Samples;
use super::data::{header_variant, result_value, DataError, DataLine};

/// A stable 64-bit hash of a position's text (FNV-1a, then mixed), for the split.
fn text_hash(text: &str) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for b in text.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
    }
    splitmix64(h).1
}

/// Whether a position goes to the validation set.
pub fn is_validation(text: &str, percent: f64) -> bool {
    ((text_hash(text) % 10_000) as f64) < percent * 100.0
}

/// The training and validation samples read from the data files.
pub struct Loaded {
    /// What the weights are fitted to.
    pub train: Samples,
    /// What the loss is reported on, never fitted.
    pub valid: Samples,
}

/// How data files become samples.
#[derive(Clone, Copy, Debug)]
pub struct SampleSpec<'a> {
    /// The data files, read one after another.
    pub data: &'a [PathBuf],
    /// The feature set.
    pub kind: FeatureKind,
    /// What the weights are added to.
    pub base: Base,
    /// Weight of the search score in the target (see [`logistic::target`]).
    pub lambda: f64,
    /// The logistic model's scale, in hundredths of a man.
    pub scale: f64,
    /// Percentage of the positions held out for validation.
    pub valid_percent: f64,
}

/// Reads the data files of game `G` into samples; an error names the file and line.
pub fn load<G: Features>(o: &SampleSpec) -> Result<Loaded, DataError> {
    let kind = o.kind;
    let base = o.base;
    load_lines(o, G::NAME, &mut |position, features| {
        let pos =
            G::parse_position(position).map_err(|e| format!("bad {} position: {e}", G::NAME))?;
        features.clear();
        G::feature_values(kind, &pos, features);
        Ok(match base {
            Base::None => 0.0,
            Base::Hand => G::hand_evaluation(&pos) as f32,
        })
    })
}

/// Turns a data line's position into its features and their values (in the vector given) and
/// its base value, or says why it cannot.
type Featurize<'a> = dyn FnMut(&str, &mut Vec<(u32, f32)>) -> Result<f32, String> + 'a;

/// [`load`] for the data of `variant`, whose positions `featurize` reads: not generic in the
/// game, so that the reading and splitting are compiled once.
fn load_lines(
    o: &SampleSpec,
    variant: &str,
    featurize: &mut Featurize<'_>,
) -> Result<Loaded, DataError> {
    let mut train = Samples::new();
    let mut valid = Samples::new();
    let mut features = Vec::new();
    for path in o.data {
        let mut reader = std::io::BufReader::new(open_data(path)?);
        let mut line = String::new();
        for n in 0u64.. {
            let at = |why: String| DataError(format!("{}:{}: {why}", path.display(), n + 1));
            if !read_line_limited(&mut reader, &mut line, LINE_LIMIT)
                .map_err(|e| at(format!("cannot read: {e}")))?
            {
                break;
            }
            if let Some(v) = header_variant(&line) {
                if v != variant {
                    return Err(at(format!(
                        "the data was generated for {}, not {} (give --variant {})",
                        excerpt(v),
                        variant,
                        excerpt(v)
                    )));
                }
            }
            let Some(data) = DataLine::parse(&line).map_err(|e| at(e.0))? else {
                continue;
            };
            let base = featurize(&data.position, &mut features).map_err(at)?;
            let t = logistic::target(result_value(data.result), data.score, o.lambda, o.scale);
            if is_validation(&data.position, o.valid_percent) {
                valid.push_valued(&features, base, t);
            } else {
                train.push_valued(&features, base, t);
            }
        }
    }
    Ok(Loaded { train, valid })
}

/// Opens the data file at `path`: a regular file only (a named pipe would block, a device
/// such as `/dev/zero` never ends), read a line of at most [`LINE_LIMIT`] bytes at a time.
fn open_data(path: &Path) -> Result<std::fs::File, DataError> {
    open_regular(path).map_err(|e| DataError(format!("cannot read {}: {e}", path.display())))
}

/// The variant named by the first `# polydam selfplay` line of the first data file, if it
/// has one before its first data line.
pub fn data_variant(data: &[PathBuf]) -> Result<Option<String>, DataError> {
    let Some(path) = data.first() else {
        return Ok(None);
    };
    let mut reader = std::io::BufReader::new(open_data(path)?);
    let mut line = String::new();
    loop {
        let more = read_line_limited(&mut reader, &mut line, LINE_LIMIT)
            .map_err(|e| DataError(format!("cannot read {}: {e}", path.display())))?;
        if !more {
            break;
        }
        if let Some(v) = header_variant(&line) {
            return Ok(Some(v.to_string()));
        }
        if !line.trim().is_empty() && !line.trim_start().starts_with('#') {
            break;
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_is_stable_and_near_the_percentage() {
        let texts: Vec<String> = (0..10_000).map(|i| format!("W:W{i}")).collect();
        let held = texts.iter().filter(|t| is_validation(t, 10.0)).count();
        assert!((800..1200).contains(&held), "{held}");
        assert!(texts.iter().all(|t| !is_validation(t, 0.0)));
        assert_eq!(text_hash("W:W31-50:B1-20"), text_hash("W:W31-50:B1-20"));
    }
}
