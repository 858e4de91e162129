//! Message reassembly (layer 1 of DamExchange): a TCP stream carries messages each ended by
//! one `\0`, and a read may hold part of a message, several messages, or both. [`Framer`]
//! collects the bytes read and hands out whole messages.
//!
//! Memory is bounded: a message longer than the protocol allows is reported once and its
//! bytes are dropped up to the next `\0`, so a peer that never sends `\0` cannot grow the
//! buffer.
//!
//! ```
//! use polydam_protocol::dxp::frame::Framer;
//! let mut f = Framer::default();
//! f.push(b"M0012061100\0E0");
//! assert_eq!(f.next_frame(), Some(Ok(b"M0012061100".to_vec())));
//! assert_eq!(f.next_frame(), None); // "E0" waits for the rest
//! f.push(b"0\0");
//! assert_eq!(f.next_frame(), Some(Ok(b"E00".to_vec())));
//! ```

use super::message::{DxpError, MAX_MESSAGE_LEN};

/// Collects bytes and splits them into messages at each `\0`.
#[derive(Debug, Default)]
pub struct Framer {
    /// Bytes received and not handed out yet (never more than one message's worth past the
    /// last `\0` found, plus what the last read brought).
    buf: Vec<u8>,
    /// Inside an overlong message: its bytes are dropped until the next `\0`.
    skipping: bool,
}

impl Framer {
    /// Adds bytes read from the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole message (without its `\0`), an error for an overlong one, or `None`
    /// when more bytes are needed.
    pub fn next_frame(&mut self) -> Option<Result<Vec<u8>, DxpError>> {
        loop {
            match self.buf.iter().position(|&b| b == 0) {
                Some(end) => {
                    let frame: Vec<u8> = self.buf.drain(..=end).take(end).collect();
                    if self.skipping {
                        // The tail of a message already reported as too long.
                        self.skipping = false;
                        continue;
                    }
                    if frame.len() > MAX_MESSAGE_LEN {
                        return Some(Err(DxpError::TooLong { len: frame.len() }));
                    }
                    return Some(Ok(frame));
                }
                None if self.skipping => {
                    self.buf.clear();
                    return None;
                }
                None if self.buf.len() > MAX_MESSAGE_LEN => {
                    let len = self.buf.len();
                    self.buf.clear();
                    self.skipping = true;
                    return Some(Err(DxpError::TooLong { len }));
                }
                None => return None,
            }
        }
    }

    /// Whether part of a message is waiting for its end.
    pub fn has_partial(&self) -> bool {
        !self.buf.is_empty() && !self.skipping
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(f: &mut Framer) -> Vec<Result<Vec<u8>, DxpError>> {
        std::iter::from_fn(|| f.next_frame()).collect()
    }

    #[test]
    fn split_and_merged_reads_give_the_same_messages() {
        let stream = b"R01Polydam                         Z005000A\0M0012061100\0CHello\0E00\0";
        let whole: Vec<Vec<u8>> = stream
            .split(|&b| b == 0)
            .filter(|m| !m.is_empty())
            .map(<[u8]>::to_vec)
            .collect();
        // Every way of cutting the stream into reads of 1..=stream.len() bytes.
        for chunk in 1..=stream.len() {
            let mut f = Framer::default();
            let mut got = Vec::new();
            for part in stream.chunks(chunk) {
                f.push(part);
                got.extend(drain(&mut f).into_iter().map(|r| r.expect("well formed")));
            }
            assert_eq!(got, whole, "reads of {chunk} bytes");
            assert!(!f.has_partial());
        }
    }

    #[test]
    fn an_empty_message_is_handed_out_for_the_parser_to_reject() {
        let mut f = Framer::default();
        f.push(b"\0E00\0");
        assert_eq!(drain(&mut f), vec![Ok(vec![]), Ok(b"E00".to_vec())]);
    }

    #[test]
    fn an_overlong_message_is_reported_once_and_skipped() {
        let mut f = Framer::default();
        // 200 bytes without a `\0`, over three reads, then a good message.
        f.push(&[b'C'; 100]);
        assert_eq!(drain(&mut f), vec![]);
        f.push(&[b'C'; 60]);
        assert_eq!(drain(&mut f), vec![Err(DxpError::TooLong { len: 160 })]);
        f.push(&[b'C'; 40]);
        assert_eq!(drain(&mut f), vec![]);
        assert!(!f.has_partial());
        f.push(b"x\0E00\0");
        assert_eq!(drain(&mut f), vec![Ok(b"E00".to_vec())]);
        // Overlong but complete in one read.
        let mut long = vec![b'C'; 130];
        long.push(0);
        f.push(&long);
        assert_eq!(drain(&mut f), vec![Err(DxpError::TooLong { len: 130 })]);
    }
}
