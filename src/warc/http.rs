//! The HTTP response inside a `response` record, and its payload as the
//! page's bytes.
//!
//! A `response` record holds the response as the server sent it: status
//! line, headers, blank line, body. The body may still carry the codings
//! the server applied (`Transfer-Encoding: chunked`, `Content-Encoding:
//! gzip`, `deflate`, `br`), or not: some crawlers store the body decoded
//! but keep (or rename) the headers. So each coding is undone only when the
//! bytes show it is there: a chunked body must start with a chunk-size
//! line, a gzip body with the gzip magic number; a body that does not look
//! coded is taken as already decoded. Coded bodies that do not decode are
//! errors, but a body that merely stops early (a truncated record, as
//! Common Crawl cuts payloads past its size limit) keeps what decoded.
//!
//! Decoded bodies are held to the reader's record size limit, against
//! compression bombs.

use std::borrow::Cow;
use std::io::Read;

use flate2::read::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

use super::error::WarcErrorKind;
use super::record::{blank_line, field, parse_fields};

/// The status line and headers of an HTTP response
/// ([`Record::http`](super::Record::http)).
///
/// ```
/// use htmltok::warc::HttpResponse;
///
/// let block = b"HTTP/1.1 404 Not Found\r\nContent-Type: text/html; charset=\"ISO-8859-1\"\r\n\r\n<p>gone";
/// let response = HttpResponse::parse(block).unwrap();
/// assert_eq!((response.status(), response.reason()), (404, "Not Found"));
/// assert_eq!(response.content_type(), Some("text/html; charset=\"ISO-8859-1\""));
/// assert_eq!(response.charset(), Some("ISO-8859-1"));
/// assert_eq!(&block[response.body_offset()..], b"<p>gone");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResponse {
    version: String,
    status: u16,
    reason: String,
    headers: Vec<(String, String)>,
    body_offset: usize,
}

impl HttpResponse {
    /// Reads the status line and header block at the start of `block`.
    /// Fails with [`WarcErrorKind::NotHttp`] when there is no status line,
    /// [`WarcErrorKind::HttpHeader`] when the headers have no blank line
    /// after them.
    pub fn parse(block: &[u8]) -> Result<HttpResponse, WarcErrorKind> {
        let line_end = memchr::memchr(b'\n', block).unwrap_or(block.len());
        let line = String::from_utf8_lossy(&block[..line_end]);
        let mut parts = line.trim().splitn(3, ' ');
        let version = parts.next().unwrap_or_default();
        let status = parts.next().and_then(|s| {
            (s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse::<u16>().ok())
                .flatten()
        });
        let (true, Some(status)) = (version.starts_with("HTTP/"), status) else {
            return Err(WarcErrorKind::NotHttp);
        };
        let reason = parts.next().unwrap_or_default().trim().to_string();
        let rest = &block[line_end..];
        // The blank line after the headers (the status line's own end is
        // where `rest` starts, so a response with no headers has it at 0).
        let Some(blank) = blank_line(rest).map(|(at, len)| at + len) else {
            return Err(WarcErrorKind::HttpHeader(
                "the header block has no blank line after it".to_string(),
            ));
        };
        Ok(HttpResponse {
            version: version.to_string(),
            status,
            reason,
            headers: parse_fields(rest.get(1..blank).unwrap_or_default()),
            body_offset: line_end + blank,
        })
    }

    /// The version: `"HTTP/1.1"`.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The status code.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The reason phrase, possibly empty.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The first header named `name` (case-insensitive), trimmed.
    pub fn header(&self, name: &str) -> Option<&str> {
        field(&self.headers, name)
    }

    /// Every header, in order.
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// `Content-Type`, as written.
    pub fn content_type(&self) -> Option<&str> {
        self.header("Content-Type")
    }

    /// The `charset` parameter of `Content-Type`, unquoted: the transport
    /// layer's character encoding, for encoding sniffing.
    pub fn charset(&self) -> Option<&str> {
        self.content_type().and_then(|value| charset(value))
    }

    /// Where the body starts in the block.
    pub fn body_offset(&self) -> usize {
        self.body_offset
    }

    /// The body found in `block` (the block this response was parsed
    /// from), with `Transfer-Encoding: chunked` and `Content-Encoding`
    /// undone where the bytes still carry them, at most `limit` bytes.
    ///
    /// ```
    /// use htmltok::warc::HttpResponse;
    ///
    /// let block = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<p>H\r\n3\r\ni!\n\r\n0\r\n\r\n";
    /// let response = HttpResponse::parse(block).unwrap();
    /// assert_eq!(&response.decoded_body(block, 1 << 20).unwrap()[..], b"<p>Hi!\n");
    /// ```
    pub fn decoded_body<'b>(
        &self,
        block: &'b [u8],
        limit: u64,
    ) -> Result<Cow<'b, [u8]>, WarcErrorKind> {
        let mut body = Cow::Borrowed(block.get(self.body_offset..).unwrap_or_default());
        let chunked = self
            .header("Transfer-Encoding")
            .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
        if chunked && looks_chunked(&body) {
            body = Cow::Owned(dechunk(&body, limit)?);
        }
        if let Some(codings) = self.header("Content-Encoding") {
            let codings: Vec<String> = codings
                .split(',')
                .map(|c| c.trim().to_ascii_lowercase())
                .filter(|c| !c.is_empty() && c != "identity")
                .collect();
            for coding in codings.iter().rev() {
                if let Some(decoded) = decode(coding, &body, limit)? {
                    body = Cow::Owned(decoded);
                }
            }
        }
        Ok(body)
    }
}

