//! The builtin ops every module uses: `builtin.module`, `func.func`,
//! `func.return`, `func.call`. They live in the core crate (as in pliron)
//! because parsing and printing a file needs them.

use strata_diag::Result;

use crate::attrs::{Attr, AttrKind};
use crate::context::{Context, FunctionSignature, OpDef, OpId, OpParser, OpState, Traits};
use crate::types::{Type, TypeKind};

pub const MODULE: &str = "builtin.module";
pub const FUNC: &str = "func.func";
pub const RETURN: &str = "func.return";
pub const CALL: &str = "func.call";

pub fn register(ctx: &mut Context) {
    let r = &mut ctx.registry;
    r.add(OpDef::new(MODULE, Traits::ISOLATED).verifier(verify_module));
    r.add(
        OpDef::new(FUNC, Traits::ISOLATED.with(Traits::SYMBOL))
            .parser(parse_func)
            .verifier(verify_func),
    );
    r.add(
        OpDef::new(RETURN, Traits::TERMINATOR)
            .parser(parse_return)
            .verifier(verify_return),
    );
    r.add(
        OpDef::new(CALL, Traits::NONE)
            .parser(parse_call)
            .verifier(verify_call),
    );
    r.alias("return", RETURN);
    r.alias("call", CALL);
    r.alias("func", FUNC);
}

/// Symbol name of a function op.
pub fn func_name(ctx: &Context, op: OpId) -> Option<&str> {
    match ctx.attr_of(op, "sym_name").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String(s)) => Some(s),
        _ => None,
    }
}

/// `(inputs, results)` of a function op.
pub fn func_signature(ctx: &Context, op: OpId) -> Option<(Vec<crate::Type>, Vec<crate::Type>)> {
    match ctx.attr_of(op, "function_type").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Type(t)) => match ctx.types.kind(*t) {
            TypeKind::Function { inputs, results } => Some((inputs.clone(), results.clone())),
            _ => None,
        },
        _ => None,
    }
}

/// Entry `key` of the attribute dictionary `index` of function `f`'s `which`
/// (`arg_attrs` or `res_attrs`): what JAX says of one argument or result.
pub fn signature_attr(
    ctx: &Context,
    f: OpId,
    which: &str,
    index: usize,
    key: &str,
) -> Option<crate::Attr> {
    let AttrKind::Array(dicts) = ctx.attr_kind(ctx.attr_of(f, which)?) else {
        return None;
    };
    let AttrKind::Dict(entries) = ctx.attr_kind(*dicts.get(index)?) else {
        return None;
    };
    entries.iter().find(|(k, _)| k == key).map(|&(_, a)| a)
}

pub fn is_private(ctx: &Context, op: OpId) -> bool {
    matches!(ctx.attr_of(op, "sym_visibility").map(|a| ctx.attr_kind(a)), Some(AttrKind::String(s)) if s == "private")
}

/// The function named `name` in `module`.
pub fn lookup_func(ctx: &Context, module: OpId, name: &str) -> Option<OpId> {
    let b = ctx.entry_block(module, 0)?;
    // By name, not by scanning the module (a call verified against every
    // function made a module of many calls and functions quadratic).
    ctx.symbol_candidates(name).iter().copied().find(|&o| {
        ctx.op(o).name == FUNC && ctx.op(o).parent == Some(b) && func_name(ctx, o) == Some(name)
    })
}

/// The functions of `module` that have a body (not declarations), in order.
pub fn defined_funcs(ctx: &Context, module: OpId) -> Vec<OpId> {
    let Some(b) = ctx.entry_block(module, 0) else {
        return Vec::new();
    };
    ctx.blocks[b]
        .ops
        .iter()
        .copied()
        .filter(|&o| ctx.op(o).name == FUNC && ctx.entry_block(o, 0).is_some())
        .collect()
}

fn parse_func(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    let mut visibility = None;
    for v in ["public", "private", "nested"] {
        if p.consume_keyword(v) {
            visibility = Some(v);
        }
    }
    let name = p.parse_symbol("function name like @main")?;
    let FunctionSignature {
        args,
        results,
        arg_attrs,
        res_attrs,
    } = p.parse_function_signature_with_attrs()?;
    let inputs: Vec<_> = args.iter().map(|a| a.1).collect();
    let fty = p.ctx().types.function_ty(inputs, results);
    let a = p.ctx().attr(AttrKind::String(name));
    st.add_attr("sym_name", a);
    let a = p.ctx().attr(AttrKind::Type(fty));
    st.add_attr("function_type", a);
    if let Some(v) = visibility.filter(|v| *v != "public") {
        let a = p.ctx().attr(AttrKind::String(v.to_string()));
        st.add_attr("sym_visibility", a);
    }
    if p.consume_keyword("attributes") {
        p.parse_attr_dict(&mut st.attrs)?;
    }
    // Argument and result attributes (JAX's donation marks, result names)
    // are kept as MLIR keeps them: `arg_attrs` / `res_attrs`, arrays of
    // dictionaries, present when any dictionary is not empty.
    for (name, dicts) in [("arg_attrs", arg_attrs), ("res_attrs", res_attrs)] {
        if dicts.iter().any(|d| !d.is_empty()) && !st.attrs.iter().any(|(n, _)| n == name) {
            let items = dicts
                .into_iter()
                .map(|d| p.ctx().attr(AttrKind::Dict(d)))
                .collect();
            let a = p.ctx().attr(AttrKind::Array(items));
            st.add_attr(name, a);
        }
    }
    if p.is_punct("{") {
        if args.iter().any(|a| a.0.is_empty()) {
            return Err(p.error("function with a body needs named arguments"));
        }
        let region = p.parse_region(&args, true)?;
        st.regions.push(region);
    }
    Ok(())
}

