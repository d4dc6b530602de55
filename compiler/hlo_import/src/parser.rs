//! The syntax of an HLO module: header, computations and instructions, kept
//! as written (attribute values are spans interpreted by the op builders).
//!
//! ```text
//! HloModule name, entry_computation_layout={(f32[4]{0})->f32[4]{0}}
//! region_0.1 { ... }
//! ENTRY main.2 {
//!   a.1 = f32[4]{0} parameter(0)
//!   ROOT r.2 = f32[4]{0} add(a.1, a.1), metadata={...}
//! }
//! ```

use strata_diag::{Diagnostic, Location, Result};

use super::lexer::whole;
use super::lexer::{Cursor, Span};
use super::shapes::{Shape, parse_shape};

pub struct HloModule {
    pub name: String,
    pub loc: Location,
    pub entry_layout: Option<EntryLayout>,
    /// `replica_count=N` and `num_partitions=N`, if written.
    pub replica_count: Option<i64>,
    pub num_partitions: Option<i64>,
    pub computations: Vec<Computation>,
}

/// `entry_computation_layout={(params)->result}`: the entry's ABI.
pub struct EntryLayout {
    pub params: Vec<Shape>,
    pub result: Shape,
}

pub struct Computation {
    pub name: String,
    pub loc: Location,
    pub is_entry: bool,
    pub instrs: Vec<Instr>,
    /// Index of the `ROOT` instruction (the last one when none is marked).
    pub root: usize,
}

pub struct Instr {
    pub name: String,
    pub loc: Location,
    pub shape: Shape,
    pub opcode: String,
    pub opcode_loc: Location,
    pub operands: Vec<Operand>,
    /// What `parameter(...)` and `constant(...)` hold instead of operands.
    pub payload: Option<Span>,
    pub attrs: Vec<RawAttr>,
}

pub struct Operand {
    pub name: String,
    pub loc: Location,
}

pub struct RawAttr {
    pub name: String,
    pub loc: Location,
    pub value: Span,
}

impl Instr {
    pub fn attr(&self, name: &str) -> Option<&RawAttr> {
        self.attrs.iter().find(|a| a.name == name)
    }
}

pub fn parse_module(c: &mut Cursor<'_>) -> Result<HloModule> {
    c.skip_lines();
    let (keyword, kw_loc) = c.name("'HloModule'")?;
    if keyword != "HloModule" {
        return Err(Diagnostic::error(
            kw_loc,
            format!("expected 'HloModule', found '{keyword}'"),
        ));
    }
    let (name, loc) = c.name("a module name")?;
    let mut entry_layout = None;
    let mut replica_count = None;
    let mut num_partitions = None;
    // Other module attributes (schedules, aliasing, sharding propagation
    // flags) do not change what the entry computes.
    while c.eat(",") {
        let (key, _) = c.name("a module attribute")?;
        c.expect("=")?;
        let value = c.raw_value()?;
        match key.as_str() {
            "entry_computation_layout" => {
                entry_layout = Some(whole(&mut c.over(value), parse_entry_layout)?)
            }
            "replica_count" => replica_count = Some(device_count(&mut c.over(value))?),
            "num_partitions" => num_partitions = Some(device_count(&mut c.over(value))?),
            _ => {}
        }
    }
    let mut computations = Vec::new();
    loop {
        c.skip_lines();
        if c.at_end() {
            break;
        }
        if DEBUG_SECTIONS.iter().any(|s| c.line_is(s)) {
            skip_section(c);
            continue;
        }
        computations.push(parse_computation(c)?);
    }
    Ok(HloModule {
        name,
        loc,
        entry_layout,
        replica_count,
        num_partitions,
        computations,
    })
}

/// A positive device count that fits an `i32`.
fn device_count(c: &mut Cursor<'_>) -> Result<i64> {
    let loc = c.loc();
    let n = whole(c, |c| c.int())?;
    if !(1..=i64::from(i32::MAX)).contains(&n) {
        return Err(Diagnostic::error(loc, format!("invalid device count {n}")));
    }
    Ok(n)
}

/// Tables of source locations that newer XLA prints between the header
/// and the computations (`FileNames`, then `1 "f.py"` lines, ...).
const DEBUG_SECTIONS: &[&str] = &["FileNames", "FunctionNames", "FileLocations", "StackFrames"];

/// Skips a debug section: its title line and the lines up to a blank one.
fn skip_section(c: &mut Cursor<'_>) {
    c.skip_line();
    while !c.at_end() && !c.at_blank_line() {
        c.skip_line();
    }
}

