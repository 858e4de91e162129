//! Golden transcripts: whole Hub sessions against the real `polydam hub` binary, one test per
//! file in `tests/cli/transcripts/` (the format is described in `common/mod.rs`).

use crate::common;

fn transcript(name: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("cli")
        .join("transcripts")
        .join(name);
    let script = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    common::run(&script);
}

macro_rules! transcripts {
    ($($test:ident => $file:literal,)*) => {
        $(
            #[test]
            fn $test() {
                transcript($file);
            }
        )*

        #[test]
        fn every_transcript_file_has_a_test() {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/transcripts");
            let known = [$($file),*];
            for entry in std::fs::read_dir(dir).expect("transcripts dir") {
                let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
                assert!(known.contains(&name.as_str()), "{name} has no test in transcripts.rs");
            }
        }
    };
}

transcripts! {
    international_game => "international_game.hub",
    every_level_form => "levels.hub",
    analyze_ping_and_stop => "analyze_ping_stop.hub",
    ponder_and_ponder_hit => "ponder.hub",
    other_commands_end_a_search => "other_commands_end_search.hub",
    eof_during_a_search => "eof.hub",
    eof_when_idle => "eof_idle.hub",
    russian_in_pydraughts_numbering => "russian_pydraughts.hub",
    english_in_pydraughts_numbering => "english_pydraughts.hub",
    italian_brazilian_and_aliases => "other_8x8_and_aliases.hub",
    frisian_counters_from_moves_and_frysk => "frisian_hub.hub",
}

#[test]
fn bare_polydam_speaks_hub() {
    common::Engine::start_with(true).run_script(
        "> hub\n<* id *\n<* param *\n< wait\n> init\n< ready\n> pos fen=W:W28:B23\n\
         > level depth=1\n> go think\n<* info *\n< done move=28x19x23\n> quit\n",
    );
}

#[test]
fn one_done_per_go_over_many_searches() {
    let mut engine = common::Engine::start();
    engine.send("init");
    engine.expect("ready");
    for i in 0..30 {
        engine.send("pos start moves=\"32-28 19-23\"");
        engine.send("level infinite");
        engine.send("go analyze");
        // Stop at once, after a while, or end the search with another command.
        match i % 3 {
            0 => engine.send("stop"),
            1 => {
                std::thread::sleep(std::time::Duration::from_millis(20));
                engine.send("stop");
            }
            _ => engine.send("new-game"),
        }
        let (_, skipped) = engine.until("done*");
        assert!(
            skipped.iter().all(|l| l.starts_with("info ")),
            "{skipped:?}"
        );
    }
    engine.send("ping");
    engine.expect("pong");
    engine.send("quit");
    engine.finish();
}
