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

mod bindings;
mod evaluate_calls;
mod infer;

use bindings::callee;
pub use bindings::{Binding, bindings, dimension_size_read, names_its_variables, unnamed_variable};

pub const FLAG: &str = "xla-refine-shapes";

/// Module attribute: the value of each dimension variable (a dictionary of
/// integers), set by the driver from `--dim NAME=VALUE`.
pub const DIMENSION_VALUES_ATTR: &str = "strata.dimension_values";

/// Shape values evaluated at compile time are small: at most this many
/// elements (a shape has one per dimension).
const MAX_EVALUATED: i64 = 64;

/// The largest value of a dimension variable, or of an argument dimension
/// computed from one.
const MAX_DIMENSION: i64 = 1 << 40;

/// Calls nested deeper than this are refused (the call graph is acyclic,
/// this bounds the work on a deep one).
const MAX_CALL_DEPTH: usize = 64;

/// The most ops evaluated in calls of functions of static types (see
/// `Refiner::evaluate_call`) in one refinement.
const MAX_EVALUATED_CALL_OPS: usize = 100_000;

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
        check_known(ctx, module, &values)?;
        let mut refiner = Refiner {
            known: HashMap::new(),
            refined: HashMap::new(),
            module,
            values,
            evaluated: HashMap::new(),
            budget: MAX_EVALUATED_CALL_OPS,
        };
        for f in publics {
            let types = argument_types(ctx, f, &refiner.values)?;
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
        for b in bindings(ctx, f) {
            if !names.contains(&b.var) {
                names.push(b.var);
            }
        }
    }
    names
}

/// Whether `module` is a shape-polymorphic program to specialise: a
/// public function with `?` dimensions and dimension variables (JAX's, or
/// one per `?` argument dimension: see [`bindings`]), or any `?` when
/// values are given. (Other `?` shapes, in results only, are left to the
/// verifiers, which reject them.)
pub fn is_shape_polymorphic(ctx: &Context, module: OpId) -> bool {
    let valued = ctx.attr_of(module, DIMENSION_VALUES_ATTR).is_some();
    builtin::defined_funcs(ctx, module).into_iter().any(|f| {
        !builtin::is_private(ctx, f)
            && has_dynamic_signature(ctx, f)
            && (valued || !bindings(ctx, f).is_empty())
    })
}

/// Every value given names a dimension variable of `module`: a misspelt
/// `--dim` would otherwise leave the variable it meant free.
fn check_known(ctx: &Context, module: OpId, values: &HashMap<String, i64>) -> Result<()> {
    let variables = dimension_variables(ctx, module);
    let mut unknown: Vec<&String> = values.keys().filter(|k| !variables.contains(k)).collect();
    unknown.sort();
    match unknown.first() {
        None => Ok(()),
        Some(name) => Err(Diagnostic::error(
            ctx.op(module).loc,
            format!(
                "--dim {name}: the module has no dimension variable {name} (its variables: {})",
                variables.join(", ")
            ),
        )),
    }
}

