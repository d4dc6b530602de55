//! Attribute, type and string spelling for StableHLO text, with VHLO's
//! attributes converted to their StableHLO equivalents. Every string from
//! the input goes through `quote`; output is capped so that inputs sharing
//! sub-attributes cannot make it grow without bound.

use std::fmt::Write as _;

use crate::error::{Result, err};
use crate::vhlo::decode::Tables;
use crate::vhlo::model::*;

/// How deeply attribute/type printing recurses (decoding already bounds
/// nesting; this guards the printer on its own).
const MAX_PRINT_DEPTH: usize = 128;

pub struct Text<'t, 'f, 'a> {
    pub t: &'t Tables<'f, 'a>,
    /// Output beyond this many bytes is an error.
    pub limit: usize,
}

/// MLIR's `kDynamic` dimension.
pub const DYNAMIC: i64 = i64::MIN;

impl Text<'_, '_, '_> {
    pub fn check(&self, o: &str) -> Result<()> {
        if o.len() > self.limit {
            return err(0, format!("output would exceed {} bytes", self.limit));
        }
        Ok(())
    }

    pub fn ty(&self, o: &mut String, id: TypeId) -> Result<()> {
        self.ty_d(o, id, 0)
    }

    fn ty_d(&self, o: &mut String, id: TypeId, d: usize) -> Result<()> {
        self.check(o)?;
        if d > MAX_PRINT_DEPTH {
            return err(0, "types nest too deeply to print");
        }
        match self.t.ty(id) {
            Type::Scalar(s) => scalar(o, *s),
            Type::Tensor {
                shape,
                elem,
                encoding,
            } => {
                o.push_str("tensor<");
                dims(o, shape);
                self.ty_d(o, *elem, d + 1)?;
                if let Some(e) = encoding {
                    o.push_str(", ");
                    self.encoding(o, *e, d + 1)?;
                }
                o.push('>');
            }
            Type::Unranked(e) => {
                o.push_str("tensor<*x");
                self.ty_d(o, *e, d + 1)?;
                o.push('>');
            }
            Type::Complex(e) => {
                o.push_str("complex<");
                self.ty_d(o, *e, d + 1)?;
                o.push('>');
            }
            Type::Tuple(ts) => {
                o.push_str("tuple<");
                self.ty_list(o, ts, d)?;
                o.push('>');
            }
            Type::Function(ins, outs) => {
                o.push('(');
                self.ty_list(o, ins, d)?;
                o.push_str(") -> ");
                self.results(o, outs, d)?;
            }
            Type::Token => o.push_str("!stablehlo.token"),
            Type::Future(ts) => {
                o.push_str("!stablehlo.future<");
                self.ty_list(o, ts, d)?;
                o.push('>');
            }
            Type::Buffer { shape, elem } => {
                o.push_str("memref<");
                dims(o, shape);
                self.ty_d(o, *elem, d + 1)?;
                o.push('>');
            }
            Type::Quant(q) => self.quant(o, q, d)?,
            Type::Witness => o.push_str("!shape.witness"),
            Type::Opaque(s) => o.push_str(s),
        }
        Ok(())
    }

    pub fn ty_list(&self, o: &mut String, ts: &[TypeId], d: usize) -> Result<()> {
        for (i, t) in ts.iter().enumerate() {
            if i > 0 {
                o.push_str(", ");
            }
            self.ty_d(o, *t, d + 1)?;
        }
        Ok(())
    }

    /// Result types of a function type: bare when exactly one non-function.
    pub fn results(&self, o: &mut String, ts: &[TypeId], d: usize) -> Result<()> {
        match ts {
            [t] if !matches!(self.t.ty(*t), Type::Function(..)) => self.ty_d(o, *t, d + 1),
            _ => {
                o.push('(');
                self.ty_list(o, ts, d)?;
                o.push(')');
                Ok(())
            }
        }
    }

    fn encoding(&self, o: &mut String, a: AttrId, d: usize) -> Result<()> {
        match self.t.attr(a) {
            Attr::TypeExtensions(bounds) => {
                o.push_str("#stablehlo.bounds<");
                for (i, b) in bounds.iter().enumerate() {
                    if i > 0 {
                        o.push_str(", ");
                    }
                    if *b == DYNAMIC {
                        o.push('?');
                    } else {
                        let _ = write!(o, "{b}");
                    }
                }
                o.push('>');
                Ok(())
            }
            _ => self.attr_d(o, a, d + 1),
        }
    }

    fn quant(&self, o: &mut String, q: &Quant, d: usize) -> Result<()> {
        o.push_str("!quant.uniform<");
        let signed = q.flags & 1 == 1;
        let storage_bits = self.t.scalar(q.storage).map_or(8, |s| s.bits());
        let _ = write!(o, "{}{storage_bits}", if signed { "i" } else { "u" });
        let (lo, hi) = storage_range(storage_bits, signed);
        if q.storage_min != lo || q.storage_max != hi {
            let _ = write!(o, "<{}:{}>", q.storage_min, q.storage_max);
        }
        o.push(':');
        self.ty_d(o, q.expressed, d + 1)?;
        if let Some(axis) = q.axis {
            let _ = write!(o, ":{axis}, {{");
            for (i, (s, z)) in q.scales.iter().zip(&q.zero_points).enumerate() {
                if i > 0 {
                    o.push(',');
                }
                let _ = write!(o, "{:e}:{z}", f64::from_bits(*s));
            }
            o.push('}');
        } else {
            let s = q.scales.first().copied().unwrap_or(0);
            let z = q.zero_points.first().copied().unwrap_or(0);
            let _ = write!(o, ", {:e}:{z}", f64::from_bits(s));
        }
        o.push('>');
        Ok(())
    }

    /// A VHLO or builtin attribute, spelled as its StableHLO equivalent.
    pub fn attr(&self, o: &mut String, id: AttrId) -> Result<()> {
        self.attr_d(o, id, 0)
    }

    fn attr_d(&self, o: &mut String, id: AttrId, d: usize) -> Result<()> {
        self.check(o)?;
        if d > MAX_PRINT_DEPTH {
            return err(0, "attributes nest too deeply to print");
        }
        match self.t.attr(id) {
            Attr::Array(items) => {
                o.push('[');
                for (i, a) in items.iter().enumerate() {
                    if i > 0 {
                        o.push_str(", ");
                    }
                    self.attr_d(o, *a, d + 1)?;
                }
                o.push(']');
            }
            Attr::Bool(b) => o.push_str(if *b { "true" } else { "false" }),
            Attr::Enum(kind, v) => enum_text(o, *kind, *v),
            Attr::Dict(entries) => {
                o.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        o.push_str(", ");
                    }
                    self.dict_entry(o, *k, *v, d)?;
                }
                o.push('}');
            }
            Attr::Float { ty, bits } => {
                let _ = write!(o, "0x{bits:X} : ");
                self.ty_d(o, *ty, d + 1)?;
            }
            Attr::Int { ty, value } => match self.t.scalar(*ty) {
                Some(Scalar::Bool) => o.push_str(if *value != 0 { "true" } else { "false" }),
                _ => {
                    let _ = write!(o, "{value} : ");
                    self.ty_d(o, *ty, d + 1)?;
                }
            },
            Attr::OutputOperandAlias {
                output_tuple_indices,
                operand_index,
                operand_tuple_indices,
            } => {
                o.push_str("#stablehlo.output_operand_alias<output_tuple_indices = ");
                int_list(o, output_tuple_indices);
                let _ = write!(
                    o,
                    ", operand_index = {operand_index}, operand_tuple_indices = "
                );
                int_list(o, operand_tuple_indices);
                o.push('>');
            }
            Attr::Str(s) => quote(o, s),
            Attr::Tensor { ty, data } => self.dense(o, *ty, data, d)?,
            Attr::Type(t) => self.ty_d(o, *t, d + 1)?,
            Attr::TypeExtensions(_) => self.encoding(o, id, d)?,
            Attr::ResultAccuracy {
                atol,
                rtol,
                ulps,
                mode,
            } => {
                let _ = write!(
                    o,
                    "#stablehlo.result_accuracy<atol = {:e}, rtol = {:e}, ulps = {ulps}, mode = ",
                    f64::from_bits(*atol),
                    f64::from_bits(*rtol)
                );
                self.attr_d(o, *mode, d + 1)?;
                o.push('>');
            }
            Attr::SubAxisInfo { pre_size, size } => {
                let _ = write!(
                    o,
                    "#stablehlo.sub_axis_info<pre_size = {pre_size}, size = {size}>"
                );
            }
            Attr::AxisRef { name, sub } => {
                o.push_str("#stablehlo.axis_ref<name = ");
                self.attr_d(o, *name, d + 1)?;
                if let Some(s) = sub {
                    o.push_str(", sub_axis_info = ");
                    self.attr_d(o, *s, d + 1)?;
                }
                o.push('>');
            }
            Attr::ReplicaGroupMeshAxes { mesh, axes } => {
                o.push_str("#stablehlo.replica_group_mesh_axes<mesh_name = ");
                match self.t.attr(*mesh) {
                    Attr::Str(s) => symbol(o, s),
                    _ => self.attr_d(o, *mesh, d + 1)?,
                }
                o.push_str(", axes = ");
                self.attr_d(o, *axes, d + 1)?;
                o.push('>');
            }
            Attr::MeshAxis { name, size } => {
                o.push_str("#stablehlo.mesh_axis<name = ");
                self.attr_d(o, *name, d + 1)?;
                let _ = write!(o, ", size = {size}>");
            }
            Attr::Mesh { axes, device_ids } => {
                o.push_str("#stablehlo.mesh<axes = ");
                self.attr_d(o, *axes, d + 1)?;
                if let Some(ids) = device_ids {
                    o.push_str(", device_ids = ");
                    self.attr_d(o, *ids, d + 1)?;
                }
                o.push('>');
            }
            Attr::SymbolRef(root, nested) => {
                symbol(o, root);
                for n in nested {
                    o.push_str("::");
                    symbol(o, n);
                }
            }
            Attr::Unit => o.push_str("unit"),
            Attr::DenseArray { elem, count, data } => self.dense_array(o, *elem, *count, data)?,
            Attr::DenseStrings { ty, values } => {
                o.push_str("dense<[");
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        o.push_str(", ");
                    }
                    quote(o, v);
                    self.check(o)?;
                }
                o.push_str("]> : ");
                self.ty_d(o, *ty, d + 1)?;
            }
            Attr::Loc(_) => o.push_str("unit"),
            Attr::Opaque(s) => o.push_str(s),
        }
        Ok(())
    }

    /// `key = value` of a dictionary; the key must be a string.
    pub fn dict_entry(&self, o: &mut String, k: AttrId, v: AttrId, d: usize) -> Result<()> {
        let Attr::Str(name) = self.t.attr(k) else {
            return err(0, "dictionary key is not a string");
        };
        key(o, name);
        if !matches!(self.t.attr(v), Attr::Unit) {
            o.push_str(" = ");
            self.attr_d(o, v, d + 1)?;
        }
        Ok(())
    }

    /// `dense<"0x...">` with MLIR's raw little-endian storage (one element
    /// for a splat), after checking the size against the type.
    fn dense(&self, o: &mut String, ty: TypeId, data: &[u8], d: usize) -> Result<()> {
        let (count, elem_bytes) = self.dense_shape(ty)?;
        let ok = data.len() as u128 == count.saturating_mul(elem_bytes)
            || (data.len() as u128 == elem_bytes && count > 0);
        if !ok {
            return err(
                0,
                format!(
                    "tensor attribute holds {} bytes, which does not match its type",
                    data.len()
                ),
            );
        }
        if data.is_empty() {
            o.push_str("dense<>");
        } else {
            o.push_str("dense<\"0x");
            self.hex(o, data)?;
            o.push_str("\">");
        }
        o.push_str(" : ");
        self.ty_d(o, ty, d + 1)
    }

    /// (element count, bytes per element) of a static tensor type.
    pub fn dense_shape(&self, ty: TypeId) -> Result<(u128, u128)> {
        let Type::Tensor { shape, elem, .. } = self.t.ty(ty) else {
            return err(0, "dense attribute of a non-tensor type");
        };
        let mut count: u128 = 1;
        for &dim in shape {
            let Ok(dim) = u64::try_from(dim) else {
                return err(0, "dense attribute of a dynamically shaped type");
            };
            count = count.saturating_mul(u128::from(dim));
        }
        let bytes = match self.t.ty(*elem) {
            Type::Scalar(s) => u128::from(s.bits().max(1).div_ceil(8)),
            Type::Complex(e) => {
                2 * u128::from(self.t.scalar(*e).map_or(1, |s| s.bits()).div_ceil(8))
            }
            _ => return err(0, "dense attribute of an unsupported element type"),
        };
        Ok((count, bytes))
    }

    fn hex(&self, o: &mut String, data: &[u8]) -> Result<()> {
        const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
        for chunk in data.chunks(1 << 16) {
            for b in chunk {
                o.push(char::from(DIGITS[usize::from(b >> 4)]));
                o.push(char::from(DIGITS[usize::from(b & 15)]));
            }
            self.check(o)?;
        }
        Ok(())
    }

    fn dense_array(&self, o: &mut String, elem: TypeId, count: u64, data: &[u8]) -> Result<()> {
        let Some(s @ (Scalar::Int { .. } | Scalar::Bool)) = self.t.scalar(elem) else {
            return err(0, "only integer dense arrays are supported");
        };
        let w = s.bits().div_ceil(8) as usize;
        if data.len() as u128 != u128::from(count) * w as u128 {
            return err(0, "dense array data does not match its size");
        }
        o.push_str("array<");
        scalar(o, s);
        for (i, chunk) in data.chunks(w.max(1)).enumerate() {
            o.push_str(if i == 0 { ": " } else { ", " });
            let v = le_int(chunk, s);
            if s == Scalar::Bool {
                o.push_str(if v != 0 { "true" } else { "false" });
            } else {
                let _ = write!(o, "{v}");
            }
            if i % 4096 == 0 {
                self.check(o)?;
            }
        }
        o.push('>');
        Ok(())
    }

    /// The integers of an integer tensor attribute (a splat expanded).
    pub fn tensor_ints(&self, id: AttrId) -> Result<Vec<i64>> {
        let Attr::Tensor { ty, data } = self.t.attr(id) else {
            return err(0, "expected a tensor of integers");
        };
        let (count, w) = self.dense_shape(*ty)?;
        let elem = match self.t.ty(*ty) {
            Type::Tensor { elem, .. } => self.t.scalar(*elem),
            _ => None,
        };
        let Some(s @ (Scalar::Int { .. } | Scalar::Bool | Scalar::Index)) = elem else {
            return err(0, "expected a tensor of integers");
        };
        let w = usize::try_from(w).unwrap_or(1).max(1);
        if count > (self.limit as u128) / 2 {
            return err(0, "integer tensor attribute is too large");
        }
        let count = count as usize;
        let one = data.len() == w && count != 1;
        if !one && data.len() != count.saturating_mul(w) {
            return err(0, "tensor attribute size does not match its type");
        }
        Ok((0..count)
            .map(|i| {
                let at = if one { 0 } else { i * w };
                le_int(data.get(at..at + w).unwrap_or(&[]), s) as i64
            })
            .collect())
    }
}

