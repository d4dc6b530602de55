//! Strata's IR core: an MLIR-shaped IR with ops, regions, blocks and values
//! in arenas owned by one [`Context`], interned types and attributes, the op
//! registry, the text parser and printer, and the structural verifier.

pub mod attrs;
pub mod builtin;
pub mod call_graph;
mod clone;
pub mod context;
pub mod dense;
mod intern;
pub mod minifloat;
pub mod text;
pub mod types;
pub mod verify;

pub use attrs::{Attr, AttrKind, DenseElements};
pub use context::{
    AttrParseFn, Block, BlockId, Context, FixupFn, FunctionSignature, OpDef, OpId, OpParser,
    OpState, Operation, ParseFn, Region, RegionId, Registry, Traits, Value, ValueDef, VerifyFn,
};
pub use types::{FloatKind, Signedness, Type, TypeKind, Types, UniformQuant, row_major_strides};

/// Attribute accessors shared by every dialect.
impl Context {
    pub fn i64_array(&self, op: OpId, name: &str) -> Option<Vec<i64>> {
        match self.attr_kind(self.attr_of(op, name)?) {
            AttrKind::DenseArray { values, .. } => Some(values.clone()),
            AttrKind::Array(items) => items
                .iter()
                .map(|a| match self.attr_kind(*a) {
                    AttrKind::Int { value, .. } => i64::try_from(*value).ok(),
                    _ => None,
                })
                .collect(),
            AttrKind::Dense(d) if self.types.shape(d.ty).is_some_and(|s| s.len() == 1) => {
                let n = self.types.num_elements(d.ty) as usize;
                let elem = self.types.elem(d.ty);
                Some(
                    (0..n)
                        .map(|i| {
                            dense::int_value(self, dense::element_bits(self, d, i)[0], elem) as i64
                        })
                        .collect(),
                )
            }
            _ => None,
        }
    }
    pub fn int_attr(&self, op: OpId, name: &str) -> Option<i128> {
        match self.attr_kind(self.attr_of(op, name)?) {
            AttrKind::Int { value, .. } => Some(*value),
            _ => None,
        }
    }
    pub fn float_attr(&self, op: OpId, name: &str) -> Option<f64> {
        match self.attr_kind(self.attr_of(op, name)?) {
            AttrKind::Float { bits, .. } => Some(f64::from_bits(*bits)),
            AttrKind::Int { value, .. } => Some(*value as f64),
            _ => None,
        }
    }
    pub fn str_attr(&self, op: OpId, name: &str) -> Option<&str> {
        match self.attr_kind(self.attr_of(op, name)?) {
            AttrKind::String(s) => Some(s),
            AttrKind::Enum { value, .. } => Some(value),
            _ => None,
        }
    }
    pub fn dense_attr(&self, op: OpId, name: &str) -> Option<&DenseElements> {
        match self.attr_kind(self.attr_of(op, name)?) {
            AttrKind::Dense(d) => Some(d),
            _ => None,
        }
    }
}
