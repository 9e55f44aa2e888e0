//! The texts of `--help` that come after the options (`after_help`): what
//! each command reads, writes and decides, with examples. The options'
//! own lines are their doc comments in `args.rs`.

/// After `htmltok --help`: what every command shares.
pub const MAIN_AFTER_HELP: &str = "\
Every command reads HTML files, WARC archives, directories (searched
recursively for *.htm, *.html, *.xhtml and *.warc files, gzipped or not;
see --glob) or standard input (no FILE, or `-`). Gzip data (page.html.gz)
is decompressed on the fly. With several inputs, files are processed in
parallel (--jobs) and the output comes in input order.

A WARC archive (crawl.warc, CC-MAIN-....warc.gz: known by its name, or by
`WARC/1.` at its start, gunzipped or not) is read a record at a time. Each
HTML record (a response or resource typed text/html or
application/xhtml+xml, or untyped and sniffed as HTML) is a page, in
archive order, decoded with its HTTP charset as the transport-layer
encoding (--encoding still wins). Every result of a record's page carries,
after \"file\" (the archive's path), the record's \"uri\" (WARC-Target-URI),
\"record_id\", \"date\" (WARC-Date) and HTTP \"status\" (null for a resource);
`text` writes a record's text as a JSON line {file, uri, record_id, date,
status, text}; plain-text outputs name the archive and the URI. Links
resolve against the URI (it replaces --base-url). Requests, revisits,
metadata and pages of other types are counted (see `stats`), not errors.
An archive's damage is reported once per place, as `htmltok: ARCHIVE:
record N (offset O): what went wrong` (after the output of the records
before it; with several inputs on --jobs threads, after the archive's
output), and the records before and after it are still processed; the
archive then counts as failed.

Inputs are decoded by the HTML Standard's encoding sniffing: a
byte order mark, else --encoding LABEL, else a <meta charset> (or
<meta http-equiv=content-type>) in the first 1024 bytes, else UTF-8 when
the whole input is valid UTF-8 (a detection the standard allows; browsers
skip it), else windows-1252. Byte offsets in the output (spans, start and
end, error offsets) are offsets into the decoded UTF-8 text, after the
byte order mark: the file's own offsets when it is UTF-8 without one. Only
`tokens --format html5lib` reads the bytes as UTF-8 exactly as they are.
`htmltok encoding` prints the encoding a browser would use.

Every input is HTML as far as the HTML Standard is concerned: a page with
no tags, NUL bytes, control characters or invalid UTF-8 is tokenized as the
standard says, and an empty file is an empty page. Only --skip-binary
skips anything: inputs whose first bytes are binary data by the MIME
Sniffing Standard (a PNG named .html, say), each reported on stderr.

Inputs are read and tokenized --chunk-size bytes at a time (1 MiB): an
input no longer than that is tokenized whole, a longer one in chunks, in
memory bounded by the chunk and --memory-limit however large the input;
the output is the same for any chunk size.

An input that cannot be processed (missing, unreadable, corrupt gzip) is
reported on stderr as `htmltok: PATH: what went wrong` and the others are
still processed; one that fails part way (a read error, a construct larger
than --memory-limit) keeps the output it produced. With several inputs, a
last line on stderr counts the inputs that failed or were skipped.

Exit status: 0 when every input was processed (or skipped on request), 1
when some input failed, 2 for bad usage.

With no command, htmltok runs `stats` on a small sample page built into the
binary.

Examples:
  htmltok
  htmltok text page.html
  htmltok links --base-url https://example.com/ site/
  htmltok meta --jobs 4 crawl/ > meta.jsonl
  htmltok errors page.html.gz
  htmltok text CC-MAIN-20240101000000-00000.warc.gz > text.jsonl
  htmltok wet CC-MAIN-20240101000000-00000.warc.gz
  htmltok stats --glob '*.php' www/
  htmltok text --encoding shift_jis old-page.html
  htmltok encoding crawl/
  curl -s https://example.com/ | htmltok tokens --errors";

/// After `htmltok tokens --help`.
pub const TOKENS_AFTER_HELP: &str = "\
Output formats:
  json      one JSON object per line for each token, with \"file\", \"kind\"
            (doctype, start_tag, end_tag, comment, text), its fields and byte
            spans ([start, end]); with --errors, one object per parse error
            after the tokens of its input: {\"file\", \"error\", \"offset\",
            \"line\", \"col\"}
  html5lib  one line per input: {\"output\": [...], \"errors\": [...]} with
            the tokens as the html5lib-tests suite writes them (\"errors\" only
            with --errors)

With --format json, each FILE is decoded as the other commands decode it
(a byte order mark, --encoding, a <meta> in the first 1024 bytes, UTF-8
when valid, else windows-1252; see `htmltok --help`), and spans are byte
offsets into the decoded UTF-8 text, after the byte order mark. With
--format html5lib, each FILE's bytes are the input stream exactly as they
are, as html5lib-tests wants: UTF-8, invalid bytes become U+FFFD, a byte
order mark stays a character (U+FEFF); --encoding is then a usage error.

With --chunk-size N, each FILE is read and tokenized N bytes at a time:
the output is the same as without, byte for byte.

Examples:
  htmltok tokens page.html
  htmltok tokens --errors a.html b.html
  htmltok tokens --encoding euc-kr --chunk-size 512 page.html
  echo '<p class=x>Hi &amp; bye' | htmltok tokens --format html5lib
  htmltok tokens --format html5lib --errors --no-auto-switch \\
      --state rcdata --last-start-tag title fragment.html";

/// After `htmltok text --help`.
pub const TEXT_AFTER_HELP: &str = "\
The visible text is what a reader of the page sees, as an indexer wants it:
- text inside <script>, <style>, <template>, <noscript>, <title> (that is
  metadata: see `htmltok meta`), <textarea>, <iframe>, <noembed>,
  <noframes>, <datalist>, <canvas>, SVG <title>/<desc>, and the fallback
  content of <audio> and <video> is left out, and so are comments and the
  doctype;
- character references are decoded; U+0000 is dropped (as a browser's
  tree builder drops it);
- runs of whitespace (space, tab, LF, FF, CR, and no-break space U+00A0)
  become one space, except that line breaks inside <pre>, <listing>, <xmp>
  and <plaintext> are kept;
- block-level elements (p, div, br, li, h1-h6, tr, table, section, article,
  header, footer, nav, ul, ol, blockquote, pre, hr, dd, dt, ...) begin and
  end lines; table cells are separated by a space. No blank lines, no
  leading or trailing spaces on a line.
- an element with the `hidden` attribute is left out with its content
  (not with --show-hidden; `hidden=until-found` is shown);
- with --alt-text, the alt text of images is a word of the text.
CSS is not applied: text hidden by a style sheet is still printed. These
are the rules of the library's `htmltok::extract` module, whose docs have
them in full.

Output: the text of each input. With several inputs, each input's text
follows a header line `==> FILE <==`, with a blank line between inputs (as
`tail` does). The text of a WARC record's page is one JSON line:
{\"file\", \"uri\", \"record_id\", \"date\", \"status\", \"text\"}, with the
text as it would be printed (lines joined by \\n, no final newline).

With --offsets: JSON Lines, one object per text run (one text token that
shows any text): {\"file\", \"text\", \"start\", \"end\"}, where \"text\" is the
run's text, collapsed and trimmed as above, and start..end the byte span of
its source (character references and all) in the decoded text of the input.

With --main-content: only the page's main content, the article, post,
product description or documentation body, without its navigation,
headers and footers, cookie banners, share bars, \"related\" lists,
comments and sidebars. Each line printed is a line of the whole text (and
with --offsets each run is a run of it, at the same offsets). A page with
no single main content (a home page, a list of links) prints all of its
text. <noscript> content is read (an indexer runs no scripts) unless
--scripting is given. The text of a page is printed once the page is read;
a page whose text, blocks and links pass a quarter of --memory-limit (16
MiB by default) is printed as far as it was read, and reported.
A WARC record's JSON line gets \"main_content\": \"found\", \"all_text\",
\"empty\" or \"over_limit\" (why it is all the text).

With --format markdown: the same text as Markdown (CommonMark, with
GitHub's pipe tables): # headings, paragraphs with a blank line between,
- and 1. lists nested by indentation (an <ol start> kept), > quotes,
```fenced``` code blocks for <pre> (the language from a language-* or
lang-* class), `code`, **strong** and *emphasis*, [links](url) resolved
against the page (--no-link-targets: their text alone), ![alt](src) images
with --alt-text, pipe tables (the first row the header), --- for <hr>, a
backslash line break for <br>, and $TeX$ for MathML with a TeX annotation.
Text is escaped only where Markdown would read it as markup. Rendered and
read as plain text, it has the words of the plain text, in order. With
--main-content, the main content's Markdown. Printed once the page is read
(under the same limit as --main-content); not with --offsets.

Examples:
  htmltok text page.html
  htmltok text --offsets page.html | head
  htmltok text --format markdown --main-content article.html > article.md
  htmltok text --main-content article.html
  htmltok text --main-content --jobs 8 CC-MAIN-*.warc.gz > articles.jsonl
  htmltok text --main-content --memory-limit 256M huge-page.html
  htmltok text --jobs 8 crawl/ > corpus.txt";

/// After `htmltok links --help`.
pub const LINKS_AFTER_HELP: &str = "\
One JSON object per line for each URL in an attribute that holds one:
  {\"file\", \"tag\", \"attr\", \"url\", \"start\", \"end\"}
with \"error\" added when the URL cannot be resolved. The attributes, by tag:
  a                         href, ping (each URL), xlink:href
  area                      href, ping
  link                      href, imagesrcset (each candidate)
  base                      href
  img                       src, srcset (each candidate), longdesc
  source                    src, srcset
  script, embed, audio, track  src
  iframe, frame             src, longdesc
  video                     src, poster
  input                     src, formaction
  button                    formaction
  form                      action
  blockquote, q, del, ins   cite
  object                    data
  body, table, td, th       background
  html                      manifest
  image, use (SVG)          href, xlink:href
  meta http-equiv=refresh   content (its url= part)
Empty values are skipped.

Each URL is resolved against the page's base URL: the first <base href>
(itself resolved against --base-url), else --base-url. Without either, an
absolute URL is printed normalized and a relative one as written. A URL that
does not parse (a bad host or port, say) is printed as written, with
\"error\": the reason.

\"start\" and \"end\" are the byte span of the attribute's value in the decoded
text of the input.
For a srcset or ping candidate it is the candidate's own span within the
value when the value is written without character references, and the
whole value's span otherwise.

Examples:
  htmltok links page.html
  htmltok links --base-url https://example.com/docs/ site/
  htmltok links crawl/ | jq -r .url | sort -u";

/// After `htmltok meta --help`.
pub const META_AFTER_HELP: &str = "\
One JSON object per input:
  file       the input
  title      the text of the first <title> (outside SVG), whitespace
             collapsed and trimmed, or null
  lang       the lang attribute of <html>, or null
  charset    the first of <meta charset> and the charset= of
             <meta http-equiv=content-type content>, as written, or null
  base       the first <base href>, resolved (see links), or null
  canonical  the href of the first <link rel=canonical>, resolved, or null
  robots     the directives of every <meta name=robots content>, split at
             commas, trimmed and lowercased
  meta       every <meta> with a content attribute and a name, property,
             http-equiv or itemprop attribute, in order, as
             {\"name\": ..., \"content\": ...} (or \"property\", ...); name and
             http-equiv values are lowercased

URLs are resolved as `htmltok links` does (--base-url).

Examples:
  htmltok meta page.html
  htmltok meta --jobs 8 crawl/ | jq -c '{file, title, canonical}'";

/// After `htmltok errors --help`.
pub const ERRORS_AFTER_HELP: &str = "\
Output formats:
  text  one line per parse error, as a compiler writes them:
          FILE:LINE:COL: CODE
        (for a WARC record's page, FILE is `ARCHIVE URI`)
        then a summary: `N parse errors in M files`, and for each code
        `  COUNT CODE`, most frequent first (not with --no-summary)
  json  one JSON object per line for each error, as `tokens --errors`
        writes them: {\"file\", \"error\", \"offset\", \"line\", \"col\"}; then
        one summary object: {\"summary\": {\"errors\", \"files\", \"codes\":
        {CODE: COUNT, ...}}}

Lines and columns are 1-based; columns count UTF-16 code units, as the
html5lib tests do; offsets are byte offsets into the decoded text. Codes are
the WHATWG names, listed at
  https://html.spec.whatwg.org/multipage/parsing.html#parse-errors
The page is tokenized as a browser's tokenizer would (content model
switching on). Parse errors are findings, not failures: the exit status is
0 unless an input could not be processed.

Examples:
  htmltok errors page.html
  htmltok errors --format json site/ | jq -r .error | sort | uniq -c
  htmltok errors --no-summary page.html | grep duplicate-attribute";

/// After `htmltok stats --help`.
pub const STATS_AFTER_HELP: &str = "\
For each input: its size (of the decoded UTF-8 text: the file's size when
it is UTF-8 without a byte order mark), its tokens by kind, its parse
errors, and the time decoding and tokenizing took (one thread, with parse
errors on; reading and gunzipping not included) and its speed; with
several inputs, a total line whose time is the wall-clock time of the
whole run (reading, gunzipping, decoding and tokenizing, on --jobs
threads). MB are 10^6 bytes. The counts do not depend on --chunk-size;
the times do. An input that failed part way has a line with what was
counted before the failure.

Output formats:
  table  aligned columns, the file name last (like `wc`; `ARCHIVE URI`
         for a WARC record's page)
  json   one object per input: {\"file\", \"bytes\", \"tokens\": {\"total\",
         \"doctype\", \"start_tag\", \"end_tag\", \"comment\", \"text\"},
         \"errors\", \"seconds\", \"mb_per_s\"}; then {\"total\": {...}} with
         the same fields and \"files\" (counted, to their end or part
         way), \"failed\" (of which \"partial\" failed part way),
         \"skipped\", \"jobs\"; when WARC archives were read, also
         \"archives\", \"records\" (their HTML pages, a row each),
         \"revisits\", \"skipped_by_type\" (records of other types) and
         \"archive_errors\" (the table's total line says the same)

When a directory is given and stderr is a terminal, a progress bar (files,
bytes, MB/s, ETA) is shown on stderr.

Examples:
  htmltok stats page.html
  htmltok stats --total ~/crawl
  htmltok stats --jobs 1 --format json corpus/";

/// After `htmltok encoding --help`.
pub const ENCODING_AFTER_HELP: &str = "\
One line per input:
  FILE<TAB>ENCODING<TAB>CONFIDENCE
and for a WARC record's page, FILE the archive, then
  <TAB>URI<TAB>RECORD_ID<TAB>DATE<TAB>STATUS   (`-` for none)
ENCODING is the encoding's name in the WHATWG Encoding Standard, in
lowercase (windows-1252, utf-8, shift_jis, euc-kr, gbk, utf-16le, ...);
CONFIDENCE is `certain` or `tentative`. It is the encoding a browser would decode the
page with, by the HTML Standard's encoding sniffing algorithm:
  1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE): certain;
  2. --transport-charset, the charset of the HTTP Content-Type: certain
     (an unknown label is ignored, as the standard says, with a warning);
  3. a <meta charset> or <meta http-equiv=content-type> in the first
     1024 bytes: tentative;
  4. else windows-1252, the default for most locales: tentative.
Then, as the page is parsed, a <meta> that confirms a tentative encoding
makes it certain, and one that names another encoding replaces it (the
page is decoded again): certain.

As in browsers there is no UTF-8 detection here: a page in UTF-8 or plain
ASCII with no byte order mark and no <meta> is `windows-1252 tentative`.
The other commands do detect UTF-8 (an input that is valid UTF-8 is
decoded as UTF-8), and do not decode again for a <meta> past the first
1024 bytes.

Examples:
  htmltok encoding page.html
  htmltok encoding --transport-charset iso-8859-1 page.html
  htmltok encoding crawl/ | cut -f2 | sort | uniq -c";

/// `htmltok wet --help`, after the options.
pub const WET_AFTER_HELP: &str = "\
Each ARCHIVE (a .warc or .warc.gz; `-` is not read: an archive's name
names its WET file) becomes a WET file, Common Crawl's format for the text
of a crawl, which every tool that reads Common Crawl's WET files reads:
WARC/1.0, a gzip member per record; first a warcinfo record (WARC-Filename,
Content-Type: application/warc-fields, a block naming the software and the
extraction date, with the archive's own warcinfo's isPartOf, operator,
description, robots and publisher carried over), then one conversion
record for each HTML response or resource whose text is not empty, its
fields in Common Crawl's order: WARC-Type, WARC-Target-URI, WARC-Date (the
response's), WARC-Record-ID (new), WARC-Refers-To (the response's id),
WARC-Block-Digest (sha1: and the base32 SHA-1 of the text),
WARC-Identified-Content-Language (when the response has one),
Content-Type: text/plain (text/markdown with --format markdown),
Content-Length. The block is the page's text in
UTF-8, as `htmltok text` prints it (see `htmltok text --help`; --alt-text
and --show-hidden as there).

The WET file of CC-MAIN-X.warc.gz is CC-MAIN-X.warc.wet.gz beside it, or
in the directory -o names; with one ARCHIVE, -o may name the file itself
(gzipped when its name ends in .gz, plain otherwise). It is written under a
temporary name and renamed when whole: a run cut short leaves no WET file
that looks complete.

Records that are not HTML (requests, metadata, revisits, images, ...) are
skipped and counted. A damaged record is reported on stderr as `htmltok:
ARCHIVE: record N (offset O): what went wrong` and skipped, the records
before and after it still converted, and the archive counts as failed
(exit status 1; its WET file is still written). For each archive, one JSON
line on stdout: {\"file\", \"wet\", \"records\", \"html\", \"conversions\",
\"empty\", \"not_html\", \"errors\"}.

Examples:
  htmltok wet CC-MAIN-20240101000000-00000.warc.gz
  htmltok wet -o wet/ --jobs 4 crawl/*.warc.gz
  htmltok wet --main-content -o articles/ crawl/*.warc.gz
  htmltok wet --main-content --format markdown -o md/ crawl/*.warc.gz
  htmltok wet -o page-text.warc.wet page.warc";
