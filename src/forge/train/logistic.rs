//! Logistic regression of game results on a linear evaluation over sparse features.
//!
//! A position's evaluation is `e = b + Σ v[i]·w[i]` over its active features `i` with their
//! values `v[i]` (1 for most features; a share of it where a feature set blends two tables),
//! in hundredths of a man, where `b` is a fixed base evaluation of the position (0, or the hand evaluation);
//! its predicted score (win 1, draw ½, loss 0) is `p = sigmoid(e / scale)`. The target is the
//! game's result, optionally blended with the search score:
//! `t = (1 - λ)·result + λ·sigmoid(score / scale)`. The loss is the mean cross-entropy
//! `-(t·ln p + (1 - t)·ln(1 - p))` plus `l2/2·Σ w²`, minimised by Adam over shuffled
//! mini-batches. Gradients are summed over fixed chunks of a batch in parallel (rayon) and
//! the chunk sums added in order, so a run gives the same weights with any number of threads.

use rayon::prelude::*;

use polydam_tables::zobrist::splitmix64;

/// Samples per parallel chunk of a gradient or a loss.
const CHUNK: usize = 256;

/// Positions as feature lists, with their targets.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Feature indices of every sample, one after another.
    indices: Vec<u32>,
    /// The value of each entry of `indices`.
    values: Vec<f32>,
    /// Where each sample's indices start in `indices` (one more entry than samples).
    starts: Vec<usize>,
    /// The target of each sample, in [0, 1].
    targets: Vec<f32>,
    /// The base evaluation of each sample, added to its weights.
    bases: Vec<f32>,
}

impl Samples {
    /// No samples.
    pub fn new() -> Samples {
        Samples {
            indices: Vec::new(),
            values: Vec::new(),
            starts: vec![0],
            targets: Vec::new(),
            bases: Vec::new(),
        }
    }

    /// Adds a sample whose features all have the value 1, with its base evaluation
    /// (hundredths of a man).
    pub fn push(&mut self, features: &[u32], base: f32, target: f32) {
        self.indices.extend_from_slice(features);
        self.values.resize(self.indices.len(), 1.0);
        self.starts.push(self.indices.len());
        self.targets.push(target);
        self.bases.push(base);
    }

    /// Adds a sample of `(feature, value)` pairs, with its base evaluation.
    pub fn push_valued(&mut self, features: &[(u32, f32)], base: f32, target: f32) {
        self.indices.extend(features.iter().map(|f| f.0));
        self.values.extend(features.iter().map(|f| f.1));
        self.starts.push(self.indices.len());
        self.targets.push(target);
        self.bases.push(base);
    }

    /// The evaluation of sample `i` under `weights`: its base plus its features' weights,
    /// each times its value.
    pub fn evaluate(&self, weights: &[f64], i: usize) -> f64 {
        let range = self.starts[i]..self.starts[i + 1];
        let sum: f64 = self.indices[range.clone()]
            .iter()
            .zip(&self.values[range])
            .map(|(&f, &v)| weights[f as usize] * v as f64)
            .sum();
        self.bases[i] as f64 + sum
    }

    /// The values of the features of sample `i`, in the order of [`Samples::features`].
    pub fn values(&self, i: usize) -> &[f32] {
        &self.values[self.starts[i]..self.starts[i + 1]]
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// The features of sample `i`.
    pub fn features(&self, i: usize) -> &[u32] {
        &self.indices[self.starts[i]..self.starts[i + 1]]
    }

    /// The target of sample `i`.
    pub fn target(&self, i: usize) -> f32 {
        self.targets[i]
    }

    /// The largest feature index plus one (0 when empty).
    pub fn feature_bound(&self) -> usize {
        self.indices.iter().max().map_or(0, |&m| m as usize + 1)
    }
}

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The blended target of a position: `(1 - lambda)·result + lambda·sigmoid(score / scale)`.
pub fn target(result: f32, score: i32, lambda: f64, scale: f64) -> f32 {
    ((1.0 - lambda) * result as f64 + lambda * sigmoid(score as f64 / scale)) as f32
}

/// The cross-entropy of predicting `p` for target `t` (with `p` kept off 0 and 1).
fn cross_entropy(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The mean cross-entropy of `weights` over `samples` (without the L2 term), or `None` when
/// there is no sample.
pub fn loss(weights: &[f64], samples: &Samples, scale: f64) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    let ids: Vec<usize> = (0..samples.len()).collect();
    let sums: Vec<f64> = ids
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|&i| {
                    let p = sigmoid(samples.evaluate(weights, i) / scale);
                    cross_entropy(p, samples.target(i) as f64)
                })
                .sum::<f64>()
        })
        .collect();
    Some(sums.iter().sum::<f64>() / samples.len() as f64)
}

