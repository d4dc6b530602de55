//! The [`Context`] owns every op, block, region and value (in `id-arena`
//! arenas), the type and attribute interners, the source map and the op
//! registry. Everything else holds small copyable ids.
//!
//! The registry lives here, with the hook signatures and the interface a
//! pretty-syntax hook parses through ([`OpParser`]), because the context
//! owns the registry and every hook receives the context: written in files
//! of their own, the context and the registry would import each other.
//! The text parser implements [`OpParser`], so this file never names it.

use std::collections::{HashMap, HashSet};

use id_arena::{Arena, Id};
use strata_diag::{Diagnostic, Location, Result, SourceMap};

use crate::attrs::{Attr, AttrKind, Literal};
use crate::intern::Interner;
use crate::text::lexer::Tok;
use crate::types::{Type, Types};

pub type OpId = Id<Operation>;
pub type BlockId = Id<Block>;
pub type RegionId = Id<Region>;
pub type Value = Id<ValueData>;

/// The one generic op record. Typed views add only accessors.
#[derive(Debug, Clone)]
pub struct Operation {
    pub name: &'static str,
    /// Read with [`Operation::operands`]; written only through the context
    /// ([`Context::set_operand`], ...), which keeps each value's users.
    operands: Vec<Value>,
    pub results: Vec<Value>,
    pub attrs: Vec<(String, Attr)>,
    pub regions: Vec<RegionId>,
    pub successors: Vec<BlockId>,
    pub loc: Location,
    pub parent: Option<BlockId>,
}

impl Operation {
    pub fn operands(&self) -> &[Value] {
        &self.operands
    }
}

#[derive(Debug, Clone, Default)]
pub struct Block {
    pub args: Vec<Value>,
    pub ops: Vec<OpId>,
    pub parent: Option<RegionId>,
}

#[derive(Debug, Clone, Default)]
pub struct Region {
    pub blocks: Vec<BlockId>,
    pub parent: Option<OpId>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueDef {
    OpResult(OpId, u32),
    BlockArg(BlockId, u32),
}

#[derive(Debug, Clone)]
pub struct ValueData {
    pub ty: Type,
    pub def: ValueDef,
    /// The ops that use the value: every op whose operands hold it is here
    /// (once per write of it), and entries whose op no longer uses it are
    /// dropped lazily ([`Context::users`] checks each against the op).
    users: Vec<OpId>,
}

/// Everything one compilation owns.
#[derive(Default)]
pub struct Context {
    pub ops: Arena<Operation>,
    pub blocks: Arena<Block>,
    pub regions: Arena<Region>,
    pub values: Arena<ValueData>,
    /// The interned types and the queries on them.
    pub types: Types,
    attrs: Interner<AttrKind>,
    /// Every op ever given a `sym_name`, by that name, in creation order
    /// (entries go stale when an op is renamed or removed; readers check).
    /// Finding a function by name then costs its candidates, not a scan of
    /// the module: verifying each of 20,000 calls against 20,000 functions
    /// by scanning took 22 s.
    symbols: HashMap<String, Vec<OpId>>,
    pub sources: SourceMap,
    pub registry: Registry,
    /// Where ops came from in the model's own source (`model.py:12:5
    /// (jit(f)/dot_general)`), from the debug locations JAX prints: errors
    /// about an op add it as a note.
    pub origins: HashMap<OpId, String>,
}

impl Context {
    pub fn new() -> Context {
        Context::default()
    }

    // ---- attributes ----

    pub fn attr(&mut self, kind: AttrKind) -> Attr {
        Attr(self.attrs.intern(kind))
    }
    pub fn attr_kind(&self, a: Attr) -> &AttrKind {
        &self.attrs.items[a.0 as usize]
    }

    // ---- structure ----

    pub fn value_ty(&self, v: Value) -> Type {
        self.values[v].ty
    }
    pub fn op(&self, op: OpId) -> &Operation {
        &self.ops[op]
    }
    pub fn op_mut(&mut self, op: OpId) -> &mut Operation {
        &mut self.ops[op]
    }

