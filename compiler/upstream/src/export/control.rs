//! `loop.for` / `loop.if` / `loop.while` → `scf`, and `func.call` /
//! `func.return`. Regions that cannot fail become plain `scf.for`,
//! `scf.if` and `scf.while`; one that can carries an `i32` status out (see
//! the module comment of `export`).

use strata_diag::Result;
use strata_dialect_loop as lp;
use strata_ir::builtin::{CALL, RETURN};
use strata_ir::{BlockId, OpId, Signedness, TypeKind};

use super::{Exporter, unsupported};

pub(crate) fn loop_op(ex: &mut Exporter<'_>, op: OpId) -> Result<Option<String>> {
    match ex.ir.op(op).name {
        lp::FOR => for_loop(ex, op),
        lp::IF => if_op(ex, op),
        lp::WHILE => while_loop(ex, op),
        lp::DISPATCH | lp::RUN_DEVICES => launch(ex, op),
        name => Err(unsupported(ex.loc(op), format!("'{name}' op"))),
    }
}

/// `loop.dispatch` / `loop.run_devices`: a call to the op's launch
/// stub, `P.launch.<callee>(operands...)`, which Strata's C glue defines
/// (the runtime's thread pool or device threads, the same task and
/// frame ABI as the native backend; see `strata_codegen::launch_stub_name`).
/// Upstream's own `async-parallel-for` would need MLIR's async runtime
/// library, which a standalone `.so` does not carry.
fn launch(ex: &mut Exporter<'_>, op: OpId) -> Result<Option<String>> {
    let callee = lp::dispatch_callee(ex.ir, op)
        .ok_or_else(|| ex.internal(op, "has no 'callee'"))?
        .to_string();
    let n = ex.ir.op(op).operands().len();
    let (mut args, mut types) = (Vec::new(), Vec::new());
    for i in 0..n {
        if ex
            .ir
            .op(op)
            .operands()
            .get(i)
            .is_some_and(|v| ex.pointers.contains_key(v))
        {
            return Err(unsupported(
                ex.loc(op),
                "a 'mem.offset' buffer captured by an outlined loop",
            ));
        }
        args.push(ex.operand(op, i)?);
        types.push(ex.ty(ex.operand_ty(op, i)?, op)?);
    }
    let stub = ex.launch_symbol(&callee);
    let sig = format!("({})", types.join(", "));
    ex.declare_quoted(&stub, format!("{sig} -> i32"));
    let s = ex.fresh();
    ex.line(format!(
        "{s} = func.call @\"{stub}\"({}) : {sig} -> i32",
        args.join(", ")
    ));
    Ok(ex.returns_status.then_some(s))
}

/// The ops of region `i`'s only block without its terminator, and the
/// block; `None` for an empty region.
fn region_body(ex: &Exporter<'_>, op: OpId, i: usize) -> Result<Option<(BlockId, Vec<OpId>)>> {
    let region = *ex
        .ir
        .op(op)
        .regions
        .get(i)
        .ok_or_else(|| ex.internal(op, format!("has no region #{i}")))?;
    match ex.ir.regions[region].blocks[..] {
        [] => Ok(None),
        [b] => {
            let ops = &ex.ir.blocks[b].ops;
            let body = ops
                .split_last()
                .map(|(_, r)| r.to_vec())
                .unwrap_or_default();
            Ok(Some((b, body)))
        }
        _ => Err(unsupported(ex.loc(op), "a region of several blocks")),
    }
}

