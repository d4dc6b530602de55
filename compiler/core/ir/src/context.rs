//! The [`Context`] owns every op, block, region and value (in `id-arena`
//! arenas), the type and attribute interners, the source map and the op
//! registry. Everything else holds small copyable ids.

use std::collections::{HashMap, HashSet};

use id_arena::{Arena, Id};
use strata_diag::{Diagnostic, Location, SourceMap};

use crate::attrs::{Attr, AttrKind};
use crate::registry::{OpDef, Registry};
use crate::types::{FloatKind, Signedness, Type, TypeKind};

pub type OpId = Id<Operation>;
pub type BlockId = Id<Block>;
pub type RegionId = Id<Region>;
pub type Value = Id<ValueData>;

/// The one generic op record. Typed views add only accessors.
#[derive(Debug, Clone)]
pub struct Operation {
    pub name: &'static str,
    pub operands: Vec<Value>,
    pub results: Vec<Value>,
    pub attrs: Vec<(String, Attr)>,
    pub regions: Vec<RegionId>,
    pub successors: Vec<BlockId>,
    pub loc: Location,
    pub parent: Option<BlockId>,
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
}

struct Interner<K: std::hash::Hash + Eq + Clone> {
    items: Vec<K>,
    index: HashMap<K, u32>,
}

impl<K: std::hash::Hash + Eq + Clone> Default for Interner<K> {
    fn default() -> Self {
        Interner {
            items: Vec::new(),
            index: HashMap::new(),
        }
    }
}

impl<K: std::hash::Hash + Eq + Clone> Interner<K> {
    fn intern(&mut self, k: K) -> u32 {
        if let Some(&i) = self.index.get(&k) {
            return i;
        }
        let i = self.items.len() as u32;
        self.items.push(k.clone());
        self.index.insert(k, i);
        i
    }
}

/// Every type of a compilation, interned (equal types are one [`Type`]),
/// and the queries on them. A field of the [`Context`] of its own, so that
/// reading types never borrows the ops.
#[derive(Default)]
pub struct Types {
    interner: Interner<TypeKind>,
}

impl Types {
    pub fn ty(&mut self, kind: TypeKind) -> Type {
        Type(self.interner.intern(kind))
    }
    pub fn kind(&self, t: Type) -> &TypeKind {
        &self.interner.items[t.0 as usize]
    }
    pub fn int_ty(&mut self, width: u32) -> Type {
        self.ty(TypeKind::Int {
            width,
            sign: Signedness::Signless,
        })
    }
    pub fn uint_ty(&mut self, width: u32) -> Type {
        self.ty(TypeKind::Int {
            width,
            sign: Signedness::Unsigned,
        })
    }
    pub fn float_ty(&mut self, k: FloatKind) -> Type {
        self.ty(TypeKind::Float(k))
    }
    pub fn index_ty(&mut self) -> Type {
        self.ty(TypeKind::Index)
    }
    pub fn tensor_ty(&mut self, shape: &[i64], elem: Type) -> Type {
        self.ty(TypeKind::Tensor {
            shape: shape.to_vec(),
            elem,
        })
    }
    pub fn memref_ty(&mut self, shape: &[i64], elem: Type) -> Type {
        self.ty(TypeKind::MemRef {
            shape: shape.to_vec(),
            elem,
        })
    }
    pub fn function_ty(&mut self, inputs: Vec<Type>, results: Vec<Type>) -> Type {
        self.ty(TypeKind::Function { inputs, results })
    }

