//! How much memory a transposition table may take: what the machine can give now, so that a
//! table request that cannot be met is refused with a message instead of aborting the process.

/// Environment variable that, set to a number of MiB, replaces the memory the machine reports
/// as available. A test hook: tests check the refusal of large tables with small sizes, never
/// by asking the machine for gigabytes.
pub const AVAILABLE_MEMORY_ENV: &str = "POLYDAM_AVAILABLE_MIB";

/// Assumed available memory where the operating system does not say (no `/proc/meminfo`):
/// 2 GiB, which any machine that runs a draughts engine has. A larger table is refused there;
/// the allocation itself is fallible anyway.
const FALLBACK_AVAILABLE: u64 = 2 << 30;

const MIB: u64 = 1 << 20;

/// Memory available for new allocations, in bytes: the test hook's value if set, else
/// `MemAvailable` from `/proc/meminfo` (Linux), else 2 GiB.
pub fn available_memory() -> u64 {
    if let Ok(text) = std::env::var(AVAILABLE_MEMORY_ENV) {
        if let Ok(mib) = text.trim().parse::<u64>() {
            return mib.saturating_mul(MIB);
        }
    }
    proc_meminfo_available().unwrap_or(FALLBACK_AVAILABLE)
}

/// `MemAvailable` of `/proc/meminfo`, in bytes.
fn proc_meminfo_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_meminfo(&text)
}

fn parse_meminfo(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let n: u64 = words.next()?.parse().ok()?;
    let unit = match words.next() {
        Some("kB") | Some("KB") | Some("kb") => 1024,
        None => 1,
        Some(_) => return None,
    };
    Some(n.saturating_mul(unit))
}

/// The largest table, in MiB, that may be allocated out of `available` bytes: seven eighths,
/// the rest left to the program itself (search threads, move lists) and to the machine's other
/// work. At least 1, the smallest table.
pub fn hash_limit_mib(available: u64) -> u64 {
    (available / 8 * 7 / MIB).max(1)
}

/// The largest table, in MiB, that this machine can give now (see [`hash_limit_mib`]).
pub fn max_hash_mib() -> u64 {
    hash_limit_mib(available_memory())
}

/// A transposition table that cannot be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashError {
    /// The size asked for, in MiB.
    pub requested_mib: u64,
    /// The largest size this machine could give when asked, in MiB.
    pub available_mib: u64,
}

impl std::fmt::Display for HashError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate a hash table of {} MiB: this machine can give at most {} MiB now",
            self.requested_mib, self.available_mib
        )
    }
}

impl std::error::Error for HashError {}

/// Checks a table of `mib` MiB against the memory available now.
pub fn check_hash_mib(mib: u64) -> Result<(), HashError> {
    let max = max_hash_mib();
    if mib > max {
        return Err(HashError {
            requested_mib: mib,
            available_mib: max,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_available() {
        let text = "MemTotal:       24684096 kB\nMemFree:  100 kB\nMemAvailable:   22753332 kB\n";
        assert_eq!(parse_meminfo(text), Some(22_753_332 * 1024));
        assert_eq!(parse_meminfo("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_meminfo("MemAvailable: lots kB\n"), None);
    }

    #[test]
    fn limit_leaves_room() {
        assert_eq!(hash_limit_mib(0), 1);
        assert_eq!(hash_limit_mib(1024 * MIB), 896);
        assert_eq!(hash_limit_mib(u64::MAX), u64::MAX / 8 * 7 / MIB);
    }
}
