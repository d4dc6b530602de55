//! `convert-xla-to-loop`: bufferizes `xla` (and `check`) functions and
//! lowers them to `loop` + `mem` + `arith`.
//!
//! Input: a verified module of `func.func`s over tensors using `xla`,
//! `check` and builtin ops. Output: the same functions in destination-
//! passing style — `func.func @f(%in..: memref, %out..: memref)` with no
//! results — whose bodies are loop nests over buffers; constants become
//! `mem.global`s; `check` ops become calls to the runtime's
//! `strata_rt_check`.
//!
//! Values are either materialized in a buffer or fused into their consumers
//! (see `plan`). Results are written straight into the caller's output
//! buffers; every intermediate buffer is a fresh `mem.alloc`, freed by a
//! `mem.dealloc` right after its last reader. Reusing freed buffers is the
//! job of `mem-reuse-buffers`, which runs next.

mod check;
mod chlo;
mod collective;
mod complex;
mod complex_inverse;
mod control;
mod conv;
mod custom_call;
mod decomposition;
mod dot;
mod element;
mod elemental;
mod fft;
mod gather_scatter;
mod in_place;
mod kernel;
mod linalg;
mod materialize;
mod multi_output;
mod names;
pub(crate) mod pattern;
pub mod plan;
mod reduce;
mod reduce_blocks;
mod region;
mod rng;
mod runtime_call;
pub mod scalar;
mod shape;
mod sort;
mod special;
mod top_k;
mod window;
mod window_scan;

pub use check::{decode_check_id, elem_code, encode_check_id};
use custom_call::{check_custom_call_targets, unsupported_custom_call};

use std::collections::HashMap;

use strata_diag::{Diagnostic, Result};
use strata_ir::{AttrKind, BlockId, Context, OpId, Type, TypeKind, Value, builtin};

use crate::builder::Builder;
pub use element::Scalar;
use plan::Mode;

pub const FLAG: &str = "convert-xla-to-loop";

pub struct ConvertXlaToLoopPass;

impl strata_pass::Pass for ConvertXlaToLoopPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "bufferize xla/check functions and lower them to loop + mem + arith"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        convert_module(ctx, module)
    }
}

/// Module-wide state: the globals and runtime declarations created so far.
pub struct ModuleState {
    pub module_block: BlockId,
    next_global: usize,
    /// Runtime functions declared in the module so far.
    declared: std::collections::HashSet<&'static str>,
    /// The (input, result) types of every function, as written (for
    /// run_parallel's programs and infeed).
    pub signatures: HashMap<String, (Vec<Type>, Vec<Type>)>,
    /// Device functions made for run_parallel so far.
    pub next_devices: usize,
    /// The declaration symbol and signature of every custom-call target
    /// lowered so far.
    pub custom_calls: HashMap<String, (String, Type)>,
    /// Module-level ops made so far that go before all others (globals,
    /// declarations; the latest first) and after them (device functions).
    /// They are in the module (their parent is its block, so lookups by
    /// name find them) but placed in its op list once, at the end:
    /// inserting each one at the front right away cost the length of the
    /// module every time, quadratic in a module of many functions or
    /// constants.
    front: Vec<OpId>,
    back: Vec<OpId>,
}

impl ModuleState {
    /// Adds `op` to the module, before every op it had.
    pub fn add_front(&mut self, ctx: &mut Context, op: OpId) {
        ctx.op_mut(op).parent = Some(self.module_block);
        self.front.push(op);
    }

    /// Adds `op` to the module, after every op it had.
    pub fn add_back(&mut self, ctx: &mut Context, op: OpId) {
        ctx.op_mut(op).parent = Some(self.module_block);
        self.back.push(op);
    }
}

