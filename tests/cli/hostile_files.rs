//! Input files that are not files, outputs that are inputs, and interrupted writers (issue 50,
//! defects 4, 5, 8 and 11): a named pipe or an endless device (`/dev/zero`, or a link to it)
//! where a table, a book, a weights file or training data should be is refused with a message
//! naming it, at once; a command never replaces its own input; an interrupted selfplay keeps
//! the old data file; a deleted `.dtc` file is reported, not silently dropped.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::common::Engine;

/// How soon a refusal must come (a blocked open or an endless read never ends).
const PROMPTLY: Duration = Duration::from_secs(1);

/// How long a command may run before the test kills it and fails.
const HUNG: Duration = Duration::from_secs(20);

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("polydam-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn utf8(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}

/// Makes a named pipe at `path` (nobody ever writes to it).
fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Replaces `path` with a symbolic link to `/dev/zero`.
fn link_to_zero(path: &Path) {
    let _ = std::fs::remove_file(path);
    std::os::unix::fs::symlink("/dev/zero", path).expect("symlink");
}

/// Runs `polydam args`, killing it after [`HUNG`]; returns its output and how long it ran.
fn run(args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = crate::common::polydam()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("polydam starts");
    loop {
        match child.try_wait().expect("wait") {
            Some(_) => break,
            None if started.elapsed() > HUNG => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{args:?} still running after {HUNG:?} (blocked or reading forever)");
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    }
    let elapsed = started.elapsed();
    (child.wait_with_output().expect("output"), elapsed)
}

/// Runs `args`, which must fail with status 2 within [`PROMPTLY`], `message` on stderr.
fn refused(args: &[&str], message: &str) -> String {
    let (o, elapsed) = run(args);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(message), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(elapsed < PROMPTLY, "{args:?} took {elapsed:?}");
    stderr
}

/// Runs `args`, which must succeed; returns stdout and stderr.
fn ok(args: &[&str]) -> (String, String) {
    let (o, _) = run(args);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{args:?}: {stderr}");
    (String::from_utf8_lossy(&o.stdout).into_owned(), stderr)
}

/// International's tables of up to 3 pieces, built once for every test of this module.
fn tables() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = scratch("tables");
        ok(&[
            "egtb",
            "build",
            "--variant",
            "international",
            "--pieces",
            "3",
            "--dir",
            utf8(&dir),
            "-t",
            "1",
            "-q",
        ]);
        dir
    })
}

/// A copy of [`tables`] in a fresh directory, to damage.
fn tables_copy(name: &str) -> PathBuf {
    let dir = scratch(name);
    let from = tables().join("international");
    let to = dir.join("international");
    std::fs::create_dir_all(&to).expect("directory");
    for entry in std::fs::read_dir(&from).expect("built") {
        let path = entry.expect("entry").path();
        if path.is_file() {
            std::fs::copy(&path, to.join(path.file_name().expect("name"))).expect("copied");
        }
    }
    dir
}

fn probe_args(dir: &str) -> Vec<&str> {
    vec![
        "egtb",
        "probe",
        "--variant",
        "international",
        "--pieces",
        "3",
        "--dir",
        dir,
        "--fen",
        "W:WK41:BK5",
    ]
}

fn verify_args(dir: &str) -> Vec<&str> {
    vec![
        "egtb",
        "verify",
        "--variant",
        "international",
        "--pieces",
        "3",
        "--dir",
        dir,
        "-t",
        "1",
        "-q",
        "--again",
    ]
}

/// Sends `init` to the Hub engine `e`, which must answer `ready` within [`PROMPTLY`], with an
/// `error` line holding `message` before it.
fn hub_init_reports(e: &mut Engine, message: &str) {
    let started = Instant::now();
    e.send("init");
    let (_, before) = e.until("ready");
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("error message=") && l.contains(message)),
        "{before:?}"
    );
    let elapsed = started.elapsed();
    assert!(elapsed < PROMPTLY, "init took {elapsed:?}");
}

