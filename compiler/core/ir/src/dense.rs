//! Dense element literals: from the parsed literal tree to raw element bits
//! and back, for every element type.

use crate::attrs::DenseElements;
pub use crate::attrs::Literal;
use crate::context::Context;
use crate::minifloat;
use crate::types::{FloatKind, Signedness, Type, TypeKind};

/// Checks that `v` fits integer type `ty` (signless accepts both signed and
/// unsigned spellings, as MLIR does).
pub fn check_int_range(ctx: &Context, v: i128, ty: Type) -> Result<(), String> {
    let (width, sign) = match ctx.types.kind(ty) {
        TypeKind::Int { width, sign } => (*width, *sign),
        TypeKind::Index => (64, Signedness::Signless),
        _ => return Err("integer literal for a non-integer type".into()),
    };
    if width > 64 {
        return Ok(()); // internal wide integers (i128) take any literal
    }
    let w = width as i128;
    let (lo, hi) = match sign {
        Signedness::Unsigned => (0, (1i128 << w) - 1),
        Signedness::Signed => (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1),
        Signedness::Signless if width == 1 => (-1, 1),
        Signedness::Signless => (-(1i128 << (w - 1)), (1i128 << w) - 1),
    };
    if v < lo || v > hi {
        return Err(format!(
            "integer value {v} is out of range for type {}",
            crate::text::type_printer::type_to_string(ctx, ty)
        ));
    }
    Ok(())
}

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Bits of a float value in the given format (round to nearest even).
pub fn float_to_bits(v: f64, k: FloatKind) -> u64 {
    match k {
        FloatKind::F64 => v.to_bits(),
        FloatKind::F32 | FloatKind::TF32 => (v as f32).to_bits() as u64,
        FloatKind::F16 => half::f16::from_f64(v).to_bits() as u64,
        FloatKind::BF16 => half::bf16::from_f64(v).to_bits() as u64,
        _ => minifloat::encode(v, k) as u64,
    }
}

/// Value of float bits in the given format.
pub fn bits_to_float(bits: u64, k: FloatKind) -> f64 {
    match k {
        FloatKind::F64 => f64::from_bits(bits),
        FloatKind::F32 | FloatKind::TF32 => f32::from_bits(bits as u32) as f64,
        FloatKind::F16 => half::f16::from_bits(bits as u16).to_f64(),
        FloatKind::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
        _ => minifloat::decode(bits as u8, k),
    }
}

/// Bits of one scalar literal of scalar type `ty`; complex types give two.
fn scalar_bits(ctx: &Context, lit: &Literal, ty: Type, out: &mut Vec<u64>) -> Result<(), String> {
    match (ctx.types.kind(ty), lit) {
        (TypeKind::Int { width, .. }, Literal::Int(v)) => {
            check_int_range(ctx, *v, ty)?;
            out.push((*v as u64) & mask(*width));
        }
        (TypeKind::Int { width: 1, .. }, Literal::Bool(b)) => out.push(*b as u64),
        // `index` elements (custom-call layouts): 64-bit integers.
        (TypeKind::Index, Literal::Int(v)) => {
            let v = i64::try_from(*v).map_err(|_| format!("index {v} does not fit in 64 bits"))?;
            out.push(v as u64);
        }
        (TypeKind::Int { width, .. }, Literal::Hex(v)) => {
            if *v & !mask(*width) != 0 {
                return Err(format!(
                    "hexadecimal value 0x{v:X} does not fit in {width} bits"
                ));
            }
            out.push(*v);
        }
        (TypeKind::Float(k), Literal::Float(v)) => out.push(float_to_bits(*v, *k)),
        (TypeKind::Float(k), Literal::Int(v)) => out.push(float_to_bits(*v as f64, *k)),
        (TypeKind::Float(k), Literal::Hex(v)) => {
            if *v & !mask(k.width()) != 0 {
                return Err(format!(
                    "hexadecimal float 0x{v:X} does not fit in {} bits",
                    k.width()
                ));
            }
            out.push(*v);
        }
        (TypeKind::Complex(e), Literal::Complex(re, im)) => {
            let e = *e;
            scalar_bits(ctx, re, e, out)?;
            scalar_bits(ctx, im, e, out)?;
        }
        (TypeKind::Complex(e), Literal::Float(_) | Literal::Int(_)) => {
            let e = *e;
            scalar_bits(ctx, lit, e, out)?;
            out.push(0);
        }
        (_, Literal::List(_)) => return Err("unexpected nested list: too many dimensions".into()),
        (_, Literal::Bool(_)) => {
            return Err(format!(
                "boolean literal for element type {}",
                crate::text::type_printer::type_to_string(ctx, ty)
            ));
        }
        _ => {
            return Err(format!(
                "literal does not match element type {}",
                crate::text::type_printer::type_to_string(ctx, ty)
            ));
        }
    }
    Ok(())
}

