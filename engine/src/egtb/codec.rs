//! The table files: a header, an offset table, blocks of coded values, a checksum.
//!
//! Both kinds of file cut the slice's index range into blocks of [`BLOCK`] positions, each
//! coded on its own, so that a probe decodes one block's prefix and nothing else.
//!
//! **Win/draw/loss** (`.wdl`): values 0 = loss, 1 = draw, 2 = win for the side to move. Each
//! byte of a block is one token:
//!
//! - `0..81`: four positions, the values as base-3 digits, the first position lowest
//!   (`v0 + 3 v1 + 9 v2 + 27 v3`);
//! - `81..=254`: a run: `k = byte - 81`, the value `k % 3` repeated [`RUN_LENGTHS`]`[k / 3]`
//!   times.
//!
//! Positions whose value the search never asks for (the side to move has a capture, the index
//! is no position, the game is already over) are "don't care": the coder gives them whatever
//! value makes the runs longest. A block may end early when only such positions are left.
//!
//! **Distance to conversion** (`.dtc`): for every won or lost position without a capture, the
//! number of plies until the winner's best line leaves the slice (a capture, a crowning, or the
//! end of the game), the loser delaying it as long as possible, capped at [`DTC_CAP`]. Tokens:
//! `0..128` is one position with that distance; `128..=255` repeats the last distance
//! `byte - 127` times (the last is 0 at the start of a block). Draws and don't-care positions
//! take whatever value shortens the code.
//!
//! **Container** (little-endian): magic (8 bytes, `PDTB-WDL` or `PDTB-DTC`), version (u32 = 1),
//! the variant's name (32 bytes, zero padded), the material (4 bytes: our men, our kings, their
//! men, their kings), block size (u32), positions (u64), wins, draws, losses and don't-care
//! positions (4 x u64), the largest distance stored (u32; 0 in a `.wdl` file built without
//! distances), the number of blocks `B` (u64), `B + 1` offsets (u64, from the start of the data
//! to each block's first byte, then the end), the data, and a 64-bit checksum of every byte
//! before it ([`checksum`]).

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::index::Material;
use super::EgtbError;

/// Positions per block.
pub const BLOCK: usize = 4096;

/// The largest distance to conversion stored; longer ones are stored as this.
pub const DTC_CAP: u8 = 80;

/// The value of a position the coder may choose freely.
pub const DONT_CARE: u8 = 3;

/// The run lengths a `.wdl` run token can say, shortest first.
pub const RUN_LENGTHS: [u16; 58] = [
    5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
    30, 31, 32, 34, 36, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512,
    640, 768, 896, 1024, 1280, 1536, 1792, 2048, 2560, 3072, 3584, 4096,
];

/// Positions covered by each `.wdl` token.
static TOKEN_SPAN: [u16; 256] = token_spans();

const fn token_spans() -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = if b < 81 {
            4
        } else if b < 81 + 3 * RUN_LENGTHS.len() {
            RUN_LENGTHS[(b - 81) / 3]
        } else {
            0
        };
        b += 1;
    }
    t
}

/// The value at `offset` of a `.wdl` block, or `None` past the block's last token.
#[inline]
pub fn wdl_at(block: &[u8], offset: usize) -> Option<u8> {
    let mut pos = 0usize;
    for &t in block {
        let span = TOKEN_SPAN[t as usize] as usize;
        if offset < pos + span {
            return Some(if t < 81 {
                let mut d = t;
                for _ in 0..offset - pos {
                    d /= 3;
                }
                d % 3
            } else {
                (t - 81) % 3
            });
        }
        pos += span;
    }
    None
}

/// Decodes a whole `.wdl` block into `out` (positions past the last token get 1, a draw).
/// Fails on a byte that is no token.
pub fn decode_wdl_block(block: &[u8], out: &mut [u8]) -> Result<(), String> {
    let mut pos = 0usize;
    for &t in block {
        let span = TOKEN_SPAN[t as usize] as usize;
        if span == 0 {
            return Err(format!("byte {t} is no token"));
        }
        if t < 81 {
            let mut d = t;
            for k in 0..4 {
                if let Some(o) = out.get_mut(pos + k) {
                    *o = d % 3;
                }
                d /= 3;
            }
        } else {
            let v = (t - 81) % 3;
            let end = (pos + span).min(out.len());
            if pos < end {
                out[pos..end].fill(v);
            }
        }
        pos += span;
    }
    if pos < out.len() {
        out[pos..].fill(1);
    }
    Ok(())
}

