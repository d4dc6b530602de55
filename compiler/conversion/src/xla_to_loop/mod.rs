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

mod chlo;
mod collective;
mod complex;
mod complex_inverse;
mod control;
mod conv;
mod decomposition;
mod dot;
mod elemental;
pub(crate) mod family;
mod fft;
mod gather_scatter;
mod kernel;
mod linalg;
mod materialize;
pub mod plan;
mod reduce;
mod region;
mod rng;
pub mod scalar;
mod shape;
mod sort;
mod top_k;
mod window;

use std::collections::HashMap;

use strata_diag::{Diagnostic, Result};
use strata_ir::{AttrKind, BlockId, Context, OpId, Type, TypeKind, Value, builtin};

use crate::builder::Builder;
use plan::Mode;
pub use scalar::Scalar;

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
    /// (inputs, results) of every function, as written (for run_parallel).
    pub arity: HashMap<String, (usize, usize)>,
    /// Result types of every function, as written (run_parallel's infeed).
    pub result_types: HashMap<String, Vec<Type>>,
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

/// Every custom call whose target the lowering does not know (not a user's
/// function, not rewritten by the front passes), so a module reports them
/// all at once: the first as the error, the others as notes at their
/// locations.
fn check_custom_call_targets(ctx: &Context, module: OpId) -> Result<()> {
    let mut unknown: Vec<(strata_diag::Location, String)> = Vec::new();
    ctx.walk_nested(module, &mut |op| {
        if let Some(message) = unsupported_custom_call(ctx, op) {
            unknown.push((ctx.op(op).loc, message));
        }
    });
    let mut found = unknown.into_iter();
    let Some((loc, message)) = found.next() else {
        return Ok(());
    };
    let mut d = Diagnostic::unsupported(loc, message);
    d.notes = found
        .map(|(l, m)| (l, format!("also unsupported: {m}")))
        .collect();
    Err(d)
}

/// Why custom call `op` cannot be lowered: its target is not one a host
/// can register (the front passes rewrote the targets Strata knows).
fn unsupported_custom_call(ctx: &Context, op: OpId) -> Option<String> {
    if ctx.op(op).name != strata_dialect_xla::CUSTOM_CALL {
        return None;
    }
    let target = ctx.str_attr(op, "call_target_name").unwrap_or("?");
    if strata_abi::is_host_custom_call(target) {
        return None;
    }
    if let Some(api) = jax_host_callback(ctx, op, target) {
        return Some(format!(
            "{api} is not supported: it calls back into the Python process that traced the model \
             (custom_call @{target}), which an ahead-of-time library does not have; compute the \
             value in the model, or export the host function as a custom call the host registers"
        ));
    }
    Some(format!(
        "custom_call target '{}' is not supported",
        strata_abi::shown_name(target)
    ))
}

