//! The html5lib-tests suites: finding and loading the tokenizer suite,
//! turning htmltok's tokens and errors into the html5lib-tests JSON form so
//! the two can be compared, and reading the `.dat` files of the encoding and
//! tree-construction suites.

use std::fmt;
use std::path::{Path, PathBuf};

use htmltok::bumpalo::Bump;
use htmltok::{LineIndex, Options, ParseError, State, Token, Tokenizer};
use serde_json::{Map, Value};

// ---------------------------------------------------------------------------
// Finding the suite
// ---------------------------------------------------------------------------

/// Environment variable naming the html5lib-tests checkout (the folder that
/// contains `tokenizer/`).
pub const TESTS_DIR_VAR: &str = "HTML5LIB_TESTS_DIR";

/// Finds the html5lib-tests checkout: `$HTML5LIB_TESTS_DIR`, else the
/// `tests/html5lib-tests` submodule, else `../shared/html5lib-tests`, each
/// only if it has a `tokenizer/` folder. The error says how to get the suite.
pub fn find_html5lib_tests_dir() -> Result<PathBuf, String> {
    find_html5lib_suite("tokenizer")
}

/// Finds the html5lib-tests checkout that has the folder `suite`
/// (`tokenizer`, `tree-construction`…), looking where
/// [`find_html5lib_tests_dir`] does. The submodule is pinned at a commit
/// without `tree-construction/`; `../shared/html5lib-tests` has it.
pub fn find_html5lib_suite(suite: &str) -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os(TESTS_DIR_VAR) {
        let dir = PathBuf::from(dir);
        if dir.join(suite).is_dir() {
            return Ok(dir);
        }
        return Err(format!(
            "{TESTS_DIR_VAR} is set to {}, but it has no {suite}/ folder; \
             point it at the html5lib-tests checkout (the folder containing {suite}/)",
            dir.display()
        ));
    }
    let root = crate::corpus::workspace_root();
    let candidates = [
        root.join("tests").join("html5lib-tests"),
        root.join("..").join("shared").join("html5lib-tests"),
    ];
    for dir in &candidates {
        if dir.join(suite).is_dir() {
            return Ok(dir.clone());
        }
    }
    Err(format!(
        "the html5lib-tests suite was not found (looked for {suite}/ in {} and {}).\n\
         Get it with `git submodule update --init tests/html5lib-tests` \
         (tokenizer/) or ../shared/html5lib-tests (every suite), \
         or set {TESTS_DIR_VAR} to the folder containing {suite}/.",
        candidates[0].display(),
        candidates[1].display()
    ))
}

// ---------------------------------------------------------------------------
// Errors in html5lib form
// ---------------------------------------------------------------------------

/// A parse error as html5lib-tests lists it: code and 1-based line/column.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ErrorAt {
    pub code: String,
    pub line: usize,
    pub col: usize,
}

impl fmt::Display for ErrorAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}:{}", self.code, self.line, self.col)
    }
}

