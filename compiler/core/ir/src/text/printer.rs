//! Printer: `builtin.module` and `func.func` in their pretty forms, every
//! other op in the generic form, so that printed IR always parses back.

use std::collections::HashMap;
use std::fmt::Write;

use crate::attrs::{Attr, AttrKind};
use crate::context::{BlockId, Context, OpId, RegionId, Value};
use crate::dense;
pub use crate::text::type_printer::type_to_string;
use crate::text::type_printer::{write_list, write_type};
use crate::types::{FloatKind, Type, TypeKind};

pub fn attr_to_string(ctx: &Context, a: Attr) -> String {
    let mut s = String::new();
    write_attr(ctx, a, &mut s);
    s
}

fn write_float(v: f64, s: &mut String) {
    if v.is_finite() {
        let t = format!("{v:?}");
        s.push_str(&t);
    } else {
        let _ = write!(s, "0x{:X}", v.to_bits());
    }
}

fn write_attr(ctx: &Context, a: Attr, s: &mut String) {
    match ctx.attr_kind(a) {
        AttrKind::Unit => s.push_str("unit"),
        AttrKind::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
        AttrKind::Int { value, ty } => {
            let _ = write!(s, "{value} : {}", type_to_string(ctx, *ty));
        }
        AttrKind::Float { bits, ty } => {
            let v = f64::from_bits(*bits);
            match ctx.types.kind(*ty) {
                TypeKind::Float(k) if !v.is_finite() && *k != FloatKind::F64 => {
                    let digits = (k.width() as usize).div_ceil(4);
                    let own = if v.is_nan() && bits & (1 << 50) != 0 {
                        bits & ((1u64 << k.width()) - 1)
                    } else {
                        dense::float_to_bits(v, *k)
                    };
                    let _ = write!(s, "0x{own:0digits$X}");
                }
                _ => write_float(v, s),
            }
            let _ = write!(s, " : {}", type_to_string(ctx, *ty));
        }
        AttrKind::String(v) => write_string(v, s),
        AttrKind::Type(t) => write_type(ctx, *t, s),
        AttrKind::Array(items) => {
            s.push('[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                write_attr(ctx, *x, s);
            }
            s.push(']');
        }
        AttrKind::DenseArray { elem, values } => {
            let _ = write!(s, "array<{}", type_to_string(ctx, *elem));
            if !values.is_empty() {
                s.push_str(": ");
                let bool_elem = ctx.types.is_bool(*elem);
                let items: Vec<String> = values
                    .iter()
                    .map(|v| {
                        if bool_elem {
                            (if *v != 0 { "true" } else { "false" }).to_string()
                        } else {
                            v.to_string()
                        }
                    })
                    .collect();
                s.push_str(&items.join(", "));
            }
            s.push('>');
        }
        AttrKind::Dense(d) => write_dense(ctx, d, s),
        AttrKind::SymbolRef(n) => write_symbol(n, s),
        AttrKind::Dict(items) => write_dict(ctx, items, s),
        AttrKind::Enum {
            dialect,
            name,
            value,
        } => {
            let _ = write!(s, "#{dialect}<{name} {value}>");
        }
        AttrKind::Struct { name, fields } => {
            let _ = write!(s, "#{name}<");
            for (i, (k, v)) in fields.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                let _ = write!(s, "{k} = ");
                write_attr(ctx, *v, s);
            }
            s.push('>');
        }
    }
}

/// `@name`, or `@"..."` (escaped as a string) when the name is not one
/// the lexer reads bare (a model file may name a function anything).
fn write_symbol(name: &str, s: &mut String) {
    s.push('@');
    if !name.is_empty() && name.bytes().all(crate::text::lexer::is_suffix_char) {
        s.push_str(name);
    } else {
        write_string(name, s);
    }
}

fn write_string(v: &str, s: &mut String) {
    s.push('"');
    for c in v.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\{:02X}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
}

