//! The weights file that `polydam train` writes: text, one weight a line.
//!
//! ```text
//! # polydam weights: eval = base + sum of the active features' weights (hundredths of a man)
//! feature-set diagonal-patterns-v1-50sq
//! variant international
//! base hand
//! scale 200
//! features 210037
//! 12 12.25
//! 40 -3.5 own-man-1
//! ```
//!
//! After `#` comment lines: the feature set's name, the variant the weights were trained for,
//! the base evaluation they are added to (`hand`: the family's hand-written evaluation;
//! `none`: nothing), the scale of the logistic model (the evaluation that predicts a 73%
//! score), the number of features, then one line per feature whose weight is not zero, in
//! increasing index order: `INDEX WEIGHT [NAME]` (the name is for people; readers go by the
//! index, and a feature without a line weighs 0).

use std::fmt::Write as _;

/// What the learned weights are added to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// Nothing: the evaluation is the weights alone.
    None,
    /// The family's hand-written evaluation (`Game::evaluate` without learned weights).
    Hand,
}

impl Base {
    /// The base's name in the file and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Base::None => "none",
            Base::Hand => "hand",
        }
    }

    /// The base called `name`, if any.
    pub fn from_name(name: &str) -> Option<Base> {
        [Base::None, Base::Hand]
            .into_iter()
            .find(|b| b.name() == name)
    }
}

/// A weights file's contents.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightsFile {
    /// The feature set the weights belong to.
    pub feature_set: String,
    /// The variant they were trained for.
    pub variant: String,
    /// What they are added to.
    pub base: Base,
    /// The logistic model's scale, in hundredths of a man.
    pub scale: f64,
    /// One weight per feature, in hundredths of a man.
    pub weights: Vec<f64>,
}

impl WeightsFile {
    /// The file's text, with the weights rounded to 1/100 (zeros left out), and `name(i)`
    /// naming feature `i` when given.
    pub fn to_text(&self, name: Option<&dyn Fn(usize) -> String>) -> String {
        let mut out = String::new();
        out.push_str(
            "# polydam weights: eval = base + sum of the active features' weights \
             (hundredths of a man)\n",
        );
        let _ = writeln!(out, "feature-set {}", self.feature_set);
        let _ = writeln!(out, "variant {}", self.variant);
        let _ = writeln!(out, "base {}", self.base.name());
        let _ = writeln!(out, "scale {}", self.scale);
        let _ = writeln!(out, "features {}", self.weights.len());
        for (i, w) in self.weights.iter().enumerate() {
            let text = format!("{w:.2}");
            if text
                .trim_start_matches('-')
                .chars()
                .all(|c| c == '0' || c == '.')
            {
                continue;
            }
            let text = text.trim_end_matches('0').trim_end_matches('.');
            match name {
                Some(name) => {
                    let _ = writeln!(out, "{i} {text} {}", name(i));
                }
                None => {
                    let _ = writeln!(out, "{i} {text}");
                }
            }
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
        let variant = header("variant")?;
        let base = header("base")?;
        let base = Base::from_name(&base)
            .ok_or_else(|| format!("base '{base}' is not 'hand' or 'none'"))?;
        let scale = header("scale")?;
        let scale: f64 = scale
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s > 0.0)
            .ok_or_else(|| format!("scale '{scale}' is not a positive number"))?;
        let count = header("features")?;
        let count: usize = count
            .parse()
            .ok()
            .filter(|&c| c <= 1 << 26)
            .ok_or_else(|| format!("features '{count}' is not a count (at most 2^26)"))?;
        let mut weights = vec![0.0; count];
        let mut next = 0;
        for (n, l) in lines {
            let mut f = l.split_whitespace();
            let (Some(i), Some(w)) = (f.next(), f.next()) else {
                return Err(format!("line {n}: expected INDEX WEIGHT [NAME]"));
            };
            let i = match i.parse::<usize>() {
                Ok(i) if i >= next && i < count => i,
                _ => {
                    return Err(format!(
                        "line {n}: index '{i}' is not in {next}..{count} (indices increase)"
                    ))
                }
            };
            let w: f64 = w
                .parse()
                .ok()
                .filter(|w: &f64| w.is_finite())
                .ok_or_else(|| format!("line {n}: weight '{w}' is not a number"))?;
            weights[i] = w;
            next = i + 1;
        }
        Ok(WeightsFile {
            feature_set,
            variant,
            base,
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
            variant: "international".into(),
            base: Base::Hand,
            scale: 200.0,
            weights: vec![12.25, -3.5, 0.0, 0.001, -7.0],
        };
        let text = file.to_text(Some(&|i| format!("f{i}")));
        assert!(text.contains("\n1 -3.5 f1\n4 -7 f4\n"), "{text}");
        let mut rounded = file.clone();
        rounded.weights[3] = 0.0;
        assert_eq!(WeightsFile::parse(&text), Ok(rounded.clone()));
        assert_eq!(WeightsFile::parse(&file.to_text(None)), Ok(rounded));
    }

    #[test]
    fn damaged_files_say_what_is_wrong() {
        let head = "feature-set x\nvariant v\nbase hand\nscale 1\nfeatures 3\n";
        assert!(WeightsFile::parse(&format!("{head}0 1\n2 1\n")).is_ok());
        for (body, why) in [
            ("3 1\n", "index '3' is not in 0..3"),
            ("1 1\n1 2\n", "index '1' is not in 2..3"),
            ("0 x\n", "weight 'x' is not a number"),
            ("0 inf\n", "weight 'inf'"),
            ("0\n", "expected INDEX WEIGHT"),
        ] {
            let err = WeightsFile::parse(&format!("{head}{body}")).expect_err(body);
            assert!(err.contains(why), "{body}: {err}");
        }
        let err = WeightsFile::parse("feature-set x\nvariant v\nbase odd\n").expect_err("base");
        assert!(err.contains("base 'odd'"), "{err}");
        let err = WeightsFile::parse("feature-set x\nscale 1\n").expect_err("order");
        assert!(err.contains("expected 'variant"), "{err}");
    }
}
