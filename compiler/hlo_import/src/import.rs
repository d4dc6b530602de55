//! From parsed HLO to `xla` ops: computations become function bodies or op
//! regions, instructions become ops, tuples are flattened into their leaves.
//!
//! - The ENTRY computation becomes the public `@main`; its tuple parameters
//!   and results flatten into several (as StableHLO exports write them).
//! - `call`ed (and `fusion`'s) computations become private functions (one
//!   per computation).
//! - Computations used as op bodies (reduce's `to_apply`, while's
//!   `condition`/`body`, conditional branches, ...) are emitted into the
//!   op's region, afresh for each use.
//! - A tuple value is a tree of IR values ([`Val`]): `tuple` and
//!   `get-tuple-element` build and pick without emitting ops.

use std::collections::{HashMap, HashSet};

use strata_diag::{Diagnostic, Location, Result};
use strata_ir::builtin::{FUNC, RETURN as FUNC_RETURN};
use strata_ir::{Attr, AttrKind, BlockId, Context, OpId, Type, Value};

use super::attrs::Attrs;
use super::lexer::Cursor;
use super::opcode::{Lookup, Opcode, lookup};
use super::parser::{Computation, HloModule, Instr};
use super::shapes::Shape;
use super::{collective, control, elementwise, misc, reduce, shape_ops};

/// Deepest nesting of computations used as op bodies.
const MAX_REGION_NESTING: usize = 128;

/// An HLO value: one IR value, or a tuple of values.
#[derive(Clone, Debug)]
pub enum Val {
    Leaf(Value),
    Tuple(Vec<Val>),
}

impl Val {
    pub fn leaves(&self) -> Vec<Value> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }
    fn collect(&self, out: &mut Vec<Value>) {
        match self {
            Val::Leaf(v) => out.push(*v),
            Val::Tuple(items) => items.iter().for_each(|i| i.collect(out)),
        }
    }
}

/// Rebuilds a value of `shape` from its leaves, in order.
pub fn rebuild(shape: &Shape, leaves: &mut impl Iterator<Item = Value>) -> Option<Val> {
    match shape {
        Shape::Tuple(items, _) => items
            .iter()
            .map(|s| rebuild(s, leaves))
            .collect::<Option<Vec<_>>>()
            .map(Val::Tuple),
        Shape::Array { .. } | Shape::Token(_) => leaves.next().map(Val::Leaf),
    }
}

/// Whether `value` has the tuple structure of `shape`.
fn shape_matches(shape: &Shape, value: &Val) -> bool {
    match (shape, value) {
        (Shape::Tuple(items, _), Val::Tuple(vals)) => {
            items.len() == vals.len() && items.iter().zip(vals).all(|(s, v)| shape_matches(s, v))
        }
        (Shape::Array { .. } | Shape::Token(_), Val::Leaf(_)) => true,
        _ => false,
    }
}

/// `name` as a symbol MLIR's text can spell bare (`@name`): characters
/// other than letters, digits, `_`, `.` and `$` become `_`.
fn symbol_name(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' | '.' | '$' => c,
            _ => '_',
        })
        .collect()
}

/// The instruction being imported, with its operands' values.
pub struct Inst<'i, 'a> {
    pub instr: &'i Instr,
    pub attrs: Attrs<'i, 'a>,
    pub operands: Vec<Val>,
    /// The block the instruction's ops go into.
    pub block: BlockId,
}

impl Inst<'_, '_> {
    pub fn loc(&self) -> Location {
        self.instr.loc
    }