/// Codes one block of values (0, 1, 2 or `DONT_CARE`) into `out`.
pub fn encode_wdl_block(values: &[u8], out: &mut Vec<u8>) {
    let n = values.len();
    let mut i = 0;
    // The value the last token gave: don't-care digits copy it.
    let mut last = 1u8;
    while i < n {
        let Some(first) = values[i..].iter().position(|&v| v != DONT_CARE) else {
            break;
        };
        let v = values[i + first];
        let mut j = i;
        while j < n && (values[j] == v || values[j] == DONT_CARE) {
            j += 1;
        }
        let run = j - i;
        if run >= RUN_LENGTHS[0] as usize {
            let k = RUN_LENGTHS.partition_point(|&l| l as usize <= run) - 1;
            out.push(81 + 3 * k as u8 + v);
            i += RUN_LENGTHS[k] as usize;
            last = v;
        } else {
            let mut t = 0u8;
            let mut mul = 1u8;
            for k in 0..4 {
                let d = match values.get(i + k) {
                    Some(&x) if x != DONT_CARE => x,
                    _ => last,
                };
                last = d;
                t += d * mul;
                mul = mul.wrapping_mul(3);
            }
            out.push(t);
            i += 4;
        }
    }
}

/// The distance at `offset` of a `.dtc` block, or `None` past its last token.
#[inline]
pub fn dtc_at(block: &[u8], offset: usize) -> Option<u8> {
    let mut pos = 0usize;
    let mut last = 0u8;
    for &t in block {
        let span = if t < 128 {
            last = t;
            1
        } else {
            t as usize - 127
        };
        if offset < pos + span {
            return Some(last);
        }
        pos += span;
    }
    None
}

/// Decodes a whole `.dtc` block into `out` (positions past the last token get 0).
pub fn decode_dtc_block(block: &[u8], out: &mut [u8]) {
    let mut pos = 0usize;
    let mut last = 0u8;
    for &t in block {
        let span = if t < 128 {
            last = t;
            1
        } else {
            t as usize - 127
        };
        let end = (pos + span).min(out.len());
        if pos < end {
            out[pos..end].fill(last);
        }
        pos += span;
    }
    if pos < out.len() {
        out[pos..].fill(0);
    }
}

/// Codes one block of distances (0..=[`DTC_CAP`], or 255 for don't care) into `out`.
pub fn encode_dtc_block(values: &[u8], out: &mut Vec<u8>) {
    let n = values.len();
    let mut i = 0;
    let mut last = 0u8;
    while i < n {
        let mut j = i;
        while j < n && (values[j] == last || values[j] == 255) && j - i < 128 {
            j += 1;
        }
        if j > i {
            // Only don't-care positions left: the block may stop here.
            if j == n && values[i..].iter().all(|&v| v == 255) {
                break;
            }
            out.push((127 + j - i) as u8);
            i = j;
        } else {
            last = values[i];
            out.push(last);
            i += 1;
        }
    }
}

/// A 64-bit checksum of `bytes`, eight bytes at a time (a multiply-xorshift mix).
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h = Checksum::default();
    h.update(bytes);
    h.finish()
}

/// [`checksum`] computed piece by piece: pieces of any lengths, fed in order, give the
/// checksum of their concatenation.
#[derive(Clone, Copy, Debug)]
pub struct Checksum {
    h: u64,
    /// Bytes of the word not yet complete, and how many of them are held.
    tail: [u8; 8],
    held: usize,
}

impl Default for Checksum {
    fn default() -> Self {
        Checksum {
            h: 0x243F_6A88_85A3_08D3,
            tail: [0; 8],
            held: 0,
        }
    }
}

impl Checksum {
    #[inline]
    fn mix(h: u64, w: u64) -> u64 {
        let h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ (h >> 29)
    }

