//! Reading newline-delimited lines within a limit, and a line's content as JSON or the parse error it is answered
//! with: what [`LineTransport`](super::LineTransport) reads its input with, and what a process between an stdio client
//! and a ranvier app (`ranvier-mcp supervise`) reads its client with.

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

use serde_json::Value;

use super::MAX_LINE_BYTES;
// For the doc links: the transport is what reads lines this way.
#[cfg(doc)]
use super::LineTransport;
use super::response::{PARSE_ERROR, error_line, error_response};
use crate::mcp::text;

/// The capacity a line buffer keeps between lines; a longer line's buffer is freed once it is read.
pub(super) const KEPT_CAPACITY: usize = 64 * 1024;
/// The UTF-8 byte order mark, which RFC 8259 lets a parser ignore (rmcp's transport drops it).
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Reads newline-delimited lines from a byte stream without ever holding more than a limit: a longer line is
/// discarded as it arrives and reported with its length once its newline (or the end of the input) arrives. What
/// [`LineTransport`] reads its input with; a process between an stdio client and a ranvier app (such as
/// `ranvier-mcp supervise`) can read its client with it and answer, through [`Line::json`], the lines the app would
/// answer with a parse error, in the app's words.
///
/// Nothing a bad line holds stops the reading: the bytes after its newline are the next line. A last line without
/// a newline is still a line.
///
/// # Examples
///
/// ```
/// use ranvier::mcp::stdio::{Line, LineReader};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let input: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\nhi\xff\n";
/// let mut lines = LineReader::new(input).max_line_bytes(64);
///
/// let line = lines.next_line().await.expect("a line");
/// let (text, json) = line.json().expect("JSON").expect("not blank");
/// assert_eq!(text, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
/// assert_eq!(json["method"], "ping");
///
/// let line = lines.next_line().await.expect("a line");
/// assert_eq!(line, Line::TooLong { bytes: 75, limit: 64 });
/// assert_eq!(
///     line.json().unwrap_err().response(),
///     r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: line of 75 bytes is past the 64-byte limit"}}"#
/// );
///
/// let line = lines.next_line().await.expect("a line");
/// assert_eq!(line, Line::Read(b"hi\xff"));
/// assert_eq!(line.json().unwrap_err().message(), "Parse error: invalid UTF-8 at byte 2");
///
/// assert_eq!(lines.next_line().await, None);
/// # }
/// ```
pub struct LineReader<R> {
    read: BufReader<R>,
    /// The line being read, without its newline; it survives a cancelled `next_line`.
    pub(super) line: Vec<u8>,
    /// Whether `line` holds the line the last `next_line` returned, to clear before reading the next one.
    returned: bool,
    /// While the rest of a line past the limit is discarded: how many bytes it has had so far.
    discarding: Option<usize>,
    pub(super) max_line_bytes: usize,
}

impl<R> std::fmt::Debug for LineReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineReader")
            .field("max_line_bytes", &self.max_line_bytes)
            .finish_non_exhaustive()
    }
}