fn for_loop(ex: &mut Exporter<'_>, op: OpId) -> Result<Option<String>> {
    let (lb, ub, step) = (ex.operand(op, 0)?, ex.operand(op, 1)?, ex.operand(op, 2)?);
    let (block, body) = region_body(ex, op, 0)?.ok_or_else(|| ex.internal(op, "has no body"))?;
    let &[iv] = &ex.ir.blocks[block].args[..] else {
        return Err(ex.internal(op, "body does not take one induction variable"));
    };
    if !ex.can_fail(&body) {
        let i = ex.define(iv);
        ex.open(format!("scf.for {i} = {lb} to {ub} step {step} {{"));
        ex.block(&body)?;
        ex.close("}");
        return Ok(None);
    }
    // for i in lb..ub while no iteration failed.
    let zero = ex.constant(0, "i32");
    let (i0, s0) = (ex.fresh(), ex.fresh());
    let out = ex.fresh();
    ex.open(format!(
        "{out}:2 = scf.while ({i0} = {lb}, {s0} = {zero}) : (index, i32) -> (index, i32) {{"
    ));
    let more = ex.fresh();
    ex.line(format!("{more} = arith.cmpi slt, {i0}, {ub} : index"));
    let ok = ex.fresh();
    let z = ex.constant(0, "i32");
    ex.line(format!("{ok} = arith.cmpi eq, {s0}, {z} : i32"));
    let go = ex.fresh();
    ex.line(format!("{go} = arith.andi {more}, {ok} : i1"));
    ex.line(format!("scf.condition({go}) {i0}, {s0} : index, i32"));
    ex.close("} do {");
    let i = ex.define(iv);
    let s = ex.fresh();
    ex.line(format!("^bb0({i}: index, {s}: i32):"));
    ex.indent += 1;
    let status = ex.block(&body)?;
    let status = match status {
        Some(st) => st,
        None => ex.constant(0, "i32"),
    };
    let next = ex.fresh();
    ex.line(format!("{next} = arith.addi {i}, {step} : index"));
    ex.line(format!("scf.yield {next}, {status} : index, i32"));
    ex.close("}");
    Ok(Some(format!("{out}#1")))
}

fn if_op(ex: &mut Exporter<'_>, op: OpId) -> Result<Option<String>> {
    let c = ex.operand(op, 0)?;
    let then = region_body(ex, op, 0)?
        .map(|(_, ops)| ops)
        .unwrap_or_default();
    let other = region_body(ex, op, 1)?.map(|(_, ops)| ops);
    let fails = ex.can_fail(&then) || other.as_deref().is_some_and(|o| ex.can_fail(o));
    if !fails {
        ex.open(format!("scf.if {c} {{"));
        ex.block(&then)?;
        if let Some(other) = &other {
            ex.close("} else {");
            ex.indent += 1;
            ex.block(other)?;
        }
        ex.close("}");
        return Ok(None);
    }
    let r = ex.fresh();
    ex.open(format!("{r} = scf.if {c} -> (i32) {{"));
    yield_status(ex, &then)?;
    ex.close("} else {");
    ex.indent += 1;
    yield_status(ex, other.as_deref().unwrap_or(&[]))?;
    ex.close("}");
    Ok(Some(r))
}

/// Emits `ops` and yields their status (0 if none can fail).
fn yield_status(ex: &mut Exporter<'_>, ops: &[OpId]) -> Result<()> {
    let s = match ex.block(ops)? {
        Some(s) => s,
        None => ex.constant(0, "i32"),
    };
    ex.line(format!("scf.yield {s} : i32"));
    Ok(())
}

/// The `loop.condition` ending a while's cond region, and its flag.
fn condition_value(ex: &Exporter<'_>, op: OpId) -> Result<strata_ir::Value> {
    let region = ex.ir.op(op).regions[0];
    let block = *ex.ir.regions[region]
        .blocks
        .first()
        .ok_or_else(|| ex.internal(op, "has no cond block"))?;
    let term = *ex.ir.blocks[block]
        .ops
        .last()
        .ok_or_else(|| ex.internal(op, "has an empty cond block"))?;
    if ex.ir.op(term).name != lp::CONDITION {
        return Err(ex.internal(op, "cond does not end with 'loop.condition'"));
    }
    ex.ir
        .op(term)
        .operands()
        .first()
        .copied()
        .ok_or_else(|| ex.internal(term, "has no operand"))
}

fn condition_flag(ex: &Exporter<'_>, op: OpId) -> Result<String> {
    let v = condition_value(ex, op)?;
    ex.name(op, v)
}