pub fn convert_module(ctx: &mut Context, module: OpId) -> Result<()> {
    check_custom_call_targets(ctx, module)?;
    let block = ctx
        .entry_block(module, 0)
        .ok_or_else(|| Diagnostic::internal(ctx.op(module).loc, "module without a body"))?;
    let funcs: Vec<OpId> = ctx.blocks[block]
        .ops
        .iter()
        .copied()
        .filter(|&o| ctx.op(o).name == builtin::FUNC)
        .collect();
    let signatures = funcs
        .iter()
        .filter_map(|&f| {
            let signature = builtin::func_signature(ctx, f)?;
            Some((builtin::func_name(ctx, f)?.to_string(), signature))
        })
        .collect();
    let mut state = ModuleState {
        module_block: block,
        next_global: 0,
        declared: Default::default(),
        signatures,
        next_devices: 0,
        front: Vec::new(),
        back: Vec::new(),
        custom_calls: HashMap::new(),
    };
    // Each function's lowered version takes its place, in the op list
    // rebuilt once at the end (see `ModuleState::front`).
    let mut replaced: HashMap<OpId, OpId> = HashMap::new();
    for f in funcs {
        let span = tracing::debug_span!(
            "lower_func",
            name = builtin::func_name(ctx, f).unwrap_or("?")
        );
        let _e = span.enter();
        let new = lower_func(ctx, &mut state, f)?;
        ctx.op_mut(f).parent = None;
        ctx.op_mut(new).parent = Some(block);
        replaced.insert(f, new);
    }
    let old = std::mem::take(&mut ctx.blocks[block].ops);
    let mut ops = Vec::with_capacity(state.front.len() + old.len() + state.back.len());
    ops.extend(state.front.iter().rev().copied());
    ops.extend(
        old.into_iter()
            .map(|o| replaced.get(&o).copied().unwrap_or(o)),
    );
    ops.extend(state.back.iter().copied());
    ctx.blocks[block].ops = ops;
    Ok(())
}

/// Buffer type for a tensor type.
fn memref_of(ctx: &mut Context, t: Type) -> Result<Type> {
    match ctx.types.kind(t).clone() {
        TypeKind::Tensor { shape, elem } => Ok(ctx.types.memref_ty(&shape, elem)),
        // A token orders side effects and carries no data: one byte.
        TypeKind::Token => {
            let i8t = ctx.types.int_ty(8);
            Ok(ctx.types.memref_ty(&[], i8t))
        }
        _ => Err(Diagnostic::unsupported(
            strata_diag::Location::unknown(),
            format!(
                "values of type {} are not supported by the lowering yet",
                strata_ir::text::printer::type_to_string(ctx, t)
            ),
        )),
    }
}

