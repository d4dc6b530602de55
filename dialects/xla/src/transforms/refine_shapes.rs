//! `xla-refine-shapes`: a shape-polymorphic JAX export specialised for given
//! values of its dimension variables (`strata compile --dim b=64`), as XLA
//! compiles such exports: one concrete shape per compilation.
//!
//! JAX's export (`jax.export.symbolic_shape("b, 784")`) has `?` dimensions;
//! its public `@main` reads each from an argument with
//! `get_dimension_size`, checks JAX's constraints with `custom_call
//! @shape_assertion` and passes the values to `@_wrapped_jax_export_main`,
//! whose leading `tensor<i32>` parameters carry `{jax.global_constant =
//! "b"}`. The pass
//! 1. binds each `?` dimension of `@main`'s arguments to the variable whose
//!    value it is (the operand of that parameter, read with
//!    `get_dimension_size`, possibly converted), and sets it to the value of
//!    the module attribute [`DIMENSION_VALUES_ATTR`] (the driver's `--dim`);
//! 2. walks the functions in program order, callees with the types of their
//!    call's operands, evaluating the small integer computations of shapes
//!    (`get_dimension_size`, `convert`, `reshape`, `concatenate`,
//!    arithmetic, `compare`, `select`) and inferring every `?` result from
//!    its operands, `while` and `case` regions included;
//! 3. replaces each evaluated shape value by a constant (so
//!    `xla-static-dynamic-ops` makes `dynamic_broadcast_in_dim` and its
//!    kin static), and checks each `shape_assertion` now: a broken one is an
//!    error with JAX's message, its `{0}`, `{1}`... filled in.
//!
//! An op whose `?` result it cannot infer is a located error naming it.

use std::collections::HashMap;

use strata_diag::{Diagnostic, Result};
use strata_ir::{AttrKind, BlockId, Context, DenseElements, OpId, Type, Value, builtin};

use crate::names::*;

pub const FLAG: &str = "xla-refine-shapes";

/// Module attribute: the value of each dimension variable (a dictionary of
/// integers), set by the driver from `--dim NAME=VALUE`.
pub const DIMENSION_VALUES_ATTR: &str = "strata.dimension_values";

/// Shape values evaluated at compile time are small: at most this many
/// elements (a shape has one per dimension).
const MAX_EVALUATED: i64 = 64;

/// Calls nested deeper than this are refused (the call graph is acyclic,
/// this bounds the work on a deep one).
const MAX_CALL_DEPTH: usize = 64;

pub struct XlaRefineShapesPass;

impl strata_pass::Pass for XlaRefineShapesPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "specialise a shape-polymorphic module for the dimension values given (--dim b=64)"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        if !is_shape_polymorphic(ctx, module) {
            return Ok(());
        }
        let publics: Vec<OpId> = builtin::defined_funcs(ctx, module)
            .into_iter()
            .filter(|&f| !builtin::is_private(ctx, f) && has_dynamic_signature(ctx, f))
            .collect();
        let values = dimension_values(ctx, module);
        let mut refiner = Refiner {
            known: HashMap::new(),
            refined: HashMap::new(),
            module,
        };
        for f in publics {
            let types = argument_types(ctx, f, &values)?;
            refiner.function(ctx, f, &types, 0)?;
        }
        refiner.materialize_constants(ctx);
        Ok(())
    }
}