fn has_dynamic_signature(ctx: &Context, f: OpId) -> bool {
    builtin::func_signature(ctx, f).is_some_and(|(ins, outs)| {
        ins.iter()
            .chain(&outs)
            .any(|&t| ctx.types.shape(t).is_some_and(|s| s.iter().any(|&d| d < 0)))
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

/// `f`'s argument types with each `?` set to its variable's value.
fn argument_types(ctx: &mut Context, f: OpId, values: &HashMap<String, i64>) -> Result<Vec<Type>> {
    let loc = ctx.op(f).loc;
    let name = builtin::func_name(ctx, f).unwrap_or("?").to_string();
    let (inputs, _) = builtin::func_signature(ctx, f)
        .ok_or_else(|| Diagnostic::internal(loc, "function without a signature"))?;
    let bound = bindings(ctx, f);
    let mut types = Vec::with_capacity(inputs.len());
    for (i, t) in inputs.into_iter().enumerate() {
        let Some(shape) = ctx.types.shape(t).map(|s| s.to_vec()) else {
            types.push(t);
            continue;
        };
        let mut refined = shape.clone();
        for (d, size) in refined.iter_mut().enumerate() {
            if *size >= 0 {
                continue;
            }
            let Some(binding) = bound.iter().find(|b| (b.arg, b.dim) == (i, d)) else {
                return Err(Diagnostic::unsupported(
                    loc,
                    format!(
                        "@{name}: dimension {d} of argument {i} is symbolic but not a formula of a \
                         dimension variable (only k*b + c is supported)"
                    ),
                ));
            };
            let var = &binding.var;
            let Some(&value) = values.get(var) else {
                let mut all: Vec<&str> = bound.iter().map(|b| b.var.as_str()).collect();
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
            let in_range = |n: &i64| (0..=MAX_DIMENSION).contains(n);
            let Some(sized) = Some(value)
                .filter(in_range)
                .and_then(|v| binding.size(v))
                .filter(in_range)
            else {
                return Err(Diagnostic::error(
                    loc,
                    format!(
                        "dimension variable {var} = {value} is out of range (dimension {d} of \
                         argument {i} is {})",
                        binding.formula()
                    ),
                ));
            };
            *size = sized;
        }
        let elem = ctx.types.elem(t);
        types.push(ctx.types.tensor_ty(&refined, elem));
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
    /// The dimension variables' values.
    values: HashMap<String, i64>,
    /// Calls of functions of static types evaluated so far: their results
    /// for their operands' values (see `evaluate_call`).
    evaluated: HashMap<(OpId, Vec<Vec<i64>>), Vec<Option<Vec<i64>>>>,
    /// Ops still to evaluate in such calls (a chain of functions each
    /// calling the next twice must not cost 2^depth).
    budget: usize,
}

fn is_dynamic(ctx: &Context, t: Type) -> bool {
    ctx.types.shape(t).is_some_and(|s| s.iter().any(|&d| d < 0))
}

fn shape(ctx: &Context, v: Value) -> Vec<i64> {
    ctx.types
        .shape(ctx.value_ty(v))
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
        let fty = ctx.types.function_ty(types.to_vec(), returned.clone());
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
                let operands = ctx.op(op).operands().to_vec();
                return Ok(operands.iter().map(|&v| ctx.value_ty(v)).collect());
            }
            self.op(ctx, op, depth)?;
        }
        Ok(vec![])
    }

    fn op(&mut self, ctx: &mut Context, op: OpId, depth: usize) -> Result<()> {
        let name = ctx.op(op).name;
        match name {
            builtin::CALL | COMPOSITE => return self.call(ctx, op, depth),
            WHILE => return self.while_loop(ctx, op, depth),
            IF | CASE => return self.branches(ctx, op, depth),
            CUSTOM_CALL => return self.custom_call(ctx, op),
            _ => {}
        }
        let results = ctx.op(op).results.clone();
        if results.iter().any(|&r| is_dynamic(ctx, ctx.value_ty(r))) {
            let shapes = self.infer(ctx, op)?;
            for (&r, s) in results.iter().zip(shapes) {
                let elem = ctx.types.elem(ctx.value_ty(r));
                ctx.values[r].ty = ctx.types.tensor_ty(&s, elem);
            }
        }
        self.evaluate(ctx, op);
        Ok(())
    }

    fn call(&mut self, ctx: &mut Context, op: OpId, depth: usize) -> Result<()> {
        let operands = ctx.op(op).operands().to_vec();
        let types: Vec<Type> = operands.iter().map(|&v| ctx.value_ty(v)).collect();
        let Some(g) = callee(ctx, op) else {
            return Ok(());
        };
        self.check_passed_variables(ctx, op, g)?;
        // A callee refined before (called again) or with `?` in its type
        // is refined; another's results are evaluated when they are shape
        // values.
        let dynamic = self.refined.contains_key(&g)
            || builtin::func_signature(ctx, g)
                .is_some_and(|(ins, outs)| ins.iter().chain(&outs).any(|&t| is_dynamic(ctx, t)));
        if !dynamic {
            self.evaluate_call(ctx, op, g, depth);
            return Ok(());
        }
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
            .operands()
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
                return self.shaped_custom_call(ctx, op);
            }
            return Ok(());
        }
        let operands = ctx.op(op).operands().to_vec();
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

    /// Replaces every evaluated shape value computed by an op (not already a
    /// constant) by a constant, so the dynamic ops reading it become static.
    /// A custom call whose results' shapes are operands of it
    /// (`indices_of_shape_operands`: JAX exports its LAPACK calls so with
    /// symbolic shapes): each result takes the value of its shape operand,
    /// and the shape operands (trailing, after the data operands), their
    /// layouts and the attribute go, leaving the call a static export's.
    fn shaped_custom_call(&mut self, ctx: &mut Context, op: OpId) -> Result<()> {
        let cannot = || ctx.error(op, "has a symbolic result shape, which cannot be refined");
        let indices = ctx
            .i64_array(op, "indices_of_shape_operands")
            .ok_or_else(cannot)?;
        let (operands, results) = (ctx.op(op).operands().to_vec(), ctx.op(op).results.clone());
        let data = operands
            .len()
            .checked_sub(indices.len())
            .ok_or_else(cannot)?;
        let trailing = indices
            .iter()
            .enumerate()
            .all(|(i, &k)| usize::try_from(k) == Ok(data + i));
        if !trailing || indices.len() != results.len() {
            return Err(cannot());
        }
        let mut shapes = Vec::with_capacity(results.len());
        for (&r, &v) in results.iter().zip(&operands[data..]) {
            let rank = ctx.types.shape(ctx.value_ty(r)).map_or(0, <[i64]>::len);
            let shape = self.known.get(&v).cloned().ok_or_else(cannot)?;
            if shape.len() != rank || shape.iter().any(|&d| d < 0) {
                return Err(cannot());
            }
            shapes.push(shape);
        }
        for (&r, shape) in results.iter().zip(&shapes) {
            let elem = ctx.types.elem(ctx.value_ty(r));
            ctx.values[r].ty = ctx.types.tensor_ty(shape, elem);
        }
        let kept = ctx.op(op).operands()[..data].to_vec();
        ctx.set_operands(op, kept);
        ctx.remove_attr(op, "indices_of_shape_operands");
        if let Some(AttrKind::Array(layouts)) = ctx
            .attr_of(op, "operand_layouts")
            .map(|a| ctx.attr_kind(a).clone())
        {
            let kept = ctx.attr(AttrKind::Array(layouts.into_iter().take(data).collect()));
            ctx.set_attr(op, "operand_layouts", kept);
        }
        Ok(())
    }

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
            let width = ctx.types.bit_width(ctx.types.elem(t));
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
            for i in 0..ctx.op(o).operands().len() {
                if let Some(&to) = replaced.get(&ctx.op(o).operands()[i]) {
                    ctx.set_operand(o, i, to);
                }
            }
        }
    }
}
