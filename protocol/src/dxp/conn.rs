//! A DXP connection over TCP: messages sent whole with their `\0`, and messages received with
//! a deadline, so that a silent or vanished peer is noticed instead of waited for.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use super::frame::Framer;
use super::message::{DxpError, Message};

/// Why no message was received.
#[derive(Debug)]
pub enum RecvError {
    /// Nothing whole arrived before the deadline.
    Timeout,
    /// The peer closed the connection (a message cut short by the close is mentioned).
    Closed {
        /// Whether part of a message was waiting for its `\0` when the connection closed.
        partial: bool,
    },
    /// The connection failed (reset, ...).
    Io(std::io::Error),
    /// A whole message arrived but does not read; the connection stays usable.
    Malformed {
        /// The message as received (lossy text, for reports).
        text: String,
        /// What is wrong with it.
        error: DxpError,
    },
}

impl std::fmt::Display for RecvError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecvError::Timeout => write!(f, "no message before the deadline"),
            RecvError::Closed { partial: false } => write!(f, "the connection was closed"),
            RecvError::Closed { partial: true } => {
                write!(f, "the connection was closed in the middle of a message")
            }
            RecvError::Io(e) => write!(f, "the connection failed: {e}"),
            RecvError::Malformed { text, error } => {
                write!(f, "malformed message '{}': {error}", excerpt(text))
            }
        }
    }
}

/// The engine's excerpt of `text` ([`polydam_engine::text::excerpt`]), control characters
/// escaped: a DXP peer may send any byte.
pub(crate) fn excerpt(text: &str) -> String {
    polydam_engine::text::excerpt(text)
        .chars()
        .flat_map(char::escape_default)
        .collect()
}

/// One DXP connection.
#[derive(Debug)]
pub struct Connection {
    stream: TcpStream,
    framer: Framer,
    peer: String,
    /// Least time between two messages sent with nothing received in between.
    pacing: Duration,
    /// When the last message was sent, if nothing was received since.
    last_send: Option<Instant>,
}

impl Connection {
    /// Wraps a connected stream (Nagle's algorithm off: messages are small and answered).
    pub fn new(stream: TcpStream) -> Connection {
        let _ = stream.set_nodelay(true);
        let peer = stream
            .peer_addr()
            .map_or_else(|_| "unknown peer".to_owned(), |a| a.to_string());
        Connection {
            stream,
            framer: Framer::default(),
            peer,
            pacing: Duration::ZERO,
            last_send: None,
        }
    }

    /// Spaces out messages sent one after the other (GAMEACC and a first MOVE, a CHAT and a
    /// GAMEEND) by at least `gap`: some clients take each read for one message and lose the
    /// second of two that arrive together (pydraughts 0.6.7 does), which a pause before the
    /// second makes unlikely. Nothing waits when a message was received in between.
    pub fn set_pacing(&mut self, gap: Duration) {
        self.pacing = gap;
    }

    /// Connects to `addr`, waiting at most `timeout`.
    pub fn connect(addr: &SocketAddr, timeout: Duration) -> std::io::Result<Connection> {
        TcpStream::connect_timeout(addr, timeout).map(Connection::new)
    }

    /// The peer's address as text.
    pub fn peer(&self) -> &str {
        &self.peer
    }

    /// Sends one message (its text and a `\0`, in one write).
    pub fn send(&mut self, message: &Message) -> std::io::Result<()> {
        if let Some(last) = self.last_send {
            let wait = self.pacing.saturating_sub(last.elapsed());
            if !wait.is_zero() {
                std::thread::sleep(wait);
            }
        }
        let mut bytes = message.encode().into_bytes();
        bytes.push(0);
        self.stream.write_all(&bytes)?;
        self.stream.flush()?;
        self.last_send = Some(Instant::now());
        Ok(())
    }

