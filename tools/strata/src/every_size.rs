//! One library for every size: `strata compile` of a shape-polymorphic
//! export with a dimension variable left without `--dim`.
//!
//! The program is compiled ahead of time for the sizes [`SIZES`] of the
//! variable `b` (each a renamed copy of the public functions, `@main__b8`),
//! after [`strata_dialect_xla::batch_axes`] proved that it keeps the rows
//! along `b` apart; `P_main(int64_t b, ...)` runs a call of any `b` as
//! chunks of those sizes (`strata_rt_batched_call`). Every chunk runs code
//! compiled for its exact shapes, so a call of a compiled size is as fast
//! as a library built with `--dim`; others run as the cheapest plan of
//! chunks by the estimate of what a call costs beyond its rows
//! (`batch_axes::cost`), paying copies of the rows of a padded chunk.
//!
//! The least `b` the export's shape assertions allow is found by refining
//! for `b = 0, 1, ...`; a smaller `b` at run time fails with the
//! assertion's message, `b` filled in. Assertions other than a lower bound
//! (an upper bound, a divisibility) are refused: compile with `--dim`.

use strata_aot::{BatchDim, CFunction};
use strata_diag::{Diagnostic, Location};
use strata_dialect_xla::batch_axes;
use strata_dialect_xla::transforms::refine_shapes as refine;
use strata_ir::{AttrKind, Context, OpId, builtin};

use crate::input::parse_specialize_and_verify;

type Result<T> = std::result::Result<T, Vec<Diagnostic>>;

/// The sizes compiled: every size up to 8 (small batches run as one call
/// of their own size), then powers of two.
pub const SIZES: &[i64] = &[1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64];

/// The most unnamed variables tried as tied to a first one: each try
/// refines the program once, and a converter's batch dimension is on a
/// handful of inputs (a model file with thousands of `?` dimensions would
/// otherwise cost thousands of refinements).
const MAX_TIED: usize = 16;

/// What the compilation for every size found.
pub struct Plan {
    /// The free variable's identifier in the generated C, C++ and Rust
    /// (the model's name made an identifier by the rule of parameter names:
    /// a model file is untrusted, so no other text reaches generated code).
    pub c_var: String,
    /// The least `b` the shape assertions allow.
    pub min: i64,
    /// The assertion's message for a smaller `b`, byte 1 standing for it.
    pub message: String,
    /// The sizes compiled (ascending, at least two).
    pub sizes: Vec<i64>,
    /// Unnamed variables tied to the free one (one size with it).
    pub tied: Vec<String>,
    /// The program's work at the two least sizes compiled (for the cost
    /// of a call beyond its rows: `batch_axes::cost`).
    pub work: [(i64, batch_axes::cost::Work); 2],
}

/// Parses and specialises `text`: for every size of its free dimension
/// variable when it has one (with what was found), else for `dims`.
pub fn parse(
    ctx: &mut Context,
    name: &str,
    text: &str,
    dims: &[(String, i64)],
    platforms: &[String],
) -> Result<(OpId, Option<Plan>)> {
    match free_variable(ctx, name, text, dims)? {
        Some(free) => {
            let (module, plan) = build(ctx, name, text, dims, &free, platforms)?;
            Ok((module, Some(plan)))
        }
        None => Ok((parse_specialize_and_verify(ctx, name, text, dims)?, None)),
    }
}

/// The dimension variable left free.
struct Free {
    var: String,
    /// Unnamed variables the program requires equal to `var`: one size with
    /// it at run time (see [`tied_unnamed`]).
    tied: Vec<String>,
    /// The module as parsed, unrefined.
    plain: OpId,
}

