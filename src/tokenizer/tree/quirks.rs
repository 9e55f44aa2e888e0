//! Whether a DOCTYPE puts the document in quirks mode (["initial"](https://html.spec.whatwg.org/multipage/parsing.html#the-initial-insertion-mode), "the
//! initial insertion mode").
//!
//! Exact switching needs one consequence of quirks mode: there, a `<table>`
//! start tag does not close an open `<p>` (["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody)), which changes the
//! stack of open elements and so, further on, what is foreign content.
//! Limited-quirks mode changes nothing the tokenizer sees, so only quirks
//! mode is told apart. The lists are the standard's.

use crate::token::Doctype;

/// Public identifiers that start one of these (ASCII case-insensitively)
/// put the document in quirks mode.
const QUIRKY_PUBLIC_PREFIXES: &[&str] = &[
    "+//silmaril//dtd html pro v0r11 19970101//",
    "-//as//dtd html 3.0 aswedit + extensions//",
    "-//advasoft ltd//dtd html 3.0 aswedit + extensions//",
    "-//ietf//dtd html 2.0 level 1//",
    "-//ietf//dtd html 2.0 level 2//",
    "-//ietf//dtd html 2.0 strict level 1//",
    "-//ietf//dtd html 2.0 strict level 2//",
    "-//ietf//dtd html 2.0 strict//",
    "-//ietf//dtd html 2.0//",
    "-//ietf//dtd html 2.1e//",
    "-//ietf//dtd html 3.0//",
    "-//ietf//dtd html 3.2 final//",
    "-//ietf//dtd html 3.2//",
    "-//ietf//dtd html 3//",
    "-//ietf//dtd html level 0//",
    "-//ietf//dtd html level 1//",
    "-//ietf//dtd html level 2//",
    "-//ietf//dtd html level 3//",
    "-//ietf//dtd html strict level 0//",
    "-//ietf//dtd html strict level 1//",
    "-//ietf//dtd html strict level 2//",
    "-//ietf//dtd html strict level 3//",
    "-//ietf//dtd html strict//",
    "-//ietf//dtd html//",
    "-//metrius//dtd metrius presentational//",
    "-//microsoft//dtd internet explorer 2.0 html strict//",
    "-//microsoft//dtd internet explorer 2.0 html//",
    "-//microsoft//dtd internet explorer 2.0 tables//",
    "-//microsoft//dtd internet explorer 3.0 html strict//",
    "-//microsoft//dtd internet explorer 3.0 html//",
    "-//microsoft//dtd internet explorer 3.0 tables//",
    "-//netscape comm. corp.//dtd html//",
    "-//netscape comm. corp.//dtd strict html//",
    "-//o'reilly and associates//dtd html 2.0//",
    "-//o'reilly and associates//dtd html extended 1.0//",
    "-//o'reilly and associates//dtd html extended relaxed 1.0//",
    "-//sq//dtd html 2.0 hotmetal + extensions//",
    "-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//",
    "-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//",
    "-//spyglass//dtd html 2.0 extended//",
    "-//sun microsystems corp.//dtd hotjava html//",
    "-//sun microsystems corp.//dtd hotjava strict html//",
    "-//w3c//dtd html 3 1995-03-24//",
    "-//w3c//dtd html 3.2 draft//",
    "-//w3c//dtd html 3.2 final//",
    "-//w3c//dtd html 3.2//",
    "-//w3c//dtd html 3.2s draft//",
    "-//w3c//dtd html 4.0 frameset//",
    "-//w3c//dtd html 4.0 transitional//",
    "-//w3c//dtd html experimental 19960712//",
    "-//w3c//dtd html experimental 970421//",
    "-//w3c//dtd w3 html//",
    "-//w3o//dtd w3 html 3.0//",
    "-//webtechs//dtd mozilla html 2.0//",
    "-//webtechs//dtd mozilla html//",
];

/// Public identifiers that are one of these put the document in quirks
/// mode.
const QUIRKY_PUBLIC_IDS: &[&str] = &[
    "-//w3o//dtd w3 html strict 3.0//en//",
    "-/w3c/dtd html 4.0 transitional/en",
    "html",
];

/// The system identifier that puts the document in quirks mode.
const QUIRKY_SYSTEM_ID: &str = "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd";

/// Public identifiers that put the document in quirks mode when the
/// system identifier is missing (limited-quirks mode otherwise).
const QUIRKY_WITHOUT_SYSTEM_ID: &[&str] = &[
    "-//w3c//dtd html 4.01 frameset//",
    "-//w3c//dtd html 4.01 transitional//",
];

/// Whether `s` starts with `prefix`, ASCII case-insensitively (`prefix` is
/// lowercase).
fn starts_with_ignoring_case(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len() && s.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// Whether this DOCTYPE, the first token of a document that is not an
/// `iframe` `srcdoc` document, sets the document to quirks mode.
pub(super) fn is_quirky(doctype: &Doctype<'_>) -> bool {
    if doctype.force_quirks || doctype.name != Some("html") {
        return true;
    }
    if let Some(system) = doctype.system_id {
        if system.eq_ignore_ascii_case(QUIRKY_SYSTEM_ID) {
            return true;
        }
    }
    let Some(public) = doctype.public_id else {
        return false;
    };
    QUIRKY_PUBLIC_IDS
        .iter()
        .any(|id| public.eq_ignore_ascii_case(id))
        || QUIRKY_PUBLIC_PREFIXES
            .iter()
            .any(|p| starts_with_ignoring_case(public, p))
        || (doctype.system_id.is_none()
            && QUIRKY_WITHOUT_SYSTEM_ID
                .iter()
                .any(|p| starts_with_ignoring_case(public, p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doctype<'a>(
        name: Option<&'a str>,
        public: Option<&'a str>,
        system: Option<&'a str>,
    ) -> Doctype<'a> {
        Doctype {
            name,
            public_id: public,
            system_id: system,
            force_quirks: false,
            span: Default::default(),
        }
    }

    #[test]
    fn the_standards_cases() {
        assert!(!is_quirky(&doctype(Some("html"), None, None)));
        assert!(is_quirky(&doctype(Some("htm"), None, None)));
        assert!(is_quirky(&doctype(None, None, None)));
        assert!(is_quirky(&doctype(Some("html"), Some("HTML"), None)));
        let html401 = "-//W3C//DTD HTML 4.01 Transitional//EN";
        assert!(is_quirky(&doctype(Some("html"), Some(html401), None)));
        assert!(!is_quirky(&doctype(Some("html"), Some(html401), Some("x"))));
        assert!(is_quirky(&doctype(
            Some("html"),
            Some("-//IETF//DTD HTML//EN"),
            Some("x")
        )));
        let ibm = "HTTP://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd";
        assert!(is_quirky(&doctype(Some("html"), None, Some(ibm))));
        let xhtml = "-//W3C//DTD XHTML 1.0 Transitional//EN";
        assert!(!is_quirky(&doctype(Some("html"), Some(xhtml), None)));
        let mut forced = doctype(Some("html"), None, None);
        forced.force_quirks = true;
        assert!(is_quirky(&forced));
    }
}