/// Builds dense elements of tensor type `ty` from a literal tree.
pub fn build(ctx: &Context, ty: Type, lit: &Literal) -> Result<DenseElements, String> {
    let shape = ctx.types.shape(ty).map(|s| s.to_vec()).unwrap_or_default();
    let elem = ctx.types.elem(ty);
    let count: i64 = shape.iter().product();
    let mut bits = Vec::new();
    match lit {
        Literal::Bytes(bytes) => {
            let parts = if ctx.types.is_complex(elem) { 2 } else { 1 };
            let part_ty = match ctx.types.kind(elem) {
                TypeKind::Complex(e) => *e,
                _ => elem,
            };
            let width = ctx.types.bit_width(part_ty);
            let nbytes = width.div_ceil(8) as usize;
            let total = bytes.len() / nbytes;
            if bytes.len() % nbytes != 0 || (total != parts && total as i64 != count * parts as i64)
            {
                return Err(format!(
                    "hex string holds {} bytes; expected {} (or one element for a splat)",
                    bytes.len(),
                    count as usize * parts * nbytes
                ));
            }
            for chunk in bytes.chunks(nbytes) {
                let mut v = 0u64;
                for (i, b) in chunk.iter().enumerate() {
                    v |= (*b as u64) << (8 * i);
                }
                bits.push(v & mask(width));
            }
            let splat = total == parts && count != 1;
            return Ok(DenseElements { ty, splat, bits });
        }
        Literal::List(_) => {
            if count == 0 {
                return check_empty(lit, &shape).map(|_| DenseElements {
                    ty,
                    splat: false,
                    bits,
                });
            }
            flatten(ctx, lit, &shape, 0, elem, &mut bits)?;
        }
        scalar => {
            scalar_bits(ctx, scalar, elem, &mut bits)?;
            return Ok(DenseElements {
                ty,
                splat: count != 1,
                bits,
            });
        }
    }
    Ok(DenseElements {
        ty,
        splat: false,
        bits,
    })
}

fn check_empty(lit: &Literal, shape: &[i64]) -> Result<(), String> {
    // `[]` or nested empty lists for zero-element tensors.
    match lit {
        Literal::List(v) if v.is_empty() => Ok(()),
        Literal::List(v) if !shape.is_empty() && v.len() as i64 == shape[0] => {
            v.iter().try_for_each(|l| check_empty(l, &shape[1..]))
        }
        _ => Err("literal shape does not match a zero-element tensor".into()),
    }
}

fn flatten(
    ctx: &Context,
    lit: &Literal,
    shape: &[i64],
    dim: usize,
    elem: Type,
    out: &mut Vec<u64>,
) -> Result<(), String> {
    if dim == shape.len() {
        return scalar_bits(ctx, lit, elem, out);
    }
    match lit {
        Literal::List(items) => {
            if items.len() as i64 != shape[dim] {
                return Err(format!(
                    "expected {} elements in dimension {dim}, but found {}",
                    shape[dim],
                    items.len()
                ));
            }
            items
                .iter()
                .try_for_each(|l| flatten(ctx, l, shape, dim + 1, elem, out))
        }
        _ => Err(format!(
            "expected a list of {} elements for dimension {dim}",
            shape[dim]
        )),
    }
}

/// Number of stored scalars per element (2 for complex).
pub fn parts(ctx: &Context, elem: Type) -> usize {
    if ctx.types.is_complex(elem) { 2 } else { 1 }
}

/// The bits of element `i` (a splat answers for every index).
pub fn element_bits(ctx: &Context, d: &DenseElements, i: usize) -> Vec<u64> {
    let p = parts(ctx, ctx.types.elem(d.ty));
    let base = if d.splat { 0 } else { i * p };
    d.bits[base..base + p].to_vec()
}

/// Sign- or zero-extends integer bits of type `ty` to i128.
pub fn int_value(ctx: &Context, bits: u64, ty: Type) -> i128 {
    match ctx.types.kind(ty) {
        TypeKind::Int { width, sign } => {
            let w = *width;
            if w >= 64 {
                // Wider types (internal i128) hold at most 64 literal bits.
                return if *sign == Signedness::Unsigned {
                    bits as i128
                } else {
                    bits as i64 as i128
                };
            }
            if *sign == Signedness::Unsigned || w == 1 {
                (bits & mask(w)) as i128
            } else {
                let shift = 64 - w;
                (((bits << shift) as i64) >> shift) as i128
            }
        }
        _ => bits as i64 as i128,
    }
}
