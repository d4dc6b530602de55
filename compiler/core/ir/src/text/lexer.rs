//! On-demand lexer: the parser asks for the token at its current offset, so
//! context-sensitive pieces (tensor dimension lists) can scan raw characters.

use strata_diag::{FileId, Location};

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// Bare identifier or keyword: `func.func`, `tensor`, `x`, `EQ`.
    Ident(String),
    /// `%name` (with an optional `#N` result suffix kept in the text).
    Percent(String),
    /// `@name` or `@"quoted"`.
    At(String),
    /// `^bb0`
    Caret(String),
    /// `#name` or `#dialect.name`
    Hash(String),
    /// `!dialect.type`
    Bang(String),
    /// Decimal integer literal (no sign).
    Int(String),
    /// Hexadecimal literal `0x...` (digits only).
    Hex(String),
    /// Float literal (no sign).
    Float(String),
    Str(String),
    Punct(&'static str),
    Eof,
    /// A character that starts no token.
    Bad(char),
}

impl Tok {
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("'{s}'"),
            Tok::Percent(s) => format!("'%{s}'"),
            Tok::At(s) => format!("'@{s}'"),
            Tok::Caret(s) => format!("'^{s}'"),
            Tok::Hash(s) => format!("'#{s}'"),
            Tok::Bang(s) => format!("'!{s}'"),
            Tok::Int(s) | Tok::Float(s) => format!("'{s}'"),
            Tok::Hex(s) => format!("'0x{s}'"),
            Tok::Str(s) => format!("string \"{s}\""),
            Tok::Punct(p) => format!("'{p}'"),
            Tok::Eof => "end of input".to_string(),
            Tok::Bad(c) => format!("unexpected character {c:?}"),
        }
    }
}

const PUNCTS: [&str; 16] = [
    "->", "::", "(", ")", "{", "}", "[", "]", "<", ">", ",", ":", "=", "?", "*", "-",
];

pub struct Lexer<'a> {
    pub src: &'a str,
    file: FileId,
    line_starts: Vec<usize>,
    /// Per line: all ASCII, so a column is a byte offset (O(1) locations on
    /// the very long lines JAX prints for constants).
    ascii_lines: Vec<bool>,
}