    pub fn error(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.instr.loc, msg)
    }

    pub fn expect_operands(&self, n: usize) -> Result<()> {
        if self.operands.len() != n {
            return Err(Diagnostic::error(
                self.instr.opcode_loc,
                format!(
                    "'{}' expects {n} operand{}, found {}",
                    self.instr.opcode,
                    if n == 1 { "" } else { "s" },
                    self.operands.len()
                ),
            ));
        }
        Ok(())
    }

    /// Operand `i` as one IR value (an array or token, not a tuple).
    pub fn leaf(&self, i: usize) -> Result<Value> {
        match self.operands.get(i) {
            Some(Val::Leaf(v)) => Ok(*v),
            Some(Val::Tuple(_)) => Err(Diagnostic::error(
                self.instr.operands[i].loc,
                format!(
                    "operand {i} of '{}' must be an array, found a tuple",
                    self.instr.opcode
                ),
            )),
            None => Err(Diagnostic::error(
                self.instr.opcode_loc,
                format!("'{}' has no operand {i}", self.instr.opcode),
            )),
        }
    }

    /// Every operand as one IR value.
    pub fn all_leaves(&self) -> Result<Vec<Value>> {
        (0..self.operands.len()).map(|i| self.leaf(i)).collect()
    }
}

pub struct Importer<'a> {
    pub ctx: &'a mut Context,
    pub cursor: Cursor<'a>,
    module: &'a HloModule,
    by_name: HashMap<&'a str, usize>,
    /// Private functions made for `call`ed computations, by computation.
    functions: HashMap<usize, String>,
    /// Functions named but not yet emitted: computation and symbol.
    pending: Vec<(usize, String)>,
    symbols: HashSet<String>,
    module_block: Option<BlockId>,
    /// Computations being emitted inline, to reject cycles.
    inlining: Vec<usize>,
}

impl<'a> Importer<'a> {
    pub fn new(ctx: &'a mut Context, cursor: Cursor<'a>, module: &'a HloModule) -> Result<Self> {
        let mut by_name = HashMap::new();
        for (i, c) in module.computations.iter().enumerate() {
            if by_name.insert(c.name.as_str(), i).is_some() {
                return Err(Diagnostic::error(
                    c.loc,
                    format!("computation '{}' is defined twice", c.name),
                ));
            }
        }
        Ok(Importer {
            ctx,
            cursor,
            module,
            by_name,
            functions: HashMap::new(),
            pending: Vec::new(),
            symbols: HashSet::new(),
            module_block: None,
            inlining: Vec::new(),
        })
    }

    /// Builds the `builtin.module` with `@main` and the private functions.
    pub fn run(mut self) -> Result<OpId> {
        let entry = self.entry()?;
        super::entry::check_entry_interface(self.module, &self.module.computations[entry])?;
        let module = self.ctx.create_op(
            strata_ir::builtin::MODULE,
            vec![],
            &[],
            vec![],
            self.module.loc,
        );
        let name = self
            .ctx
            .attr(AttrKind::String(symbol_name(&self.module.name)));
        self.ctx.set_attr(module, "sym_name", name);
        let counts = [
            ("mhlo.num_partitions", self.module.num_partitions),
            ("mhlo.num_replicas", self.module.replica_count),
        ];
        for (attr, count) in counts {
            if let Some(n) = count {
                let a = self.i32_attr(n);
                self.ctx.set_attr(module, attr, a);
            }
        }
        let region = self.ctx.add_region(module);
        let block = self.ctx.add_block(region, &[]);
        self.module_block = Some(block);
        self.symbols.insert("main".into());
        self.emit_function(entry, "main", false)?;
        while let Some((comp, name)) = self.pending.pop() {
            self.emit_function(comp, &name, true)?;
        }
        Ok(module)
    }

