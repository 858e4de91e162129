//! Shared helpers for Polydam's integration tests.

use std::path::PathBuf;

/// The `shared/` folder beside the checkout (`../shared` from the workspace root), or
/// `$POLYDAM_SHARED` when set.
pub fn shared_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("POLYDAM_SHARED") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
}

/// One row of `shared/perft/reference.tsv`.
#[derive(Clone, Debug)]
pub struct PerftRow {
    /// Variant name.
    pub variant: String,
    /// PDN FEN, or `start`.
    pub position: String,
    /// `drop` or `keep`.
    pub duplicates: String,
    /// Depth.
    pub depth: u32,
    /// Expected node count.
    pub nodes: u64,
}

/// Reads the published perft counts, `shared/perft/reference.tsv`.
pub fn perft_rows() -> Result<Vec<PerftRow>, String> {
    read_perft_file(&shared_dir().join("perft").join("reference.tsv"))
}

/// Reads our own perft counts, `tests/data/perft-own.tsv` (the games with no published counts).
pub fn own_perft_rows() -> Result<Vec<PerftRow>, String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join("perft-own.tsv");
    read_perft_file(&path)
}

/// Reads a perft file: a header line, then `variant position duplicates depth nodes source`
/// separated by tabs.
fn read_perft_file(path: &std::path::Path) -> Result<Vec<PerftRow>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 5 {
            return Err(format!(
                "{} line {}: too few columns",
                path.display(),
                i + 1
            ));
        }
        rows.push(PerftRow {
            variant: f[0].to_string(),
            position: f[1].to_string(),
            duplicates: f[2].to_string(),
            depth: f[3]
                .parse()
                .map_err(|e| format!("line {}: depth: {e}", i + 1))?,
            nodes: f[4]
                .parse()
                .map_err(|e| format!("line {}: nodes: {e}", i + 1))?,
        });
    }
    Ok(rows)
}
