//! Decoded attributes and types. Children are indices into the decoded
//! tables (`AttrId`, `TypeId`), so shared sub-attributes stay shared.

pub type AttrId = usize;
pub type TypeId = usize;

/// Element types, spelled as StableHLO text spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    /// `i1` (VHLO's boolean)
    Bool,
    /// Integers: bit width and signedness (`i8` is signless, `si8` signed,
    /// `ui8` unsigned).
    Int {
        bits: u32,
        sign: Signedness,
    },
    Float(FloatKind),
    Index,
    None,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signedness {
    Signless,
    Signed,
    Unsigned,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatKind {
    BF16,
    F16,
    F32,
    F64,
    F80,
    F128,
    TF32,
    F8E4M3FN,
    F8E5M2,
    F8E4M3FNUZ,
    F8E5M2FNUZ,
    F8E4M3B11FNUZ,
    F8E4M3,
    F8E3M4,
    F8E8M0FNU,
    F4E2M1FN,
    F6E2M3FN,
    F6E3M2FN,
}

impl FloatKind {
    pub fn bits(self) -> u32 {
        use FloatKind::*;
        match self {
            BF16 | F16 => 16,
            F32 => 32,
            F64 => 64,
            F80 => 80,
            F128 => 128,
            TF32 => 19,
            F4E2M1FN => 4,
            F6E2M3FN | F6E3M2FN => 6,
            _ => 8,
        }
    }

    pub fn name(self) -> &'static str {
        use FloatKind::*;
        match self {
            BF16 => "bf16",
            F16 => "f16",
            F32 => "f32",
            F64 => "f64",
            F80 => "f80",
            F128 => "f128",
            TF32 => "tf32",
            F8E4M3FN => "f8E4M3FN",
            F8E5M2 => "f8E5M2",
            F8E4M3FNUZ => "f8E4M3FNUZ",
            F8E5M2FNUZ => "f8E5M2FNUZ",
            F8E4M3B11FNUZ => "f8E4M3B11FNUZ",
            F8E4M3 => "f8E4M3",
            F8E3M4 => "f8E3M4",
            F8E8M0FNU => "f8E8M0FNU",
            F4E2M1FN => "f4E2M1FN",
            F6E2M3FN => "f6E2M3FN",
            F6E3M2FN => "f6E3M2FN",
        }
    }
}

impl Scalar {
    /// Bit width of one value (index is 64 as MLIR stores it).
    pub fn bits(self) -> u32 {
        match self {
            Scalar::Bool => 1,
            Scalar::Int { bits, .. } => bits,
            Scalar::Float(f) => f.bits(),
            Scalar::Index => 64,
            Scalar::None => 0,
        }
    }
}

/// Per-tensor or per-axis uniform quantization (`!quant.uniform<...>`).
#[derive(Debug, Clone)]
pub struct Quant {
    pub flags: u64,
    pub storage: TypeId,
    pub expressed: TypeId,
    pub axis: Option<u64>,
    /// Scales as f64 bits.
    pub scales: Vec<u64>,
    pub zero_points: Vec<i64>,
    pub storage_min: i64,
    pub storage_max: i64,
}

#[derive(Debug, Clone)]
pub enum Type {
    Scalar(Scalar),
    Tensor {
        shape: Vec<i64>,
        elem: TypeId,
        encoding: Option<AttrId>,
    },
    Unranked(TypeId),
    Complex(TypeId),
    Tuple(Vec<TypeId>),
    Function(Vec<TypeId>, Vec<TypeId>),
    Token,
    Future(Vec<TypeId>),
    Buffer {
        shape: Vec<i64>,
        elem: TypeId,
    },
    Quant(Box<Quant>),
    Witness,
    /// A type kept as (validated) assembly text.
    Opaque(String),
}

/// StableHLO enums that VHLO encodes as their numeric value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnumKind {
    ComparisonDirection,
    ComparisonType,
    CustomCallApiVersion,
    FftType,
    Precision,
    RngAlgorithm,
    RngDistribution,
    Transpose,
    ResultAccuracyMode,
}

#[derive(Debug, Clone)]
pub enum Loc {
    Unknown,
    FileLineCol {
        file: Vec<u8>,
        line: u64,
        col: u64,
    },
    /// `file:line:col to ...`; 0 to 4 numbers as written.
    Range {
        file: Vec<u8>,
        nums: Vec<u64>,
    },
    Name {
        name: Vec<u8>,
        child: AttrId,
    },
    CallSite {
        callee: AttrId,
        caller: AttrId,
    },
    Fused(Vec<AttrId>),
}

#[derive(Debug, Clone)]
pub enum Attr {
    Array(Vec<AttrId>),
    Bool(bool),
    Enum(EnumKind, u64),
    /// Keys are string attributes.
    Dict(Vec<(AttrId, AttrId)>),
    /// Raw bits of the value in the type's format.
    Float {
        ty: TypeId,
        bits: u128,
    },
    /// Value sign- or zero-extended from the type's width.
    Int {
        ty: TypeId,
        value: i128,
    },
    OutputOperandAlias {
        output_tuple_indices: Vec<i64>,
        operand_index: i64,
        operand_tuple_indices: Vec<i64>,
    },
    Str(Vec<u8>),
    /// MLIR's dense storage: one element (a splat) or all of them,
    /// booleans one byte each.
    Tensor {
        ty: TypeId,
        data: Vec<u8>,
    },
    Type(TypeId),
    TypeExtensions(Vec<i64>),
    ResultAccuracy {
        atol: u64,
        rtol: u64,
        ulps: i64,
        mode: AttrId,
    },
    SubAxisInfo {
        pre_size: i64,
        size: i64,
    },
    AxisRef {
        name: AttrId,
        sub: Option<AttrId>,
    },
    ReplicaGroupMeshAxes {
        mesh: AttrId,
        axes: AttrId,
    },
    MeshAxis {
        name: AttrId,
        size: i64,
    },
    Mesh {
        axes: AttrId,
        device_ids: Option<AttrId>,
    },
    SymbolRef(Vec<u8>, Vec<Vec<u8>>),
    Unit,
    DenseArray {
        elem: TypeId,
        count: u64,
        data: Vec<u8>,
    },
    DenseStrings {
        ty: TypeId,
        values: Vec<Vec<u8>>,
    },
    Loc(Loc),
    /// An attribute kept as (validated) assembly text.
    Opaque(String),
}