/// The dimension variable left free: the module is shape-polymorphic and
/// exactly one of its variables has no `--dim` value, or all those without
/// one are unnamed and tied to the first.
fn free_variable(
    ctx: &mut Context,
    name: &str,
    text: &str,
    dims: &[(String, i64)],
) -> Result<Option<Free>> {
    if strata_hlo_import::looks_like_hlo(text) {
        return Ok(None);
    }
    let module = strata_ir::text::parser::parse_module(ctx, name, text).map_err(|d| vec![d])?;
    if !refine::is_shape_polymorphic(ctx, module) {
        return Ok(None);
    }
    // Values the module states itself (`strata.dimension_values`) count.
    let stated: Vec<String> = match ctx
        .attr_of(module, refine::DIMENSION_VALUES_ATTR)
        .map(|a| ctx.attr_kind(a))
    {
        Some(AttrKind::Dict(entries)) => entries.iter().map(|(k, _)| k.clone()).collect(),
        _ => Vec::new(),
    };
    let free: Vec<String> = refine::dimension_variables(ctx, module)
        .into_iter()
        .filter(|v| !dims.iter().any(|(d, _)| d == v) && !stated.contains(v))
        .collect();
    match free.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(Free {
            var: one.clone(),
            tied: Vec::new(),
            plain: module,
        })),
        [first, rest @ ..]
            if !refine::names_its_variables(ctx, module)
                && tied_unnamed(ctx, name, text, dims, first, rest) =>
        {
            Ok(Some(Free {
                var: first.clone(),
                tied: rest.to_vec(),
                plain: module,
            }))
        }
        many => Err(vec![Diagnostic::error(
            ctx.op(module).loc,
            format!(
                "dimension variables {} have no value: one library is made for every size of one \
                 of them; give the others with --dim NAME=N",
                many.join(", ")
            ),
        )]),
    }
}

/// Whether the program requires each of the unnamed variables `rest` to
/// equal `first` (arguments with `?` rows combined row by row, as a
/// converter writes a model's batch dimension): refined with all of them
/// at one size it verifies, and with any one of `rest` a size apart it
/// does not. Such variables are one size at run time, `first`'s. Each
/// check refines the whole program, so only a few variables are tried
/// ([`MAX_TIED`]): more is the error of several free variables.
fn tied_unnamed(
    ctx: &mut Context,
    name: &str,
    text: &str,
    dims: &[(String, i64)],
    first: &str,
    rest: &[String],
) -> bool {
    const SIZE: i64 = 5;
    if rest.len() > MAX_TIED {
        return false;
    }
    let with = |apart: Option<&String>| {
        let mut d = dims.to_vec();
        d.push((first.to_string(), SIZE));
        for v in rest {
            let size = if Some(v) == apart { SIZE + 1 } else { SIZE };
            d.push((v.clone(), size));
        }
        d
    };
    parse_specialize_and_verify(ctx, name, text, &with(None)).is_ok()
        && rest
            .iter()
            .all(|v| parse_specialize_and_verify(ctx, name, text, &with(Some(v))).is_err())
}

/// Parses `text` once per size of `var` (with `dims` for the others),
/// proves the rows along it independent, and merges the copies into one
/// module: `@f__b{size}` for every public `@f`. `plain` is the module as
/// parsed, unrefined.
fn build(
    ctx: &mut Context,
    name: &str,
    text: &str,
    dims: &[(String, i64)],
    free: &Free,
    platforms: &[String],
) -> Result<(OpId, Plan)> {
    let (var, plain) = (free.var.as_str(), free.plain);
    let with = |b: i64| {
        let mut d = dims.to_vec();
        d.push((var.to_string(), b));
        d.extend(free.tied.iter().map(|v| (v.clone(), b)));
        d
    };
    let (min, message) = least_size(ctx, name, text, &with, var, plain)?;
    prove_rows_independent(ctx, name, text, &with, var, platforms)?;
    let mut sizes: Vec<i64> = SIZES.iter().copied().filter(|&s| s >= min).collect();
    if sizes.len() < 2 {
        sizes = vec![min, 2 * min];
    }
    let mut base: Option<OpId> = None;
    let mut work = Vec::new();
    for &size in &sizes {
        let module = parse_specialize_and_verify(ctx, name, text, &with(size))
            .map_err(|d| not_a_lower_bound(d, var, size, min))?;
        if work.len() < 2 {
            work.push((size, batch_axes::cost::work(ctx, module)));
        }
        note_platforms(ctx, module, platforms);
        strata_pipeline::entry_points(ctx, module)?;
        rename_symbols(ctx, module, &format!("__b{size}"));
        match base {
            None => base = Some(module),
            Some(into) => move_functions(ctx, module, into),
        }
    }
    let module = base.ok_or_else(|| vec![Diagnostic::error(Location::unknown(), "no size")])?;
    let c_var = strata_aot::names::path_identifier(var).ok_or_else(|| {
        vec![Diagnostic::error(
            ctx.op(plain).loc,
            format!(
                "dimension variable {} has no letter or digit to name its C parameter",
                strata_aot::names::shown(var)
            ),
        )]
    })?;
    let work: [(i64, batch_axes::cost::Work); 2] = work.try_into().map_err(|_| {
        vec![Diagnostic::internal(
            ctx.op(plain).loc,
            "fewer than two sizes compiled",
        )]
    })?;
    let plan = Plan {
        c_var,
        min,
        message,
        sizes,
        tied: free.tied.clone(),
        work,
    };
    Ok((module, plan))
}