/// Lowers one function to a new `func.func` (returned detached).
fn lower_func(ctx: &mut Context, state: &mut ModuleState, f: OpId) -> Result<OpId> {
    let loc = ctx.op(f).loc;
    let (inputs, results) = builtin::func_signature(ctx, f)
        .ok_or_else(|| Diagnostic::internal(loc, "function without a signature"))?;
    let sig_err = |ctx: &Context, d: Diagnostic| {
        Diagnostic::unsupported(
            loc,
            format!(
                "function @{}: {}",
                builtin::func_name(ctx, f).unwrap_or("?"),
                d.message
            ),
        )
    };
    let mut params = Vec::new();
    for &t in inputs.iter().chain(results.iter()) {
        params.push(memref_of(ctx, t).map_err(|d| sig_err(ctx, d))?);
    }
    let fty = ctx.types.function_ty(params.clone(), vec![]);
    let mut attrs: Vec<_> = ctx
        .op(f)
        .attrs
        .iter()
        .filter(|(k, _)| k != "function_type")
        .cloned()
        .collect();
    attrs.push(("function_type".into(), ctx.attr(AttrKind::Type(fty))));
    // Donated pairs (xla-plan-donation) as buffer parameters: argument i and
    // result j's output buffer, which the caller may pass as one buffer.
    if let Some(pairs) = ctx.i64_array(f, strata_dialect_xla::transforms::donation::ALIASES) {
        let elem = ctx.types.int_ty(64);
        let values = pairs
            .chunks(2)
            .flat_map(|p| [p[0], inputs.len() as i64 + p.get(1).copied().unwrap_or(0)])
            .collect();
        let a = ctx.attr(AttrKind::DenseArray { elem, values });
        attrs.push((strata_abi::ALIASED_PARAMS_ATTR.into(), a));
    }
    let new = ctx.create_op(builtin::FUNC, vec![], &[], attrs, loc);
    let Some(old_body) = ctx.entry_block(f, 0) else {
        return Err(Diagnostic::unsupported(
            loc,
            format!(
                "function @{} has no body; external functions are not supported",
                builtin::func_name(ctx, f).unwrap_or("?")
            ),
        ));
    };
    let region = ctx.add_region(new);
    let entry = ctx.add_block(region, &params);
    let new_args = ctx.blocks[entry].args.clone();
    let old_args = ctx.blocks[old_body].args.clone();
    let outputs = new_args[inputs.len()..].to_vec();

    let body: Vec<OpId> = ctx.blocks[old_body].ops.clone();
    let mut lw = FuncLowering {
        state,
        repr: HashMap::new(),
        allocs: Vec::new(),
        outputs: outputs.clone(),
        output_taken: vec![false; outputs.len()],
        region_mark: 0,
        tuples: HashMap::new(),
        alloc_index: HashMap::new(),
        computed: None,
        in_place_state: Default::default(),
        aliased_buffers: Default::default(),
    };
    for (old, new) in old_args.iter().zip(&new_args) {
        lw.repr.insert(*old, Repr::Buffer(*new));
    }
    let mut b = Builder::at_end(ctx, entry);
    // Values returned once go straight into the caller's output buffer.
    let ret = body
        .last()
        .copied()
        .filter(|&o| b.ctx.op(o).name == builtin::RETURN);
    let mut direct_out: HashMap<Value, usize> = HashMap::new();
    if let Some(r) = ret {
        let rets = b.ctx.op(r).operands().to_vec();
        for (i, v) in rets.iter().enumerate() {
            let once = rets.iter().filter(|&&x| x == *v).count() == 1;
            let produced_here = b
                .ctx
                .defining_op(*v)
                .is_some_and(|d| b.ctx.op(d).name != strata_dialect_xla::CONSTANT);
            if once && produced_here && !direct_out.contains_key(v) {
                direct_out.insert(*v, i);
            }
        }
    }
    lw.lower_ops(&mut b, &body, &direct_out, &[])?;
    Ok(new)
}

/// How an original tensor value is available in the new function.
#[derive(Copy, Clone, Debug)]
pub enum Repr {
    Buffer(Value),
    Fused(OpId),
}

pub struct FuncLowering<'s> {
    state: &'s mut ModuleState,
    repr: HashMap<Value, Repr>,
    /// Buffers this function allocated, and whether each is still live
    /// (not yet freed after its last reader).
    allocs: Vec<(Value, bool)>,
    outputs: Vec<Value>,
    output_taken: Vec<bool>,
    /// Index into `allocs` where the region being lowered starts.
    region_mark: usize,
    /// Elements of tuple values built by `xla.tuple`.
    tuples: HashMap<Value, Vec<Value>>,
    /// Position of each buffer in `allocs`.
    alloc_index: HashMap<Value, usize>,
    /// Values already computed in the loop nest being emitted (fused
    /// values, and the roots it stored), by value, index and block (see
    /// `multi_output`); `None` outside nests.
    computed: Option<HashMap<(Value, Vec<Value>, BlockId), Scalar>>,
    /// A `while` body's state buffers, which an update of a state value
    /// that dies there may write in place (see `in_place_update`); empty
    /// outside while bodies and in regions nested in them.
    in_place_state: std::collections::HashSet<Value>,
    /// Buffers that hold more than one value (an optimization barrier's
    /// results, a tuple's elements): never updated in place, since a value
    /// dying does not free its buffer's other names.
    aliased_buffers: std::collections::HashSet<Value>,
}