    /// Sends raw bytes as they are (tests of malformed input use it).
    pub fn send_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.stream.write_all(bytes)?;
        self.stream.flush()
    }

    /// The next message, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant) -> Result<Message, RecvError> {
        self.recv_frame(deadline).and_then(|frame| {
            Message::parse(&frame).map_err(|error| RecvError::Malformed {
                text: String::from_utf8_lossy(&frame).into_owned(),
                error,
            })
        })
    }

    /// The next whole message's bytes (without its `\0`), waiting until `deadline` at most.
    pub fn recv_frame(&mut self, deadline: Instant) -> Result<Vec<u8>, RecvError> {
        let mut buf = [0u8; 1024];
        loop {
            match self.framer.next_frame() {
                Some(Ok(frame)) => {
                    self.last_send = None;
                    return Ok(frame);
                }
                Some(Err(error)) => {
                    return Err(RecvError::Malformed {
                        text: String::new(),
                        error,
                    })
                }
                None => {}
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(RecvError::Timeout);
            }
            // A zero timeout would mean "block forever": at least a millisecond.
            self.stream
                .set_read_timeout(Some(left.max(Duration::from_millis(1))))
                .map_err(RecvError::Io)?;
            match self.stream.read(&mut buf) {
                Ok(0) => {
                    return Err(RecvError::Closed {
                        partial: self.framer.has_partial(),
                    })
                }
                Ok(n) => self.framer.push(&buf[..n]),
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted
                    ) =>
                {
                    return Err(RecvError::Closed {
                        partial: self.framer.has_partial(),
                    })
                }
                Err(e) => return Err(RecvError::Io(e)),
            }
        }
    }

    /// Closes both directions (the peer sees the end of the stream).
    pub fn close(&self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    fn pair() -> (Connection, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("address");
        let client = Connection::connect(&addr, Duration::from_secs(5)).expect("connect");
        let (server, _) = listener.accept().expect("accept");
        (client, server)
    }

    #[test]
    fn messages_split_over_writes_are_reassembled() {
        let (mut conn, mut peer) = pair();
        let writer = std::thread::spawn(move || {
            for part in [&b"M00120"[..], b"61100\0E0", b"0\0CHi\0"] {
                peer.write_all(part).expect("write");
                peer.flush().expect("flush");
                std::thread::sleep(Duration::from_millis(20));
            }
            peer
        });
        let deadline = Instant::now() + Duration::from_secs(5);
        let kinds: Vec<_> = (0..3)
            .map(|_| conn.recv(deadline).expect("a message").kind())
            .collect();
        assert_eq!(
            kinds,
            [
                super::super::message::Kind::Move,
                super::super::message::Kind::GameEnd,
                super::super::message::Kind::Chat
            ]
        );
        let peer = writer.join().expect("writer");
        drop(peer);
        assert!(matches!(
            conn.recv(deadline),
            Err(RecvError::Closed { partial: false })
        ));
    }

    #[test]
    fn silence_times_out_and_a_cut_message_is_reported() {
        let (mut conn, mut peer) = pair();
        let started = Instant::now();
        let r = conn.recv(Instant::now() + Duration::from_millis(100));
        assert!(matches!(r, Err(RecvError::Timeout)), "{r:?}");
        assert!(started.elapsed() >= Duration::from_millis(100));
        peer.write_all(b"M00").expect("write");
        drop(peer);
        let r = conn.recv(Instant::now() + Duration::from_secs(5));
        assert!(
            matches!(r, Err(RecvError::Closed { partial: true })),
            "{r:?}"
        );
    }

    #[test]
    fn messages_sent_in_a_row_are_paced() {
        let (mut conn, _peer) = pair();
        conn.set_pacing(Duration::from_millis(50));
        let started = Instant::now();
        for _ in 0..3 {
            conn.send(&Message::Chat("x".into())).expect("send");
        }
        assert!(started.elapsed() >= Duration::from_millis(100));
    }

    #[test]
    fn a_malformed_message_leaves_the_connection_usable() {
        let (mut conn, mut peer) = pair();
        peer.write_all(b"M0012511100\0E00\0").expect("write");
        let deadline = Instant::now() + Duration::from_secs(5);
        let r = conn.recv(deadline);
        let Err(e @ RecvError::Malformed { .. }) = r else {
            panic!("{r:?}");
        };
        assert!(
            e.to_string().contains("from square 51 is off the board"),
            "{e}"
        );
        assert!(matches!(conn.recv(deadline), Ok(Message::GameEnd(_))));
    }
}
