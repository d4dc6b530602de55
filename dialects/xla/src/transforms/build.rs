//! Building xla ops in front of an existing op, for the expansion passes
//! (`xla-expand-batch-norm`, `xla-expand-ragged-dot`).

use strata_diag::{Diagnostic, Location, Result};
use strata_ir::{Attr, AttrKind, BlockId, Context, DenseElements, OpId, Type, Value};

use crate::names::*;

/// Inserts new ops, in order, before `before` in `block` (at its end when
/// `before` is None).
pub struct OpBuilder<'c> {
    pub ctx: &'c mut Context,
    pub block: BlockId,
    pub before: Option<OpId>,
    pub loc: Location,
}

/// The ops nested in `module` named one of `names`, in walk order.
pub fn ops_named(ctx: &Context, module: OpId, names: &[&str]) -> Vec<OpId> {
    let mut found = Vec::new();
    ctx.walk_nested(module, &mut |op| {
        if names.contains(&ctx.op(op).name) {
            found.push(op);
        }
    });
    found
}

impl<'c> OpBuilder<'c> {
    /// A builder inserting before `op`, at its location.
    pub fn before_op(ctx: &'c mut Context, op: OpId) -> Result<OpBuilder<'c>> {
        let loc = ctx.op(op).loc;
        let block = ctx.op(op).parent.ok_or_else(|| {
            Diagnostic::internal(loc, format!("'{}' outside a block", ctx.op(op).name))
        })?;
        Ok(OpBuilder {
            ctx,
            block,
            before: Some(op),
            loc,
        })
    }
}

impl OpBuilder<'_> {
    /// One op with one result of type `ty`.
    pub fn op(
        &mut self,
        name: &'static str,
        operands: Vec<Value>,
        ty: Type,
        attrs: Vec<(String, Attr)>,
    ) -> Value {
        let op = self.ctx.create_op(name, operands, &[ty], attrs, self.loc);
        self.insert(op);
        self.ctx.op(op).results[0]
    }

    /// Puts a created op where this builder inserts.
    pub fn insert(&mut self, op: OpId) {
        let ops = &self.ctx.blocks[self.block].ops;
        let at = match self.before {
            Some(before) => ops.iter().position(|&o| o == before).unwrap_or(0),
            None => ops.len(),
        };
        self.ctx.insert_op_at(self.block, at, op);
    }

    pub fn tensor(&mut self, shape: &[i64], elem: Type) -> Type {
        self.ctx.types.tensor_ty(shape, elem)
    }

    pub fn shape_of(&self, v: Value) -> Vec<i64> {
        self.ctx
            .types
            .shape(self.ctx.value_ty(v))
            .unwrap_or(&[])
            .to_vec()
    }

    pub fn elem_of(&self, v: Value) -> Type {
        self.ctx.types.elem(self.ctx.value_ty(v))
    }

    /// An element-wise op whose result has its first operand's type.
    pub fn same_type(&mut self, name: &'static str, operands: Vec<Value>) -> Value {
        let ty = self.ctx.value_ty(operands[0]);
        self.op(name, operands, ty, vec![])
    }

    /// `select(pred, on_true, on_false)`, typed like `on_true`.
    pub fn select(&mut self, pred: Value, on_true: Value, on_false: Value) -> Value {
        let ty = self.ctx.value_ty(on_true);
        self.op(SELECT, vec![pred, on_true, on_false], ty, vec![])
    }

    /// A constant of `shape` with every element's bits `bits`; for a
    /// complex element, its real part's bits, the imaginary part 0 (dense
    /// elements store both parts: a single word made an element that the
    /// lowering read past, FUZZING.md B27).
    pub fn splat_bits(&mut self, bits: u64, shape: &[i64], elem: Type) -> Value {
        let ty = self.tensor(shape, elem);
        let mut words = vec![bits];
        words.resize(strata_ir::dense::parts(self.ctx, elem), 0);
        let value = self.ctx.attr(AttrKind::Dense(DenseElements {
            ty,
            splat: true,
            bits: words,
        }));
        self.op(CONSTANT, vec![], ty, vec![("value".into(), value)])
    }