/// A line [`LineReader::next_line`] read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line<'a> {
    /// A line within the limit, without its newline (a `\r` before the newline is kept).
    Read(&'a [u8]),
    /// A line past the limit, discarded as it arrived.
    TooLong {
        /// The line's length in bytes, its newline not counted.
        bytes: usize,
        /// The reader's limit.
        limit: usize,
    },
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// A reader of the lines of `read`, with the [`MAX_LINE_BYTES`] limit.
    pub fn new(read: R) -> Self {
        Self {
            read: BufReader::new(read),
            line: Vec::new(),
            returned: false,
            discarding: None,
            max_line_bytes: MAX_LINE_BYTES,
        }
    }

    /// Reads lines of at most `max_line_bytes` bytes, their newline not counted; a longer line is discarded as it
    /// arrives and read as [`Line::TooLong`].
    pub fn max_line_bytes(mut self, max_line_bytes: usize) -> Self {
        self.max_line_bytes = max_line_bytes;
        self
    }

    /// The next line, or `None` at the end of the input (or when reading it fails). It never holds more than the
    /// limit of a line.
    ///
    /// Cancel safe: the bytes taken from the reader are kept (or counted, past the limit) before each await, so a
    /// cancelled call resumes where it stopped and no line is lost.
    pub async fn next_line(&mut self) -> Option<Line<'_>> {
        if std::mem::take(&mut self.returned) {
            self.line.clear();
            self.line.shrink_to(KEPT_CAPACITY);
        }
        loop {
            let (consumed, ended) = {
                let available = self.read.fill_buf().await.ok()?;
                if available.is_empty() {
                    // the end of the input: a last line without a newline is still a line
                    if let Some(bytes) = self.discarding.take() {
                        return Some(self.too_long(bytes));
                    }
                    if self.line.is_empty() {
                        return None;
                    }
                    self.returned = true;
                    return Some(Line::Read(&self.line));
                }
                let newline = available.iter().position(|&b| b == b'\n');
                let content = newline.unwrap_or(available.len());
                if let Some(bytes) = &mut self.discarding {
                    *bytes = bytes.saturating_add(content);
                } else if self.line.len().saturating_add(content) > self.max_line_bytes {
                    self.discarding = Some(self.line.len() + content);
                    self.line = Vec::new();
                } else {
                    self.line.extend_from_slice(&available[..content]);
                }
                (newline.map_or(content, |at| at + 1), newline.is_some())
            };
            self.read.consume(consumed);
            if ended {
                if let Some(bytes) = self.discarding.take() {
                    return Some(self.too_long(bytes));
                }
                self.returned = true;
                return Some(Line::Read(&self.line));
            }
        }
    }

    fn too_long(&self, bytes: usize) -> Line<'static> {
        Line::TooLong {
            bytes,
            limit: self.max_line_bytes,
        }
    }
}

impl<'a> Line<'a> {
    /// The line's text and JSON, read as [`LineTransport`] reads a line before it judges the message: a leading
    /// UTF-8 byte order mark and a trailing `\r` are dropped (the text is what is left), and a blank line (only
    /// spaces, tabs, `\r` and `\n`), which [`LineTransport`] ignores, is `None`.
    ///
    /// # Errors
    ///
    /// A line [`LineTransport`] answers with a parse error (-32700): past the limit, not UTF-8, not JSON, nested too
    /// deep or holding a number past the range of f64. The [`ParseError`] holds the same message and gives the same
    /// response.
    pub fn json(&self) -> Result<Option<(&'a str, Value)>, ParseError> {
        match *self {
            Line::Read(line) => match content(line) {
                Some((line, skipped)) => parse_json(line, skipped).map(Some),
                None => Ok(None),
            },
            Line::TooLong { bytes, limit } => Err(ParseError::too_long(bytes, limit)),
        }
    }
}

/// Why a line does not read as JSON, as [`LineTransport`] answers it: from [`Line::json`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    message: String,
}

impl ParseError {
    /// The error's message, such as `Parse error: invalid UTF-8 at byte 31`.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The response [`LineTransport`] writes for the line, without its newline:
    /// `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: …"}}`.
    pub fn response(&self) -> String {
        error_response(PARSE_ERROR, &self.message, Value::Null)
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// A line's content: without a trailing `\r` and a leading UTF-8 byte order mark, and how many bytes the mark took
/// (the offsets of a parse error count it); `None` for a blank line.
pub(super) fn content(line: &[u8]) -> Option<(&[u8], usize)> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let (line, skipped) = match line.strip_prefix(UTF8_BOM) {
        Some(rest) => (rest, UTF8_BOM.len()),
        None => (line, 0),
    };
    let blank = line
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
    (!blank).then_some((line, skipped))
}

/// A line's content (see [`content`]) as text and JSON, or the parse error it is answered with.
pub(super) fn parse_json(line: &[u8], skipped: usize) -> Result<(&str, Value), ParseError> {
    let text = std::str::from_utf8(line).map_err(|bad| ParseError {
        message: text::invalid_utf8(skipped + bad.valid_up_to()),
    })?;
    let value = serde_json::from_str::<Value>(text).map_err(|not_json| ParseError {
        message: text::not_json(&not_json.to_string()),
    })?;
    Ok((text, value))
}

impl ParseError {
    pub(super) fn too_long(bytes: usize, limit: usize) -> Self {
        Self {
            message: text::line_too_long(bytes, limit),
        }
    }

    /// The response line, its newline included.
    pub(super) fn line(&self) -> Vec<u8> {
        error_line(PARSE_ERROR, &self.message, Value::Null)
    }
}
