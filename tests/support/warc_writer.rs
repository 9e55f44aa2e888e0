//! What must hold for any records written with `htmltok::warc::Writer`:
//! used by `tests/warc.rs` and the `warc_writer` fuzz target.
//!
//! Records built from arbitrary bytes (any type, any fields, any block:
//! line ends, `WARC/1.`, gzip magic, NULs), written plain or a gzip member
//! per record, in WARC 1.0 or 1.1, read back with `htmltok::warc::Reader`
//! as exactly what was written: the version, the type, every field in
//! order (values as the reader gives them: without the spaces at their
//! ends), `Content-Length` last, the block byte for byte, each record at
//! the offset the writer returned, no error. A record the writer refuses
//! (a line break in a value, a name that is not a token, a field of its
//! own, a mandatory field missing) is refused for that reason, and writes
//! nothing.
use htmltok::warc::{
    Compression, Reader, ReaderOptions, RecordIds, RecordKind, Version, WriteError, Writer,
    WriterOptions,
};

/// A record to write: type, fields, block.
#[derive(Debug)]
pub struct Wanted {
    pub kind: RecordKind,
    pub fields: Vec<(String, String)>,
    pub block: Vec<u8>,
}

/// Why the writer should refuse a record, if it should.
fn refusal(record: &Wanted) -> Option<&'static str> {
    let token = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
    };
    let line_break = |s: &str| s.contains(['\r', '\n']);
    if record.kind.as_str().trim_ascii().is_empty() {
        return Some("Missing");
    }
    if line_break(record.kind.as_str()) {
        return Some("LineBreak");
    }
    for (name, value) in &record.fields {
        if !token(name) {
            return Some("InvalidName");
        }
        if ["WARC-Type", "Content-Length"]
            .iter()
            .any(|r| r.eq_ignore_ascii_case(name))
        {
            return Some("Reserved");
        }
        if line_break(value) {
            return Some("LineBreak");
        }
    }
    for mandatory in ["WARC-Record-ID", "WARC-Date"] {
        if !record
            .fields
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(mandatory))
        {
            return Some("Missing");
        }
    }
    None
}

/// A cursor over the fuzzer's bytes.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(first)
    }

    fn take(&mut self, n: usize) -> &[u8] {
        let n = n.min(self.0.len());
        let (taken, rest) = self.0.split_at(n);
        self.0 = rest;
        taken
    }

    /// A name: mostly token characters (a byte below 0x80 picks one),
    /// sometimes any byte, so that most records are valid.
    fn name(&mut self) -> String {
        const TCHARS: &[u8] =
            b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~";
        let len = self.byte().unwrap_or(0) as usize % 24;
        let raw: Vec<u8> = self
            .take(len)
            .iter()
            .map(|&b| {
                if b < 0x80 {
                    TCHARS[b as usize % TCHARS.len()]
                } else {
                    b & 0x7f
                }
            })
            .collect();
        String::from_utf8_lossy(&raw).into_owned()
    }

    /// A value: any bytes, as UTF-8 (lossily), but a line break only when
    /// the length byte is odd past 200, so that most records are valid.
    fn value(&mut self) -> String {
        let len = self.byte().unwrap_or(0) as usize;
        let keep_breaks = len > 200 && len % 2 == 1;
        let raw = self.take(len % 64);
        let text = String::from_utf8_lossy(raw);
        if keep_breaks {
            text.into_owned()
        } else {
            text.replace(['\r', '\n'], " ")
        }
    }
}

