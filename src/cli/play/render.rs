//! Drawing a [`BoardView`] as text for the terminal.
//!
//! Every cell becomes a fixed-width field: the piece glyph (with the stack size where the game
//! has stacks), a tile mark where it has tiles, the square's name on empty squares of numbered
//! boards. The start and end squares of the last move are bracketed (`[b]`), or shown in
//! reverse video with colour on.

use polydam_engine::game::Side;
use polydam_engine::view::{BoardView, Cell, Piece};

/// How to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Style {
    /// Plain ASCII (`w b W B`, `.`) instead of Unicode glyphs.
    pub ascii: bool,
    /// ANSI colours: the last move in reverse video instead of brackets, labels dimmed.
    pub color: bool,
}

/// The glyph of a piece: `○ ● ◎ ◉` (white man, black man, white king, black king), chosen
/// from Geometric Shapes because nearly every monospace font has them (the draughts glyphs
/// U+26C0-26C3 are missing from many); `w b W B` in ASCII.
pub fn piece_glyph(owner: Side, king: bool, style: Style) -> char {
    match (style.ascii, owner, king) {
        (true, Side::White, false) => 'w',
        (true, Side::Black, false) => 'b',
        (true, Side::White, true) => 'W',
        (true, Side::Black, true) => 'B',
        (false, Side::White, false) => '○',
        (false, Side::Black, false) => '●',
        (false, Side::White, true) => '◎',
        (false, Side::Black, true) => '◉',
    }
}

/// The mark of a tile: `▫ ▪` (white, black), `+ #` in ASCII.
pub fn tile_mark(colour: Side, style: Style) -> char {
    match (style.ascii, colour) {
        (true, Side::White) => '+',
        (true, Side::Black) => '#',
        (false, Side::White) => '▫',
        (false, Side::Black) => '▪',
    }
}

fn piece_text(p: &Piece, style: Style) -> String {
    let glyph = piece_glyph(p.owner, p.king, style);
    match p.size {
        Some(n) => format!("{glyph}{n}"),
        None => glyph.to_string(),
    }
}

/// The text of a cell without its marks, and whether it is a label (dimmed in colour).
fn cell_text(view: &BoardView, cell: &Cell, style: Style) -> (String, bool) {
    if !cell.playable {
        return (String::new(), false);
    }
    let tile = cell.tile.map(|t| tile_mark(t, style));
    let (mut text, is_label) = match &cell.piece {
        Some(p) => (piece_text(p, style), false),
        // In ASCII a hex cell name such as `b1` would read as a black stack of one: the short
        // label (the number within the column, whose letter is printed below) cannot.
        None if view.label_empty_cells && !cell.label.is_empty() => {
            let label = if style.ascii {
                &cell.short_label
            } else {
                &cell.label
            };
            (label.clone(), true)
        }
        None if tile.is_some() => (String::new(), false),
        None => ((if style.ascii { "." } else { "·" }).to_string(), false),
    };
    if let Some(t) = tile {
        text.push(t);
    }
    (text, is_label)
}

fn width(s: &str) -> usize {
    s.chars().count()
}

/// `s` centred in `w` columns (extra space on the right).
fn centred(s: &str, w: usize) -> String {
    let pad = w.saturating_sub(width(s));
    let left = pad / 2;
    format!("{}{s}{}", " ".repeat(left), " ".repeat(pad - left))
}