fn parse_entry_layout(c: &mut Cursor<'_>) -> Result<EntryLayout> {
    c.expect("{")?;
    c.expect("(")?;
    let mut params = Vec::new();
    if !c.eat(")") {
        loop {
            params.push(parse_shape(c)?);
            if c.eat(")") {
                break;
            }
            c.expect(",")?;
        }
    }
    c.expect("->")?;
    let result = parse_shape(c)?;
    c.expect("}")?;
    Ok(EntryLayout { params, result })
}

/// `[ENTRY] name [(signature) -> shape] { instructions }`.
fn parse_computation(c: &mut Cursor<'_>) -> Result<Computation> {
    let (mut name, mut loc) = c.name("a computation name")?;
    let is_entry = name == "ENTRY";
    if is_entry {
        (name, loc) = c.name("the entry computation's name")?;
    }
    if c.starts_with("(") {
        c.skip_group()?;
    }
    if c.eat("->") {
        parse_shape(c)?;
    }
    c.expect("{")?;
    let mut instrs = Vec::new();
    let mut root = None;
    loop {
        c.skip_lines();
        if c.eat("}") {
            break;
        }
        if c.at_end() {
            return Err(Diagnostic::error(
                loc,
                format!("computation '{name}' is not closed with '}}'"),
            ));
        }
        let (instr, is_root) = parse_instruction(c)?;
        if is_root {
            if root.is_some() {
                return Err(Diagnostic::error(
                    instr.loc,
                    format!("computation '{name}' has more than one ROOT"),
                ));
            }
            root = Some(instrs.len());
        }
        instrs.push(instr);
    }
    if instrs.is_empty() {
        return Err(Diagnostic::error(
            loc,
            format!("computation '{name}' has no instructions"),
        ));
    }
    let root = root.unwrap_or(instrs.len() - 1);
    Ok(Computation {
        name,
        loc,
        is_entry,
        instrs,
        root,
    })
}

/// `[ROOT] name = shape opcode(operands)[, attr=value]...`, one per line.
fn parse_instruction(c: &mut Cursor<'_>) -> Result<(Instr, bool)> {
    let (mut name, mut loc) = c.name("an instruction name")?;
    let is_root = name == "ROOT";
    if is_root {
        (name, loc) = c.name("an instruction name")?;
    }
    c.expect("=")?;
    let shape = parse_shape(c)?;
    let (opcode, opcode_loc) = c.name("an opcode")?;
    let (operands, payload) = if opcode == "parameter" || opcode == "constant" {
        if !c.starts_with("(") {
            return Err(c.expected("'('"));
        }
        let group = c.raw_group()?;
        c.pos = group.end;
        let inner = Span {
            start: group.start + 1,
            end: group.end - 1,
        };
        (Vec::new(), Some(inner))
    } else {
        (parse_operands(c)?, None)
    };
    let mut attrs = Vec::new();
    while c.eat(",") {
        let (attr_name, attr_loc) = c.name("an attribute name")?;
        c.expect("=")?;
        let value = c.raw_value()?;
        attrs.push(RawAttr {
            name: attr_name,
            loc: attr_loc,
            value,
        });
    }
    if !c.at_line_end() {
        return Err(c.expected("',' or the end of the instruction"));
    }
    let instr = Instr {
        name,
        loc,
        shape,
        opcode,
        opcode_loc,
        operands,
        payload,
        attrs,
    };
    Ok((instr, is_root))
}

/// `(a, b)`, also in the long form with shapes: `(f32[4] a, f32[4] b)`.
fn parse_operands(c: &mut Cursor<'_>) -> Result<Vec<Operand>> {
    c.expect("(")?;
    let mut out = Vec::new();
    if c.eat(")") {
        return Ok(out);
    }
    loop {
        out.push(parse_operand(c)?);
        if c.eat(")") {
            return Ok(out);
        }
        c.expect(",")?;
    }
}

fn parse_operand(c: &mut Cursor<'_>) -> Result<Operand> {
    if c.starts_with("(") {
        parse_shape(c)?;
        return name_operand(c);
    }
    let save = c.pos;
    let (name, loc) = c.name("an operand name")?;
    let has_shape = c.starts_with("[") && super::shapes::ElemType::parse(&name).is_some()
        || name == "token" && c.starts_with("[");
    if has_shape {
        c.pos = save;
        parse_shape(c)?;
        return name_operand(c);
    }
    Ok(Operand { name, loc })
}

fn name_operand(c: &mut Cursor<'_>) -> Result<Operand> {
    let (name, loc) = c.name("an operand name")?;
    Ok(Operand { name, loc })
}