    /// Creates a detached op with fresh result values.
    pub fn create_op(
        &mut self,
        name: &'static str,
        operands: Vec<Value>,
        result_types: &[Type],
        attrs: Vec<(String, Attr)>,
        loc: Location,
    ) -> OpId {
        let symbol = attrs.iter().find(|(n, _)| n == "sym_name").map(|&(_, a)| a);
        let op = self.ops.alloc(Operation {
            name,
            operands: Vec::new(),
            results: Vec::new(),
            attrs,
            regions: Vec::new(),
            successors: Vec::new(),
            loc,
            parent: None,
        });
        if let Some(a) = symbol {
            index_symbol(self, op, a);
        }
        let results = result_types
            .iter()
            .enumerate()
            .map(|(i, &ty)| {
                self.values.alloc(ValueData {
                    ty,
                    def: ValueDef::OpResult(op, i as u32),
                    users: Vec::new(),
                })
            })
            .collect();
        self.ops[op].results = results;
        self.set_operands(op, operands);
        op
    }

    // ---- uses ----

    /// Makes `v` operand `i` of `op`.
    pub fn set_operand(&mut self, op: OpId, i: usize, v: Value) {
        self.ops[op].operands[i] = v;
        self.values[v].users.push(op);
    }

    /// Makes `operands` the operands of `op`.
    pub fn set_operands(&mut self, op: OpId, operands: Vec<Value>) {
        for &v in &operands {
            self.values[v].users.push(op);
        }
        self.ops[op].operands = operands;
    }

    /// Replaces each operand `v` of `op` by `f(v)`.
    pub fn map_operands(&mut self, op: OpId, f: &mut dyn FnMut(Value) -> Value) {
        for i in 0..self.ops[op].operands.len() {
            let (old, new) = (self.ops[op].operands[i], f(self.ops[op].operands[i]));
            if new != old {
                self.set_operand(op, i, new);
            }
        }
    }

    /// The ops that use `v` (each once), detached ones too: the ops nested
    /// in a scope are [`Context::users_in_scope`].
    pub fn users(&self, v: Value) -> Vec<OpId> {
        let mut users: Vec<OpId> = self.values[v]
            .users
            .iter()
            .copied()
            .filter(|&o| self.ops[o].operands.contains(&v))
            .collect();
        users.sort_unstable_by_key(|o| o.index());
        users.dedup();
        users
    }

    /// The ops nested in `scope` that use `v` (each once).
    pub fn users_in_scope(&self, scope: OpId, v: Value) -> Vec<OpId> {
        let mut users = self.users(v);
        users.retain(|&o| is_nested_in(self, o, scope));
        users
    }

    /// Adds an empty region to `op` and returns it.
    pub fn add_region(&mut self, op: OpId) -> RegionId {
        let r = self.regions.alloc(Region {
            blocks: Vec::new(),
            parent: Some(op),
        });
        self.ops[op].regions.push(r);
        r
    }

    /// Appends a block with arguments of the given types to `region`.
    pub fn add_block(&mut self, region: RegionId, arg_types: &[Type]) -> BlockId {
        let b = self.blocks.alloc(Block {
            args: Vec::new(),
            ops: Vec::new(),
            parent: Some(region),
        });
        let args = arg_types
            .iter()
            .enumerate()
            .map(|(i, &ty)| {
                self.values.alloc(ValueData {
                    ty,
                    def: ValueDef::BlockArg(b, i as u32),
                    users: Vec::new(),
                })
            })
            .collect();
        self.blocks[b].args = args;
        self.regions[region].blocks.push(b);
        b
    }

    pub fn add_block_arg(&mut self, block: BlockId, ty: Type) -> Value {
        let i = self.blocks[block].args.len() as u32;
        let v = self.values.alloc(ValueData {
            ty,
            def: ValueDef::BlockArg(block, i),
            users: Vec::new(),
        });
        self.blocks[block].args.push(v);
        v
    }