fn write_dict(ctx: &Context, items: &[(String, Attr)], s: &mut String) {
    s.push('{');
    for (i, (k, v)) in items.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        // A key that is no identifier (`"a b"`, a JAX dimension variable
        // named by the user) is written as the string it was read from.
        if crate::text::lexer::is_bare_identifier(k) {
            s.push_str(k);
        } else {
            write_string(k, s);
        }
        if !matches!(ctx.attr_kind(*v), AttrKind::Unit) {
            s.push_str(" = ");
            write_attr(ctx, *v, s);
        }
    }
    s.push('}');
}

/// One scalar of a dense literal. f32/f64 print as shortest decimals that
/// round-trip; other float formats print as exact hex bit patterns.
fn write_scalar(ctx: &Context, bits: u64, ty: Type, s: &mut String) {
    match ctx.types.kind(ty) {
        TypeKind::Int { width: 1, .. } => s.push_str(if bits & 1 == 1 { "true" } else { "false" }),
        TypeKind::Int { .. } | TypeKind::Index => {
            let _ = write!(s, "{}", dense::int_value(ctx, bits, ty));
        }
        TypeKind::Float(FloatKind::F64) => write_float(f64::from_bits(bits), s),
        TypeKind::Float(FloatKind::F32) => {
            let v = f32::from_bits(bits as u32);
            if v.is_finite() {
                let _ = write!(s, "{v:?}");
            } else {
                let _ = write!(s, "0x{:08X}", bits);
            }
        }
        TypeKind::Float(k) => {
            let digits = (k.width() as usize).div_ceil(4);
            let _ = write!(s, "0x{:0digits$X}", bits);
        }
        _ => s.push('?'),
    }
}

fn write_element(ctx: &Context, d: &crate::attrs::DenseElements, i: usize, s: &mut String) {
    let elem = ctx.types.elem(d.ty);
    let bits = dense::element_bits(ctx, d, i);
    match ctx.types.kind(elem) {
        TypeKind::Complex(part) => {
            s.push('(');
            write_scalar(ctx, bits[0], *part, s);
            s.push_str(", ");
            write_scalar(ctx, bits[1], *part, s);
            s.push(')');
        }
        _ => write_scalar(ctx, bits[0], elem, s),
    }
}

fn write_dense(ctx: &Context, d: &crate::attrs::DenseElements, s: &mut String) {
    s.push_str("dense<");
    let shape = ctx
        .types
        .shape(d.ty)
        .map(|x| x.to_vec())
        .unwrap_or_default();
    if d.splat || shape.is_empty() {
        if !d.bits.is_empty() {
            write_element(ctx, d, 0, s);
        }
    } else {
        let mut index = 0;
        write_nested(ctx, d, &shape, &mut index, s);
    }
    let _ = write!(s, "> : {}", type_to_string(ctx, d.ty));
}

fn write_nested(
    ctx: &Context,
    d: &crate::attrs::DenseElements,
    shape: &[i64],
    index: &mut usize,
    s: &mut String,
) {
    s.push('[');
    for i in 0..shape[0] {
        if i > 0 {
            s.push_str(", ");
        }
        if shape.len() == 1 {
            write_element(ctx, d, *index, s);
            *index += 1;
        } else {
            write_nested(ctx, d, &shape[1..], index, s);
        }
    }
    s.push(']');
}

/// Prints an op (normally a module) and everything nested in it.
pub fn print_op(ctx: &Context, op: OpId) -> String {
    let mut p = Printer {
        ctx,
        out: String::new(),
        names: HashMap::new(),
        block_names: HashMap::new(),
        next: 0,
        next_arg: 0,
    };
    p.op(op, 0);
    p.out
}

struct Printer<'a> {
    ctx: &'a Context,
    out: String,
    names: HashMap<Value, String>,
    block_names: HashMap<BlockId, String>,
    next: usize,
    next_arg: usize,
}

