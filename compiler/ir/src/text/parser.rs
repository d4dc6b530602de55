//! Parser for the MLIR-style text form: the generic syntax for every op,
//! plus the pretty forms that dialects register as hooks.

use std::collections::HashMap;

use strata_diag::{Diagnostic, Location, Result};

use crate::attrs::{Attr, AttrKind};
use crate::context::{BlockId, Context, OpId, RegionId, Value};
use crate::dense::{self, Literal};
use crate::registry::Traits;
use crate::text::lexer::{Lexer, Tok};
use crate::types::{FloatKind, Signedness, Type, TypeKind};

/// Largest element count of a shaped type (keeps every byte size and
/// linearized index far from overflowing 64 bits).
pub const MAX_ELEMENTS: i64 = 1 << 48;

/// An op being parsed: what a pretty-form hook fills in.
pub struct OpState {
    pub name: &'static str,
    pub loc: Location,
    pub operands: Vec<Value>,
    pub result_types: Vec<Type>,
    pub attrs: Vec<(String, Attr)>,
    pub regions: Vec<RegionId>,
    pub successors: Vec<BlockId>,
}

impl OpState {
    pub fn add_attr(&mut self, name: &str, a: Attr) {
        self.attrs.push((name.to_string(), a));
    }
}

pub struct Parser<'a> {
    pub ctx: &'a mut Context,
    lex: Lexer<'a>,
    tok: Tok,
    tok_start: usize,
    tok_end: usize,
    /// Value names visible at this point, innermost scope last. A `None`
    /// entry is a barrier: lookups stop there (isolated regions).
    scopes: Vec<Option<HashMap<String, Value>>>,
    /// Block labels of the regions being parsed, innermost last.
    block_scopes: Vec<HashMap<String, BlockId>>,
    attr_aliases: HashMap<String, Attr>,
    /// Current nesting of types, literals, attributes and regions.
    depth: usize,
}

/// Deepest nesting the parser accepts (types, literals, attributes, regions).
pub const MAX_NESTING: usize = 256;

/// Parses a whole file into a `builtin.module` op. A file without a
/// top-level `module` gets one wrapped around its ops.
pub fn parse_module(ctx: &mut Context, name: &str, text: &str) -> Result<OpId> {
    let file = ctx.sources.add(name, text);
    let mut p = Parser::new(ctx, text, file, 0);
    p.parse_top_level()
}

/// The f64 bits holding a float attribute's value. NaN payloads of the
/// attribute's type are carried in the f64 NaN's low mantissa bits, so that
/// printing gives back the same pattern.
fn f64_bits_preserving_nan(v: f64, bits: u64, k: FloatKind) -> u64 {
    if v.is_nan() && k != FloatKind::F64 { 0x7FF8_0000_0000_0000 | (1 << 50) | bits } else { v.to_bits() }
}

/// Parses one attribute (like `dense<[1, 2]> : tensor<2xi32>`) from `text`.
pub fn parse_attribute(ctx: &mut Context, name: &str, text: &str) -> Result<Attr> {
    let file = ctx.sources.add(name, text);
    let mut p = Parser::new(ctx, text, file, 0);
    let a = p.parse_attr()?;
    if !matches!(p.peek(), Tok::Eof) {
        return Err(p.expected("end of attribute"));
    }
    Ok(a)
}