fn is_id_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}
fn is_id_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.'
}
/// Whether `s` lexes as one identifier (else it is written as a string).
pub(crate) fn is_bare_identifier(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(is_id_start) && bytes.all(is_id_char)
}
pub(crate) fn is_suffix_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.' || c == b'-'
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str, file: FileId) -> Lexer<'a> {
        let mut line_starts = vec![0];
        let mut ascii_lines = vec![true];
        for (i, b) in src.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
                ascii_lines.push(true);
            } else if !b.is_ascii()
                && let Some(last) = ascii_lines.last_mut()
            {
                *last = false;
            }
        }
        Lexer {
            src,
            file,
            line_starts,
            ascii_lines,
        }
    }

    pub fn location(&self, offset: usize) -> Location {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let col = if self.ascii_lines[line] {
            offset - start
        } else {
            self.src
                .get(start..offset)
                .map(|s| s.chars().count())
                .unwrap_or(offset - start)
        };
        Location {
            file: self.file,
            line: line as u32 + 1,
            col: col as u32 + 1,
        }
    }

    /// Skips whitespace and `//` comments; returns the new offset.
    pub fn skip_trivia(&self, mut pos: usize) -> usize {
        let b = self.src.as_bytes();
        loop {
            while pos < b.len() && b[pos].is_ascii_whitespace() {
                pos += 1;
            }
            if pos + 1 < b.len() && b[pos] == b'/' && b[pos + 1] == b'/' {
                while pos < b.len() && b[pos] != b'\n' {
                    pos += 1;
                }
                continue;
            }
            return pos;
        }
    }

    /// Lexes the token starting at `pos` (after trivia). Returns the token,
    /// its start offset and the offset just past it. Errors in string
    /// literals come back as `Tok::Bad`.
    pub fn lex(&self, pos: usize) -> (Tok, usize, usize) {
        let start = self.skip_trivia(pos);
        let b = self.src.as_bytes();
        if start >= b.len() {
            return (Tok::Eof, start, start);
        }
        let c = b[start];
        let take_while = |mut i: usize, f: fn(u8) -> bool| {
            while i < b.len() && f(b[i]) {
                i += 1;
            }
            i
        };
        let text = |s: usize, e: usize| self.src[s..e].to_string();
        match c {
            b'%' | b'^' | b'#' | b'!' => {
                let end = take_while(start + 1, is_suffix_char);
                let mut end = end;
                if c == b'%' && end < b.len() && b[end] == b'#' {
                    end = take_while(end + 1, |c| c.is_ascii_digit());
                }
                if end == start + 1 {
                    return (Tok::Bad(c as char), start, start + 1);
                }
                let s = text(start + 1, end);
                let t = match c {
                    b'%' => Tok::Percent(s),
                    b'^' => Tok::Caret(s),
                    b'#' => Tok::Hash(s),
                    _ => Tok::Bang(s),
                };
                (t, start, end)
            }
            b'@' => {
                if start + 1 < b.len() && b[start + 1] == b'"' {
                    match self.lex_string(start + 1) {
                        Some((s, end)) => (Tok::At(s), start, end),
                        None => (Tok::Bad('"'), start, start + 1),
                    }
                } else {
                    let end = take_while(start + 1, is_suffix_char);
                    if end == start + 1 {
                        return (Tok::Bad('@'), start, start + 1);
                    }
                    (Tok::At(text(start + 1, end)), start, end)
                }
            }
            b'"' => match self.lex_string(start) {
                Some((s, end)) => (Tok::Str(s), start, end),
                None => (Tok::Bad('"'), start, start + 1),
            },
            b'0'..=b'9' => self.lex_number(start),
            _ if is_id_start(c) => {
                let end = take_while(start, is_id_char);
                (Tok::Ident(text(start, end)), start, end)
            }
            _ => {
                for p in PUNCTS {
                    if self.src[start..].starts_with(p) {
                        return (Tok::Punct(p), start, start + p.len());
                    }
                }
                let ch = self.src[start..].chars().next().unwrap_or('?');
                (Tok::Bad(ch), start, start + ch.len_utf8())
            }
        }
    }

    fn lex_number(&self, start: usize) -> (Tok, usize, usize) {
        let b = self.src.as_bytes();
        if b[start] == b'0' && start + 1 < b.len() && b[start + 1] == b'x' {
            let mut end = start + 2;
            while end < b.len() && b[end].is_ascii_hexdigit() {
                end += 1;
            }
            if end > start + 2 {
                return (Tok::Hex(self.src[start + 2..end].to_string()), start, end);
            }
        }
        let mut end = start;
        while end < b.len() && b[end].is_ascii_digit() {
            end += 1;
        }
        let mut is_float = false;
        if end < b.len() && b[end] == b'.' {
            is_float = true;
            end += 1;
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
        }
        if end < b.len() && (b[end] == b'e' || b[end] == b'E') {
            let mut e = end + 1;
            if e < b.len() && (b[e] == b'+' || b[e] == b'-') {
                e += 1;
            }
            if e < b.len() && b[e].is_ascii_digit() {
                while e < b.len() && b[e].is_ascii_digit() {
                    e += 1;
                }
                end = e;
                is_float = true;
            }
        }
        let s = self.src[start..end].to_string();
        (
            if is_float { Tok::Float(s) } else { Tok::Int(s) },
            start,
            end,
        )
    }

    /// Lexes a string literal starting at the opening quote.
    fn lex_string(&self, start: usize) -> Option<(String, usize)> {
        let b = self.src.as_bytes();
        let mut out = Vec::new();
        let mut i = start + 1;
        while i < b.len() {
            match b[i] {
                b'"' => return Some((String::from_utf8_lossy(&out).into_owned(), i + 1)),
                b'\n' => return None,
                b'\\' if i + 1 < b.len() => {
                    let e = b[i + 1];
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'"' => out.push(b'"'),
                        b'\\' => out.push(b'\\'),
                        _ if e.is_ascii_hexdigit()
                            && i + 2 < b.len()
                            && b[i + 2].is_ascii_hexdigit() =>
                        {
                            let v = u8::from_str_radix(&self.src[i + 1..i + 3], 16).ok()?;
                            out.push(v);
                            i += 1;
                        }
                        _ => return None,
                    }
                    i += 2;
                }
                c => {
                    out.push(c);
                    i += 1;
                }
            }
        }
        None
    }
}