fn parse_return(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    p.parse_operands_colon_types(st)
}

fn parse_call(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    let callee = p.parse_symbol("callee symbol like @f")?;
    p.expect_punct("(")?;
    st.operands = p.parse_operands()?;
    p.expect_punct(")")?;
    p.parse_optional_attr_dict(st)?;
    p.expect_punct(":")?;
    let loc = p.loc();
    let fty = p.parse_function_type()?;
    let TypeKind::Function { inputs, results } = p.ctx().types.kind(fty).clone() else {
        return Err(p.error("expected a function type"));
    };
    p.check_operand_types(&st.operands, &inputs, loc)?;
    st.result_types = results;
    let a = p.ctx().attr(AttrKind::SymbolRef(callee));
    st.add_attr("callee", a);
    Ok(())
}

/// Symbols (function names) are unique within a module.
fn verify_module(ctx: &Context, op: OpId) -> Result<()> {
    // Entry points, symbols and the C ABI are those of one module; a module
    // inside another would have no meaning downstream (and JAX never writes one).
    if ctx.op(op).parent.is_some() {
        return Err(ctx.error(
            op,
            "is only allowed at the top level (nested modules are not supported)",
        ));
    }
    let Some(b) = ctx.entry_block(op, 0) else {
        return Ok(());
    };
    let mut seen: std::collections::HashMap<&str, OpId> = std::collections::HashMap::new();
    for &f in &ctx.blocks[b].ops {
        let Some(name) = (ctx.op(f).name == FUNC)
            .then(|| func_name(ctx, f))
            .flatten()
        else {
            continue;
        };
        if let Some(&first) = seen.get(name) {
            return Err(ctx
                .error(f, format!("redefinition of symbol '@{name}'"))
                .note(ctx.op(first).loc, "previous definition is here"));
        }
        seen.insert(name, f);
    }
    Ok(())
}

fn verify_func(ctx: &Context, op: OpId) -> Result<()> {
    if func_name(ctx, op).is_none() {
        return Err(ctx.error(op, "requires a 'sym_name' string attribute"));
    }
    let Some((inputs, _)) = func_signature(ctx, op) else {
        return Err(ctx.error(op, "requires a 'function_type' attribute of function type"));
    };
    // Printed as a keyword (`func.func private @f`): only MLIR's three.
    if let Some(a) = ctx.attr_of(op, "sym_visibility") {
        match ctx.attr_kind(a) {
            AttrKind::String(s) if matches!(s.as_str(), "public" | "private" | "nested") => {}
            _ => {
                return Err(ctx.error(
                    op,
                    "'sym_visibility' must be \"public\", \"private\" or \"nested\"",
                ));
            }
        }
    }
    if let Some(b) = ctx.entry_block(op, 0) {
        let args: Vec<_> = ctx.blocks[b]
            .args
            .iter()
            .map(|&v| ctx.value_ty(v))
            .collect();
        if args != inputs {
            return Err(ctx.error(
                op,
                "entry block arguments do not match the function signature",
            ));
        }
    }
    Ok(())
}

/// The nearest function around `op`.
pub fn enclosing_func(ctx: &Context, op: OpId) -> Option<OpId> {
    enclosing(ctx, op, FUNC)
}

/// The module around `op`.
pub fn enclosing_module(ctx: &Context, op: OpId) -> Option<OpId> {
    enclosing(ctx, op, MODULE)
}

/// The nearest op named `name` around `op`.
fn enclosing(ctx: &Context, op: OpId, name: &str) -> Option<OpId> {
    let mut cur = op;
    loop {
        let b = ctx.op(cur).parent?;
        let parent = ctx.block_parent_op(b)?;
        if ctx.op(parent).name == name {
            return Some(parent);
        }
        cur = parent;
    }
}