fn while_loop(ex: &mut Exporter<'_>, op: OpId) -> Result<Option<String>> {
    let (_, cond) = region_body(ex, op, 0)?.ok_or_else(|| ex.internal(op, "has no cond"))?;
    let (_, body) = region_body(ex, op, 1)?.ok_or_else(|| ex.internal(op, "has no body"))?;
    if !ex.can_fail(&body) && !ex.can_fail(&cond) {
        ex.open("scf.while : () -> () {");
        ex.block(&cond)?;
        let c = condition_flag(ex, op)?;
        ex.line(format!("scf.condition({c})"));
        ex.close("} do {");
        ex.indent += 1;
        ex.block(&body)?;
        ex.line("scf.yield");
        ex.close("}");
        return Ok(None);
    }
    let zero = ex.constant(0, "i32");
    let (s0, out) = (ex.fresh(), ex.fresh());
    ex.open(format!(
        "{out} = scf.while ({s0} = {zero}) : (i32) -> i32 {{"
    ));
    let flag = condition_value(ex, op)?;
    let (cond_status, c) = ex.block_out(&cond, &[flag])?;
    let c = c
        .into_iter()
        .next()
        .ok_or_else(|| ex.internal(op, "cond has no flag"))?;
    // A failed condition ends the loop with its status; a failed body
    // (the carried status) keeps its own.
    let s0 = match cond_status {
        Some(cs) => {
            let z = ex.constant(0, "i32");
            let body_ok = ex.fresh();
            ex.line(format!("{body_ok} = arith.cmpi eq, {s0}, {z} : i32"));
            let either = ex.fresh();
            ex.line(format!(
                "{either} = arith.select {body_ok}, {cs}, {s0} : i32"
            ));
            either
        }
        None => s0,
    };
    let z = ex.constant(0, "i32");
    let ok = ex.fresh();
    ex.line(format!("{ok} = arith.cmpi eq, {s0}, {z} : i32"));
    let go = ex.fresh();
    ex.line(format!("{go} = arith.andi {c}, {ok} : i1"));
    ex.line(format!("scf.condition({go}) {s0} : i32"));
    ex.close("} do {");
    let s = ex.fresh();
    ex.line(format!("^bb0({s}: i32):"));
    ex.indent += 1;
    let status = match ex.block(&body)? {
        Some(st) => st,
        None => ex.constant(0, "i32"),
    };
    ex.line(format!("scf.yield {status} : i32"));
    ex.close("}");
    Ok(Some(out))
}

/// `func.call`: to a function of the module (its status propagates) or
/// to an external (memrefs passed as pointers, as the C ABI says).
pub(crate) fn call(ex: &mut Exporter<'_>, op: OpId) -> Result<Option<String>> {
    if ex.ir.op(op).name != CALL {
        let name = ex.ir.op(op).name;
        return Err(unsupported(ex.loc(op), format!("'{name}' op here")));
    }
    let callee = ex
        .callee(op)
        .ok_or_else(|| ex.internal(op, "has no 'callee'"))?;
    if let Some(target) = ex.custom_calls.get(&callee) {
        // The registry of host implementations is the native backend's.
        return Err(unsupported(
            ex.loc(op),
            format!("custom_call @{target} (host custom calls run with --backend native)"),
        ));
    }
    let n = ex.ir.op(op).operands().len();
    let results = ex.ir.op(op).results.clone();
    if let Some(returns_status) = ex.external_returns_status(&callee) {
        return call_external(ex, op, &callee, returns_status);
    }
    let defined_status = ex.is_status_func(&callee);
    let mut args = Vec::new();
    let mut types = Vec::new();
    for i in 0..n {
        if ex
            .ir
            .op(op)
            .operands()
            .get(i)
            .is_some_and(|v| ex.pointers.contains_key(v))
        {
            return Err(unsupported(
                ex.loc(op),
                "a 'mem.offset' buffer passed to a function of the module",
            ));
        }
        args.push(ex.operand(op, i)?);
        types.push(ex.ty(ex.operand_ty(op, i)?, op)?);
    }
    let sym = ex.defined_symbol(&callee);
    let sig = format!("({})", types.join(", "));
    if defined_status {
        let s = ex.fresh();
        ex.line(format!(
            "{s} = func.call {sym}({}) : {sig} -> i32",
            args.join(", ")
        ));
        return Ok(ex.returns_status.then_some(s));
    }
    match results[..] {
        [] => ex.line(format!(
            "func.call {sym}({}) : {sig} -> ()",
            args.join(", ")
        )),
        [r] => {
            let t = ex.ty(ex.ir.value_ty(r), op)?;
            let v = ex.define(r);
            ex.line(format!(
                "{v} = func.call {sym}({}) : {sig} -> {t}",
                args.join(", ")
            ));
        }
        _ => return Err(unsupported(ex.loc(op), "a call with several results")),
    }
    Ok(None)
}