    /// Removes the arguments of `block` at the positions `drop` says, and
    /// renumbers those kept. Uses of a removed argument must be gone.
    pub fn remove_block_args(&mut self, block: BlockId, drop: &dyn Fn(usize) -> bool) {
        let args = std::mem::take(&mut self.blocks[block].args);
        let kept: Vec<Value> = args
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| !drop(i))
            .map(|(_, v)| v)
            .collect();
        for (i, &v) in kept.iter().enumerate() {
            self.values[v].def = ValueDef::BlockArg(block, i as u32);
        }
        self.blocks[block].args = kept;
    }

    pub fn append_op(&mut self, block: BlockId, op: OpId) {
        self.ops[op].parent = Some(block);
        self.blocks[block].ops.push(op);
    }

    pub fn insert_op_at(&mut self, block: BlockId, index: usize, op: OpId) {
        self.ops[op].parent = Some(block);
        self.blocks[block].ops.insert(index, op);
    }

    /// Removes `op` from its block; the op stays in the arena, detached.
    /// This costs the length of the block: a pass removing many ops from
    /// one block uses [`Context::detach_ops`].
    pub fn detach_op(&mut self, op: OpId) {
        if let Some(b) = self.ops[op].parent.take() {
            self.blocks[b].ops.retain(|&o| o != op);
        }
    }

    /// Removes all of `ops` from their blocks in one pass over each block
    /// concerned (removing them one at a time costs the block's length
    /// each: quadratic for a pass that removes an op per loop of a long
    /// function). The ops stay in the arena, detached.
    pub fn detach_ops(&mut self, ops: &[OpId]) {
        let mut by_block: HashMap<BlockId, HashSet<OpId>> = HashMap::new();
        for &op in ops {
            if let Some(b) = self.ops[op].parent.take() {
                by_block.entry(b).or_default().insert(op);
            }
        }
        for (b, gone) in by_block {
            self.blocks[b].ops.retain(|o| !gone.contains(o));
        }
    }