/// How to train.
#[derive(Clone, Copy, Debug)]
pub struct TrainConfig {
    /// Passes over the training samples.
    pub epochs: usize,
    /// Samples per gradient step.
    pub batch_size: usize,
    /// Adam's step size, in hundredths of a man (about the largest change of a weight per
    /// step).
    pub learning_rate: f64,
    /// L2 regularisation strength (0 for none).
    pub l2: f64,
    /// The evaluation that means a 73% expected score (`sigmoid(1)`), in hundredths of a man.
    pub scale: f64,
    /// Seed of the shuffling.
    pub seed: u64,
}

/// The losses after one epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: usize,
    /// Mean cross-entropy over the training samples.
    pub train_loss: f64,
    /// Mean cross-entropy over the validation samples, if there are any.
    pub valid_loss: Option<f64>,
}

/// Adam's state.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    steps: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-8;

    fn step(&mut self, weights: &mut [f64], grad: &[f64], rate: f64) {
        self.steps += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.steps);
        let c2 = 1.0 - Self::BETA2.powi(self.steps);
        for (i, w) in weights.iter_mut().enumerate() {
            let g = grad[i];
            self.m[i] = Self::BETA1 * self.m[i] + (1.0 - Self::BETA1) * g;
            self.v[i] = Self::BETA2 * self.v[i] + (1.0 - Self::BETA2) * g * g;
            let m = self.m[i] / c1;
            let v = self.v[i] / c2;
            *w -= rate * m / (v.sqrt() + Self::EPSILON);
        }
    }
}

/// The gradient of the mean loss over `batch` (sample indices) at `weights`.
fn gradient(weights: &[f64], samples: &Samples, batch: &[usize], c: &TrainConfig) -> Vec<f64> {
    let n = weights.len();
    let parts: Vec<Vec<f64>> = batch
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut g = vec![0.0; n];
            for &i in chunk {
                let p = sigmoid(samples.evaluate(weights, i) / c.scale);
                let d = (p - samples.target(i) as f64) / c.scale;
                for (&j, &v) in samples.features(i).iter().zip(samples.values(i)) {
                    g[j as usize] += d * v as f64;
                }
            }
            g
        })
        .collect();
    let mut grad = vec![0.0; n];
    for part in parts {
        for (g, p) in grad.iter_mut().zip(part) {
            *g += p;
        }
    }
    let k = 1.0 / batch.len() as f64;
    for (g, w) in grad.iter_mut().zip(weights) {
        *g = *g * k + c.l2 * w;
    }
    grad
}

/// Fits `weights` (one per feature, updated in place) to `train`; after every epoch calls
/// `on_epoch` with the losses, and `on_step` after every batch. Runs on the current rayon
/// pool. Deterministic for a given configuration.
pub fn train(
    weights: &mut [f64],
    train: &Samples,
    valid: &Samples,
    config: &TrainConfig,
    on_epoch: &mut dyn FnMut(&EpochReport),
    on_step: &dyn Fn(),
) {
    let mut adam = Adam {
        m: vec![0.0; weights.len()],
        v: vec![0.0; weights.len()],
        steps: 0,
    };
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut state = config.seed;
    let batch_size = config.batch_size.max(1);
    for epoch in 1..=config.epochs {
        // Fisher-Yates with SplitMix64.
        for i in (1..order.len()).rev() {
            let (s, r) = splitmix64(state);
            state = s;
            order.swap(i, (r % (i as u64 + 1)) as usize);
        }
        for batch in order.chunks(batch_size) {
            let grad = gradient(weights, train, batch, config);
            adam.step(weights, &grad, config.learning_rate);
            on_step();
        }
        on_epoch(&EpochReport {
            epoch,
            train_loss: loss(weights, train, config.scale).unwrap_or(f64::NAN),
            valid_loss: loss(weights, valid, config.scale),
        });
    }
}

