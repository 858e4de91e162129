//! `polydam serve`: a board in the browser for every variant, served by the program itself.
//!
//! An axum server on tokio serves one page (HTML, JavaScript and CSS embedded in the binary)
//! at `/` and a WebSocket at `/ws` carrying the JSON messages of [`api`] (see `docs/web.md`).
//! Each connection has its own game and engine ([`socket`], [`session`]); the number of
//! connections and the size of messages are limited, and every bad request gets an `error`
//! reply while the connection goes on.

pub mod api;
pub mod session;
pub mod socket;

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::tables::TablesArgs;
use super::CliError;

/// The port when none is given.
pub const DEFAULT_PORT: u16 = 7070;
/// Most connections served at once, by default.
pub const DEFAULT_MAX_CONNECTIONS: usize = 8;
/// The WebSocket library's own limit on a message or frame: beyond it the connection is
/// closed (code 1009). Below it, messages over [`api::MAX_MESSAGE_BYTES`] get an error reply
/// and the connection goes on.
pub const TRANSPORT_LIMIT: usize = 1024 * 1024;

const INDEX_HTML: &str = include_str!("web/index.html");
const BOARD_JS: &str = include_str!("web/board.js");
const BOARD_CSS: &str = include_str!("web/board.css");

/// Options of `polydam serve`.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeOptions {
    /// Address to listen on (127.0.0.1: this machine only; 0.0.0.0: every interface).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Port to listen on (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Most connections (pages) served at once; more are refused with an error.
    #[arg(long, default_value_t = DEFAULT_MAX_CONNECTIONS)]
    pub max_connections: usize,
    /// The endgame tables of every game served (each variant's loaded at its first game).
    #[command(flatten)]
    pub tables: TablesArgs,
}

#[derive(Clone)]
struct AppState {
    active: Arc<AtomicUsize>,
    max: usize,
}

/// Frees a connection slot when the connection ends.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl AppState {
    /// Takes a connection slot, if one is free.
    fn admit(&self) -> Option<Slot> {
        self.active
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.max).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(Arc::clone(&self.active)))
    }
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// Whether a browser's `Origin` names the host it connects to: another site's page must not
/// drive this engine. Clients that send no `Origin` (not browsers) are let in.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let (Ok(origin), Some(Ok(host))) = (
        origin.to_str(),
        headers.get(header::HOST).map(|h| h.to_str()),
    ) else {
        return false;
    };
    let origin_host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
    origin_host.eq_ignore_ascii_case(host)
}

async fn ws_handler(
    upgrade: WebSocketUpgrade,
    headers: HeaderMap,
    State(app): State<AppState>,
) -> Response {
    if !same_origin(&headers) {
        return (
            StatusCode::FORBIDDEN,
            "WebSocket refused: the page comes from another site",
        )
            .into_response();
    }
    let slot = app.admit();
    let limit = app.max;
    upgrade
        .max_message_size(TRANSPORT_LIMIT)
        .max_frame_size(TRANSPORT_LIMIT)
        .on_upgrade(move |socket| async move {
            match slot {
                Some(slot) => {
                    socket::serve(socket).await;
                    drop(slot);
                }
                None => socket::refuse(socket, limit).await,
            }
        })
}

async fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "not found: the board is at /").into_response()
}

/// The server's routes.
fn router(max_connections: usize) -> Router {
    let state = AppState {
        active: Arc::new(AtomicUsize::new(0)),
        max: max_connections,
    };
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/board.js",
            get(|| async { asset("text/javascript; charset=utf-8", BOARD_JS) }),
        )
        .route(
            "/board.css",
            get(|| async { asset("text/css; charset=utf-8", BOARD_CSS) }),
        )
        .route("/ws", get(ws_handler))
        .fallback(not_found)
        .with_state(state)
}

/// Opens `url` in the default browser, or says why not on stderr.
fn open_browser(url: &str) {
    let command = if cfg!(target_os = "macos") {
        std::process::Command::new("open").arg(url).spawn()
    } else if cfg!(windows) {
        std::process::Command::new("cmd")
            .args(["/C", "start", "", url])
            .spawn()
    } else {
        std::process::Command::new("xdg-open").arg(url).spawn()
    };
    if let Err(e) = command {
        eprintln!("polydam: warning: cannot open a browser ({e}); open {url} by hand");
    }
}

/// Runs `polydam serve`: prints the page's URL as the first line of `out`, then serves until
/// the process is stopped.
pub fn run_serve(opts: &ServeOptions, out: &mut dyn Write) -> Result<(), CliError> {
    if opts.max_connections == 0 {
        return Err(CliError("--max-connections must be at least 1".into()));
    }
    session::use_tables(opts.tables.clone());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError(format!("cannot start the server's runtime: {e}")))?;
    runtime.block_on(async {
        let addr = SocketAddr::new(opts.bind, opts.port);
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| {
            CliError(format!(
                "cannot listen on {addr}: {e} (--port 0 takes any free port)"
            ))
        })?;
        let local = listener
            .local_addr()
            .map_err(|e| CliError(format!("cannot read the listening address: {e}")))?;
        let url = format!("http://{local}/");
        writeln!(out, "{url}")
            .and_then(|_| out.flush())
            .map_err(|e| CliError(format!("cannot write output: {e}")))?;
        if opts.open {
            open_browser(&url);
        }
        axum::serve(listener, router(opts.max_connections))
            .await
            .map_err(|e| CliError(format!("the server stopped: {e}")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            if let Ok(v) = v.parse() {
                h.insert(k.clone(), v);
            }
        }
        h
    }

    #[test]
    fn only_the_pages_own_origin_may_connect() {
        assert!(same_origin(&headers(&[(header::HOST, "127.0.0.1:7070")])));
        assert!(same_origin(&headers(&[
            (header::HOST, "127.0.0.1:7070"),
            (header::ORIGIN, "http://127.0.0.1:7070"),
        ])));
        assert!(!same_origin(&headers(&[
            (header::HOST, "127.0.0.1:7070"),
            (header::ORIGIN, "https://example.com"),
        ])));
        assert!(!same_origin(&headers(&[(
            header::ORIGIN,
            "http://127.0.0.1:7070"
        )])));
    }

    #[test]
    fn slots_are_limited_and_freed() {
        let app = AppState {
            active: Arc::new(AtomicUsize::new(0)),
            max: 2,
        };
        let a = app.admit();
        let b = app.admit();
        assert!(a.is_some() && b.is_some());
        assert!(app.admit().is_none());
        drop(a);
        assert!(app.admit().is_some());
    }
}