    pub fn attr_of(&self, op: OpId, name: &str) -> Option<Attr> {
        self.ops[op]
            .attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| *a)
    }

    pub fn set_attr(&mut self, op: OpId, name: &str, a: Attr) {
        let attrs = &mut self.ops[op].attrs;
        match attrs.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = a,
            None => attrs.push((name.to_string(), a)),
        }
        if name == "sym_name" {
            index_symbol(self, op, a);
        }
    }

    /// The ops that were given the symbol name `name` (`sym_name`), in
    /// creation order; some may since have been renamed or removed.
    pub fn symbol_candidates(&self, name: &str) -> &[OpId] {
        self.symbols.get(name).map_or(&[], Vec::as_slice)
    }

    pub fn remove_attr(&mut self, op: OpId, name: &str) {
        self.ops[op].attrs.retain(|(n, _)| n != name);
    }

    /// The op that defines `v`, if it is an op result.
    pub fn defining_op(&self, v: Value) -> Option<OpId> {
        match self.values[v].def {
            ValueDef::OpResult(op, _) => Some(op),
            ValueDef::BlockArg(..) => None,
        }
    }

    /// The op owning the region that holds `block`.
    pub fn block_parent_op(&self, block: BlockId) -> Option<OpId> {
        self.blocks[block]
            .parent
            .and_then(|r| self.regions[r].parent)
    }

    /// Entry block of the `i`-th region of `op`.
    pub fn entry_block(&self, op: OpId, i: usize) -> Option<BlockId> {
        self.ops[op]
            .regions
            .get(i)
            .and_then(|&r| self.regions[r].blocks.first().copied())
    }

    /// The blocks of `op`'s regions and of every op nested in them, each
    /// block before the blocks nested in its ops.
    pub fn blocks_nested(&self, op: OpId) -> Vec<BlockId> {
        let mut blocks = Vec::new();
        let mut push = |o: OpId| {
            for &r in &self.ops[o].regions {
                blocks.extend(self.regions[r].blocks.iter().copied());
            }
        };
        push(op);
        self.walk_nested(op, &mut push);
        blocks
    }

    /// Calls `f` on every op nested in `op` (pre-order, `op` itself excluded).
    pub fn walk_nested(&self, op: OpId, f: &mut dyn FnMut(OpId)) {
        for &r in &self.ops[op].regions {
            for &b in &self.regions[r].blocks {
                for &o in &self.blocks[b].ops {
                    f(o);
                    self.walk_nested(o, f);
                }
            }
        }
    }

    /// Puts `new` where `old` stands (in its slot of the block), the uses
    /// of `old`'s results (pairwise) redirected to `new`'s within the
    /// nearest enclosing op isolated from above (the function) — uses
    /// cannot escape it — and `old` detached. Costs `old`'s users and its
    /// position in the block (one scan, no shifting).
    pub fn replace_op(&mut self, old: OpId, new: OpId) {
        let Some(block) = self.ops[old].parent else {
            return;
        };
        // The rewrite comes from the same source line.
        if let Some(origin) = self.origins.get(&old).cloned() {
            self.origins.entry(new).or_insert(origin);
        }
        if let Some(func) = enclosing_isolated(self, old) {
            let pairs: Vec<_> = self.ops[old]
                .results
                .iter()
                .copied()
                .zip(self.ops[new].results.clone())
                .collect();
            for (from, to) in pairs {
                self.replace_uses_in(func, from, to);
            }
        }
        match self.blocks[block].ops.iter().position(|&o| o == old) {
            Some(slot) => {
                self.blocks[block].ops[slot] = new;
                self.ops[new].parent = Some(block);
                self.ops[old].parent = None;
            }
            None => {
                self.insert_op_at(block, 0, new);
                self.ops[old].parent = None;
            }
        }
    }

    /// Replaces every use of `from` with `to` among ops nested in `scope`:
    /// costs `from`'s users, not the scope's size.
    pub fn replace_uses_in(&mut self, scope: OpId, from: Value, to: Value) {
        if from == to {
            return;
        }
        for o in self.users_in_scope(scope, from) {
            self.map_operands(o, &mut |v| if v == from { to } else { v });
        }
        // Entries of ops that no longer use `from` go.
        let stale: Vec<OpId> = std::mem::take(&mut self.values[from].users);
        let kept = stale
            .into_iter()
            .filter(|&o| self.ops[o].operands.contains(&from))
            .collect();
        self.values[from].users = kept;
    }

    pub fn op_def(&self, name: &str) -> Option<&OpDef> {
        self.registry.get(name)
    }

    pub fn error(&self, op: OpId, message: impl Into<String>) -> Diagnostic {
        let d = Diagnostic::error(
            self.ops[op].loc,
            format!("'{}' op {}", self.ops[op].name, message.into()),
        );
        match self.origins.get(&op) {
            Some(origin) => d.note(
                Location::unknown(),
                format!("in the model's source: {origin}"),
            ),
            None => d,
        }
    }
}

/// Records that `op` was given the symbol name `a` (see `Context::symbols`).
fn index_symbol(ctx: &mut Context, op: OpId, a: Attr) {
    if let AttrKind::String(s) = &ctx.attrs.items[a.0 as usize] {
        let entry = ctx.symbols.entry(s.clone()).or_default();
        if entry.last() != Some(&op) {
            entry.push(op);
        }
    }
}

/// Whether `op` is nested (at any depth) in `scope`'s regions.
fn is_nested_in(ctx: &Context, op: OpId, scope: OpId) -> bool {
    let mut at = ctx.ops[op].parent.and_then(|b| ctx.block_parent_op(b));
    while let Some(o) = at {
        if o == scope {
            return true;
        }
        at = ctx.ops[o].parent.and_then(|b| ctx.block_parent_op(b));
    }
    false
}

/// The nearest op above `op` whose regions are isolated from above.
fn enclosing_isolated(ctx: &Context, op: OpId) -> Option<OpId> {
    let mut at = ctx.ops[op].parent.and_then(|b| ctx.block_parent_op(b));
    while let Some(o) = at {
        if ctx.registry.traits(ctx.ops[o].name).has(Traits::ISOLATED) {
            return Some(o);
        }
        at = ctx.ops[o].parent.and_then(|b| ctx.block_parent_op(b));
    }
    None
}

// ---- the op registry ----

