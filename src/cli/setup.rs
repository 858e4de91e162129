//! Setting up a position from `--fen` and `--moves` options.

use polydam_engine::game::Game;
use polydam_engine::record::GameRecord;
use polydam_engine::text::excerpt;

use super::CliError;

/// The game record after reading `fen` (or the start position) and playing `moves`.
pub fn record<G: Game>(fen: Option<&str>, moves: Option<&str>) -> Result<GameRecord<G>, CliError> {
    let start = match fen {
        Some(text) => {
            G::parse_position(text).map_err(|e| CliError(format!("bad position: {e}")))?
        }
        None => G::start(),
    };
    let mut record = GameRecord::<G>::new(start);
    if let Some(list) = moves {
        for (i, text) in list.split_whitespace().enumerate() {
            record
                .push_text(text)
                .map_err(|e| CliError(format!("move {} ('{}'): {e}", i + 1, excerpt(text))))?;
        }
    }
    Ok(record)
}

/// The position options shared by the subcommands that start from a position: `--variant`,
/// `--fen` and `--moves` (flattened into each subcommand's options).
#[derive(Clone, Debug, clap::Args)]
pub struct PositionArgs {
    /// Variant name (see `polydam variants`).
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: String,
    /// Position: PDN FEN or Hub string (default: the variant's start).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, from the position.
    #[arg(long)]
    pub moves: Option<String>,
}

impl Default for PositionArgs {
    fn default() -> Self {
        PositionArgs {
            variant: "international".into(),
            fen: None,
            moves: None,
        }
    }
}

impl PositionArgs {
    /// The game record these options describe, for the variant's game type `G`.
    pub fn record<G: Game>(&self) -> Result<GameRecord<G>, CliError> {
        record::<G>(self.fen.as_deref(), self.moves.as_deref())
    }
}