/// A little-endian integer of scalar type `s`, sign-extended when signed.
pub fn le_int(bytes: &[u8], s: Scalar) -> i128 {
    let mut v: u128 = 0;
    for (i, b) in bytes.iter().take(16).enumerate() {
        v |= u128::from(*b) << (8 * i);
    }
    let signed =
        matches!(s, Scalar::Int { sign, .. } if sign != Signedness::Unsigned) || s == Scalar::Index;
    crate::vhlo::decode::extend(v, s.bits(), signed)
}

fn storage_range(bits: u32, signed: bool) -> (i64, i64) {
    let bits = bits.clamp(1, 63);
    if signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    }
}

pub fn scalar(o: &mut String, s: Scalar) {
    match s {
        Scalar::Bool => o.push_str("i1"),
        Scalar::Int { bits, sign } => {
            let p = match sign {
                Signedness::Signless => "i",
                Signedness::Signed => "si",
                Signedness::Unsigned => "ui",
            };
            let _ = write!(o, "{p}{bits}");
        }
        Scalar::Float(f) => o.push_str(f.name()),
        Scalar::Index => o.push_str("index"),
        Scalar::None => o.push_str("none"),
    }
}

pub fn dims(o: &mut String, shape: &[i64]) {
    for d in shape {
        if *d == DYNAMIC || *d < 0 {
            o.push('?');
        } else {
            let _ = write!(o, "{d}");
        }
        o.push('x');
    }
}

