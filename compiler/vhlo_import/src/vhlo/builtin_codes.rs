//! The builtin dialect's bytecode encodings (MLIR's
//! `BuiltinDialectBytecode.td`): locations, dictionaries and strings appear
//! in every portable artifact; the other builtin attributes and types only
//! in modules that mix dialects.

use super::decode::{Tables, extend};
use super::model::*;
use crate::bytecode::cursor::Cursor;
use crate::error::Result;

impl Tables<'_, '_> {
    pub(super) fn builtin_attr(&mut self, r: &mut Cursor<'_>, d: usize) -> Result<Attr> {
        let at = *r;
        let code = r.varint()?;
        Ok(match code {
            0 => Attr::Array(self.read_attrs(r, d)?),
            1 => {
                let n = r.count(2)?;
                let mut entries = Vec::with_capacity(n);
                for _ in 0..n {
                    let k = self.read_attr(r, d)?;
                    let v = self.read_attr(r, d)?;
                    entries.push((k, v));
                }
                Attr::Dict(entries)
            }
            2 => Attr::Str(self.read_string(r)?),
            3 => {
                let s = self.read_string(r)?;
                self.read_type(r, d)?;
                Attr::Str(s)
            }
            4 => Attr::SymbolRef(self.string_attr(r, d)?, Vec::new()),
            5 => {
                let root = self.string_attr(r, d)?;
                let n = r.count(1)?;
                let mut nested = Vec::with_capacity(n);
                for _ in 0..n {
                    let at = *r;
                    let a = self.read_attr(r, d)?;
                    match self.attr(a) {
                        Attr::SymbolRef(s, _) => nested.push(s.clone()),
                        _ => return at.error("nested symbol reference is not a symbol"),
                    }
                }
                Attr::SymbolRef(root, nested)
            }
            6 => Attr::Type(self.read_type(r, d)?),
            7 => Attr::Unit,
            8 => self.builtin_int(r, d)?,
            9 => self.float_attr(r, d)?,
            10 => Attr::Loc(Loc::CallSite {
                callee: self.read_attr(r, d)?,
                caller: self.read_attr(r, d)?,
            }),
            11 => Attr::Loc(Loc::FileLineCol {
                file: self.string_attr(r, d)?,
                line: r.varint()?,
                col: r.varint()?,
            }),
            12 => Attr::Loc(Loc::Fused(self.read_attrs(r, d)?)),
            13 => {
                let locs = self.read_attrs(r, d)?;
                // The metadata carries no meaning for the program.
                self.read_attr(r, d)?;
                Attr::Loc(Loc::Fused(locs))
            }
            14 => Attr::Loc(Loc::Name {
                name: self.string_attr(r, d)?,
                child: self.read_attr(r, d)?,
            }),
            15 => Attr::Loc(Loc::Unknown),
            17 => {
                let elem = self.read_type(r, d)?;
                let count = r.varint()?;
                let len = r.varint()?;
                Attr::DenseArray {
                    elem,
                    count,
                    data: r.bytes(len)?.to_vec(),
                }
            }
            18 => self.tensor_attr(r, d)?,
            19 => self.dense_strings(r, d)?,
            21 => {
                // A distinct attribute prints as what it refers to.
                let inner = self.read_attr(r, d)?;
                self.attr(inner).clone()
            }
            22 => {
                let file = self.string_attr(r, d)?;
                let n = r.count(1)?;
                if n > 4 {
                    return at.error("file location range with more than 4 numbers");
                }
                let nums = (0..n).map(|_| r.varint()).collect::<Result<Vec<_>>>()?;
                Attr::Loc(Loc::Range { file, nums })
            }
            16 | 20 => {
                return at.error("dense_resource and sparse attributes are not supported");
            }
            _ => return at.error(format!("unknown builtin attribute code {code}")),
        })
    }

    /// A reference to a builtin string attribute, as its bytes.
    fn string_attr(&mut self, r: &mut Cursor<'_>, d: usize) -> Result<Vec<u8>> {
        let at = *r;
        let a = self.read_attr(r, d)?;
        match self.attr(a) {
            Attr::Str(s) => Ok(s.clone()),
            _ => at.error("expected a string attribute"),
        }
    }

    fn builtin_int(&mut self, r: &mut Cursor<'_>, d: usize) -> Result<Attr> {
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
            value: extend(raw, bits, signed && bits > 1),
        })
    }

    fn dense_strings(&mut self, r: &mut Cursor<'_>, d: usize) -> Result<Attr> {
        let ty = self.read_type(r, d)?;
        let splat = r.varint()? != 0;
        let n = match self.ty(ty) {
            _ if splat => 1,
            Type::Tensor { shape, .. } => shape
                .iter()
                .try_fold(1u64, |a, &x| {
                    u64::try_from(x).ok().and_then(|x| a.checked_mul(x))
                })
                .unwrap_or(u64::MAX),
            _ => 1,
        };
        if n > r.remaining() as u64 {
            return r.error("dense string attribute holds more strings than data");
        }
        let values = (0..n)
            .map(|_| self.read_string(r))
            .collect::<Result<Vec<_>>>()?;
        Ok(Attr::DenseStrings { ty, values })
    }

    pub(super) fn builtin_type(&mut self, r: &mut Cursor<'_>, d: usize) -> Result<Type> {
        use FloatKind::*;
        let at = *r;
        let code = r.varint()?;
        let float = |f| Type::Scalar(Scalar::Float(f));
        Ok(match code {
            0 => {
                let v = r.varint()?;
                let bits = u32::try_from(v >> 2).unwrap_or(u32::MAX);
                if bits == 0 || bits > 128 {
                    return at.error(format!("integer type of {bits} bits is not supported"));
                }
                let sign = match v & 3 {
                    0 => Signedness::Signless,
                    1 => Signedness::Signed,
                    _ => Signedness::Unsigned,
                };
                if bits == 1 && sign == Signedness::Signless {
                    Type::Scalar(Scalar::Bool)
                } else {
                    Type::Scalar(Scalar::Int { bits, sign })
                }
            }
            1 => Type::Scalar(Scalar::Index),
            2 => {
                let inputs = self.read_types(r, d)?;
                Type::Function(inputs, self.read_types(r, d)?)
            }
            3 => float(BF16),
            4 => float(F16),
            5 => float(F32),
            6 => float(F64),
            7 => float(F80),
            8 => float(F128),
            9 => Type::Complex(self.read_type(r, d)?),
            12 => Type::Scalar(Scalar::None),
            13 => self.ranked(r, d, false)?,
            14 => self.ranked(r, d, true)?,
            15 => Type::Tuple(self.read_types(r, d)?),
            18 => Type::Unranked(self.read_type(r, d)?),
            _ => return at.error(format!("builtin type code {code} is not supported")),
        })
    }
}
