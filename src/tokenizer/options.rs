//! How a tokenizer behaves: [`Options`], and the content models a tree
//! builder may start it in or switch it to ([`State`]).

/// The states a tree builder (or a test) may put the tokenizer in: the
/// content models of [tokenization](https://html.spec.whatwg.org/multipage/parsing.html#tokenization) that a start tag can switch to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum State {
    /// The data state ([data state](https://html.spec.whatwg.org/multipage/parsing.html#data-state)): ordinary content.
    #[default]
    Data,
    /// The RCDATA state ([RCDATA state](https://html.spec.whatwg.org/multipage/parsing.html#rcdata-state)): `<title>`, `<textarea>`.
    Rcdata,
    /// The RAWTEXT state ([RAWTEXT state](https://html.spec.whatwg.org/multipage/parsing.html#rawtext-state)): `<style>`, `<xmp>`, `<iframe>`,
    /// `<noembed>`, `<noframes>`, and `<noscript>` with scripting on.
    Rawtext,
    /// The script data state ([script data state](https://html.spec.whatwg.org/multipage/parsing.html#script-data-state)): `<script>`.
    ScriptData,
    /// The PLAINTEXT state ([PLAINTEXT state](https://html.spec.whatwg.org/multipage/parsing.html#plaintext-state)): everything after `<plaintext>`.
    Plaintext,
    /// The CDATA section state ([CDATA section state](https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-state)).
    CdataSection,
}

/// How a [`Tokenizer`](crate::Tokenizer) behaves. Build one with
/// [`Options::default`] and the builder methods.
///
/// ```
/// use htmltok::{Options, State};
/// let opts = Options::default().errors(true).initial_state(State::Rcdata);
/// assert!(opts.errors);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// Switch content model after start tags as a tree builder would
    /// (`<script>` → script data, `<title>` → RCDATA, …) and follow
    /// `<svg>`/`<math>` for CDATA sections. On by default; turn it off when a
    /// tree builder drives the tokenizer with
    /// [`Tokenizer::set_state`](crate::Tokenizer::set_state).
    pub auto_switch: bool,
    /// With [`Options::auto_switch`]: decide the switches by following the
    /// tree-construction stage exactly ([tree construction](https://html.spec.whatwg.org/multipage/parsing.html#tree-construction): every insertion mode, the
    /// stack of open elements, the active formatting elements and the
    /// adoption agency, tables, templates, quirks mode) instead of the
    /// default approximation, which follows only what foreign content and
    /// a few pointers need. The two differ only on contrived markup (such
    /// as a formatting element's end tag closing `<svg>` through the
    /// adoption agency, then `<![CDATA[`); the default costs O(1) a tag,
    /// this a tree builder's walks of the stack (bounded: the follower
    /// stops past 4,096 open elements). Off by default.
    pub exact_switching: bool,
    /// Whether scripting is enabled, which makes `<noscript>` content RAWTEXT
    /// in auto-switch mode. On by default, as in browsers.
    pub scripting: bool,
    /// Collect parse errors (see
    /// [`Tokenizer::errors`](crate::Tokenizer::errors)). Off by default.
    pub errors: bool,
    /// The state to start in. [`State::Data`] by default.
    pub initial_state: State,
    /// The most bytes the tokenizer may write to the arena and hold in its
    /// buffers for one document, or `None` (the default) for no limit. Past it,
    /// the tokenizer stops: the iterator ends and
    /// [`Tokenizer::limit_error`](crate::Tokenizer::limit_error) says where.
    /// The check runs between runs of the input, once every 4 KiB of it, so the
    /// overshoot is at most one run and what 4 KiB of input makes.
    pub memory_limit: Option<usize>,
    /// See [`Options::__html5ever_deviations`].
    pub(crate) html5ever_deviations: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            auto_switch: true,
            exact_switching: false,
            scripting: true,
            errors: false,
            initial_state: State::Data,
            memory_limit: None,
            html5ever_deviations: false,
        }
    }
}

impl Options {
    /// Sets [`Options::auto_switch`].
    pub fn auto_switch(mut self, on: bool) -> Options {
        self.auto_switch = on;
        self
    }

    /// Sets [`Options::exact_switching`].
    pub fn exact_switching(mut self, on: bool) -> Options {
        self.exact_switching = on;
        self
    }

    /// Not part of the API: for the project's own tests against
    /// html5ever's tree builder. Makes exact switching follow html5ever
    /// 0.40 where it deviates from the standard (its element sets, and
    /// three rules; `tests/support/tree_oracle.rs` lists them), so that a
    /// test can tell a difference those deviations explain from any other.
    #[doc(hidden)]
    pub fn __html5ever_deviations(mut self, on: bool) -> Options {
        self.html5ever_deviations = on;
        self
    }

    /// Sets [`Options::scripting`].
    pub fn scripting(mut self, on: bool) -> Options {
        self.scripting = on;
        self
    }

    /// Sets [`Options::errors`].
    pub fn errors(mut self, on: bool) -> Options {
        self.errors = on;
        self
    }

    /// Sets [`Options::memory_limit`].
    pub fn memory_limit(mut self, limit: Option<usize>) -> Options {
        self.memory_limit = limit;
        self
    }

    /// Sets [`Options::initial_state`].
    pub fn initial_state(mut self, state: State) -> Options {
        self.initial_state = state;
        self
    }
}
