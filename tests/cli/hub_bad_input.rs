//! Bad input, one test each: every line gets one `error message="..."` that says what was
//! wrong, and the engine keeps its previous state and keeps working.
//!
//! Each test sets up a position with a single legal move (`W:W28:B23`: 28x19x23), sends the
//! bad input, then asks for a move: getting 28x19x23 back shows the position survived.

use crate::common;

const SETUP: &str = "> hub\n<~ wait\n> init\n< ready\n> pos fen=W:W28:B23\n";
const STILL_WORKS: &str =
    "> ping\n< pong\n> level depth=1\n> go think\n<* info *\n< done move=28x19x23\n> quit\n";

/// Runs SETUP, then `bad` (send and expect lines), then STILL_WORKS.
fn check(bad: &str) {
    common::run(&format!("{SETUP}{bad}{STILL_WORKS}"));
}

#[test]
fn empty_line() {
    check(">\n< error message=\"empty line\"\n>  \t \n< error message=\"empty line\"\n");
}

#[test]
fn unknown_command() {
    check("> castle kingside\n< error message=\"unknown command 'castle' (known: *)\"\n");
}

#[test]
fn unknown_argument_is_ignored() {
    check("> level depth=1 flavour=vanilla\n> ping\n< pong\n");
}

#[test]
fn lexer_errors() {
    check(concat!(
        "> pos pos=\"Wbb\n< error message=\"unterminated quote in the value of 'pos' *\"\n",
        "> level =5\n< error message=\"argument with an empty name *\"\n",
    ));
}

#[test]
fn pos_with_a_bad_string() {
    check(concat!(
        "> pos pos=Wxyz\n< error message=\"bad position: position string has 4 characters; *\"\n",
        "> pos pos=Xbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\n",
        "< error message=\"bad position: side to move must be W or B, not 'X'\"\n",
        "> pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwq\n",
        "< error message=\"bad position: character 'q' at position 50 *\"\n",
        "> pos fen=W:W51:B1\n< error message=\"bad position: * 51 is off the board *\"\n",
        "> pos\n< error message=\"pos needs one of pos=<position>, start or fen=<FEN>\"\n",
        "> pos start fen=W:W28:B23\n< error message=\"pos takes only one of *\"\n",
    ));
}

#[test]
fn pos_with_a_bad_english_string() {
    // The pydraughts-numbering translation reports the client's own character positions.
    common::run(concat!(
        "> set-param name=variant value=english\n",
        "> pos pos=Wqbbbbbbbbbbbeeeeeeeewwwwwwwwwwww\n",
        "< error message=\"bad position: character 'q' at position 1 *\"\n",
        "> pos pos=Weeeeeeeeeeeeeebeeeweeeeeeeeeeeee\n",
        "> level depth=1\n> go think\n<* info *\n< done move=14x23x18\n> quit\n",
    ));
}

#[test]
fn illegal_move_in_moves_keeps_the_position_reached_before_it() {
    // 28-22 is illegal after 32-28 19-23 (White must take); the position after two moves is
    // kept, where 28x19x23 is the only move.
    common::run(concat!(
        "> hub\n<~ wait\n> init\n< ready\n",
        "> pos start moves=\"32-28 19-23 28-22 23-19\"\n",
        "< error message=\"illegal move: '28-22' (move 3 of moves=) is not legal in this position; the position after move 2 is kept\"\n",
        "> level depth=1\n> go think\n<* info *\n< done move=28x19x23\n",
        "> pos start moves=\"32-28 19-23 28x19x23 14x23x19 99-1\"\n",
        "< error message=\"bad move 5 '99-1' in moves=: square 99 is off the board *\"\n",
        "> pos start moves=\"32-28 banana\"\n",
        "< error message=\"bad move 2 'banana' in moves=: *\"\n",
        "> quit\n",
    ));
}

#[test]
fn ambiguous_move_in_moves() {
    common::run(concat!(
        "> set-param name=variant value=english\n",
        "> pos fen=W:W31:B18,19,26,27 moves=\"31x15\"\n",
        "< error message=\"ambiguous move: '31x15' (move 1 of moves=) could be 31x15x18x26 or 31x15x19x27; the position after move 0 is kept\"\n",
        "> level depth=1\n> go think\n<* info *\n< done move=31x15x*\n> quit\n",
    ));
}

#[test]
fn unknown_variant() {
    check(concat!(
        "> set-param name=variant value=chess\n",
        "< error message=\"unknown variant 'chess' (known: international, *)\"\n",
        "> set-param name=variant\n< error message=\"set-param: missing argument value=...\"\n",
        "> init\n< ready\n",
    ));
}

#[test]
fn bad_parameter_values() {
    check(concat!(
        "> set-param name=hash value=0\n< error message=\"hash must be an integer from 1 to * (MiB), got '0'\"\n",
        "> set-param name=hash value=1e9\n< error message=\"hash must be an integer *\"\n",
        "> set-param name=threads value=-2\n< error message=\"threads must be an integer from 1 to *, got '-2'\"\n",
        "> set-param name=ponder value=perhaps\n< error message=\"ponder must be true or false, got 'perhaps'\"\n",
        "> set-param name=numbering value=scan\n< error message=\"numbering must be pydraughts or card, got 'scan'\"\n",
        "> set-param name=book value=none\n< error message=\"book must be true or false, got 'none'\"\n",
        "> set-param name=book-margin value=-1\n< error message=\"book-margin must be an integer from 0 to 10000, got '-1'\"\n",
        "> set-param name=openings value=none\n< error message=\"unknown parameter 'openings' *\"\n",
    ));
}

