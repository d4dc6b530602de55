//! Prints the decoded IR as StableHLO text: `module` and `func.func` in the
//! pretty form JAX prints (the form the IR parser reads for them), every
//! other op in MLIR's generic form, locations as `#locN` aliases defined
//! after the module.

use std::fmt::Write as _;

use super::text::{Text, key, quote, symbol};
use crate::bytecode::cursor::Cursor;
use crate::bytecode::ir::{Block, Op, Props, Region, ValueId};
use crate::error::{Result, err};
use crate::vhlo::convert::{self, Named};
use crate::vhlo::decode::Tables;
use crate::vhlo::model::*;
use crate::vhlo::ops;

/// An op's attributes: (inherent by name, discardable as name/value pairs).
type OpAttrs = (Vec<(&'static str, AttrId)>, Vec<(AttrId, AttrId)>);

pub struct Printer<'f, 'a> {
    pub t: Tables<'f, 'a>,
    pub out: String,
    pub limit: usize,
    /// Printed name of each value, once its definition is printed.
    names: Vec<Option<String>>,
    value_types: Vec<Option<TypeId>>,
    next_name: u64,
    /// Location attributes to define after the module, in definition order.
    locs: Vec<AttrId>,
    loc_state: Vec<u8>,
}

/// What encloses an op (decides `func.return` vs `stablehlo.return`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Parent {
    Top,
    Module,
    Func,
    Other,
}

impl<'f, 'a> Printer<'f, 'a> {
    pub fn new(t: Tables<'f, 'a>, limit: usize) -> Self {
        let n_attrs = t.file.attrs.len();
        Printer {
            t,
            out: String::new(),
            limit,
            names: Vec::new(),
            value_types: Vec::new(),
            next_name: 0,
            locs: Vec::new(),
            loc_state: vec![0; n_attrs],
        }
    }

    fn text(&self) -> Text<'_, 'f, 'a> {
        Text {
            t: &self.t,
            limit: self.limit,
        }
    }

    fn cur(&self, op: &Op) -> Cursor<'a> {
        Cursor::new(&[], op.offset)
    }

    /// Prints the top-level block (one `builtin.module`, normally).
    pub fn top(&mut self, block: &Block) -> Result<()> {
        let is_module = |op: &Op| {
            self.op_name(op)
                .map(|(d, n)| d == b"builtin" && n == b"module")
        };
        let single_module = block.ops.len() == 1
            && block
                .ops
                .first()
                .map(is_module)
                .transpose()?
                .unwrap_or(false);
        if single_module {
            for op in &block.ops {
                self.op(op, 0, Parent::Top)?;
            }
        } else {
            self.out.push_str("module {\n");
            for op in &block.ops {
                self.op(op, 1, Parent::Module)?;
            }
            self.out.push_str("}\n");
        }
        self.loc_defs()
    }

    fn op_name(&self, op: &Op) -> Result<(&[u8], &[u8])> {
        match self.t.file.op_names.get(op.name) {
            Some(n) => Ok((self.t.file.dialect_name(n.dialect), n.name.as_slice())),
            None => self.cur(op).error("operation name out of range"),
        }
    }

    fn op(&mut self, op: &Op, ind: usize, parent: Parent) -> Result<()> {
        self.text().check(&self.out)?;
        if !op.successors.is_empty() {
            return self
                .cur(op)
                .error("operations with successor blocks are not supported");
        }
        let (dialect, name) = self.op_name(op)?;
        let (dialect, name) = (dialect.to_vec(), name.to_vec());
        match (dialect.as_slice(), name.as_slice()) {
            (b"builtin", b"module") => self.module(op, ind),
            (b"vhlo", b"func_v1") => self.func(op, ind),
            (b"vhlo", n) => self.vhlo_op(op, n, ind, parent),
            (d, n) => {
                let full = format!(
                    "{}.{}",
                    String::from_utf8_lossy(d),
                    String::from_utf8_lossy(n)
                );
                self.cur(op).error(format!(
                    "operation '{full}' is not part of StableHLO's VHLO dialect"
                ))
            }
        }
    }

    /// The op's attributes by name: (inherent, discardable).
    fn named_attrs(
        &mut self,
        op: &Op,
        inherent: &[&'static str],
        optional: bool,
    ) -> Result<OpAttrs> {
        let c = self.cur(op);
        let mut own = Vec::new();
        let mut other = Vec::new();
        match op.props {
            Props::Native(i) => {
                let Some(mut r) = self.t.file.properties.get(i).copied() else {
                    return c.error("properties index out of range");
                };
                // ODS writes native properties sorted by attribute name.
                let mut sorted = inherent.to_vec();
                sorted.sort_unstable();
                for name in sorted {
                    let at = r;
                    let (id, present) = if optional {
                        r.varint_flag()?
                    } else {
                        (r.varint()?, true)
                    };
                    if present {
                        own.push((name, self.t.attr_at(&at, id, 0)?));
                    }
                }
                if !r.is_empty() {
                    return r.error("trailing bytes in operation properties");
                }
            }
            Props::Attr(id) => self.split_dict(&c, id, inherent, &mut own, &mut other)?,
            Props::None => {}
        }
        if let Some(id) = op.attrs {
            self.split_dict(&c, id, inherent, &mut own, &mut other)?;
        }
        Ok((own, other))
    }

    fn split_dict(
        &mut self,
        c: &Cursor<'_>,
        id: u64,
        inherent: &[&'static str],
        own: &mut Vec<(&'static str, AttrId)>,
        other: &mut Vec<(AttrId, AttrId)>,
    ) -> Result<()> {
        let d = self.t.attr_at(c, id, 0)?;
        let Attr::Dict(entries) = self.t.attr(d).clone() else {
            return c.error("operation attributes are not a dictionary");
        };
        for (k, v) in entries {
            let Attr::Str(name) = self.t.attr(k) else {
                return c.error("attribute name is not a string");
            };
            match inherent.iter().find(|n| n.as_bytes() == name.as_slice()) {
                Some(n) => own.push((n, v)),
                None => other.push((k, v)),
            }
        }
        Ok(())
    }

    fn module(&mut self, op: &Op, ind: usize) -> Result<()> {
        let (own, other) = self.named_attrs(op, &["sym_name", "sym_visibility"], true)?;
        pad(&mut self.out, ind);
        self.out.push_str("module");
        if let Some((_, a)) = own.iter().find(|(n, _)| *n == "sym_name") {
            let Attr::Str(s) = self.t.attr(*a) else {
                return self.cur(op).error("module name is not a string");
            };
            self.out.push(' ');
            symbol(&mut self.out, s);
        }
        if !other.is_empty() {
            self.out.push_str(" attributes ");
            self.dict(&other)?;
        }
        self.out.push_str(" {\n");
        for region in &op.regions {
            for block in &region.blocks {
                for inner in &block.ops {
                    self.op(inner, ind + 1, Parent::Module)?;
                }
            }
        }
        pad(&mut self.out, ind);
        self.out.push('}');
        self.loc(&self.cur(op), op.loc)?;
        self.out.push('\n');
        Ok(())
    }

    /// `{k = v, ...}` from (name, value) attribute pairs.
    fn dict(&mut self, entries: &[(AttrId, AttrId)]) -> Result<()> {
        let mut s = String::from("{");
        for (i, (k, v)) in entries.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            self.text().dict_entry(&mut s, *k, *v, 0)?;
        }
        s.push('}');
        self.out.push_str(&s);
        Ok(())
    }

    fn func(&mut self, op: &Op, ind: usize) -> Result<()> {
        let c = self.cur(op);
        let Some(def) = ops::lookup(b"func_v1") else {
            return c.error("func_v1 missing from the op table");
        };
        let (own, other) = self.named_attrs(op, def.attrs, false)?;
        let get = |n: &str| own.iter().find(|(k, _)| *k == n).map(|(_, a)| *a);
        let Some(Attr::Str(name)) = get("sym_name").map(|a| self.t.attr(a).clone()) else {
            return c.error("vhlo.func_v1 has no name");
        };
        let fty = get("function_type").map(|a| self.t.attr(a).clone());
        let Some(Attr::Type(fty)) = fty else {
            return c.error("vhlo.func_v1 has no function type");
        };
        let Type::Function(ins, outs) = self.t.ty(fty).clone() else {
            return c.error("vhlo.func_v1's type is not a function type");
        };
        let arg_attrs = self.dict_list(&c, get("arg_attrs"))?;
        let res_attrs = self.dict_list(&c, get("res_attrs"))?;
        pad(&mut self.out, ind);
        self.out.push_str("func.func ");
        if let Some(Attr::Str(v)) = get("sym_visibility").map(|a| self.t.attr(a))
            && !v.is_empty()
        {
            if !super::text::is_bare_identifier(v) {
                return c.error("function visibility is not an identifier");
            }
            self.out.push_str(&String::from_utf8_lossy(v));
            self.out.push(' ');
        }
        symbol(&mut self.out, &name);
        let entry = op.regions.first().and_then(|r| r.blocks.first());
        if entry.is_some_and(|b| b.args.len() != ins.len()) {
            return c.error("function arguments do not match its type");
        }
        self.out.push('(');
        for (i, t) in ins.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            if let Some((v, _, loc)) = entry.and_then(|b| b.args.get(i)) {
                let n = self.define(*v, None, *t)?;
                self.out.push_str(&n);
                self.out.push_str(": ");
                self.ty(*t)?;
                self.arg_dict(arg_attrs.get(i))?;
                if let Some(l) = loc {
                    self.arg_loc(&c, *l)?;
                }
            } else {
                self.ty(*t)?;
                self.arg_dict(arg_attrs.get(i))?;
            }
        }
        self.out.push_str(") -> (");
        for (i, t) in outs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.ty(*t)?;
            self.arg_dict(res_attrs.get(i))?;
        }
        self.out.push(')');
        if !other.is_empty() {
            self.out.push_str(" attributes ");
            self.dict(&other)?;
        }
        if let Some(region) = op.regions.first().filter(|r| !r.blocks.is_empty()) {
            self.out.push_str(" {\n");
            self.blocks(region, ind + 1, Parent::Func, true)?;
            pad(&mut self.out, ind);
            self.out.push('}');
        }
        self.loc(&c, op.loc)?;
        self.out.push('\n');
        Ok(())
    }

    /// `arg_attrs` / `res_attrs`: an array of dictionaries (or absent).
    fn dict_list(&self, c: &Cursor<'_>, a: Option<AttrId>) -> Result<Vec<Vec<(AttrId, AttrId)>>> {
        let Some(a) = a else { return Ok(Vec::new()) };
        let Attr::Array(items) = self.t.attr(a) else {
            return c.error("argument attributes are not an array");
        };
        items
            .iter()
            .map(|d| match self.t.attr(*d) {
                Attr::Dict(e) => Ok(e.clone()),
                _ => c.error("argument attributes are not dictionaries"),
            })
            .collect()
    }

    fn arg_dict(&mut self, d: Option<&Vec<(AttrId, AttrId)>>) -> Result<()> {
        if let Some(d) = d.filter(|d| !d.is_empty()) {
            self.out.push(' ');
            self.dict(d)?;
        }
        Ok(())
    }

    fn ty(&mut self, t: TypeId) -> Result<()> {
        let mut s = String::new();
        self.text().ty(&mut s, t)?;
        self.out.push_str(&s);
        Ok(())
    }

    /// Resolves and prints a list of types given by table index.
    fn types(&mut self, c: &Cursor<'_>, ts: &[u64]) -> Result<()> {
        for (i, t) in ts.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let t = self.t.type_at(c, *t, 0)?;
            self.ty(t)?;
        }
        Ok(())
    }

    fn vhlo_op(&mut self, op: &Op, vname: &[u8], ind: usize, parent: Parent) -> Result<()> {
        let c = self.cur(op);
        let Some(def) = ops::lookup(vname) else {
            let shown = String::from_utf8_lossy(vname);
            let newer = shown
                .rsplit_once("_v")
                .is_some_and(|(b, _)| ops::lookup(format!("{b}_v1").as_bytes()).is_some());
            let what = if newer {
                "is newer than this reader supports"
            } else {
                "is unknown to this reader"
            };
            return c.error(format!(
                "vhlo.{shown} {what} (StableHLO {})",
                ops::MAX_VERSION
            ));
        };
        let (own, other) = self.named_attrs(op, def.attrs, false)?;
        let base = def.vhlo.rsplit_once("_v").map_or(def.vhlo, |(b, _)| b);
        let props: Named = convert::convert(&self.text(), base, &own)?;
        let name = match (base, parent) {
            ("return", Parent::Func) => "func.return",
            _ => def.name,
        };
        pad(&mut self.out, ind);
        self.results(op)?;
        let _ = write!(self.out, "\"{name}\"(");
        self.operands(op)?;
        self.out.push(')');
        if !props.is_empty() {
            self.out.push_str(" <{");
            named(&mut self.out, &props);
            self.out.push_str("}>");
        }
        if !op.regions.is_empty() {
            self.out.push_str(" (");
            for (i, r) in op.regions.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.out.push_str("{\n");
                self.blocks(r, ind + 1, Parent::Other, false)?;
                pad(&mut self.out, ind);
                self.out.push('}');
            }
            self.out.push(')');
        }
        if !other.is_empty() {
            self.out.push(' ');
            self.dict(&other)?;
        }
        self.out.push_str(" : (");
        let operand_types = self.operand_types(op)?;
        self.out.push_str(&operand_types);
        self.out.push_str(") -> (");
        let rts: Vec<u64> = op.results.iter().map(|r| r.1).collect();
        self.types(&c, &rts)?;
        self.out.push(')');
        self.loc(&c, op.loc)?;
        self.out.push('\n');
        Ok(())
    }

    fn results(&mut self, op: &Op) -> Result<()> {
        let n = op.results.len();
        if n == 0 {
            return Ok(());
        }
        let c = self.cur(op);
        let base = self.fresh();
        let group = if n == 1 {
            base.clone()
        } else {
            format!("{base}:{n}")
        };
        for (i, (v, t)) in op.results.iter().enumerate() {
            let name = if n == 1 {
                base.clone()
            } else {
                format!("{base}#{i}")
            };
            let t = self.t.type_at(&c, *t, 0)?;
            self.define(*v, Some(name), t)?;
        }
        self.out.push_str(&group);
        self.out.push_str(" = ");
        Ok(())
    }

    fn fresh(&mut self) -> String {
        let n = self.next_name;
        self.next_name += 1;
        format!("%{n}")
    }

    /// Names value `v` (a fresh name unless given one).
    fn define(&mut self, v: ValueId, name: Option<String>, ty: TypeId) -> Result<String> {
        let name = match name {
            Some(n) => n,
            None => self.fresh(),
        };
        let i = v as usize;
        if self.names.len() <= i {
            self.names.resize(i + 1, None);
        }
        if let Some(slot) = self.names.get_mut(i) {
            *slot = Some(name.clone());
        }
        if self.value_types.len() <= i {
            self.value_types.resize(i + 1, None);
        }
        if let Some(slot) = self.value_types.get_mut(i) {
            *slot = Some(ty);
        }
        Ok(name)
    }

    fn use_name(&self, c: &Cursor<'_>, v: ValueId) -> Result<&str> {
        match self.names.get(v as usize) {
            Some(Some(n)) => Ok(n),
            _ => c.error("an operand is used before its definition"),
        }
    }

    fn operands(&mut self, op: &Op) -> Result<()> {
        let c = self.cur(op);
        let mut s = String::new();
        for (i, v) in op.operands.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s.push_str(self.use_name(&c, *v)?);
        }
        self.out.push_str(&s);
        Ok(())
    }

    /// Operand types come from the definitions of the operands.
    fn operand_types(&mut self, op: &Op) -> Result<String> {
        let c = self.cur(op);
        let mut s = String::new();
        for (i, v) in op.operands.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            let Some(t) = self.value_types.get(*v as usize).copied().flatten() else {
                return c.error("operand type unknown");
            };
            self.text().ty(&mut s, t)?;
        }
        Ok(s)
    }

    fn blocks(&mut self, r: &Region, ind: usize, parent: Parent, func_entry: bool) -> Result<()> {
        for (bi, b) in r.blocks.iter().enumerate() {
            let header = bi > 0 || (!func_entry && !b.args.is_empty());
            if header {
                pad(&mut self.out, ind.saturating_sub(1));
                let _ = write!(self.out, "^bb{bi}");
                if !b.args.is_empty() {
                    self.out.push('(');
                    for (i, (v, t, loc)) in b.args.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        let c = Cursor::new(&[], 0);
                        let t = self.t.type_at(&c, *t, 0)?;
                        let n = self.define(*v, None, t)?;
                        self.out.push_str(&n);
                        self.out.push_str(": ");
                        self.ty(t)?;
                        if let Some(l) = loc {
                            self.loc(&c, *l)?;
                        }
                    }
                    self.out.push(')');
                }
                self.out.push_str(":\n");
            }
            for op in &b.ops {
                self.op(op, ind, parent)?;
            }
        }
        Ok(())
    }

    /// A function argument's location: a name location inline
    /// (` loc("params['w']")`, as JAX prints it: the name is the argument's
    /// pytree path, which a reader needs where the argument is declared),
    /// any other as an alias.
    fn arg_loc(&mut self, c: &Cursor<'_>, id: u64) -> Result<()> {
        let a = self.t.attr_at(c, id, 0)?;
        if let Attr::Loc(Loc::Name { name, .. }) = self.t.attr(a).clone() {
            self.out.push_str(" loc(");
            quote(&mut self.out, &name);
            self.out.push(')');
            return Ok(());
        }
        self.loc(c, id)
    }

    /// ` loc(#locN)`, recording N (and what it refers to) for definition.
    fn loc(&mut self, c: &Cursor<'_>, id: u64) -> Result<()> {
        let a = self.t.attr_at(c, id, 0)?;
        self.want_loc(a, 0)?;
        let _ = write!(self.out, " loc(#loc{a})");
        Ok(())
    }

    fn want_loc(&mut self, a: AttrId, depth: usize) -> Result<()> {
        match self.loc_state.get(a) {
            Some(0) => {}
            _ => return Ok(()),
        }
        if depth > 200 {
            return err(0, "locations nest too deeply");
        }
        if let Some(s) = self.loc_state.get_mut(a) {
            *s = 1;
        }
        let children: Vec<AttrId> = match self.t.attr(a) {
            Attr::Loc(Loc::Name { child, .. }) => vec![*child],
            Attr::Loc(Loc::CallSite { callee, caller }) => vec![*callee, *caller],
            Attr::Loc(Loc::Fused(v)) => v.clone(),
            _ => Vec::new(),
        };
        for ch in children {
            self.want_loc(ch, depth + 1)?;
        }
        self.locs.push(a);
        Ok(())
    }

    /// `#locN = loc(...)` for every location used, children first.
    fn loc_defs(&mut self) -> Result<()> {
        let locs = std::mem::take(&mut self.locs);
        for a in locs {
            let _ = write!(self.out, "#loc{a} = loc(");
            match self.t.attr(a).clone() {
                Attr::Loc(Loc::FileLineCol { file, line, col }) => {
                    quote(&mut self.out, &file);
                    let _ = write!(self.out, ":{line}:{col}");
                }
                Attr::Loc(Loc::Range { file, nums }) => {
                    quote(&mut self.out, &file);
                    range(&mut self.out, &nums);
                }
                Attr::Loc(Loc::Name { name, child }) => {
                    quote(&mut self.out, &name);
                    if !matches!(self.t.attr(child), Attr::Loc(Loc::Unknown)) {
                        let _ = write!(self.out, "(#loc{child})");
                    }
                }
                Attr::Loc(Loc::CallSite { callee, caller }) => {
                    let _ = write!(self.out, "callsite(#loc{callee} at #loc{caller})");
                }
                Attr::Loc(Loc::Fused(v)) => {
                    self.out.push_str("fused[");
                    for (i, l) in v.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        let _ = write!(self.out, "#loc{l}");
                    }
                    self.out.push(']');
                }
                _ => self.out.push_str("unknown"),
            }
            self.out.push_str(")\n");
            self.text().check(&self.out)?;
        }
        Ok(())
    }
}

/// `:line:col to ...` of a file range, from the 0-4 numbers it was written with.
fn range(o: &mut String, nums: &[u64]) {
    match nums {
        [] => o.push_str(":0:0"),
        [l] => {
            let _ = write!(o, ":{l}:0");
        }
        [l, c] => {
            let _ = write!(o, ":{l}:{c}");
        }
        [l, c, ec] => {
            let _ = write!(o, ":{l}:{c} to :{ec}");
        }
        [l, c, el, ec, ..] => {
            let _ = write!(o, ":{l}:{c} to {el}:{ec}");
        }
    }
}

fn pad(o: &mut String, ind: usize) {
    for _ in 0..ind.min(64) {
        o.push_str("  ");
    }
}

fn named(o: &mut String, items: &Named) {
    for (i, (k, v)) in items.iter().enumerate() {
        if i > 0 {
            o.push_str(", ");
        }
        key(o, k.as_bytes());
        o.push_str(" = ");
        o.push_str(v);
    }
}