/// The least size the shape assertions allow, and the message of the one
/// that fails below it (byte 1 standing for the size). The sample sizes
/// must be allowed too (and every size compiled, checked as it is).
fn least_size(
    ctx: &mut Context,
    name: &str,
    text: &str,
    with: &dyn Fn(i64) -> Vec<(String, i64)>,
    var: &str,
    plain: OpId,
) -> Result<(i64, String)> {
    let mut failed: Option<Diagnostic> = None;
    let mut min = None;
    for b in 0..=64 {
        match parse_specialize_and_verify(ctx, name, text, &with(b)) {
            Ok(_) => {
                min = Some(b);
                break;
            }
            Err(d) if d.len() == 1 && assertion_at(ctx, plain, d[0].loc).is_some() => {
                failed = d.into_iter().next();
            }
            Err(d) => return Err(d),
        }
    }
    let Some(min) = min else {
        return Err(failed.into_iter().collect());
    };
    // The sizes compiled are checked as they are refined (build); these
    // two are the ones the proof refines for.
    let (s1, s2) = batch_axes::SAMPLE_SIZES;
    for b in [s1, s2] {
        parse_specialize_and_verify(ctx, name, text, &with(b))
            .map_err(|d| not_a_lower_bound(d, var, b, min))?;
    }
    let message = match failed {
        Some(d) => assertion_at(ctx, plain, d.loc)
            .map(|op| template(ctx, op))
            .unwrap_or(d.message),
        None => format!("dimension {var} = \u{1} is out of range: a size is at least {min}"),
    };
    Ok((min, message))
}

/// `d` (a size refused by the shape assertions) with a note that one
/// library for every size needs a lower bound alone.
fn not_a_lower_bound(mut d: Vec<Diagnostic>, var: &str, b: i64, min: i64) -> Vec<Diagnostic> {
    d.push(Diagnostic::error(
        Location::unknown(),
        format!(
            "{var} = {b} is refused although {var} = {min} is allowed: one library for every \
             {var} needs a lower bound alone; compile for one size with --dim {var}=N"
        ),
    ));
    d
}

/// The `shape_assertion` custom call at `loc`'s line and column in
/// `module` (a parse of the same text: its file id differs).
fn assertion_at(ctx: &Context, module: OpId, loc: Location) -> Option<OpId> {
    let mut found = None;
    ctx.walk_nested(module, &mut |op| {
        let at = ctx.op(op).loc;
        if (at.line, at.col) == (loc.line, loc.col)
            && ctx.str_attr(op, "call_target_name") == Some("shape_assertion")
        {
            found = Some(op);
        }
    });
    found
}

/// A shape assertion's message with each `{i}` that shows a dimension's
/// size replaced by byte 1 (the size at run time).
fn template(ctx: &Context, op: OpId) -> String {
    let mut message = ctx
        .str_attr(op, "error_message")
        .unwrap_or("shape assertion failed")
        .to_string();
    for (i, &v) in ctx.op(op).operands().iter().enumerate().skip(1) {
        if refine::dimension_size_read(ctx, v).is_some() {
            message = message.replace(&format!("{{{}}}", i - 1), "\u{1}");
        }
    }
    message
}

