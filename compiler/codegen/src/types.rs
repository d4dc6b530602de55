//! IR types to LLVM types: values in registers, and elements in memory.
//!
//! In memory (the C ABI of `dialects/README.md`): `i1` and integers narrower
//! than 8 bits take one byte, other integers the next of 8/16/32/64 bits,
//! `f16`/`bf16` two bytes, a complex element two consecutive parts.

use inkwell::AddressSpace;
use inkwell::context::Context as LlContext;
use inkwell::types::{BasicType, BasicTypeEnum, FloatType, IntType};
use strata_diag::{Diagnostic, Location, Result};
use strata_ir::text::printer::type_to_string;
use strata_ir::{Context, FloatKind, Type, TypeKind};

fn unsupported(ir: &Context, t: Type, loc: Location) -> Diagnostic {
    Diagnostic::unsupported(
        loc,
        format!(
            "type {} is not supported by the LLVM lowering",
            type_to_string(ir, t)
        ),
    )
}

pub(crate) fn int_type(cx: &LlContext, width: u32) -> IntType<'_> {
    match width {
        1 => cx.bool_type(),
        8 => cx.i8_type(),
        16 => cx.i16_type(),
        32 => cx.i32_type(),
        64 => cx.i64_type(),
        w => std::num::NonZeroU32::new(w)
            .and_then(|w| cx.custom_width_int_type(w).ok())
            .unwrap_or(cx.i64_type()),
    }
}

pub(crate) fn float_type(cx: &LlContext, k: FloatKind) -> Option<FloatType<'_>> {
    match k {
        FloatKind::F16 => Some(cx.f16_type()),
        FloatKind::BF16 => Some(cx.bf16_type()),
        FloatKind::F32 => Some(cx.f32_type()),
        FloatKind::F64 => Some(cx.f64_type()),
        _ => None,
    }
}

/// The f8/f6/f4 formats: held as their bit pattern in an `i8`, in
/// registers and in memory; only `arith.extf` / `arith.truncf` (through the
/// runtime's codec) and loads, stores and constants apply to them.
pub(crate) fn is_small_float(k: FloatKind) -> bool {
    strata_ir::minifloat::format(k).is_some()
}

/// Register type of a scalar or memref (memrefs are pointers).
pub(crate) fn value_type<'ctx>(
    ir: &Context,
    cx: &'ctx LlContext,
    t: Type,
    loc: Location,
) -> Result<BasicTypeEnum<'ctx>> {
    match ir.types.kind(t) {
        // Registers may hold up to 128 bits (the lowering's bit shuffling of
        // complex<f64>); memory holds at most 64-bit integers.
        TypeKind::Int { width, .. } if (1..=128).contains(width) => {
            Ok(int_type(cx, *width).as_basic_type_enum())
        }
        TypeKind::Index => Ok(cx.i64_type().as_basic_type_enum()),
        TypeKind::Float(k) if is_small_float(*k) => Ok(cx.i8_type().as_basic_type_enum()),
        TypeKind::Float(k) => float_type(cx, *k)
            .map(|f| f.as_basic_type_enum())
            .ok_or_else(|| unsupported(ir, t, loc)),
        TypeKind::MemRef { elem, .. } => {
            storage_type(ir, cx, *elem, loc)?;
            Ok(cx.ptr_type(AddressSpace::default()).as_basic_type_enum())
        }
        _ => Err(unsupported(ir, t, loc)),
    }
}

/// Width in bits of the memory slot of an integer of `width` bits.
pub(crate) fn storage_int_width(width: u32) -> u32 {
    8 * strata_abi::scalar_storage_bytes(width)
}

/// The type one addressing unit of a memref of `elem` holds: the element
/// itself, or one part of a complex element.
pub(crate) fn storage_type<'ctx>(
    ir: &Context,
    cx: &'ctx LlContext,
    elem: Type,
    loc: Location,
) -> Result<BasicTypeEnum<'ctx>> {
    match ir.types.kind(elem) {
        TypeKind::Int { width, .. } if (1..=64).contains(width) => {
            Ok(int_type(cx, storage_int_width(*width)).as_basic_type_enum())
        }
        TypeKind::Index => Ok(cx.i64_type().as_basic_type_enum()),
        TypeKind::Float(k) if is_small_float(*k) => Ok(cx.i8_type().as_basic_type_enum()),
        TypeKind::Float(k) => float_type(cx, *k)
            .map(|f| f.as_basic_type_enum())
            .ok_or_else(|| unsupported(ir, elem, loc)),
        TypeKind::Complex(p) => storage_type(ir, cx, *p, loc),
        _ => Err(unsupported(ir, elem, loc)),
    }
}

/// Whether buffers of `elem` can be lowered (what [`storage_type`] accepts).
pub(crate) fn has_storage(ir: &Context, elem: Type) -> bool {
    match ir.types.kind(elem) {
        TypeKind::Int { width, .. } => (1..=64).contains(width),
        TypeKind::Index => true,
        TypeKind::Float(k) => is_small_float(*k) || float_kind_has_llvm_type(*k),
        TypeKind::Complex(p) => has_storage(ir, *p),
        _ => false,
    }
}

fn float_kind_has_llvm_type(k: FloatKind) -> bool {
    matches!(
        k,
        FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64
    )
}

/// Bytes of one addressing unit (see [`storage_type`]).
pub(crate) fn unit_bytes(ir: &Context, elem: Type) -> u64 {
    ir.types.part_storage_bytes(elem)
}

/// Addressing units per element: 2 for complex, else 1.
pub(crate) fn units_per_elem(ir: &Context, elem: Type) -> u64 {
    if ir.types.is_complex(elem) { 2 } else { 1 }
}

/// Size in bytes of a whole memref.
pub(crate) fn memref_bytes(ir: &Context, t: Type) -> u64 {
    let elem = ir.types.elem(t);
    ir.types.num_elements(t).max(0) as u64 * units_per_elem(ir, elem) * unit_bytes(ir, elem)
}