impl FuncLowering<'_> {
    /// Plans and lowers a list of ops (a function body, or a region's ops
    /// before its terminator) at the builder's position.
    /// `tail_reads` are read after the last op (a region's returned values):
    /// their buffers are never released here.
    fn lower_ops(
        &mut self,
        b: &mut Builder<'_>,
        ops: &[OpId],
        direct_out: &HashMap<Value, usize>,
        tail_reads: &[Value],
    ) -> Result<()> {
        let uses = plan::uses(b.ctx, ops);
        let mut modes = plan::modes(b.ctx, ops, &uses);
        let nests = multi_output::plan(b.ctx, ops, &uses, tail_reads, &mut modes);
        let last_read = self.last_reads(b.ctx, ops, &modes, &nests, tail_reads);
        let mut dying: Vec<Vec<Value>> = vec![Vec::new(); ops.len()];
        for (&v, &p) in &last_read {
            if let Some(d) = dying.get_mut(p) {
                d.push(v);
            }
        }
        // In value order, not the map's (random) order: the same input
        // compiles to the same output.
        for d in &mut dying {
            d.sort_unstable_by_key(|v| v.index());
        }
        for (pos, &op) in ops.iter().enumerate() {
            b.loc = b.ctx.op(op).loc;
            let update = self.in_place_update(b.ctx, op, &dying[pos], direct_out);
            let snapshots = match update {
                Some(u) => self.snapshot_readers(b, op, u.buffer)?,
                None => Vec::new(),
            };
            self.lower_op(b, op, &modes, &nests, direct_out, update.map(|u| u.buffer))?;
            // The operand updated in place lives on as the result.
            let dead: Vec<Value> = dying[pos]
                .iter()
                .copied()
                .filter(|&v| update.is_none_or(|u| u.operand != v))
                .chain(snapshots)
                .collect();
            self.release_dead(b, &dead);
        }
        Ok(())
    }

    /// For each buffered value, the body position of its last reader
    /// (through chains of fused values and of values that name another's
    /// buffer; a root of a multi-output nest reads where the nest is
    /// emitted).
    fn last_reads(
        &self,
        ctx: &Context,
        body: &[OpId],
        modes: &HashMap<Value, Mode>,
        nests: &multi_output::Nests,
        tail_reads: &[Value],
    ) -> HashMap<Value, usize> {
        let mut sources: HashMap<Value, Vec<Value>> = HashMap::new();
        let mut last = HashMap::new();
        for (pos, &op) in body.iter().enumerate() {
            let mut read = Vec::new();
            for &v in ctx
                .op(op)
                .operands()
                .iter()
                .chain(plan::captures(ctx, op).iter())
            {
                match sources.get(&v) {
                    Some(s) => read.extend(s.iter().copied()),
                    None => read.push(v),
                }
            }
            // Fused values may share operands (multi-output nests): each
            // buffer once, or the lists would double along a chain.
            read.sort_unstable();
            read.dedup();
            // A value that names operands' buffers (see `named_operands`)
            // is read through them, like a fused value: its reads keep them
            // alive, and it frees nothing itself.
            let named = self.named_operands(ctx, op);
            let operands = ctx.op(op).operands();
            for (i, &r) in ctx.op(op).results.iter().enumerate() {
                if modes.get(&r) == Some(&Mode::Fused) {
                    sources.insert(r, read.clone());
                } else if let Some(Some(names)) = named.get(i) {
                    let mut s: Vec<Value> = operands
                        .get(names.clone())
                        .unwrap_or_default()
                        .iter()
                        .flat_map(|v| sources.get(v).cloned().unwrap_or_else(|| vec![*v]))
                        .collect();
                    s.sort_unstable();
                    s.dedup();
                    sources.insert(r, s);
                }
            }
            let at = nests.deferred.get(&op).copied().unwrap_or(pos);
            for v in read {
                let l = last.entry(v).or_insert(at);
                *l = (*l).max(at);
            }
        }
        for v in tail_reads {
            for src in sources.get(v).cloned().unwrap_or_else(|| vec![*v]) {
                last.insert(src, body.len());
            }
        }
        last
    }

    /// Frees the buffers whose last reader was the op just lowered.
    fn release_dead(&mut self, b: &mut Builder<'_>, dead: &[Value]) {
        for v in dead {
            // Only buffers of the current region are freed here: the
            // enclosing code's stay live across a loop body's iterations.
            if let Some(Repr::Buffer(buf)) = self.repr.get(v).copied()
                && self.is_region_alloc(buf)
                && let Some(&i) = self.alloc_index.get(&buf)
            {
                self.allocs[i].1 = false;
                b.insert("mem.dealloc", vec![buf], &[], vec![]);
            }
        }
    }

    /// A fresh buffer for a new value of tensor type `t`.
    fn new_buffer(&mut self, b: &mut Builder<'_>, t: Type) -> Result<Value> {
        let mt = memref_of(b.ctx, t)?;
        let buf = b.alloc(mt);
        self.alloc_index.insert(buf, self.allocs.len());
        self.allocs.push((buf, true));
        Ok(buf)
    }

    /// Frees the buffers allocated since `mark` that are still live.
    fn free_allocs_since(&mut self, b: &mut Builder<'_>, mark: usize) {
        for (buf, live) in self.allocs.split_off(mark) {
            if live {
                b.insert("mem.dealloc", vec![buf], &[], vec![]);
            }
        }
    }

    /// Lowers `op`; a result it materializes goes into `direct_out`'s
    /// output buffer, else into `in_place` (an update in place, see
    /// `in_place_update`), else into a fresh buffer.
    fn lower_op(
        &mut self,
        b: &mut Builder<'_>,
        op: OpId,
        modes: &HashMap<Value, Mode>,
        nests: &multi_output::Nests,
        direct_out: &HashMap<Value, usize>,
        in_place: Option<Value>,
    ) -> Result<()> {
        let name = b.ctx.op(op).name;
        match name {
            builtin::RETURN => return self.lower_return(b, op),
            builtin::CALL => return self.lower_call(b, op),
            strata_dialect_check::EXPECT_EQ
            | strata_dialect_check::EXPECT_EQ_CONST
            | strata_dialect_check::EXPECT_ALMOST_EQ
            | strata_dialect_check::EXPECT_ALMOST_EQ_CONST
            | strata_dialect_check::EXPECT_CLOSE => return self.lower_check(b, op),
            strata_dialect_xla::OPTIMIZATION_BARRIER => {
                let (ins, outs) = (
                    b.ctx.op(op).operands().to_vec(),
                    b.ctx.op(op).results.clone(),
                );
                for (i, o) in ins.into_iter().zip(outs) {
                    let buf = self.buffer_of(b, i)?;
                    self.aliased_buffers.insert(buf);
                    self.repr.insert(o, Repr::Buffer(buf));
                }
                return Ok(());
            }
            strata_dialect_xla::COMPOSITE => return self.lower_call(b, op),
            strata_dialect_xla::RUN_PARALLEL => return collective::run_parallel(self, b, op),
            strata_dialect_xla::TUPLE => {
                let (r, elems) = (b.ctx.op(op).results[0], b.ctx.op(op).operands().to_vec());
                self.tuples.insert(r, elems);
                return Ok(());
            }
            strata_dialect_xla::GET_TUPLE_ELEMENT => {
                let (t, r) = (b.ctx.op(op).operands()[0], b.ctx.op(op).results[0]);
                let i = strata_dialect_xla::ops::misc::tuple_index(b.ctx, op).unwrap_or(0);
                let elem = self.tuples.get(&t).and_then(|e| e.get(i)).copied().ok_or_else(|| {
                    Diagnostic::unsupported(b.loc, "tuples are supported only when built by xla.tuple in the same function")
                })?;
                if let Some(inner) = self.tuples.get(&elem).cloned() {
                    self.tuples.insert(r, inner);
                } else if let Some(rep) = self.repr.get(&elem).copied() {
                    if let Repr::Buffer(buf) = rep {
                        self.aliased_buffers.insert(buf);
                    }
                    self.repr.insert(r, rep);
                }
                return Ok(());
            }
            strata_dialect_xla::WHILE => return self.lower_while(b, op, direct_out),
            strata_dialect_xla::IF | strata_dialect_xla::CASE => return self.lower_branches(b, op),
            strata_dialect_xla::CUSTOM_CALL => {
                if let Some(message) = unsupported_custom_call(b.ctx, op) {
                    return Err(Diagnostic::unsupported(b.loc, message));
                }
                let target = strata_dialect_xla::ops::misc::call_target(b.ctx, op)
                    .unwrap_or("?")
                    .to_string();
                return self.user_custom_call(b, op, target);
            }
            _ => {}
        }
        if !name.starts_with("xla.") && !name.starts_with("kernel.") {
            return Err(Diagnostic::unsupported(
                b.loc,
                format!("'{name}' is not supported by {FLAG}"),
            ));
        }
        let results = b.ctx.op(op).results.clone();
        for &r in &results {
            let t = b.ctx.value_ty(r);
            scalar::check_lowerable(b, b.ctx.types.elem(t))?;
        }
        if plan::is_elementwise(name) && !self.operands_match_result(b.ctx, op) {
            return Err(Diagnostic::error(
                b.loc,
                format!(
                    "'{name}' broadcasts implicitly; run --xla-legalize-broadcast before --{FLAG}"
                ),
            ));
        }
        if name == strata_dialect_xla::BROADCAST_TO {
            return Err(Diagnostic::error(
                b.loc,
                format!("'{name}' must be legalized by --xla-legalize-broadcast first"),
            ));
        }
        let is_splat = b.ctx.dense_attr(op, "value").is_some_and(|d| d.splat);
        if name == strata_dialect_xla::CONSTANT
            && !is_splat
            && modes.get(&results[0]) == Some(&Mode::Buffer)
            && !direct_out.contains_key(&results[0])
        {
            let g = self.global_for(b, op)?;
            self.repr.insert(results[0], Repr::Buffer(g));
            return Ok(());
        }
        let fused = results.iter().all(|r| modes.get(r) == Some(&Mode::Fused));
        if fused {
            for &r in &results {
                self.repr.insert(r, Repr::Fused(op));
            }
            return Ok(());
        }
        let mut bufs = Vec::new();
        for &r in &results {
            let buf = match direct_out.get(&r) {
                Some(&i) => {
                    self.output_taken[i] = true;
                    self.outputs[i]
                }
                None => match in_place {
                    Some(buf) => buf,
                    None => {
                        let t = b.ctx.value_ty(r);
                        self.new_buffer(b, t)?
                    }
                },
            };
            bufs.push(buf);
        }
        match nests.role(op) {
            multi_output::Role::Alone => self.materialize(b, op, &bufs)?,
            // Written by the nest of a later root.
            multi_output::Role::Deferred => {}
            multi_output::Role::LastOf(roots) => {
                let mut outs = Vec::new();
                for &root in roots {
                    let r = b.ctx.op(root).results[0];
                    let buf = match self.repr.get(&r) {
                        _ if root == op => bufs[0],
                        Some(Repr::Buffer(buf)) => *buf,
                        _ => return Err(Diagnostic::internal(b.loc, "nest root without buffer")),
                    };
                    outs.push((root, buf));
                }
                materialize::element_nest(self, b, &outs)?;
            }
        }
        for (r, buf) in results.into_iter().zip(bufs) {
            self.repr.insert(r, Repr::Buffer(buf));
        }
        Ok(())
    }

    /// Element-wise operands have the result's shape (0-d select predicates
    /// and clamp bounds excepted).
    fn operands_match_result(&self, ctx: &Context, op: OpId) -> bool {
        let rshape = ctx
            .types
            .shape(ctx.value_ty(ctx.op(op).results[0]))
            .unwrap_or(&[]);
        if ctx.op(op).name == strata_dialect_xla::BITCAST_CONVERT {
            return true; // a width change adds or drops the last dimension
        }
        let scalar_ok = matches!(
            ctx.op(op).name,
            strata_dialect_xla::SELECT | strata_dialect_xla::CLAMP
        );
        ctx.op(op).operands().iter().all(|&v| {
            let s = ctx.types.shape(ctx.value_ty(v)).unwrap_or(&[]);
            s == rshape || (scalar_ok && s.is_empty())
        }) && !strata_dialect_xla::ops::elementwise::has_broadcast_attrs(ctx, op)
    }

    /// A `mem.global` holding a constant's data, and its address.
    fn global_for(&mut self, b: &mut Builder<'_>, op: OpId) -> Result<Value> {
        let value = b
            .ctx
            .attr_of(op, "value")
            .ok_or_else(|| Diagnostic::internal(b.loc, "constant without value"))?;
        let t = b.ctx.value_ty(b.ctx.op(op).results[0]);
        self.global_of_attr(b, value, t)
    }

    pub fn global_of_attr(
        &mut self,
        b: &mut Builder<'_>,
        value: strata_ir::Attr,
        t: Type,
    ) -> Result<Value> {
        let mt = memref_of(b.ctx, t)?;
        if let AttrKind::Dense(d) = b.ctx.attr_kind(value).clone()
            && d.splat
        {
            // A splat is filled by a loop rather than stored element by element.
            let buf = self.new_buffer(b, t)?;
            let shape = b.ctx.types.shape(t).map(|s| s.to_vec()).unwrap_or_default();
            let elem = b.ctx.types.elem(t);
            b.loop_nest(&shape, &mut |b, idx| {
                let s = element::constant_element(b, &d, elem);
                element::store_scalar(b, s, buf, idx);
                Ok(())
            })?;
            return Ok(buf);
        }
        let name = format!("__strata_const_{}", self.state.next_global);
        self.state.next_global += 1;
        let sym = b.ctx.attr(AttrKind::String(name.clone()));
        let g = b.ctx.create_op(
            "mem.global",
            vec![],
            &[],
            vec![("sym_name".into(), sym), ("value".into(), value)],
            b.loc,
        );
        self.state.add_front(b.ctx, g);
        let r = b.ctx.attr(AttrKind::SymbolRef(name));
        Ok(b.op1("mem.get_global", vec![], mt, vec![("name".into(), r)]))
    }

    /// The buffer holding `v`, materializing a fused value if needed.
    fn buffer_of(&mut self, b: &mut Builder<'_>, v: Value) -> Result<Value> {
        match self.repr.get(&v).copied() {
            Some(Repr::Buffer(m)) => Ok(m),
            Some(Repr::Fused(op)) => {
                let t = b.ctx.value_ty(v);
                let buf = self.new_buffer(b, t)?;
                self.materialize(b, op, &[buf])?;
                self.repr.insert(v, Repr::Buffer(buf));
                Ok(buf)
            }
            None => Err(Diagnostic::internal(
                b.loc,
                "use of a value that was not lowered",
            )),
        }
    }

    fn lower_return(&mut self, b: &mut Builder<'_>, op: OpId) -> Result<()> {
        let rets = b.ctx.op(op).operands().to_vec();
        for (i, v) in rets.into_iter().enumerate() {
            let out = self.outputs[i];
            let src = self.buffer_of(b, v)?;
            if src != out {
                b.insert("mem.copy", vec![src, out], &[], vec![]);
            }
        }
        self.free_allocs_since(b, 0);
        b.insert(builtin::RETURN, vec![], &[], vec![]);
        Ok(())
    }

    fn lower_call(&mut self, b: &mut Builder<'_>, op: OpId) -> Result<()> {
        let mut args = Vec::new();
        for v in b.ctx.op(op).operands().to_vec() {
            args.push(self.buffer_of(b, v)?);
        }
        let mut outs = Vec::new();
        for r in b.ctx.op(op).results.clone() {
            let t = b.ctx.value_ty(r);
            let buf = self.new_buffer(b, t)?;
            self.repr.insert(r, Repr::Buffer(buf));
            outs.push(buf);
        }
        args.extend(outs);
        // `xla.composite` calls its decomposition.
        let callee = b
            .ctx
            .attr_of(op, "callee")
            .or_else(|| b.ctx.attr_of(op, "decomposition"));
        let callee = callee.ok_or_else(|| Diagnostic::internal(b.loc, "call without callee"))?;
        b.insert(builtin::CALL, args, &[], vec![("callee".into(), callee)]);
        Ok(())
    }
}