    fn entry(&self) -> Result<usize> {
        let mut entries = self
            .module
            .computations
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_entry);
        match (entries.next(), entries.next()) {
            (Some((i, _)), None) => Ok(i),
            (Some(_), Some((_, second))) => Err(Diagnostic::error(
                second.loc,
                "module has more than one ENTRY computation",
            )),
            (None, _) => Err(Diagnostic::error(
                self.module.loc,
                "module has no ENTRY computation",
            )),
        }
    }

    /// The computation named by an attribute like `to_apply=region_0.1`.
    pub fn computation(&self, name: &str, loc: Location) -> Result<usize> {
        self.by_name
            .get(name)
            .copied()
            .ok_or_else(|| Diagnostic::error(loc, format!("unknown computation '{name}'")))
    }

    pub fn comp(&self, index: usize) -> &'a Computation {
        &self.module.computations[index]
    }

    /// The symbol of the private function for computation `comp`, made on
    /// first use.
    pub fn function_symbol(&mut self, comp: usize) -> String {
        if let Some(name) = self.functions.get(&comp) {
            return name.clone();
        }
        let base = symbol_name(&self.module.computations[comp].name);
        let mut name = base.clone();
        let mut n = 0;
        while self.symbols.contains(&name) {
            n += 1;
            name = format!("{base}_{n}");
        }
        self.symbols.insert(name.clone());
        self.functions.insert(comp, name.clone());
        self.pending.push((comp, name.clone()));
        name
    }

    fn emit_function(&mut self, comp: usize, name: &str, private: bool) -> Result<()> {
        let c = self.comp(comp);
        let param_shapes = self.parameter_shapes(comp)?;
        let inputs: Vec<Type> = param_shapes
            .iter()
            .flat_map(|s| s.leaf_types(self.ctx))
            .collect();
        let results = c.instrs[c.root].shape.leaf_types(self.ctx);
        let fty = self.ctx.types.function_ty(inputs.clone(), results);
        let mut attrs = vec![
            ("sym_name".to_string(), self.string_attr(name)),
            (
                "function_type".to_string(),
                self.ctx.attr(AttrKind::Type(fty)),
            ),
        ];
        if private {
            attrs.push(("sym_visibility".to_string(), self.string_attr("private")));
        }
        let func = self.ctx.create_op(FUNC, vec![], &[], attrs, c.loc);
        let region = self.ctx.add_region(func);
        let block = self.ctx.add_block(region, &inputs);
        let params = self.params_from_block_args(block, &param_shapes);
        let root = self.emit_body(comp, block, params)?;
        let ret = self.ctx.create_op(
            FUNC_RETURN,
            root.leaves(),
            &[],
            vec![],
            c.instrs[c.root].loc,
        );
        self.ctx.append_op(block, ret);
        if let Some(module_block) = self.module_block {
            self.ctx.append_op(module_block, func);
        }
        Ok(())
    }

    /// Emits computation `comp` as the body of a region of `op`: block
    /// arguments for its parameters (flattened), its instructions, and an
    /// `xla.return` of its root's leaves.
    pub fn emit_region_with_args(&mut self, op: OpId, comp: usize) -> Result<()> {
        let shapes = self.parameter_shapes(comp)?;
        let types: Vec<Type> = shapes.iter().flat_map(|s| s.leaf_types(self.ctx)).collect();
        let region = self.ctx.add_region(op);
        let block = self.ctx.add_block(region, &types);
        let params = self.params_from_block_args(block, &shapes);
        self.emit_region_body(comp, block, params)
    }

    /// Emits computation `comp` into a region of `op` without block
    /// arguments: its parameters are `params`, values from outside (the
    /// branches of `xla.case` capture their operands).
    pub fn emit_region_capturing(&mut self, op: OpId, comp: usize, params: Vec<Val>) -> Result<()> {
        let region = self.ctx.add_region(op);
        let block = self.ctx.add_block(region, &[]);
        self.emit_region_body(comp, block, params)
    }

    fn emit_region_body(&mut self, comp: usize, block: BlockId, params: Vec<Val>) -> Result<()> {
        if self.inlining.len() >= MAX_REGION_NESTING {
            return Err(Diagnostic::error(
                self.comp(comp).loc,
                format!("computations nest more than {MAX_REGION_NESTING} levels deep"),
            ));
        }
        if self.inlining.contains(&comp) {
            return Err(Diagnostic::error(
                self.comp(comp).loc,
                format!("computation '{}' uses itself", self.comp(comp).name),
            ));
        }
        self.inlining.push(comp);
        let root = self.emit_body(comp, block, params);
        self.inlining.pop();
        let c = self.comp(comp);
        let ret = self.ctx.create_op(
            strata_dialect_xla::names::RETURN,
            root?.leaves(),
            &[],
            vec![],
            c.instrs[c.root].loc,
        );
        self.ctx.append_op(block, ret);
        Ok(())
    }

    /// The parameter shapes of `comp` by parameter number: each number
    /// from 0 used exactly once.
    pub fn parameter_shapes(&self, comp: usize) -> Result<Vec<&'a Shape>> {
        let c = self.comp(comp);
        let mut slots: Vec<Option<&Shape>> = Vec::new();
        for instr in c.instrs.iter().filter(|i| i.opcode == "parameter") {
            let n = self.parameter_number(instr)?;
            if slots.len() <= n {
                slots.resize(n + 1, None);
            }
            if slots[n].replace(&instr.shape).is_some() {
                return Err(Diagnostic::error(
                    instr.loc,
                    format!("parameter {n} is defined twice in '{}'", c.name),
                ));
            }
        }
        slots
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                s.ok_or_else(|| {
                    Diagnostic::error(
                        c.loc,
                        format!("computation '{}' has no parameter {i}", c.name),
                    )
                })
            })
            .collect()
    }

    fn parameter_number(&self, instr: &Instr) -> Result<usize> {
        let Some(span) = instr.payload else {
            return Err(Diagnostic::error(instr.loc, "parameter without a number"));
        };
        let mut c = self.cursor.over(span);
        let loc = c.loc();
        let n = super::lexer::whole(&mut c, |c| c.int())?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n < 1 << 20)
            .ok_or_else(|| Diagnostic::error(loc, format!("invalid parameter number {n}")))
    }

    fn params_from_block_args(&self, block: BlockId, shapes: &[&Shape]) -> Vec<Val> {
        let mut args = self.ctx.blocks[block].args.clone().into_iter();
        shapes
            .iter()
            .filter_map(|s| rebuild(s, &mut args))
            .collect()
    }

    /// Emits the instructions of `comp` into `block`; returns the root's value.
    fn emit_body(&mut self, comp: usize, block: BlockId, params: Vec<Val>) -> Result<Val> {
        let c = self.comp(comp);
        let mut env: HashMap<&'a str, (Val, &'a Shape)> = HashMap::new();
        for instr in &c.instrs {
            let val = if instr.opcode == "parameter" {
                let n = self.parameter_number(instr)?;
                params.get(n).cloned().ok_or_else(|| {
                    Diagnostic::error(instr.loc, format!("parameter {n} has no value"))
                })?
            } else {
                self.emit_instruction(instr, block, &env)?
            };
            if env
                .insert(instr.name.as_str(), (val, &instr.shape))
                .is_some()
            {
                return Err(Diagnostic::error(
                    instr.loc,
                    format!("'{}' is defined twice", instr.name),
                ));
            }
        }
        let root = &c.instrs[c.root];
        Ok(env
            .remove(root.name.as_str())
            .map(|(v, _)| v)
            .unwrap_or(Val::Tuple(Vec::new())))
    }

    fn emit_instruction(
        &mut self,
        instr: &'a Instr,
        block: BlockId,
        env: &HashMap<&'a str, (Val, &'a Shape)>,
    ) -> Result<Val> {
        let mut operands = Vec::with_capacity(instr.operands.len());
        let mut operand_shapes = Vec::with_capacity(instr.operands.len());
        for o in &instr.operands {
            let Some((v, s)) = env.get(o.name.as_str()) else {
                return Err(Diagnostic::error(
                    o.loc,
                    format!("use of undefined value '{}'", o.name),
                ));
            };
            operands.push(v.clone());
            operand_shapes.push(*s);
        }
        let inst = Inst {
            instr,
            attrs: Attrs::new(instr, self.cursor),
            operands,
            block,
        };
        let opcode = match lookup(&instr.opcode) {
            Lookup::Known(op) => op,
            Lookup::NotSupported => {
                return Err(Diagnostic::unsupported(
                    instr.opcode_loc,
                    format!("HLO opcode '{}' is not supported", instr.opcode),
                ));
            }
            Lookup::Unknown => {
                return Err(Diagnostic::error(
                    instr.opcode_loc,
                    format!("unknown HLO opcode '{}'", instr.opcode),
                ));
            }
        };
        let value = self.dispatch(opcode, &inst, &operand_shapes)?;
        inst.attrs.check_all_used()?;
        Ok(value)
    }

    fn dispatch(&mut self, opcode: Opcode, inst: &Inst<'_, 'a>, shapes: &[&Shape]) -> Result<Val> {
        match opcode {
            Opcode::Parameter => {
                Err(inst.error("parameter outside a computation's parameter list"))
            }
            Opcode::Constant => misc::constant(self, inst),
            Opcode::Elementwise(name) => elementwise::elementwise(self, inst, name),
            Opcode::Compare => elementwise::compare(self, inst),
            Opcode::ReducePrecision => elementwise::reduce_precision(self, inst),
            Opcode::Iota => shape_ops::iota(self, inst),
            Opcode::Broadcast => shape_ops::broadcast(self, inst),
            Opcode::Reshape => shape_ops::reshape(self, inst),
            Opcode::Bitcast => shape_ops::bitcast(self, inst, shapes),
            Opcode::Copy => shape_ops::copy(self, inst),
            Opcode::Transpose => shape_ops::transpose(self, inst),
            Opcode::Slice => shape_ops::slice(self, inst),
            Opcode::DynamicSlice => shape_ops::dynamic_slice(self, inst),
            Opcode::DynamicUpdateSlice => shape_ops::dynamic_update_slice(self, inst),
            Opcode::Concatenate => shape_ops::concatenate(self, inst),
            Opcode::Pad => shape_ops::pad(self, inst),
            Opcode::Reverse => shape_ops::reverse(self, inst),
            Opcode::Dot => misc::dot(self, inst),
            Opcode::Convolution => misc::convolution(self, inst),
            Opcode::Fft => misc::fft(self, inst),
            Opcode::RngBitGenerator => misc::rng_bit_generator(self, inst),
            Opcode::Rng => misc::rng(self, inst),
            Opcode::RngGetAndUpdateState => misc::rng_get_and_update_state(self, inst),
            Opcode::Cholesky => misc::cholesky(self, inst),
            Opcode::TriangularSolve => misc::triangular_solve(self, inst),
            Opcode::CustomCall => misc::custom_call(self, inst),
            Opcode::TopK => misc::top_k(self, inst),
            Opcode::BatchNorm(name) => misc::batch_norm(self, inst, name),
            Opcode::Reduce => reduce::reduce(self, inst),
            Opcode::ReduceWindow => reduce::reduce_window(self, inst),
            Opcode::SelectAndScatter => reduce::select_and_scatter(self, inst),
            Opcode::Scatter => reduce::scatter(self, inst),
            Opcode::Gather => reduce::gather(self, inst),
            Opcode::Sort => reduce::sort(self, inst),
            Opcode::Map => reduce::map(self, inst),
            Opcode::AllReduce => collective::all_reduce(self, inst),
            Opcode::AllGather => collective::all_gather(self, inst),
            Opcode::ReduceScatter => collective::reduce_scatter(self, inst),
            Opcode::AllToAll => collective::all_to_all(self, inst),
            Opcode::CollectivePermute => collective::collective_permute(self, inst),
            Opcode::ReplicaId => {
                collective::device_id(self, inst, strata_dialect_xla::names::REPLICA_ID)
            }
            Opcode::PartitionId => {
                collective::device_id(self, inst, strata_dialect_xla::names::PARTITION_ID)
            }
            Opcode::While => control::while_loop(self, inst),
            Opcode::Conditional => control::conditional(self, inst),
            Opcode::Call => control::call(self, inst),
            Opcode::Fusion => control::fusion(self, inst),
            Opcode::Tuple => control::tuple(self, inst),
            Opcode::GetTupleElement => control::get_tuple_element(self, inst),
            Opcode::OptimizationBarrier => control::optimization_barrier(self, inst),
            Opcode::AfterAll => control::after_all(self, inst),
        }
    }

    // ---- building ops ----

    /// Creates op `name` at the instruction's location with the declared
    /// shape's leaves as result types, appends it, and returns its value
    /// shaped like the declared shape.
    pub fn build(
        &mut self,
        inst: &Inst<'_, '_>,
        name: &'static str,
        operands: Vec<Value>,
        attrs: Vec<(String, Attr)>,
    ) -> Result<Val> {
        let op = self.create(inst, name, operands, attrs);
        self.finish(inst, op)
    }

    /// Creates op `name` (detached) with the declared result types, for ops
    /// that get regions before they are appended with [`Importer::finish`].
    pub fn create(
        &mut self,
        inst: &Inst<'_, '_>,
        name: &'static str,
        operands: Vec<Value>,
        attrs: Vec<(String, Attr)>,
    ) -> OpId {
        let types = inst.instr.shape.leaf_types(self.ctx);
        self.ctx
            .create_op(name, operands, &types, attrs, inst.loc())
    }

    pub fn finish(&mut self, inst: &Inst<'_, '_>, op: OpId) -> Result<Val> {
        self.ctx.append_op(inst.block, op);
        let mut results = self.ctx.op(op).results.clone().into_iter();
        rebuild(&inst.instr.shape, &mut results)
            .ok_or_else(|| inst.error("internal: result count does not match the shape"))
    }

    /// For instructions that emit no op (so no verifier sees them): the
    /// value must have the declared shape.
    pub fn expect_declared(&mut self, inst: &Inst<'_, '_>, value: &Val) -> Result<()> {
        let declared = inst.instr.shape.leaf_types(self.ctx);
        let actual: Vec<Type> = value
            .leaves()
            .iter()
            .map(|&v| self.ctx.value_ty(v))
            .collect();
        if declared != actual || !shape_matches(&inst.instr.shape, value) {
            let actual: Vec<String> = actual
                .iter()
                .map(|&t| strata_dialect_xla::util::ty_str(self.ctx, t))
                .collect();
            return Err(inst.error(format!(
                "'{}' declares shape {} but produces ({})",
                inst.instr.opcode,
                inst.instr.shape.describe(),
                actual.join(", ")
            )));
        }
        Ok(())
    }

    // ---- attribute values ----

    pub fn string_attr(&mut self, s: &str) -> Attr {
        self.ctx.attr(AttrKind::String(s.to_string()))
    }
    pub fn i64_attr(&mut self, v: i64) -> Attr {
        let ty = self.ctx.types.int_ty(64);
        self.ctx.attr(AttrKind::Int {
            value: v as i128,
            ty,
        })
    }
    pub fn i32_attr(&mut self, v: i64) -> Attr {
        let ty = self.ctx.types.int_ty(32);
        self.ctx.attr(AttrKind::Int {
            value: v as i128,
            ty,
        })
    }
    pub fn f32_attr(&mut self, v: f64) -> Attr {
        let ty = self.ctx.types.float_ty(strata_ir::FloatKind::F32);
        self.ctx.attr(AttrKind::float(v, ty))
    }
    pub fn bool_attr(&mut self, b: bool) -> Attr {
        self.ctx.attr(AttrKind::Bool(b))
    }
    /// `array<i64: ...>`.
    pub fn dense_i64s(&mut self, values: Vec<i64>) -> Attr {
        let elem = self.ctx.types.int_ty(64);
        self.ctx.attr(AttrKind::DenseArray { elem, values })
    }
    /// `[1 : i64, 2 : i64]` (the fields of dimension-number structs).
    pub fn i64_list(&mut self, values: &[i64]) -> Attr {
        let items = values.iter().map(|&v| self.i64_attr(v)).collect();
        self.ctx.attr(AttrKind::Array(items))
    }
    /// `#stablehlo<kind VALUE>`.
    pub fn enum_attr(&mut self, kind: &str, value: &str) -> Attr {
        self.ctx.attr(AttrKind::Enum {
            dialect: "stablehlo".into(),
            name: kind.into(),
            value: value.into(),
        })
    }
    /// `dense<[[lo, hi], ...]> : tensor<Nx2xi64>`.
    pub fn padding_attr(&mut self, pairs: &[(i64, i64)]) -> Attr {
        let i64t = self.ctx.types.int_ty(64);
        let ty = self.ctx.types.tensor_ty(&[pairs.len() as i64, 2], i64t);
        let bits = pairs
            .iter()
            .flat_map(|&(lo, hi)| [lo as u64, hi as u64])
            .collect();
        self.ctx.attr(AttrKind::Dense(strata_ir::DenseElements {
            ty,
            splat: false,
            bits,
        }))
    }
}
