//! Setting up a position from `--fen` and `--moves` options.

use polydam_engine::game::Game;
use polydam_engine::record::GameRecord;

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
                .map_err(|e| CliError(format!("move {} ('{}'): {e}", i + 1, short(text))))?;
        }
    }
    Ok(record)
}

fn short(text: &str) -> String {
    text.chars().take(40).collect()
}
