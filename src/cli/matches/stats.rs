//! Match statistics: score, Elo difference with a 95% interval, and the SPRT.
//!
//! Both use the normal approximation of the mean score. Over single games that is the
//! *trinomial* model (each game scores 0, 1/2 or 1); over game pairs played from the same
//! opening with colours swapped it is the *pentanomial* model (each pair scores 0, 1/4, ...,
//! 1 as a fraction), which accounts for the correlation that the shared opening brings and so
//! gives a narrower, more honest interval.

/// The mean and variance of a sample of scores in `[0, 1]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Number of observations.
    pub n: u64,
    /// Mean score.
    pub mean: f64,
    /// Variance of one observation (population variance).
    pub variance: f64,
}

impl Sample {
    /// The sample of `(score, count)` observations; `None` when empty.
    pub fn new(observations: &[(f64, u64)]) -> Option<Sample> {
        let n: u64 = observations.iter().map(|&(_, c)| c).sum();
        if n == 0 {
            return None;
        }
        let nf = n as f64;
        let mean = observations.iter().map(|&(s, c)| s * c as f64).sum::<f64>() / nf;
        let variance = observations
            .iter()
            .map(|&(s, c)| (s - mean).powi(2) * c as f64)
            .sum::<f64>()
            / nf;
        Some(Sample { n, mean, variance })
    }

    /// From wins, draws and losses (trinomial).
    pub fn trinomial(wins: u64, draws: u64, losses: u64) -> Option<Sample> {
        Sample::new(&[(1.0, wins), (0.5, draws), (0.0, losses)])
    }

    /// From counts of game pairs scoring 0, 1/2, 1, 3/2 and 2 points (pentanomial).
    pub fn pentanomial(pairs: [u64; 5]) -> Option<Sample> {
        let obs: Vec<(f64, u64)> = pairs
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as f64 / 4.0, c))
            .collect();
        Sample::new(&obs)
    }

    /// The Elo difference and its 95% interval `(low, high)`.
    pub fn elo_interval(&self) -> (f64, f64, f64) {
        let se = (self.variance / self.n as f64).sqrt();
        let z = 1.959_963_984_540_054;
        (
            elo(self.mean),
            elo((self.mean - z * se).max(0.0)),
            elo((self.mean + z * se).min(1.0)),
        )
    }
}

/// The Elo difference that an expected score `score` (0..1) means under the logistic model:
/// `-400 log10(1/score - 1)`; infinite at 0 and 1.
///
/// ```
/// use polydam::cli::matches::stats::elo;
/// assert!((elo(0.6) - 70.44).abs() < 0.01);
/// ```
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of an Elo difference (the inverse of [`elo`]).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// What an SPRT says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// LLR at or above the upper bound: the difference is at least `elo1`.
    H1,
    /// LLR at or below the lower bound: the difference is at most `elo0`.
    H0,
    /// Neither bound reached.
    Continue,
}

/// An SPRT result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The lower bound, `ln(beta / (1 - alpha))`.
    pub lower: f64,
    /// The upper bound, `ln((1 - beta) / alpha)`.
    pub upper: f64,
    /// The verdict.
    pub verdict: Verdict,
}

