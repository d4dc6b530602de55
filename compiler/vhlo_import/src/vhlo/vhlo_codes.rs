//! VHLO's custom bytecode encodings (StableHLO's `VhloBytecode.cpp`): each
//! entry starts with a varint code naming the attribute or type.

use super::decode::{Tables, extend};
use super::model::*;
use crate::bytecode::cursor::Cursor;
use crate::error::Result;

impl Tables<'_, '_> {
    pub(super) fn vhlo_attr(&mut self, r: &mut Cursor<'_>, d: usize) -> Result<Attr> {
        let at = *r;
        let code = r.varint()?;
        Ok(match code {
            1 => Attr::Array(self.read_attrs(r, d)?),
            2 => match r.varint()? {
                0 => Attr::Bool(false),
                1 => Attr::Bool(true),
                v => return at.error(format!("boolean attribute with value {v}")),
            },
            3 => self.enum_attr(r, EnumKind::ComparisonDirection, 5)?,
            4 => self.enum_attr(r, EnumKind::ComparisonType, 4)?,
            5 => self.enum_attr(r, EnumKind::CustomCallApiVersion, 4)?,
            6 => {
                let n = r.count(2)?;
                let mut entries = Vec::with_capacity(n);
                for _ in 0..n {
                    let k = self.read_attr(r, d)?;
                    let v = self.read_attr(r, d)?;
                    entries.push((k, v));
                }
                Attr::Dict(entries)
            }
            7 => self.enum_attr(r, EnumKind::FftType, 3)?,
            8 => self.float_attr(r, d)?,
            9 => self.int_attr(r, d)?,
            10 => Attr::OutputOperandAlias {
                output_tuple_indices: read_svarints(r)?,
                operand_index: r.svarint()?,
                operand_tuple_indices: read_svarints(r)?,
            },
            11 => self.enum_attr(r, EnumKind::Precision, 2)?,
            12 => self.enum_attr(r, EnumKind::RngAlgorithm, 2)?,
            13 => self.rng_distribution(r)?,
            14 => Attr::Str(self.read_string(r)?),
            15 => self.tensor_attr(r, d)?,
            16 => self.enum_attr(r, EnumKind::Transpose, 3)?,
            17 => Attr::Type(self.read_type(r, d)?),
            18 => Attr::TypeExtensions(read_svarints(r)?),
            19 => self.enum_attr(r, EnumKind::ResultAccuracyMode, 2)?,
            20 => Attr::ResultAccuracy {
                atol: self.read_apint(r, 64)? as u64,
                rtol: self.read_apint(r, 64)? as u64,
                ulps: r.svarint()?,
                mode: self.read_attr(r, d)?,
            },
            21 => Attr::SubAxisInfo {
                pre_size: r.svarint()?,
                size: r.svarint()?,
            },
            22 => {
                let name = self.read_attr(r, d)?;
                let sub = match r.varint()? {
                    0 => None,
                    _ => Some(self.read_attr(r, d)?),
                };
                Attr::AxisRef { name, sub }
            }
            23 => Attr::ReplicaGroupMeshAxes {
                mesh: self.read_attr(r, d)?,
                axes: self.read_attr(r, d)?,
            },
            24 => Attr::MeshAxis {
                name: self.read_attr(r, d)?,
                size: r.svarint()?,
            },
            25 => {
                let axes = self.read_attr(r, d)?;
                let at = *r;
                let (id, present) = r.varint_flag()?;
                let device_ids = if present {
                    Some(self.attr_at(&at, id, d)?)
                } else {
                    None
                };
                Attr::Mesh { axes, device_ids }
            }
            _ => {
                return at.error(format!(
                    "unknown VHLO attribute code {code} (newer than this reader supports, StableHLO {})",
                    super::ops::MAX_VERSION
                ));
            }
        })
    }

