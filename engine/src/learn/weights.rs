//! The weights file that `polydam train` writes: text, one weight a line.
//!
//! ```text
//! # polydam weights: eval = sum of the active features' weights (hundredths of a man)
//! feature-set diagonal-psq-v1-50sq
//! scale 200
//! features 285
//! 0 12.25 own-man-0
//! 1 -3.5 own-man-1
//! ```
//!
//! After `#` comment lines: the feature set's name, the scale of the logistic model (the
//! evaluation that predicts a 73% score), the number of features, then one line per feature
//! in index order: `INDEX WEIGHT NAME` (the name is for people; readers go by the index).

use std::fmt::Write as _;

/// A weights file's contents.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightsFile {
    /// The feature set the weights belong to.
    pub feature_set: String,
    /// The logistic model's scale, in hundredths of a man.
    pub scale: f64,
    /// One weight per feature, in hundredths of a man.
    pub weights: Vec<f64>,
}

impl WeightsFile {
    /// The file's text, with `name(i)` naming feature `i`.
    pub fn to_text(&self, name: &dyn Fn(usize) -> String) -> String {
        let mut out = String::new();
        out.push_str(
            "# polydam weights: eval = sum of the active features' weights \
             (hundredths of a man)\n",
        );
        let _ = writeln!(out, "feature-set {}", self.feature_set);
        let _ = writeln!(out, "scale {}", self.scale);
        let _ = writeln!(out, "features {}", self.weights.len());
        for (i, w) in self.weights.iter().enumerate() {
            let _ = writeln!(out, "{i} {w:.4} {}", name(i));
        }
        out
    }

    /// Reads a weights file.
    pub fn parse(text: &str) -> Result<WeightsFile, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let mut header = |key: &str| -> Result<String, String> {
            match lines.next() {
                Some((n, l)) => match l.strip_prefix(key).and_then(|r| r.strip_prefix(' ')) {
                    Some(v) => Ok(v.trim().to_string()),
                    None => Err(format!("line {n}: expected '{key} ...'")),
                },
                None => Err(format!("missing '{key}' line")),
            }
        };
        let feature_set = header("feature-set")?;
        let scale = header("scale")?;
        let scale: f64 = scale
            .parse()
            .map_err(|_| format!("scale '{scale}' is not a number"))?;
        let count = header("features")?;
        let count: usize = count
            .parse()
            .map_err(|_| format!("features '{count}' is not a count"))?;
        let mut weights = Vec::with_capacity(count);
        for (n, l) in lines {
            let mut f = l.split_whitespace();
            let (Some(i), Some(w)) = (f.next(), f.next()) else {
                return Err(format!("line {n}: expected INDEX WEIGHT NAME"));
            };
            if i.parse::<usize>().ok() != Some(weights.len()) {
                return Err(format!("line {n}: expected index {}", weights.len()));
            }
            let w: f64 = w
                .parse()
                .map_err(|_| format!("line {n}: weight '{w}' is not a number"))?;
            weights.push(w);
        }
        if weights.len() != count {
            return Err(format!("{} weights for {count} features", weights.len()));
        }
        Ok(WeightsFile {
            feature_set,
            scale,
            weights,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_trip() {
        let file = WeightsFile {
            feature_set: "toy-v1".into(),
            scale: 200.0,
            weights: vec![12.25, -3.5, 0.0],
        };
        let text = file.to_text(&|i| format!("f{i}"));
        assert!(text.contains("\n1 -3.5000 f1\n"), "{text}");
        assert_eq!(WeightsFile::parse(&text), Ok(file));
        assert!(WeightsFile::parse("feature-set x\nscale 1\nfeatures 2\n0 1 a\n").is_err());
    }
}
