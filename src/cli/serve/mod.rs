//! `polydam serve`: a board in the browser for every variant, served by the program itself.
//!
//! An axum server on tokio serves one page (HTML, JavaScript and CSS embedded in the binary)
//! at `/` and a WebSocket at `/ws` carrying the JSON messages of [`api`] (see `docs/web.md`),
//! plus the variant picker's data and a rules page per variant ([`rules_page`], written from
//! [`rulebook`]).
//! Each connection has its own game and engine ([`socket`], [`session`]); the number of
//! connections and the size of messages are limited, and every bad request gets an `error`
//! reply while the connection goes on.

pub mod api;
pub mod play;
pub mod review;
pub mod rulebook;
pub mod rules_page;
pub mod session;
pub mod socket;

use std::io::ErrorKind;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;

use super::tables::TablesArgs;
use super::CliError;

/// The port when none is given.
pub const DEFAULT_PORT: u16 = 7070;
/// Most connections served at once, by default.
pub const DEFAULT_MAX_CONNECTIONS: usize = 8;
/// How long a connection may take to send a request's headers, or stay idle between two
/// requests, by default (see [`ServeOptions::idle_timeout`]).
pub const DEFAULT_IDLE_TIMEOUT: f64 = 10.0;
/// The longest `--idle-timeout` accepted, in seconds.
pub const MAX_IDLE_TIMEOUT: f64 = 3600.0;
/// The WebSocket library's own limit on a message or frame: beyond it the connection is
/// closed (code 1009). Below it, messages over [`api::MAX_MESSAGE_BYTES`] get an error reply
/// and the connection goes on.
pub const TRANSPORT_LIMIT: usize = 1024 * 1024;

/// How long the server waits before accepting again after an error such as "too many open
/// files" (the connections that hold them time out meanwhile).
const ACCEPT_PAUSE: Duration = Duration::from_millis(200);

const INDEX_HTML: &str = include_str!("web/index.html");
const BOARD_JS: &str = include_str!("web/board.js");
const BOARD_CSS: &str = include_str!("web/board.css");
const ANALYSIS_JS: &str = include_str!("web/analysis.js");
const GRAPH_JS: &str = include_str!("web/graph.js");
const PLAY_JS: &str = include_str!("web/play.js");
const ANALYSIS_CSS: &str = include_str!("web/analysis.css");
const REVIEW_JS: &str = include_str!("web/review.js");
const REVIEW_CSS: &str = include_str!("web/review.css");

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
    /// Another name the page may be reached by (repeatable), such as this machine's name on
    /// the network with `--bind 0.0.0.0`. Loopback names (localhost, 127.x.y.z, [::1]) and the
    /// `--bind` address are always accepted; requests naming any other host are refused.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
    /// Seconds a connection may take to send a request's headers, or stay idle between
    /// requests, before it is closed (an open page's WebSocket is not affected).
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_IDLE_TIMEOUT,
          value_parser = parse_idle_timeout)]
    pub idle_timeout: f64,
    /// The endgame tables of every game served (each variant's loaded at its first game).
    #[command(flatten)]
    pub tables: TablesArgs,
}

/// Reads `--idle-timeout`: seconds above 0 and at most [`MAX_IDLE_TIMEOUT`].
fn parse_idle_timeout(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_IDLE_TIMEOUT {
        Ok(seconds)
    } else {
        Err(format!(
            "the timeout must be above 0 and at most {MAX_IDLE_TIMEOUT} seconds, not {text}"
        ))
    }
}

#[derive(Clone)]
struct AppState {
    active: Arc<AtomicUsize>,
    max: usize,
}

/// The host names a request may carry in its `Host` header.
///
/// Why: a page of another site whose name its owner points at 127.0.0.1 (DNS rebinding) is,
/// for the browser, of the same origin as that name, so the `Origin` check passes; only the
/// `Host` header still tells that the request was not meant for this server.
#[derive(Clone, Debug)]
struct AllowedHosts {
    /// The address listened on: allowed as a host; when unspecified (`0.0.0.0`, `::`), any
    /// IP address is (an address, unlike a name, cannot be rebound to this machine).
    bind: IpAddr,
    /// Names allowed by `--allow-host`, in lower case, without a trailing dot.
    names: Vec<String>,
}

