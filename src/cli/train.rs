//! `polydam train`: fits the weights of a linear evaluation over sparse features to
//! `polydam selfplay` data, by logistic regression (see `docs/training.md` and
//! [`crate::forge::train`], which reads the data and fits the weights).
//!
//! The loss of the training and validation sets is printed after every epoch as
//! `epoch N train-loss X valid-loss Y`, and the weights are written at the end.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use polydam_engine::learn::features::{FeatureKind, Features, FeaturesVisitor};
use polydam_engine::learn::weights::{Base, WeightsFile};
use polydam_engine::variants::dispatch_features;

use crate::forge::train::logistic::{self, TrainConfig};
use crate::forge::train::{data_variant, load, Loaded, SampleSpec};

use super::CliError;
use crate::files::{refuse_input_as_output, replace_with};

/// Options of `polydam train`.
#[derive(clap::Args, Clone, Debug)]
pub struct TrainOptions {
    /// Data files written by `polydam selfplay` (read one after another).
    #[arg(required = true, value_name = "DATA")]
    pub data: Vec<PathBuf>,
    /// Variant of the data (see `polydam variants`; default: the one the first data file's
    /// `# polydam selfplay variant=...` line names, else international). Files whose line
    /// names another variant are refused.
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// The feature set: `psq` (piece-square: men and kings by square on diagonal and
    /// orthogonal boards; stacks by size bucket and square in Seesaw Draughts, tile and
    /// stack by cell in hex Seesaw; all with middle-game and endgame tables) or `patterns`
    /// (board patterns with middle-game and endgame tables: 4x4 windows on diagonal boards,
    /// ranks and files and kings by square on orthogonal ones); see docs/training.md.
    /// Default: the family's first set (`psq`, except `patterns` on orthogonal boards).
    #[arg(long, value_parser = parse_kind)]
    pub features: Option<FeatureKind>,
    /// What the weights are added to: `none`, or `hand` (the family's hand-written
    /// evaluation, which the weights then correct).
    #[arg(long, default_value = "none", value_parser = parse_base)]
    pub base: Base,
    /// The weights file to write (replaced once complete, through a temporary file renamed at
    /// the end; never one of the data files).
    #[arg(long, short = 'o')]
    pub output: PathBuf,
    /// Name every feature in the weights file (for reading it; the file gets larger).
    #[arg(long)]
    pub names: bool,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 1024)]
    pub batch_size: usize,
    /// Adam's step size, in hundredths of a man.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// L2 regularisation strength.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// The evaluation (hundredths of a man) that predicts a 73% score: sigmoid(eval / scale).
    #[arg(long, default_value_t = 200.0)]
    pub scale: f64,
    /// Weight of the search score in the target, 0 (the game result only) to 1.
    #[arg(long, default_value_t = 0.0)]
    pub lambda: f64,
    /// Percentage of the positions held out for validation.
    #[arg(long, default_value_t = 10.0)]
    pub valid_percent: f64,
    /// Seed of the shuffling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Start from the weights of this file rather than from zeros (training goes on from
    /// them with new data): its feature set, variant, base and scale must be those of the run
    /// (a `diagonal-patterns-v1` file may start a v2 run: the same tables, then blended).
    #[arg(long, value_name = "WEIGHTS")]
    pub init: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long, short = 't')]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

fn parse_base(name: &str) -> Result<Base, String> {
    Base::from_name(name).ok_or_else(|| format!("unknown base '{name}' (none or hand)"))
}

fn parse_kind(name: &str) -> Result<FeatureKind, String> {
    FeatureKind::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = FeatureKind::ALL.iter().map(|k| k.name()).collect();
        format!("unknown feature set '{name}' (one of {})", names.join(", "))
    })
}

fn loss_text(loss: Option<f64>) -> String {
    loss.map_or("-".into(), |l| format!("{l:.6}"))
}

/// The feature set `--features` asks for, or the family's first; an error when the family
/// has no such set.
fn feature_kind<G: Features>(o: &TrainOptions) -> Result<FeatureKind, CliError> {
    let kind = o.features.unwrap_or(G::feature_kinds()[0]);
    if G::feature_kinds().contains(&kind) {
        return Ok(kind);
    }
    Err(no_feature_set(kind, G::NAME, G::feature_kinds()))
}

