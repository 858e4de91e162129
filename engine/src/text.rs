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

#[cfg(test)]
mod tests {
    use super::excerpt;

    #[test]
    fn long_text_is_cut_after_forty_characters() {
        assert_eq!(excerpt("W:W31-50"), "W:W31-50");
        assert_eq!(excerpt(&"x".repeat(40)), "x".repeat(40));
        assert_eq!(excerpt(&"é".repeat(41)), format!("{}...", "é".repeat(40)));
    }
}