/// The board as lines of text (each ending in a newline, trailing spaces trimmed), with a
/// legend line when the board has stacks or tiles.
pub fn render(view: &BoardView, style: Style) -> String {
    if view.cells.is_empty() {
        return format!("{}\n", view.note.as_deref().unwrap_or("(no board)"));
    }
    let (rows, cols) = (view.rows as usize, view.cols as usize);
    let mut grid: Vec<Option<(String, bool, bool)>> = vec![None; rows * cols];
    let mut inner = 1;
    for cell in &view.cells {
        let (r, c) = (cell.row as usize, cell.col as usize);
        if r >= rows || c >= cols {
            continue;
        }
        let (text, is_label) = cell_text(view, cell, style);
        inner = inner.max(width(&text));
        grid[r * cols + c] = Some((text, is_label, cell.marked));
    }
    // One column of space (or a bracket) on each side of every field.
    let field = inner + 2;
    let label_w = view.row_labels.iter().map(|l| width(l)).max().unwrap_or(0);
    let prefix = if label_w > 0 { label_w + 1 } else { 0 };
    let mut out = String::new();
    for r in 0..rows {
        let mut line = String::new();
        if label_w > 0 {
            let label = view.row_labels.get(r).map_or("", String::as_str);
            line.push_str(&format!("{label:>label_w$} "));
        }
        for c in 0..cols {
            match &grid[r * cols + c] {
                None => line.push_str(&" ".repeat(field)),
                Some((text, is_label, marked)) => {
                    let body = centred(text, inner);
                    let (open, close) = match (marked, style.color, is_label) {
                        (true, true, _) => ("\x1b[7m", "\x1b[0m"),
                        (true, false, _) => ("[", "]"),
                        (false, true, true) => ("\x1b[2m", "\x1b[0m"),
                        (false, _, _) => ("", ""),
                    };
                    if style.color {
                        line.push(' ');
                        line.push_str(open);
                        line.push_str(&body);
                        line.push_str(close);
                        line.push(' ');
                    } else if *marked {
                        line.push_str(open);
                        line.push_str(&body);
                        line.push_str(close);
                    } else {
                        line.push(' ');
                        line.push_str(&body);
                        line.push(' ');
                    }
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if !view.col_labels.is_empty() {
        let mut line = " ".repeat(prefix);
        for label in view.col_labels.iter().take(cols) {
            line.push_str(&centred(label, field));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if let Some(legend) = legend(view, style) {
        out.push_str(&legend);
        out.push('\n');
    }
    out
}

/// A line explaining stack sizes and tiles, when the board has them.
fn legend(view: &BoardView, style: Style) -> Option<String> {
    let stacks = view
        .cells
        .iter()
        .any(|c| c.piece.is_some_and(|p| p.size.is_some()));
    let tiles = view.cells.iter().any(|c| c.tile.is_some());
    let mut parts = Vec::new();
    if stacks {
        parts.push(format!(
            "{}3 = white stack of 3, {}2 = black stack of 2",
            piece_glyph(Side::White, false, style),
            piece_glyph(Side::Black, false, style)
        ));
    }
    if tiles {
        parts.push(format!(
            "{} white tile, {} black tile",
            tile_mark(Side::White, style),
            tile_mark(Side::Black, style)
        ));
    }
    (!parts.is_empty()).then(|| format!("({})", parts.join("; ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use polydam_engine::game::Game;
    use polydam_engine::hex::{Hex, Side4};
    use polydam_engine::orthogonal::{rules::Turkish, Orthogonal};
    use polydam_engine::stacks::SeesawDraughts;

    const ASCII: Style = Style {
        ascii: true,
        color: false,
    };

    fn count(text: &str, c: char) -> usize {
        text.chars().filter(|&x| x == c).count()
    }

    /// Occurrences of `c` on the board itself, not in the file letters or the legend.
    fn count_on_board(text: &str, c: char) -> usize {
        text.lines()
            .filter(|l| !l.starts_with('(') && !l.trim_start().starts_with("a "))
            .map(|l| count(l, c))
            .sum()
    }

    #[test]
    fn turkish_start_board_has_16_pieces_a_side() {
        type T = Orthogonal<Turkish>;
        let text = render(&T::board_view(&T::start(), None), ASCII);
        assert_eq!(count_on_board(&text, 'w'), 16, "{text}");
        assert_eq!(count_on_board(&text, 'b'), 16, "{text}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 9, "8 ranks and the file letters:\n{text}");
        assert!(
            lines[0].starts_with('8') && lines[7].starts_with('1'),
            "{text}"
        );
        assert_eq!(
            lines[8].split_whitespace().collect::<Vec<_>>().join(""),
            "abcdefgh"
        );
        // Turkish men start on ranks 2-3 (White) and 6-7 (Black); ranks 1 and 8 are empty.
        assert_eq!(count(lines[0], '.'), 8);
        assert_eq!(count(lines[6], 'w'), 8);
        let unicode = render(&T::board_view(&T::start(), None), Style::default());
        assert_eq!(count(&unicode, '○'), 16);
        assert_eq!(count(&unicode, '●'), 16);
    }

    #[test]
    fn last_move_squares_are_bracketed() {
        type T = Orthogonal<Turkish>;
        let start = T::start();
        let mv = T::parse_move(&start, "a3-a4").expect("a legal Turkish move");
        let text = render(&T::board_view(&T::play(&start, &mv), Some(&mv)), ASCII);
        assert_eq!(count(&text, '['), 2, "{text}");
        let rank4 = text.lines().nth(4).unwrap_or_default();
        assert!(rank4.starts_with("4 [w]"), "{text}");
        let rank3 = text.lines().nth(5).unwrap_or_default();
        assert!(rank3.starts_with("3 [.]"), "{text}");
    }

    #[test]
    fn seesaw_draughts_shows_stack_sizes_and_square_numbers() {
        let pos =
            SeesawDraughts::parse_position("W:W21-31,32^3:B1-11,12^2").expect("a valid sized FEN");
        let text = render(&SeesawDraughts::board_view(&pos, None), ASCII);
        assert_eq!(count_on_board(&text, 'w'), 12, "{text}");
        assert_eq!(count_on_board(&text, 'b'), 12, "{text}");
        assert!(text.contains("w3"), "{text}");
        assert!(text.contains("b2"), "{text}");
        assert!(text.contains("w1"), "{text}");
        // Empty squares 13-20 show their numbers.
        for n in 13..=20 {
            let n = n.to_string();
            assert!(
                text.split_whitespace().any(|w| w == n),
                "square {n}:\n{text}"
            );
        }
        assert!(text.contains("stack"), "legend:\n{text}");
    }

    #[test]
    fn seesaw_hex_board_has_37_cells_and_tiles() {
        type H = Hex<Side4>;
        let start = H::start();
        let view = H::board_view(&start, None);
        assert_eq!(view.cells.len(), 37);
        assert_eq!(view.rows, 13);
        let text = render(&view, ASCII);
        assert!(text.contains("w"), "{text}");
        assert!(text.contains("b"), "{text}");
        // Seven column letters under the board.
        let last = text
            .lines()
            .filter(|l| l.trim_start().starts_with("a "))
            .count();
        assert_eq!(last, 1, "{text}");
    }

    /// Renders the start position of one variant and checks it against its FEN.
    struct StartBoard;

    impl polydam_engine::variants::GameVisitor for StartBoard {
        type Output = (String, BoardView);
        fn visit<G: Game>(self) -> Self::Output {
            let start = G::start();
            (G::fen(&start), G::board_view(&start, None))
        }
    }

    #[test]
    fn every_variant_draws_its_start_board() {
        for v in polydam_engine::variants::VARIANTS {
            let (fen, view) =
                polydam_engine::variants::dispatch(v.name, StartBoard).expect("a registered name");
            assert!(view.note.is_none(), "{}: no board drawing", v.name);
            assert!(view.count(Side::White) > 0, "{}: {fen}", v.name);
            assert!(view.count(Side::Black) > 0, "{}: {fen}", v.name);
            let mut seen = std::collections::HashSet::new();
            for c in &view.cells {
                assert!(c.row < view.rows && c.col < view.cols, "{}: {c:?}", v.name);
                assert!(
                    seen.insert((c.row, c.col)),
                    "{}: two cells at {c:?}",
                    v.name
                );
                assert_eq!(c.playable, !c.label.is_empty(), "{}: {c:?}", v.name);
            }
            let text = render(&view, ASCII);
            assert!(
                text.lines().count() >= view.rows as usize,
                "{}:\n{text}",
                v.name
            );
            let pieces = count_on_board(&text, 'w') + count_on_board(&text, 'b');
            assert_eq!(
                pieces,
                view.count(Side::White) + view.count(Side::Black),
                "{}:\n{text}",
                v.name
            );
        }
    }

    #[test]
    fn spanish_square_one_is_h1() {
        use polydam_engine::diagonal::{rules::Spanish, Diagonal};
        type S = Diagonal<Spanish>;
        let view = S::board_view(&S::start(), None);
        let one = view
            .cells
            .iter()
            .find(|c| c.label == "1")
            .map(|c| (c.row, c.col));
        assert_eq!(one, Some((7, 7)));
    }

    #[test]
    fn colour_only_when_asked() {
        type T = Orthogonal<Turkish>;
        let start = T::start();
        let mv = T::parse_move(&start, "a3-a4").expect("a legal Turkish move");
        let view = T::board_view(&T::play(&start, &mv), Some(&mv));
        assert!(!render(&view, ASCII).contains('\x1b'));
        let coloured = render(
            &view,
            Style {
                ascii: false,
                color: true,
            },
        );
        assert_eq!(coloured.matches("\x1b[7m").count(), 2, "{coloured}");
        assert!(!coloured.contains("[○]"), "{coloured}");
    }

    #[test]
    fn italian_board_is_turned() {
        use polydam_engine::diagonal::{rules::Italian, Diagonal};
        type I = Diagonal<Italian>;
        let view = I::board_view(&I::start(), None);
        // Italian square 1 is the top-left playing square; a1 (bottom left) is light.
        let one = view
            .cells
            .iter()
            .find(|c| c.label == "1")
            .map(|c| (c.row, c.col));
        assert_eq!(one, Some((0, 0)));
        let a1 = view.cells.iter().find(|c| c.row == 7 && c.col == 0);
        assert_eq!(a1.map(|c| c.playable), Some(false));
    }
}