/// Verifies one op beyond the structural checks.
pub type VerifyFn = fn(&Context, OpId) -> Result<()>;
/// Parses the custom (pretty) form of an op after its name.
pub type ParseFn = fn(&mut dyn OpParser, &mut OpState) -> Result<()>;
/// Parses the body of `#dialect.name<...>` (after `<`, up to and including
/// `>`) for attributes with a syntax of their own.
pub type AttrParseFn = fn(&mut dyn OpParser) -> Result<Attr>;
/// Adjusts an op parsed under an alternative spelling (defaults that the
/// spelling implies), in either syntax.
pub type FixupFn = fn(&mut Context, &mut OpState);

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Traits(pub u32);

impl Traits {
    pub const NONE: Traits = Traits(0);
    /// Ends a block.
    pub const TERMINATOR: Traits = Traits(1);
    /// Regions may not use values defined outside the op.
    pub const ISOLATED: Traits = Traits(2);
    /// No side effects: dead results mean a dead op.
    pub const PURE: Traits = Traits(4);
    /// Defines a symbol (`sym_name`) in the enclosing table.
    pub const SYMBOL: Traits = Traits(8);

    pub const fn with(self, other: Traits) -> Traits {
        Traits(self.0 | other.0)
    }
    pub fn has(self, other: Traits) -> bool {
        self.0 & other.0 == other.0
    }
}

#[derive(Clone)]
pub struct OpDef {
    pub name: &'static str,
    pub traits: Traits,
    /// (operands, results) the op always has, checked by the IR verifier
    /// before the op's own verifier runs (which may then index them).
    pub counts: Option<(usize, usize)>,
    pub verify: Option<VerifyFn>,
    pub parse: Option<ParseFn>,
}

impl OpDef {
    pub fn new(name: &'static str, traits: Traits) -> OpDef {
        OpDef {
            name,
            traits,
            counts: None,
            verify: None,
            parse: None,
        }
    }
    /// The op has exactly `operands` operands and `results` results.
    pub fn counts(mut self, operands: usize, results: usize) -> OpDef {
        self.counts = Some((operands, results));
        self
    }
    pub fn verifier(mut self, f: VerifyFn) -> OpDef {
        self.verify = Some(f);
        self
    }
    pub fn parser(mut self, f: ParseFn) -> OpDef {
        self.parse = Some(f);
        self
    }
}

#[derive(Default)]
pub struct Registry {
    ops: HashMap<&'static str, OpDef>,
    /// Alternative spellings (`stablehlo.add` → `xla.add`).
    aliases: HashMap<String, &'static str>,
    fixups: HashMap<String, FixupFn>,
    attr_parsers: HashMap<String, AttrParseFn>,
}

impl Registry {
    pub fn add(&mut self, def: OpDef) {
        self.ops.insert(def.name, def);
    }
    pub fn alias(&mut self, spelling: impl Into<String>, canonical: &'static str) {
        self.aliases.insert(spelling.into(), canonical);
    }
    pub fn alias_with_fixup(&mut self, spelling: &str, canonical: &'static str, fixup: FixupFn) {
        self.aliases.insert(spelling.to_string(), canonical);
        self.fixups.insert(spelling.to_string(), fixup);
    }
    pub fn add_attr_parser(&mut self, name: &str, f: AttrParseFn) {
        self.attr_parsers.insert(name.to_string(), f);
    }
    pub fn attr_parser(&self, name: &str) -> Option<AttrParseFn> {
        self.attr_parsers.get(name).copied()
    }
    pub fn fixup(&self, spelling: &str) -> Option<FixupFn> {
        self.fixups.get(spelling).copied()
    }
    /// The names of the registered ops (in no particular order).
    pub fn op_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.ops.keys().copied()
    }
    pub fn get(&self, name: &str) -> Option<&OpDef> {
        self.ops.get(name)
    }
    /// Canonical registered name for a spelling, following aliases.
    pub fn resolve(&self, spelling: &str) -> Option<&OpDef> {
        if let Some(d) = self.ops.get(spelling) {
            return Some(d);
        }
        self.aliases.get(spelling).and_then(|c| self.ops.get(c))
    }
    pub fn traits(&self, name: &str) -> Traits {
        self.ops.get(name).map(|d| d.traits).unwrap_or_default()
    }
}

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