/// Formats a list of errors as `[code@line:col, ...]`.
pub fn format_errors(errors: &[ErrorAt]) -> String {
    let parts: Vec<String> = errors.iter().map(ToString::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// Converts the tokenizer's errors (byte offsets) to html5lib form.
pub fn errors_to_html5lib(input: &str, errors: &[ParseError]) -> Vec<ErrorAt> {
    let index = LineIndex::new(input);
    errors
        .iter()
        .map(|e| {
            let (line, col) = index.line_col(e.offset);
            ErrorAt {
                code: e.code.as_str().to_owned(),
                line,
                col,
            }
        })
        .collect()
}

/// Parses an expected `errors` array (`[{"code", "line", "col"}]`).
pub fn parse_expected_errors(value: Option<&Value>) -> Result<Vec<ErrorAt>, String> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let list = value
        .as_array()
        .ok_or_else(|| format!("`errors` is not an array: {value}"))?;
    list.iter()
        .map(|e| {
            let code = e.get("code").and_then(Value::as_str);
            let number = |key| {
                e.get(key)
                    .and_then(Value::as_u64)
                    .and_then(|n| usize::try_from(n).ok())
            };
            let (line, col) = (number("line"), number("col"));
            match (code, line, col) {
                (Some(code), Some(line), Some(col)) => Ok(ErrorAt {
                    code: code.to_owned(),
                    line,
                    col,
                }),
                _ => Err(format!("malformed error entry: {e}")),
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Tokens in html5lib form
// ---------------------------------------------------------------------------

fn opt_str(s: Option<&str>) -> Value {
    s.map_or(Value::Null, |s| Value::String(s.to_owned()))
}

/// One token in html5lib form. Text becomes `["Character", data]` (not yet
/// coalesced with its neighbours); a start tag's attributes become a map in
/// which the first occurrence of a name wins (flagged duplicates are
/// dropped), with a fourth `true` entry only when self-closing.
pub fn token_to_html5lib(token: &Token<'_>) -> Value {
    match token {
        Token::Doctype(d) => Value::Array(vec![
            "DOCTYPE".into(),
            opt_str(d.name),
            opt_str(d.public_id),
            opt_str(d.system_id),
            Value::Bool(!d.force_quirks),
        ]),
        Token::StartTag(t) => {
            let mut attrs = Map::new();
            for a in t.attributes.iter().filter(|a| !a.duplicate) {
                attrs
                    .entry(a.name.to_owned())
                    .or_insert_with(|| Value::String(a.value.to_owned()));
            }
            let mut v = vec!["StartTag".into(), t.name.into(), Value::Object(attrs)];
            if t.self_closing {
                v.push(Value::Bool(true));
            }
            Value::Array(v)
        }
        Token::EndTag(t) => Value::Array(vec!["EndTag".into(), t.name.into()]),
        Token::Comment(c) => Value::Array(vec!["Comment".into(), c.data.into()]),
        Token::Text(t) => Value::Array(vec!["Character".into(), t.data.into()]),
    }
}

/// Tokens in html5lib form, adjacent `Character` tokens coalesced.
pub fn tokens_to_html5lib(tokens: &[Token<'_>]) -> Vec<Value> {
    coalesce_characters(tokens.iter().map(token_to_html5lib))
}

/// Merges adjacent `["Character", data]` tokens. Empty character tokens are
/// kept (after merging), so an implementation that emits one is noticed.
pub fn coalesce_characters(tokens: impl IntoIterator<Item = Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for token in tokens {
        if let (Some(data), Some(prev)) = (
            character_data(&token),
            out.last_mut().and_then(character_data_mut),
        ) {
            prev.push_str(data);
            continue;
        }
        out.push(token);
    }
    out
}

fn character_data(token: &Value) -> Option<&str> {
    match token.as_array()?.as_slice() {
        [kind, Value::String(data)] if kind == "Character" => Some(data),
        _ => None,
    }
}

fn character_data_mut(token: &mut Value) -> Option<&mut String> {
    match token.as_array_mut()?.as_mut_slice() {
        [kind, Value::String(data)] if kind == "Character" => Some(data),
        _ => None,
    }
}

/// Normalizes an expected html5lib token list: coalesces characters and
/// drops a `false` self-closing entry from `StartTag`.
pub fn normalize_expected_tokens(tokens: Vec<Value>) -> Vec<Value> {
    let tokens = tokens.into_iter().map(|mut t| {
        if let Some(a) = t.as_array_mut()
            && a.len() == 4
            && a[0] == "StartTag"
            && a[3] == Value::Bool(false)
        {
            a.pop();
        }
        t
    });
    coalesce_characters(tokens)
}

/// The kind of an html5lib token (`"Character"`, `"StartTag"`, ...), for
/// messages.
pub fn token_kind(token: &Value) -> &str {
    token
        .as_array()
        .and_then(|a| a.first())
        .and_then(Value::as_str)
        .unwrap_or("?")
}

// ---------------------------------------------------------------------------
// Running the tokenizer
// ---------------------------------------------------------------------------

/// The state named as in html5lib-tests' `initialStates`.
pub fn state_from_html5lib_name(name: &str) -> Option<State> {
    Some(match name {
        "Data state" => State::Data,
        "PLAINTEXT state" => State::Plaintext,
        "RCDATA state" => State::Rcdata,
        "RAWTEXT state" => State::Rawtext,
        "Script data state" => State::ScriptData,
        "CDATA section state" => State::CdataSection,
        _ => return None,
    })
}

/// What one tokenizer run produced, in html5lib form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Html5libOutput {
    /// Tokens, characters coalesced.
    pub tokens: Vec<Value>,
    /// Errors in the order reported.
    pub errors: Vec<ErrorAt>,
}

/// Which of the tokenizer's two interfaces a test takes the tokens through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// `Iterator::next`, one token per call.
    Iterator,
    /// `Tokenizer::for_each_token`, every token pushed to a closure.
    Push,
}

impl Via {
    /// Both interfaces, the iterator first.
    pub const BOTH: [Via; 2] = [Via::Iterator, Via::Push];

    /// The interface's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Via::Iterator => "iterator",
            Via::Push => "push",
        }
    }
}

/// Tokenizes `input` the way html5lib-tests expects (auto-switching off,
/// errors on, the given initial state and last start tag) through the
/// interface `via`, and converts the result. Fails if the tokenizer yields
/// implausibly many tokens (a runaway loop) rather than hanging.
pub fn tokenize_html5lib(
    input: &str,
    state: State,
    last_start_tag: Option<&str>,
    via: Via,
) -> Result<Html5libOutput, String> {
    let arena = Bump::new();
    let opts = Options::default()
        .auto_switch(false)
        .errors(true)
        .initial_state(state);
    let mut tok = Tokenizer::with_options(input, &arena, opts);
    tok.set_last_start_tag(last_start_tag);
    // Every token consumes at least one character, bar a few at EOF.
    let cap = 2 * input.len() + 16;
    let runaway = || {
        Err(format!(
            "runaway tokenizer: more than {cap} tokens for {} input bytes",
            input.len()
        ))
    };
    let tokens: Vec<Token<'_>> = match via {
        Via::Iterator => {
            let tokens: Vec<Token<'_>> = tok.by_ref().take(cap).collect();
            if tokens.len() == cap && tok.next().is_some() {
                return runaway();
            }
            tokens
        }
        Via::Push => {
            // A closure cannot stop the tokenizer: it counts what passes
            // the cap (a loop that never ends is the watchdog's).
            let mut tokens = Vec::new();
            let mut extra = 0usize;
            tok.for_each_token(|t| {
                if tokens.len() < cap {
                    tokens.push(t);
                } else {
                    extra += 1;
                }
            });
            if extra > 0 {
                return runaway();
            }
            tokens
        }
    };
    let errors = errors_to_html5lib(input, tok.errors());
    Ok(Html5libOutput {
        tokens: tokens_to_html5lib(&tokens),
        errors,
    })
}

// ---------------------------------------------------------------------------
// Loading test files
// ---------------------------------------------------------------------------

/// Marks, in parsed JSON strings, where the raw JSON had a `\uD8xx`-style
/// escape that is not half of a surrogate pair (serde_json refuses those).
pub const LONE_SURROGATE_MARK: &str = "\u{FFFF}lone-surrogate-";

/// Rewrites each JSON escape of a lone surrogate (`\uD800` with no partner)
/// into a marker string (see [`LONE_SURROGATE_MARK`]), so the file parses.
/// Returns the text and how many escapes were rewritten.
pub fn protect_lone_surrogates(raw: &str) -> (String, usize) {
    fn hex4(b: &[u8], at: usize) -> Option<u16> {
        parse_hex4(std::str::from_utf8(b.get(at..at + 4)?).ok()?)
    }
    fn u_escape(b: &[u8], at: usize) -> Option<u16> {
        if b.get(at) == Some(&b'\\') && b.get(at + 1) == Some(&b'u') {
            hex4(b, at + 2)
        } else {
            None
        }
    }
    let b = raw.as_bytes();
    let mut out = String::with_capacity(raw.len());
    let mut count = 0;
    let mut copied = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        let Some(unit) = u_escape(b, i) else {
            // Some other escape (`\\`, `\"`, ...): skip both characters.
            i += 2;
            continue;
        };
        let is_high = (0xD800..0xDC00).contains(&unit);
        let is_low = (0xDC00..0xE000).contains(&unit);
        if is_high && u_escape(b, i + 6).is_some_and(|u| (0xDC00..0xE000).contains(&u)) {
            i += 12;
        } else if is_high || is_low {
            out.push_str(&raw[copied..i]);
            out.push_str(&format!("\\uFFFFlone-surrogate-{unit:04X}\\uFFFF"));
            count += 1;
            i += 6;
            copied = i;
        } else {
            i += 6;
        }
    }
    out.push_str(&raw[copied..]);
    (out, count)
}