    fn enum_attr(&self, r: &mut Cursor<'_>, kind: EnumKind, max: u64) -> Result<Attr> {
        let at = *r;
        let v = r.varint()?;
        if v > max {
            return at.error(format!("{kind:?} enum value {v} out of range"));
        }
        Ok(Attr::Enum(kind, v))
    }

    fn rng_distribution(&self, r: &mut Cursor<'_>) -> Result<Attr> {
        let at = *r;
        match r.varint()? {
            v @ 1..=2 => Ok(Attr::Enum(EnumKind::RngDistribution, v)),
            v => at.error(format!("RngDistribution enum value {v} out of range")),
        }
    }

    pub(super) fn float_attr(&mut self, r: &mut Cursor<'_>, d: usize) -> Result<Attr> {
        let at = *r;
        let ty = self.read_type(r, d)?;
        let Some(Scalar::Float(f)) = self.scalar(ty) else {
            return at.error("float attribute of a non-float type");
        };
        let bits = self.read_apint(r, f.bits())?;
        Ok(Attr::Float { ty, bits })
    }

    pub(super) fn int_attr(&mut self, r: &mut Cursor<'_>, d: usize) -> Result<Attr> {
        let at = *r;
        let ty = self.read_type(r, d)?;
        let (bits, signed) = match self.scalar(ty) {
            Some(Scalar::Int { bits, sign }) => (bits, sign != Signedness::Unsigned),
            Some(Scalar::Index) => (64, true),
            Some(Scalar::Bool) => (1, false),
            _ => return at.error("integer attribute of a non-integer type"),
        };
        let raw = self.read_apint(r, bits)?;
        Ok(Attr::Int {
            ty,
            value: extend(raw, bits, signed),
        })
    }

    /// A tensor's raw data; i1 data may be bit-packed (or an all-ones splat
    /// byte) and is unpacked to one byte per element.
    pub(super) fn tensor_attr(&mut self, r: &mut Cursor<'_>, d: usize) -> Result<Attr> {
        let ty = self.read_type(r, d)?;
        let len = r.varint()?;
        let blob = r.bytes(len)?;
        let data = match self.bool_tensor_count(ty) {
            Some(n) => unpack_bools(blob, n),
            None => blob.to_vec(),
        };
        Ok(Attr::Tensor { ty, data })
    }

    /// The element count of a static tensor of i1.
    pub fn bool_tensor_count(&self, ty: TypeId) -> Option<usize> {
        let Type::Tensor { shape, elem, .. } = self.ty(ty) else {
            return None;
        };
        if !matches!(self.scalar(*elem), Some(Scalar::Bool)) {
            return None;
        }
        let n = shape.iter().try_fold(1u64, |a, &dim| {
            u64::try_from(dim).ok().and_then(|dim| a.checked_mul(dim))
        })?;
        usize::try_from(n).ok()
    }