// ---- the interface of pretty-syntax hooks ----

/// What a dialect's pretty-syntax hook reads an op with (MLIR's
/// `OpAsmParser`): the text parser's token and grammar operations that
/// hooks need, and the context to build types and attributes in. The
/// parser implements it by forwarding to its own methods.
pub trait OpParser {
    fn ctx(&mut self) -> &mut Context;

    // Tokens.
    fn peek(&self) -> &Tok;
    fn loc(&self) -> Location;
    fn advance(&mut self) -> Tok;
    fn is_punct(&self, p: &str) -> bool;
    fn consume_punct(&mut self, p: &str) -> bool;
    fn expect_punct(&mut self, p: &str) -> Result<()>;
    fn is_keyword(&self, kw: &str) -> bool;
    fn consume_keyword(&mut self, kw: &str) -> bool;
    fn expect_keyword(&mut self, kw: &str) -> Result<()>;
    fn parse_ident(&mut self) -> Result<String>;
    /// `@name`, or an error saying what was expected (`what`).
    fn parse_symbol(&mut self, what: &str) -> Result<String>;

    // Values.
    /// `%name` use.
    fn parse_operand(&mut self) -> Result<Value>;
    /// Comma-separated operands; empty if the next token is not a value.
    fn parse_operands(&mut self) -> Result<Vec<Value>>;
    /// `%a, %b {attrs} : T, U`: operands whose types follow a colon.
    fn parse_operands_colon_types(&mut self, st: &mut OpState) -> Result<()>;
    /// Checks that parsed operands have the types a signature spells.
    fn check_operand_types(&self, operands: &[Value], types: &[Type], loc: Location) -> Result<()>;

    // Types.
    fn parse_type(&mut self) -> Result<Type>;
    fn parse_type_list(&mut self) -> Result<Vec<Type>>;
    fn parse_result_types(&mut self) -> Result<Vec<Type>>;
    fn parse_function_type(&mut self) -> Result<Type>;
    /// `(%a: t {attrs}, ...) -> (t {attrs})` of `func.func`.
    fn parse_function_signature_with_attrs(&mut self) -> Result<FunctionSignature>;

    // Attributes.
    fn parse_attr(&mut self) -> Result<Attr>;
    fn parse_attr_dict(&mut self, out: &mut Vec<(String, Attr)>) -> Result<()>;
    /// An optional attribute dictionary, into the op state.
    fn parse_optional_attr_dict(&mut self, st: &mut OpState) -> Result<()>;
    /// The body of `#name<...>` for attributes with a syntax of their own.
    fn parse_struct_body(&mut self, name: &str) -> Result<Attr>;
    fn parse_scalar_literal(&mut self) -> Result<Literal>;
    fn parse_i64(&mut self) -> Result<i64>;
    /// `[1, 2, 3]` (possibly empty).
    fn parse_i64_list(&mut self) -> Result<Vec<i64>>;

    // Regions.
    /// Declares the entry arguments `(%a: t, %b: t)` of a pretty region.
    fn parse_region_args(&mut self) -> Result<Vec<(String, Type, Location)>>;
    /// `{ ... }` with pre-declared entry arguments; `isolated` hides outer
    /// values.
    fn parse_region(
        &mut self,
        entry_args: &[(String, Type, Location)],
        isolated: bool,
    ) -> Result<RegionId>;
}

/// A function signature as `func.func` writes it: the named arguments
/// (empty names for a declaration), the result types, and each argument's
/// and result's attribute dictionary (`{tf.aliasing_output = 0 : i32}`).
pub struct FunctionSignature {
    pub args: Vec<(String, Type, Location)>,
    pub results: Vec<Type>,
    pub arg_attrs: Vec<Vec<(String, Attr)>>,
    pub res_attrs: Vec<Vec<(String, Attr)>>,
}

impl dyn OpParser + '_ {
    /// An error at the current token.
    pub fn error(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.loc(), msg)
    }
    pub fn i64_array_attr(&mut self, values: Vec<i64>) -> Attr {
        let elem = self.ctx().types.int_ty(64);
        self.ctx().attr(AttrKind::DenseArray { elem, values })
    }
}
