//! Source locations and diagnostics, rendered the way MLIR does:
//! `FILE:LINE:COL: error: message`, then the source line and a caret.

use std::fmt;

/// Index of a source buffer in a [`SourceMap`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct FileId(pub u32);

/// A point in a source buffer. Lines and columns are 1-based; line 0 means
/// "unknown" (ops created by the compiler without a source op).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Location {
    pub file: FileId,
    pub line: u32,
    pub col: u32,
}

impl Location {
    pub fn unknown() -> Location {
        Location::default()
    }
    pub fn is_known(&self) -> bool {
        self.line > 0
    }
}

/// What kind of failure a diagnostic reports. User errors and unsupported
/// features are the input's fault or a known gap; internal errors are bugs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Error,
    Unsupported,
    Internal,
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub kind: Kind,
    pub loc: Location,
    pub message: String,
    pub notes: Vec<(Location, String)>,
}

impl Diagnostic {
    pub fn error(loc: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind: Kind::Error,
            loc,
            message: message.into(),
            notes: Vec::new(),
        }
    }
    pub fn unsupported(loc: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind: Kind::Unsupported,
            loc,
            message: message.into(),
            notes: Vec::new(),
        }
    }
    pub fn internal(loc: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind: Kind::Internal,
            loc,
            message: message.into(),
            notes: Vec::new(),
        }
    }
    pub fn note(mut self, loc: Location, message: impl Into<String>) -> Diagnostic {
        self.notes.push((loc, message.into()));
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

pub type Result<T> = std::result::Result<T, Diagnostic>;

/// The source buffers a compilation read, so that diagnostics can quote them.
#[derive(Default, Debug)]
pub struct SourceMap {
    files: Vec<(String, String)>,
}

impl SourceMap {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push((name.into(), text.into()));
        FileId(self.files.len() as u32 - 1)
    }
    pub fn name(&self, id: FileId) -> &str {
        self.files
            .get(id.0 as usize)
            .map(|f| f.0.as_str())
            .unwrap_or("<unknown>")
    }
    pub fn text(&self, id: FileId) -> &str {
        self.files
            .get(id.0 as usize)
            .map(|f| f.1.as_str())
            .unwrap_or("")
    }
    fn line(&self, loc: Location) -> Option<&str> {
        if !loc.is_known() {
            return None;
        }
        self.text(loc.file).lines().nth(loc.line as usize - 1)
    }

    /// Renders one diagnostic with its notes, each with the quoted source line.
    pub fn render(&self, d: &Diagnostic) -> String {
        let severity = match d.kind {
            Kind::Error => "error",
            Kind::Unsupported => "error: unsupported",
            Kind::Internal => "error: internal compiler error",
        };
        let mut out = String::new();
        self.render_one(&mut out, d.loc, severity, &d.message);
        for (loc, note) in &d.notes {
            self.render_one(&mut out, *loc, "note", note);
        }
        out
    }

    fn render_one(&self, out: &mut String, loc: Location, severity: &str, message: &str) {
        use fmt::Write;
        if loc.is_known() {
            let _ = writeln!(
                out,
                "{}:{}:{}: {severity}: {message}",
                self.name(loc.file),
                loc.line,
                loc.col
            );
        } else if severity == "note" {
            // A note without a place in the input (the model's own source).
            let _ = writeln!(out, "note: {}", without_controls(message));
        } else {
            let _ = writeln!(out, "{}: {severity}: {message}", self.name(loc.file));
        }
        if let Some(line) = self.line(loc) {
            let (shown, caret) = source_window(line.trim_end_matches('\r'), loc.col);
            let caret_pad: String = shown
                .chars()
                .take(caret)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            let _ = writeln!(out, "{shown}\n{caret_pad}^");
        }
    }
}

/// `message` with control characters shown as `?` (a note may quote the
/// model's file names).
fn without_controls(message: &str) -> String {
    message
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// Characters of a source line shown on each side of the caret: a long
/// line (a minified export, a hostile file) is cut to this window instead
/// of being echoed whole.
const SOURCE_CONTEXT: usize = 80;

/// The part of `line` a diagnostic shows around column `col` (1-based,
/// in characters), with `...` where it was cut and control characters
/// (which could drive the terminal) shown as `?`; and the caret's offset
/// in it.
fn source_window(line: &str, col: u32) -> (String, usize) {
    let at = col.saturating_sub(1) as usize;
    let count = line.chars().count();
    let start = at.saturating_sub(SOURCE_CONTEXT);
    let end = at.saturating_add(SOURCE_CONTEXT).min(count);
    let mut shown = String::new();
    if start > 0 {
        shown.push_str("...");
    }
    let caret = at - start + if start > 0 { 3 } else { 0 };
    shown.extend(
        line.chars()
            .skip(start)
            .take(end.saturating_sub(start))
            .map(|c| if c.is_control() && c != '\t' { '?' } else { c }),
    );
    if end < count {
        shown.push_str("...");
    }
    (shown, caret)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_location_line_and_caret() {
        let mut sm = SourceMap::default();
        let f = sm.add("m.mlir", "abc\n  %x = foo\n");
        let d = Diagnostic::error(
            Location {
                file: f,
                line: 2,
                col: 3,
            },
            "bad",
        );
        assert_eq!(sm.render(&d), "m.mlir:2:3: error: bad\n  %x = foo\n  ^\n");
    }

    #[test]
    fn long_lines_are_cut_around_the_caret_and_control_characters_hidden() {
        let line = format!("{}X{}\x1b[2J", "a".repeat(1000), "b".repeat(1000));
        let (shown, caret) = source_window(&line, 1001);
        assert_eq!(shown.chars().nth(caret), Some('X'));
        assert!(
            shown.starts_with("...") && shown.ends_with("..."),
            "{shown}"
        );
        assert!(shown.len() < 200);
        let (shown, caret) = source_window("ab\x1bc", 4);
        assert_eq!((shown.as_str(), caret), ("ab?c", 3));
    }
}