impl AllowedHosts {
    fn new(bind: IpAddr, names: &[String]) -> AllowedHosts {
        AllowedHosts {
            bind,
            names: names.iter().map(|n| normal_name(n)).collect(),
        }
    }

    /// Whether the value of a `Host` header (a name or address, perhaps with a port) names
    /// this server.
    fn allows(&self, host: &str) -> bool {
        let Some(name) = host_without_port(host) else {
            return false;
        };
        if let Some(ip) = parse_ip(name) {
            let ip = ip.to_canonical();
            return ip.is_loopback() || ip == self.bind || self.bind.is_unspecified();
        }
        let name = normal_name(name);
        name == "localhost" || self.names.contains(&name)
    }
}

/// A host name compared: lower case, without the trailing dot of a fully qualified name.
fn normal_name(name: &str) -> String {
    name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase()
}

/// An IP address as a `Host` header writes it: `127.0.0.1`, or `[::1]` in brackets.
fn parse_ip(name: &str) -> Option<IpAddr> {
    match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(v6) => v6.parse::<std::net::Ipv6Addr>().ok().map(IpAddr::V6),
        None => name.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4),
    }
}

/// The host of a `Host` header value without its `:port`, or `None` when the value is not a
/// host and an optional decimal port.
fn host_without_port(value: &str) -> Option<&str> {
    let (name, port) = if value.starts_with('[') {
        let end = value.find(']')? + 1;
        (&value[..end], &value[end..])
    } else {
        match value.rsplit_once(':') {
            Some((name, _)) => (name, &value[name.len()..]),
            None => (value, ""),
        }
    };
    let port_ok = match port.strip_prefix(':') {
        Some(digits) => !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()),
        None => port.is_empty(),
    };
    (port_ok && !name.is_empty()).then_some(name)
}

/// Refuses a request whose `Host` (or absolute URI) names a host other than this server's
/// (see [`AllowedHosts`]), with 403 and a body saying which names are served.
async fn check_host(
    State(allowed): State<Arc<AllowedHosts>>,
    request: Request,
    next: Next,
) -> Response {
    let header_host = request.headers().get(header::HOST).map(|h| h.to_str());
    let uri_host = request.uri().authority().map(|a| a.as_str());
    let refusal = match (header_host, uri_host) {
        (None, None) => Some("the request has no Host header".to_string()),
        (Some(Err(_)), _) => Some("the Host header is not text".to_string()),
        (Some(Ok(host)), _) if !allowed.allows(host) => Some(refused_host(host)),
        (_, Some(host)) if !allowed.allows(host) => Some(refused_host(host)),
        _ => None,
    };
    match refusal {
        Some(why) => (
            StatusCode::FORBIDDEN,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!(
                "403 refused: {why}. polydam serve answers only to localhost, 127.0.0.1, \
                 [::1], its --bind address and the names given with --allow-host, so that \
                 another site cannot reach it through a name pointed at this machine (DNS \
                 rebinding).\n"
            ),
        )
            .into_response(),
        None => next.run(request).await,
    }
}

