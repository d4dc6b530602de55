//! Parser for the MLIR-style text form: the generic syntax for every op,
//! plus the pretty forms that dialects register as hooks.

use std::collections::HashMap;

use strata_diag::{Diagnostic, Location, Result};

use crate::attrs::{Attr, AttrKind};
use crate::context::{BlockId, Context, OpId, RegionId, Value};
use crate::dense::Literal;
use crate::registry::Traits;
use crate::text::lexer::{Lexer, Tok};

mod attrs;
mod origin;
mod regions;
mod types;
use crate::types::{FloatKind, Type, TypeKind};

/// Largest element count of a shaped type (keeps every byte size and
/// linearized index far from overflowing 64 bits).
pub const MAX_ELEMENTS: i64 = 1 << 48;

/// Largest rank of a shaped type. Every dimension is a loop of the nests
/// the lowering builds, and LLVM's loop passes take time superlinear in
/// the depth of a nest (a one-element tensor of rank 1,000 took 16 s in
/// LLVM for one add, rank 2,000 took 73 s; a few ops of rank 254 take
/// 7 s, of rank 64 0.2 s). StableHLO sets no limit and XLA's shapes none
/// either; NumPy's arrays stop at 64 dimensions (32 before NumPy 2), so no
/// array a JAX program exchanges with the host has more, and real models
/// stay near 10. TensorFlow's limit is 254.
pub const MAX_RANK: usize = 64;

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
    /// Names of the name locations aliased so far (`#loc1 = loc("x")`).
    loc_names: HashMap<String, String>,
    /// Every location alias, and ops with their trailing location, for the
    /// model's source lines (`origin.rs`).
    origins: origin::Origins,
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
    if v.is_nan() && k != FloatKind::F64 {
        0x7FF8_0000_0000_0000 | (1 << 50) | bits
    } else {
        v.to_bits()
    }
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
    fn new(
        ctx: &'a mut Context,
        src: &'a str,
        file: strata_diag::FileId,
        offset: usize,
    ) -> Parser<'a> {
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
            loc_names: HashMap::new(),
            origins: origin::Origins::default(),
            depth: 0,
        }
    }

    /// Runs `f` one nesting level deeper, failing past `MAX_NESTING`.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_NESTING {
            return Err(self.error(format!(
                "nesting is too deep (more than {MAX_NESTING} levels)"
            )));
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
        if self.consume_punct(p) {
            Ok(())
        } else {
            Err(self.expected(&format!("'{p}'")))
        }
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
        if self.consume_keyword(kw) {
            Ok(())
        } else {
            Err(self.expected(&format!("'{kw}'")))
        }
    }
    pub fn parse_ident(&mut self) -> Result<String> {
        match self.advance_if(|t| matches!(t, Tok::Ident(_))) {
            Some(Tok::Ident(s)) => Ok(s),
            _ => Err(self.expected("identifier")),
        }
    }
    fn advance_if(&mut self, f: impl Fn(&Tok) -> bool) -> Option<Tok> {
        if f(&self.tok) {
            Some(self.advance())
        } else {
            None
        }
    }

    /// A trailing `loc(...)`, skipped; the name of a name location
    /// (`loc("x")`, `loc("x"(#loc3))`, or an alias of one defined before)
    /// is returned: JAX names each argument of `@main` by its pytree path
    /// so.
    fn parse_loc_name(&mut self) -> Result<Option<String>> {
        if !self.is_keyword("loc") {
            return Ok(None);
        }
        self.advance();
        self.expect_punct("(")?;
        let name = match self.peek().clone() {
            Tok::Str(s) => Some(s),
            Tok::Hash(alias) => self.loc_names.get(&alias).cloned(),
            _ => None,
        };
        let mut depth = 1;
        while depth > 0 {
            match self.advance() {
                Tok::Punct("(") => depth += 1,
                Tok::Punct(")") => depth -= 1,
                Tok::Eof => return Err(self.error("unterminated 'loc(' location")),
                _ => {}
            }
        }
        Ok(name)
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
            let m = self
                .ctx
                .create_op("builtin.module", vec![], &[], vec![], loc);
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
            // A module always has its one block, even when written `module {}`.
            if self.ctx.regions[region].blocks.is_empty() {
                self.ctx.add_block(region, &[]);
            }
            self.skip_loc()?;
            m
        } else {
            let m = self
                .ctx
                .create_op("builtin.module", vec![], &[], vec![], loc);
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
            // A module written in generic form (`"builtin.module"() ({...})`)
            // is the module itself, as in MLIR, not an op of an implicit one
            // (which would print as a nested module that no parser reads).
            match self.ctx.blocks[block].ops[..] {
                [only] if self.ctx.op(only).name == "builtin.module" => {
                    self.ctx.op_mut(only).parent = None;
                    only
                }
                _ => m,
            }
        };
        self.skip_alias_defs()?;
        if !matches!(self.peek(), Tok::Eof) {
            return Err(self.expected("end of input"));
        }
        self.origins.record(self.ctx);
        Ok(module)
    }

    /// `#name = <attr or loc(...)>` definitions.
    fn skip_alias_defs(&mut self) -> Result<()> {
        while let Tok::Hash(name) = self.peek().clone() {
            self.advance();
            self.expect_punct("=")?;
            if self.is_keyword("loc") {
                self.parse_loc_alias(name)?;
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
            return Err(Diagnostic::error(
                loc,
                format!("redefinition of SSA value '%{name}'"),
            ));
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
                found.ok_or_else(|| {
                    Diagnostic::error(loc, format!("use of undeclared SSA value name '%{name}'"))
                })
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
                let Tok::Percent(name) = self.advance() else {
                    return Err(self.expected("result name"));
                };
                let mut count = 1;
                if self.consume_punct(":") {
                    count = self.parse_usize()?;
                    if count == 0 {
                        return Err(Diagnostic::error(
                            loc,
                            "expected at least one result in a result group",
                        ));
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
        let origin = self.parse_op_loc()?;
        let named: usize = result_groups
            .iter()
            .fold(0usize, |n, g| n.saturating_add(g.1));
        if !result_groups.is_empty() && named != state.result_types.len() {
            return Err(Diagnostic::error(
                loc,
                format!(
                    "operation defines {} results but was provided {named} to bind",
                    state.result_types.len()
                ),
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
        let op = self.ctx.create_op(
            state.name,
            state.operands,
            &state.result_types,
            state.attrs,
            state.loc,
        );
        for r in &state.regions {
            self.ctx.regions[*r].parent = Some(op);
        }
        self.ctx.ops[op].regions = state.regions;
        self.ctx.ops[op].successors = state.successors;
        self.origins.note(op, origin);
        let results = self.ctx.ops[op].results.clone();
        for ((name, nloc), v) in result_names.into_iter().zip(results) {
            self.define(name, v, nloc)?;
        }
        // Names for whole groups (`%0:2` is also reachable as `%0#i`) are
        // bound above; a single-result group is bound by its plain name.
        Ok(op)
    }

    fn new_state(
        &self,
        name: &str,
        loc: Location,
    ) -> Result<(OpState, Option<crate::registry::ParseFn>, Traits)> {
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
            return Err(Diagnostic::error(
                fty_loc,
                "expected function type for generic operation",
            ));
        };
        self.check_operand_types(&st.operands, &inputs, fty_loc)?;
        st.result_types = results;
        Ok(st)
    }

    /// Checks that parsed operands have the types a signature spells.
    pub fn check_operand_types(
        &self,
        operands: &[Value],
        types: &[Type],
        loc: Location,
    ) -> Result<()> {
        if operands.len() != types.len() {
            return Err(Diagnostic::error(
                loc,
                format!(
                    "{} operands present, but expected {}",
                    operands.len(),
                    types.len()
                ),
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
                format!(
                    "custom syntax for '{name}' is not supported; write it in the generic form \"{name}\"(...)"
                ),
            ));
        };
        hook(self, &mut st)?;
        Ok(st)
    }

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
            Tok::Int(s) => s
                .parse()
                .map_err(|_| Diagnostic::error(loc, "integer is too large")),
            t => Err(Diagnostic::error(
                loc,
                format!("expected an integer, found {}", t.describe()),
            )),
        }
    }

    pub fn parse_i64(&mut self) -> Result<i64> {
        let loc = self.loc();
        match self.parse_scalar_literal()? {
            Literal::Int(v) => i64::try_from(v)
                .map_err(|_| Diagnostic::error(loc, "integer is out of range for i64")),
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
                let Tok::Percent(name) = self.peek().clone() else {
                    return Err(self.expected("argument name"));
                };
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
    pub fn parse_function_signature(
        &mut self,
    ) -> Result<(Vec<(String, Type, Location)>, Vec<Type>)> {
        let (args, results, _) = self.parse_function_signature_with_attrs()?;
        Ok((args, results))
    }

    /// [`Self::parse_function_signature`], also returning each argument's
    /// and result's attribute dictionary (`{tf.aliasing_output = 0 : i32}`),
    /// as (argument dicts, result dicts).
    #[allow(clippy::type_complexity)]
    pub fn parse_function_signature_with_attrs(
        &mut self,
    ) -> Result<(
        Vec<(String, Type, Location)>,
        Vec<Type>,
        (
            Vec<Vec<(String, crate::Attr)>>,
            Vec<Vec<(String, crate::Attr)>>,
        ),
    )> {
        self.expect_punct("(")?;
        let mut args = Vec::new();
        let mut arg_attrs = Vec::new();
        let mut res_attrs = Vec::new();
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
                let mut dict = Vec::new();
                if self.is_punct("{") {
                    self.parse_attr_dict(&mut dict)?;
                }
                if let Some(path) = self.parse_loc_name()? {
                    if !dict.iter().any(|(k, _)| k == crate::text::PATH_ATTR) {
                        let a = self.ctx.attr(crate::AttrKind::String(path));
                        dict.push((crate::text::PATH_ATTR.to_string(), a));
                    }
                }
                args.push((name, t, loc));
                arg_attrs.push(dict);
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
                        let mut dict = Vec::new();
                        if self.is_punct("{") {
                            self.parse_attr_dict(&mut dict)?;
                        }
                        res_attrs.push(dict);
                        if !self.consume_punct(",") {
                            break;
                        }
                    }
                }
                self.expect_punct(")")?;
            } else {
                results.push(self.parse_type()?);
                res_attrs.push(Vec::new());
            }
        }
        Ok((args, results, (arg_attrs, res_attrs)))
    }
}
