//! A character cursor over HLO text. HLO's syntax mixes ordinary tokens with
//! compact attribute spellings (`pad=1_1x0_2`, `dim_labels=b01f_01io->b01f`),
//! so the parser reads characters directly instead of a fixed token stream;
//! every read knows its byte offset, hence its `line:col`.

use strata_diag::{Diagnostic, FileId, Location, Result};

/// Byte offsets of line starts, to turn an offset into `line:col`.
pub struct LineIndex {
    starts: Vec<usize>,
    /// Whether each line is ASCII, where the column is the byte offset
    /// (so locations inside long one-line constants cost O(1)).
    ascii: Vec<bool>,
    file: FileId,
}

impl LineIndex {
    pub fn new(text: &str, file: FileId) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let ascii = text.split('\n').map(|line| line.is_ascii()).collect();
        LineIndex {
            starts,
            ascii,
            file,
        }
    }

    pub fn location(&self, text: &str, offset: usize) -> Location {
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        let col = match self.ascii.get(line - 1) {
            Some(true) => offset - start,
            _ => text
                .get(start..offset)
                .map_or(offset - start, |s| s.chars().count()),
        };
        Location {
            file: self.file,
            line: line as u32,
            col: col as u32 + 1,
        }
    }
}

/// A piece of the source: where an attribute value or literal was written.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

#[derive(Clone, Copy)]
pub struct Cursor<'a> {
    pub text: &'a str,
    pub pos: usize,
    /// Reading stops here (a sub-cursor over one attribute value).
    pub end: usize,
    lines: &'a LineIndex,
}

/// Characters of HLO names: `get-tuple-element.3`, `region_0.1`, `f32`.
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '$')
}