/// Refines the program for the two sample sizes, brings both to static
/// ops in one function, and checks them with `batch_axes`.
fn prove_rows_independent(
    ctx: &mut Context,
    name: &str,
    text: &str,
    with: &dyn Fn(i64) -> Vec<(String, i64)>,
    var: &str,
    platforms: &[String],
) -> Result<()> {
    use strata_dialect_xla::transforms as t;
    use strata_pass::Pass;
    let (s1, s2) = batch_axes::SAMPLE_SIZES;
    let mut modules = Vec::new();
    for s in [s1, s2] {
        let module = parse_specialize_and_verify(ctx, name, text, &with(s))?;
        note_platforms(ctx, module, platforms);
        strata_pipeline::entry_points(ctx, module)?;
        let passes: [&dyn Pass; 6] = [
            &t::composites::XlaRecognizeCompositesPass,
            &t::lapack_custom_calls::XlaLapackCustomCallsPass,
            &t::inline::XlaInlinePass,
            &t::fold_branches::XlaFoldBranchesPass,
            &t::static_dynamic_ops::XlaStaticDynamicOpsPass,
            &t::legalize_broadcast::XlaLegalizeBroadcastPass,
        ];
        for p in passes {
            p.run(ctx, module).map_err(|d| vec![d])?;
        }
        strata_dialect_xla::transforms::dead_ops::remove_dead_ops(ctx, module);
        modules.push(module);
    }
    batch_axes::batch_axes(ctx, modules[0], modules[1], (s1, s2), var).map_err(|d| vec![d])?;
    Ok(())
}

/// Appends `suffix` to the name of every function of `module` defined
/// there, and to every reference to one.
fn rename_symbols(ctx: &mut Context, module: OpId, suffix: &str) {
    let defined: Vec<String> = builtin::defined_funcs(ctx, module)
        .into_iter()
        .filter_map(|f| builtin::func_name(ctx, f).map(str::to_string))
        .collect();
    let mut ops = Vec::new();
    ctx.walk_nested(module, &mut |o| ops.push(o));
    for op in ops {
        for (key, attr) in ctx.op(op).attrs.clone() {
            let renamed = rename_in(ctx, attr, &defined, suffix);
            if renamed != attr {
                ctx.set_attr(op, &key, renamed);
            }
        }
        let is_defined_func = ctx.op(op).name == builtin::FUNC && ctx.entry_block(op, 0).is_some();
        if is_defined_func {
            if let Some(n) = builtin::func_name(ctx, op).map(str::to_string) {
                let a = ctx.attr(AttrKind::String(format!("{n}{suffix}")));
                ctx.set_attr(op, "sym_name", a);
            }
        }
    }
}

fn rename_in(
    ctx: &mut Context,
    attr: strata_ir::Attr,
    defined: &[String],
    suffix: &str,
) -> strata_ir::Attr {
    match ctx.attr_kind(attr).clone() {
        AttrKind::SymbolRef(n) if defined.contains(&n) => {
            ctx.attr(AttrKind::SymbolRef(format!("{n}{suffix}")))
        }
        AttrKind::Array(items) => {
            let items = items
                .into_iter()
                .map(|a| rename_in(ctx, a, defined, suffix))
                .collect();
            ctx.attr(AttrKind::Array(items))
        }
        AttrKind::Dict(entries) => {
            let entries = entries
                .into_iter()
                .map(|(k, a)| (k, rename_in(ctx, a, defined, suffix)))
                .collect();
            ctx.attr(AttrKind::Dict(entries))
        }
        _ => attr,
    }
}

/// Moves `from`'s functions into `into` (a declaration `into` already has
/// is left behind).
fn move_functions(ctx: &mut Context, from: OpId, into: OpId) {
    let Some(block) = ctx.entry_block(into, 0) else {
        return;
    };
    let Some(source) = ctx.entry_block(from, 0) else {
        return;
    };
    let funcs: Vec<OpId> = ctx.blocks[source]
        .ops
        .iter()
        .copied()
        .filter(|&o| ctx.op(o).name == builtin::FUNC)
        .collect();
    for f in funcs {
        let defined = ctx.entry_block(f, 0).is_some();
        let known = builtin::func_name(ctx, f)
            .is_some_and(|n| builtin::lookup_func(ctx, into, n).is_some());
        if defined || !known {
            ctx.detach_op(f);
            let end = ctx.blocks[block].ops.len();
            ctx.insert_op_at(block, end, f);
        }
    }
}

