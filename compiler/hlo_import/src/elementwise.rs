//! Element-wise instructions: the unary and binary arithmetic, `select`,
//! `clamp`, `convert`, `compare` and `reduce-precision`.

use strata_diag::{Diagnostic, Result};
use strata_ir::{Signedness, TypeKind};

use super::import::{Importer, Inst, Val};
use strata_dialect_xla::attrs::{CompareType, ComparisonDirection};
use strata_dialect_xla::names::{COMPARE, REDUCE_PRECISION};

/// `add(a, b)` -> `xla.add`, and the like: operands map one to one.
pub fn elementwise(imp: &mut Importer<'_>, inst: &Inst<'_, '_>, name: &'static str) -> Result<Val> {
    let operands = inst.all_leaves()?;
    imp.build(inst, name, operands, vec![])
}

/// `compare(a, b), direction=LT[, type=TOTALORDER]`. Without `type`, the
/// comparison follows the element type as XLA does: FLOAT for floats and
/// complex numbers, SIGNED for signed integers, UNSIGNED otherwise.
pub fn compare(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(2)?;
    let operands = inst.all_leaves()?;
    let Some((dir, dir_loc)) = inst.attrs.word("direction")? else {
        return Err(Diagnostic::error(
            inst.instr.opcode_loc,
            "'compare' requires the attribute 'direction'",
        ));
    };
    let direction = ComparisonDirection::parse(&dir).ok_or_else(|| {
        Diagnostic::error(dir_loc, format!("unknown comparison direction '{dir}'"))
    })?;
    let compare_type = match inst.attrs.word("type")? {
        Some((t, loc)) => CompareType::parse(&t)
            .ok_or_else(|| Diagnostic::error(loc, format!("unknown comparison type '{t}'")))?,
        None => default_compare_type(imp, operands[0]),
    };
    let attrs = vec![
        (
            "comparison_direction".to_string(),
            imp.enum_attr("comparison_direction", direction.name()),
        ),
        (
            "compare_type".to_string(),
            imp.enum_attr("comparison_type", compare_type.name()),
        ),
    ];
    imp.build(inst, COMPARE, operands, attrs)
}

fn default_compare_type(imp: &Importer<'_>, operand: strata_ir::Value) -> CompareType {
    let elem = imp.ctx.types.elem(imp.ctx.value_ty(operand));
    match imp.ctx.types.kind(elem) {
        TypeKind::Float(_) | TypeKind::Complex(_) => CompareType::Float,
        TypeKind::Int { width: 1, .. } => CompareType::Unsigned,
        TypeKind::Int {
            sign: Signedness::Unsigned,
            ..
        } => CompareType::Unsigned,
        TypeKind::Int { .. } => CompareType::Signed,
        _ => CompareType::NoType,
    }
}

/// `reduce-precision(x), exponent_bits=5, mantissa_bits=10`.
pub fn reduce_precision(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    let operands = inst.all_leaves()?;
    let exponent = bit_count(inst, "exponent_bits")?;
    let mantissa = bit_count(inst, "mantissa_bits")?;
    let attrs = vec![
        ("exponent_bits".to_string(), imp.i32_attr(exponent)),
        ("mantissa_bits".to_string(), imp.i32_attr(mantissa)),
    ];
    imp.build(inst, REDUCE_PRECISION, operands, attrs)
}

/// A bit count attribute: an integer from 0 to 2^31 - 1 (an `i32`).
fn bit_count(inst: &Inst<'_, '_>, name: &str) -> Result<i64> {
    let v = inst.attrs.int(name)?;
    if !(0..=i64::from(i32::MAX)).contains(&v) {
        let loc = inst.instr.attr(name).map_or(inst.loc(), |a| a.loc);
        return Err(Diagnostic::error(
            loc,
            format!("{name} must be between 0 and 2^31-1, found {v}"),
        ));
    }
    Ok(v)
}