fn verify_return(ctx: &Context, op: OpId) -> Result<()> {
    let Some(b) = ctx.op(op).parent else {
        return Ok(());
    };
    let Some(parent) = ctx.block_parent_op(b) else {
        return Ok(());
    };
    if ctx.op(parent).name != FUNC {
        return Err(ctx.error(
            op,
            format!(
                "expects parent op 'func.func', found '{}'",
                ctx.op(parent).name
            ),
        ));
    }
    let Some((_, results)) = func_signature(ctx, parent) else {
        return Ok(());
    };
    let got: Vec<_> = ctx
        .op(op)
        .operands()
        .iter()
        .map(|&v| ctx.value_ty(v))
        .collect();
    if got.len() != results.len() {
        return Err(ctx.error(
            op,
            format!(
                "has {} operands, but enclosing function (@{}) returns {}",
                got.len(),
                func_name(ctx, parent).unwrap_or("?"),
                results.len()
            ),
        ));
    }
    for (i, (g, r)) in got.iter().zip(&results).enumerate() {
        if g != r {
            return Err(ctx.error(
                op,
                format!(
                    "type of return operand {i} ({}) doesn't match function result type ({}) in function @{}",
                    crate::text::type_printer::type_to_string(ctx, *g),
                    crate::text::type_printer::type_to_string(ctx, *r),
                    func_name(ctx, parent).unwrap_or("?")
                ),
            ));
        }
    }
    Ok(())
}

fn verify_call(ctx: &Context, op: OpId) -> Result<()> {
    let callee = match ctx.attr_of(op, "callee").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::SymbolRef(s)) => s.clone(),
        _ => return Err(ctx.error(op, "requires a 'callee' symbol reference attribute")),
    };
    verify_callee(ctx, op, &callee)
}

/// That `op`, a call of `@callee` (`func.call`, or an op lowered to one
/// such as `xla.composite`), names a function of the enclosing module whose
/// signature matches its operands and results.
pub fn verify_callee(ctx: &Context, op: OpId, callee: &str) -> Result<()> {
    let callee = callee.to_string();
    let Some(func) = enclosing_func(ctx, op) else {
        return Ok(());
    };
    let Some(b) = ctx.op(func).parent else {
        return Ok(());
    };
    let Some(module) = ctx.block_parent_op(b) else {
        return Ok(());
    };
    let Some(target) = lookup_func(ctx, module, &callee) else {
        return Err(ctx.error(
            op,
            format!("'@{callee}' does not reference a valid function"),
        ));
    };
    let Some((inputs, results)) = func_signature(ctx, target) else {
        return Ok(());
    };
    let got_in: Vec<_> = ctx
        .op(op)
        .operands()
        .iter()
        .map(|&v| ctx.value_ty(v))
        .collect();
    let got_out: Vec<_> = ctx
        .op(op)
        .results
        .iter()
        .map(|&v| ctx.value_ty(v))
        .collect();
    // External (bodiless) functions take untyped buffers: any memref fits a
    // memref parameter.
    let external = ctx.op(target).regions.is_empty();
    let is_memref = |t: crate::Type| matches!(ctx.types.kind(t), TypeKind::MemRef { .. });
    let inputs_match = got_in.len() == inputs.len()
        && got_in
            .iter()
            .zip(&inputs)
            .all(|(&g, &w)| g == w || (external && is_memref(g) && is_memref(w)));
    if !inputs_match || got_out != results {
        return Err(ctx.error(
            op,
            format!("operand or result types do not match the signature of '@{callee}'"),
        ));
    }
    Ok(())
}

/// The attributes of a private `func.func @name` of type `fty` (a
/// declaration while it has no body).
pub fn private_func_attrs(ctx: &mut Context, name: &str, fty: Type) -> Vec<(String, Attr)> {
    vec![
        ("sym_name".into(), ctx.attr(AttrKind::String(name.into()))),
        ("function_type".into(), ctx.attr(AttrKind::Type(fty))),
        (
            "sym_visibility".into(),
            ctx.attr(AttrKind::String("private".into())),
        ),
    ]
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
            Param::I32 => ctx.types.int_ty(32),
            Param::I64 => ctx.types.int_ty(64),
            Param::U8 => ctx.types.uint_ty(8),
            Param::F64 => ctx.types.float_ty(crate::FloatKind::F64),
        })
        .collect();
    let results = match sig.returns {
        Returns::Nothing => vec![],
        Returns::Status | Returns::I32 => vec![ctx.types.int_ty(32)],
        Returns::U32 => vec![ctx.types.uint_ty(32)],
        Returns::I64 => vec![ctx.types.int_ty(64)],
        Returns::U8 => vec![ctx.types.uint_ty(8)],
        Returns::F64 => vec![ctx.types.float_ty(crate::FloatKind::F64)],
        Returns::Ptr => vec![untyped_buffer(ctx)],
    };
    ctx.types.function_ty(params, results)
}

/// The memref type runtime declarations use for buffers of any type.
pub fn untyped_buffer(ctx: &mut Context) -> Type {
    let i8t = ctx.types.int_ty(8);
    ctx.types.memref_ty(&[0], i8t)
}
