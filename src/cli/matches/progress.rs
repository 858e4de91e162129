//! What a match writes while it runs: the progress on stderr (a bar on a terminal, else a line
//! per finished game) and the PDN file, written in game order as soon as the games before are
//! in.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::Path;

use indicatif::ProgressBar;
use polydam_engine::game::Game;

use super::games::Finished;
use crate::cli::CliError;
use crate::openings::Opening;
use crate::pdn::{self, PdnGame};

/// The progress on stderr.
pub(super) struct Progress<'a> {
    /// The bar, hidden when there is none.
    bar: ProgressBar,
    /// Whether the bar is shown (`--quiet` off and stderr a terminal); else a line per game.
    show_bar: bool,
    /// The last game's number, which each game line counts to: a match resumed with
    /// `--first-game` still says `game 260/312`, not `game 260/54`.
    last: usize,
    /// The engines' names.
    names: &'a [String],
    /// The variant, for the result's notation.
    variant: &'a str,
    /// Whether the games have a clock, whose time used each line then gives.
    clock: bool,
}

impl<'a> Progress<'a> {
    /// The progress of a run of `total` games, the last of them numbered `last`.
    pub fn new(
        variant: &'a str,
        names: &'a [String],
        (total, last): (usize, usize),
        quiet: bool,
        clock: bool,
    ) -> Self {
        let show_bar = !quiet && std::io::stderr().is_terminal();
        let bar = crate::cli::games_bar(total, quiet);
        if show_bar {
            // Drawn now and redrawn every half second: the bar is there before the first
            // game ends, and its elapsed time runs while a long game is played.
            bar.enable_steady_tick(std::time::Duration::from_millis(500));
        }
        Progress {
            bar,
            show_bar,
            last,
            names,
            variant,
            clock,
        }
    }

    /// Shows a finished game: a line (above the bar, which moves on, when there is one), with
    /// the seconds White and Black spent when the games have a clock.
    pub fn game_over(&self, done: &Finished) {
        let (n, names) = (done.job.number, self.names);
        let mut line = format!(
            "game {n}/{}: {} - {} {} ({})",
            self.last,
            names[done.job.white],
            names[done.job.black],
            pdn::result_text(self.variant, done.result),
            done.termination
        );
        if self.clock {
            // Each game's time use, so that a match stopped early still tells it.
            line.push_str(&format!(
                "; time used {:.1} s, {:.1} s",
                done.used[0], done.used[1]
            ));
        }
        if let Some((who, why)) = &done.replayed {
            line.push_str(&format!(
                "; played again: {} failed before the first move ({why})",
                names[*who]
            ));
        }
        if self.show_bar {
            self.bar.inc(1);
            // The line says the forfeit too: its termination is "SIDE forfeits: WHY".
            self.bar.println(line);
        } else {
            eprintln!("{line}");
        }
    }

    /// Clears the bar at the end of the match.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// What a game's PDN tags say of its opening's start position.
pub(super) struct StartTags {
    /// The start position's FEN.
    pub fen: String,
    /// Whether the side to move there is not the variant's first player.
    pub second_player_starts: bool,
}

impl StartTags {
    /// The tags of every opening's start, in order.
    pub fn of<G: Game>(openings: &[Opening<G>]) -> Vec<StartTags> {
        let first = G::side_to_move(&G::start());
        let mut tags = Vec::with_capacity(openings.len());
        for o in openings {
            tags.push(StartTags {
                fen: G::fen(&o.start),
                second_player_starts: G::side_to_move(&o.start) != first,
            });
        }
        tags
    }
}

/// The PDN file (if asked for), written in game order.
pub(super) struct PdnLog<'a> {
    /// The file, if there is one.
    file: Option<BufWriter<File>>,
    /// The first write error; nothing more is written after it.
    error: Option<std::io::Error>,
    /// Games handed over in order so far (written, when there is a file), counting the
    /// games before the first one played (`--first-game`).
    written: usize,
    /// Games of the match before the first one played.
    skip: usize,
    /// The date of the `Date` tags.
    date: String,
    /// The variant's name.
    variant: &'static str,
    /// The variant's start position, whose games need no `FEN` tag.
    start_fen: String,
    /// The start tags of the openings the games point into.
    starts: &'a [StartTags],
    /// The engines' names.
    names: &'a [String],
}

impl<'a> PdnLog<'a> {
    /// Creates the file at `path`, if any, for the games of `variant` (whose start position
    /// has the FEN `start_fen`) from openings with these `starts`, the first one numbered
    /// `skip + 1`.
    pub fn create(
        path: Option<&Path>,
        (variant, start_fen): (&'static str, String),
        starts: &'a [StartTags],
        names: &'a [String],
        skip: usize,
    ) -> Result<Self, CliError> {
        let file = match path {
            Some(path) => {
                Some(BufWriter::new(File::create(path).map_err(|e| {
                    CliError(format!("cannot create {}: {e}", path.display()))
                })?))
            }
            None => None,
        };
        Ok(PdnLog {
            file,
            error: None,
            written: skip,
            skip,
            date: pdn::today(),
            variant,
            start_fen,
            starts,
            names,
        })
    }

    /// Writes the games of `finished` that follow the last one written without a gap.
    pub fn catch_up(&mut self, finished: &BTreeMap<usize, Finished>) {
        while let Some(game) = finished.get(&(self.written + 1)) {
            self.written += 1;
            if self.error.is_none() {
                self.write(game);
            }
        }
    }

    /// Writes one game (when there is a file), keeping the first error.
    fn write(&mut self, game: &Finished) {
        let Some(file) = self.file.as_mut() else {
            return;
        };
        let start = &self.starts[game.job.opening];
        let fen = start.fen.clone();
        let text = pdn::write_game(&PdnGame {
            event: "polydam match".to_owned(),
            site: "?".to_owned(),
            variant: self.variant.to_owned(),
            round: game.job.number,
            date: self.date.clone(),
            white: self.names[game.job.white].clone(),
            black: self.names[game.job.black].clone(),
            result: Some(game.result),
            fen: (fen != self.start_fen).then_some(fen),
            termination: game.termination.clone(),
            moves: game.pdn_moves.clone(),
            second_player_starts: start.second_player_starts,
        });
        if let Err(e) = file.write_all(text.as_bytes()).and_then(|_| file.flush()) {
            self.error = Some(e);
        }
    }

    /// The number of games written, or the write error.
    pub fn finish(self) -> Result<usize, CliError> {
        match self.error {
            Some(e) => Err(CliError(format!("cannot write the PDN file: {e}"))),
            None => Ok(self.written - self.skip),
        }
    }
}