#[test]
fn negative_time_is_clamped_not_an_error() {
    check("> level time=-0.5 inc=0.1\n> level move-time=-3\n> ping\n< pong\n");
}

#[test]
fn absurd_or_malformed_time() {
    check(concat!(
        "> level time=1e300\n< error message=\"time is absurdly large (more than 10000000 seconds), got '1e300'\"\n",
        "> level move-time=soon\n< error message=\"move-time must be a number of seconds, got 'soon'\"\n",
        "> level inc=NaN\n< error message=\"inc must be a finite number of seconds, got 'NaN'\"\n",
        "> level time\n< error message=\"level: argument 'time' needs a value (time=...)\"\n",
    ));
}

#[test]
fn non_numeric_or_negative_depth() {
    check(concat!(
        "> level depth=deep\n< error message=\"depth must be a non-negative integer, got 'deep'\"\n",
        "> level depth=-4\n< error message=\"depth must not be negative, got '-4'\"\n",
        "> level nodes=1.5\n< error message=\"nodes must be a non-negative integer, got '1.5'\"\n",
    ));
}

#[test]
fn a_bad_level_line_changes_no_limit() {
    // depth=1 stays in force after the bad line: the search ends by itself.
    common::run(concat!(
        "> pos fen=W:W28:B23\n> level depth=1\n",
        "> level depth=2 time=abc\n< error message=\"time must be a number of seconds, got 'abc'\"\n",
        "> go think\n<* info *\n< done move=28x19x23\n> quit\n",
    ));
}

#[test]
fn megabyte_line() {
    let mut engine = common::Engine::start();
    engine.send("pos fen=W:W28:B23");
    let huge = format!("pos start moves=\"{}\"", "32-28 ".repeat(200_000));
    assert!(huge.len() > 1 << 20);
    engine.send(&huge);
    engine.expect("error message=\"line too long (1200018 bytes; at most 1048576); line ignored\"");
    // Just under the limit is read (and its moves refused one by one, not as a crash).
    let big = format!("pos start moves=\"{}\"", "32-28 28-32 ".repeat(80_000));
    assert!(big.len() < 1 << 20);
    engine.send(&big);
    engine.expect("error message=\"illegal move: '28-32' (move 2 of moves=) *");
    engine.send("pos fen=W:W28:B23");
    engine.send("level depth=1");
    engine.send("go think");
    engine.until("done move=28x19x23");
    engine.send("quit");
    engine.finish();
}

#[test]
fn invalid_utf8() {
    check(concat!(
        "! bytes 706f7320 ff fe 0a\n",
        "< error message=\"line is not valid UTF-8 (bad byte at offset 4); line ignored\"\n",
        "! bytes c3 28 0a\n",
        "< error message=\"line is not valid UTF-8 (bad byte at offset 0); line ignored\"\n",
    ));
}

#[test]
fn go_with_no_legal_move_owes_a_bare_done() {
    common::run(concat!(
        "> pos fen=W:W:B23\n> level depth=3\n> go think\n< done\n",
        "> ping\n< pong\n> quit\n",
    ));
}

#[test]
fn commands_in_the_wrong_order_still_work() {
    // go before init or pos: the engine opens the variant and searches its start position.
    common::run("> level depth=1\n> go think\n<* info *\n< done move=*\n> quit\n");
}

/// The test hook that stands for the machine's available memory: 100 MiB, of which seven
/// eighths (87 MiB) may go to the table. Real sizes of gigabytes are never asked for.
const SMALL_MACHINE: [(&str, &str); 1] = [("POLYDAM_AVAILABLE_MIB", "100")];

#[test]
fn hash_beyond_the_machine_is_refused_and_the_table_kept() {
    // `set-param name=hash value=32768` once aborted the process (status 134) on a
    // 24 GiB machine; the advertised maximum is now what the machine can give.
    let script = concat!(
        "> hub\n<~ param name=hash value=64 type=int min=1 max=87\n<~ wait\n",
        "> init\n< ready\n",
        "> set-param name=hash value=88\n",
        "< error message=\"cannot allocate a hash table of 88 MiB: this machine can give at \
         most 87 MiB now; the table stays at 64 MiB\"\n",
        "> set-param name=hash value=18446744073709551615\n",
        "< error message=\"hash must be an integer from 1 to 87 (MiB), got *\"\n",
        "> set-param name=hash value=80\n> ping\n< pong\n",
        "> pos fen=W:W28:B23\n",
    );
    common::Engine::start_with_env(false, &SMALL_MACHINE)
        .run_script(&format!("{script}{STILL_WORKS}"));
}

#[test]
fn hash_set_before_init_is_checked_at_once() {
    let script = concat!(
        "> set-param name=hash value=4096\n",
        "< error message=\"cannot allocate a hash table of 4096 MiB: * 87 MiB now; *\"\n",
    );
    common::Engine::start_with_env(false, &SMALL_MACHINE).run_script(&format!(
        "{script}> init\n< ready\n> pos fen=W:W28:B23\n{STILL_WORKS}"
    ));
}