/// The error for a feature set `kind` that `variant` does not have (it has `offered`).
fn no_feature_set(kind: FeatureKind, variant: &str, offered: &[FeatureKind]) -> CliError {
    let offered: Vec<&str> = offered.iter().map(|k| k.name()).collect();
    CliError(format!(
        "no '{}' feature set for {} (its family has {}: choose with --features)",
        kind.name(),
        variant,
        offered.join(", ")
    ))
}

/// Writes the fitted `weights` of `G` to `--output`.
fn write_weights<G: Features>(
    o: &TrainOptions,
    kind: FeatureKind,
    weights: Vec<f64>,
) -> Result<(), CliError> {
    let file = WeightsFile {
        feature_set: G::feature_set(kind),
        variant: G::NAME.to_string(),
        base: o.base,
        scale: o.scale,
        weights,
    };
    let name = |i| G::feature_name(kind, i);
    let text = file.to_text(o.names.then_some(&name as &dyn Fn(usize) -> String));
    replace_with(&o.output, &text)
}

struct TrainJob<'a, W: Write> {
    opts: &'a TrainOptions,
    out: &'a mut W,
}

impl<W: Write> FeaturesVisitor for TrainJob<'_, W> {
    type Output = Result<(), CliError>;

    fn visit<G: Features>(self) -> Self::Output {
        let o = self.opts;
        let out = self.out;
        let kind = feature_kind::<G>(o)?;
        if let Some(t) = o.threads {
            // The epoch callback writes to `out`, so the work runs on the global pool (from
            // this thread) rather than inside a local pool's `install`. Setting it fails only
            // when it already runs (a second call in one process), which changes only speed.
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build_global();
        }
        let started = Instant::now();
        let spec = SampleSpec {
            data: &o.data,
            kind,
            base: o.base,
            lambda: o.lambda,
            scale: o.scale,
            valid_percent: o.valid_percent,
        };
        let data = load::<G>(&spec).map_err(|e| CliError(e.0))?;
        let features = (G::feature_count(kind), G::feature_set(kind));
        let init = match &o.init {
            Some(path) => Some(initial_weights(o, path, G::NAME, &features)?),
            None => None,
        };
        let (weights, trained) = train_loaded(o, out, &data, features, init, started)?;
        write_weights::<G>(o, kind, weights)?;
        writeln!(
            out,
            "trained in {:.3} s, weights written to {}",
            trained.elapsed().as_secs_f64(),
            o.output.display()
        )
        .map_err(|e| CliError(format!("cannot write output: {e}")))?;
        Ok(())
    }
}

/// The weights of `--init` (the file at `path`), checked against the run: the same feature
/// set (`features`: count and name), variant, base and scale. Not generic in the game.
fn initial_weights(
    o: &TrainOptions,
    path: &std::path::Path,
    variant: &str,
    features: &(usize, String),
) -> Result<Vec<f64>, CliError> {
    let shown = path.display();
    let text = polydam_engine::files::read_text(path, polydam_engine::files::TEXT_LIMIT)
        .map_err(|e| CliError(format!("cannot read --init {shown}: {e}")))?;
    let file = WeightsFile::parse(&text)
        .map_err(|e| CliError(format!("--init {shown} is not a weights file: {e}")))?;
    let (count, set) = features;
    let mismatch = |what: &str, theirs: String, ours: String| {
        CliError(format!(
            "--init {shown} has {what} {theirs}, but this run trains {what} {ours}"
        ))
    };
    // A v1 file of the diagonal patterns holds the same tables as v2, only not blended.
    let same_tables = file.feature_set == *set
        || matches!(
            (
                file.feature_set.strip_prefix("diagonal-patterns-v1-"),
                set.strip_prefix("diagonal-patterns-v2-")
            ),
            (Some(a), Some(b)) if a == b
        );
    if !same_tables || file.weights.len() != *count {
        let theirs = format!("{} ({} features)", file.feature_set, file.weights.len());
        return Err(mismatch(
            "feature set",
            theirs,
            format!("{set} ({count} features)"),
        ));
    }
    if file.variant != variant {
        return Err(mismatch("variant", file.variant, variant.to_string()));
    }
    if file.base != o.base {
        let (theirs, ours) = (file.base.name().to_string(), o.base.name().to_string());
        return Err(mismatch("base", theirs, ours));
    }
    if file.scale != o.scale {
        return Err(mismatch(
            "scale",
            file.scale.to_string(),
            o.scale.to_string(),
        ));
    }
    Ok(file.weights)
}