/// Replaces the variants' C functions (`P_main__b8`, ...) by one function
/// of the variable per public function; returns the module attribute
/// codegen reads (`strata_codegen::BATCHED_ATTR`) as its entries.
pub fn interface(
    plan: &Plan,
    prefix: &str,
    funcs: &mut Vec<CFunction>,
) -> std::result::Result<Vec<(String, Vec<String>, Vec<i64>)>, String> {
    let first = format!("__b{}", plan.sizes[0]);
    let names: Vec<String> = funcs
        .iter()
        .filter_map(|f| f.c_name.strip_suffix(&first).map(str::to_string))
        .collect();
    let mut entries = Vec::new();
    let mut batched = Vec::new();
    for c_name in names {
        let variants: Vec<CFunction> = plan
            .sizes
            .iter()
            .map(|s| {
                let n = format!("{c_name}__b{s}");
                funcs
                    .iter()
                    .find(|f| f.c_name == n)
                    .cloned()
                    .ok_or_else(|| format!("internal: no variant {n}"))
            })
            .collect::<std::result::Result<_, _>>()?;
        let (f, layout) = one_function(plan, &c_name, &variants)?;
        let short = c_name
            .strip_prefix(prefix)
            .and_then(|n| n.strip_prefix('_'))
            .unwrap_or(&c_name)
            .to_string();
        let variant_names = plan
            .sizes
            .iter()
            .map(|s| format!("{short}__b{s}"))
            .collect();
        entries.push((short, variant_names, layout.words()));
        batched.push(f);
    }
    let variant_names: Vec<String> = entries
        .iter()
        .flat_map(|(_, v, _): &(String, Vec<String>, Vec<i64>)| {
            v.iter().map(|n| format!("{prefix}_{n}"))
        })
        .collect();
    funcs.retain(|f| !variant_names.contains(&f.c_name));
    funcs.extend(batched);
    Ok(entries)
}

/// The function of the variable from its variants (same buffers, each
/// batched along the axis whose size is the variant's).
fn one_function(
    plan: &Plan,
    c_name: &str,
    variants: &[CFunction],
) -> std::result::Result<(CFunction, strata_abi::batched::BatchedCall), String> {
    let (small, large) = (&variants[0], &variants[1]);
    let (s0, s1) = (plan.sizes[0], plan.sizes[1]);
    let mut f = small.clone();
    f.c_name = c_name.to_string();
    f.scratch_bytes = None;
    // A batch dimension of `m * b` rows (a `(b, T, D)` value reshaped to
    // `(b*T, D)`, an argument JAX declares `2*b`) holds each row's `m`
    // consecutively: the rows along `b` are still blocks of one size.
    let factor = |a: i64, b: i64| {
        (a % s0 == 0 && b % s1 == 0 && a / s0 == b / s1 && a > 0).then_some(a / s0)
    };
    let mut axes = Vec::new();
    let mut buffers = Vec::new();
    for (p, q) in f.params.iter_mut().zip(&large.params) {
        let differing: Vec<usize> = (0..p.shape.len())
            .filter(|&i| p.shape[i] != q.shape[i])
            .collect();
        // The batch axis and its multiple of b.
        let batched = match differing.as_slice() {
            [] => None,
            [k] if let Some(m) = factor(p.shape[*k], q.shape[*k]) => Some((*k, m)),
            _ => {
                return Err(format!(
                    "{}: buffer {} has no single batch dimension",
                    c_name, p.name
                ));
            }
        };
        let bytes = p.c_count() * strata_aot::c_type_bytes(&p.c_type);
        let buffer = match batched {
            Some((k, m)) => {
                let outer: i64 = p.shape[..k].iter().product();
                p.shape[k] = -m;
                strata_abi::batched::BatchedBuffer {
                    outer,
                    row_bytes: bytes / (outer * s0).max(1),
                    batched: true,
                    is_result: p.is_output,
                }
            }
            None => strata_abi::batched::BatchedBuffer {
                outer: 1,
                row_bytes: bytes,
                batched: false,
                is_result: p.is_output,
            },
        };
        axes.push(batched.map(|(k, _)| k));
        buffers.push(buffer);
    }
    // A donated pair stays one only along the rows: an unbatched buffer
    // updated in place would be updated once per chunk.
    let n_args = f.params.iter().filter(|p| !p.is_output).count();
    f.aliases.retain(|&(a, r)| {
        axes.get(a).is_some_and(Option::is_some)
            && axes.get(n_args + r).is_some_and(Option::is_some)
    });
    rename_clashing(&mut f.params, &plan.c_var);
    f.batch = Some(BatchDim {
        var: plan.c_var.clone(),
        axes,
        min: plan.min,
        sizes: plan.sizes.clone(),
        tied: plan.tied.clone(),
    });
    let weight_bytes: i64 = buffers
        .iter()
        .filter(|b| !b.batched)
        .map(|b| b.row_bytes)
        .sum();
    let row_bytes: i64 = buffers
        .iter()
        .filter(|b| b.batched)
        .map(|b| b.outer * b.row_bytes)
        .sum();
    let cost = batch_axes::cost::chunk_cost(plan.work, weight_bytes as f64, row_bytes as f64);
    // Buffers whose rows are not contiguous are copied for every chunk:
    // padding then adds no copies.
    let in_place = buffers.iter().all(|b| !b.batched || b.outer == 1);
    let in_1024ths =
        |rows: f64| (rows * 1024.0).clamp(0.0, strata_abi::batched::MAX_COST as f64) as i64;
    let call = strata_abi::batched::BatchedCall {
        min_batch: plan.min,
        costs: strata_abi::batched::ChunkCosts {
            call: in_1024ths(cost.call),
            copy: if in_place { in_1024ths(cost.copy) } else { 0 },
        },
        sizes: plan.sizes.clone(),
        buffers,
    };
    Ok((f, call))
}