    /// Adds `bytes`.
    pub fn update(&mut self, mut bytes: &[u8]) {
        if self.held > 0 {
            let n = (8 - self.held).min(bytes.len());
            self.tail[self.held..self.held + n].copy_from_slice(&bytes[..n]);
            self.held += n;
            bytes = &bytes[n..];
            if self.held < 8 {
                return;
            }
            self.h = Self::mix(self.h, u64::from_le_bytes(self.tail));
            self.held = 0;
        }
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.h = Self::mix(self.h, u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        self.tail[..rest.len()].copy_from_slice(rest);
        self.held = rest.len();
    }

    /// The checksum.
    pub fn finish(self) -> u64 {
        let mut h = self.h;
        if self.held > 0 {
            // A short last word, zero-padded, is told apart from a whole one by its length.
            let mut w = [0u8; 8];
            w[..self.held].copy_from_slice(&self.tail[..self.held]);
            h = Self::mix(h ^ self.held as u64, u64::from_le_bytes(w));
        }
        Self::mix(h, 0x5851_F42D_4C95_7F2D)
    }
}

/// Which kind of table a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Win/draw/loss (`.wdl`).
    Wdl,
    /// Distance to conversion (`.dtc`).
    Dtc,
}

impl Kind {
    fn magic(self) -> &'static [u8; 8] {
        match self {
            Kind::Wdl => b"PDTB-WDL",
            Kind::Dtc => b"PDTB-DTC",
        }
    }

    /// The file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Kind::Wdl => "wdl",
            Kind::Dtc => "dtc",
        }
    }
}

/// The fixed part of a file's header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// What the file holds.
    pub kind: Kind,
    /// The variant's registry name.
    pub variant: String,
    /// The slice.
    pub material: Material,
    /// Positions (indices) in the slice.
    pub positions: u64,
    /// Won, drawn and lost positions without a capture, and don't-care positions.
    pub counts: [u64; 4],
    /// The largest distance to conversion (0 when none is stored).
    pub max_dtc: u32,
}

/// Bytes before the offset table.
pub const HEADER_BYTES: usize = 8 + 4 + 32 + 4 + 4 + 8 + 32 + 4 + 8;

impl Header {
    /// Refuses a file whose slice has another size than `positions` (a table of another index
    /// layout, such as Turkish's before its mirror).
    pub fn check_positions(&self, path: &Path, positions: u64) -> Result<(), EgtbError> {
        if self.positions == positions {
            return Ok(());
        }
        Err(EgtbError::damaged(
            path,
            format!(
                "{} positions, the slice has {positions} (a table of another index layout: \
                 build it again)",
                self.positions
            ),
        ))
    }

    /// Number of blocks.
    pub fn blocks(&self) -> u64 {
        self.positions.div_ceil(BLOCK as u64)
    }

    /// Where the coded blocks of a file of `len` bytes with this header start, and how many
    /// bytes they take (between the offset table and the checksum); an error when the file is
    /// too short to hold its offset table and checksum.
    pub fn data_span(&self, path: &Path, len: u64) -> Result<(u64, u64), EgtbError> {
        let data_at = (HEADER_BYTES as u64).saturating_add(8 * (self.blocks() + 1));
        match len.checked_sub(data_at.saturating_add(8)) {
            Some(data_len) => Ok((data_at, data_len)),
            None => Err(EgtbError::damaged(path, "truncated before its data")),
        }
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(HEADER_BYTES);
        b.extend_from_slice(self.kind.magic());
        b.extend_from_slice(&1u32.to_le_bytes());
        let mut name = [0u8; 32];
        let n = self.variant.len().min(32);
        name[..n].copy_from_slice(&self.variant.as_bytes()[..n]);
        b.extend_from_slice(&name);
        let m = self.material;
        b.extend_from_slice(&[m.men[0], m.kings[0], m.men[1], m.kings[1]]);
        b.extend_from_slice(&(BLOCK as u32).to_le_bytes());
        b.extend_from_slice(&self.positions.to_le_bytes());
        for c in self.counts {
            b.extend_from_slice(&c.to_le_bytes());
        }
        b.extend_from_slice(&self.max_dtc.to_le_bytes());
        b.extend_from_slice(&self.blocks().to_le_bytes());
        b
    }

