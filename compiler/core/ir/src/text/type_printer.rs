//! Types in their text form (`tensor<2x?xf32>`, `!quant.uniform<...>`):
//! apart from the op printer so that whatever names a type in a message
//! (dense literals, the parser) need not depend on printing ops.

use std::fmt::Write;

use crate::context::Context;
use crate::types::{Signedness, Type, TypeKind};

pub fn type_to_string(ctx: &Context, t: Type) -> String {
    let mut s = String::new();
    write_type(ctx, t, &mut s);
    s
}

pub(crate) fn write_type(ctx: &Context, t: Type, s: &mut String) {
    match ctx.types.kind(t) {
        TypeKind::Int { width, sign } => {
            let p = match sign {
                Signedness::Signless => "i",
                Signedness::Signed => "si",
                Signedness::Unsigned => "ui",
            };
            let _ = write!(s, "{p}{width}");
        }
        TypeKind::Float(k) => s.push_str(k.name()),
        TypeKind::Index => s.push_str("index"),
        TypeKind::Complex(e) => {
            s.push_str("complex<");
            write_type(ctx, *e, s);
            s.push('>');
        }
        TypeKind::Tensor { shape, elem } | TypeKind::MemRef { shape, elem } => {
            s.push_str(if matches!(ctx.types.kind(t), TypeKind::Tensor { .. }) {
                "tensor<"
            } else {
                "memref<"
            });
            for d in shape {
                if *d < 0 {
                    s.push_str("?x");
                } else {
                    let _ = write!(s, "{d}x");
                }
            }
            write_type(ctx, *elem, s);
            s.push('>');
        }
        TypeKind::Tuple(elems) => {
            s.push_str("tuple<");
            write_list(ctx, elems, s);
            s.push('>');
        }
        TypeKind::Token => s.push_str("!stablehlo.token"),
        TypeKind::Quant(q) => write_quant(ctx, q, s),
        TypeKind::Function { inputs, results } => {
            s.push('(');
            write_list(ctx, inputs, s);
            s.push_str(") -> ");
            if results.len() == 1
                && !matches!(ctx.types.kind(results[0]), TypeKind::Function { .. })
            {
                write_type(ctx, results[0], s);
            } else {
                s.push('(');
                write_list(ctx, results, s);
                s.push(')');
            }
        }
    }
}

/// `!quant.uniform<i8<-127:127>:f32:1, {0.1:-30,0.5:-20}>`, the storage
/// range only when it is narrower than the type's.
fn write_quant(ctx: &Context, q: &crate::types::UniformQuant, s: &mut String) {
    s.push_str("!quant.uniform<");
    write_type(ctx, q.storage, s);
    let (min, max) = crate::types::storage_range(&ctx.types, q.storage);
    if (q.storage_min, q.storage_max) != (min, max) {
        let _ = write!(s, "<{}:{}>", q.storage_min, q.storage_max);
    }
    s.push(':');
    write_type(ctx, q.expressed, s);
    if let Some(axis) = q.axis {
        let _ = write!(s, ":{axis}");
    }
    s.push_str(", ");
    let pairs: Vec<String> = q
        .scales
        .iter()
        .zip(&q.zero_points)
        .map(|(&scale, &zp)| {
            let scale = f64::from_bits(scale);
            if zp == 0 {
                format!("{scale:?}")
            } else {
                format!("{scale:?}:{zp}")
            }
        })
        .collect();
    if q.axis.is_some() {
        let _ = write!(s, "{{{}}}", pairs.join(","));
    } else {
        s.push_str(&pairs.join(","));
    }
    s.push('>');
}

pub(crate) fn write_list(ctx: &Context, ts: &[Type], s: &mut String) {
    for (i, t) in ts.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        write_type(ctx, *t, s);
    }
}