/// Renames a buffer parameter named like the size parameter `var` (a
/// model may name an argument `b`): `b_buf`, with more `_buf` while that is
/// taken too.
fn rename_clashing(params: &mut [strata_aot::CParam], var: &str) {
    let Some(i) = params.iter().position(|p| p.name == var) else {
        return;
    };
    let mut name = format!("{var}_buf");
    while params.iter().any(|p| p.name == name) {
        name.push_str("_buf");
    }
    params[i].name = name;
}

/// The module attribute codegen reads, from [`interface`]'s entries.
pub fn attribute(
    ctx: &mut Context,
    entries: &[(String, Vec<String>, Vec<i64>)],
    plan: &Plan,
) -> strata_ir::Attr {
    let i64_ty = ctx.types.int_ty(64);
    let items = entries
        .iter()
        .map(|(name, variants, words)| {
            let name = ctx.attr(AttrKind::String(name.clone()));
            let variants = variants
                .iter()
                .map(|v| ctx.attr(AttrKind::String(v.clone())))
                .collect();
            let variants = ctx.attr(AttrKind::Array(variants));
            let words = words
                .iter()
                .map(|&w| {
                    ctx.attr(AttrKind::Int {
                        value: i128::from(w),
                        ty: i64_ty,
                    })
                })
                .collect();
            let layout = ctx.attr(AttrKind::Array(words));
            let message = ctx.attr(AttrKind::String(plan.message.clone()));
            ctx.attr(AttrKind::Dict(vec![
                ("name".into(), name),
                ("variants".into(), variants),
                ("layout".into(), layout),
                ("message".into(), message),
            ]))
        })
        .collect();
    ctx.attr(AttrKind::Array(items))
}

/// Records the export's platforms for `xla-jax-calling-convention`; warns
/// when a multi-platform export's are unknown (the first is taken for cpu).
pub(crate) fn note_platforms(ctx: &mut Context, module: strata_ir::OpId, platforms: &[String]) {
    use strata_dialect_xla::transforms::jax_calling_convention as jcc;
    if !platforms.is_empty() {
        let names = platforms
            .iter()
            .map(|p| ctx.attr(strata_ir::AttrKind::String(p.trim().to_string())))
            .collect();
        let a = ctx.attr(strata_ir::AttrKind::Array(names));
        ctx.set_attr(module, jcc::PLATFORMS_ATTR, a);
    } else if ctx.attr_of(module, jcc::PLATFORMS_ATTR).is_none()
        && jcc::takes_platform_index(ctx, module)
    {
        eprintln!(
            "warning: the module was exported for several platforms (argument \
             {}); taking the first for cpu (say which with --platforms, e.g. cpu,cuda)",
            jcc::PLATFORM_INDEX
        );
    }
}
