//! Instructions that move elements around: `iota`, `broadcast`, `reshape`,
//! `bitcast`, `copy`, `transpose`, `slice`, `dynamic-slice`,
//! `dynamic-update-slice`, `concatenate`, `pad`, `reverse`.

use strata_diag::{Diagnostic, Result};

use super::attrs::{padding_config, slice_dims};
use super::import::{Importer, Inst, Val};
use super::lexer::whole;
use super::shapes::Shape;
use strata_dialect_xla::names::*;

/// `iota(), iota_dimension=0`.
pub fn iota(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(0)?;
    let d = inst.attrs.int("iota_dimension")?;
    let attrs = vec![("iota_dimension".to_string(), imp.i64_attr(d))];
    imp.build(inst, IOTA, vec![], attrs)
}

/// `broadcast(x), dimensions={1}` is `xla.broadcast_in_dim`.
pub fn broadcast(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    let dims = inst.attrs.ints("dimensions")?;
    let attrs = vec![("broadcast_dimensions".to_string(), imp.dense_i64s(dims))];
    imp.build(inst, BROADCAST_IN_DIM, vec![inst.leaf(0)?], attrs)
}

pub fn reshape(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    imp.build(inst, RESHAPE, vec![inst.leaf(0)?], vec![])
}

/// `bitcast` reinterprets a buffer under new shape and layout. With the
/// default layout on both sides and the same element type it is a reshape;
/// anything else depends on physical layouts, which Strata does not model.
pub fn bitcast(imp: &mut Importer<'_>, inst: &Inst<'_, '_>, shapes: &[&Shape]) -> Result<Val> {
    inst.expect_operands(1)?;
    let from = shapes[0];
    let to = &inst.instr.shape;
    let same_elem = matches!(
        (from, to),
        (Shape::Array { elem: a, .. }, Shape::Array { elem: b, .. }) if a == b
    );
    if !same_elem
        || from.first_non_default_layout().is_some()
        || to.first_non_default_layout().is_some()
    {
        return Err(Diagnostic::unsupported(
            inst.instr.opcode_loc,
            "'bitcast' is only supported as a reshape: the same element type and the default layout on both sides",
        ));
    }
    imp.build(inst, RESHAPE, vec![inst.leaf(0)?], vec![])
}

/// `copy` only changes the layout, which is not modelled: the operand's value.
pub fn copy(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    let value = Val::Leaf(inst.leaf(0)?);
    imp.expect_declared(inst, &value)?;
    Ok(value)
}

/// `transpose(x), dimensions={1,0}`.
pub fn transpose(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    let perm = inst.attrs.ints("dimensions")?;
    let attrs = vec![("permutation".to_string(), imp.dense_i64s(perm))];
    imp.build(inst, TRANSPOSE, vec![inst.leaf(0)?], attrs)
}

/// `slice(x), slice={[0:4:1], [1:3]}`.
pub fn slice(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    let dims = whole(&mut inst.attrs.required("slice")?, slice_dims)?;
    let starts = dims.iter().map(|d| d.start).collect();
    let limits = dims.iter().map(|d| d.limit).collect();
    let strides = dims.iter().map(|d| d.stride).collect();
    let attrs = vec![
        ("start_indices".to_string(), imp.dense_i64s(starts)),
        ("limit_indices".to_string(), imp.dense_i64s(limits)),
        ("strides".to_string(), imp.dense_i64s(strides)),
    ];
    imp.build(inst, SLICE, vec![inst.leaf(0)?], attrs)
}

/// `dynamic-slice(x, i, j), dynamic_slice_sizes={2,2}`.
pub fn dynamic_slice(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let sizes = inst.attrs.ints("dynamic_slice_sizes")?;
    let attrs = vec![("slice_sizes".to_string(), imp.dense_i64s(sizes))];
    let operands = inst.all_leaves()?;
    imp.build(inst, DYNAMIC_SLICE, operands, attrs)
}

/// `dynamic-update-slice(x, update, i, j)`.
pub fn dynamic_update_slice(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let operands = inst.all_leaves()?;
    imp.build(inst, DYNAMIC_UPDATE_SLICE, operands, vec![])
}

/// `concatenate(a, b), dimensions={0}`.
pub fn concatenate(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let dims = inst.attrs.ints("dimensions")?;
    let [d] = dims[..] else {
        return Err(Diagnostic::error(
            inst.instr.attr("dimensions").map_or(inst.loc(), |a| a.loc),
            format!("'concatenate' takes one dimension, found {}", dims.len()),
        ));
    };
    let attrs = vec![("dimension".to_string(), imp.i64_attr(d))];
    let operands = inst.all_leaves()?;
    imp.build(inst, CONCATENATE, operands, attrs)
}

/// `pad(x, value), padding=0_1x2_2_1` (low_high[_interior] per dimension).
pub fn pad(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(2)?;
    let dims = whole(&mut inst.attrs.required("padding")?, padding_config)?;
    let low = dims.iter().map(|d| d.low).collect();
    let high = dims.iter().map(|d| d.high).collect();
    let interior = dims.iter().map(|d| d.interior).collect();
    let attrs = vec![
        ("edge_padding_low".to_string(), imp.dense_i64s(low)),
        ("edge_padding_high".to_string(), imp.dense_i64s(high)),
        ("interior_padding".to_string(), imp.dense_i64s(interior)),
    ];
    let operands = inst.all_leaves()?;
    imp.build(inst, PAD, operands, attrs)
}

/// `reverse(x), dimensions={0}`.
pub fn reverse(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    let dims = inst.attrs.ints("dimensions")?;
    let attrs = vec![("dimensions".to_string(), imp.dense_i64s(dims))];
    imp.build(inst, REVERSE, vec![inst.leaf(0)?], attrs)
}
