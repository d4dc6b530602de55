//! Parser for the MLIR-style text form: the generic syntax for every op,
//! plus the pretty forms that dialects register as hooks.

use std::collections::HashMap;

use strata_diag::{Diagnostic, Location, Result};

use crate::attrs::{Attr, AttrKind};
use crate::context::{BlockId, Context, FunctionSignature, OpId, OpState, ParseFn, Traits, Value};
use crate::dense::Literal;
use crate::text::lexer::{Lexer, Tok};

mod attrs;
mod hooks;
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
    parse_top_level(&mut p)
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
        return Err(expected(&p, "end of attribute"));
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
            Err(expected(self, &format!("'{p}'")))
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
            Err(expected(self, &format!("'{kw}'")))
        }
    }
    pub fn parse_ident(&mut self) -> Result<String> {
        match advance_if(self, |t| matches!(t, Tok::Ident(_))) {
            Some(Tok::Ident(s)) => Ok(s),
            _ => Err(expected(self, "identifier")),
        }
    }

    // ---- top level ----

    // ---- values ----

    /// `%name` use.
    pub fn parse_operand(&mut self) -> Result<Value> {
        let loc = self.loc();
        match self.peek().clone() {
            Tok::Percent(name) => {
                self.advance();
                let found = lookup(self, &name).or_else(|| {
                    // `%x#0` names result 0 of a single-result op `%x`.
                    name.strip_suffix("#0").and_then(|base| lookup(self, base))
                });
                found.ok_or_else(|| {
                    Diagnostic::error(loc, format!("use of undeclared SSA value name '%{name}'"))
                })
            }
            _ => Err(expected(self, "SSA value (like %0)")),
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

    fn new_state(&self, name: &str, loc: Location) -> Result<(OpState, Option<ParseFn>, Traits)> {
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
                        crate::text::type_printer::type_to_string(self.ctx, t),
                        crate::text::type_printer::type_to_string(self.ctx, actual)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// `@name`, or an error saying what was expected (`what`).
    pub fn parse_symbol(&mut self, what: &str) -> Result<String> {
        match self.peek().clone() {
            Tok::At(n) => {
                self.advance();
                Ok(n)
            }
            _ => Err(expected(self, what)),
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
                    return Err(expected(self, "argument name"));
                };
                self.advance();
                self.expect_punct(":")?;
                let t = self.parse_type()?;
                skip_loc(self)?;
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
    pub fn parse_function_signature_with_attrs(&mut self) -> Result<FunctionSignature> {
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
                if let Some(path) = parse_loc_name(self)? {
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
        Ok(FunctionSignature {
            args,
            results,
            arg_attrs,
            res_attrs,
        })
    }
}

/// Parses one op (with its result names) and returns it detached.
fn parse_op<'a>(p: &mut Parser<'a>) -> Result<OpId> {
    let mut result_names: Vec<(String, Location)> = Vec::new();
    let mut result_groups: Vec<(String, usize, Location)> = Vec::new();
    if matches!(p.peek(), Tok::Percent(_)) {
        loop {
            let loc = p.loc();
            let Tok::Percent(name) = p.advance() else {
                return Err(expected(p, "result name"));
            };
            let mut count = 1;
            if p.consume_punct(":") {
                count = parse_usize(p)?;
                if count == 0 {
                    return Err(Diagnostic::error(
                        loc,
                        "expected at least one result in a result group",
                    ));
                }
            }
            result_groups.push((name, count, loc));
            if !p.consume_punct(",") {
                break;
            }
            if !matches!(p.peek(), Tok::Percent(_)) {
                return Err(expected(p, "result name"));
            }
        }
        p.expect_punct("=")?;
    }
    let loc = p.loc();
    let (spelling, mut state) = match p.peek().clone() {
        Tok::Str(name) => {
            p.advance();
            let st = parse_generic_op(p, &name, loc)?;
            (name, st)
        }
        Tok::Ident(name) => {
            p.advance();
            let st = parse_custom_op(p, &name, loc)?;
            (name, st)
        }
        _ => return Err(expected(p, "operation name")),
    };
    if let Some(fixup) = p.ctx.registry.fixup(&spelling) {
        fixup(p.ctx, &mut state);
    }
    let origin = p.parse_op_loc()?;
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
    let op = p.ctx.create_op(
        state.name,
        state.operands,
        &state.result_types,
        state.attrs,
        state.loc,
    );
    for r in &state.regions {
        p.ctx.regions[*r].parent = Some(op);
    }
    p.ctx.ops[op].regions = state.regions;
    p.ctx.ops[op].successors = state.successors;
    p.origins.note(op, origin);
    let results = p.ctx.ops[op].results.clone();
    for ((name, nloc), v) in result_names.into_iter().zip(results) {
        define(p, name, v, nloc)?;
    }
    // Names for whole groups (`%0:2` is also reachable as `%0#i`) are
    // bound above; a single-result group is bound by its plain name.
    Ok(op)
}

fn parse_usize<'a>(p: &mut Parser<'a>) -> Result<usize> {
    let loc = p.loc();
    match p.advance() {
        Tok::Int(s) => s
            .parse()
            .map_err(|_| Diagnostic::error(loc, "integer is too large")),
        t => Err(Diagnostic::error(
            loc,
            format!("expected an integer, found {}", t.describe()),
        )),
    }
}

/// Runs `f` one nesting level deeper, failing past `MAX_NESTING`.
fn nested<'a, T>(p: &mut Parser<'a>, f: impl FnOnce(&mut Parser<'a>) -> Result<T>) -> Result<T> {
    if p.depth >= MAX_NESTING {
        return Err(p.error(format!(
            "nesting is too deep (more than {MAX_NESTING} levels)"
        )));
    }
    p.depth += 1;
    let r = f(p);
    p.depth -= 1;
    r
}

fn expected<'a>(p: &Parser<'a>, what: &str) -> Diagnostic {
    match &p.tok {
        Tok::Bad(c) => p.error(format!("unexpected character {c:?} (expected {what})")),
        t => p.error(format!("expected {what}, found {}", t.describe())),
    }
}

fn advance_if<'a>(p: &mut Parser<'a>, f: impl Fn(&Tok) -> bool) -> Option<Tok> {
    if f(&p.tok) { Some(p.advance()) } else { None }
}