    /// Reads and checks a header: the kind, version, block size and the expected variant and
    /// material.
    pub fn parse(
        bytes: &[u8],
        path: &Path,
        kind: Kind,
        variant: &str,
        material: Material,
    ) -> Result<Header, EgtbError> {
        let bad = |why: String| EgtbError::damaged(path, why);
        if bytes.len() < HEADER_BYTES {
            return Err(bad(format!(
                "{} bytes, shorter than a header ({HEADER_BYTES})",
                bytes.len()
            )));
        }
        if &bytes[0..8] != kind.magic() {
            return Err(bad(format!(
                "not a Polydam .{} table (bad magic)",
                kind.extension()
            )));
        }
        let u32_at =
            |o: usize| u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
        let u64_at = |o: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[o..o + 8]);
            u64::from_le_bytes(w)
        };
        let version = u32_at(8);
        if version != 1 {
            return Err(bad(format!("format version {version}, this build reads 1")));
        }
        let name_bytes = &bytes[12..44];
        let end = name_bytes.iter().position(|&c| c == 0).unwrap_or(32);
        let name = String::from_utf8_lossy(&name_bytes[..end]).into_owned();
        if name != variant {
            return Err(bad(format!("a table of '{name}', not of '{variant}'")));
        }
        let m = Material::new(bytes[44], bytes[45], bytes[46], bytes[47]);
        if m != material {
            return Err(bad(format!("holds slice {m}, expected {material}")));
        }
        let block = u32_at(48);
        if block as usize != BLOCK {
            return Err(bad(format!("block size {block}, expected {BLOCK}")));
        }
        let positions = u64_at(52);
        let counts = [u64_at(60), u64_at(68), u64_at(76), u64_at(84)];
        let max_dtc = u32_at(92);
        let blocks = u64_at(96);
        let header = Header {
            kind,
            variant: name,
            material: m,
            positions,
            counts,
            max_dtc,
        };
        if blocks != header.blocks() {
            return Err(bad(format!(
                "{blocks} blocks for {positions} positions (expected {})",
                header.blocks()
            )));
        }
        Ok(header)
    }
}

/// Writes a table file at `path` (through a temporary file renamed at the end, so that an
/// interrupted build never leaves a file that looks finished, and removed if the writing
/// fails); returns its length in bytes.
pub fn write_file(path: &Path, header: &Header, blocks: &[Vec<u8>]) -> Result<u64, EgtbError> {
    let mut bytes = header.to_bytes();
    let mut offset = 0u64;
    for b in blocks {
        bytes.extend_from_slice(&offset.to_le_bytes());
        offset += b.len() as u64;
    }
    bytes.extend_from_slice(&offset.to_le_bytes());
    // Header and offsets, the blocks, and the trailing checksum.
    let total = bytes.len() as u64 + offset + 8;
    super::sidefile::write_checked(path, |w| {
        w.put(&bytes)?;
        blocks.iter().try_for_each(|b| w.put(b))
    })?;
    Ok(total)
}

/// Opens the table file `path` for reading: [`EgtbError::Missing`] when it is not there, an
/// error without opening it when it is no regular file (a named pipe would block the opening,
/// a device such as `/dev/zero` never ends: [`crate::files::open_regular`]).
pub fn open_table(path: &Path) -> Result<File, EgtbError> {
    crate::files::open_regular(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            EgtbError::Missing {
                path: path.to_path_buf(),
            }
        } else {
            EgtbError::io(path, e)
        }
    })
}

/// Checks a table file's offsets, `offset(b)` for every block `b` of `blocks` and the end
/// (`b = blocks`): they must never fall, and the last must be `data_len`, the bytes between
/// the offset table and the checksum.
pub fn check_offsets(
    path: &Path,
    blocks: usize,
    data_len: u64,
    offset: impl Fn(usize) -> u64,
) -> Result<(), EgtbError> {
    let mut previous = 0;
    for b in 0..=blocks {
        let o = offset(b);
        if o < previous || o > data_len {
            return Err(EgtbError::damaged(path, format!("bad offset of block {b}")));
        }
        previous = o;
    }
    if previous != data_len {
        return Err(EgtbError::damaged(
            path,
            "data length disagrees with the offsets",
        ));
    }
    Ok(())
}

/// A table file read whole into memory and checked: header, offsets, checksum.
#[derive(Debug)]
pub struct TableBytes {
    /// The header.
    pub header: Header,
    bytes: Vec<u8>,
    offsets_at: usize,
    data_at: usize,
}

