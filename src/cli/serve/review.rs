//! The game tree of a connection: every move played or loaded, with its comment and the
//! variations beside it, and the node shown now.
//!
//! The tree knows moves only as text (the variant's notation, as [`polydam_engine::game::Game`]
//! writes them); the connection's game record is always the path from the root to the node
//! shown, replayed when the page goes to another node. A node's first child is the main
//! continuation, the others are variations; a move played where a child with the same text
//! exists goes to that child instead of adding a twin.

use crate::pdn::{PdnLine, PdnMove};

/// A move of the tree (or the root, the first position, which has no move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The node before it (`None` for the root).
    pub parent: Option<usize>,
    /// The move, in the variant's notation (empty for the root).
    pub text: String,
    /// The comment after the move (the root's: the comment before the game).
    pub comment: Option<String>,
    /// The move's annotation glyphs as a loaded PDN wrote them (`!`, `?!`, `$14`).
    pub marks: Vec<String>,
    /// A comment written before the move, when the move begins a variation.
    pub before: Option<String>,
    /// The moves after it: the main continuation first, then the variations.
    pub children: Vec<usize>,
    /// Plies from the root (0 for the root).
    pub ply: usize,
}

/// A tree of moves and the node shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    nodes: Vec<Node>,
    current: usize,
}

impl Default for Tree {
    fn default() -> Tree {
        Tree::new()
    }
}

impl Tree {
    /// A tree with only its root.
    pub fn new() -> Tree {
        Tree {
            nodes: vec![Node {
                parent: None,
                text: String::new(),
                comment: None,
                marks: Vec::new(),
                before: None,
                children: Vec::new(),
                ply: 0,
            }],
            current: 0,
        }
    }

    /// Every node; its index is its id, the root's 0.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node shown.
    pub fn current(&self) -> usize {
        self.current
    }

    /// The number of moves in the tree.
    pub fn moves(&self) -> usize {
        self.nodes.len() - 1
    }

    /// The child of `parent` whose move is `text`, added as its last child when it has none
    /// (a first child continues the line, a later one is a variation).
    pub fn child(&mut self, parent: usize, text: &str) -> usize {
        if let Some(&id) = self.nodes[parent]
            .children
            .iter()
            .find(|&&c| self.nodes[c].text == text)
        {
            return id;
        }
        let id = self.nodes.len();
        let ply = self.nodes[parent].ply + 1;
        self.nodes.push(Node {
            parent: Some(parent),
            text: text.to_string(),
            comment: None,
            marks: Vec::new(),
            before: None,
            children: Vec::new(),
            ply,
        });
        self.nodes[parent].children.push(id);
        id
    }

    /// Plays `text` from the node shown, which becomes its node.
    pub fn play(&mut self, text: &str) {
        self.current = self.child(self.current, text);
    }

    /// Goes back one move; the move left is removed from the tree when nothing follows it (a
    /// take-back), kept otherwise. Answers false at the root.
    pub fn back(&mut self) -> bool {
        let id = self.current;
        let Some(parent) = self.nodes[id].parent else {
            return false;
        };
        self.current = parent;
        if self.nodes[id].children.is_empty() {
            self.remove_leaf(id);
        }
        true
    }

    /// Removes a node without children, renumbering the others.
    fn remove_leaf(&mut self, id: usize) {
        if let Some(parent) = self.nodes[id].parent {
            self.nodes[parent].children.retain(|&c| c != id);
        }
        self.nodes.remove(id);
        let shift = |n: usize| if n > id { n - 1 } else { n };
        for node in &mut self.nodes {
            node.parent = node.parent.map(shift);
            for c in &mut node.children {
                *c = shift(*c);
            }
        }
        self.current = shift(self.current);
    }

    /// Shows node `id`.
    pub fn goto(&mut self, id: usize) -> Result<(), String> {
        if id >= self.nodes.len() {
            return Err(format!(
                "no move {id} in the game tree (it has {} moves)",
                self.moves()
            ));
        }
        self.current = id;
        Ok(())
    }

    /// The moves from the root to `id`.
    pub fn path(&self, id: usize) -> Vec<String> {
        let mut texts = Vec::new();
        let mut at = id;
        while let Some(parent) = self.nodes[at].parent {
            texts.push(self.nodes[at].text.clone());
            at = parent;
        }
        texts.reverse();
        texts
    }