impl Printer<'_> {
    fn indent(&mut self, n: usize) {
        for _ in 0..n {
            self.out.push_str("  ");
        }
    }

    fn name(&self, v: Value) -> String {
        self.names
            .get(&v)
            .cloned()
            .unwrap_or_else(|| "%<<UNKNOWN>>".into())
    }

    fn op(&mut self, op: OpId, depth: usize) {
        let o = self.ctx.op(op);
        match o.name {
            "builtin.module" => self.module(op, depth),
            "func.func" => self.func(op, depth),
            _ => self.generic(op, depth),
        }
    }

    fn module(&mut self, op: OpId, depth: usize) {
        self.indent(depth);
        self.out.push_str("module");
        if let Some(a) = self.ctx.attr_of(op, "sym_name")
            && let AttrKind::String(n) = self.ctx.attr_kind(a)
        {
            self.out.push(' ');
            write_symbol(n, &mut self.out);
        }
        let other: Vec<(String, Attr)> = self
            .ctx
            .op(op)
            .attrs
            .iter()
            .filter(|(k, _)| k != "sym_name")
            .cloned()
            .collect();
        if !other.is_empty() {
            self.out.push_str(" attributes ");
            write_dict(self.ctx, &other, &mut self.out);
        }
        self.out.push_str(" {\n");
        if let Some(b) = self.ctx.entry_block(op, 0) {
            for &o in &self.ctx.blocks[b].ops.clone() {
                self.op(o, depth + 1);
            }
        }
        self.indent(depth);
        self.out.push_str("}\n");
    }

    fn func(&mut self, op: OpId, depth: usize) {
        let ctx = self.ctx;
        let sym = match ctx.attr_of(op, "sym_name").map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::String(s)) => s.clone(),
            _ => "<<missing sym_name>>".into(),
        };
        let (inputs, results) = match ctx.attr_of(op, "function_type").map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::Type(t)) => match ctx.types.kind(*t) {
                TypeKind::Function { inputs, results } => (inputs.clone(), results.clone()),
                _ => (vec![], vec![]),
            },
            _ => (vec![], vec![]),
        };
        let vis = match ctx.attr_of(op, "sym_visibility").map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::String(s)) => format!("{s} "),
            _ => String::new(),
        };
        self.indent(depth);
        let _ = write!(self.out, "func.func {vis}");
        write_symbol(&sym, &mut self.out);
        self.out.push('(');
        let saved = (std::mem::take(&mut self.names), self.next, self.next_arg);
        self.next = 0;
        self.next_arg = 0;
        let entry = ctx.entry_block(op, 0);
        for (i, t) in inputs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            match entry {
                Some(b) => {
                    let v = ctx.blocks[b].args[i];
                    let n = format!("%arg{i}");
                    self.names.insert(v, n.clone());
                    let _ = write!(self.out, "{n}: {}", type_to_string(ctx, *t));
                }
                None => self.out.push_str(&type_to_string(ctx, *t)),
            }
        }
        self.next_arg = inputs.len();
        self.out.push(')');
        if !results.is_empty() {
            self.out.push_str(" -> ");
            if results.len() == 1 {
                self.out.push_str(&type_to_string(ctx, results[0]));
            } else {
                self.out.push('(');
                let mut s = String::new();
                write_list(ctx, &results, &mut s);
                self.out.push_str(&s);
                self.out.push(')');
            }
        }
        let other: Vec<(String, Attr)> = ctx
            .op(op)
            .attrs
            .iter()
            .filter(|(k, _)| k != "sym_name" && k != "function_type" && k != "sym_visibility")
            .cloned()
            .collect();
        if !other.is_empty() {
            self.out.push_str(" attributes ");
            write_dict(ctx, &other, &mut self.out);
        }
        if let Some(&r) = ctx.op(op).regions.first() {
            self.out.push(' ');
            self.region(r, depth, true);
        }
        self.out.push('\n');
        (self.names, self.next, self.next_arg) = saved;
    }

    fn region(&mut self, r: RegionId, depth: usize, skip_entry_label: bool) {
        let ctx = self.ctx;
        self.out.push_str("{\n");
        let blocks = ctx.regions[r].blocks.clone();
        for &b in &blocks {
            let n = format!("^bb{}", self.block_names.len());
            self.block_names.insert(b, n);
        }
        for (i, &b) in blocks.iter().enumerate() {
            let args = ctx.blocks[b].args.clone();
            if !(i == 0 && skip_entry_label) {
                self.indent(depth);
                let label = self.block_names[&b].clone();
                self.out.push_str(&label);
                if !args.is_empty() {
                    self.out.push('(');
                    for (j, &a) in args.iter().enumerate() {
                        if j > 0 {
                            self.out.push_str(", ");
                        }
                        let n = format!("%arg{}", self.next_arg);
                        self.next_arg += 1;
                        self.names.insert(a, n.clone());
                        let _ = write!(self.out, "{n}: {}", type_to_string(ctx, ctx.value_ty(a)));
                    }
                    self.out.push(')');
                }
                self.out.push_str(":\n");
            }
            for &o in &ctx.blocks[b].ops {
                self.op(o, depth + 1);
            }
        }
        self.indent(depth);
        self.out.push('}');
    }

    fn generic(&mut self, op: OpId, depth: usize) {
        let ctx = self.ctx;
        let o = ctx.op(op);
        self.indent(depth);
        if !o.results.is_empty() {
            let base = self.next;
            self.next += 1;
            if o.results.len() == 1 {
                self.names.insert(o.results[0], format!("%{base}"));
                let _ = write!(self.out, "%{base} = ");
            } else {
                for (i, &r) in o.results.iter().enumerate() {
                    self.names.insert(r, format!("%{base}#{i}"));
                }
                let _ = write!(self.out, "%{base}:{} = ", o.results.len());
            }
        }
        let _ = write!(self.out, "\"{}\"(", o.name);
        let operands: Vec<String> = o.operands().iter().map(|&v| self.name(v)).collect();
        self.out.push_str(&operands.join(", "));
        self.out.push(')');
        if !o.successors.is_empty() {
            let succ: Vec<String> = o
                .successors
                .iter()
                .map(|b| {
                    self.block_names
                        .get(b)
                        .cloned()
                        .unwrap_or_else(|| "^bb?".into())
                })
                .collect();
            let _ = write!(self.out, "[{}]", succ.join(", "));
        }
        if !o.regions.is_empty() {
            self.out.push_str(" (");
            for (i, &r) in o.regions.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.region_generic(r, depth + 1);
            }
            self.out.push(')');
        }
        if !o.attrs.is_empty() {
            self.out.push(' ');
            write_dict(ctx, &o.attrs, &mut self.out);
        }
        let ins: Vec<Type> = o.operands().iter().map(|&v| ctx.value_ty(v)).collect();
        let outs: Vec<Type> = o.results.iter().map(|&v| ctx.value_ty(v)).collect();
        self.out.push_str(" : (");
        write_list(ctx, &ins, &mut self.out);
        self.out.push_str(") -> ");
        if outs.len() == 1 && !matches!(ctx.types.kind(outs[0]), TypeKind::Function { .. }) {
            write_type(ctx, outs[0], &mut self.out);
        } else {
            self.out.push('(');
            write_list(ctx, &outs, &mut self.out);
            self.out.push(')');
        }
        self.out.push('\n');
    }

    /// Region of a generic op: always labels its blocks (the entry block
    /// needs its arguments spelled).
    fn region_generic(&mut self, r: RegionId, depth: usize) {
        let ctx = self.ctx;
        let entry_has_args = ctx.regions[r]
            .blocks
            .first()
            .is_some_and(|&b| !ctx.blocks[b].args.is_empty());
        let multi = ctx.regions[r].blocks.len() > 1;
        self.region(r, depth, !(entry_has_args || multi));
    }
}