impl<'a> Parser<'a> {
    fn new(ctx: &'a mut Context, src: &'a str, file: strata_diag::FileId, offset: usize) -> Parser<'a> {
        let lex = Lexer::new(src, file);
        let (tok, s, e) = lex.lex(offset);
        Parser {
            ctx,
            lex,
            tok,
            tok_start: s,
            tok_end: e,
            scopes: vec![Some(HashMap::new())],
            block_scopes: Vec::new(),
            attr_aliases: HashMap::new(),
            depth: 0,
        }
    }

    /// Runs `f` one nesting level deeper, failing past `MAX_NESTING`.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_NESTING {
            return Err(self.error(format!("nesting is too deep (more than {MAX_NESTING} levels)")));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    // ---- token plumbing ----

    pub fn peek(&self) -> &Tok {
        &self.tok
    }
    pub fn loc(&self) -> Location {
        self.lex.location(self.tok_start)
    }
    pub fn advance(&mut self) -> Tok {
        let (tok, s, e) = self.lex.lex(self.tok_end);
        self.tok_start = s;
        self.tok_end = e;
        std::mem::replace(&mut self.tok, tok)
    }
    pub fn error(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.loc(), msg)
    }
    fn expected(&self, what: &str) -> Diagnostic {
        match &self.tok {
            Tok::Bad(c) => self.error(format!("unexpected character {c:?} (expected {what})")),
            t => self.error(format!("expected {what}, found {}", t.describe())),
        }
    }
    pub fn is_punct(&self, p: &str) -> bool {
        matches!(&self.tok, Tok::Punct(q) if *q == p)
    }
    pub fn consume_punct(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.advance();
            true
        } else {
            false
        }
    }
    pub fn expect_punct(&mut self, p: &str) -> Result<()> {
        if self.consume_punct(p) { Ok(()) } else { Err(self.expected(&format!("'{p}'"))) }
    }
    pub fn is_keyword(&self, kw: &str) -> bool {
        matches!(&self.tok, Tok::Ident(s) if s == kw)
    }
    pub fn consume_keyword(&mut self, kw: &str) -> bool {
        if self.is_keyword(kw) {
            self.advance();
            true
        } else {
            false
        }
    }
    pub fn expect_keyword(&mut self, kw: &str) -> Result<()> {
        if self.consume_keyword(kw) { Ok(()) } else { Err(self.expected(&format!("'{kw}'"))) }
    }
    pub fn parse_ident(&mut self) -> Result<String> {
        match self.advance_if(|t| matches!(t, Tok::Ident(_))) {
            Some(Tok::Ident(s)) => Ok(s),
            _ => Err(self.expected("identifier")),
        }
    }
    fn advance_if(&mut self, f: impl Fn(&Tok) -> bool) -> Option<Tok> {
        if f(&self.tok) { Some(self.advance()) } else { None }
    }

    /// Skips a trailing `loc(...)` (debug locations JAX may print).
    fn skip_loc(&mut self) -> Result<()> {
        if self.is_keyword("loc") {
            self.advance();
            self.skip_balanced_parens()?;
        }
        Ok(())
    }
    fn skip_balanced_parens(&mut self) -> Result<()> {
        self.expect_punct("(")?;
        let mut depth = 1;
        while depth > 0 {
            match self.advance() {
                Tok::Punct("(") => depth += 1,
                Tok::Punct(")") => depth -= 1,
                Tok::Eof => return Err(self.error("unterminated 'loc(' location")),
                _ => {}
            }
        }
        Ok(())
    }

    // ---- top level ----

    fn parse_top_level(&mut self) -> Result<OpId> {
        self.skip_alias_defs()?;
        let loc = self.loc();
        let module = if self.is_keyword("module") || self.is_keyword("builtin.module") {
            self.advance();
            let m = self.ctx.create_op("builtin.module", vec![], &[], vec![], loc);
            if let Tok::At(name) = self.peek().clone() {
                self.advance();
                let a = self.ctx.attr(AttrKind::String(name));
                self.ctx.set_attr(m, "sym_name", a);
            }
            if self.consume_keyword("attributes") {
                let mut attrs = Vec::new();
                self.parse_attr_dict(&mut attrs)?;
                for (k, v) in attrs {
                    self.ctx.set_attr(m, &k, v);
                }
            }
            let region = self.parse_region(&[], true)?;
            self.ctx.regions[region].parent = Some(m);
            self.ctx.ops[m].regions.push(region);
            self.skip_loc()?;
            m
        } else {
            let m = self.ctx.create_op("builtin.module", vec![], &[], vec![], loc);
            let region = self.ctx.add_region(m);
            let block = self.ctx.add_block(region, &[]);
            self.scopes.push(None);
            self.scopes.push(Some(HashMap::new()));
            while !matches!(self.peek(), Tok::Eof) {
                if matches!(self.peek(), Tok::Hash(_)) {
                    self.skip_alias_defs()?;
                    continue;
                }
                let op = self.parse_op()?;
                self.ctx.append_op(block, op);
            }
            self.scopes.pop();
            self.scopes.pop();
            m
        };
        self.skip_alias_defs()?;
        if !matches!(self.peek(), Tok::Eof) {
            return Err(self.expected("end of input"));
        }
        Ok(module)
    }

    /// `#name = <attr or loc(...)>` definitions.
    fn skip_alias_defs(&mut self) -> Result<()> {
        while let Tok::Hash(name) = self.peek().clone() {
            self.advance();
            self.expect_punct("=")?;
            if self.is_keyword("loc") {
                self.skip_loc()?;
            } else {
                let a = self.parse_attr()?;
                self.attr_aliases.insert(name, a);
            }
        }
        Ok(())
    }

    // ---- values ----

    fn lookup(&self, name: &str) -> Option<Value> {
        for s in self.scopes.iter().rev() {
            match s {
                Some(m) => {
                    if let Some(v) = m.get(name) {
                        return Some(*v);
                    }
                }
                None => return None,
            }
        }
        None
    }

    fn define(&mut self, name: String, v: Value, loc: Location) -> Result<()> {
        let scope = self.scopes.last_mut().and_then(|s| s.as_mut());
        let Some(scope) = scope else {
            return Err(Diagnostic::internal(loc, "no value scope"));
        };
        if scope.insert(name.clone(), v).is_some() {
            return Err(Diagnostic::error(loc, format!("redefinition of SSA value '%{name}'")));
        }
        Ok(())
    }

    /// `%name` use.
    pub fn parse_operand(&mut self) -> Result<Value> {
        let loc = self.loc();
        match self.peek().clone() {
            Tok::Percent(name) => {
                self.advance();
                let found = self.lookup(&name).or_else(|| {
                    // `%x#0` names result 0 of a single-result op `%x`.
                    name.strip_suffix("#0").and_then(|base| self.lookup(base))
                });
                found.ok_or_else(|| Diagnostic::error(loc, format!("use of undeclared SSA value name '%{name}'")))
            }
            _ => Err(self.expected("SSA value (like %0)")),
        }
    }

    /// Comma-separated operands; empty if the next token is not a value.
    pub fn parse_operands(&mut self) -> Result<Vec<Value>> {
        let mut v = Vec::new();
        if !matches!(self.peek(), Tok::Percent(_)) {
            return Ok(v);
        }
        loop {
            v.push(self.parse_operand()?);
            if !self.consume_punct(",") {
                return Ok(v);
            }
        }
    }

    // ---- ops ----

    /// Parses one op (with its result names) and returns it detached.
    pub fn parse_op(&mut self) -> Result<OpId> {
        let mut result_names: Vec<(String, Location)> = Vec::new();
        let mut result_groups: Vec<(String, usize, Location)> = Vec::new();
        if matches!(self.peek(), Tok::Percent(_)) {
            loop {
                let loc = self.loc();
                let Tok::Percent(name) = self.advance() else { return Err(self.expected("result name")) };
                let mut count = 1;
                if self.consume_punct(":") {
                    count = self.parse_usize()?;
                    if count == 0 {
                        return Err(Diagnostic::error(loc, "expected at least one result in a result group"));
                    }
                }
                result_groups.push((name, count, loc));
                if !self.consume_punct(",") {
                    break;
                }
                if !matches!(self.peek(), Tok::Percent(_)) {
                    return Err(self.expected("result name"));
                }
            }
            self.expect_punct("=")?;
        }
        let loc = self.loc();
        let (spelling, mut state) = match self.peek().clone() {
            Tok::Str(name) => {
                self.advance();
                let st = self.parse_generic_op(&name, loc)?;
                (name, st)
            }
            Tok::Ident(name) => {
                self.advance();
                let st = self.parse_custom_op(&name, loc)?;
                (name, st)
            }
            _ => return Err(self.expected("operation name")),
        };
        if let Some(fixup) = self.ctx.registry.fixup(&spelling) {
            fixup(self.ctx, &mut state);
        }
        self.skip_loc()?;
        let named: usize = result_groups.iter().fold(0usize, |n, g| n.saturating_add(g.1));
        if !result_groups.is_empty() && named != state.result_types.len() {
            return Err(Diagnostic::error(
                loc,
                format!("operation defines {} results but was provided {named} to bind", state.result_types.len()),
            ));
        }
        for (name, count, gloc) in &result_groups {
            if *count == 1 {
                result_names.push((name.clone(), *gloc));
            } else {
                for i in 0..*count {
                    result_names.push((format!("{name}#{i}"), *gloc));
                }
            }
        }
        let op = self.ctx.create_op(state.name, state.operands, &state.result_types, state.attrs, state.loc);
        for r in &state.regions {
            self.ctx.regions[*r].parent = Some(op);
        }
        self.ctx.ops[op].regions = state.regions;
        self.ctx.ops[op].successors = state.successors;
        let results = self.ctx.ops[op].results.clone();
        for ((name, nloc), v) in result_names.into_iter().zip(results) {
            self.define(name, v, nloc)?;
        }
        // Names for whole groups (`%0:2` is also reachable as `%0#i`) are
        // bound above; a single-result group is bound by its plain name.
        Ok(op)
    }

    fn new_state(&self, name: &str, loc: Location) -> Result<(OpState, Option<crate::registry::ParseFn>, Traits)> {
        let def = self
            .ctx
            .registry
            .resolve(name)
            .ok_or_else(|| Diagnostic::error(loc, format!("unknown operation '{name}'")))?;
        let state = OpState {
            name: def.name,
            loc,
            operands: Vec::new(),
            result_types: Vec::new(),
            attrs: Vec::new(),
            regions: Vec::new(),
            successors: Vec::new(),
        };
        Ok((state, def.parse, def.traits))
    }

    fn parse_generic_op(&mut self, name: &str, loc: Location) -> Result<OpState> {
        let (mut st, _, traits) = self.new_state(name, loc)?;
        self.expect_punct("(")?;
        st.operands = self.parse_operands()?;
        self.expect_punct(")")?;
        if self.consume_punct("[") {
            loop {
                st.successors.push(self.parse_successor()?);
                if !self.consume_punct(",") {
                    break;
                }
            }
            self.expect_punct("]")?;
        }
        if self.is_punct("<") {
            // `<{...}>` properties: held as ordinary attributes.
            self.advance();
            self.parse_attr_dict(&mut st.attrs)?;
            self.expect_punct(">")?;
        }
        if self.is_punct("(") {
            self.advance();
            loop {
                let r = self.parse_region(&[], traits.has(Traits::ISOLATED))?;
                st.regions.push(r);
                if !self.consume_punct(",") {
                    break;
                }
            }
            self.expect_punct(")")?;
        }
        if self.is_punct("{") {
            self.parse_attr_dict(&mut st.attrs)?;
        }
        self.expect_punct(":")?;
        let fty_loc = self.loc();
        let fty = self.parse_type()?;
        let TypeKind::Function { inputs, results } = self.ctx.kind(fty).clone() else {
            return Err(Diagnostic::error(fty_loc, "expected function type for generic operation"));
        };
        self.check_operand_types(&st.operands, &inputs, fty_loc)?;
        st.result_types = results;
        Ok(st)
    }

    /// Checks that parsed operands have the types a signature spells.
    pub fn check_operand_types(&self, operands: &[Value], types: &[Type], loc: Location) -> Result<()> {
        if operands.len() != types.len() {
            return Err(Diagnostic::error(
                loc,
                format!("{} operands present, but expected {}", operands.len(), types.len()),
            ));
        }
        for (i, (&v, &t)) in operands.iter().zip(types).enumerate() {
            let actual = self.ctx.value_ty(v);
            if actual != t {
                return Err(Diagnostic::error(
                    loc,
                    format!(
                        "use of value as operand #{i} expects type {} but the value has type {}",
                        crate::text::printer::type_to_string(self.ctx, t),
                        crate::text::printer::type_to_string(self.ctx, actual)
                    ),
                ));
            }
        }
        Ok(())
    }

    fn parse_custom_op(&mut self, name: &str, loc: Location) -> Result<OpState> {
        let (mut st, hook, _) = self.new_state(name, loc)?;
        let Some(hook) = hook else {
            return Err(Diagnostic::error(
                loc,
                format!("custom syntax for '{name}' is not supported; write it in the generic form \"{name}\"(...)"),
            ));
        };
        hook(self, &mut st)?;
        Ok(st)
    }

    fn parse_successor(&mut self) -> Result<BlockId> {
        let loc = self.loc();
        let Tok::Caret(name) = self.peek().clone() else { return Err(self.expected("block label")) };
        self.advance();
        self.block_by_name(&name, loc)
    }

    fn block_by_name(&mut self, name: &str, loc: Location) -> Result<BlockId> {
        let scope = self.block_scopes.last_mut().ok_or_else(|| Diagnostic::error(loc, "block reference outside a region"))?;
        if let Some(b) = scope.get(name) {
            return Ok(*b);
        }
        let b = self.ctx.blocks.alloc(crate::context::Block::default());
        scope.insert(name.to_string(), b);
        Ok(b)
    }

    // ---- regions ----

    /// Parses `{ ... }`. `entry_args` are pre-declared arguments of the entry
    /// block (pretty forms like `reducer(%a: t, %b: t) {...}` and function
    /// signatures). `isolated` hides outer values.
    pub fn parse_region(&mut self, entry_args: &[(String, Type, Location)], isolated: bool) -> Result<RegionId> {
        self.nested(|p| p.parse_region_nested(entry_args, isolated))
    }

    fn parse_region_nested(&mut self, entry_args: &[(String, Type, Location)], isolated: bool) -> Result<RegionId> {
        self.expect_punct("{")?;
        let region = self.ctx.regions.alloc(crate::context::Region::default());
        if isolated {
            self.scopes.push(None);
        }
        self.scopes.push(Some(HashMap::new()));
        self.block_scopes.push(HashMap::new());
        let result = self.parse_region_body(region, entry_args);
        self.block_scopes.pop();
        self.scopes.pop();
        if isolated {
            self.scopes.pop();
        }
        result?;
        Ok(region)
    }

    fn parse_region_body(&mut self, region: RegionId, entry_args: &[(String, Type, Location)]) -> Result<()> {
        let starts_with_label = matches!(self.peek(), Tok::Caret(_));
        if !starts_with_label && (self.is_punct("}") && entry_args.is_empty()) {
            self.advance();
            return Ok(());
        }
        let mut current = None;
        if !starts_with_label || !entry_args.is_empty() {
            let b = self.ctx.blocks.alloc(crate::context::Block::default());
            self.attach_block(region, b);
            for (name, ty, loc) in entry_args {
                let v = self.ctx.add_block_arg(b, *ty);
                self.define(name.clone(), v, *loc)?;
            }
            current = Some(b);
        }
        loop {
            match self.peek().clone() {
                Tok::Punct("}") => {
                    self.advance();
                    return Ok(());
                }
                Tok::Caret(name) => {
                    let loc = self.loc();
                    self.advance();
                    let b = self.block_by_name(&name, loc)?;
                    if self.ctx.blocks[b].parent.is_some() {
                        return Err(Diagnostic::error(loc, format!("redefinition of block '^{name}'")));
                    }
                    self.attach_block(region, b);
                    if self.consume_punct("(") {
                        if !self.is_punct(")") {
                            loop {
                                let aloc = self.loc();
                                let Tok::Percent(an) = self.peek().clone() else {
                                    return Err(self.expected("block argument name"));
                                };
                                self.advance();
                                self.expect_punct(":")?;
                                let ty = self.parse_type()?;
                                self.skip_loc()?;
                                let v = self.ctx.add_block_arg(b, ty);
                                self.define(an, v, aloc)?;
                                if !self.consume_punct(",") {
                                    break;
                                }
                            }
                        }
                        self.expect_punct(")")?;
                    }
                    self.expect_punct(":")?;
                    current = Some(b);
                }
                Tok::Eof => return Err(self.error("unexpected end of input: missing '}' to close a region")),
                _ => {
                    let Some(b) = current else { return Err(self.expected("block label")) };
                    let op = self.parse_op()?;
                    self.ctx.append_op(b, op);
                }
            }
        }
    }

    fn attach_block(&mut self, region: RegionId, b: BlockId) {
        self.ctx.blocks[b].parent = Some(region);
        self.ctx.regions[region].blocks.push(b);
    }

    // ---- types ----

    pub fn parse_type(&mut self) -> Result<Type> {
        self.nested(|p| p.parse_type_inner())
    }

    fn parse_type_inner(&mut self) -> Result<Type> {
        let loc = self.loc();
        match self.peek().clone() {
            Tok::Punct("(") => self.parse_function_type(),
            Tok::Bang(name) => {
                self.advance();
                match name.as_str() {
                    "stablehlo.token" | "mhlo.token" | "xla.token" => Ok(self.ctx.ty(TypeKind::Token)),
                    _ => Err(Diagnostic::error(loc, format!("unknown type '!{name}'"))),
                }
            }
            Tok::Ident(name) => {
                self.advance();
                self.parse_named_type(&name, loc)
            }
            _ => Err(self.expected("type")),
        }
    }

    fn parse_named_type(&mut self, name: &str, loc: Location) -> Result<Type> {
        if let Some(k) = FloatKind::from_name(name) {
            return Ok(self.ctx.float_ty(k));
        }
        if name == "index" {
            return Ok(self.ctx.index_ty());
        }
        let int = |prefix: &str, sign: Signedness| -> Option<(u32, Signedness)> {
            let digits = name.strip_prefix(prefix)?;
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            digits.parse::<u32>().ok().map(|w| (w, sign))
        };
        if let Some((width, sign)) = int("ui", Signedness::Unsigned)
            .or_else(|| int("si", Signedness::Signed))
            .or_else(|| int("i", Signedness::Signless))
        {
            if width == 0 || width > 64 {
                return Err(Diagnostic::error(loc, format!("integer width {width} is not supported (1 to 64 bits)")));
            }
            return Ok(self.ctx.ty(TypeKind::Int { width, sign }));
        }
        match name {
            "tensor" | "memref" => {
                if !self.is_punct("<") {
                    return Err(self.expected("'<'"));
                }
                let shape = self.scan_dims()?;
                let elem_loc = self.loc();
                let elem = self.parse_type()?;
                if !self.is_scalar_type(elem) {
                    return Err(Diagnostic::error(elem_loc, "invalid element type for a shaped type"));
                }
                if self.consume_punct(",") {
                    return Err(self.error("tensor encodings and memref layouts are not supported"));
                }
                self.expect_punct(">")?;
                let count = shape.iter().filter(|&&d| d >= 0).try_fold(1i64, |n, &d| n.checked_mul(d));
                if count.is_none_or(|n| n > MAX_ELEMENTS) {
                    return Err(Diagnostic::error(
                        loc,
                        format!("shaped type has too many elements (the limit is 2^{})", MAX_ELEMENTS.trailing_zeros()),
                    ));
                }
                let kind = if name == "tensor" { TypeKind::Tensor { shape, elem } } else { TypeKind::MemRef { shape, elem } };
                Ok(self.ctx.ty(kind))
            }
            "complex" => {
                self.expect_punct("<")?;
                let eloc = self.loc();
                let e = self.parse_type()?;
                if !matches!(self.ctx.kind(e), TypeKind::Float(FloatKind::F32 | FloatKind::F64)) {
                    return Err(Diagnostic::error(eloc, "complex element type must be f32 or f64"));
                }
                self.expect_punct(">")?;
                Ok(self.ctx.ty(TypeKind::Complex(e)))
            }
            "tuple" => {
                self.expect_punct("<")?;
                let mut elems = Vec::new();
                if !self.is_punct(">") {
                    loop {
                        elems.push(self.parse_type()?);
                        if !self.consume_punct(",") {
                            break;
                        }
                    }
                }
                self.expect_punct(">")?;
                Ok(self.ctx.ty(TypeKind::Tuple(elems)))
            }
            _ => Err(Diagnostic::error(loc, format!("unknown type '{name}'"))),
        }
    }

    fn is_scalar_type(&self, t: Type) -> bool {
        matches!(self.ctx.kind(t), TypeKind::Int { .. } | TypeKind::Float(_) | TypeKind::Complex(_) | TypeKind::Index)
    }

    /// Scans `<4x?x3x` raw characters after `tensor` (the current token is
    /// `<`), leaving the parser at the element type.
    fn scan_dims(&mut self) -> Result<Vec<i64>> {
        let src = self.lex.src.as_bytes();
        let mut pos = self.tok_end; // just after '<'
        let mut dims = Vec::new();
        loop {
            let p = self.lex.skip_trivia(pos);
            if p < src.len() && src[p] == b'?' {
                let q = self.lex.skip_trivia(p + 1);
                if q < src.len() && src[q] == b'x' {
                    dims.push(-1);
                    pos = q + 1;
                    continue;
                }
                break;
            }
            let mut q = p;
            while q < src.len() && src[q].is_ascii_digit() {
                q += 1;
            }
            if q == p || q >= src.len() || src[q] != b'x' {
                break;
            }
            let loc = self.lex.location(p);
            let d: i64 = self.lex.src[p..q]
                .parse()
                .map_err(|_| Diagnostic::error(loc, "dimension size is too large"))?;
            dims.push(d);
            pos = q + 1;
        }
        let (tok, s, e) = self.lex.lex(pos);
        self.tok = tok;
        self.tok_start = s;
        self.tok_end = e;
        Ok(dims)
    }

    /// `(a, b) -> c`, `(a) -> (b, c)`, `() -> ()`.
    pub fn parse_function_type(&mut self) -> Result<Type> {
        self.expect_punct("(")?;
        let mut inputs = Vec::new();
        if !self.is_punct(")") {
            loop {
                inputs.push(self.parse_type()?);
                if !self.consume_punct(",") {
                    break;
                }
            }
        }
        self.expect_punct(")")?;
        self.expect_punct("->")?;
        let results = self.parse_result_types()?;
        Ok(self.ctx.function_ty(inputs, results))
    }

    /// `t` or `(t, u)` or `()`.
    pub fn parse_result_types(&mut self) -> Result<Vec<Type>> {
        if self.consume_punct("(") {
            let mut v = Vec::new();
            if !self.is_punct(")") {
                loop {
                    v.push(self.parse_type()?);
                    if !self.consume_punct(",") {
                        break;
                    }
                }
            }
            self.expect_punct(")")?;
            Ok(v)
        } else {
            Ok(vec![self.parse_type()?])
        }
    }

    /// Comma-separated types.
    pub fn parse_type_list(&mut self) -> Result<Vec<Type>> {
        let mut v = vec![self.parse_type()?];
        while self.consume_punct(",") {
            v.push(self.parse_type()?);
        }
        Ok(v)
    }

    // ---- attributes ----

    /// `{name = attr, flag, ...}` appended to `out`.
    pub fn parse_attr_dict(&mut self, out: &mut Vec<(String, Attr)>) -> Result<()> {
        self.expect_punct("{")?;
        if self.consume_punct("}") {
            return Ok(());
        }
        loop {
            let loc = self.loc();
            let name = match self.advance() {
                Tok::Ident(s) | Tok::Str(s) => s,
                t => return Err(Diagnostic::error(loc, format!("expected attribute name, found {}", t.describe()))),
            };
            let value = if self.consume_punct("=") { self.parse_attr()? } else { self.ctx.attr(AttrKind::Unit) };
            if out.iter().any(|(n, _)| *n == name) {
                return Err(Diagnostic::error(loc, format!("duplicate attribute '{name}'")));
            }
            out.push((name, value));
            if !self.consume_punct(",") {
                break;
            }
        }
        self.expect_punct("}")
    }

    pub fn parse_attr(&mut self) -> Result<Attr> {
        self.nested(|p| p.parse_attr_inner())
    }

    fn parse_attr_inner(&mut self) -> Result<Attr> {
        let loc = self.loc();
        match self.peek().clone() {
            Tok::Ident(s) => match s.as_str() {
                "true" | "false" => {
                    self.advance();
                    Ok(self.ctx.attr(AttrKind::Bool(s == "true")))
                }
                "unit" => {
                    self.advance();
                    Ok(self.ctx.attr(AttrKind::Unit))
                }
                "dense" => {
                    self.advance();
                    self.parse_dense_after_keyword(loc)
                }
                "array" => {
                    self.advance();
                    self.parse_dense_array()
                }
                "dense_resource" | "sparse" | "dense_array" | "affine_map" => {
                    Err(Diagnostic::unsupported(loc, format!("'{s}' attributes are not supported")))
                }
                _ => {
                    let t = self.parse_type()?;
                    Ok(self.ctx.attr(AttrKind::Type(t)))
                }
            },
            Tok::Punct("(") | Tok::Bang(_) => {
                let t = self.parse_type()?;
                Ok(self.ctx.attr(AttrKind::Type(t)))
            }
            Tok::Str(s) => {
                self.advance();
                if self.consume_punct(":") {
                    self.parse_type()?;
                }
                Ok(self.ctx.attr(AttrKind::String(s)))
            }
            Tok::At(s) => {
                self.advance();
                let mut full = s;
                while self.consume_punct("::") {
                    match self.advance() {
                        Tok::At(n) => {
                            full.push_str("::@");
                            full.push_str(&n);
                        }
                        _ => return Err(self.expected("nested symbol reference")),
                    }
                }
                Ok(self.ctx.attr(AttrKind::SymbolRef(full)))
            }
            Tok::Punct("[") => {
                self.advance();
                let mut elems = Vec::new();
                if !self.is_punct("]") {
                    loop {
                        elems.push(self.parse_attr()?);
                        if !self.consume_punct(",") {
                            break;
                        }
                    }
                }
                self.expect_punct("]")?;
                Ok(self.ctx.attr(AttrKind::Array(elems)))
            }
            Tok::Punct("{") => {
                let mut d = Vec::new();
                self.parse_attr_dict(&mut d)?;
                Ok(self.ctx.attr(AttrKind::Dict(d)))
            }
            Tok::Hash(name) => {
                self.advance();
                self.parse_dialect_attr(&name, loc)
            }
            Tok::Int(_) | Tok::Float(_) | Tok::Hex(_) | Tok::Punct("-") => self.parse_number_attr(loc),
            _ => Err(self.expected("attribute value")),
        }
    }

    fn parse_number_attr(&mut self, loc: Location) -> Result<Attr> {
        let lit = self.parse_scalar_literal()?;
        let ty = if self.consume_punct(":") {
            self.parse_type()?
        } else if matches!(lit, Literal::Float(_)) {
            self.ctx.float_ty(FloatKind::F64)
        } else {
            self.ctx.int_ty(64)
        };
        match (self.ctx.kind(ty).clone(), lit) {
            (TypeKind::Float(_), Literal::Float(v)) => Ok(self.ctx.attr(AttrKind::float(v, ty))),
            (TypeKind::Float(_), Literal::Int(v)) => Ok(self.ctx.attr(AttrKind::float(v as f64, ty))),
            (TypeKind::Float(k), Literal::Hex(bits)) => {
                // A hex float is the bit pattern of the attribute's own type.
                if k.width() < 64 && bits >> k.width() != 0 {
                    return Err(Diagnostic::error(loc, format!("hexadecimal float 0x{bits:X} does not fit in {} bits", k.width())));
                }
                let v = dense::bits_to_float(bits, k);
                Ok(self.ctx.attr(AttrKind::Float { bits: f64_bits_preserving_nan(v, bits, k), ty }))
            }
            (TypeKind::Int { .. } | TypeKind::Index, Literal::Hex(v)) => {
                let v = v as i128;
                dense::check_int_range(self.ctx, v, ty).map_err(|m| Diagnostic::error(loc, m))?;
                Ok(self.ctx.attr(AttrKind::Int { value: v, ty }))
            }
            (TypeKind::Int { .. } | TypeKind::Index, Literal::Int(v)) => {
                dense::check_int_range(self.ctx, v, ty).map_err(|m| Diagnostic::error(loc, m))?;
                Ok(self.ctx.attr(AttrKind::Int { value: v, ty }))
            }
            _ => Err(Diagnostic::error(loc, "literal does not match its type")),
        }
    }

    /// A possibly negative number, `true`/`false`, `inf`/`nan`, or hex.
    pub fn parse_scalar_literal(&mut self) -> Result<Literal> {
        let loc = self.loc();
        let neg = self.consume_punct("-");
        let lit = match self.advance() {
            Tok::Int(s) => {
                let v: i128 = s.parse().map_err(|_| Diagnostic::error(loc, "integer literal is too large"))?;
                Literal::Int(if neg { -v } else { v })
            }
            Tok::Float(s) => {
                let v: f64 = s.parse().map_err(|_| Diagnostic::error(loc, "malformed float literal"))?;
                Literal::Float(if neg { -v } else { v })
            }
            Tok::Hex(s) if !neg => {
                let v = u64::from_str_radix(&s, 16).map_err(|_| Diagnostic::error(loc, "hexadecimal literal is too large"))?;
                Literal::Hex(v)
            }
            Tok::Ident(s) if s == "true" && !neg => Literal::Bool(true),
            Tok::Ident(s) if s == "false" && !neg => Literal::Bool(false),
            Tok::Ident(s) if s == "inf" => Literal::Float(if neg { f64::NEG_INFINITY } else { f64::INFINITY }),
            Tok::Ident(s) if s == "nan" => Literal::Float(f64::NAN),
            t => return Err(Diagnostic::error(loc, format!("expected a number, found {}", t.describe()))),
        };
        Ok(lit)
    }

    /// `array<i64: 1, 2>`; the keyword is consumed.
    fn parse_dense_array(&mut self) -> Result<Attr> {
        self.expect_punct("<")?;
        let tloc = self.loc();
        let elem = self.parse_type()?;
        let TypeKind::Int { .. } = self.ctx.kind(elem) else {
            return Err(Diagnostic::unsupported(tloc, "only integer and i1 'array<...>' attributes are supported"));
        };
        let mut values = Vec::new();
        if self.consume_punct(":") {
            loop {
                let loc = self.loc();
                let v = match self.parse_scalar_literal()? {
                    Literal::Int(v) => v,
                    Literal::Bool(b) => b as i128,
                    _ => return Err(Diagnostic::error(loc, "expected an integer in 'array<...>'")),
                };
                dense::check_int_range(self.ctx, v, elem).map_err(|m| Diagnostic::error(loc, m))?;
                values.push(v as i64);
                if !self.consume_punct(",") {
                    break;
                }
            }
        }
        self.expect_punct(">")?;
        Ok(self.ctx.attr(AttrKind::DenseArray { elem, values }))
    }

    /// `dense<...> : type`; the keyword is consumed.
    fn parse_dense_after_keyword(&mut self, loc: Location) -> Result<Attr> {
        self.expect_punct("<")?;
        let lit_loc = self.loc();
        let lit = if self.is_punct(">") { Literal::List(Vec::new()) } else { self.parse_dense_literal()? };
        self.expect_punct(">")?;
        self.expect_punct(":")?;
        let tloc = self.loc();
        let ty = self.parse_type()?;
        if !self.ctx.is_tensor(ty) {
            return Err(Diagnostic::error(tloc, "dense elements attribute requires a tensor type"));
        }
        if self.ctx.shape(ty).is_some_and(|s| s.iter().any(|&d| d < 0)) {
            return Err(Diagnostic::error(tloc, "dense elements attribute requires a static shape"));
        }
        let _ = loc;
        let d = dense::build(self.ctx, ty, &lit).map_err(|m| Diagnostic::error(lit_loc, m))?;
        Ok(self.ctx.attr(AttrKind::Dense(d)))
    }

    fn parse_dense_literal(&mut self) -> Result<Literal> {
        self.nested(|p| p.parse_dense_literal_inner())
    }

    fn parse_dense_literal_inner(&mut self) -> Result<Literal> {
        match self.peek().clone() {
            Tok::Punct("[") => {
                self.advance();
                let mut v = Vec::new();
                if !self.is_punct("]") {
                    loop {
                        v.push(self.parse_dense_literal()?);
                        if !self.consume_punct(",") {
                            break;
                        }
                    }
                }
                self.expect_punct("]")?;
                Ok(Literal::List(v))
            }
            Tok::Punct("(") => {
                self.advance();
                let re = self.parse_scalar_literal()?;
                self.expect_punct(",")?;
                let im = self.parse_scalar_literal()?;
                self.expect_punct(")")?;
                Ok(Literal::Complex(Box::new(re), Box::new(im)))
            }
            Tok::Str(s) => {
                let loc = self.loc();
                self.advance();
                let hex = s
                    .strip_prefix("0x")
                    .ok_or_else(|| Diagnostic::error(loc, "expected a hex string \"0x...\" in dense literal"))?;
                if hex.len() % 2 != 0 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(Diagnostic::error(loc, "malformed hex string in dense literal"));
                }
                let bytes = (0..hex.len() / 2)
                    .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap_or(0))
                    .collect();
                Ok(Literal::Bytes(bytes))
            }
            _ => self.parse_scalar_literal(),
        }
    }

    /// `#dialect<name VALUE>` enums and `#dialect.name<k = v, ...>` structs.
    fn parse_dialect_attr(&mut self, name: &str, loc: Location) -> Result<Attr> {
        if let Some(a) = self.attr_aliases.get(name) {
            return Ok(*a);
        }
        if !self.is_punct("<") {
            return Err(Diagnostic::error(loc, format!("undefined attribute alias '#{name}'")));
        }
        self.advance();
        if let Some((dialect, sub)) = name.split_once('.') {
            let mut fields = Vec::new();
            if !self.is_punct(">") {
                loop {
                    let fname = self.parse_ident()?;
                    self.expect_punct("=")?;
                    let v = self.parse_attr()?;
                    fields.push((fname, v));
                    if !self.consume_punct(",") {
                        break;
                    }
                }
            }
            self.expect_punct(">")?;
            return Ok(self.ctx.attr(AttrKind::Struct { name: format!("{dialect}.{sub}"), fields }));
        }
        let kind = self.parse_ident()?;
        let value = self.parse_ident()?;
        self.expect_punct(">")?;
        Ok(self.ctx.attr(AttrKind::Enum { dialect: name.to_string(), name: kind, value }))
    }

    // ---- small helpers for pretty forms ----

    /// `@name`, or an error saying what was expected (`what`).
    pub fn parse_symbol(&mut self, what: &str) -> Result<String> {
        match self.peek().clone() {
            Tok::At(n) => {
                self.advance();
                Ok(n)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// `%a, %b {attrs} : T, U` (the terminator forms `return` and
    /// `stablehlo.return`): operands whose types are listed after a colon.
    pub fn parse_operands_colon_types(&mut self, st: &mut OpState) -> Result<()> {
        st.operands = self.parse_operands()?;
        self.parse_optional_attr_dict(st)?;
        if !st.operands.is_empty() {
            self.expect_punct(":")?;
            let loc = self.loc();
            let types = self.parse_type_list()?;
            self.check_operand_types(&st.operands, &types, loc)?;
        }
        Ok(())
    }

    pub fn parse_usize(&mut self) -> Result<usize> {
        let loc = self.loc();
        match self.advance() {
            Tok::Int(s) => s.parse().map_err(|_| Diagnostic::error(loc, "integer is too large")),
            t => Err(Diagnostic::error(loc, format!("expected an integer, found {}", t.describe()))),
        }
    }

    pub fn parse_i64(&mut self) -> Result<i64> {
        let loc = self.loc();
        match self.parse_scalar_literal()? {
            Literal::Int(v) => i64::try_from(v).map_err(|_| Diagnostic::error(loc, "integer is out of range for i64")),
            _ => Err(Diagnostic::error(loc, "expected an integer")),
        }
    }

    /// `[1, 2, 3]` (possibly empty).
    pub fn parse_i64_list(&mut self) -> Result<Vec<i64>> {
        self.expect_punct("[")?;
        let mut v = Vec::new();
        if !self.is_punct("]") {
            loop {
                v.push(self.parse_i64()?);
                if !self.consume_punct(",") {
                    break;
                }
            }
        }
        self.expect_punct("]")?;
        Ok(v)
    }

    pub fn i64_array_attr(&mut self, values: Vec<i64>) -> Attr {
        let elem = self.ctx.int_ty(64);
        self.ctx.attr(AttrKind::DenseArray { elem, values })
    }

    /// Parses an optional attribute dictionary into the op state.
    pub fn parse_optional_attr_dict(&mut self, st: &mut OpState) -> Result<()> {
        if self.is_punct("{") {
            self.parse_attr_dict(&mut st.attrs)?;
        }
        Ok(())
    }

    /// Declares the entry arguments `(%a: t, %b: t)` of a pretty region.
    pub fn parse_region_args(&mut self) -> Result<Vec<(String, Type, Location)>> {
        self.expect_punct("(")?;
        let mut args = Vec::new();
        if !self.is_punct(")") {
            loop {
                let loc = self.loc();
                let Tok::Percent(name) = self.peek().clone() else { return Err(self.expected("argument name")) };
                self.advance();
                self.expect_punct(":")?;
                let t = self.parse_type()?;
                self.skip_loc()?;
                args.push((name, t, loc));
                if !self.consume_punct(",") {
                    break;
                }
            }
        }
        self.expect_punct(")")?;
        Ok(args)
    }

    /// Function signature of `func.func`: `(%a: t {attrs}, ...) -> (t {attrs})`.
    /// Returns the named arguments (empty names for a declaration) and result types.
    pub fn parse_function_signature(&mut self) -> Result<(Vec<(String, Type, Location)>, Vec<Type>)> {
        self.expect_punct("(")?;
        let mut args = Vec::new();
        if !self.is_punct(")") {
            loop {
                let loc = self.loc();
                let name = if let Tok::Percent(n) = self.peek().clone() {
                    self.advance();
                    self.expect_punct(":")?;
                    n
                } else {
                    String::new()
                };
                let t = self.parse_type()?;
                if self.is_punct("{") {
                    let mut ignored = Vec::new();
                    self.parse_attr_dict(&mut ignored)?;
                }
                self.skip_loc()?;
                args.push((name, t, loc));
                if !self.consume_punct(",") {
                    break;
                }
            }
        }
        self.expect_punct(")")?;
        let mut results = Vec::new();
        if self.consume_punct("->") {
            if self.consume_punct("(") {
                if !self.is_punct(")") {
                    loop {
                        results.push(self.parse_type()?);
                        if self.is_punct("{") {
                            let mut ignored = Vec::new();
                            self.parse_attr_dict(&mut ignored)?;
                        }
                        if !self.consume_punct(",") {
                            break;
                        }
                    }
                }
                self.expect_punct(")")?;
            } else {
                results.push(self.parse_type()?);
            }
        }
        Ok((args, results))
    }
}