    pub fn i64_array(&mut self, values: Vec<i64>) -> Attr {
        let elem = self.ctx.types.int_ty(64);
        self.ctx.attr(AttrKind::DenseArray { elem, values })
    }

    /// `v` broadcast to `shape`, its dimensions becoming `dims`.
    pub fn broadcast(&mut self, v: Value, dims: Vec<i64>, shape: &[i64]) -> Value {
        let elem = self.elem_of(v);
        let ty = self.tensor(shape, elem);
        let dims = self.i64_array(dims);
        self.op(
            BROADCAST_IN_DIM,
            vec![v],
            ty,
            vec![("broadcast_dimensions".into(), dims)],
        )
    }

    pub fn iota(&mut self, shape: &[i64], dim: i64, elem: Type) -> Value {
        let ty = self.tensor(shape, elem);
        let i64t = self.ctx.types.int_ty(64);
        let d = self.ctx.attr(AttrKind::Int {
            value: dim as i128,
            ty: i64t,
        });
        self.op(IOTA, vec![], ty, vec![("iota_dimension".into(), d)])
    }

    /// `compare` with direction `LT`, `GE`, ... (the operands' natural order).
    pub fn compare(&mut self, direction: &str, a: Value, b: Value) -> Value {
        let shape = self.shape_of(a);
        let i1 = self.ctx.types.int_ty(1);
        let ty = self.tensor(&shape, i1);
        let dir = self.ctx.attr(AttrKind::Enum {
            dialect: "stablehlo".into(),
            name: "comparison_direction".into(),
            value: direction.into(),
        });
        self.op(
            COMPARE,
            vec![a, b],
            ty,
            vec![("comparison_direction".into(), dir)],
        )
    }

    /// Σ of `v` over `dims` (init `zero`, a scalar tensor of v's element type).
    pub fn reduce_sum(&mut self, v: Value, zero: Value, dims: Vec<i64>) -> Value {
        let shape: Vec<i64> = self
            .shape_of(v)
            .into_iter()
            .enumerate()
            .filter(|(d, _)| !dims.contains(&(*d as i64)))
            .map(|(_, s)| s)
            .collect();
        let elem = self.elem_of(v);
        let ty = self.tensor(&shape, elem);
        let dims = self.i64_array(dims);
        let out = self.op(REDUCE, vec![v, zero], ty, vec![("dimensions".into(), dims)]);
        let Some(reduce) = self.ctx.defining_op(out) else {
            return out;
        };
        let scalar = self.tensor(&[], elem);
        let region = self.ctx.add_region(reduce);
        let body = self.ctx.add_block(region, &[scalar, scalar]);
        let (a, b) = (self.ctx.blocks[body].args[0], self.ctx.blocks[body].args[1]);
        let add = self
            .ctx
            .create_op(ADD, vec![a, b], &[scalar], vec![], self.loc);
        self.ctx.append_op(body, add);
        let s = self.ctx.op(add).results[0];
        let ret = self.ctx.create_op(RETURN, vec![s], &[], vec![], self.loc);
        self.ctx.append_op(body, ret);
        out
    }

    /// Replaces every use of `op`'s results (within its function) by `with`,
    /// and removes `op`.
    pub fn replace(&mut self, op: OpId, with: &[Value]) {
        let old = self.ctx.op(op).results.clone();
        let block = self.ctx.op(op).parent.unwrap_or(self.block);
        let scope = self.ctx.block_parent_op(block).unwrap_or(op);
        for (from, &to) in old.into_iter().zip(with) {
            self.ctx.replace_uses_in(scope, from, to);
        }
        self.ctx.detach_op(op);
    }
}