/// Names of the dimension variables a module's public functions read, in
/// the order of `@_wrapped_jax_export_main`'s parameters (for diagnostics).
pub fn dimension_variables(ctx: &Context, module: OpId) -> Vec<String> {
    let mut names = Vec::new();
    for f in builtin::defined_funcs(ctx, module) {
        if builtin::is_private(ctx, f) {
            continue;
        }
        for (name, _, _) in bindings(ctx, f) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// Whether `module` is a shape-polymorphic export to specialise: a public
/// function with `?` dimensions that reads dimension variables, or any `?`
/// when values are given. (Other `?` shapes are left to the verifiers,
/// which reject them.)
pub fn is_shape_polymorphic(ctx: &Context, module: OpId) -> bool {
    let valued = ctx.attr_of(module, DIMENSION_VALUES_ATTR).is_some();
    builtin::defined_funcs(ctx, module).into_iter().any(|f| {
        !builtin::is_private(ctx, f)
            && has_dynamic_signature(ctx, f)
            && (valued || !bindings(ctx, f).is_empty())
    })
}

fn has_dynamic_signature(ctx: &Context, f: OpId) -> bool {
    builtin::func_signature(ctx, f).is_some_and(|(ins, outs)| {
        ins.iter()
            .chain(&outs)
            .any(|&t| ctx.shape(t).is_some_and(|s| s.iter().any(|&d| d < 0)))
    })
}

fn dimension_values(ctx: &Context, module: OpId) -> HashMap<String, i64> {
    let Some(AttrKind::Dict(entries)) = ctx
        .attr_of(module, DIMENSION_VALUES_ATTR)
        .map(|a| ctx.attr_kind(a))
    else {
        return HashMap::new();
    };
    entries
        .iter()
        .filter_map(|(k, a)| match ctx.attr_kind(*a) {
            AttrKind::Int { value, .. } => Some((k.clone(), i64::try_from(*value).ok()?)),
            _ => None,
        })
        .collect()
}

/// `(variable, argument, dimension)` for each dimension variable `f` passes
/// to a callee's `jax.global_constant` parameter straight from an
/// argument's `get_dimension_size`: where a caller finds each variable's
/// value (`strata run` reads them from the shapes of its `.npy` inputs).
pub fn bindings(ctx: &Context, f: OpId) -> Vec<(String, usize, usize)> {
    let Some(entry) = ctx.entry_block(f, 0) else {
        return vec![];
    };
    let args = &ctx.blocks[entry].args;
    let mut found = Vec::new();
    for &op in &ctx.blocks[entry].ops {
        if ctx.op(op).name != builtin::CALL {
            continue;
        }
        let Some(callee) = callee(ctx, op) else {
            continue;
        };
        for (i, &operand) in ctx.op(op).operands.iter().enumerate() {
            let Some(name) = global_constant(ctx, callee, i) else {
                continue;
            };
            if let Some((arg, dim)) = dimension_read(ctx, operand, args) {
                found.push((name, arg, dim));
            }
        }
    }
    found
}

fn callee(ctx: &Context, call: OpId) -> Option<OpId> {
    let AttrKind::SymbolRef(name) = ctx.attr_kind(ctx.attr_of(call, "callee")?) else {
        return None;
    };
    let module = enclosing_module(ctx, call)?;
    builtin::lookup_func(ctx, module, name)
}

fn enclosing_module(ctx: &Context, op: OpId) -> Option<OpId> {
    let mut at = op;
    loop {
        let parent = ctx.block_parent_op(ctx.op(at).parent?)?;
        if ctx.op(parent).name == builtin::MODULE {
            return Some(parent);
        }
        at = parent;
    }
}

/// The `jax.global_constant` name of parameter `i` of `f` (dimension
/// variables only: not the platform index).
fn global_constant(ctx: &Context, f: OpId, i: usize) -> Option<String> {
    let AttrKind::Array(dicts) = ctx.attr_kind(ctx.attr_of(f, "arg_attrs")?) else {
        return None;
    };
    let AttrKind::Dict(entries) = ctx.attr_kind(*dicts.get(i)?) else {
        return None;
    };
    let (_, a) = entries.iter().find(|(k, _)| k == "jax.global_constant")?;
    match ctx.attr_kind(*a) {
        AttrKind::String(s) if s != "_platform_index" => Some(s.clone()),
        _ => None,
    }
}

/// `(argument, dimension)` when `v` is `get_dimension_size` of one of
/// `args` (through converts and reshapes of a scalar).
fn dimension_read(ctx: &Context, mut v: Value, args: &[Value]) -> Option<(usize, usize)> {
    for _ in 0..8 {
        let def = ctx.defining_op(v)?;
        match ctx.op(def).name {
            CONVERT | RESHAPE => v = *ctx.op(def).operands.first()?,
            GET_DIMENSION_SIZE => {
                let of = *ctx.op(def).operands.first()?;
                let arg = args.iter().position(|&a| a == of)?;
                let dim = usize::try_from(ctx.int_attr(def, "dimension")?).ok()?;
                return Some((arg, dim));
            }
            _ => return None,
        }
    }
    None
}

/// `f`'s argument types with each `?` set to its variable's value.
fn argument_types(ctx: &mut Context, f: OpId, values: &HashMap<String, i64>) -> Result<Vec<Type>> {
    let loc = ctx.op(f).loc;
    let name = builtin::func_name(ctx, f).unwrap_or("?").to_string();
    let (inputs, _) = builtin::func_signature(ctx, f)
        .ok_or_else(|| Diagnostic::internal(loc, "function without a signature"))?;
    let bound = bindings(ctx, f);
    let mut types = Vec::with_capacity(inputs.len());
    for (i, t) in inputs.into_iter().enumerate() {
        let Some(shape) = ctx.shape(t).map(|s| s.to_vec()) else {
            types.push(t);
            continue;
        };
        let mut refined = shape.clone();
        for (d, size) in refined.iter_mut().enumerate() {
            if *size >= 0 {
                continue;
            }
            let Some((var, _, _)) = bound.iter().find(|(_, a, dd)| *a == i && *dd == d) else {
                return Err(Diagnostic::unsupported(
                    loc,
                    format!(
                        "@{name}: dimension {d} of argument {i} is symbolic but not the value of a \
                         dimension variable (only dimensions equal to a variable are supported)"
                    ),
                ));
            };
            let Some(&value) = values.get(var) else {
                let mut all: Vec<&str> = bound.iter().map(|(v, _, _)| v.as_str()).collect();
                all.dedup();
                return Err(Diagnostic::error(
                    loc,
                    format!(
                        "@{name} is shape-polymorphic (dimension variables {}): give each a value \
                         with --dim {var}=N",
                        all.join(", ")
                    ),
                ));
            };
            if !(0..=(1 << 40)).contains(&value) {
                return Err(Diagnostic::error(
                    loc,
                    format!("dimension variable {var} = {value} is out of range"),
                ));
            }
            *size = value;
        }
        let elem = ctx.elem(t);
        types.push(ctx.tensor_ty(&refined, elem));
    }
    Ok(types)
}

struct Refiner {
    /// Small integer tensors evaluated at compile time (shape values).
    known: HashMap<Value, Vec<i64>>,
    /// Callees refined so far, with the argument types they were refined
    /// for (a second call with other types is not supported).
    refined: HashMap<OpId, Vec<Type>>,
    module: OpId,
}

fn is_dynamic(ctx: &Context, t: Type) -> bool {
    ctx.shape(t).is_some_and(|s| s.iter().any(|&d| d < 0))
}

fn shape(ctx: &Context, v: Value) -> Vec<i64> {
    ctx.shape(ctx.value_ty(v))
        .map(|s| s.to_vec())
        .unwrap_or_default()
}

impl Refiner {
    /// Gives `f` the argument types `types` and refines its body; returns
    /// its result types.
    fn function(
        &mut self,
        ctx: &mut Context,
        f: OpId,
        types: &[Type],
        depth: usize,
    ) -> Result<Vec<Type>> {
        let loc = ctx.op(f).loc;
        if depth > MAX_CALL_DEPTH {
            return Err(Diagnostic::unsupported(
                loc,
                "calls nested too deep to refine",
            ));
        }
        if let Some(done) = self.refined.get(&f) {
            if done.as_slice() != types {
                return Err(Diagnostic::unsupported(
                    loc,
                    "a shape-polymorphic function called with two different shapes",
                ));
            }
            return Ok(builtin::func_signature(ctx, f)
                .map(|(_, o)| o)
                .unwrap_or_default());
        }
        self.refined.insert(f, types.to_vec());
        let entry = ctx.entry_block(f, 0).ok_or_else(|| {
            Diagnostic::unsupported(loc, "a shape-polymorphic function without a body")
        })?;
        let args = ctx.blocks[entry].args.clone();
        if args.len() != types.len() {
            return Err(Diagnostic::error(
                loc,
                "call with the wrong number of operands",
            ));
        }
        for (&a, &t) in args.iter().zip(types) {
            ctx.values[a].ty = t;
        }
        let returned = self.block(ctx, entry, depth)?;
        let fty = ctx.function_ty(types.to_vec(), returned.clone());
        let a = ctx.attr(AttrKind::Type(fty));
        ctx.set_attr(f, "function_type", a);
        Ok(returned)
    }

    /// Refines the ops of `block` in order; returns the types its
    /// terminator returns.
    fn block(&mut self, ctx: &mut Context, block: BlockId, depth: usize) -> Result<Vec<Type>> {
        for op in ctx.blocks[block].ops.clone() {
            let name = ctx.op(op).name;
            if name == builtin::RETURN || name == RETURN {
                let operands = ctx.op(op).operands.clone();
                return Ok(operands.iter().map(|&v| ctx.value_ty(v)).collect());
            }
            self.op(ctx, op, depth)?;
        }
        Ok(vec![])
    }

    fn op(&mut self, ctx: &mut Context, op: OpId, depth: usize) -> Result<()> {
        let name = ctx.op(op).name;
        match name {
            builtin::CALL => return self.call(ctx, op, depth),
            WHILE => return self.while_loop(ctx, op, depth),
            IF | CASE => return self.branches(ctx, op, depth),
            CUSTOM_CALL => return self.custom_call(ctx, op),
            _ => {}
        }
        let results = ctx.op(op).results.clone();
        if results.iter().any(|&r| is_dynamic(ctx, ctx.value_ty(r))) {
            let shapes = self.infer(ctx, op)?;
            for (&r, s) in results.iter().zip(shapes) {
                let elem = ctx.elem(ctx.value_ty(r));
                ctx.values[r].ty = ctx.tensor_ty(&s, elem);
            }
        }
        self.evaluate(ctx, op);
        Ok(())
    }

    fn call(&mut self, ctx: &mut Context, op: OpId, depth: usize) -> Result<()> {
        let operands = ctx.op(op).operands.clone();
        let types: Vec<Type> = operands.iter().map(|&v| ctx.value_ty(v)).collect();
        // A callee refined before (called again) or with `?` in its type.
        let Some(g) = callee(ctx, op).filter(|&g| {
            self.refined.contains_key(&g)
                || builtin::func_signature(ctx, g)
                    .is_some_and(|(ins, outs)| ins.iter().chain(&outs).any(|&t| is_dynamic(ctx, t)))
        }) else {
            return Ok(());
        };
        // The callee's global-constant parameters are the values passed.
        if let Some(entry) = ctx.entry_block(g, 0) {
            let params = ctx.blocks[entry].args.clone();
            for (p, v) in params.into_iter().zip(&operands) {
                if let Some(k) = self.known.get(v).cloned() {
                    self.known.insert(p, k);
                }
            }
        }
        let outs = self.function(ctx, g, &types, depth + 1)?;
        for (r, t) in ctx.op(op).results.clone().into_iter().zip(outs) {
            ctx.values[r].ty = t;
        }
        Ok(())
    }

    fn while_loop(&mut self, ctx: &mut Context, op: OpId, depth: usize) -> Result<()> {
        let types: Vec<Type> = ctx
            .op(op)
            .operands
            .iter()
            .map(|&v| ctx.value_ty(v))
            .collect();
        for region in ctx.op(op).regions.clone() {
            for block in ctx.regions[region].blocks.clone() {
                for (a, &t) in ctx.blocks[block].args.clone().into_iter().zip(&types) {
                    ctx.values[a].ty = t;
                }
                self.block(ctx, block, depth)?;
            }
        }
        for (r, &t) in ctx.op(op).results.clone().into_iter().zip(&types) {
            ctx.values[r].ty = t;
        }
        Ok(())
    }

    fn branches(&mut self, ctx: &mut Context, op: OpId, depth: usize) -> Result<()> {
        let mut first: Option<Vec<Type>> = None;
        for region in ctx.op(op).regions.clone() {
            for block in ctx.regions[region].blocks.clone() {
                let returned = self.block(ctx, block, depth)?;
                first.get_or_insert(returned);
            }
        }
        if let Some(types) = first {
            for (r, t) in ctx.op(op).results.clone().into_iter().zip(types) {
                ctx.values[r].ty = t;
            }
        }
        Ok(())
    }

    /// `shape_assertion` with its predicate known: checked now.
    fn custom_call(&mut self, ctx: &mut Context, op: OpId) -> Result<()> {
        if ctx.str_attr(op, "call_target_name") != Some("shape_assertion") {
            if ctx
                .op(op)
                .results
                .iter()
                .any(|&r| is_dynamic(ctx, ctx.value_ty(r)))
            {
                return Err(ctx.error(op, "has a symbolic result shape, which cannot be refined"));
            }
            return Ok(());
        }
        let operands = ctx.op(op).operands.clone();
        let Some(holds) = operands.first().and_then(|p| self.known.get(p)) else {
            return Err(ctx.error(op, "checks a condition that is not known at compile time"));
        };
        if holds.first().copied().unwrap_or(0) != 0 {
            ctx.detach_op(op);
            return Ok(());
        }
        let mut message = ctx
            .str_attr(op, "error_message")
            .unwrap_or("shape assertion failed")
            .to_string();
        for (i, v) in operands.iter().enumerate().skip(1) {
            if let Some(value) = self.known.get(v).and_then(|k| k.first()) {
                message = message.replace(&format!("{{{}}}", i - 1), &value.to_string());
            }
        }
        Err(Diagnostic::error(ctx.op(op).loc, message))
    }

    /// The shapes of `op`'s results, from its operands and attributes.
    fn infer(&self, ctx: &Context, op: OpId) -> Result<Vec<Vec<i64>>> {
        let name = ctx.op(op).name;
        let operands = &ctx.op(op).operands;
        let results = &ctx.op(op).results;
        // Runs before verification: an op may have no result at all.
        let Some(&first_result) = results.first() else {
            return Ok(vec![]);
        };
        let cannot = || {
            ctx.error(
                op,
                "has a symbolic result shape that cannot be refined from its operands",
            )
        };
        let operand = |i: usize| operands.get(i).map(|&v| shape(ctx, v)).ok_or_else(cannot);
        let ints = |i: usize| {
            operands
                .get(i)
                .and_then(|v| self.known.get(v))
                .cloned()
                .ok_or_else(cannot)
        };
        let attr = |key: &str| ctx.i64_array(op, key).ok_or_else(cannot);
        let same_rank = || -> Result<Vec<i64>> {
            let rank = ctx.shape(ctx.value_ty(first_result)).map_or(0, |s| s.len());
            operands
                .iter()
                .map(|&v| shape(ctx, v))
                .find(|s| s.len() == rank && s.iter().all(|&d| d >= 0))
                .ok_or_else(cannot)
        };
        let one = |s: Vec<i64>| Ok(vec![s]);
        match name {
            DYNAMIC_BROADCAST_IN_DIM | DYNAMIC_RESHAPE | DYNAMIC_IOTA => {
                one(ints(if name == DYNAMIC_IOTA { 0 } else { 1 })?)
            }
            DOT_GENERAL => {
                let (l, r) = (operand(0)?, operand(1)?);
                let d = crate::ops::dot::dot_dims(ctx, op).ok_or_else(cannot)?;
                let pick = |s: &[i64], dims: &[i64]| -> Vec<i64> {
                    dims.iter()
                        .filter_map(|&i| s.get(i as usize).copied())
                        .collect()
                };
                let free = |s: &[i64], batch: &[i64], contract: &[i64]| -> Vec<i64> {
                    (0..s.len() as i64)
                        .filter(|i| !batch.contains(i) && !contract.contains(i))
                        .map(|i| s[i as usize])
                        .collect()
                };
                let mut out = pick(&l, &d.lhs_batch);
                out.extend(free(&l, &d.lhs_batch, &d.lhs_contract));
                out.extend(free(&r, &d.rhs_batch, &d.rhs_contract));
                one(out)
            }
            REDUCE => {
                let dims = attr("dimensions")?;
                let s = operand(0)?;
                let kept: Vec<i64> = (0..s.len() as i64)
                    .filter(|i| !dims.contains(i))
                    .map(|i| s[i as usize])
                    .collect();
                Ok(vec![kept; results.len()])
            }
            BROADCAST_IN_DIM => {
                let dims = attr("broadcast_dimensions")?;
                let s = operand(0)?;
                let mut out = ctx
                    .shape(ctx.value_ty(first_result))
                    .map(|s| s.to_vec())
                    .unwrap_or_default();
                for (i, &d) in dims.iter().enumerate() {
                    if let (Some(o), Some(&src)) = (out.get_mut(d as usize), s.get(i)) {
                        if *o < 0 {
                            *o = src;
                        }
                    }
                }
                if out.iter().any(|&d| d < 0) {
                    return Err(cannot());
                }
                one(out)
            }
            TRANSPOSE => {
                let perm = attr("permutation")?;
                let s = operand(0)?;
                one(perm
                    .iter()
                    .filter_map(|&p| s.get(p as usize).copied())
                    .collect())
            }
            RESHAPE => {
                let total: i64 = operand(0)?.iter().fold(1i64, |a, &d| a.saturating_mul(d));
                let mut out = ctx
                    .shape(ctx.value_ty(first_result))
                    .map(|s| s.to_vec())
                    .unwrap_or_default();
                let known: i64 = out
                    .iter()
                    .filter(|&&d| d >= 0)
                    .fold(1i64, |a, &d| a.saturating_mul(d));
                let unknown = out.iter().filter(|&&d| d < 0).count();
                if unknown != 1 || known == 0 || total % known != 0 {
                    return Err(cannot());
                }
                for d in out.iter_mut().filter(|d| **d < 0) {
                    *d = total / known;
                }
                one(out)
            }
            CONCATENATE => {
                let dim = ctx.int_attr(op, "dimension").ok_or_else(cannot)? as usize;
                let mut out = operand(0)?;
                let mut sum = 0;
                for i in 0..operands.len() {
                    sum = operand(i)?
                        .get(dim)
                        .copied()
                        .ok_or_else(cannot)?
                        .saturating_add(sum);
                }
                *out.get_mut(dim).ok_or_else(cannot)? = sum;
                one(out)
            }
            SLICE => {
                let (start, limit, strides) = (
                    attr("start_indices")?,
                    attr("limit_indices")?,
                    attr("strides")?,
                );
                one(start
                    .iter()
                    .zip(&limit)
                    .zip(&strides)
                    .map(|((s, l), t)| slice_size(*s, *l, *t))
                    .collect())
            }
            REAL_DYNAMIC_SLICE => {
                let (start, limit, strides) = (ints(1)?, ints(2)?, ints(3)?);
                one(start
                    .iter()
                    .zip(&limit)
                    .zip(&strides)
                    .map(|((s, l), t)| slice_size(*s, *l, *t))
                    .collect())
            }
            DYNAMIC_PAD | PAD => {
                let (low, high, interior) = if name == PAD {
                    (
                        attr("edge_padding_low")?,
                        attr("edge_padding_high")?,
                        attr("interior_padding")?,
                    )
                } else {
                    (ints(2)?, ints(3)?, ints(4)?)
                };
                let s = operand(0)?;
                one(s
                    .iter()
                    .enumerate()
                    .map(|(i, &d)| {
                        let inner = if d > 0 {
                            (d - 1).saturating_mul(interior.get(i).copied().unwrap_or(0))
                        } else {
                            0
                        };
                        d.saturating_add(inner)
                            .saturating_add(low.get(i).copied().unwrap_or(0))
                            .saturating_add(high.get(i).copied().unwrap_or(0))
                    })
                    .collect())
            }
            GATHER | DYNAMIC_GATHER => {
                let sizes = if name == GATHER {
                    attr("slice_sizes")?
                } else {
                    ints(2)?
                };
                let g = crate::ops::gather::gather_dims(ctx, op).ok_or_else(cannot)?;
                let indices = operand(1)?;
                let batch: Vec<i64> = (0..indices.len() as i64)
                    .filter(|&i| i != g.index_vector_dim)
                    .map(|i| indices[i as usize])
                    .collect();
                let offsets: Vec<i64> = (0..sizes.len() as i64)
                    .filter(|i| {
                        !g.collapsed_slice_dims.contains(i) && !g.operand_batching_dims.contains(i)
                    })
                    .map(|i| sizes[i as usize])
                    .collect();
                let rank = batch.len() + offsets.len();
                let (mut b, mut o) = (batch.into_iter(), offsets.into_iter());
                one((0..rank as i64)
                    .map(|i| {
                        if g.offset_dims.contains(&i) {
                            o.next()
                        } else {
                            b.next()
                        }
                    })
                    .collect::<Option<Vec<i64>>>()
                    .ok_or_else(cannot)?)
            }
            _ => {
                let s = same_rank()?;
                Ok(vec![s; results.len()])
            }
        }
    }

    /// Records `op`'s value when it is a small integer computation on known
    /// values (the arithmetic of shapes).
    fn evaluate(&mut self, ctx: &Context, op: OpId) {
        let Some(&r) = ctx.op(op).results.first() else {
            return;
        };
        let t = ctx.value_ty(r);
        let elem = ctx.elem(t);
        if !ctx.is_int(elem) || is_dynamic(ctx, t) || ctx.num_elements(t) > MAX_EVALUATED {
            return;
        }
        let n = ctx.num_elements(t) as usize;
        let operands = &ctx.op(op).operands;
        let arg = |i: usize| operands.get(i).and_then(|v| self.known.get(v));
        let value: Option<Vec<i64>> = match ctx.op(op).name {
            // Before verification the value's type may not be the result's:
            // only a value of the result's type (or a splat) is read.
            CONSTANT => ctx
                .dense_attr(op, "value")
                .filter(|d| d.ty == t && (d.splat || d.bits.len() >= n))
                .map(|d| {
                    (0..n)
                        .map(|i| {
                            let bits = strata_ir::dense::element_bits(ctx, d, i)
                                .first()
                                .copied()
                                .unwrap_or(0);
                            strata_ir::dense::int_value(ctx, bits, elem) as i64
                        })
                        .collect()
                }),
            GET_DIMENSION_SIZE => {
                let of = operands.first().map(|&v| shape(ctx, v)).unwrap_or_default();
                ctx.int_attr(op, "dimension")
                    .and_then(|d| of.get(usize::try_from(d).ok()?).copied())
                    .filter(|&d| d >= 0)
                    .map(|d| vec![d])
            }
            CONVERT | RESHAPE | BITCAST_CONVERT
                if operands
                    .first()
                    .is_some_and(|&v| ctx.is_int(ctx.elem(ctx.value_ty(v)))) =>
            {
                arg(0).cloned().filter(|v| v.len() == n)
            }
            BROADCAST_IN_DIM => arg(0).filter(|v| v.len() == 1).map(|v| vec![v[0]; n]),
            CONCATENATE => {
                let mut all = Vec::new();
                for i in 0..operands.len() {
                    all.extend(arg(i).cloned().unwrap_or_default());
                }
                (all.len() == n).then_some(all)
            }
            SELECT => match (arg(0), arg(1), arg(2)) {
                (Some(p), Some(a), Some(b)) => (0..n)
                    .map(|i| {
                        // A 0-d predicate selects whole operands.
                        let holds = p.get(i).or(p.first())?;
                        if *holds != 0 { a.get(i) } else { b.get(i) }.copied()
                    })
                    .collect(),
                _ => None,
            },
            COMPARE => match (arg(0), arg(1), ctx.str_attr(op, "comparison_direction")) {
                (Some(a), Some(b), Some(dir)) => compare(a, b, dir),
                _ => None,
            },
            name => match (arg(0), arg(1)) {
                (Some(a), Some(b)) if a.len() == n && b.len() == n => binary(name, a, b),
                (Some(a), None) if a.len() == n && name == NEGATE => {
                    Some(a.iter().map(|x| x.wrapping_neg()).collect())
                }
                _ => None,
            },
        };
        if let Some(v) = value {
            self.known.insert(r, v);
        }
    }

    /// Replaces every evaluated shape value computed by an op (not already a
    /// constant) by a constant, so the dynamic ops reading it become static.
    fn materialize_constants(&self, ctx: &mut Context) {
        let mut ops = Vec::new();
        ctx.walk_nested(self.module, &mut |o| ops.push(o));
        let mut replaced: HashMap<Value, Value> = HashMap::new();
        for op in ops {
            let Some(&r) = ctx.op(op).results.first() else {
                continue;
            };
            if ctx.op(op).name == CONSTANT || ctx.op(op).parent.is_none() {
                continue;
            }
            let Some(values) = self.known.get(&r) else {
                continue;
            };
            let Some(block) = ctx.op(op).parent else {
                continue;
            };
            let t = ctx.value_ty(r);
            let width = ctx.bit_width(ctx.elem(t));
            let mask = if width >= 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            let dense = ctx.attr(AttrKind::Dense(DenseElements {
                ty: t,
                splat: false,
                bits: values.iter().map(|&v| v as u64 & mask).collect(),
            }));
            let loc = ctx.op(op).loc;
            let c = ctx.create_op(CONSTANT, vec![], &[t], vec![("value".into(), dense)], loc);
            let at = ctx.blocks[block]
                .ops
                .iter()
                .position(|&o| o == op)
                .unwrap_or(0);
            ctx.insert_op_at(block, at, c);
            replaced.insert(r, ctx.op(c).results[0]);
        }
        let mut all = Vec::new();
        ctx.walk_nested(self.module, &mut |o| all.push(o));
        for o in all {
            for i in 0..ctx.op(o).operands.len() {
                if let Some(&to) = replaced.get(&ctx.op(o).operands[i]) {
                    ctx.op_mut(o).operands[i] = to;
                }
            }
        }
    }
}

/// Elements of a slice from `start` to `limit` by `stride` (saturating: the
/// operands are the model's).
fn slice_size(start: i64, limit: i64, stride: i64) -> i64 {
    let stride = stride.max(1);
    limit
        .saturating_sub(start)
        .saturating_add(stride - 1)
        .max(0)
        / stride
}

fn binary(name: &str, a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| match name {
            ADD => x.checked_add(y),
            SUBTRACT => x.checked_sub(y),
            MULTIPLY => x.checked_mul(y),
            DIVIDE => x.checked_div(y),
            REMAINDER => x.checked_rem(y),
            MAXIMUM => Some(x.max(y)),
            MINIMUM => Some(x.min(y)),
            AND => Some(x & y),
            OR => Some(x | y),
            _ => None,
        })
        .collect()
}

fn compare(a: &[i64], b: &[i64], dir: &str) -> Option<Vec<i64>> {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| {
            let holds = match dir {
                "EQ" => x == y,
                "NE" => x != y,
                "LT" => x < y,
                "LE" => x <= y,
                "GT" => x > y,
                "GE" => x >= y,
                _ => return None,
            };
            Some(i64::from(holds))
        })
        .collect()
}