/// The JAX function behind a Python host callback: JAX lowers
/// `jax.pure_callback`, `jax.experimental.io_callback` and
/// `jax.debug.callback` (and `jax.debug.print`) to one target, telling
/// them apart only by side effects and results.
fn jax_host_callback(ctx: &Context, op: OpId, target: &str) -> Option<&'static str> {
    const TARGETS: &[&str] = &[
        "xla_ffi_python_cpu_callback",
        "xla_python_cpu_callback",
        "xla_ffi_python_gpu_callback",
        "xla_python_gpu_callback",
    ];
    if !TARGETS.contains(&target) {
        return None;
    }
    let side_effect = ctx
        .attr_of(op, "has_side_effect")
        .is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::Bool(true) | AttrKind::Unit));
    let returns = ctx
        .op(op)
        .results
        .iter()
        .any(|&r| matches!(ctx.kind(ctx.value_ty(r)), TypeKind::Tensor { .. }));
    Some(match (side_effect, returns) {
        (false, _) => "jax.pure_callback",
        (true, true) => "jax.experimental.io_callback",
        (true, false) => {
            "jax.debug.callback (or jax.debug.print, or an io_callback without results)"
        }
    })
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
    let arity = funcs
        .iter()
        .filter_map(|&f| {
            let (ins, outs) = builtin::func_signature(ctx, f)?;
            Some((
                builtin::func_name(ctx, f)?.to_string(),
                (ins.len(), outs.len()),
            ))
        })
        .collect();
    let result_types = funcs
        .iter()
        .filter_map(|&f| {
            let (_, outs) = builtin::func_signature(ctx, f)?;
            Some((builtin::func_name(ctx, f)?.to_string(), outs))
        })
        .collect();
    let mut state = ModuleState {
        module_block: block,
        next_global: 0,
        declared: Default::default(),
        arity,
        result_types,
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
    match ctx.kind(t).clone() {
        TypeKind::Tensor { shape, elem } => Ok(ctx.memref_ty(&shape, elem)),
        // A token orders side effects and carries no data: one byte.
        TypeKind::Token => {
            let i8t = ctx.int_ty(8);
            Ok(ctx.memref_ty(&[], i8t))
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
    let fty = ctx.function_ty(params.clone(), vec![]);
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
        let elem = ctx.int_ty(64);
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
        let rets = b.ctx.op(r).operands.clone();
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
        let modes = plan::modes(b.ctx, ops, &uses);
        let last_read = self.last_reads(b.ctx, ops, &modes, tail_reads);
        let mut dying: Vec<Vec<Value>> = vec![Vec::new(); ops.len()];
        for (&v, &p) in &last_read {
            if let Some(d) = dying.get_mut(p) {
                d.push(v);
            }
        }
        for (pos, &op) in ops.iter().enumerate() {
            b.loc = b.ctx.op(op).loc;
            self.lower_op(b, op, &modes, direct_out)?;
            self.release_dead(b, &dying[pos]);
        }
        Ok(())
    }

    /// For each buffered value, the body position of its last reader
    /// (through chains of fused values).
    fn last_reads(
        &self,
        ctx: &Context,
        body: &[OpId],
        modes: &HashMap<Value, Mode>,
        tail_reads: &[Value],
    ) -> HashMap<Value, usize> {
        let mut sources: HashMap<Value, Vec<Value>> = HashMap::new();
        let mut last = HashMap::new();
        for (pos, &op) in body.iter().enumerate() {
            let mut read = Vec::new();
            for &v in ctx
                .op(op)
                .operands
                .iter()
                .chain(plan::captures(ctx, op).iter())
            {
                match sources.get(&v) {
                    Some(s) => read.extend(s.iter().copied()),
                    None => read.push(v),
                }
            }
            for &r in &ctx.op(op).results {
                if modes.get(&r) == Some(&Mode::Fused) {
                    sources.insert(r, read.clone());
                }
            }
            for v in read {
                last.insert(v, pos);
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
                && let Some(&i) = self.alloc_index.get(&buf)
                && i >= self.region_mark
                && self
                    .allocs
                    .get(i)
                    .is_some_and(|&(a, live)| a == buf && live)
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

    fn lower_op(
        &mut self,
        b: &mut Builder<'_>,
        op: OpId,
        modes: &HashMap<Value, Mode>,
        direct_out: &HashMap<Value, usize>,
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
                let (ins, outs) = (b.ctx.op(op).operands.clone(), b.ctx.op(op).results.clone());
                for (i, o) in ins.into_iter().zip(outs) {
                    let buf = self.buffer_of(b, i)?;
                    self.repr.insert(o, Repr::Buffer(buf));
                }
                return Ok(());
            }
            strata_dialect_xla::COMPOSITE => return self.lower_call(b, op),
            strata_dialect_xla::RUN_PARALLEL => return self.run_parallel(b, op),
            strata_dialect_xla::TUPLE => {
                let (r, elems) = (b.ctx.op(op).results[0], b.ctx.op(op).operands.clone());
                self.tuples.insert(r, elems);
                return Ok(());
            }
            strata_dialect_xla::GET_TUPLE_ELEMENT => {
                let (t, r) = (b.ctx.op(op).operands[0], b.ctx.op(op).results[0]);
                let i = b.ctx.int_attr(op, "index").unwrap_or(0) as usize;
                let elem = self.tuples.get(&t).and_then(|e| e.get(i)).copied().ok_or_else(|| {
                    Diagnostic::unsupported(b.loc, "tuples are supported only when built by xla.tuple in the same function")
                })?;
                if let Some(inner) = self.tuples.get(&elem).cloned() {
                    self.tuples.insert(r, inner);
                } else if let Some(rep) = self.repr.get(&elem).copied() {
                    self.repr.insert(r, rep);
                }
                return Ok(());
            }
            strata_dialect_xla::WHILE => return self.lower_while(b, op),
            strata_dialect_xla::IF | strata_dialect_xla::CASE => return self.lower_branches(b, op),
            strata_dialect_xla::CUSTOM_CALL => {
                if let Some(message) = unsupported_custom_call(b.ctx, op) {
                    return Err(Diagnostic::unsupported(b.loc, message));
                }
                let target = b
                    .ctx
                    .str_attr(op, "call_target_name")
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
            scalar::check_lowerable(b, b.ctx.elem(t))?;
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
                None => {
                    let t = b.ctx.value_ty(r);
                    self.new_buffer(b, t)?
                }
            };
            bufs.push(buf);
        }
        self.materialize(b, op, &bufs)?;
        for (r, buf) in results.into_iter().zip(bufs) {
            self.repr.insert(r, Repr::Buffer(buf));
        }
        Ok(())
    }

    /// Element-wise operands have the result's shape (0-d select predicates
    /// and clamp bounds excepted).
    fn operands_match_result(&self, ctx: &Context, op: OpId) -> bool {
        let rshape = ctx
            .shape(ctx.value_ty(ctx.op(op).results[0]))
            .unwrap_or(&[]);
        if ctx.op(op).name == strata_dialect_xla::BITCAST_CONVERT {
            return true; // a width change adds or drops the last dimension
        }
        let scalar_ok = matches!(
            ctx.op(op).name,
            strata_dialect_xla::SELECT | strata_dialect_xla::CLAMP
        );
        ctx.op(op).operands.iter().all(|&v| {
            let s = ctx.shape(ctx.value_ty(v)).unwrap_or(&[]);
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
            let shape = b.ctx.shape(t).map(|s| s.to_vec()).unwrap_or_default();
            let elem = b.ctx.elem(t);
            b.loop_nest(&shape, &mut |b, idx| {
                let s = elemental::constant_element(b, &d, elem);
                elemental::store_scalar(b, s, buf, idx);
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
        let rets = b.ctx.op(op).operands.clone();
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

    /// `custom_call @target(...)`: a call through the library's registry
    /// of host implementations (`P_register_custom_call`). The target gets
    /// a bodiless private declaration whose symbol the lowering makes up
    /// (never the target's own name, so it cannot meet a function of the
    /// module), marked with the unit-free attribute `custom_call = "target"`
    /// and the operand count: codegen turns calls of it into the runtime's
    /// `strata_rt_custom_call` on the target's registry entry.
    fn user_custom_call(&mut self, b: &mut Builder<'_>, op: OpId, target: String) -> Result<()> {
        let mut args = Vec::new();
        for v in b.ctx.op(op).operands.clone() {
            if !matches!(b.ctx.kind(b.ctx.value_ty(v)), TypeKind::Tensor { .. }) {
                return Err(Diagnostic::unsupported(
                    b.loc,
                    format!(
                        "custom_call @{target}: only tensor operands and results can be passed to the host"
                    ),
                ));
            }
            args.push(self.buffer_of(b, v)?);
        }
        let operands = args.len();
        for r in b.ctx.op(op).results.clone() {
            let t = b.ctx.value_ty(r);
            if !matches!(b.ctx.kind(t), TypeKind::Tensor { .. }) {
                return Err(Diagnostic::unsupported(
                    b.loc,
                    format!(
                        "custom_call @{target}: only tensor operands and results can be passed to the host"
                    ),
                ));
            }
            let buf = self.new_buffer(b, t)?;
            self.repr.insert(r, Repr::Buffer(buf));
            args.push(buf);
        }
        let i32t = b.ctx.int_ty(32);
        let params: Vec<Type> = args.iter().map(|&a| b.ctx.value_ty(a)).collect();
        let fty = b.ctx.function_ty(params, vec![i32t]);
        let symbol = match self.state.custom_calls.get(&target) {
            Some((_, known)) if *known != fty => {
                return Err(Diagnostic::error(
                    b.loc,
                    format!("custom_call @{target} is called with two different signatures"),
                ));
            }
            Some((symbol, _)) => symbol.clone(),
            None => {
                let symbol = self.declare_custom_call(b, &target, fty, operands);
                self.state
                    .custom_calls
                    .insert(target.clone(), (symbol.clone(), fty));
                symbol
            }
        };
        let callee = b.ctx.attr(AttrKind::SymbolRef(symbol));
        b.insert(
            builtin::CALL,
            args,
            &[i32t],
            vec![("callee".into(), callee)],
        );
        Ok(())
    }

    /// The private declaration standing for custom-call `target`, under a
    /// symbol no function of the module has; returns the symbol.
    fn declare_custom_call(
        &mut self,
        b: &mut Builder<'_>,
        target: &str,
        fty: Type,
        operands: usize,
    ) -> String {
        let mb = self.state.module_block;
        let module = b.ctx.block_parent_op(mb);
        let taken = |ctx: &Context, name: &str| {
            module.is_some_and(|m| builtin::lookup_func(ctx, m, name).is_some())
        };
        let mut symbol = format!("custom_call.{target}");
        let mut n = 0;
        while taken(b.ctx, &symbol) {
            n += 1;
            symbol = format!("custom_call.{target}.{n}");
        }
        let attrs = vec![
            (
                "sym_name".into(),
                b.ctx.attr(AttrKind::String(symbol.clone())),
            ),
            ("function_type".into(), b.ctx.attr(AttrKind::Type(fty))),
            (
                "sym_visibility".into(),
                b.ctx.attr(AttrKind::String("private".into())),
            ),
            (
                strata_abi::CUSTOM_CALL_ATTR.into(),
                b.ctx.attr(AttrKind::String(target.to_string())),
            ),
            (strata_abi::CUSTOM_CALL_OPERANDS_ATTR.into(), {
                let ty = b.ctx.int_ty(64);
                b.ctx.attr(AttrKind::Int {
                    value: operands as i128,
                    ty,
                })
            }),
        ];
        let decl = b.ctx.create_op(
            builtin::FUNC,
            vec![],
            &[],
            attrs,
            strata_diag::Location::unknown(),
        );
        self.state.add_front(b.ctx, decl);
        symbol
    }

    fn lower_call(&mut self, b: &mut Builder<'_>, op: OpId) -> Result<()> {
        let mut args = Vec::new();
        for v in b.ctx.op(op).operands.clone() {
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

    fn lower_check(&mut self, b: &mut Builder<'_>, op: OpId) -> Result<()> {
        use strata_dialect_check as check;
        let name = b.ctx.op(op).name;
        let operands = b.ctx.op(op).operands.clone();
        let t = b.ctx.value_ty(operands[0]);
        let actual = self.buffer_of(b, operands[0])?;
        let expected = match name {
            check::EXPECT_EQ_CONST | check::EXPECT_ALMOST_EQ_CONST => {
                let value = b
                    .ctx
                    .attr_of(op, "value")
                    .ok_or_else(|| Diagnostic::internal(b.loc, "check without value"))?;
                self.global_of_attr(b, value, t)?
            }
            _ => self.buffer_of(b, operands[1])?,
        };
        let kind = match name {
            check::EXPECT_EQ | check::EXPECT_EQ_CONST => strata_abi::CheckKind::ExpectEq,
            check::EXPECT_ALMOST_EQ | check::EXPECT_ALMOST_EQ_CONST => {
                strata_abi::CheckKind::ExpectAlmostEq
            }
            _ => strata_abi::CheckKind::ExpectClose,
        };
        let elem = b.ctx.elem(t);
        let code = elem_code(b.ctx, elem).ok_or_else(|| {
            Diagnostic::unsupported(
                b.loc,
                format!(
                    "checks on element type {} are not supported",
                    strata_ir::text::printer::type_to_string(b.ctx, elem)
                ),
            )
        })?;
        let tolerance = b
            .ctx
            .float_attr(op, "tolerance")
            .unwrap_or(check::DEFAULT_TOLERANCE);
        let min_ulp = b.ctx.int_attr(op, "min_ulp_difference").unwrap_or(0) as i64;
        let max_ulp = b.ctx.int_attr(op, "max_ulp_difference").unwrap_or(
            if kind == strata_abi::CheckKind::ExpectClose {
                3
            } else {
                0
            },
        ) as i64;
        let count = b.ctx.num_elements(t);
        let id = encode_check_id(b.loc);
        let (i32t, i64t) = (b.ctx.int_ty(32), b.ctx.int_ty(64));
        let f64t = b.ctx.float_ty(strata_ir::FloatKind::F64);
        let args = vec![
            b.const_int(kind as i128, i32t),
            b.const_int(code as i128, i32t),
            actual,
            expected,
            b.const_int(count as i128, i64t),
            b.const_float(tolerance, f64t),
            b.const_int(min_ulp as i128, i64t),
            b.const_int(max_ulp as i128, i64t),
            b.const_int(id as i128, i64t),
        ];
        self.call_runtime(b, &strata_abi::runtime::CHECK, args);
        Ok(())
    }

    /// A module constant holding a runtime call's descriptor (its `i64`
    /// words, see `strata_abi::Descriptor`).
    pub fn descriptor_global(
        &mut self,
        b: &mut Builder<'_>,
        desc: &impl strata_abi::Descriptor,
    ) -> Result<Value> {
        let words = desc.words();
        let i64t = b.ctx.int_ty(64);
        let ty = b.ctx.tensor_ty(&[words.len() as i64], i64t);
        let attr = b.ctx.attr(AttrKind::Dense(strata_ir::DenseElements {
            ty,
            splat: false,
            bits: words.iter().map(|&w| w as u64).collect(),
        }));
        self.global_of_attr(b, attr, ty)
    }

    /// Calls the runtime function `sig` with `args` (buffers as any
    /// memref), declaring it once per module from its signature in
    /// `strata_abi::runtime`; its result, if it has one. A status result is
    /// checked by codegen (a non-zero one returns from the caller): the
    /// signature says so, no attribute on the call or declaration does.
    pub fn call_runtime(
        &mut self,
        b: &mut Builder<'_>,
        sig: &'static strata_abi::runtime::Signature,
        args: Vec<Value>,
    ) -> Option<Value> {
        let fty = runtime_fn_type(b.ctx, sig);
        self.declare_runtime_op(b, sig.name, fty);
        let results = match b.ctx.kind(fty) {
            strata_ir::TypeKind::Function { results, .. } => results.clone(),
            _ => Vec::new(),
        };
        let callee = b.ctx.attr(AttrKind::SymbolRef(sig.name.into()));
        let call = b.insert(
            builtin::CALL,
            args,
            &results,
            vec![("callee".into(), callee)],
        );
        b.ctx.op(call).results.first().copied()
    }

    /// Declares the runtime function `name` once per module, as a bodiless
    /// private `func.func` of type `fty`.
    fn declare_runtime_op(&mut self, b: &mut Builder<'_>, name: &'static str, fty: Type) {
        if !self.state.declared.insert(name) {
            return;
        }
        let attrs = vec![
            ("sym_name".into(), b.ctx.attr(AttrKind::String(name.into()))),
            ("function_type".into(), b.ctx.attr(AttrKind::Type(fty))),
            (
                "sym_visibility".into(),
                b.ctx.attr(AttrKind::String("private".into())),
            ),
        ];
        let decl = b.ctx.create_op(
            builtin::FUNC,
            vec![],
            &[],
            attrs,
            strata_diag::Location::unknown(),
        );
        self.state.add_front(b.ctx, decl);
    }
}

/// The loop-level type of runtime function `sig`: pointers are buffers of
/// any type ([`untyped_buffer`]), a status is an `i32`.
pub fn runtime_fn_type(ctx: &mut Context, sig: &strata_abi::runtime::Signature) -> Type {
    use strata_abi::runtime::{Param, Returns};
    let params = sig
        .params
        .iter()
        .map(|p| match p {
            Param::Ptr => untyped_buffer(ctx),
            Param::I32 => ctx.int_ty(32),
            Param::I64 => ctx.int_ty(64),
            Param::U8 => ctx.uint_ty(8),
            Param::F64 => ctx.float_ty(strata_ir::FloatKind::F64),
        })
        .collect();
    let results = match sig.returns {
        Returns::Nothing => vec![],
        Returns::Status | Returns::I32 => vec![ctx.int_ty(32)],
        Returns::U32 => vec![ctx.uint_ty(32)],
        Returns::I64 => vec![ctx.int_ty(64)],
        Returns::U8 => vec![ctx.uint_ty(8)],
        Returns::F64 => vec![ctx.float_ty(strata_ir::FloatKind::F64)],
        Returns::Ptr => vec![untyped_buffer(ctx)],
    };
    ctx.function_ty(params, results)
}

/// The memref type runtime declarations use for buffers of any type.
pub fn untyped_buffer(ctx: &mut Context) -> Type {
    let i8t = ctx.int_ty(8);
    ctx.memref_ty(&[0], i8t)
}

/// The runtime's element code for `t` (`strata_abi::ElemCode`; f8/f6/f4
/// from `strata_abi::MINIFLOAT_BASE` on).
pub fn elem_code(ctx: &Context, t: Type) -> Option<i32> {
    use strata_abi::ElemCode;
    use strata_ir::{FloatKind, Signedness};
    let code = match ctx.kind(t) {
        TypeKind::Int { width, sign } => ElemCode::of_int(*width, *sign != Signedness::Unsigned)?,
        TypeKind::Float(FloatKind::F16) => ElemCode::F16,
        TypeKind::Float(FloatKind::BF16) => ElemCode::BF16,
        TypeKind::Float(FloatKind::F32) => ElemCode::F32,
        TypeKind::Float(FloatKind::F64) => ElemCode::F64,
        TypeKind::Float(k) => {
            let format = strata_ir::minifloat::format(*k)?;
            return Some(strata_abi::MINIFLOAT_BASE + format.code());
        }
        TypeKind::Complex(p) if matches!(ctx.kind(*p), TypeKind::Float(FloatKind::F32)) => {
            ElemCode::C64
        }
        TypeKind::Complex(_) => ElemCode::C128,
        _ => return None,
    };
    Some(code as i32)
}

/// Packs a source location into the check id the runtime reports back.
pub fn encode_check_id(loc: strata_diag::Location) -> i64 {
    ((loc.file.0 as i64) << 44) | ((loc.line as i64) << 20) | (loc.col as i64 & 0xFFFFF)
}

pub fn decode_check_id(id: i64) -> strata_diag::Location {
    strata_diag::Location {
        file: strata_diag::FileId((id >> 44) as u32),
        line: ((id >> 20) & 0xFF_FFFF) as u32,
        col: (id & 0xFFFFF) as u32,
    }
}