impl<'a> Cursor<'a> {
    pub fn new(text: &'a str, lines: &'a LineIndex) -> Cursor<'a> {
        Cursor {
            text,
            pos: 0,
            end: text.len(),
            lines,
        }
    }

    /// A cursor reading only `span` (locations stay those of the file).
    pub fn over(&self, span: Span) -> Cursor<'a> {
        Cursor {
            text: self.text,
            pos: span.start,
            end: span.end,
            lines: self.lines,
        }
    }

    pub fn loc_at(&self, offset: usize) -> Location {
        self.lines.location(self.text, offset)
    }
    pub fn loc(&self) -> Location {
        self.loc_at(self.pos)
    }
    pub fn error(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.loc(), msg)
    }

    fn rest(&self) -> &'a str {
        self.text.get(self.pos..self.end).unwrap_or("")
    }

    /// Skips spaces (newlines too when `newlines`) and `/*...*/` comments,
    /// like the `/*index=5*/` markers in long tuple shapes.
    fn skip(&mut self, newlines: bool) {
        loop {
            let rest = self.rest();
            let trimmed = if newlines {
                rest.trim_start()
            } else {
                rest.trim_start_matches([' ', '\t', '\r'])
            };
            self.pos += rest.len() - trimmed.len();
            if let Some(body) = trimmed.strip_prefix("/*") {
                let len = body.find("*/").map_or(body.len(), |i| i + 2);
                self.pos += 2 + len;
            } else if newlines && trimmed.starts_with("//") {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else {
                return;
            }
        }
    }

    /// Skips blanks and comments within the current line.
    pub fn skip_blanks(&mut self) {
        self.skip(false)
    }
    /// Skips blanks, comments and line ends.
    pub fn skip_lines(&mut self) {
        self.skip(true)
    }

    pub fn at_end(&mut self) -> bool {
        self.skip_blanks();
        self.pos >= self.end
    }
    pub fn at_line_end(&mut self) -> bool {
        self.skip_blanks();
        self.pos >= self.end || self.rest().starts_with('\n')
    }

    /// The next character after blanks, not consumed.
    pub fn peek(&mut self) -> Option<char> {
        self.skip_blanks();
        self.rest().chars().next()
    }

    pub fn starts_with(&mut self, s: &str) -> bool {
        self.skip_blanks();
        self.rest().starts_with(s)
    }

    /// Whether `s` comes right at the cursor, with no blanks before it.
    pub fn touches(&self, s: &str) -> bool {
        self.rest().starts_with(s)
    }

    pub fn eat(&mut self, s: &str) -> bool {
        if self.starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    pub fn expect(&mut self, s: &str) -> Result<()> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.expected(&format!("'{s}'")))
        }
    }

    /// "expected X, found Y" at the current position.
    pub fn expected(&mut self, what: &str) -> Diagnostic {
        self.skip_blanks();
        let found = match self.rest().chars().next() {
            None => "end of input".to_string(),
            Some('\n') => "end of line".to_string(),
            Some(_) => {
                let word: String = self
                    .rest()
                    .chars()
                    .take_while(|&c| is_name_char(c))
                    .collect();
                match word.is_empty() {
                    true => format!("'{}'", self.rest().chars().next().unwrap_or(' ')),
                    false => format!("'{word}'"),
                }
            }
        };
        self.error(format!("expected {what}, found {found}"))
    }

    /// A name (`%` prefix allowed and dropped), stopping before `->`.
    pub fn name(&mut self, what: &str) -> Result<(String, Location)> {
        self.skip_blanks();
        let start = self.pos;
        if self.rest().starts_with('%') {
            self.pos += 1;
        }
        let rest = self.rest();
        let mut len = 0;
        for (i, c) in rest.char_indices() {
            if !is_name_char(c) || rest[i..].starts_with("->") {
                break;
            }
            len = i + c.len_utf8();
        }
        if len == 0 {
            self.pos = start;
            return Err(self.expected(what));
        }
        let name = rest[..len].to_string();
        self.pos += len;
        Ok((name, self.loc_at(start)))
    }

    /// A word of number characters (`-1`, `1e-05`, `inf`, `-nan`, `true`).
    pub fn number_word(&mut self) -> (String, Location) {
        self.skip_blanks();
        let loc = self.loc();
        let rest = self.rest();
        let mut len = 0;
        for (i, c) in rest.char_indices() {
            // A sign starts the word or follows an exponent's `e` (`1e-05`).
            let after_exponent = rest[..i].ends_with(['e', 'E'])
                && rest[..i.saturating_sub(1)].ends_with(|p: char| p.is_ascii_digit() || p == '.');
            let sign_ok = (c == '-' || c == '+') && (i == 0 || after_exponent);
            if !(c.is_ascii_alphanumeric() || c == '.' || c == '_' || sign_ok) {
                break;
            }
            len = i + 1;
        }
        self.pos += len;
        (rest[..len].to_string(), loc)
    }

    /// A decimal integer that fits in an i64.
    pub fn int(&mut self) -> Result<i64> {
        self.skip_blanks();
        let start = self.pos;
        let rest = self.rest();
        let neg = rest.starts_with('-');
        let digits = rest[neg as usize..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if digits == 0 {
            return Err(self.expected("an integer"));
        }
        let len = neg as usize + digits;
        self.pos += len;
        rest[..len].parse::<i64>().map_err(|_| {
            Diagnostic::error(
                self.loc_at(start),
                format!("integer {} does not fit in 64 bits", &rest[..len]),
            )
        })
    }

    /// A `"..."` string (backslash escapes kept as written, except `\"`).
    pub fn string(&mut self) -> Result<String> {
        self.expect("\"")?;
        let mut out = String::new();
        let mut chars = self.rest().char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\\' => {
                    if let Some((_, n)) = chars.next() {
                        match n {
                            '"' | '\\' => out.push(n),
                            'n' => out.push('\n'),
                            _ => {
                                out.push('\\');
                                out.push(n);
                            }
                        }
                    }
                }
                '\n' => break,
                _ => out.push(c),
            }
        }
        Err(self.error("unterminated string"))
    }

    /// The text up to the next `,` at bracket depth 0, or the end of the
    /// line (or of the cursor's range): one attribute value, unparsed.
    pub fn raw_value(&mut self) -> Result<Span> {
        self.skip_blanks();
        let start = self.pos;
        let mut depth: Vec<char> = Vec::new();
        let mut in_string = false;
        let mut escaped = false;
        for (i, c) in self.rest().char_indices() {
            if in_string {
                match (escaped, c) {
                    (false, '\\') => escaped = true,
                    (false, '"') => in_string = false,
                    (_, '\n') => break,
                    _ => escaped = false,
                }
                continue;
            }
            match c {
                '"' => in_string = true,
                '{' | '(' | '[' => depth.push(c),
                '}' | ')' | ']' => {
                    let open = match c {
                        '}' => '{',
                        ')' => '(',
                        _ => '[',
                    };
                    if depth.pop() != Some(open) {
                        self.pos = start + i;
                        return Err(self.error(format!("unbalanced '{c}'")));
                    }
                }
                ',' | '\n' if depth.is_empty() => {
                    self.pos = start + i;
                    return Ok(self.trimmed(start, start + i));
                }
                _ => {}
            }
        }
        if in_string {
            return Err(Diagnostic::error(self.loc_at(start), "unterminated string"));
        }
        if !depth.is_empty() {
            return Err(Diagnostic::error(
                self.loc_at(start),
                "unbalanced brackets in attribute value",
            ));
        }
        let end = self
            .end
            .min(start + self.rest().find('\n').unwrap_or(self.rest().len()));
        let end = end.max(start);
        self.pos = end;
        Ok(self.trimmed(start, end))
    }

    fn trimmed(&self, start: usize, end: usize) -> Span {
        let s = &self.text[start..end];
        Span {
            start,
            end: start + s.trim_end().len(),
        }
    }

    /// Skips a balanced `{...}`, `(...)` or `[...]` group at the cursor.
    pub fn skip_group(&mut self) -> Result<()> {
        let span = self.raw_group()?;
        self.pos = span.end;
        Ok(())
    }

    /// The span of the balanced group starting at the cursor, brackets included.
    pub fn raw_group(&mut self) -> Result<Span> {
        self.skip_blanks();
        let start = self.pos;
        let mut depth = 0usize;
        let mut in_string = false;
        for (i, c) in self.rest().char_indices() {
            match (in_string, c) {
                (true, '"') => in_string = false,
                (true, _) => {}
                (false, '"') => in_string = true,
                (false, '{' | '(' | '[') => depth += 1,
                (false, '}' | ')' | ']') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Ok(Span {
                            start,
                            end: start + i + 1,
                        });
                    }
                }
                _ if depth == 0 => break,
                _ => {}
            }
        }
        Err(Diagnostic::error(self.loc_at(start), "unbalanced brackets"))
    }

    /// The source text of `span`.
    pub fn text_of(&self, span: Span) -> &'a str {
        self.text.get(span.start..span.end).unwrap_or("")
    }

    /// Whether the line at the cursor holds exactly `word` (blanks aside).
    pub fn line_is(&mut self, word: &str) -> bool {
        self.skip_blanks();
        self.rest().split('\n').next().unwrap_or("").trim_end() == word
    }

    /// Moves past the end of the current line.
    pub fn skip_line(&mut self) {
        let rest = self.rest();
        self.pos += rest.find('\n').map_or(rest.len(), |i| i + 1);
    }

    /// Whether the line at the cursor is empty (or only blanks).
    pub fn at_blank_line(&self) -> bool {
        self.rest()
            .split('\n')
            .next()
            .unwrap_or("")
            .trim()
            .is_empty()
    }
}

/// Runs `read` on `c` and checks that it consumed the whole value.
pub fn whole<'a, T>(
    c: &mut Cursor<'a>,
    read: impl FnOnce(&mut Cursor<'a>) -> Result<T>,
) -> Result<T> {
    let v = read(c)?;
    if !c.at_end() {
        return Err(c.expected("the end of the attribute value"));
    }
    Ok(v)
}