/// The SPRT of H0: Elo = `elo0` against H1: Elo = `elo1` (logistic Elo), with the normal
/// approximation of the log-likelihood ratio (the "GSPRT"):
/// `LLR = n (s1 - s0) (2 mean - s0 - s1) / (2 variance)`, where `s0`, `s1` are the expected
/// scores of `elo0`, `elo1`. `None` when the sample has no variance (the ratio is undefined).
pub fn sprt(sample: &Sample, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Option<Sprt> {
    if sample.variance <= 0.0 {
        return None;
    }
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    let llr = sample.n as f64 * (s1 - s0) * (2.0 * sample.mean - s0 - s1) / (2.0 * sample.variance);
    let lower = (beta / (1.0 - alpha)).ln();
    let upper = ((1.0 - beta) / alpha).ln();
    let verdict = if llr >= upper {
        Verdict::H1
    } else if llr <= lower {
        Verdict::H0
    } else {
        Verdict::Continue
    };
    Some(Sprt {
        llr,
        lower,
        upper,
        verdict,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo(0.5), 0.0, 1e-12));
        assert!(close(elo(0.6), 70.437, 1e-3));
        assert!(close(elo(0.75), 190.849, 1e-3));
        assert!(close(elo(0.4), -70.437, 1e-3));
        assert!(elo(1.0).is_infinite() && elo(0.0).is_infinite());
        assert!(close(expected_score(elo(0.63)), 0.63, 1e-12));
    }

    #[test]
    fn trinomial_interval() {
        // 60 wins, 0 draws, 40 losses: mean 0.6, sd 0.4899, se 0.04899.
        let s = Sample::trinomial(60, 0, 40).unwrap();
        assert_eq!(s.n, 100);
        assert!(close(s.mean, 0.6, 1e-12));
        assert!(close(s.variance, 0.24, 1e-12));
        let (e, lo, hi) = s.elo_interval();
        assert!(close(e, 70.437, 1e-3));
        // mean -/+ 1.96 * 0.04899 = 0.50398 .. 0.69602
        assert!(close(lo, elo(0.6 - 1.959964 * 0.24f64.sqrt() / 10.0), 1e-3));
        assert!(close(hi, elo(0.6 + 1.959964 * 0.24f64.sqrt() / 10.0), 1e-3));
        assert!(
            lo > 2.0 && lo < 3.5 && hi > 143.0 && hi < 145.0,
            "{lo} {hi}"
        );
    }

    #[test]
    fn draws_shrink_the_variance() {
        let s = Sample::trinomial(10, 80, 10).unwrap();
        assert!(close(s.mean, 0.5, 1e-12));
        assert!(close(s.variance, 0.05, 1e-12));
    }

    #[test]
    fn pentanomial_mean_is_the_pair_fraction() {
        // Pairs scoring 2, 1 and 1 of 2 points: fractions 1, 1/2, 1/2.
        let s = Sample::pentanomial([0, 0, 2, 0, 1]).unwrap();
        assert_eq!(s.n, 3);
        assert!(close(s.mean, 2.0 / 3.0, 1e-12));
        assert!(Sample::pentanomial([0; 5]).is_none());
    }

    #[test]
    fn sprt_bounds_and_verdicts() {
        // alpha = beta = 0.05: bounds -/+ ln 19 = 2.944.
        let strong = Sample::trinomial(600, 200, 200).unwrap();
        let r = sprt(&strong, 0.0, 10.0, 0.05, 0.05).unwrap();
        assert!(close(r.upper, 19f64.ln(), 1e-12) && close(r.lower, -(19f64.ln()), 1e-12));
        assert_eq!(r.verdict, Verdict::H1);
        let weak = Sample::trinomial(200, 200, 600).unwrap();
        assert_eq!(
            sprt(&weak, 0.0, 10.0, 0.05, 0.05).unwrap().verdict,
            Verdict::H0
        );
        let few = Sample::trinomial(3, 2, 3).unwrap();
        let r = sprt(&few, 0.0, 10.0, 0.05, 0.05).unwrap();
        assert_eq!(r.verdict, Verdict::Continue);
        // Known value: n = 1000, mean 0.5, var 0.2, elo 0..10: s1 - s0 = 0.014390,
        // 2 mean - s0 - s1 = -0.014390; LLR = 1000 * -0.00020708 / 0.4 = -0.5177.
        let s = Sample {
            n: 1000,
            mean: 0.5,
            variance: 0.2,
        };
        assert!(close(
            sprt(&s, 0.0, 10.0, 0.05, 0.05).unwrap().llr,
            -0.5177,
            1e-3
        ));
        assert!(sprt(&Sample::trinomial(0, 5, 0).unwrap(), 0.0, 5.0, 0.05, 0.05).is_none());
    }
}
