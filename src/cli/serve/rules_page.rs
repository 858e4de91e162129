//! The routes of the variant picker and the rules pages: `/variants.json` (what the picker
//! lists), `/rules` (every variant, by group), `/rules/VARIANT` (one variant's rules, from
//! [`rulebook`]), and the picker's script and styles.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use serde_json::json;

use super::rulebook::{self, Group, RulePage};

const PICKER_JS: &str = include_str!("web/picker.js");
const PICKER_CSS: &str = include_str!("web/picker.css");
const RULES_CSS: &str = include_str!("web/rules.css");

/// The routes, for any state of the main router.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/variants.json", get(|| async { variants_json() }))
        .route(
            "/rules",
            get(|| async { html(StatusCode::OK, index_html()) }),
        )
        // The index's address with a slash, as people type it.
        .route("/rules/", get(|| async { Redirect::permanent("/rules") }))
        .route("/rules/{variant}", get(rules_handler))
        .route(
            "/picker.js",
            get(|| async { asset("text/javascript; charset=utf-8", PICKER_JS) }),
        )
        .route(
            "/picker.css",
            get(|| async { asset("text/css; charset=utf-8", PICKER_CSS) }),
        )
        .route(
            "/rules.css",
            get(|| async { asset("text/css; charset=utf-8", RULES_CSS) }),
        )
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

fn html(status: StatusCode, body: String) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// The picker's data: the groups in order, and every variant with its proper name, group,
/// aliases, other names, family and description.
fn variants_json() -> Response {
    let groups: Vec<_> = Group::ALL
        .iter()
        .map(|g| json!({"id": g.id(), "title": g.title()}))
        .collect();
    let variants: Vec<_> = rulebook::picker_rows()
        .iter()
        .map(|r| {
            json!({
                "name": r.variant.name,
                "title": r.title,
                "group": r.group.id(),
                "aliases": r.variant.aliases,
                "known_as": r.known_as,
                "family": r.variant.family.name(),
                "description": r.variant.description,
            })
        })
        .collect();
    let body = json!({"groups": groups, "variants": variants}).to_string();
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn rules_handler(Path(name): Path<String>) -> Response {
    match rulebook::rule_page(&name) {
        Ok(page) => html(StatusCode::OK, page_html(&page)),
        Err(e) => html(StatusCode::NOT_FOUND, not_found_html(&e.to_string())),
    }
}

/// `text` with HTML's special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A clause as HTML: escaped, with `backquoted` text as code.
fn clause(text: &str) -> String {
    let mut out = String::new();
    for (i, piece) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str("<code>");
            out.push_str(&escape(piece));
            out.push_str("</code>");
        } else {
            out.push_str(&escape(piece));
        }
    }
    out
}

/// The board page's icon (a man on a dark square), inline: no request for `/favicon.ico`.
const ICON: &str = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%23a8703f'/%3E%3Ccircle cx='8' cy='8' r='5' fill='%23f4ecd8' stroke='%235b3a1e'/%3E%3C/svg%3E";

fn head(title: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<link rel=\"icon\" href=\"{ICON}\">\n\
         <link rel=\"stylesheet\" href=\"/rules.css\">\n</head>\n",
        escape(title)
    )
}

fn page_html(page: &RulePage) -> String {
    let v = page.variant;
    let mut out = head(&format!("{}: rules · Polydam", page.title));
    out.push_str(&format!(
        "<body class=\"rules-page\" data-variant=\"{}\">\n<header>\n\
         <nav><a href=\"/\">Polydam board</a> · <a href=\"/rules\">All variants</a></nav>\n\
         <h1>{}</h1>\n",
        escape(v.name),
        escape(page.title)
    ));
    let mut names = format!("<code>{}</code>", escape(v.name));
    for a in v.aliases {
        names.push_str(&format!(", <code>{}</code>", escape(a)));
    }
    out.push_str(&format!(
        "<p class=\"names\">{} · {}{}</p>\n<p class=\"description\">{}</p>\n</header>\n<main>\n",
        names,
        escape(page.group.title()),
        if page.known_as.is_empty() {
            String::new()
        } else {
            format!(" · also: {}", escape(&page.known_as.join(", ")))
        },
        escape(v.description)
    ));
    for s in &page.sections {
        out.push_str(&format!(
            "<section id=\"{}\">\n<h2>{}</h2>\n<ul>\n",
            s.part.id(),
            escape(s.part.title())
        ));
        for item in &s.items {
            out.push_str(&format!("<li>{}</li>\n", clause(item)));
        }
        out.push_str("</ul>\n</section>\n");
    }
    out.push_str(
        "</main>\n<footer>Written by <code>polydam serve</code> from the engine's rule sheets \
         and registry and the rule cards they cite; the cards are the contract.</footer>\n\
         </body>\n</html>\n",
    );
    out
}

fn index_html() -> String {
    let rows = rulebook::picker_rows();
    let mut out = head("Rules of every variant · Polydam");
    out.push_str(
        "<body class=\"rules-index\">\n<header>\n<nav><a href=\"/\">Polydam board</a></nav>\n\
         <h1>Rules of every variant</h1>\n",
    );
    out.push_str(&format!(
        "<p class=\"description\">{} games in {} groups.</p>\n</header>\n<main>\n",
        rows.len(),
        Group::ALL.len()
    ));
    for g in Group::ALL {
        out.push_str(&format!(
            "<section id=\"{}\">\n<h2>{}</h2>\n<ul>\n",
            g.id(),
            escape(g.title())
        ));
        for r in rows.iter().filter(|r| r.group == g) {
            out.push_str(&format!(
                "<li><a href=\"/rules/{}\">{}</a> <code>{}</code>: {}</li>\n",
                escape(r.variant.name),
                escape(r.title),
                escape(r.variant.name),
                escape(r.variant.description)
            ));
        }
        out.push_str("</ul>\n</section>\n");
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

fn not_found_html(message: &str) -> String {
    let mut out = head("No such variant · Polydam");
    out.push_str(&format!(
        "<body class=\"rules-missing\">\n<header>\n<nav><a href=\"/\">Polydam board</a> · \
         <a href=\"/rules\">All variants</a></nav>\n<h1>No such variant</h1>\n</header>\n\
         <main>\n<p id=\"error\">404: no rules page: {}</p>\n</main>\n</body>\n</html>\n",
        escape(message)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_code_marked() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(
            clause("start `W:W31-50` <b>"),
            "start <code>W:W31-50</code> &lt;b&gt;"
        );
    }

    #[test]
    fn a_page_has_every_section_and_no_raw_markup_from_the_data() {
        let page = rulebook::rule_page("dameo").expect("dameo has a page");
        let text = page_html(&page);
        for id in [
            "board",
            "men",
            "kings",
            "captures",
            "promotion",
            "end",
            "choices",
            "sources",
        ] {
            assert!(text.contains(&format!("<section id=\"{id}\">")), "{id}");
        }
        assert!(text.contains("<h1>Dameo</h1>"));
        let index = index_html();
        assert_eq!(index.matches("<li><a href=\"/rules/").count(), 55);
    }
}
