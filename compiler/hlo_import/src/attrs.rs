//! Reading an instruction's attribute values: `{1,0}` lists, `true`, words
//! like `LT`, `padding=0_1x2_2_1`, `window={size=3x3 pad=1_1x1_1}`,
//! `slice={[0:4:1]}` and `dim_labels=b01f_01io->b01f`. Each reader consumes
//! the whole value or reports where it stopped making sense.

use std::cell::RefCell;

use strata_diag::{Diagnostic, Location, Result};

use super::lexer::{Cursor, whole};
use super::parser::Instr;

/// Attributes that never change what an instruction computes on one
/// device: debug information, scheduling, and layout or aliasing hints.
const IGNORED: &[&str] = &[
    "metadata",
    "frontend_attributes",
    "backend_config",
    "origin",
    "statistics",
    "control-predecessors",
    "operand_layout_constraints",
    "output_to_operand_aliasing",
    "api_version",
    "parameter_replication",
    "result_accuracy",
    "schedule",
    "custom_call_schedule",
];

/// Single-device shardings: every device holds the whole value.
const SINGLE_DEVICE_SHARDINGS: &[&str] = &["{replicated}", "{maximal device=0}"];

/// The attributes of one instruction, with a cursor over the source text.
/// It records which attributes the op builder read, so that any other
/// attribute, which would change the meaning, is reported.
pub struct Attrs<'i, 'a> {
    pub instr: &'i Instr,
    pub cursor: Cursor<'a>,
    read: RefCell<Vec<String>>,
}

impl<'i, 'a> Attrs<'i, 'a> {
    pub fn new(instr: &'i Instr, cursor: Cursor<'a>) -> Self {
        Attrs {
            instr,
            cursor,
            read: RefCell::new(Vec::new()),
        }
    }

    /// A cursor over the value of attribute `name`, if written.
    pub fn get(&self, name: &str) -> Option<Cursor<'a>> {
        self.read.borrow_mut().push(name.to_string());
        self.instr.attr(name).map(|a| self.cursor.over(a.value))
    }

    /// Reports the first attribute that was neither read nor harmless.
    pub fn check_all_used(&self) -> Result<()> {
        let read = self.read.borrow();
        for a in &self.instr.attrs {
            if read.contains(&a.name) || IGNORED.contains(&a.name.as_str()) {
                continue;
            }
            let value = self.cursor.text_of(a.value);
            if a.name == "sharding" && SINGLE_DEVICE_SHARDINGS.contains(&value) {
                continue;
            }
            return Err(Diagnostic::unsupported(
                a.loc,
                format!(
                    "attribute '{}' of '{}' is not supported",
                    a.name, self.instr.opcode
                ),
            ));
        }
        Ok(())
    }

    pub fn required(&self, name: &str) -> Result<Cursor<'a>> {
        self.get(name).ok_or_else(|| {
            Diagnostic::error(
                self.instr.opcode_loc,
                format!("'{}' requires the attribute '{name}'", self.instr.opcode),
            )
        })
    }

    /// `name={1,2}` (required).
    pub fn ints(&self, name: &str) -> Result<Vec<i64>> {
        let mut c = self.required(name)?;
        whole(&mut c, int_list)
    }

    /// `name={1,2}`, or empty when absent.
    pub fn ints_or_empty(&self, name: &str) -> Result<Vec<i64>> {
        match self.get(name) {
            Some(mut c) => whole(&mut c, int_list),
            None => Ok(Vec::new()),
        }
    }

    /// `name=3` (required).
    pub fn int(&self, name: &str) -> Result<i64> {
        let mut c = self.required(name)?;
        whole(&mut c, |c| c.int())
    }

    /// `name=true|false`, `default` when absent.
    pub fn flag_or(&self, name: &str, default: bool) -> Result<bool> {
        let Some(mut c) = self.get(name) else {
            return Ok(default);
        };
        whole(&mut c, |c| match c.name("true or false")? {
            (w, _) if w == "true" => Ok(true),
            (w, _) if w == "false" => Ok(false),
            (w, loc) => Err(Diagnostic::error(
                loc,
                format!("expected true or false, found '{w}'"),
            )),
        })
    }

    /// `name=WORD` with where the word was written, if present.
    pub fn word(&self, name: &str) -> Result<Option<(String, Location)>> {
        match self.get(name) {
            Some(mut c) => whole(&mut c, |c| c.name("a word")).map(Some),
            None => Ok(None),
        }
    }

    /// `name=computation` (required): the computation's name and location.
    pub fn computation(&self, name: &str) -> Result<(String, Location)> {
        let mut c = self.required(name)?;
        whole(&mut c, |c| c.name("a computation name"))
    }

    /// `name={a, b}`: a list of computation names.
    pub fn computations(&self, name: &str) -> Result<Vec<(String, Location)>> {
        let mut c = self.required(name)?;
        whole(&mut c, |c| {
            c.expect("{")?;
            let mut out = Vec::new();
            if c.eat("}") {
                return Ok(out);
            }
            loop {
                out.push(c.name("a computation name")?);
                if c.eat("}") {
                    return Ok(out);
                }
                c.expect(",")?;
            }
        })
    }
}

