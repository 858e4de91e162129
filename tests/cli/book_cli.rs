//! The opening book: the Hub's `book` parameters, a damaged book, the margin's random choice,
//! `polydam book grow|merge|show` and sharded growth.

use std::path::{Path, PathBuf};

use crate::common::{polydam, Engine};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("polydam-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// A book of the International start position with three moves within 0.05 of a man.
const START_BOOK: &str = "# a test book\nW:W31-50:B1-20 ; 32-28 10 33-28 9 34-29 8 31-27 -40\n";

fn write(path: &Path, text: &str) -> String {
    std::fs::write(path, text).expect("write the book");
    path.to_str().expect("utf-8 path").to_owned()
}

/// The first move a fresh Hub session plays from the start with this book, margin and seed.
fn first_move(book: &str, margin: i32, seed: u64) -> String {
    let mut engine = Engine::start();
    engine.send(&format!("set-param name=book-file value={book}"));
    engine.send(&format!("set-param name=book-margin value={margin}"));
    engine.send(&format!("set-param name=book-seed value={seed}"));
    engine.send("init");
    engine.expect("ready");
    engine.send("pos start");
    engine.send("level depth=30");
    engine.send("go think");
    engine.expect("info score=* book=* pv=*");
    let done = engine.expect("done move=*");
    engine.send("quit");
    engine.finish();
    done.trim_start_matches("done move=").to_owned()
}

#[test]
fn hub_answers_a_book_move_at_once_with_a_book_info() {
    let dir = scratch("hub");
    let book = write(&dir.join("start.book"), START_BOOK);
    // Depth 30 would take hours: the answer comes from the book.
    let mut engine = Engine::start();
    engine.send(&format!("set-param name=book-file value={book}"));
    engine.send("set-param name=book-margin value=0");
    engine.send("init");
    engine.expect("ready");
    engine.send("pos start");
    engine.send("level depth=30");
    engine.send("go think");
    engine.expect(&format!("info score=0.10 book={book} pv=32-28"));
    engine.expect("done move=32-28");
    // Out of the book: a search.
    engine.send("pos start moves=\"32-28\"");
    engine.send("level depth=2");
    engine.send("go think");
    let (_, skipped) = engine.until("done move=*");
    assert!(skipped.iter().all(|l| !l.contains("book=")), "{skipped:?}");
    // The book turned off: a search from the start too.
    engine.send("set-param name=book value=false");
    engine.send("pos start");
    engine.send("level depth=2");
    engine.send("go think");
    let (_, skipped) = engine.until("done move=*");
    assert!(skipped.iter().any(|l| l.starts_with("info depth=2")));
    assert!(skipped.iter().all(|l| !l.contains("book=")), "{skipped:?}");
    // Analysis never plays from the book.
    engine.send("set-param name=book value=true");
    engine.send("pos start");
    engine.send("level depth=2");
    engine.send("go analyze");
    let (_, skipped) = engine.until("done move=*");
    assert!(skipped.iter().all(|l| !l.contains("book=")), "{skipped:?}");
    engine.send("quit");
    engine.finish();
}

#[test]
fn hub_plays_the_built_in_international_book() {
    let mut engine = Engine::start();
    engine.send("init");
    engine.expect("ready");
    engine.send("pos start");
    engine.send("level depth=30");
    engine.send("go think");
    engine.expect("info score=* book=built-in pv=*");
    engine.expect("done move=*");
    engine.send("quit");
    engine.finish();
}

#[test]
fn a_damaged_book_is_reported_and_the_session_goes_on() {
    let dir = scratch("damaged");
    let good = write(&dir.join("good.book"), START_BOOK);
    let bad = write(
        &dir.join("bad.book"),
        "# two lines\nW:W31-50:B1-20 ; 32-28 10\nB:W28,31,33-50:B1-20 ; 32-26 5\n",
    );
    let mut engine = Engine::start();
    engine.send(&format!("set-param name=book-file value={bad}"));
    engine.send("init");
    let error = engine.expect("error message=*");
    assert!(error.contains("book line 3"), "{error}");
    assert!(error.contains("32-26"), "{error}");
    assert!(error.contains("playing without a book"), "{error}");
    engine.expect("ready");
    // No book: the engine searches.
    engine.send("pos start");
    engine.send("level depth=2");
    engine.send("go think");
    let (_, skipped) = engine.until("done move=*");
    assert!(skipped.iter().all(|l| !l.contains("book=")), "{skipped:?}");
    // A good book, then a bad one: the good one stays.
    engine.send(&format!("set-param name=book-file value={good}"));
    engine.send(&format!("set-param name=book-file value={bad}"));
    let error = engine.expect("error message=*");
    assert!(error.contains("the book stays as it was"), "{error}");
    engine.send("set-param name=book-margin value=0");
    engine.send("pos start");
    engine.send("go think");
    engine.expect(&format!("info score=0.10 book={good} pv=32-28"));
    engine.expect("done move=32-28");
    engine.send("set-param name=book-file value=/no/such/book");
    let error = engine.expect("error message=*");
    assert!(error.contains("cannot read book /no/such/book"), "{error}");
    engine.send("quit");
    engine.finish();
}

#[test]
fn the_margin_varies_the_first_moves_and_margin_zero_does_not() {
    let dir = scratch("margin");
    let book = write(&dir.join("start.book"), START_BOOK);
    let with_margin: Vec<String> = (1..=12).map(|seed| first_move(&book, 5, seed)).collect();
    assert!(
        with_margin.iter().any(|m| *m != with_margin[0]),
        "{with_margin:?}"
    );
    assert!(
        with_margin
            .iter()
            .all(|m| ["32-28", "33-28", "34-29"].contains(&m.as_str())),
        "{with_margin:?}"
    );
    // The same seed gives the same move.
    assert_eq!(first_move(&book, 5, 3), with_margin[2]);
    for seed in 1..=6 {
        assert_eq!(first_move(&book, 0, seed), "32-28");
    }
}

/// The lines of a book file that are entries, sorted.
fn entries(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("book written");
    let mut lines: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(String::from)
        .collect();
    lines.sort();
    lines
}

fn run(args: &[&str]) -> (bool, String, String) {
    let o = polydam().args(args).output().expect("polydam runs");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn book_grow_writes_a_loadable_book_and_shards_merge() {
    let dir = scratch("grow");
    let path = |name: &str| dir.join(name).to_str().expect("utf-8").to_owned();
    let base = path("base.book");
    let grow = |book: &str, extra: &[&str]| {
        let mut args = vec!["book", "grow", "--book", book, "--depth", "2", "--quiet"];
        args.extend_from_slice(extra);
        let (ok, out, err) = run(&args);
        assert!(ok, "{err}");
        out
    };
    let out = grow(&base, &["--positions", "5"]);
    assert!(
        out.starts_with("book 5 positions (0 before, 5 added)"),
        "{out}"
    );
    assert_eq!(entries(Path::new(&base)).len(), 5);
    let (ok, shown, err) = run(&["book", "show", &base]);
    assert!(ok, "{err}");
    assert!(shown.contains("variant international\npositions 5\ndepth 2: 5 positions"));
    assert!(shown.contains("32-28"), "{shown}");
    // The Hub plays from it.
    let mut engine = Engine::start();
    engine.send(&format!("set-param name=book-file value={base}"));
    engine.send("init");
    engine.expect("ready");
    engine.send("pos start");
    engine.send("go think");
    engine.expect(&format!("info score=* book={base} pv=*"));
    engine.expect("done move=*");
    engine.send("quit");
    engine.finish();

    // Two shards grown from the same book, with -o, leave it as it was.
    let before = entries(Path::new(&base));
    let (one, two) = (path("one.book"), path("two.book"));
    grow(&base, &["--positions", "6", "--shard", "1/2", "-o", &one]);
    grow(&base, &["--positions", "6", "--shard", "2/2", "-o", &two]);
    assert_eq!(entries(Path::new(&base)), before);
    let (e1, e2) = (entries(Path::new(&one)), entries(Path::new(&two)));
    assert_eq!(e1.len(), 11);
    assert_eq!(e2.len(), 11);
    let common: Vec<&String> = e1.iter().filter(|l| e2.contains(l)).collect();
    assert_eq!(
        common.len(),
        before.len(),
        "the shards share only the base book"
    );
    let merged = path("merged.book");
    let (ok, out, err) = run(&["book", "merge", &one, &two, "-o", &merged]);
    assert!(ok, "{err}");
    assert!(out.starts_with("book 17 positions"), "{out}");
    let mut union = e1.clone();
    union.extend(e2.iter().cloned());
    union.sort();
    union.dedup();
    assert_eq!(entries(Path::new(&merged)), union);

    // Bad input is refused with a message naming the problem.
    let (ok, _, err) = run(&["book", "grow", "--book", &base, "--shard", "3/2"]);
    assert!(!ok && err.contains("--shard must be I/K"), "{err}");
    let bad = path("bad.book");
    std::fs::write(&bad, "# x\n\nW:W31-50:B1-20 ; 32-28\n").expect("write");
    let (ok, _, err) = run(&["book", "show", &bad]);
    assert!(!ok && err.contains("book line 3"), "{err}");
    let (ok, _, err) = run(&["book", "grow", "--book", &bad, "--depth", "2"]);
    assert!(!ok && err.contains("book line 3"), "{err}");
}

#[test]
fn hub_set_option_turns_the_book_off_before_the_session() {
    let mut child = polydam()
        .args(["hub", "--set", "book=false", "--set", "book-margin=0"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("polydam hub starts");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"hub\ninit\npos start\nlevel depth=2\ngo think\nquit\n")
        .expect("written");
    let out = child.wait_with_output().expect("polydam hub ends");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("param name=book value=false type=bool"),
        "{stdout}"
    );
    assert!(
        stdout.contains("param name=book-margin value=0 "),
        "{stdout}"
    );
    assert!(stdout.contains("info depth=2"), "{stdout}");
    assert!(!stdout.contains("book="), "{stdout}");
    let (ok, _, err) = run(&["hub", "--set", "book-margin=many"]);
    assert!(!ok && err.contains("--set book-margin=many"), "{err}");
}

#[test]
fn play_takes_its_first_move_from_the_book() {
    let dir = scratch("play");
    let book = write(&dir.join("start.book"), START_BOOK);
    let play = |extra: &[&str]| {
        let o = polydam()
            .args(["play", "--engine-side", "white", "--depth", "1", "--ascii"])
            .args(extra)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("polydam play runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let out = play(&["--opening-book", &book, "--book-margin", "0"]);
    assert!(out.contains("engine plays 32-28 (book)"), "{out}");
    let out = play(&["--no-book"]);
    assert!(
        out.contains("engine plays ") && !out.contains("(book)"),
        "{out}"
    );
    let o = polydam()
        .args(["play", "--opening-book", "/no/such.book", "-d", "1"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("polydam play runs");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--opening-book: cannot read book"));
}