pub fn int_list(o: &mut String, v: &[i64]) {
    o.push('[');
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            o.push_str(", ");
        }
        let _ = write!(o, "{x}");
    }
    o.push(']');
}

fn enum_text(o: &mut String, kind: EnumKind, v: u64) {
    let pick = |names: &[&'static str]| names.get(v as usize).copied().unwrap_or("?");
    let (group, name) = match kind {
        EnumKind::ComparisonDirection => (
            "comparison_direction",
            pick(&["EQ", "NE", "GE", "GT", "LE", "LT"]),
        ),
        EnumKind::ComparisonType => (
            "comparison_type",
            pick(&["NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"]),
        ),
        EnumKind::CustomCallApiVersion => {
            // An i32 attribute in StableHLO.
            let _ = write!(o, "{v} : i32");
            return;
        }
        EnumKind::FftType => ("fft_type", pick(&["FFT", "IFFT", "RFFT", "IRFFT"])),
        EnumKind::Precision => ("precision", pick(&["DEFAULT", "HIGH", "HIGHEST"])),
        EnumKind::RngAlgorithm => ("rng_algorithm", pick(&["DEFAULT", "THREE_FRY", "PHILOX"])),
        EnumKind::RngDistribution => ("rng_distribution", pick(&["?", "UNIFORM", "NORMAL"])),
        EnumKind::Transpose => (
            "transpose",
            pick(&["TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"]),
        ),
        EnumKind::ResultAccuracyMode => {
            let _ = write!(
                o,
                "#stablehlo.result_accuracy_mode<{}>",
                pick(&["DEFAULT", "HIGHEST", "TOLERANCE"])
            );
            return;
        }
    };
    let _ = write!(o, "#stablehlo<{group} {name}>");
}

/// A string literal: printable ASCII as is, `"` and `\` escaped, every
/// other byte as `\XX`.
pub fn quote(o: &mut String, s: &[u8]) {
    o.push('"');
    for &b in s {
        match b {
            b'"' => o.push_str("\\\""),
            b'\\' => o.push_str("\\\\"),
            0x20..=0x7e => o.push(char::from(b)),
            _ => {
                let _ = write!(o, "\\{b:02X}");
            }
        }
    }
    o.push('"');
}

/// True for names the text format writes bare (`[A-Za-z_][A-Za-z0-9_$.]*`).
pub fn is_bare_identifier(s: &[u8]) -> bool {
    match s.split_first() {
        Some((f, rest)) => {
            (f.is_ascii_alphabetic() || *f == b'_')
                && rest
                    .iter()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'))
        }
        None => false,
    }
}

/// A dictionary key: bare when possible, else quoted.
pub fn key(o: &mut String, s: &[u8]) {
    if is_bare_identifier(s) {
        o.push_str(&String::from_utf8_lossy(s));
    } else {
        quote(o, s);
    }
}

/// `@name`, quoted when not a bare identifier.
pub fn symbol(o: &mut String, s: &[u8]) {
    o.push('@');
    key(o, s);
}