impl TableBytes {
    /// Reads `path` and checks it against the expected kind, variant and material.
    ///
    /// The header and the offset table are read first, and the file's size must be the one
    /// they give before the data is read: a file that claims more than it holds, or holds
    /// more than it claims, is refused without reading it whole.
    pub fn read(
        path: &Path,
        kind: Kind,
        variant: &str,
        material: Material,
        positions: u64,
    ) -> Result<TableBytes, EgtbError> {
        let io = |e: std::io::Error| EgtbError::io(path, e);
        let file = open_table(path)?;
        let len = file.metadata().map_err(io)?.len();
        let mut r = file.take(len);
        let mut bytes = vec![0u8; len.min(HEADER_BYTES as u64) as usize];
        r.read_exact(&mut bytes).map_err(io)?;
        let header = Header::parse(&bytes, path, kind, variant, material)?;
        header.check_positions(path, positions)?;
        let (data_at, data_len) = header.data_span(path, len)?;
        let end_of_offsets = data_at as usize;
        bytes.resize(end_of_offsets, 0);
        r.read_exact(&mut bytes[HEADER_BYTES..]).map_err(io)?;
        let last = end_of_offsets - 8;
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[last..]);
        let claimed = u64::from_le_bytes(w);
        if claimed != data_len {
            return Err(EgtbError::damaged(
                path,
                format!(
                    "{len} bytes, where its header and offsets make {}",
                    data_at.saturating_add(claimed).saturating_add(8)
                ),
            ));
        }
        bytes.reserve_exact((len - data_at) as usize);
        r.read_to_end(&mut bytes).map_err(io)?;
        if bytes.len() as u64 != len {
            return Err(EgtbError::damaged(
                path,
                "shorter than its size said while read",
            ));
        }
        Self::from_bytes(bytes, path, kind, variant, material, positions)
    }

    /// Checks `bytes` (a whole file) as [`TableBytes::read`] does.
    pub fn from_bytes(
        bytes: Vec<u8>,
        path: &Path,
        kind: Kind,
        variant: &str,
        material: Material,
        positions: u64,
    ) -> Result<TableBytes, EgtbError> {
        let header = Header::parse(&bytes, path, kind, variant, material)?;
        header.check_positions(path, positions)?;
        let (data_at, data_len) = header.data_span(path, bytes.len() as u64)?;
        let (blocks, data_at) = (header.blocks() as usize, data_at as usize);
        let body = bytes.len() - 8;
        let mut stored = [0u8; 8];
        stored.copy_from_slice(&bytes[body..]);
        if checksum(&bytes[..body]) != u64::from_le_bytes(stored) {
            return Err(EgtbError::damaged(path, "checksum mismatch"));
        }
        let t = TableBytes {
            header,
            bytes,
            offsets_at: HEADER_BYTES,
            data_at,
        };
        check_offsets(path, blocks, data_len, |b| t.offset(b))?;
        Ok(t)
    }

    #[inline]
    fn offset(&self, b: usize) -> u64 {
        let o = self.offsets_at + 8 * b;
        let mut w = [0u8; 8];
        w.copy_from_slice(&self.bytes[o..o + 8]);
        u64::from_le_bytes(w)
    }

    /// The coded bytes of block `b`.
    #[inline]
    pub fn block(&self, b: usize) -> &[u8] {
        let start = self.data_at + self.offset(b) as usize;
        let end = self.data_at + self.offset(b + 1) as usize;
        &self.bytes[start..end]
    }

    /// The checksum stored at the file's end (already checked against its bytes).
    pub fn checksum(&self) -> u64 {
        let mut w = [0u8; 8];
        w.copy_from_slice(&self.bytes[self.bytes.len() - 8..]);
        u64::from_le_bytes(w)
    }

    /// The file's size in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the file is empty (never: a checked file has a header).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// Codes `values` (values or distances, as `kind` says) block by block and writes them as the
