//! Text helpers shared by the families' notation modules.

/// The longest piece of user text an error message repeats, in characters.
const SHOWN: usize = 40;

/// `s` as an error message quotes it: whole when short, else its first 40 characters and
/// `...`, so that a runaway line cannot flood a reply.
pub(crate) fn truncate(s: &str) -> String {
    if s.chars().count() > SHOWN {
        let head: String = s.chars().take(SHOWN).collect();
        format!("{head}...")
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::truncate;

    #[test]
    fn long_text_is_cut_after_forty_characters() {
        assert_eq!(truncate("W:W31-50"), "W:W31-50");
        assert_eq!(truncate(&"x".repeat(40)), "x".repeat(40));
        assert_eq!(truncate(&"é".repeat(41)), format!("{}...", "é".repeat(40)));
    }
}
