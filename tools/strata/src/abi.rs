//! The C ABI of compiled functions: one buffer per argument and result,
//! and the C types the header spells.

use strata_aot::{CFunction, CParam};
use strata_ir::{Context, FloatKind, OpId, Signedness, Type, TypeKind, builtin};

/// C element type of a tensor element type.
pub fn c_type(ctx: &Context, elem: Type) -> Option<&'static str> {
    Some(match ctx.kind(elem) {
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
    ctx.storage_bytes(elem) as usize
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
    c_prototype(ctx, format!("{prefix}_{name}"), &name, &inputs, &results)
}

/// The C functions of the user's program that the module's `custom_call`s
/// call (`int32_t name(const T *arg..., T *res...)`), each once.
pub fn custom_calls(ctx: &Context, module: OpId) -> Result<Vec<CFunction>, (OpId, String)> {
    let mut calls = Vec::new();
    ctx.walk_nested(module, &mut |op| {
        if ctx.op(op).name == strata_dialect_xla::CUSTOM_CALL {
            calls.push(op);
        }
    });
    let mut out: Vec<CFunction> = Vec::new();
    for op in calls {
        let Some(target) = ctx.str_attr(op, "call_target_name") else {
            continue;
        };
        if !strata_abi::is_user_custom_call(target) || out.iter().any(|f| f.c_name == target) {
            continue;
        }
        let ins: Vec<_> = ctx
            .op(op)
            .operands
            .iter()
            .map(|&v| ctx.value_ty(v))
            .collect();
        let outs: Vec<_> = ctx
            .op(op)
            .results
            .iter()
            .map(|&v| ctx.value_ty(v))
            .collect();
        out.push(c_prototype(ctx, target.to_string(), target, &ins, &outs).map_err(|m| (op, m))?);
    }
    Ok(out)
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
        let TypeKind::Tensor { shape, elem } = ctx.kind(*t) else {
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
            name: pname,
            c_type: ct.to_string(),
            shape: shape.clone(),
            is_output: out,
            elem_doc: strata_ir::text::printer::type_to_string(ctx, *elem),
        });
    }
    Ok(CFunction { c_name, params })
}