/// table file `path` of `variant`'s slice `m`; its header (made-up counts), for tests.
#[cfg(test)]
pub(crate) fn write_coded(
    path: &Path,
    kind: Kind,
    variant: &str,
    m: Material,
    values: &[u8],
) -> Header {
    let blocks: Vec<Vec<u8>> = values
        .chunks(BLOCK)
        .map(|c| {
            let mut b = Vec::new();
            match kind {
                Kind::Wdl => encode_wdl_block(c, &mut b),
                Kind::Dtc => encode_dtc_block(c, &mut b),
            }
            b
        })
        .collect();
    let header = Header {
        kind,
        variant: variant.into(),
        material: m,
        positions: values.len() as u64,
        counts: [1, 2, 3, 4],
        max_dtc: 7,
    };
    write_file(path, &header, &blocks).expect("written");
    header
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_in_pieces_is_the_checksum_of_the_whole() {
        let bytes: Vec<u8> = (0..1000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
            .collect();
        let whole = checksum(&bytes);
        for cuts in [
            vec![],
            vec![3],
            vec![8, 9, 10, 17],
            vec![1, 2, 3, 4, 5, 6, 7, 999],
            vec![500],
        ] {
            let mut sum = Checksum::default();
            let mut at = 0;
            for &c in cuts.iter().chain(std::iter::once(&bytes.len())) {
                sum.update(&bytes[at..c]);
                at = c;
            }
            assert_eq!(sum.finish(), whole, "cut at {cuts:?}");
        }
        // A short last word counts its length: trailing zero bytes change the checksum.
        assert_ne!(
            checksum(&bytes[..997]),
            checksum(&[&bytes[..997], &[0][..]].concat())
        );
        assert_ne!(checksum(&bytes[..1000]), checksum(&bytes[..999]));
    }

    #[test]
    fn wdl_blocks_round_trip_with_dont_cares() {
        let mut values = Vec::new();
        let mut x = 12345u32;
        for i in 0..BLOCK {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let v = match (i / 300) % 4 {
                0 => 2,
                1 => ((x >> 16) % 3) as u8,
                2 => {
                    if x >> 30 == 0 {
                        DONT_CARE
                    } else {
                        1
                    }
                }
                _ => ((x >> 16) % 4) as u8,
            };
            values.push(v);
        }
        let mut coded = Vec::new();
        encode_wdl_block(&values, &mut coded);
        let mut out = vec![9u8; BLOCK];
        decode_wdl_block(&coded, &mut out).expect("valid tokens");
        for (i, &v) in values.iter().enumerate() {
            if v != DONT_CARE {
                assert_eq!(out[i], v, "position {i}");
                assert_eq!(wdl_at(&coded, i), Some(v), "position {i}");
            }
        }
        assert!(coded.len() < BLOCK / 2, "{} bytes", coded.len());
    }

    #[test]
    fn dtc_blocks_round_trip() {
        let values: Vec<u8> = (0..BLOCK)
            .map(|i| match i % 7 {
                0 => 255,
                1 | 2 => (i % 80) as u8,
                _ => 3,
            })
            .collect();
        let mut coded = Vec::new();
        encode_dtc_block(&values, &mut coded);
        let mut out = vec![0u8; BLOCK];
        decode_dtc_block(&coded, &mut out);
        for (i, &v) in values.iter().enumerate() {
            if v != 255 {
                assert_eq!(out[i], v, "position {i}");
                assert_eq!(dtc_at(&coded, i), Some(v));
            }
        }
    }

    #[test]
    fn files_round_trip_and_damage_is_caught() {
        let dir = std::env::temp_dir().join(format!("polydam-codec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("m0k1-m0k1.wdl");
        let m = Material::new(0, 1, 0, 1);
        let values: Vec<u8> = (0..BLOCK + 10).map(|i| (i % 3) as u8).collect();
        let header = write_coded(&path, Kind::Wdl, "international", m, &values);
        let t = TableBytes::read(&path, Kind::Wdl, "international", m, values.len() as u64)
            .expect("reads back");
        assert_eq!(t.header, header);
        assert_eq!(wdl_at(t.block(1), 9), Some(values[BLOCK + 9]));
        let wrong = TableBytes::read(&path, Kind::Wdl, "russian", m, values.len() as u64);
        assert!(matches!(wrong, Err(EgtbError::Damaged { .. })), "{wrong:?}");
        let mut bytes = std::fs::read(&path).expect("reads");
        let n = bytes.len();
        bytes[n - 20] ^= 1;
        let e = TableBytes::from_bytes(bytes, &path, Kind::Wdl, "international", m, 4106)
            .expect_err("damaged");
        assert!(e.to_string().contains("checksum mismatch"), "{e}");
        let missing = TableBytes::read(&dir.join("nothing.wdl"), Kind::Wdl, "x", m, 1);
        assert!(matches!(missing, Err(EgtbError::Missing { .. })));
        std::fs::remove_dir_all(&dir).ok();
    }
}
