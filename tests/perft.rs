//! Every row of `../shared/perft/reference.tsv` (published counts) and of
//! `tests/data/perft-own.tsv` (our own, for the games with none published) for the registered
//! variants, checked against our generators. Rows above a node budget (default 50 million,
//! `POLYDAM_PERFT_BUDGET` to change) are listed on stderr and left to `polydam perft` and the
//! benchmarks; a test fails if a variant present in a file has no row checked at all, or if a
//! registered variant has counts in neither file.

use crate::support::{own_perft_rows, perft_rows, PerftRow};
use polydam_engine::game::{Duplicates, Game};
use polydam_engine::perft::count_paths;
use polydam_engine::variants::{dispatch, lookup, GameVisitor, VARIANTS};

struct Check<'a>(&'a PerftRow);

impl GameVisitor for Check<'_> {
    type Output = Result<u64, String>;

    fn visit<G: Game>(self) -> Self::Output {
        let row = self.0;
        let pos = position_of::<G>(row)?;
        let dups = match row.duplicates.as_str() {
            "keep" => Duplicates::Keep,
            "drop" => Duplicates::Drop,
            other => return Err(format!("unknown duplicates convention '{other}'")),
        };
        Ok(count_paths::<G>(&pos, row.depth, dups))
    }
}

/// The row's position. `start` is the variant's start. The file writes Spanish positions in
/// dctl's numbering (White on 21-32), while the Spanish card numbers from h1 with White on 1-12
/// ("perft from the start is the same either way; notation is not"): the start FEN of that
/// numbering is our Spanish start.
fn position_of<G: Game>(row: &PerftRow) -> Result<G::Position, String> {
    if row.position == "start" || (row.variant == "spanish" && row.position == "W:W21-32:B1-12") {
        return Ok(G::start());
    }
    G::parse_position(&row.position).map_err(|e| format!("{}: {e}", row.position))
}

/// Checks every row of a registered variant within the budget; returns the number of rows
/// checked per variant.
fn check_rows(rows: &[PerftRow], what: &str) -> std::collections::BTreeMap<String, usize> {
    let budget: u64 = std::env::var("POLYDAM_PERFT_BUDGET")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50_000_000);
    let mut checked = std::collections::BTreeMap::<String, usize>::new();
    let mut skipped = Vec::new();
    let mut failures = Vec::new();
    for row in rows {
        if lookup(&row.variant).is_err() {
            // Families not built yet: say so, and make sure it is not one we claim to play.
            skipped.push(format!("{} (variant not registered yet)", row.variant));
            continue;
        }
        if row.nodes > budget {
            skipped.push(format!(
                "{} {} {} depth {} ({} nodes, over budget)",
                row.variant, row.position, row.duplicates, row.depth, row.nodes
            ));
            continue;
        }
        match dispatch(&row.variant, Check(row)).expect("registered") {
            Ok(n) if n == row.nodes => *checked.entry(row.variant.clone()).or_default() += 1,
            Ok(n) => failures.push(format!(
                "{} {} {} depth {}: got {n}, {what} {}",
                row.variant, row.position, row.duplicates, row.depth, row.nodes
            )),
            Err(e) => failures.push(format!("{}: {e}", row.variant)),
        }
    }
    skipped.dedup();
    for s in &skipped {
        eprintln!("not checked here: {s}");
    }
    eprintln!("checked: {checked:?}");
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    for row in rows {
        if lookup(&row.variant).is_ok() {
            assert!(
                checked.get(&row.variant).copied().unwrap_or(0) > 0,
                "no row of {} was checked",
                row.variant
            );
        }
    }
    checked
}

/// Variants whose published counts are another's: the 12x12 card, under Perft, "dctl checks
/// the same numbers for `srilankan`" as for `canadian`.
const SAME_COUNTS: &[(&str, &str)] = &[("srilankan", "canadian")];

/// The published rows, plus a copy of each row of a variant in [`SAME_COUNTS`] under the other
/// name.
fn published_rows() -> Vec<PerftRow> {
    let mut rows = perft_rows().expect("reference.tsv is readable");
    let copies: Vec<PerftRow> = SAME_COUNTS
        .iter()
        .flat_map(|&(name, source)| {
            rows.iter()
                .filter(move |r| r.variant == source)
                .map(move |r| PerftRow {
                    variant: name.to_string(),
                    ..r.clone()
                })
        })
        .collect();
    rows.extend(copies);
    rows
}

#[test]
fn perft_matches_every_published_count() {
    let rows = published_rows();
    assert!(rows.len() > 100, "reference.tsv looks truncated");
    let checked = check_rows(&rows, "published");
    assert!(
        checked.values().sum::<usize>() >= 150,
        "too few rows checked: {checked:?}"
    );
}

#[test]
fn perft_matches_our_own_counts() {
    let rows = own_perft_rows().expect("tests/data/perft-own.tsv is readable");
    let checked = check_rows(&rows, "recorded");
    assert!(
        checked.values().sum::<usize>() >= 200,
        "too few rows checked: {checked:?}"
    );
}

#[test]
fn every_registered_variant_has_perft_counts() {
    let mut rows = published_rows();
    rows.extend(own_perft_rows().expect("tests/data/perft-own.tsv is readable"));
    let missing: Vec<&str> = VARIANTS
        .iter()
        .map(|v| v.name)
        .filter(|name| !rows.iter().any(|r| r.variant == *name && r.depth >= 3))
        .collect();
    assert!(
        missing.is_empty(),
        "variants with no perft counts to depth 3 in either file: {missing:?}"
    );
}

#[test]
fn both_duplicate_conventions_differ_where_published() {
    // International from the start: 6,483,971 paths keep against 6,483,961 moves drop at
    // depth 8 (perft/README.md). Too big for a debug build, cheap in release.
    let rows = perft_rows().expect("reference.tsv");
    let brazil_keep = rows
        .iter()
        .find(|r| r.variant == "brazilian" && r.duplicates == "keep" && r.depth == 8)
        .expect("row");
    let brazil_drop = rows
        .iter()
        .find(|r| r.variant == "brazilian" && r.duplicates == "drop" && r.depth == 8)
        .expect("row");
    assert_ne!(brazil_keep.nodes, brazil_drop.nodes);
    type Intl = polydam_engine::diagonal::Diagonal<polydam_engine::diagonal::rules::International>;
    assert_eq!(
        count_paths::<Intl>(&Intl::start(), 8, Duplicates::Keep),
        6_483_971
    );
}
