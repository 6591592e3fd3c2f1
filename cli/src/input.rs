//! [`ChannelInput`]: a command's input fed line by line through a channel, so that a host on one
//! thread can drive a command that reads its input as it comes (`ugi`) on another, in process,
//! the way a GUI drives an engine through a pipe.
//!
//! Key invariant: the reader hands out exactly the bytes sent, in order, and blocks until the
//! next line is sent; a closed channel (every sender dropped) is the end of the input.

use std::io::{BufRead, Read};
use std::sync::mpsc::{Receiver, Sender, channel};

/// A [`BufRead`] whose bytes are the strings sent to its channel, in order (send each line with
/// its newline). Give it to [`crate::run`] as the input.
pub struct ChannelInput {
    from: Receiver<String>,
    pending: Vec<u8>,
    at: usize,
}

impl ChannelInput {
    /// A reader of what is sent to `from`.
    #[must_use]
    pub fn new(from: Receiver<String>) -> ChannelInput {
        ChannelInput {
            from,
            pending: Vec::new(),
            at: 0,
        }
    }

    /// A new channel: the sender for the host, the reader for the command.
    #[must_use]
    pub fn channel() -> (Sender<String>, ChannelInput) {
        let (to, from) = channel();
        (to, ChannelInput::new(from))
    }
}

impl Read for ChannelInput {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ChannelInput {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.at >= self.pending.len() {
            // A closed channel is the end of the input.
            match self.from.recv() {
                Ok(text) => {
                    self.pending = text.into_bytes();
                    self.at = 0;
                }
                Err(_) => {
                    self.pending.clear();
                    self.at = 0;
                    break;
                }
            }
        }
        Ok(&self.pending[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.pending.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines come out as sent, an empty send is skipped (not an end), and the input ends when
    /// the sender is dropped.
    #[test]
    fn lines_arrive_in_order_and_a_closed_channel_ends_the_input() {
        let (to, mut input) = ChannelInput::channel();
        let host = std::thread::spawn(move || {
            for text in ["isready\n", "", "go depth 1\n", "quit\n"] {
                to.send(text.to_string()).unwrap();
            }
        });
        let mut lines = Vec::new();
        let mut line = String::new();
        while input.read_line(&mut line).unwrap() > 0 {
            lines.push(std::mem::take(&mut line));
        }
        host.join().unwrap();
        assert_eq!(lines, ["isready\n", "go depth 1\n", "quit\n"]);
    }
}