/// Fits weights to the loaded `data` (with `features`: their count and the set's name; from
/// `init` when given, else from zeros; the time loading `started`), printing the losses on
/// `out`; returns the weights and when training started. Not generic in the game, so that it
/// is compiled once.
fn train_loaded(
    o: &TrainOptions,
    out: &mut dyn Write,
    data: &Loaded,
    features: (usize, String),
    init: Option<Vec<f64>>,
    started: Instant,
) -> Result<(Vec<f64>, Instant), CliError> {
    let io = |e: std::io::Error| CliError(format!("cannot write output: {e}"));
    if data.train.is_empty() {
        return Err(CliError(if data.valid.is_empty() {
            "the data holds no position".into()
        } else {
            "no position is left for training: lower --valid-percent".into()
        }));
    }
    let (count, set) = features;
    writeln!(
        out,
        "positions {} train {} valid {} features {} ({}) loaded in {:.3} s",
        data.train.len() + data.valid.len(),
        data.train.len(),
        data.valid.len(),
        count,
        set,
        started.elapsed().as_secs_f64()
    )
    .map_err(io)?;

    let config = TrainConfig {
        epochs: o.epochs,
        batch_size: o.batch_size,
        learning_rate: o.lr,
        l2: o.l2,
        scale: o.scale,
        seed: o.seed,
    };
    let mut weights = init.unwrap_or_else(|| vec![0.0; count]);
    let steps = logistic::steps_per_epoch(data.train.len(), o.batch_size) * o.epochs;
    let bar = super::counting_bar(steps, "steps", o.quiet);
    let mut written: Result<(), CliError> = Ok(());
    let start_train = logistic::loss(&weights, &data.train, o.scale);
    let start_valid = logistic::loss(&weights, &data.valid, o.scale);
    writeln!(
        out,
        "epoch 0 train-loss {} valid-loss {}",
        loss_text(start_train),
        loss_text(start_valid)
    )
    .map_err(io)?;
    let trained = Instant::now();
    logistic::train(
        &mut weights,
        &data.train,
        &data.valid,
        &config,
        &mut |r| {
            let line = format!(
                "epoch {} train-loss {} valid-loss {}",
                r.epoch,
                loss_text(Some(r.train_loss)),
                loss_text(r.valid_loss)
            );
            bar.set_message(format!("train-loss {:.6}", r.train_loss));
            if written.is_ok() {
                written = bar
                    .suspend(|| writeln!(out, "{line}").and_then(|_| out.flush()))
                    .map_err(io);
            }
        },
        &|| bar.inc(1),
    );
    bar.finish_and_clear();
    written?;
    Ok((weights, trained))
}

/// Runs `polydam train`: prints the losses on `out` and writes the weights file.
pub fn run_train(opts: &TrainOptions, mut out: &mut dyn Write) -> Result<(), CliError> {
    // Not generic in the writer, so that every variant's code is compiled once, here,
    // and not again in each caller.
    run_train_to(opts, &mut out)
}

fn run_train_to<W: Write>(opts: &TrainOptions, out: &mut W) -> Result<(), CliError> {
    let inputs = opts.data.iter().chain(&opts.init).map(PathBuf::as_path);
    refuse_input_as_output("-o", &opts.output, inputs)?;
    if opts.epochs == 0 {
        return Err(CliError("--epochs must be at least 1".into()));
    }
    if opts.batch_size == 0 {
        return Err(CliError("--batch-size must be at least 1".into()));
    }
    if opts.threads == Some(0) {
        return Err(CliError("--threads must be at least 1".into()));
    }
    if !(opts.lr > 0.0 && opts.lr.is_finite()) {
        return Err(CliError("--lr must be a positive number".into()));
    }
    if !(opts.scale > 0.0 && opts.scale.is_finite()) {
        return Err(CliError("--scale must be a positive number".into()));
    }
    if !(0.0..=1.0).contains(&opts.lambda) {
        return Err(CliError("--lambda must be between 0 and 1".into()));
    }
    if !(0.0..100.0).contains(&opts.valid_percent) {
        return Err(CliError(
            "--valid-percent must be at least 0 and below 100".into(),
        ));
    }
    if !(opts.l2 >= 0.0 && opts.l2.is_finite()) {
        return Err(CliError("--l2 must be at least 0".into()));
    }
    let variant = match &opts.variant {
        Some(v) => v.clone(),
        None => data_variant(&opts.data)
            .map_err(|e| CliError(e.0))?
            .unwrap_or_else(|| "international".into()),
    };
    dispatch_features(
        &variant,
        TrainJob {
            opts,
            out: &mut *out,
        },
    )?
}
