//! `xla-jax-calling-convention`: the public functions of a JAX export take
//! and return only what the C ABI passes.
//!
//! JAX's export calling convention (versions 9 and 10) puts before the
//! array arguments of `@main`:
//! - `_platform_index` (`tensor<i32> {jax.global_constant =
//!   "_platform_index"}`) when the module was exported for several platforms
//!   (`platforms=("cpu", "cuda")`): which platform's code runs. A Strata
//!   library runs on the CPU, so the argument becomes the constant index of
//!   `cpu` in the export's platforms (the module attribute
//!   [`PLATFORMS_ATTR`], which the driver sets from `--platforms` or a
//!   serialized export; the first platform when it is absent), and
//!   `xla-fold-branches` then keeps the CPU branch of every `case` it
//!   selects.
//! - one `!stablehlo.token {jax.token = true}` per ordered effect, and as
//!   many token results before the array results. Tokens carry no data on
//!   the CPU: such a token argument becomes a fresh `xla.after_all` and such
//!   token results are not returned. (Tokens without the mark are the
//!   program's own, e.g. of a `run_parallel` device program, and stay.)
//!
//! It also gives `@main`'s arguments the pytree paths of the wrapped
//! function's parameters they are passed to, so the C interface names them.
//!
//! Private functions keep their signatures (tokens flow through them as
//! values).

use strata_diag::{Diagnostic, Location, Result};
use strata_ir::{Attr, AttrKind, Context, DenseElements, OpId, TypeKind, Value, builtin};

use crate::names::{AFTER_ALL, CONSTANT};

pub const FLAG: &str = "xla-jax-calling-convention";

/// Module attribute: the platforms a multi-platform export was made for,
/// in the export's order (an array of strings).
pub const PLATFORMS_ATTR: &str = "strata.platforms";

/// The `jax.global_constant` name of the platform index argument.
pub const PLATFORM_INDEX: &str = "_platform_index";

pub struct XlaJaxCallingConventionPass;

impl strata_pass::Pass for XlaJaxCallingConventionPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "make JAX's platform index a constant (the CPU's) and drop token arguments and results of public functions"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let cpu = cpu_platform_index(ctx, module)?;
        for f in builtin::defined_funcs(ctx, module) {
            if !builtin::is_private(ctx, f) {
                adapt_function(ctx, f, cpu)?;
                inherit_paths(ctx, module, f);
            }
        }
        Ok(())
    }
}

/// Whether a public function of `module` takes JAX's platform index.
pub fn takes_platform_index(ctx: &Context, module: OpId) -> bool {
    builtin::defined_funcs(ctx, module).into_iter().any(|f| {
        !builtin::is_private(ctx, f)
            && (0..ctx
                .entry_block(f, 0)
                .map_or(0, |b| ctx.blocks[b].args.len()))
                .any(|i| is_platform_index(ctx, f, i))
    })
}

/// The index of `cpu` among the export's platforms (0 when unknown).
fn cpu_platform_index(ctx: &Context, module: OpId) -> Result<i64> {
    let Some(AttrKind::Array(names)) = ctx
        .attr_of(module, PLATFORMS_ATTR)
        .map(|a| ctx.attr_kind(a))
    else {
        return Ok(0);
    };
    let names: Vec<String> = names
        .iter()
        .filter_map(|&a| match ctx.attr_kind(a) {
            AttrKind::String(s) => Some(s.to_lowercase()),
            _ => None,
        })
        .collect();
    match names.iter().position(|n| n == "cpu") {
        Some(i) => Ok(i as i64),
        None => Err(Diagnostic::error(
            ctx.op(module).loc,
            format!(
                "the module was exported for platforms {} and not for cpu",
                names.join(", ")
            ),
        )),
    }
}

fn is_platform_index(ctx: &Context, f: OpId, arg: usize) -> bool {
    builtin::signature_attr(ctx, f, "arg_attrs", arg, "jax.global_constant")
        .is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::String(s) if s == PLATFORM_INDEX))
}

/// A token JAX's calling convention added: marked `jax.token = true` (other
/// token parameters, such as those of `run_parallel`'s device programs, are
/// the program's own).
fn is_jax_token(ctx: &Context, f: OpId, which: &str, index: usize, v: Value) -> bool {
    matches!(ctx.types.kind(ctx.value_ty(v)), TypeKind::Token)
        && builtin::signature_attr(ctx, f, which, index, "jax.token")
            .is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::Bool(true) | AttrKind::Unit))
}

fn adapt_function(ctx: &mut Context, f: OpId, cpu: i64) -> Result<()> {
    let Some(entry) = ctx.entry_block(f, 0) else {
        return Ok(());
    };
    let args = ctx.blocks[entry].args.clone();
    let loc = ctx.op(f).loc;
    let mut dropped = vec![false; args.len()];
    for (i, &arg) in args.iter().enumerate() {
        let replacement = if is_platform_index(ctx, f, i) {
            constant_like(ctx, arg, cpu, loc)
        } else if is_jax_token(ctx, f, "arg_attrs", i, arg) {
            ctx.create_op(AFTER_ALL, vec![], &[ctx.value_ty(arg)], vec![], loc)
        } else {
            continue;
        };
        ctx.insert_op_at(entry, 0, replacement);
        let value = ctx.op(replacement).results[0];
        ctx.replace_uses_in(f, arg, value);
        dropped[i] = true;
    }
    let returned = drop_token_results(ctx, f, entry);
    if dropped.iter().any(|&d| d) || returned.iter().any(|&d| d) {
        ctx.remove_block_args(entry, &|i| dropped[i]);
        rewrite_signature(ctx, f, &dropped, &returned)
            .ok_or_else(|| Diagnostic::internal(loc, "function without a signature"))?;
    }
    Ok(())
}