/// Why a `Host` is refused, quoting a short excerpt of it.
fn refused_host(host: &str) -> String {
    format!(
        "the Host '{}' is not a name of this server",
        polydam_engine::text::excerpt(host)
    )
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

/// The server's routes, each behind the `Host` check.
fn router(max_connections: usize, allowed: AllowedHosts) -> Router {
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
            "/review.js",
            get(|| async { asset("text/javascript; charset=utf-8", REVIEW_JS) }),
        )
        .route(
            "/review.css",
            get(|| async { asset("text/css; charset=utf-8", REVIEW_CSS) }),
        )
        .route(
            "/board.css",
            get(|| async { asset("text/css; charset=utf-8", BOARD_CSS) }),
        )
        .route(
            "/analysis.js",
            get(|| async { asset("text/javascript; charset=utf-8", ANALYSIS_JS) }),
        )
        .route(
            "/graph.js",
            get(|| async { asset("text/javascript; charset=utf-8", GRAPH_JS) }),
        )
        .route(
            "/play.js",
            get(|| async { asset("text/javascript; charset=utf-8", PLAY_JS) }),
        )
        .route(
            "/analysis.css",
            get(|| async { asset("text/css; charset=utf-8", ANALYSIS_CSS) }),
        )
        .route("/ws", get(ws_handler))
        .merge(rules_page::routes())
        .fallback(not_found)
        .with_state(state)
        .layer(middleware::from_fn_with_state(
            Arc::new(allowed),
            check_host,
        ))
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
        // The blocking threads are the pool of search workers (nothing else blocks): one per
        // connection at most, since each connection has at most one search job at a time.
        .max_blocking_threads(opts.max_connections)
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
        let allowed = AllowedHosts::new(opts.bind, &opts.allow_hosts);
        let idle = Duration::from_secs_f64(opts.idle_timeout);
        serve_http(listener, router(opts.max_connections, allowed), idle).await;
        Ok(())
    })
}

/// Serves HTTP/1.1 on `listener` with `app` until the process stops.
///
/// Why not `axum::serve`: it cannot set hyper's header read timeout, and without it a
/// connection that sends nothing, or its headers a byte at a time, holds its socket forever.
/// hyper's timer starts when the connection waits for a request's headers (the first, or the
/// next on a kept-alive connection) and closes the connection at `idle` unless the headers
/// are complete; a WebSocket, once upgraded, is no longer HTTP and is not affected.
async fn serve_http(listener: tokio::net::TcpListener, app: Router, idle: Duration) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // A connection that failed before it was accepted concerns only its client;
                // anything else (no file descriptor left) passes with time.
                if !matches!(
                    e.kind(),
                    ErrorKind::ConnectionAborted
                        | ErrorKind::ConnectionReset
                        | ErrorKind::ConnectionRefused
                ) {
                    tokio::time::sleep(ACCEPT_PAUSE).await;
                }
                continue;
            }
        };
        // Replies are small: send them at once.
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new()).header_read_timeout(idle);
            // An error here is one client's broken or timed-out connection: drop it.
            let _ = http
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades()
                .await;
        });
    }
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
    fn only_loopback_bound_and_allowed_hosts_are_served() {
        let local = AllowedHosts::new(IpAddr::from([127, 0, 0, 1]), &["Board.LAN".into()]);
        for host in [
            "localhost",
            "LOCALHOST:7070",
            "localhost.:80",
            "127.0.0.1",
            "127.0.0.1:7070",
            "127.255.0.9:1",
            "[::1]",
            "[::1]:7070",
            "[::ffff:127.0.0.1]:7070",
            "board.lan:7070",
        ] {
            assert!(local.allows(host), "{host}");
        }
        for host in [
            "",
            ":7070",
            "evil.example",
            "evil.example:7070",
            "localhost.evil.example",
            "127.0.0.1.evil.example",
            "evil.localhost",
            "localhost:",
            "localhost:70x",
            "localhost:7070:7070",
            "10.0.0.1:7070",
            "0.0.0.0:7070",
            "[::2]:7070",
            "[::1",
            "::1",
            "board.lan.evil.example",
        ] {
            assert!(!local.allows(host), "{host}");
        }
        let lan = AllowedHosts::new(IpAddr::from([192, 168, 1, 5]), &[]);
        assert!(lan.allows("192.168.1.5:7070") && lan.allows("localhost"));
        assert!(!lan.allows("192.168.1.6:7070") && !lan.allows("mybox.local"));
        let every = AllowedHosts::new(IpAddr::from([0, 0, 0, 0]), &["mybox.local".into()]);
        assert!(every.allows("10.1.2.3:7070") && every.allows("[fe80::1]:7070"));
        assert!(every.allows("mybox.local:7070") && !every.allows("evil.example"));
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