    /// Shape of a tensor or memref type; `None` for anything else.
    pub fn shape(&self, t: Type) -> Option<&[i64]> {
        match self.kind(t) {
            TypeKind::Tensor { shape, .. } | TypeKind::MemRef { shape, .. } => Some(shape),
            _ => None,
        }
    }
    /// Element type of a tensor or memref; the type itself for scalars.
    pub fn elem(&self, t: Type) -> Type {
        match self.kind(t) {
            TypeKind::Tensor { elem, .. } | TypeKind::MemRef { elem, .. } => *elem,
            _ => t,
        }
    }
    pub fn is_tensor(&self, t: Type) -> bool {
        matches!(self.kind(t), TypeKind::Tensor { .. })
    }
    pub fn num_elements(&self, t: Type) -> i64 {
        self.shape(t).map(|s| s.iter().product()).unwrap_or(1)
    }
    pub fn is_float(&self, t: Type) -> bool {
        matches!(self.kind(t), TypeKind::Float(_))
    }
    pub fn is_complex(&self, t: Type) -> bool {
        matches!(self.kind(t), TypeKind::Complex(_))
    }
    pub fn is_int(&self, t: Type) -> bool {
        matches!(self.kind(t), TypeKind::Int { .. })
    }
    pub fn is_bool(&self, t: Type) -> bool {
        matches!(self.kind(t), TypeKind::Int { width: 1, .. })
    }
    pub fn is_unsigned(&self, t: Type) -> bool {
        matches!(
            self.kind(t),
            TypeKind::Int {
                sign: Signedness::Unsigned,
                ..
            }
        )
    }
    /// Bit width of a scalar type (complex: the width of one part).
    pub fn bit_width(&self, t: Type) -> u32 {
        match self.kind(t) {
            TypeKind::Int { width, .. } => *width,
            TypeKind::Float(k) => k.width(),
            TypeKind::Index => 64,
            TypeKind::Complex(e) => self.bit_width(*e),
            TypeKind::Quant(q) => self.bit_width(q.storage),
            _ => 0,
        }
    }
    /// Bytes of one scalar part of an element of type `elem` in a buffer: the
    /// element itself, or one of a complex number's two parts. The rule is
    /// `strata_abi::scalar_storage_bytes`, shared with the runtime.
    pub fn part_storage_bytes(&self, elem: Type) -> u64 {
        strata_abi::scalar_storage_bytes(self.bit_width(elem)) as u64
    }
    /// Bytes of one element of type `elem` in a buffer (complex: both parts).
    pub fn storage_bytes(&self, elem: Type) -> u64 {
        let parts = if self.is_complex(elem) { 2 } else { 1 };
        parts * self.part_storage_bytes(elem)
    }
    /// Tensor of the same shape with another element type.
    pub fn with_elem(&mut self, t: Type, elem: Type) -> Type {
        let shape = self.shape(t).map(|s| s.to_vec()).unwrap_or_default();
        self.tensor_ty(&shape, elem)
    }
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
            operands,
            results: Vec::new(),
            attrs,
            regions: Vec::new(),
            successors: Vec::new(),
            loc,
            parent: None,
        });
        if let Some(a) = symbol {
            self.index_symbol(op, a);
        }
        let results = result_types
            .iter()
            .enumerate()
            .map(|(i, &ty)| {
                self.values.alloc(ValueData {
                    ty,
                    def: ValueDef::OpResult(op, i as u32),
                })
            })
            .collect();
        self.ops[op].results = results;
        op
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
            self.index_symbol(op, a);
        }
    }

    fn index_symbol(&mut self, op: OpId, a: Attr) {
        if let AttrKind::String(s) = &self.attrs.items[a.0 as usize] {
            let entry = self.symbols.entry(s.clone()).or_default();
            if entry.last() != Some(&op) {
                entry.push(op);
            }
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

    /// Every op nested in `scope` that uses each value, once per use.
    pub fn users_in(&self, scope: OpId) -> HashMap<Value, Vec<OpId>> {
        let mut users: HashMap<Value, Vec<OpId>> = HashMap::new();
        self.walk_nested(scope, &mut |o| {
            for &v in &self.ops[o].operands {
                users.entry(v).or_default().push(o);
            }
        });
        users
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

    /// Puts `new` where `old` stands: inserted right before it, the uses of
    /// `old`'s results (pairwise) redirected to `new`'s within the enclosing
    /// function — uses cannot escape it — and `old` detached.
    pub fn replace_op(&mut self, old: OpId, new: OpId) {
        let Some(block) = self.ops[old].parent else {
            return;
        };
        // The rewrite comes from the same source line.
        if let Some(origin) = self.origins.get(&old).cloned() {
            self.origins.entry(new).or_insert(origin);
        }
        let pos = self.blocks[block]
            .ops
            .iter()
            .position(|&o| o == old)
            .unwrap_or(0);
        self.insert_op_at(block, pos, new);
        if let Some(func) = crate::builtin::enclosing_func(self, old) {
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
        self.detach_op(old);
    }

    /// Replaces every use of `from` with `to` among ops nested in `scope`.
    pub fn replace_uses_in(&mut self, scope: OpId, from: Value, to: Value) {
        let mut all = Vec::new();
        self.walk_nested(scope, &mut |o| all.push(o));
        for o in all {
            for v in self.ops[o].operands.iter_mut() {
                if *v == from {
                    *v = to;
                }
            }
        }
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