    pub(super) fn vhlo_type(&mut self, r: &mut Cursor<'_>, d: usize) -> Result<Type> {
        use FloatKind::*;
        let at = *r;
        let code = r.varint()?;
        let int = |bits, sign| Type::Scalar(Scalar::Int { bits, sign });
        let float = |f| Type::Scalar(Scalar::Float(f));
        Ok(match code {
            0 => Type::Scalar(Scalar::Bool),
            1 => Type::Complex(self.read_type(r, d)?),
            2 => float(BF16),
            3 => float(F16),
            4 => float(F32),
            5 => float(F64),
            6 => float(F8E4M3FN),
            7 => float(F8E5M2),
            8 => {
                let inputs = self.read_types(r, d)?;
                Type::Function(inputs, self.read_types(r, d)?)
            }
            9 => Type::Scalar(Scalar::Index),
            10 => int(4, Signedness::Signless),
            11 => int(8, Signedness::Signless),
            12 => int(16, Signedness::Signless),
            13 => int(32, Signedness::Signless),
            14 => int(64, Signedness::Signless),
            15 => int(4, Signedness::Unsigned),
            16 => int(8, Signedness::Unsigned),
            17 => int(16, Signedness::Unsigned),
            18 => int(32, Signedness::Unsigned),
            19 => int(64, Signedness::Unsigned),
            20 => self.ranked(r, d, false)?,
            21 => self.ranked(r, d, true)?,
            22 => Type::Token,
            23 => Type::Tuple(self.read_types(r, d)?),
            24 => self.quant(r, d, false)?,
            25 => Type::Unranked(self.read_type(r, d)?),
            26 => Type::Witness,
            27 => float(F8E4M3FNUZ),
            28 => float(F8E5M2FNUZ),
            29 => float(F8E4M3B11FNUZ),
            30 => self.quant(r, d, true)?,
            31 => int(2, Signedness::Signless),
            32 => int(2, Signedness::Unsigned),
            33 => Type::Scalar(Scalar::None),
            34 => float(TF32),
            35 => float(F8E4M3),
            36 => float(F8E3M4),
            37 => float(F4E2M1FN),
            38 => float(F6E2M3FN),
            39 => float(F6E3M2FN),
            40 => float(F8E8M0FNU),
            41 => {
                let shape = read_svarints(r)?;
                Type::Buffer {
                    shape,
                    elem: self.read_type(r, d)?,
                }
            }
            42 => Type::Future(self.read_types(r, d)?),
            _ => {
                return at.error(format!(
                    "unknown VHLO type code {code} (newer than this reader supports, StableHLO {})",
                    super::ops::MAX_VERSION
                ));
            }
        })
    }

    pub(super) fn ranked(&mut self, r: &mut Cursor<'_>, d: usize, enc: bool) -> Result<Type> {
        let encoding = if enc {
            Some(self.read_attr(r, d)?)
        } else {
            None
        };
        let shape = read_svarints(r)?;
        let elem = self.read_type(r, d)?;
        Ok(Type::Tensor {
            shape,
            elem,
            encoding,
        })
    }

    fn quant(&mut self, r: &mut Cursor<'_>, d: usize, per_axis: bool) -> Result<Type> {
        let flags = r.varint()?;
        let storage = self.read_type(r, d)?;
        let expressed = self.read_type(r, d)?;
        let q = if per_axis {
            let axis = r.varint()?;
            let storage_min = r.svarint()?;
            let storage_max = r.svarint()?;
            let n = r.count(1)?;
            let scales = (0..n)
                .map(|_| Ok(self.read_apint(r, 64)? as u64))
                .collect::<Result<Vec<_>>>()?;
            let zero_points = read_svarints(r)?;
            Quant {
                flags,
                storage,
                expressed,
                axis: Some(axis),
                scales,
                zero_points,
                storage_min,
                storage_max,
            }
        } else {
            let scale = self.read_apint(r, 64)? as u64;
            let zero_point = r.svarint()?;
            Quant {
                flags,
                storage,
                expressed,
                axis: None,
                scales: vec![scale],
                zero_points: vec![zero_point],
                storage_min: r.svarint()?,
                storage_max: r.svarint()?,
            }
        };
        Ok(Type::Quant(Box::new(q)))
    }
}

/// A count then that many zigzag varints.
pub fn read_svarints(r: &mut Cursor<'_>) -> Result<Vec<i64>> {
    let n = r.count(1)?;
    (0..n).map(|_| r.svarint()).collect()
}

/// MLIR's i1 dense data: a 0xFF byte is an all-true splat; `ceil(n/8)`
/// bytes (when that differs from `n`) are bit-packed; else one byte each.
fn unpack_bools(blob: &[u8], n: usize) -> Vec<u8> {
    if blob == [0xFF] {
        return vec![1];
    }
    if blob.len() == n.div_ceil(8) && blob.len() != n {
        return (0..n)
            .map(|i| blob.get(i / 8).map_or(0, |b| (b >> (i % 8)) & 1))
            .collect();
    }
    blob.to_vec()
}
