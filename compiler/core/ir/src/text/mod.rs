//! Text form: lexer, parser (generic syntax plus registered pretty forms),
//! printer, and `// -----` splitting.

pub mod lexer;
pub mod parser;
pub mod printer;
pub(crate) mod type_printer;

/// Argument attribute holding the name location the text gave the argument
/// (`%arg0: tensor<4xf32> loc("params['w']")`): JAX's pytree path, which
/// names the C parameter.
pub const PATH_ATTR: &str = "strata.path";

/// One piece of a file split on `// -----` lines: its text and the byte
/// offset where it starts, so locations keep pointing into the whole file.
pub struct Piece<'a> {
    pub text: &'a str,
    pub offset: usize,
}

/// Splits on lines that consist of `// -----` (MLIR's `-split-input-file`).
pub fn split_pieces(text: &str) -> Vec<Piece<'_>> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end() == "// -----" {
            pieces.push(Piece {
                text: &text[start..offset],
                offset: start,
            });
            start = offset + line.len();
        }
        offset += line.len();
    }
    pieces.push(Piece {
        text: &text[start..],
        offset: start,
    });
    pieces
}

/// The whole text with everything outside `piece` blanked (newlines kept),
/// so a piece parses alone while its locations stay those of the file.
pub fn isolate_piece(text: &str, piece: &Piece<'_>) -> String {
    let end = piece.offset + piece.text.len();
    text.char_indices()
        .map(|(i, c)| {
            if (i >= piece.offset && i < end) || c == '\n' {
                c
            } else {
                ' '
            }
        })
        .collect()
}