/// `{1,2,3}` or `{}`.
pub fn int_list(c: &mut Cursor<'_>) -> Result<Vec<i64>> {
    delimited_ints(c, "{", "}")
}

/// Integers separated by commas between `open` and `close`: `[2,4]`, `(1,0)`.
pub fn delimited_ints(c: &mut Cursor<'_>, open: &str, close: &str) -> Result<Vec<i64>> {
    c.expect(open)?;
    let mut out = Vec::new();
    if c.eat(close) {
        return Ok(out);
    }
    loop {
        out.push(c.int()?);
        if c.eat(close) {
            return Ok(out);
        }
        c.expect(",")?;
    }
}

/// `{{0,1},{2,3}}` (also `{}` for no groups).
pub fn int_lists(c: &mut Cursor<'_>) -> Result<Vec<Vec<i64>>> {
    c.expect("{")?;
    let mut out = Vec::new();
    if c.eat("}") {
        return Ok(out);
    }
    loop {
        out.push(int_list(c)?);
        if c.eat("}") {
            return Ok(out);
        }
        c.expect(",")?;
    }
}

/// `3x3x1`: integers separated by `x`.
fn x_separated(c: &mut Cursor<'_>) -> Result<Vec<i64>> {
    let mut out = vec![c.int()?];
    while c.eat("x") {
        out.push(c.int()?);
    }
    Ok(out)
}

/// `1_1x0_2` (window padding, low_high per dimension).
fn pad_pairs(c: &mut Cursor<'_>) -> Result<Vec<(i64, i64)>> {
    let mut out = Vec::new();
    loop {
        let lo = c.int()?;
        c.expect("_")?;
        let hi = c.int()?;
        out.push((lo, hi));
        if !c.eat("x") {
            return Ok(out);
        }
    }
}

/// One dimension of `pad`'s `padding=0_1_0x2_2_1`: low, high, interior.
pub struct PadDim {
    pub low: i64,
    pub high: i64,
    pub interior: i64,
}

pub fn padding_config(c: &mut Cursor<'_>) -> Result<Vec<PadDim>> {
    let mut out = Vec::new();
    if c.at_end() {
        return Ok(out); // a scalar's padding is written empty
    }
    loop {
        let low = c.int()?;
        c.expect("_")?;
        let high = c.int()?;
        let interior = if c.eat("_") { c.int()? } else { 0 };
        out.push(PadDim {
            low,
            high,
            interior,
        });
        if !c.eat("x") {
            return Ok(out);
        }
    }
}

/// A convolution or reduce-window window, with XLA's defaults for what is
/// not written (stride and dilations 1, no padding, no reversal).
pub struct Window {
    pub size: Vec<i64>,
    pub stride: Vec<i64>,
    pub pad: Vec<(i64, i64)>,
    pub lhs_dilate: Vec<i64>,
    pub rhs_dilate: Vec<i64>,
    pub reversal: Vec<i64>,
}

/// `{size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=1x1 rhs_dilate=1x1 rhs_reversal=0x1}`
/// (`{}` is a rank-0 window). The rank is that of the longest field.
pub fn window(c: &mut Cursor<'_>) -> Result<Window> {
    let loc = c.loc();
    c.expect("{")?;
    let mut fields: Vec<(String, Location, Vec<i64>, Vec<(i64, i64)>)> = Vec::new();
    while !c.eat("}") {
        let (key, key_loc) = c.name("a window field")?;
        c.expect("=")?;
        let (list, pairs) = match key.as_str() {
            "pad" => (Vec::new(), pad_pairs(c)?),
            "size" | "stride" | "lhs_dilate" | "rhs_dilate" | "rhs_reversal" => {
                (x_separated(c)?, Vec::new())
            }
            _ => {
                return Err(Diagnostic::error(
                    key_loc,
                    format!("unknown window field '{key}'"),
                ));
            }
        };
        fields.push((key, key_loc, list, pairs));
    }
    let rank = fields
        .iter()
        .map(|f| f.2.len().max(f.3.len()))
        .max()
        .unwrap_or(0);
    let field = |name: &str, default: i64| -> Result<Vec<i64>> {
        match fields.iter().find(|f| f.0 == name) {
            Some((_, floc, v, _)) if v.len() != rank => Err(Diagnostic::error(
                *floc,
                format!(
                    "window field '{name}' has {} entries, expected {rank}",
                    v.len()
                ),
            )),
            Some((_, _, v, _)) => Ok(v.clone()),
            None => Ok(vec![default; rank]),
        }
    };
    let size = match fields.iter().any(|f| f.0 == "size") {
        true => field("size", 1)?,
        false if rank == 0 => Vec::new(),
        false => return Err(Diagnostic::error(loc, "window requires 'size'")),
    };
    let pad = match fields.iter().find(|f| f.0 == "pad") {
        Some((_, floc, _, p)) if p.len() != rank => {
            return Err(Diagnostic::error(
                *floc,
                format!(
                    "window field 'pad' has {} entries, expected {rank}",
                    p.len()
                ),
            ));
        }
        Some((_, _, _, p)) => p.clone(),
        None => vec![(0, 0); rank],
    };
    Ok(Window {
        size,
        stride: field("stride", 1)?,
        pad,
        lhs_dilate: field("lhs_dilate", 1)?,
        rhs_dilate: field("rhs_dilate", 1)?,
        reversal: field("rhs_reversal", 0)?,
    })
}