/// The `charset` parameter of a `Content-Type` value, unquoted.
pub(crate) fn charset(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches('"').trim())
            .filter(|v| !v.is_empty())
    })
}

/// The essence of a `Content-Type` value (`type/subtype`), lowercased.
pub(crate) fn essence(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// Whether `body` starts with a chunk-size line: hex digits, then an
/// optional extension, then a line end.
fn looks_chunked(body: &[u8]) -> bool {
    let digits = body.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    digits > 0 && matches!(body.get(digits), Some(b'\r' | b'\n' | b';' | b' ' | b'\t'))
}

/// Undoes the chunked transfer coding. A body that stops inside a chunk
/// (a truncated record) keeps what it has; trailers are dropped.
fn dechunk(mut body: &[u8], limit: u64) -> Result<Vec<u8>, WarcErrorKind> {
    let mut out = Vec::with_capacity(body.len());
    // (A body cut in a size line ends the loop.)
    while let Some(line_end) = memchr::memchr(b'\n', body) {
        let line = String::from_utf8_lossy(&body[..line_end]);
        let size = line.split(';').next().unwrap_or_default().trim();
        let Ok(size) = usize::from_str_radix(size, 16) else {
            return Err(WarcErrorKind::HttpBody(format!(
                "chunked transfer coding: bad chunk size line {:?}",
                line.trim_end()
            )));
        };
        body = &body[line_end + 1..];
        if size == 0 {
            break;
        }
        let take = size.min(body.len());
        if (out.len() + take) as u64 > limit {
            return Err(too_large(limit));
        }
        out.extend_from_slice(&body[..take]);
        body = &body[take..];
        body = body
            .strip_prefix(b"\r\n")
            .or_else(|| body.strip_prefix(b"\n"))
            .unwrap_or(body);
    }
    Ok(out)
}

/// Decodes one content coding, or `None` when the body does not carry it
/// (gzip without its magic number: already decoded).
fn decode(coding: &str, body: &[u8], limit: u64) -> Result<Option<Vec<u8>>, WarcErrorKind> {
    let name = coding;
    let result = match coding {
        "gzip" | "x-gzip" => {
            if !body.starts_with(&[0x1f, 0x8b]) {
                return Ok(None);
            }
            read_limited(MultiGzDecoder::new(body), limit)
        }
        "deflate" => {
            // RFC 9110's "deflate" is the zlib format, but servers send raw
            // deflate too; a zlib header says which.
            let zlib = body.len() >= 2
                && body[0] & 0x0f == 8
                && (u16::from(body[0]) << 8 | u16::from(body[1])) % 31 == 0;
            if zlib {
                read_limited(ZlibDecoder::new(body), limit)
            } else {
                read_limited(DeflateDecoder::new(body), limit)
            }
        }
        "br" => read_limited(brotli_decompressor::Decompressor::new(body, 4096), limit),
        other => {
            return Err(WarcErrorKind::HttpBody(format!(
                "unsupported Content-Encoding {other:?}"
            )));
        }
    };
    match result {
        Ok(decoded) => Ok(Some(decoded)),
        Err(Failure::TooLarge) => Err(too_large(limit)),
        Err(Failure::Corrupt(message)) => Err(WarcErrorKind::HttpBody(format!(
            "{name} Content-Encoding: {message}"
        ))),
    }
}

enum Failure {
    TooLarge,
    Corrupt(String),
}

/// Reads `reader` to its end, at most `limit` bytes. Data that ends early
/// keeps what was read.
fn read_limited(reader: impl Read, limit: u64) -> Result<Vec<u8>, Failure> {
    let mut out = Vec::new();
    match reader.take(limit.saturating_add(1)).read_to_end(&mut out) {
        Ok(_) if out.len() as u64 > limit => Err(Failure::TooLarge),
        Ok(_) => Ok(out),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && !out.is_empty() => Ok(out),
        Err(e) => Err(Failure::Corrupt(e.to_string())),
    }
}

fn too_large(limit: u64) -> WarcErrorKind {
    WarcErrorKind::HttpBody(format!(
        "the decoded payload exceeds the record size limit of {limit} bytes"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn body(headers: &str, wire: &[u8], limit: u64) -> Result<Vec<u8>, WarcErrorKind> {
        let mut block = format!("HTTP/1.1 200 OK\r\n{headers}\r\n").into_bytes();
        block.extend_from_slice(wire);
        let response = HttpResponse::parse(&block).unwrap();
        response.decoded_body(&block, limit).map(|b| b.into_owned())
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn chunked_bodies() {
        let te = "Transfer-Encoding: chunked\r\n";
        // Extensions and trailers.
        let wire = b"3;name=value\r\n<p>\r\n2\r\nHi\r\n0\r\nExpires: never\r\n\r\n";
        assert_eq!(body(te, wire, 100).unwrap(), b"<p>Hi");
        // Cut in a chunk (a truncated record): what is there.
        assert_eq!(body(te, b"a\r\n<p>Hel", 100).unwrap(), b"<p>Hel");
        // Already decoded by the crawler, header kept: as is.
        assert_eq!(body(te, b"<p>Hi", 100).unwrap(), b"<p>Hi");
        // A chunk size line that is not one.
        let error = body(te, b"3\r\n<p>\r\nzz\r\n", 100).unwrap_err();
        assert_eq!(
            error.to_string(),
            "HTTP payload: chunked transfer coding: bad chunk size line \"zz\""
        );
        assert!(body(te, b"ff\r\n", 10).is_ok());
        let long = [b"20\r\n".as_slice(), &[b'x'; 32]].concat();
        assert!(body(te, &long, 10).is_err());
    }

    #[test]
    fn content_codings() {
        let page = b"<p>Hello, world</p>".repeat(20);
        let gz = gzip(&page);
        assert_eq!(
            body("Content-Encoding: gzip\r\n", &gz, 1 << 20).unwrap(),
            page
        );
        assert_eq!(
            body("Content-Encoding: x-gzip\r\n", &gz, 1 << 20).unwrap(),
            page
        );
        // Without the magic number: already decoded.
        assert_eq!(
            body("Content-Encoding: gzip\r\n", b"<p>x", 100).unwrap(),
            b"<p>x"
        );
        // A truncated gzip body keeps what decoded.
        let cut = body("Content-Encoding: gzip\r\n", &gz[..gz.len() / 2], 1 << 20).unwrap();
        assert!(page.starts_with(&cut));
        // Corrupt gzip data.
        let mut bad = gz.clone();
        bad[12] ^= 0xff;
        bad[13] ^= 0xff;
        assert!(matches!(
            body("Content-Encoding: gzip\r\n", &bad, 1 << 20),
            Err(WarcErrorKind::HttpBody(_))
        ));
        // Past the limit: a compression bomb.
        let error = body("Content-Encoding: gzip\r\n", &gz, 100).unwrap_err();
        assert_eq!(
            error.to_string(),
            "HTTP payload: the decoded payload exceeds the record size limit of 100 bytes"
        );
        // deflate as zlib and as raw deflate.
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        zlib.write_all(&page).unwrap();
        let zlib = zlib.finish().unwrap();
        assert_eq!(
            body("Content-Encoding: deflate\r\n", &zlib, 1 << 20).unwrap(),
            page
        );
        let mut raw =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        raw.write_all(&page).unwrap();
        let raw = raw.finish().unwrap();
        assert_eq!(
            body("Content-Encoding: deflate\r\n", &raw, 1 << 20).unwrap(),
            page
        );
        // Two codings, undone in reverse order; identity ignored.
        let twice = gzip(&gz);
        let headers = "Content-Encoding: gzip, identity, gzip\r\n";
        assert_eq!(body(headers, &twice, 1 << 20).unwrap(), page);
        // Corrupt brotli, unknown codings.
        assert!(body("Content-Encoding: br\r\n", b"\xff\xff\xff\xff", 100).is_err());
        let error = body("Content-Encoding: zstd\r\n", b"x", 100).unwrap_err();
        assert_eq!(
            error.to_string(),
            "HTTP payload: unsupported Content-Encoding \"zstd\""
        );
    }

    #[test]
    fn status_lines_and_content_types() {
        let response = HttpResponse::parse(b"HTTP/1.0 301\nLocation: /x\n\nmoved").unwrap();
        assert_eq!(
            (response.version(), response.status(), response.reason()),
            ("HTTP/1.0", 301, "")
        );
        assert_eq!(response.header("location"), Some("/x"));
        assert_eq!(response.body_offset(), 27);
        assert_eq!(
            HttpResponse::parse(b"HTTP/1.1 20 OK\r\n\r\n"),
            Err(WarcErrorKind::NotHttp)
        );
        assert_eq!(
            HttpResponse::parse(b"ICY 200 OK\r\n\r\n"),
            Err(WarcErrorKind::NotHttp)
        );
        assert!(matches!(
            HttpResponse::parse(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n<p>"),
            Err(WarcErrorKind::HttpHeader(_))
        ));
        assert_eq!(
            charset("text/html; Charset=\"Shift_JIS\""),
            Some("Shift_JIS")
        );
        assert_eq!(charset("text/html;charset=utf-8;q=1"), Some("utf-8"));
        assert_eq!(charset("text/html; charset="), None);
        assert_eq!(essence(" Text/HTML ; charset=x"), "text/html");
    }
}
