//! Control flow and tuples: `while`, `conditional`, `call`, `fusion`, `tuple`,
//! `get-tuple-element`, `opt-barrier`, `after-all`.

use strata_diag::{Diagnostic, Result};
use strata_ir::AttrKind;

use super::import::{Importer, Inst, Val};
use strata_dialect_xla::names::*;

/// `while(init), condition=c, body=b`: the loop state (usually a tuple) is
/// flattened into `xla.while`'s operands, and each computation's parameter
/// into its region's block arguments.
pub fn while_loop(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    let (cond_name, cond_loc) = inst.attrs.computation("condition")?;
    let (body_name, body_loc) = inst.attrs.computation("body")?;
    let cond = imp.computation(&cond_name, cond_loc)?;
    let body = imp.computation(&body_name, body_loc)?;
    let op = imp.create(inst, WHILE, inst.operands[0].leaves(), vec![]);
    imp.emit_region_with_args(op, cond)?;
    imp.emit_region_with_args(op, body)?;
    imp.finish(inst, op)
}

/// `conditional(index, a0, a1, ...), branch_computations={b0, b1, ...}` is
/// `xla.case`; `conditional(pred, t, f), true_computation=..,
/// false_computation=..` is `xla.if`. Each branch's parameter is bound to
/// its operand, captured from outside the region.
pub fn conditional(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let selector = inst.leaf(0)?;
    let (name, branches) = match inst.instr.attr("branch_computations") {
        Some(_) => (CASE, inst.attrs.computations("branch_computations")?),
        None => (
            IF,
            vec![
                inst.attrs.computation("true_computation")?,
                inst.attrs.computation("false_computation")?,
            ],
        ),
    };
    inst.expect_operands(branches.len() + 1)?;
    let op = imp.create(inst, name, vec![selector], vec![]);
    for (i, (branch, loc)) in branches.iter().enumerate() {
        let comp = imp.computation(branch, *loc)?;
        let arity = imp.parameter_shapes(comp)?.len();
        if arity != 1 {
            return Err(Diagnostic::error(
                *loc,
                format!("branch computation '{branch}' must take one parameter, found {arity}"),
            ));
        }
        imp.emit_region_capturing(op, comp, vec![inst.operands[i + 1].clone()])?;
    }
    imp.finish(inst, op)
}

/// `call(args...), to_apply=f` is `func.call @f` of a private function.
pub fn call(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    call_computation(imp, inst, "to_apply")
}

/// `fusion(args...), kind=kLoop, calls=f` (in optimized HLO) computes what
/// calling `f` does; the kind is only XLA's code generation strategy.
pub fn fusion(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.attrs.word("kind")?;
    call_computation(imp, inst, "calls")
}

/// `func.call` of the private function made for the computation named by
/// attribute `attr`, with the operands flattened.
fn call_computation(imp: &mut Importer<'_>, inst: &Inst<'_, '_>, attr: &str) -> Result<Val> {
    let (callee, loc) = inst.attrs.computation(attr)?;
    let comp = imp.computation(&callee, loc)?;
    let symbol = imp.function_symbol(comp);
    let callee_attr = imp.ctx.attr(AttrKind::SymbolRef(symbol));
    let operands: Vec<_> = inst.operands.iter().flat_map(|v| v.leaves()).collect();
    imp.build(
        inst,
        strata_ir::builtin::CALL,
        operands,
        vec![("callee".to_string(), callee_attr)],
    )
}

/// `tuple(a, b)` groups values; no op is emitted.
pub fn tuple(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let value = Val::Tuple(inst.operands.clone());
    imp.expect_declared(inst, &value)?;
    Ok(value)
}

/// `get-tuple-element(t), index=1` picks an element; no op is emitted.
pub fn get_tuple_element(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    let index = inst.attrs.int("index")?;
    let Val::Tuple(items) = &inst.operands[0] else {
        return Err(Diagnostic::error(
            inst.instr.operands[0].loc,
            "'get-tuple-element' needs a tuple operand",
        ));
    };
    let Some(item) = usize::try_from(index).ok().and_then(|i| items.get(i)) else {
        return Err(Diagnostic::error(
            inst.instr.attr("index").map_or(inst.loc(), |a| a.loc),
            format!(
                "index {index} is out of range for a tuple of {} elements",
                items.len()
            ),
        ));
    };
    imp.expect_declared(inst, item)?;
    Ok(item.clone())
}

/// `opt-barrier(t)`: `xla.optimization_barrier` over the flattened values.
pub fn optimization_barrier(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    imp.build(
        inst,
        OPTIMIZATION_BARRIER,
        inst.operands[0].leaves(),
        vec![],
    )
}

/// `after-all(tokens...)`.
pub fn after_all(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let operands = inst.all_leaves()?;
    imp.build(inst, AFTER_ALL, operands, vec![])
}