/// The number of gradient steps in one epoch over `samples` samples.
pub fn steps_per_epoch(samples: usize, batch_size: usize) -> usize {
    samples.div_ceil(batch_size.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two features: 0 wins, 1 loses, 2 is noise.
    fn toy() -> Samples {
        let mut s = Samples::new();
        for i in 0..400u32 {
            let noise = [2u32];
            match i % 4 {
                0 => s.push(&[0], 0.0, 1.0),
                1 => s.push(&[1], 0.0, 0.0),
                2 => s.push(&[0, 2], 0.0, 0.5),
                _ => s.push(&noise, 0.0, 0.5),
            }
        }
        s
    }

    #[test]
    fn training_lowers_the_loss_and_is_deterministic() {
        let data = toy();
        let config = TrainConfig {
            epochs: 10,
            batch_size: 32,
            learning_rate: 5.0,
            l2: 0.0,
            scale: 100.0,
            seed: 1,
        };
        let run = || {
            let mut w = vec![0.0; 3];
            let mut losses = Vec::new();
            train(
                &mut w,
                &data,
                &Samples::new(),
                &config,
                &mut |r| losses.push(r.train_loss),
                &|| {},
            );
            (w, losses)
        };
        let (w, losses) = run();
        let start = loss(&[0.0; 3], &data, 100.0).expect("samples");
        assert!((start - std::f64::consts::LN_2).abs() < 1e-9);
        assert!(losses[9] < losses[0] && losses[0] < start, "{losses:?}");
        assert!(w[0] > 0.0 && w[1] < 0.0, "{w:?}");
        assert_eq!(run().0, w);
    }

    #[test]
    fn the_base_is_added_to_the_weights() {
        let mut s = Samples::new();
        s.push(&[0], 100.0, 1.0);
        s.push(&[1], -100.0, 0.0);
        assert_eq!(s.evaluate(&[5.0, 7.0], 0), 105.0);
        assert_eq!(s.evaluate(&[5.0, 7.0], 1), -93.0);
        // A base that already predicts the targets well starts below ln 2.
        let start = loss(&[0.0, 0.0], &s, 100.0).expect("samples");
        assert!(
            (start - (1.0 + (-1.0f64).exp()).ln()).abs() < 1e-9,
            "{start}"
        );
    }

    #[test]
    fn feature_values_weigh_their_weights_and_gradients() {
        let mut s = Samples::new();
        s.push_valued(&[(0, 0.25), (1, 0.75), (2, 1.0)], 10.0, 1.0);
        assert_eq!(s.evaluate(&[4.0, 8.0, 1.0], 0), 10.0 + 1.0 + 6.0 + 1.0);
        // A feature of value 0 gets no gradient; the others get theirs in proportion.
        s.push_valued(&[(0, 0.0), (1, 1.0)], 0.0, 1.0);
        let c = TrainConfig {
            epochs: 1,
            batch_size: 2,
            learning_rate: 1.0,
            l2: 0.0,
            scale: 100.0,
            seed: 1,
        };
        let g = gradient(&[0.0; 3], &s, &[1], &c);
        assert_eq!(g[0], 0.0);
        assert!(g[1] < 0.0);
        let g = gradient(&[0.0; 3], &s, &[0], &c);
        assert!((g[1] / g[0] - 3.0).abs() < 1e-9, "{g:?}");
    }

    #[test]
    fn the_target_blends_result_and_score() {
        assert_eq!(target(1.0, -500, 0.0, 200.0), 1.0);
        assert_eq!(target(0.0, 0, 1.0, 200.0), 0.5);
        assert!((target(1.0, 0, 0.5, 200.0) - 0.75).abs() < 1e-6);
    }
}