    /// The last node of the main line (following first children from the root).
    pub fn main_end(&self) -> usize {
        let mut at = 0;
        while let Some(&first) = self.nodes[at].children.first() {
            at = first;
        }
        at
    }

    /// Sets the comment after node `id`'s move (the root's: before the game); an empty one
    /// removes it.
    pub fn set_comment(&mut self, id: usize, comment: &str) {
        let comment = comment.trim();
        self.nodes[id].comment = (!comment.is_empty()).then(|| comment.to_string());
    }

    /// Sets the annotation glyphs of node `id`'s move.
    pub fn set_marks(&mut self, id: usize, marks: Vec<String>) {
        self.nodes[id].marks = marks;
    }

    /// Sets the comment written before node `id`'s move when it begins a variation.
    pub fn set_before(&mut self, id: usize, comment: Option<String>) {
        self.nodes[id].before = comment;
    }

    /// The whole tree as a PDN line: the main line, its comments and its variations.
    pub fn to_line(&self) -> PdnLine {
        let mut line = match self.nodes[0].children.first() {
            Some(&first) => self.line_from(first, true),
            None => PdnLine::default(),
        };
        line.comment = self.nodes[0].comment.clone();
        line
    }

    /// The line that begins with node `first` and follows first children; each move that is
    /// its parent's first child carries the parent's other children as variations (the line's
    /// first move only when `with_siblings`: a variation's own first move has none).
    fn line_from(&self, first: usize, with_siblings: bool) -> PdnLine {
        let mut line = PdnLine {
            comment: self.nodes[first].before.clone(),
            moves: Vec::new(),
        };
        let mut at = Some(first);
        let mut siblings = with_siblings;
        while let Some(id) = at {
            let node = &self.nodes[id];
            let variations = match node.parent {
                Some(parent) if siblings => self.nodes[parent]
                    .children
                    .iter()
                    .skip(1)
                    .map(|&k| self.line_from(k, false))
                    .collect(),
                _ => Vec::new(),
            };
            line.moves.push(PdnMove {
                text: node.text.clone(),
                comment: node.comment.clone(),
                marks: node.marks.clone(),
                variations,
            });
            siblings = true;
            at = node.children.first().copied();
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_played_from_earlier_positions_make_variations() {
        let mut tree = Tree::new();
        for m in ["32-28", "19-23", "28x19"] {
            tree.play(m);
        }
        assert_eq!(tree.moves(), 3);
        tree.goto(1).expect("a node");
        tree.play("18-23");
        let variation = tree.current();
        tree.play("37-32");
        // The same move again goes to its node, no twin.
        tree.goto(1).expect("a node");
        tree.play("19-23");
        assert_eq!(tree.current(), 2);
        assert_eq!(tree.moves(), 5);
        assert_eq!(tree.path(variation + 1), ["32-28", "18-23", "37-32"]);
        assert_eq!(tree.main_end(), 3);
        tree.set_comment(2, "main");
        tree.set_marks(2, vec!["?!".into(), "$14".into()]);
        let line = tree.to_line();
        assert_eq!(line.texts(), ["32-28", "19-23", "28x19"]);
        assert_eq!(line.moves[1].comment.as_deref(), Some("main"));
        assert_eq!(line.moves[1].marks, ["?!", "$14"]);
        assert_eq!(line.moves[1].variations[0].texts(), ["18-23", "37-32"]);
        assert!(tree.goto(6).is_err());
    }

    #[test]
    fn taking_back_a_last_move_removes_it() {
        let mut tree = Tree::new();
        tree.play("32-28");
        tree.play("19-23");
        tree.goto(1).expect("a node");
        tree.play("18-22");
        assert!(tree.back());
        // 18-22 had no continuation: gone, and the main line is whole.
        assert_eq!(tree.moves(), 2);
        assert_eq!(tree.current(), 1);
        // 32-28 is followed by 19-23: kept when stepping back over it.
        assert!(tree.back());
        assert_eq!(tree.moves(), 2);
        assert!(!tree.back());
        tree.goto(2).expect("a node");
        assert!(tree.back());
        assert_eq!(tree.to_line().texts(), ["32-28"]);
    }
}