/// Four hex digits (and nothing else, not even a sign) as a UTF-16 unit.
fn parse_hex4(s: &str) -> Option<u16> {
    if s.len() == 4 && s.bytes().all(|c| c.is_ascii_hexdigit()) {
        u16::from_str_radix(s, 16).ok()
    } else {
        None
    }
}

/// Undoes one more level of `\uHHHH` escaping, as `doubleEscaped` tests
/// require. Surrogate pairs combine; a lone surrogate is an error, since
/// the result could not be a Rust string.
pub fn unescape_double_escaped(s: &str) -> Result<String, String> {
    let mut units: Vec<u16> = Vec::with_capacity(s.len());
    let mut rest = s;
    while let Some(pos) = rest.find("\\u") {
        let (before, after) = rest.split_at(pos);
        units.extend(before.encode_utf16());
        match after.get(2..6).and_then(parse_hex4) {
            Some(unit) => {
                units.push(unit);
                rest = &after[6..];
            }
            None => {
                units.extend("\\u".encode_utf16());
                rest = &after[2..];
            }
        }
    }
    units.extend(rest.encode_utf16());
    String::from_utf16(&units).map_err(|_| format!("lone surrogate after unescaping {s:?}"))
}

fn map_strings(
    value: Value,
    f: &dyn Fn(String) -> Result<String, String>,
) -> Result<Value, String> {
    Ok(match value {
        Value::String(s) => Value::String(f(s)?),
        Value::Array(a) => Value::Array(
            a.into_iter()
                .map(|v| map_strings(v, f))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(o) => {
            let mut m = Map::new();
            for (k, v) in o {
                m.insert(f(k)?, map_strings(v, f)?);
            }
            Value::Object(m)
        }
        other => other,
    })
}

fn check_no_mark(s: String) -> Result<String, String> {
    if s.contains(LONE_SURROGATE_MARK) {
        Err(format!(
            "lone surrogate escape in {:?} (cannot be a Rust string)",
            unmark_lone_surrogates(&s)
        ))
    } else {
        Ok(s)
    }
}

/// Turns the markers of [`protect_lone_surrogates`] back into `\uD800`-style
/// text, for messages.
pub fn unmark_lone_surrogates(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(pos) = rest.find(LONE_SURROGATE_MARK) {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + LONE_SURROGATE_MARK.len()..];
        let hex = after
            .get(..4)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
        match hex {
            Some(hex) if after[4..].starts_with('\u{FFFF}') => {
                out.push_str("\\u");
                out.push_str(hex);
                rest = &after[4 + '\u{FFFF}'.len_utf8()..];
            }
            _ => {
                out.push_str(LONE_SURROGATE_MARK);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// One test of a tokenizer `.test` file, escapes resolved.
#[derive(Clone, Debug)]
pub struct TokenizerTest {
    /// The file name, e.g. `test1.test`.
    pub file: String,
    /// Position of the test in its file (0-based).
    pub index: usize,
    pub description: String,
    /// The input as written in the JSON (before `doubleEscaped` unescaping).
    /// (Lone surrogate escapes are shown as `\\uD800` text.)
    pub raw_input: String,
    /// The input stream, or why it cannot be a `&str` (a lone surrogate).
    pub input: Result<String, String>,
    /// Expected tokens (unescaped, normalized, coalesced), or why they
    /// cannot be represented.
    pub output: Result<Vec<Value>, String>,
    pub errors: Vec<ErrorAt>,
    /// `initialStates`, defaulting to `["Data state"]`.
    pub initial_states: Vec<String>,
    pub last_start_tag: Option<String>,
    pub double_escaped: bool,
}

impl TokenizerTest {
    /// Why runs of this test cannot be made, if they cannot.
    pub fn unrunnable(&self) -> Option<&str> {
        match (&self.input, &self.output) {
            (Err(e), _) | (_, Err(e)) => Some(e),
            _ => None,
        }
    }
}

/// Loads every test in one tokenizer `.test` file (the `tests` or the
/// `xmlViolationTests` list).
pub fn load_tokenizer_file(path: &Path) -> Result<Vec<TokenizerTest>, String> {
    let file = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let raw = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (text, _) = protect_lone_surrogates(&raw);
    let root: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: bad JSON: {e}", path.display()))?;
    let list = root
        .get("tests")
        .or_else(|| root.get("xmlViolationTests"))
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{}: no `tests` list", path.display()))?;
    list.iter()
        .enumerate()
        .map(|(index, t)| load_test(&file, index, t).map_err(|e| format!("{file} #{index}: {e}")))
        .collect()
}

fn load_test(file: &str, index: usize, t: &Value) -> Result<TokenizerTest, String> {
    let description = t
        .get("description")
        .and_then(Value::as_str)
        .ok_or("missing `description`")?
        .to_owned();
    let raw_input = t
        .get("input")
        .and_then(Value::as_str)
        .ok_or("missing `input`")?
        .to_owned();
    let output = t
        .get("output")
        .and_then(Value::as_array)
        .ok_or("missing `output`")?
        .clone();
    let double_escaped = t
        .get("doubleEscaped")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let initial_states = match t.get("initialStates") {
        None => vec!["Data state".to_owned()],
        Some(v) => v
            .as_array()
            .and_then(|a| a.iter().map(|s| s.as_str().map(str::to_owned)).collect())
            .ok_or("`initialStates` is not a list of strings")?,
    };
    let last_start_tag = match t.get("lastStartTag") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_str()
                .ok_or("`lastStartTag` is not a string")?
                .to_owned(),
        ),
    };
    let errors = parse_expected_errors(t.get("errors"))?;

    let unescape = |s: String| {
        let s = check_no_mark(s)?;
        if double_escaped {
            unescape_double_escaped(&s)
        } else {
            Ok(s)
        }
    };
    let input = unescape(raw_input.clone());
    let output = map_strings(Value::Array(output), &unescape).map(|v| match v {
        Value::Array(a) => normalize_expected_tokens(a),
        _ => unreachable!(),
    });
    Ok(TokenizerTest {
        file: file.to_owned(),
        index,
        description,
        raw_input: unmark_lone_surrogates(&raw_input),
        input,
        output,
        errors,
        initial_states,
        last_start_tag,
        double_escaped,
    })
}

// ---------------------------------------------------------------------------
// The encoding suite
// ---------------------------------------------------------------------------

/// One `#data` / `#encoding` case of html5lib-tests' `encoding/*.dat`.
pub struct EncodingCase {
    /// The page's bytes.
    pub data: Vec<u8>,
    /// The encoding a browser ends up with, as the suite writes it.
    pub encoding: String,
}

/// One test of a `.dat` file: its sections in order, each a heading
/// (without the `#`) and its body (the one newline that ends it removed).
pub type DatTest = Vec<(String, Vec<u8>)>;

/// Parses an html5lib `.dat` file (the encoding and tree-construction
/// suites) as html5lib's `TestData` does: a line starting with `#` and
/// accepted by `is_heading` opens a section, `#data` starts a new test,
/// and each section loses the one newline that ends it.
pub fn parse_dat(bytes: &[u8], is_heading: impl Fn(&str) -> bool) -> Vec<DatTest> {
    let mut tests: Vec<DatTest> = Vec::new();
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let heading = line
            .strip_prefix(b"#")
            .map(|h| String::from_utf8_lossy(h).trim().to_string())
            .filter(|h| is_heading(h));
        if let Some(heading) = heading {
            if heading == "data" || tests.is_empty() {
                tests.push(Vec::new());
            }
            if let Some(test) = tests.last_mut() {
                test.push((heading, Vec::new()));
            }
        } else if let Some((_, body)) = tests.last_mut().and_then(|t| t.last_mut()) {
            body.extend_from_slice(line);
        }
    }
    for test in &mut tests {
        for (_, body) in test.iter_mut() {
            if body.last() == Some(&b'\n') {
                body.pop();
            }
        }
    }
    tests
}

/// Parses an encoding `.dat` file ([`parse_dat`], every `#` line a
/// heading).
pub fn parse_encoding_dat(bytes: &[u8]) -> Vec<EncodingCase> {
    parse_dat(bytes, |_| true)
        .into_iter()
        .map(|sections| {
            let mut case = EncodingCase {
                data: Vec::new(),
                encoding: String::new(),
            };
            for (heading, body) in sections {
                match heading.as_str() {
                    "data" => case.data = body,
                    "encoding" => case.encoding = String::from_utf8_lossy(&body).trim().to_string(),
                    _ => {}
                }
            }
            case
        })
        .collect()
}
