//! `polydam serve`'s variant picker data and rules pages (docs/web.md, "Rules pages"): the
//! real binary on a free port, asked over plain HTTP.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::Value;

use crate::web::Server;

const TIMEOUT: Duration = Duration::from_secs(30);

/// A raw HTTP/1.1 GET: the status code, the head and the body.
fn get(server: &Server, path: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(&server.addr).expect("TCP connect");
    stream.set_read_timeout(Some(TIMEOUT)).expect("timeout set");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .expect("request sent");
    let mut reply = String::new();
    stream.read_to_string(&mut reply).expect("reply read");
    let status = reply
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
    (status, head.to_ascii_lowercase(), body.to_string())
}

/// The variant names `polydam variants` prints, first word of each line.
fn listed_variants() -> Vec<String> {
    let out = crate::common::polydam()
        .arg("variants")
        .output()
        .expect("polydam variants runs");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn rules_pages_answer_known_variants_and_refuse_unknown_ones() {
    let server = Server::start(&[]);
    for (path, title) in [
        ("/rules/international", "<h1>International draughts</h1>"),
        ("/rules/english", "<h1>English draughts</h1>"),
        ("/rules/checkers", "<h1>English draughts</h1>"),
        ("/rules/DAMEO", "<h1>Dameo</h1>"),
    ] {
        let (status, head, body) = get(&server, path);
        assert_eq!(status, 200, "{path}: {body}");
        assert!(head.contains("content-type: text/html"), "{path}: {head}");
        assert!(body.contains(title), "{path}: no {title}");
        for section in [
            "Board and start",
            "Men",
            "Kings",
            "Captures",
            "Promotion",
            "End of the game and draws",
            "Our choices",
            "Sources",
        ] {
            assert!(
                body.contains(&format!("<h2>{section}</h2>")),
                "{path}: no section {section}"
            );
        }
    }
    let (status, _, body) = get(&server, "/rules/no-such-game");
    assert_eq!(status, 404, "{body}");
    assert!(
        body.contains("unknown variant &#39;no-such-game&#39; (known: international,"),
        "{body}"
    );
    // Markup in the name comes back escaped.
    let (status, _, body) = get(&server, "/rules/%3Cb%3Ex");
    assert_eq!(status, 404);
    assert!(
        body.contains("&lt;b&gt;x") && !body.contains("<b>x"),
        "{body}"
    );
    // The index's address with a slash leads to it.
    let (status, head, _) = get(&server, "/rules/");
    assert_eq!(status, 308, "{head}");
    assert!(head.contains("\r\nlocation: /rules\r\n"), "{head}");
    // The index links every variant.
    let (status, _, body) = get(&server, "/rules");
    assert_eq!(status, 200);
    for name in listed_variants() {
        assert!(
            body.contains(&format!("<a href=\"/rules/{name}\">")),
            "/rules: no link to {name}"
        );
    }
}

#[test]
fn the_picker_lists_every_variant_with_a_proper_name_and_a_group() {
    let server = Server::start(&[]);
    let (status, head, body) = get(&server, "/variants.json");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: application/json"), "{head}");
    let data: Value = serde_json::from_str(&body).expect("JSON");
    let groups: Vec<&str> = data["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert_eq!(groups.len(), 8);
    let variants = data["variants"].as_array().expect("variants");
    let names: Vec<&str> = variants.iter().filter_map(|v| v["name"].as_str()).collect();
    assert_eq!(names, listed_variants());
    assert_eq!(names.len(), 55);
    for v in variants {
        let title = v["title"].as_str().unwrap_or("");
        assert!(!title.is_empty(), "{v}");
        let group = v["group"].as_str().unwrap_or("");
        assert!(groups.contains(&group), "{v}");
    }
    let dameo = variants
        .iter()
        .find(|v| v["name"] == "dameo")
        .expect("dameo");
    assert_eq!(dameo["title"], "Dameo");
    for (asset, kind) in [
        ("/picker.js", "text/javascript"),
        ("/picker.css", "text/css"),
        ("/rules.css", "text/css"),
    ] {
        let (status, head, body) = get(&server, asset);
        assert_eq!(status, 200, "{asset}");
        assert!(head.contains(kind), "{asset}: {head}");
        assert!(!body.is_empty());
    }
    let (_, _, page) = get(&server, "/");
    assert!(page.contains("<script src=\"picker.js\"></script>"));
}