/// One dimension of `slice={[start:limit:stride], ...}`.
pub struct SliceDim {
    pub start: i64,
    pub limit: i64,
    pub stride: i64,
}

pub fn slice_dims(c: &mut Cursor<'_>) -> Result<Vec<SliceDim>> {
    c.expect("{")?;
    let mut out = Vec::new();
    if c.eat("}") {
        return Ok(out);
    }
    loop {
        c.expect("[")?;
        let start = c.int()?;
        c.expect(":")?;
        let limit = c.int()?;
        let stride = if c.eat(":") { c.int()? } else { 1 };
        c.expect("]")?;
        out.push(SliceDim {
            start,
            limit,
            stride,
        });
        if c.eat("}") {
            return Ok(out);
        }
        c.expect(",")?;
    }
}

/// The three layouts of `dim_labels=b01f_01io->b01f`.
pub struct DimLabels {
    pub input: Labels,
    pub kernel: Labels,
    pub output: Labels,
}

/// Positions of the two named dimensions and of the spatial ones (in
/// spatial order `0`, `1`, ...).
pub struct Labels {
    pub first: i64,
    pub second: i64,
    pub spatial: Vec<i64>,
}

pub fn dim_labels(c: &mut Cursor<'_>) -> Result<DimLabels> {
    let (word, loc) = c.name("dimension labels like b01f_01io->b01f")?;
    c.expect("->")?;
    let (out_word, out_loc) = c.name("output dimension labels like b01f")?;
    let Some((lhs, rhs)) = word.split_once('_') else {
        return Err(Diagnostic::error(
            loc,
            format!("expected input and kernel labels separated by '_', found '{word}'"),
        ));
    };
    let input = labels(lhs, ['b', 'f'], loc)?;
    let kernel = labels(rhs, ['i', 'o'], loc)?;
    let output = labels(&out_word, ['b', 'f'], out_loc)?;
    if kernel.spatial.len() != input.spatial.len() || output.spatial.len() != input.spatial.len() {
        return Err(Diagnostic::error(
            loc,
            "input, kernel and output labels have different numbers of spatial dimensions",
        ));
    }
    Ok(DimLabels {
        input,
        kernel,
        output,
    })
}

/// One layout like `b01f`: each of `names` once, spatial digits 0..n once.
fn labels(word: &str, names: [char; 2], loc: Location) -> Result<Labels> {
    let bad = || {
        Diagnostic::error(
            loc,
            format!(
                "malformed dimension labels '{word}': expected '{}', '{}' and spatial digits 0..n, each once",
                names[0], names[1]
            ),
        )
    };
    let mut first = None;
    let mut second = None;
    let mut spatial: Vec<Option<i64>> = vec![None; word.len().saturating_sub(2)];
    for (pos, ch) in word.chars().enumerate() {
        let pos = pos as i64;
        let slot = match ch {
            _ if ch == names[0] => &mut first,
            _ if ch == names[1] => &mut second,
            _ => {
                let d = ch.to_digit(10).ok_or_else(bad)? as usize;
                spatial.get_mut(d).ok_or_else(bad)?
            }
        };
        if slot.replace(pos).is_some() {
            return Err(bad());
        }
    }
    let spatial: Option<Vec<i64>> = spatial.into_iter().collect();
    match (first, second, spatial) {
        (Some(first), Some(second), Some(spatial)) => Ok(Labels {
            first,
            second,
            spatial,
        }),
        _ => Err(bad()),
    }
}
