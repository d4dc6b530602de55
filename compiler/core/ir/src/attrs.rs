//! Attributes: interned by content like types.

use crate::types::Type;

/// Handle to an interned attribute.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Attr(pub(crate) u32);

/// Dense element data for a tensor type. Each scalar is stored as its raw bit
/// pattern in the element's own width (integers two's complement, floats in
/// their own format); complex elements take two consecutive entries (re, im).
/// A splat stores one element.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DenseElements {
    pub ty: Type,
    pub splat: bool,
    pub bits: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttrKind {
    Unit,
    Bool(bool),
    /// Integer of the given type (`42 : i64`); the value is sign- or zero-
    /// extended from the type's width.
    Int {
        value: i128,
        ty: Type,
    },
    /// Float of the given type, held as the bits of an `f64`.
    Float {
        bits: u64,
        ty: Type,
    },
    String(String),
    Type(Type),
    Array(Vec<Attr>),
    /// `array<i64: 1, 2>` (also `array<i1: true, false>` with 0/1 values).
    DenseArray {
        elem: Type,
        values: Vec<i64>,
    },
    Dense(DenseElements),
    SymbolRef(String),
    Dict(Vec<(String, Attr)>),
    /// `#dialect<name VALUE>`, e.g. `#stablehlo<comparison_direction GT>`.
    Enum {
        dialect: String,
        name: String,
        value: String,
    },
    /// `#dialect.name<key = value, ...>`, e.g. `#stablehlo.dot<...>`.
    Struct {
        name: String,
        fields: Vec<(String, Attr)>,
    },
}

impl AttrKind {
    pub fn float(v: f64, ty: Type) -> AttrKind {
        AttrKind::Float {
            bits: v.to_bits(),
            ty,
        }
    }
}

/// A literal as written inside `dense<...>` (or a scalar attribute).
#[derive(Clone, Debug)]
pub enum Literal {
    Int(i128),
    Float(f64),
    /// `0x...` bare hex: the raw bits of one element.
    Hex(u64),
    Bool(bool),
    Complex(Box<Literal>, Box<Literal>),
    List(Vec<Literal>),
    /// `"0x..."`: raw little-endian bytes of all elements (or one splat).
    Bytes(Vec<u8>),
}