/// A call to a bodiless function: buffers as `!llvm.ptr`, narrow
/// integers extended as the C ABI says.
fn call_external(
    ex: &mut Exporter<'_>,
    op: OpId,
    callee: &str,
    returns_status: bool,
) -> Result<Option<String>> {
    let (inputs, results) = ex
        .external(callee)
        .map(|e| (e.inputs.clone(), e.results.clone()))
        .ok_or_else(|| ex.internal(op, format!("calls unknown '@{callee}'")))?;
    let n = ex.ir.op(op).operands().len();
    let (mut args, mut params, mut types) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..n {
        let v = ex.ir.op(op).operands()[i];
        let declared = *inputs
            .get(i)
            .ok_or_else(|| ex.internal(op, "passes more arguments than declared"))?;
        if let Some(p) = ex.pointers.get(&v) {
            args.push(p.clone());
        } else if matches!(ex.ir.types.kind(ex.ir.value_ty(v)), TypeKind::MemRef { .. }) {
            let (m, t) = (ex.operand(op, i)?, ex.ty(ex.ir.value_ty(v), op)?);
            args.push(super::mem::pointer_of(ex, &m, &t));
        } else {
            args.push(ex.operand(op, i)?);
        }
        if matches!(ex.ir.types.kind(declared), TypeKind::MemRef { .. }) {
            params.push("!llvm.ptr".to_string());
            types.push("!llvm.ptr".to_string());
        } else {
            let t = ex.scalar_ty(declared, op)?;
            params.push(format!("{t}{}", extension(ex, declared)));
            types.push(t);
        }
    }
    let result = match results[..] {
        [] => None,
        [r] => Some((ex.scalar_ty(r, op)?, extension(ex, r))),
        _ => {
            return Err(unsupported(ex.loc(op), "an external with several results"));
        }
    };
    let sig_result = match &result {
        None => String::new(),
        Some((t, "")) => format!(" -> {t}"),
        Some((t, ext)) => format!(" -> ({t}{ext})"),
    };
    ex.declare(callee, format!("({}){sig_result}", params.join(", ")));
    let call_ty = format!(
        "({}) -> {}",
        types.join(", "),
        result.as_ref().map_or("()".to_string(), |(t, _)| t.clone())
    );
    let line = format!("func.call @{callee}({}) : {call_ty}", args.join(", "));
    let Some(_) = result else {
        ex.line(line);
        return Ok(None);
    };
    let r = match ex.ir.op(op).results.first() {
        Some(&v) => ex.define(v),
        None => ex.fresh(),
    };
    ex.line(format!("{r} = {line}"));
    Ok((returns_status && ex.returns_status).then_some(r))
}

/// ` {llvm.signext}` / ` {llvm.zeroext}` for integers narrower than 32
/// bits, as the native backend marks them.
fn extension(ex: &Exporter<'_>, t: strata_ir::Type) -> &'static str {
    match ex.ir.types.kind(t) {
        TypeKind::Int { width, sign } if *width < 32 => {
            if *sign == Signedness::Unsigned || *width == 1 {
                " {llvm.zeroext}"
            } else {
                " {llvm.signext}"
            }
        }
        _ => "",
    }
}

/// `func.return`: the status (0 if nothing failed) or the value.
pub(crate) fn func_return(ex: &mut Exporter<'_>, op: OpId, status: Option<String>) -> Result<()> {
    if ex.ir.op(op).name != RETURN {
        return Err(ex.internal(op, "is not 'func.return'"));
    }
    match ex.ir.op(op).operands().len() {
        0 if ex.returns_status => {
            let s = match status {
                Some(s) => s,
                None => ex.constant(0, "i32"),
            };
            ex.line(format!("func.return {s} : i32"));
        }
        0 => ex.line("func.return"),
        1 => {
            let v = ex.operand(op, 0)?;
            let t = ex.ty(ex.operand_ty(op, 0)?, op)?;
            ex.line(format!("func.return {v} : {t}"));
        }
        _ => return Err(unsupported(ex.loc(op), "returning several values")),
    }
    Ok(())
}
