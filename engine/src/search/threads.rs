//! The threads of a search, started and joined by code that is not generic: the search hands
//! over its helpers' work as boxed closures, so that the thread machinery is compiled once and
//! not once per game.

/// Stack of every search thread.
const STACK: usize = 16 << 20;

/// One helper's work, run on a thread of its own.
pub(super) type HelperJob<'env> = Box<dyn FnOnce() + Send + 'env>;

/// Runs each of `helpers` on a scoped thread of its own (`search-1`, `search-2`, ...) and
/// `main` on this thread, then joins the helpers. A helper that cannot be started only costs
/// speed: it is dropped unrun. A helper that panics is ignored.
pub(super) fn run_scoped(helpers: Vec<HelperJob<'_>>, main: &mut dyn FnMut()) {
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for (i, job) in helpers.into_iter().enumerate() {
            let spawn = std::thread::Builder::new()
                .name(format!("search-{}", i + 1))
                .stack_size(STACK)
                .spawn_scoped(scope, job);
            if let Ok(handle) = spawn {
                handles.push(handle);
            }
        }
        main();
        for h in handles {
            let _ = h.join();
        }
    });
}
