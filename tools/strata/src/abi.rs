//! The C ABI of compiled functions: one buffer per argument and result,
//! and the C types the header spells.

use strata_aot::{CFunction, CParam};
use strata_diag::Diagnostic;
use strata_ir::{Context, DenseElements, FloatKind, OpId, Signedness, Type, TypeKind, builtin};

/// C element type of a tensor element type.
pub fn c_type(ctx: &Context, elem: Type) -> Option<&'static str> {
    Some(match ctx.types.kind(elem) {
        TypeKind::Int { width: 1, .. } => "uint8_t",
        TypeKind::Int { width, sign } => {
            let unsigned = *sign == Signedness::Unsigned;
            match (*width, unsigned) {
                (0..=8, false) => "int8_t",
                (0..=8, true) => "uint8_t",
                (9..=16, false) => "int16_t",
                (9..=16, true) => "uint16_t",
                (17..=32, false) => "int32_t",
                (17..=32, true) => "uint32_t",
                (_, false) => "int64_t",
                (_, true) => "uint64_t",
            }
        }
        TypeKind::Float(FloatKind::F16 | FloatKind::BF16) => "uint16_t",
        TypeKind::Float(k) if strata_ir::minifloat::format(*k).is_some() => "uint8_t",
        TypeKind::Float(FloatKind::F32) => "float",
        TypeKind::Float(FloatKind::F64) => "double",
        TypeKind::Complex(p) => return c_type(ctx, *p),
        _ => return None,
    })
}

/// Bytes of one element in memory (complex: both parts).
pub fn elem_bytes(ctx: &Context, elem: Type) -> usize {
    ctx.types.storage_bytes(elem) as usize
}

/// The exported (non-private, defined) functions of a module.
pub fn public_functions(ctx: &Context, module: OpId) -> Vec<OpId> {
    let Some(b) = ctx.entry_block(module, 0) else {
        return vec![];
    };
    ctx.blocks[b]
        .ops
        .iter()
        .copied()
        .filter(|&f| {
            ctx.op(f).name == builtin::FUNC
                && !builtin::is_private(ctx, f)
                && !ctx.op(f).regions.is_empty()
        })
        .collect()
}

/// Header description of a function, from its tensor signature.
pub fn c_function(ctx: &Context, prefix: &str, f: OpId) -> Result<CFunction, String> {
    let name = builtin::func_name(ctx, f).unwrap_or("?").to_string();
    let (inputs, results) = builtin::func_signature(ctx, f).ok_or("function without signature")?;
    let mut c = c_prototype(ctx, format!("{prefix}_{name}"), &name, &inputs, &results)?;
    name_from_paths(ctx, f, &mut c);
    Ok(c)
}

/// Names the parameters of `c` after the model's paths for them: each
/// argument's `strata.path` (the name location JAX writes for it, the
/// pytree path `params['attn']['wk']`) and each result's
/// `jax.result_info` (`result['aux']`).
fn name_from_paths(ctx: &Context, f: OpId, c: &mut CFunction) {
    let inputs = c.params.iter().filter(|p| !p.is_output).count();
    let paths: Vec<Option<String>> = c
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (which, key, index) = if p.is_output {
                ("res_attrs", "jax.result_info", i - inputs)
            } else {
                ("arg_attrs", strata_ir::text::PATH_ATTR, i)
            };
            dict_string(ctx, f, which, index, key)
        })
        .collect();
    let positions: Vec<String> = c.params.iter().map(|p| p.position.clone()).collect();
    let refs: Vec<Option<&str>> = paths.iter().map(|p| p.as_deref()).collect();
    let names = strata_aot::names::param_names(&refs, &positions);
    for ((p, name), path) in c.params.iter_mut().zip(names).zip(paths) {
        p.name = name;
        p.path = path;
    }
}

