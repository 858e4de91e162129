//! Quoting user text in error messages: one helper for the engine, the protocols and the
//! program.

/// The longest piece of user text an error message repeats, in characters.
pub const EXCERPT_CHARS: usize = 40;

/// `s` as an error message quotes it: whole when short, else its first 40 characters and
/// `...`, so that a runaway line cannot flood a reply.
pub fn excerpt(s: &str) -> String {
    if s.chars().count() > EXCERPT_CHARS {
        let head: String = s.chars().take(EXCERPT_CHARS).collect();
        format!("{head}...")
    } else {
        s.to_string()
    }
}

/// `s` safe to print on a terminal: every control character (line breaks, tabs, escape,
/// bell, delete, the C1 controls) written as its Rust escape (`\n`, `\u{1b}`), so that text
/// from a peer (a DXP name or CHAT, an engine's message) can neither start a new line nor send
/// the terminal a command. Other characters are kept as they are.
///
/// ```
/// use polydam_engine::text::printable;
/// assert_eq!(printable("hi"), "hi");
/// assert_eq!(printable("\u{1b}]0;title\u{7}\n"), "\\u{1b}]0;title\\u{7}\\n");
/// ```
pub fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::{excerpt, printable};

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(printable("Kingsrow 1.18"), "Kingsrow 1.18");
        assert_eq!(
            printable("a\r\tb\u{7f}\u{9b}2J é"),
            "a\\r\\tb\\u{7f}\\u{9b}2J é"
        );
        assert!(!printable("\u{1b}[2J\u{1b}c").contains('\u{1b}'));
    }

    #[test]
    fn long_text_is_cut_after_forty_characters() {
        assert_eq!(excerpt("W:W31-50"), "W:W31-50");
        assert_eq!(excerpt(&"x".repeat(40)), "x".repeat(40));
        assert_eq!(excerpt(&"é".repeat(41)), format!("{}...", "é".repeat(40)));
    }
}
