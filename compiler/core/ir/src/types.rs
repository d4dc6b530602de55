//! Types: interned by content in [`Types`] (which the context owns), so
//! equality of two [`Type`] handles is equality of the types.

use crate::intern::Interner;

/// Handle to an interned type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Type(pub(crate) u32);

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Signedness {
    /// `iN`: StableHLO treats it as signed two's complement.
    Signless,
    /// `siN`
    Signed,
    /// `uiN`
    Unsigned,
}

/// Floating-point formats. Only the IEEE-like ones with hardware or LLVM support
/// are lowered today; the small formats parse and verify but are reported as
/// unsupported by the lowering.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    F16,
    BF16,
    F32,
    F64,
    F8E3M4,
    F8E4M3,
    F8E4M3FN,
    F8E4M3FNUZ,
    F8E4M3B11FNUZ,
    F8E5M2,
    F8E5M2FNUZ,
    F8E8M0FNU,
    F6E2M3FN,
    F6E3M2FN,
    F4E2M1FN,
    /// 19-bit float (f32 range, 10-bit mantissa): only a precision hint.
    TF32,
}

impl FloatKind {
    pub const ALL: [FloatKind; 16] = [
        FloatKind::F16,
        FloatKind::BF16,
        FloatKind::F32,
        FloatKind::F64,
        FloatKind::F8E3M4,
        FloatKind::F8E4M3,
        FloatKind::F8E4M3FN,
        FloatKind::F8E4M3FNUZ,
        FloatKind::F8E4M3B11FNUZ,
        FloatKind::F8E5M2,
        FloatKind::F8E5M2FNUZ,
        FloatKind::F8E8M0FNU,
        FloatKind::F6E2M3FN,
        FloatKind::F6E3M2FN,
        FloatKind::F4E2M1FN,
        FloatKind::TF32,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FloatKind::F16 => "f16",
            FloatKind::BF16 => "bf16",
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
            FloatKind::F8E3M4 => "f8E3M4",
            FloatKind::F8E4M3 => "f8E4M3",
            FloatKind::F8E4M3FN => "f8E4M3FN",
            FloatKind::F8E4M3FNUZ => "f8E4M3FNUZ",
            FloatKind::F8E4M3B11FNUZ => "f8E4M3B11FNUZ",
            FloatKind::F8E5M2 => "f8E5M2",
            FloatKind::F8E5M2FNUZ => "f8E5M2FNUZ",
            FloatKind::F8E8M0FNU => "f8E8M0FNU",
            FloatKind::F6E2M3FN => "f6E2M3FN",
            FloatKind::F6E3M2FN => "f6E3M2FN",
            FloatKind::F4E2M1FN => "f4E2M1FN",
            FloatKind::TF32 => "tf32",
        }
    }

    pub fn from_name(s: &str) -> Option<FloatKind> {
        FloatKind::ALL.into_iter().find(|k| k.name() == s)
    }

    /// Storage width in bits.
    pub fn width(self) -> u32 {
        match self {
            FloatKind::F16 | FloatKind::BF16 => 16,
            FloatKind::F32 | FloatKind::TF32 => 32,
            FloatKind::F64 => 64,
            FloatKind::F6E2M3FN | FloatKind::F6E3M2FN => 6,
            FloatKind::F4E2M1FN => 4,
            _ => 8,
        }
    }

    /// Whether the lowering can compute with this format.
    pub fn is_lowered(self) -> bool {
        matches!(
            self,
            FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64
        )
    }
}

/// A uniformly quantized element type, `!quant.uniform<i8:f32, 0.5:-20>`
/// or per axis `!quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20}>`: a storage
/// integer `q` stands for `(q - zero_point) * scale` of the expressed
/// float type. `xla-lower-quantized` writes the ops on them with integer
/// and float ops, as StableHLO's spec defines them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UniformQuant {
    /// The integer type held in memory.
    pub storage: Type,
    /// The range stored values are clamped to (the storage type's, unless
    /// `i8<-127:127>` narrows it).
    pub storage_min: i64,
    pub storage_max: i64,
    /// The float type the values stand for.
    pub expressed: Type,
    /// Per-axis quantization's dimension; `None`: one scale for the tensor.
    pub axis: Option<i64>,
    /// The scales, as `f64` bits, and zero points: one pair per slice
    /// along `axis`, or one pair.
    pub scales: Vec<u64>,
    pub zero_points: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    Int {
        width: u32,
        sign: Signedness,
    },
    Float(FloatKind),
    Index,
    Complex(Type),
    /// Ranked tensor with static dimensions.
    Tensor {
        shape: Vec<i64>,
        elem: Type,
    },
    /// Dense row-major buffer with static dimensions.
    MemRef {
        shape: Vec<i64>,
        elem: Type,
    },
    Tuple(Vec<Type>),
    Token,
    /// `!quant.uniform<...>`: integers standing for real numbers.
    Quant(UniformQuant),
    Function {
        inputs: Vec<Type>,
        results: Vec<Type>,
    },
}

/// The values an integer storage type holds: `[-2^(w-1), 2^(w-1))` signed,
/// `[0, 2^w)` unsigned (capped to i64).
pub fn storage_range(types: &Types, t: Type) -> (i64, i64) {
    match types.kind(t) {
        TypeKind::Int { width, sign } => {
            let w = (*width).min(63);
            if *sign == Signedness::Unsigned {
                (0, (1i64 << w) - 1)
            } else {
                (-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1)
            }
        }
        _ => (0, 0),
    }
}