/// The string `key` of dictionary `index` of `f`'s `which` attribute.
pub fn dict_string(ctx: &Context, f: OpId, which: &str, index: usize, key: &str) -> Option<String> {
    match ctx.attr_kind(builtin::signature_attr(ctx, f, which, index, key)?) {
        strata_ir::AttrKind::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// The library's C interface: its exported functions and its custom-call
/// targets (each once, with the buffers of its first call), every name
/// checked by `strata_aot::names` (identifiers, no collisions, no target
/// named like an export) with errors located at the function or call.
pub fn library_interface(
    ctx: &Context,
    module: OpId,
    prefix: &str,
) -> Result<(Vec<CFunction>, Vec<CFunction>), Vec<Diagnostic>> {
    let publics = public_functions(ctx, module);
    let at = |op: OpId, m: String| vec![Diagnostic::error(ctx.op(op).loc, m)];
    let mut funcs = Vec::new();
    for &f in &publics {
        let name = builtin::func_name(ctx, f).unwrap_or("?");
        if let Some(why) = strata_aot::names::identifier_error(name) {
            return Err(at(
                f,
                format!(
                    "public function @{} cannot be exported: {why}",
                    strata_aot::names::shown(name)
                ),
            ));
        }
        funcs.push(
            c_function(ctx, prefix, f)
                .map_err(|m| vec![Diagnostic::unsupported(ctx.op(f).loc, m)])?,
        );
    }
    let names: Vec<&str> = publics
        .iter()
        .map(|&f| builtin::func_name(ctx, f).unwrap_or("?"))
        .collect();
    strata_aot::names::check_exported(prefix, &names, &funcs)
        .map_err(|(i, m)| at(publics[i], m))?;

    let mut calls = Vec::new();
    ctx.walk_nested(module, &mut |op| {
        if ctx.op(op).name == strata_dialect_xla::CUSTOM_CALL {
            calls.push(op);
        }
    });
    let mut targets: Vec<(OpId, CFunction)> = Vec::new();
    for op in calls {
        let Some(target) = ctx.str_attr(op, "call_target_name") else {
            continue;
        };
        if !strata_abi::is_host_custom_call(target)
            || targets.iter().any(|(_, f)| f.c_name == target)
        {
            continue;
        }
        let types =
            |vs: &[strata_ir::Value]| vs.iter().map(|&v| ctx.value_ty(v)).collect::<Vec<_>>();
        let (ins, outs) = (types(ctx.op(op).operands()), types(&ctx.op(op).results));
        let described = c_prototype(ctx, target.to_string(), target, &ins, &outs)
            .map_err(|m| vec![Diagnostic::unsupported(ctx.op(op).loc, m)])?;
        targets.push((op, described));
    }
    let exported: Vec<String> = funcs
        .iter()
        .map(|f| f.c_name.clone())
        .chain(
            strata_aot::names::LIBRARY_API
                .iter()
                .map(|api| format!("{prefix}_{api}")),
        )
        .collect();
    let target_names: Vec<&str> = targets.iter().map(|(_, f)| f.c_name.as_str()).collect();
    strata_aot::names::check_custom_call_targets(&target_names, &exported)
        .map_err(|(i, m)| at(targets[i].0, m))?;
    Ok((funcs, targets.into_iter().map(|(_, f)| f).collect()))
}

/// Each exported function's scratch size and donated buffers, as the
/// lowering planned them (`loop-plan-arena`'s `scratch_bytes`, and the
/// `aliased_params` pairs `xla-plan-donation` made, on the lowered function).
pub fn record_plan(ctx: &Context, module: OpId, prefix: &str, funcs: &mut [CFunction]) {
    for f in funcs {
        let name = f
            .c_name
            .strip_prefix(prefix)
            .and_then(|n| n.strip_prefix('_'))
            .unwrap_or(&f.c_name);
        let lowered = builtin::lookup_func(ctx, module, name);
        let bytes = lowered
            .and_then(|op| ctx.int_attr(op, "scratch_bytes"))
            .and_then(|b| i64::try_from(b).ok())
            .unwrap_or(0);
        f.scratch_bytes = Some(bytes);
        let inputs = f.params.iter().filter(|p| !p.is_output).count();
        let pairs = lowered
            .and_then(|op| ctx.i64_array(op, strata_abi::ALIASED_PARAMS_ATTR))
            .unwrap_or_default();
        f.aliases = pairs
            .chunks(2)
            .filter_map(|p| {
                let (a, r) = (
                    usize::try_from(p[0]).ok()?,
                    usize::try_from(*p.get(1)?).ok()?,
                );
                Some((a, r.checked_sub(inputs)?))
            })
            .collect();
    }
}

fn c_prototype(
    ctx: &Context,
    c_name: String,
    name: &str,
    inputs: &[strata_ir::Type],
    results: &[strata_ir::Type],
) -> Result<CFunction, String> {
    let mut params = Vec::new();
    for (i, (t, out)) in inputs
        .iter()
        .map(|t| (t, false))
        .chain(results.iter().map(|t| (t, true)))
        .enumerate()
    {
        let TypeKind::Tensor { shape, elem } = ctx.types.kind(*t) else {
            return Err(format!(
                "@{name}: only tensor arguments and results have a C ABI so far"
            ));
        };
        let ct = c_type(ctx, *elem).ok_or_else(|| {
            format!(
                "@{name}: element type {} has no C ABI yet",
                strata_ir::text::printer::type_to_string(ctx, *elem)
            )
        })?;
        let pname = if out {
            format!("res{}", i - inputs.len())
        } else {
            format!("arg{i}")
        };
        params.push(CParam {
            name: pname.clone(),
            position: pname,
            path: None,
            c_type: ct.to_string(),
            shape: shape.clone(),
            is_output: out,
            elem_doc: strata_ir::text::printer::type_to_string(ctx, *elem),
        });
    }
    Ok(CFunction {
        c_name,
        params,
        scratch_bytes: None,
        dropped: vec![],
        aliases: vec![],
        batch: None,
    })
}

/// Bytes of one stored scalar part.
fn part_bytes(ctx: &Context, elem: Type) -> (Type, usize, usize) {
    match ctx.types.kind(elem) {
        TypeKind::Complex(p) => (*p, ctx.types.part_storage_bytes(*p) as usize, 2),
        _ => (elem, ctx.types.part_storage_bytes(elem) as usize, 1),
    }
}

/// Dense elements in the C ABI's memory layout.
pub fn to_bytes(ctx: &Context, d: &DenseElements) -> Vec<u8> {
    let elem = ctx.types.elem(d.ty);
    let (part, nbytes, parts) = part_bytes(ctx, elem);
    let n = ctx.types.num_elements(d.ty) as usize;
    let mut out = Vec::with_capacity(n * nbytes * parts);
    for i in 0..n {
        for bits in strata_ir::dense::element_bits(ctx, d, i) {
            // Integers are stored sign- or zero-extended to their storage size.
            let v = if ctx.types.is_int(part) {
                strata_ir::dense::int_value(ctx, bits, part) as u64
            } else {
                bits
            };
            out.extend_from_slice(&v.to_le_bytes()[..nbytes]);
        }
    }
    out
}

/// Dense elements of type `t` from their bytes in the C ABI's layout.
pub fn from_bytes(ctx: &Context, t: Type, bytes: &[u8]) -> DenseElements {
    let elem = ctx.types.elem(t);
    let (part, nbytes, _) = part_bytes(ctx, elem);
    let width = ctx.types.bit_width(part);
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let bits = bytes
        .chunks(nbytes)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(b) & mask
        })
        .collect();
    DenseElements {
        ty: t,
        splat: false,
        bits,
    }
}