/// Records, options and ids built from `data`: the first byte chooses the
/// version and the compression; then each record is a type byte, a field
/// count byte, its fields, a length byte and its block.
pub fn records_from(data: &[u8]) -> (WriterOptions, Vec<Wanted>) {
    const KINDS: [&str; 9] = [
        "warcinfo",
        "response",
        "resource",
        "request",
        "metadata",
        "revisit",
        "conversion",
        "continuation",
        "",
    ];
    let mut bytes = Bytes(data);
    let first = bytes.byte().unwrap_or(0);
    let version = if first & 1 == 0 {
        Version::V1_0
    } else {
        Version::V1_1
    };
    let compression = match (first >> 1) % 3 {
        0 => Compression::None,
        1 => Compression::gzip(),
        _ => Compression::GzipPerRecord { level: 0 },
    };
    let options = WriterOptions::default()
        .version(version)
        .compression(compression);
    let mut ids = RecordIds::seeded(u64::from(first));
    let mut records = Vec::new();
    while let Some(kind) = bytes.byte() {
        let kind = match KINDS[kind as usize % KINDS.len()] {
            "" => RecordKind::Other(bytes.value()),
            name => RecordKind::from_type(name),
        };
        let count = bytes.byte().unwrap_or(0);
        let mut fields = Vec::new();
        // The mandatory fields, unless the count byte's top bits leave one
        // out, at a place its low bits choose.
        if count & 0x80 == 0 {
            fields.push(("WARC-Record-ID".to_string(), ids.next_id()));
        }
        if count & 0x40 == 0 {
            fields.push(("WARC-Date".to_string(), "2024-05-01T12:00:00Z".to_string()));
        }
        for _ in 0..count % 6 {
            let name = bytes.name();
            let value = bytes.value();
            let at = bytes.byte().unwrap_or(0) as usize % (fields.len() + 1);
            fields.insert(at, (name, value));
        }
        let len = bytes.byte().unwrap_or(0) as usize;
        let block = bytes.take(len).to_vec();
        records.push(Wanted {
            kind,
            fields,
            block,
        });
    }
    (options, records)
}

/// Writes the records built from `data` ([`records_from`]) and reads them
/// back (see the module docs).
pub fn roundtrip(data: &[u8]) {
    let (options, wanted) = records_from(data);
    let version = options.version;
    let mut writer = Writer::new(Vec::new(), options.clone());
    let mut written = Vec::new();
    for record in &wanted {
        let fields: Vec<(&str, &str)> = record
            .fields
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        let before = writer.offset();
        let result = writer.write_record(&record.kind, &fields, &record.block);
        match (refusal(record), result) {
            (None, Ok(offset)) => {
                assert_eq!(offset, before);
                written.push((record, offset));
            }
            (Some(why), Err(error)) => {
                assert!(
                    format!("{error:?}").starts_with(why),
                    "{record:?}: {error:?}, wanted {why}"
                );
                assert!(!matches!(error, WriteError::Io(_)));
                assert_eq!(writer.offset(), before, "a refused record wrote bytes");
            }
            (None, Err(error)) => panic!("{record:?} refused: {error}"),
            (Some(why), Ok(_)) => panic!("{record:?} written, should be refused: {why}"),
        }
    }
    let end = writer.offset();
    let archive = writer.finish().unwrap();
    assert_eq!(archive.len() as u64, end);

    let reader_options = ReaderOptions::default().max_record_size(1 << 20);
    let read: Vec<_> = Reader::with_options(&archive[..], reader_options)
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{options:?}: {e}"));
    assert_eq!(read.len(), written.len(), "{options:?}");
    for (i, (record, (want, offset))) in read.iter().zip(&written).enumerate() {
        assert_eq!(record.position().number(), i as u64 + 1);
        assert_eq!(record.position().offset(), Some(*offset), "{options:?}");
        assert_eq!(record.version(), &version.line()["WARC/".len()..]);
        assert_eq!(
            record.kind().as_str(),
            RecordKind::from_type(want.kind.as_str()).as_str()
        );
        assert_eq!(record.block(), &want.block[..]);
        let headers = record.headers();
        assert_eq!(headers.len(), want.fields.len() + 2, "{want:?}");
        assert_eq!(headers[0].0, "WARC-Type");
        assert_eq!(headers[0].1, want.kind.as_str().trim_ascii());
        for ((name, value), (want_name, want_value)) in headers[1..].iter().zip(&want.fields) {
            assert_eq!(name, want_name);
            assert_eq!(value, want_value.trim_ascii(), "{want_name}");
        }
        let last = headers.last().unwrap();
        assert_eq!(
            (last.0.as_str(), last.1.as_str()),
            ("Content-Length", want.block.len().to_string().as_str())
        );
    }
}