/// `xla.constant dense<value>` typed like `like` (JAX's `tensor<i32>`).
fn constant_like(ctx: &mut Context, like: Value, value: i64, loc: Location) -> OpId {
    let ty = ctx.value_ty(like);
    let dense = ctx.attr(AttrKind::Dense(DenseElements {
        ty,
        splat: true,
        bits: vec![value as u64],
    }));
    ctx.create_op(CONSTANT, vec![], &[ty], vec![("value".into(), dense)], loc)
}

/// Removes token operands from `f`'s return; which results went.
fn drop_token_results(ctx: &mut Context, f: OpId, entry: strata_ir::BlockId) -> Vec<bool> {
    let Some(ret) = ctx.blocks[entry]
        .ops
        .last()
        .copied()
        .filter(|&o| ctx.op(o).name == builtin::RETURN)
    else {
        return vec![];
    };
    let operands = ctx.op(ret).operands().to_vec();
    let dropped: Vec<bool> = operands
        .iter()
        .enumerate()
        .map(|(j, &v)| is_jax_token(ctx, f, "res_attrs", j, v))
        .collect();
    let kept = operands
        .into_iter()
        .zip(&dropped)
        .filter(|&(_, &d)| !d)
        .map(|(v, _)| v)
        .collect();
    ctx.set_operands(ret, kept);
    dropped
}

/// `f`'s type and argument/result attributes without the dropped entries.
fn rewrite_signature(ctx: &mut Context, f: OpId, args: &[bool], results: &[bool]) -> Option<()> {
    let (inputs, outputs) = builtin::func_signature(ctx, f)?;
    let keep = |types: Vec<strata_ir::Type>, dropped: &[bool]| -> Vec<strata_ir::Type> {
        types
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| !dropped.get(i).copied().unwrap_or(false))
            .map(|(_, t)| t)
            .collect()
    };
    let fty = ctx
        .types
        .function_ty(keep(inputs, args), keep(outputs, results));
    let a = ctx.attr(AttrKind::Type(fty));
    ctx.set_attr(f, "function_type", a);
    for (which, dropped) in [("arg_attrs", args), ("res_attrs", results)] {
        let Some(AttrKind::Array(dicts)) = ctx.attr_of(f, which).map(|a| ctx.attr_kind(a).clone())
        else {
            continue;
        };
        let kept = dicts
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| !dropped.get(i).copied().unwrap_or(false))
            .map(|(_, d)| d)
            .collect();
        let a = ctx.attr(AttrKind::Array(kept));
        ctx.set_attr(f, which, a);
    }
    Some(())
}

/// A shape-polymorphic or multi-platform export's `@main` passes its
/// arguments to `@_wrapped_jax_export_main`, whose parameters carry the
/// pytree paths (`loc("params['w']")`): each argument passed straight
/// through takes its parameter's path when it has none of its own.
fn inherit_paths(ctx: &mut Context, module: OpId, f: OpId) {
    let Some(entry) = ctx.entry_block(f, 0) else {
        return;
    };
    let args = ctx.blocks[entry].args.clone();
    let mut found: Vec<(usize, Attr)> = Vec::new();
    for &op in &ctx.blocks[entry].ops {
        if ctx.op(op).name != builtin::CALL {
            continue;
        }
        let Some(AttrKind::SymbolRef(name)) = ctx.attr_of(op, "callee").map(|a| ctx.attr_kind(a))
        else {
            continue;
        };
        let Some(callee) = builtin::lookup_func(ctx, module, name) else {
            continue;
        };
        for (j, v) in ctx.op(op).operands().iter().enumerate() {
            let Some(i) = args.iter().position(|a| a == v) else {
                continue;
            };
            let own = builtin::signature_attr(ctx, f, "arg_attrs", i, strata_ir::text::PATH_ATTR);
            let theirs =
                builtin::signature_attr(ctx, callee, "arg_attrs", j, strata_ir::text::PATH_ATTR);
            if let (None, Some(path)) = (own, theirs) {
                if !found.iter().any(|(k, _)| *k == i) {
                    found.push((i, path));
                }
            }
        }
    }
    if found.is_empty() {
        return;
    }
    let mut dicts: Vec<Attr> = match ctx
        .attr_of(f, "arg_attrs")
        .map(|a| ctx.attr_kind(a).clone())
    {
        Some(AttrKind::Array(d)) => d,
        _ => Vec::new(),
    };
    let empty = ctx.attr(AttrKind::Dict(Vec::new()));
    dicts.resize(args.len(), empty);
    for (i, path) in found {
        let mut entries = match ctx.attr_kind(dicts[i]).clone() {
            AttrKind::Dict(e) => e,
            _ => Vec::new(),
        };
        entries.push((strata_ir::text::PATH_ATTR.to_string(), path));
        dicts[i] = ctx.attr(AttrKind::Dict(entries));
    }
    let a = ctx.attr(AttrKind::Array(dicts));
    ctx.set_attr(f, "arg_attrs", a);
}