#[test]
fn tables_that_are_pipes_or_endless_are_refused_at_once() {
    let dir = tables_copy("pipes");
    let d = utf8(&dir);
    // Not the slice of the position probed (two kings, m0k1-m0k1): that one still serves.
    let slice = dir.join("international").join("m0k2-m0k1.wdl");
    for (spoil, what) in [
        (
            mkfifo as fn(&Path),
            "a named pipe (FIFO), not a regular file",
        ),
        (link_to_zero, "a character device, not a regular file"),
    ] {
        spoil(&slice);
        let message = format!("m0k2-m0k1.wdl: {what}");
        // The probe warns and goes on with the other slices (this position is in another).
        let (o, elapsed) = run(&probe_args(d));
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{stderr}");
        assert!(stderr.contains(&message), "{stderr}");
        assert!(elapsed < PROMPTLY, "probe took {elapsed:?}");
        refused(&verify_args(d), &message);
        // The Hub reports it at once and plays on with the other slices.
        let mut e = Engine::start();
        e.send("hub");
        e.until("wait");
        e.send(&format!("set-param name=egtb-dir value={d}"));
        e.send("set-param name=bb-size value=3");
        hub_init_reports(&mut e, &message);
        e.send("pos fen=W:WK41:BK5");
        e.send("level depth=3");
        e.send("go think");
        e.until("done move=41-46*");
        e.send("quit");
        e.finish();
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_deleted_distance_file_is_reported() {
    let dir = tables_copy("dtc");
    let d = utf8(&dir);
    // The slice of the position probed: two kings, a win in 3 plies.
    let dtc = dir.join("international").join("m0k1-m0k1.dtc");
    std::fs::remove_file(&dtc).expect("built with distances");
    let message = "m0k1-m0k1.dtc: distance file missing";
    // The probe still gives the value, and says why it has no distance.
    let (out, err) = ok(&probe_args(d));
    assert!(out.contains("win for white"), "{out}");
    assert!(!out.contains("plies to conversion"), "{out}");
    assert!(err.contains(message), "{err}");
    // The verifier says so in one line instead of counting every distance wrong.
    let err = refused(&verify_args(d), message);
    assert!(!err.contains("inconsisten"), "{err}");
    // The Hub reports it too.
    let mut e = Engine::start();
    e.send("hub");
    e.until("wait");
    e.send(&format!("set-param name=egtb-dir value={d}"));
    e.send("set-param name=bb-size value=3");
    hub_init_reports(&mut e, message);
    e.send("quit");
    e.finish();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn data_books_and_weights_that_are_pipes_or_endless_are_refused() {
    let dir = scratch("inputs");
    let fifo = dir.join("pipe.txt");
    mkfifo(&fifo);
    let zero = dir.join("zero.txt");
    link_to_zero(&zero);
    let out = dir.join("out.txt");
    for (path, what) in [
        (&fifo, "a named pipe (FIFO), not a regular file"),
        (&zero, "a character device, not a regular file"),
        (
            &PathBuf::from("/dev/zero"),
            "a character device, not a regular file",
        ),
    ] {
        let p = utf8(path);
        let o = utf8(&out);
        refused(&["train", p, "-o", o, "--epochs", "1"], what);
        refused(&["book", "show", p], what);
        refused(&["book", "show", p, "-v", "international"], what);
        refused(&["book", "merge", p, "-o", o, "-v", "international"], what);
        refused(
            &["selfplay", "--games", "1", "-d", "1", "--book", p, "-o", o],
            what,
        );
        refused(&["positions", p, "-o", o, "--count", "1"], what);
        // The Hub refuses the book and the weights, keeps what it had, and plays.
        let mut e = Engine::start();
        e.send(&format!("set-param name=weights value={p}"));
        let line = e.recv_within(PROMPTLY).unwrap_or_default();
        assert!(
            line.starts_with("error message=") && line.contains(what),
            "{line}"
        );
        e.send(&format!("set-param name=book-file value={p}"));
        hub_init_reports(&mut e, what);
        e.send("pos start");
        e.send("level depth=2");
        e.send("go think");
        e.until("done move=*");
        e.send("quit");
        e.finish();
    }
    assert!(!out.exists(), "nothing was written");
    std::fs::remove_dir_all(&dir).ok();
}

/// A line of training data and a book line, both of International.
const DATA: &str = "W:W31-50:B1-20 0.5 0 0\n";
const BOOK: &str = "W:W31-50:B1-20 ; 32-28 10 33-28 9\n";

#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = scratch("same");
    let data = dir.join("data.txt");
    let book = dir.join("openings.txt");
    let link = dir.join("link.txt");
    std::fs::write(&data, DATA).expect("written");
    std::fs::write(&book, "32-28\n").expect("written");
    std::os::unix::fs::symlink(&data, &link).expect("symlink");
    let merged = dir.join("merged.book");
    std::fs::write(&merged, BOOK).expect("written");
    let (d, b, l, m) = (utf8(&data), utf8(&book), utf8(&link), utf8(&merged));
    let message = "is also an input";
    refused(&["train", d, "-o", d, "--epochs", "1"], message);
    refused(&["train", d, "-o", l, "--epochs", "1"], message);
    refused(&["positions", d, "-o", d, "--count", "1"], message);
    refused(&["book", "merge", m, "-o", m], message);
    refused(
        &["selfplay", "--games", "1", "-d", "1", "--book", b, "-o", b],
        message,
    );
    assert_eq!(std::fs::read_to_string(&data).expect("kept"), DATA);
    assert_eq!(std::fs::read_to_string(&book).expect("kept"), "32-28\n");
    assert_eq!(std::fs::read_to_string(&merged).expect("kept"), BOOK);
    // Another output is fine.
    ok(&["book", "merge", m, "-o", utf8(&dir.join("other.book"))]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_interrupted_selfplay_keeps_the_old_file() {
    let dir = scratch("killed");
    let out = dir.join("old.txt");
    std::fs::write(&out, "old content\n").expect("written");
    let mut child = crate::common::polydam()
        .args([
            "selfplay",
            "--games",
            "100000",
            "-d",
            "2",
            "--max-plies",
            "40",
            "-q",
            "-o",
            utf8(&out),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("polydam starts");
    let partial = dir.join(format!(".old.txt.tmp-{}", child.id()));
    // Wait for a game to be written whole, then kill the run.
    let started = Instant::now();
    let data = |text: &str| text.lines().filter(|l| !l.starts_with('#')).count();
    while data(&std::fs::read_to_string(&partial).unwrap_or_default()) < 1 {
        assert!(
            started.elapsed() < HUNG,
            "no games written to {}",
            partial.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("killed");
    child.wait().expect("ended");
    assert_eq!(
        std::fs::read_to_string(&out).expect("kept"),
        "old content\n"
    );
    // The games finished are in the temporary file, whole lines only.
    let text = std::fs::read_to_string(&partial).expect("the games so far");
    assert!(
        text.starts_with("# polydam selfplay variant=international"),
        "{text}"
    );
    assert!(text.ends_with('\n'), "a line cut: {text}");
    std::fs::remove_dir_all(&dir).ok();
}