/// A trailing `loc(...)`, skipped; the name of a name location
/// (`loc("x")`, `loc("x"(#loc3))`, or an alias of one defined before)
/// is returned: JAX names each argument of `@main` by its pytree path
/// so.
fn parse_loc_name<'a>(p: &mut Parser<'a>) -> Result<Option<String>> {
    if !p.is_keyword("loc") {
        return Ok(None);
    }
    p.advance();
    p.expect_punct("(")?;
    let name = match p.peek().clone() {
        Tok::Str(s) => Some(s),
        Tok::Hash(alias) => p.loc_names.get(&alias).cloned(),
        _ => None,
    };
    skip_to_close(p)?;
    Ok(name)
}

/// Skips a trailing `loc(...)` (debug locations JAX may print).
fn skip_loc<'a>(p: &mut Parser<'a>) -> Result<()> {
    if p.is_keyword("loc") {
        p.advance();
        skip_balanced_parens(p)?;
    }
    Ok(())
}

fn skip_balanced_parens<'a>(p: &mut Parser<'a>) -> Result<()> {
    p.expect_punct("(")?;
    skip_to_close(p)
}

/// Skips to the `)` that closes an open `(` of a location, nested
/// parentheses included.
fn skip_to_close<'a>(p: &mut Parser<'a>) -> Result<()> {
    let mut depth = 1;
    while depth > 0 {
        match p.advance() {
            Tok::Punct("(") => depth += 1,
            Tok::Punct(")") => depth -= 1,
            Tok::Eof => return Err(p.error("unterminated 'loc(' location")),
            _ => {}
        }
    }
    Ok(())
}