/// Row-major strides (in elements) of a dense buffer of `shape`.
pub fn row_major_strides(shape: &[i64]) -> Vec<i64> {
    let mut s = vec![1i64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// Every type of a compilation, interned (equal types are one [`Type`]),
/// and the queries on them. A field of the [`Context`] of its own, so that
/// reading types never borrows the ops.
#[derive(Default)]
pub struct Types {
    interner: Interner<TypeKind>,
}

impl Types {
    pub fn ty(&mut self, kind: TypeKind) -> Type {
        Type(self.interner.intern(kind))
    }
    pub fn kind(&self, t: Type) -> &TypeKind {
        &self.interner.items[t.0 as usize]
    }
    pub fn int_ty(&mut self, width: u32) -> Type {
        self.ty(TypeKind::Int {
            width,
            sign: Signedness::Signless,
        })
    }
    pub fn uint_ty(&mut self, width: u32) -> Type {
        self.ty(TypeKind::Int {
            width,
            sign: Signedness::Unsigned,
        })
    }
    pub fn float_ty(&mut self, k: FloatKind) -> Type {
        self.ty(TypeKind::Float(k))
    }
    pub fn index_ty(&mut self) -> Type {
        self.ty(TypeKind::Index)
    }
    pub fn tensor_ty(&mut self, shape: &[i64], elem: Type) -> Type {
        self.ty(TypeKind::Tensor {
            shape: shape.to_vec(),
            elem,
        })
    }
    pub fn memref_ty(&mut self, shape: &[i64], elem: Type) -> Type {
        self.ty(TypeKind::MemRef {
            shape: shape.to_vec(),
            elem,
        })
    }
    pub fn function_ty(&mut self, inputs: Vec<Type>, results: Vec<Type>) -> Type {
        self.ty(TypeKind::Function { inputs, results })
    }

    /// Shape of a tensor or memref type; `None` for anything else.
    pub fn shape(&self, t: Type) -> Option<&[i64]> {
        match self.kind(t) {
            TypeKind::Tensor { shape, .. } | TypeKind::MemRef { shape, .. } => Some(shape),
            _ => None,
        }
    }
    /// Element type of a tensor or memref; the type itself for scalars.
    pub fn elem(&self, t: Type) -> Type {
        match self.kind(t) {
            TypeKind::Tensor { elem, .. } | TypeKind::MemRef { elem, .. } => *elem,
            _ => t,
        }
    }
    pub fn is_tensor(&self, t: Type) -> bool {
        matches!(self.kind(t), TypeKind::Tensor { .. })
    }
    pub fn num_elements(&self, t: Type) -> i64 {
        self.shape(t).map(|s| s.iter().product()).unwrap_or(1)
    }
    /// The float kind of the scalar type `t`, if it is a float.
    pub fn float_kind(&self, t: Type) -> Option<FloatKind> {
        match self.kind(t) {
            TypeKind::Float(k) => Some(*k),
            _ => None,
        }
    }
    pub fn is_float(&self, t: Type) -> bool {
        matches!(self.kind(t), TypeKind::Float(_))
    }
    pub fn is_complex(&self, t: Type) -> bool {
        matches!(self.kind(t), TypeKind::Complex(_))
    }
    pub fn is_int(&self, t: Type) -> bool {
        matches!(self.kind(t), TypeKind::Int { .. })
    }
    pub fn is_bool(&self, t: Type) -> bool {
        matches!(self.kind(t), TypeKind::Int { width: 1, .. })
    }
    pub fn is_unsigned(&self, t: Type) -> bool {
        matches!(
            self.kind(t),
            TypeKind::Int {
                sign: Signedness::Unsigned,
                ..
            }
        )
    }
    /// Bit width of a scalar type (complex: the width of one part).
    pub fn bit_width(&self, t: Type) -> u32 {
        match self.kind(t) {
            TypeKind::Int { width, .. } => *width,
            TypeKind::Float(k) => k.width(),
            TypeKind::Index => 64,
            TypeKind::Complex(e) => self.bit_width(*e),
            TypeKind::Quant(q) => self.bit_width(q.storage),
            _ => 0,
        }
    }
    /// Bytes of one scalar part of an element of type `elem` in a buffer: the
    /// element itself, or one of a complex number's two parts. The rule is
    /// `strata_abi::scalar_storage_bytes`, shared with the runtime.
    pub fn part_storage_bytes(&self, elem: Type) -> u64 {
        strata_abi::scalar_storage_bytes(self.bit_width(elem)) as u64
    }
    /// Bytes of one element of type `elem` in a buffer (complex: both parts).
    pub fn storage_bytes(&self, elem: Type) -> u64 {
        let parts = if self.is_complex(elem) { 2 } else { 1 };
        parts * self.part_storage_bytes(elem)
    }
    /// Tensor of the same shape with another element type.
    pub fn with_elem(&mut self, t: Type, elem: Type) -> Type {
        let shape = self.shape(t).map(|s| s.to_vec()).unwrap_or_default();
        self.tensor_ty(&shape, elem)
    }
}