fn parse_top_level<'a>(p: &mut Parser<'a>) -> Result<OpId> {
    skip_alias_defs(p)?;
    let loc = p.loc();
    let module = if p.is_keyword("module") || p.is_keyword("builtin.module") {
        p.advance();
        let m = p.ctx.create_op("builtin.module", vec![], &[], vec![], loc);
        if let Tok::At(name) = p.peek().clone() {
            p.advance();
            let a = p.ctx.attr(AttrKind::String(name));
            p.ctx.set_attr(m, "sym_name", a);
        }
        if p.consume_keyword("attributes") {
            let mut attrs = Vec::new();
            p.parse_attr_dict(&mut attrs)?;
            for (k, v) in attrs {
                p.ctx.set_attr(m, &k, v);
            }
        }
        let region = p.parse_region(&[], true)?;
        p.ctx.regions[region].parent = Some(m);
        p.ctx.ops[m].regions.push(region);
        // A module always has its one block, even when written `module {}`.
        if p.ctx.regions[region].blocks.is_empty() {
            p.ctx.add_block(region, &[]);
        }
        skip_loc(p)?;
        m
    } else {
        let m = p.ctx.create_op("builtin.module", vec![], &[], vec![], loc);
        let region = p.ctx.add_region(m);
        let block = p.ctx.add_block(region, &[]);
        p.scopes.push(None);
        p.scopes.push(Some(HashMap::new()));
        while !matches!(p.peek(), Tok::Eof) {
            if matches!(p.peek(), Tok::Hash(_)) {
                skip_alias_defs(p)?;
                continue;
            }
            let op = parse_op(p)?;
            p.ctx.append_op(block, op);
        }
        p.scopes.pop();
        p.scopes.pop();
        // A module written in generic form (`"builtin.module"() ({...})`)
        // is the module itself, as in MLIR, not an op of an implicit one
        // (which would print as a nested module that no parser reads).
        match p.ctx.blocks[block].ops[..] {
            [only] if p.ctx.op(only).name == "builtin.module" => {
                p.ctx.op_mut(only).parent = None;
                only
            }
            _ => m,
        }
    };
    skip_alias_defs(p)?;
    if !matches!(p.peek(), Tok::Eof) {
        return Err(expected(p, "end of input"));
    }
    p.origins.record(p.ctx);
    Ok(module)
}

/// `#name = <attr or loc(...)>` definitions.
fn skip_alias_defs<'a>(p: &mut Parser<'a>) -> Result<()> {
    while let Tok::Hash(name) = p.peek().clone() {
        p.advance();
        p.expect_punct("=")?;
        if p.is_keyword("loc") {
            p.parse_loc_alias(name)?;
        } else {
            let a = p.parse_attr()?;
            p.attr_aliases.insert(name, a);
        }
    }
    Ok(())
}

fn lookup<'a>(p: &Parser<'a>, name: &str) -> Option<Value> {
    for s in p.scopes.iter().rev() {
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

fn define<'a>(p: &mut Parser<'a>, name: String, v: Value, loc: Location) -> Result<()> {
    let scope = p.scopes.last_mut().and_then(|s| s.as_mut());
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

fn parse_generic_op<'a>(p: &mut Parser<'a>, name: &str, loc: Location) -> Result<OpState> {
    let (mut st, _, traits) = p.new_state(name, loc)?;
    p.expect_punct("(")?;
    st.operands = p.parse_operands()?;
    p.expect_punct(")")?;
    if p.consume_punct("[") {
        loop {
            st.successors.push(p.parse_successor()?);
            if !p.consume_punct(",") {
                break;
            }
        }
        p.expect_punct("]")?;
    }
    if p.is_punct("<") {
        // `<{...}>` properties: held as ordinary attributes.
        p.advance();
        p.parse_attr_dict(&mut st.attrs)?;
        p.expect_punct(">")?;
    }
    if p.is_punct("(") {
        p.advance();
        loop {
            let r = p.parse_region(&[], traits.has(Traits::ISOLATED))?;
            st.regions.push(r);
            if !p.consume_punct(",") {
                break;
            }
        }
        p.expect_punct(")")?;
    }
    if p.is_punct("{") {
        p.parse_attr_dict(&mut st.attrs)?;
    }
    p.expect_punct(":")?;
    let fty_loc = p.loc();
    let fty = p.parse_type()?;
    let TypeKind::Function { inputs, results } = p.ctx.types.kind(fty).clone() else {
        return Err(Diagnostic::error(
            fty_loc,
            "expected function type for generic operation",
        ));
    };
    p.check_operand_types(&st.operands, &inputs, fty_loc)?;
    st.result_types = results;
    Ok(st)
}

fn parse_custom_op<'a>(p: &mut Parser<'a>, name: &str, loc: Location) -> Result<OpState> {
    let (mut st, hook, _) = p.new_state(name, loc)?;
    let Some(hook) = hook else {
        return Err(Diagnostic::error(
            loc,
            format!(
                "custom syntax for '{name}' is not supported; write it in the generic form \"{name}\"(...)"
            ),
        ));
    };
    hook(p, &mut st)?;
    Ok(st)
}
