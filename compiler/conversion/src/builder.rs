//! A small op builder with an insertion point, used by the conversions to
//! emit `arith`, `mem` and `loop` ops.

use strata_diag::{Location, Result};
use strata_ir::{AttrKind, BlockId, Context, FloatKind, OpId, Type, TypeKind, Value};

pub struct Builder<'c> {
    pub ctx: &'c mut Context,
    block: BlockId,
    pos: usize,
    /// Location given to every op built (the op being lowered).
    pub loc: Location,
    /// Mark float add/mul/max/min built now as reassociable (`reassoc`):
    /// set while emitting a reduction's body, whose order StableHLO leaves
    /// to the implementation.
    pub reassoc: bool,
    /// Mark float add/sub/mul built now as contractible (`contract`): a
    /// multiply feeding an add may become one FMA, as in the LLVM IR XLA:CPU
    /// emits itself (it compiles with `FPOpFusion::Fast`). Off while
    /// lowering what XLA:CPU runs as precompiled library code (dots,
    /// convolutions, LAPACK-style solvers), which it builds without FMA.
    pub contract: bool,
}

impl<'c> Builder<'c> {
    /// Inserts at the end of `block`.
    pub fn at_end(ctx: &'c mut Context, block: BlockId) -> Builder<'c> {
        let pos = ctx.blocks[block].ops.len();
        Builder {
            ctx,
            block,
            pos,
            loc: Location::unknown(),
            reassoc: false,
            contract: true,
        }
    }

    /// The block ops are inserted into.
    pub fn block(&self) -> BlockId {
        self.block
    }

    pub fn insert(
        &mut self,
        name: &'static str,
        operands: Vec<Value>,
        results: &[Type],
        attrs: Vec<(String, strata_ir::Attr)>,
    ) -> OpId {
        let op = self.ctx.create_op(name, operands, results, attrs, self.loc);
        self.ctx.insert_op_at(self.block, self.pos, op);
        self.pos += 1;
        op
    }

    /// Builds a one-result op and returns the result.
    pub fn op1(
        &mut self,
        name: &'static str,
        operands: Vec<Value>,
        result: Type,
        attrs: Vec<(String, strata_ir::Attr)>,
    ) -> Value {
        let op = self.insert(name, operands, &[result], attrs);
        self.ctx.op(op).results[0]
    }

    pub fn ty(&self, v: Value) -> Type {
        self.ctx.value_ty(v)
    }

    pub fn index_ty(&mut self) -> Type {
        self.ctx.types.index_ty()
    }

    pub fn const_index(&mut self, v: i64) -> Value {
        let t = self.ctx.types.index_ty();
        self.const_int(v as i128, t)
    }

    /// An integer constant; `v` is wrapped to the type's width (so -1 is
    /// all ones for unsigned types too).
    pub fn const_int(&mut self, v: i128, ty: Type) -> Value {
        let v = match self.ctx.types.kind(ty) {
            TypeKind::Int { width, .. } => {
                let bits = (v as u64)
                    & if *width >= 64 {
                        u64::MAX
                    } else {
                        (1u64 << width) - 1
                    };
                strata_ir::dense::int_value(self.ctx, bits, ty)
            }
            _ => v,
        };
        let a = self.ctx.attr(AttrKind::Int { value: v, ty });
        self.op1("arith.constant", vec![], ty, vec![("value".into(), a)])
    }

    pub fn const_float(&mut self, v: f64, ty: Type) -> Value {
        let a = self.ctx.attr(AttrKind::float(v, ty));
        self.op1("arith.constant", vec![], ty, vec![("value".into(), a)])
    }

    /// A constant of scalar type `ty` from raw element bits.
    pub fn const_bits(&mut self, bits: u64, ty: Type) -> Value {
        match self.ctx.types.kind(ty).clone() {
            TypeKind::Float(k) => {
                let v = strata_ir::dense::bits_to_float(bits, k);
                if v.is_nan() && k != FloatKind::F64 {
                    // Keep the exact NaN payload: build it as an integer and bitcast.
                    let it = self.ctx.types.int_ty(k.width());
                    let i = self.const_int(bits as i128, it);
                    return self.cast("arith.bitcast", i, ty);
                }
                if k == FloatKind::F64 && v.is_nan() {
                    let it = self.ctx.types.int_ty(64);
                    let i = self.const_int(bits as i64 as i128, it);
                    return self.cast("arith.bitcast", i, ty);
                }
                self.const_float(v, ty)
            }
            _ => {
                let v = strata_ir::dense::int_value(self.ctx, bits, ty);
                self.const_int(v, ty)
            }
        }
    }

    /// All-zero constant of a scalar type.
    pub fn zero(&mut self, ty: Type) -> Value {
        self.const_bits(0, ty)
    }

    pub fn binary(&mut self, name: &'static str, a: Value, b: Value) -> Value {
        let t = self.ty(a);
        let mut attrs = vec![];
        if self.reassoc
            && matches!(
                name,
                "arith.addf" | "arith.mulf" | "arith.maximumf" | "arith.minimumf"
            )
        {
            attrs.push(("reassoc".to_string(), self.ctx.attr(AttrKind::Unit)));
        }
        if self.contract && matches!(name, "arith.addf" | "arith.subf" | "arith.mulf") {
            attrs.push(("contract".to_string(), self.ctx.attr(AttrKind::Unit)));
        }
        self.op1(name, vec![a, b], t, attrs)
    }

    pub fn unary(&mut self, name: &'static str, a: Value) -> Value {
        let t = self.ty(a);
        self.op1(name, vec![a], t, vec![])
    }

    pub fn cast(&mut self, name: &'static str, a: Value, to: Type) -> Value {
        self.op1(name, vec![a], to, vec![])
    }

    pub fn cmpi(&mut self, pred: &str, a: Value, b: Value) -> Value {
        compare(self, "arith.cmpi", pred, a, b)
    }
    pub fn cmpf(&mut self, pred: &str, a: Value, b: Value) -> Value {
        compare(self, "arith.cmpf", pred, a, b)
    }

    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let t = self.ty(a);
        self.op1("arith.select", vec![c, a, b], t, vec![])
    }

    pub fn load(&mut self, mem: Value, idx: &[Value]) -> Value {
        let elem = self.ctx.types.elem(self.ty(mem));
        let mut ops = vec![mem];
        ops.extend_from_slice(idx);
        self.op1("mem.load", ops, elem, vec![])
    }

    pub fn store(&mut self, v: Value, mem: Value, idx: &[Value]) {
        let mut ops = vec![v, mem];
        ops.extend_from_slice(idx);
        self.insert("mem.store", ops, &[], vec![]);
    }

    pub fn load_part(&mut self, mem: Value, idx: &[Value], part: i64) -> Value {
        let TypeKind::Complex(p) = self
            .ctx
            .types
            .kind(self.ctx.types.elem(self.ty(mem)))
            .clone()
        else {
            return self.load(mem, idx);
        };
        let mut ops = vec![mem];
        ops.extend_from_slice(idx);
        let a = part_attr(self.ctx, part);
        self.op1("mem.load_part", ops, p, vec![a])
    }

    pub fn store_part(&mut self, v: Value, mem: Value, idx: &[Value], part: i64) {
        let mut ops = vec![v, mem];
        ops.extend_from_slice(idx);
        let a = part_attr(self.ctx, part);
        self.insert("mem.store_part", ops, &[], vec![a]);
    }

    pub fn alloc(&mut self, ty: Type) -> Value {
        self.op1("mem.alloc", vec![], ty, vec![])
    }
    pub fn alloca(&mut self, ty: Type) -> Value {
        self.op1("mem.alloca", vec![], ty, vec![])
    }

    /// Emits `loop.for %iv = lb to ub step 1` and builds its body with `f`.
    pub fn for_range(
        &mut self,
        lb: i64,
        ub: i64,
        f: &mut dyn FnMut(&mut Builder<'_>, Value) -> Result<()>,
    ) -> Result<()> {
        self.for_step(lb, ub, 1, f)
    }

    /// `loop.for %iv = lb to ub step step`.
    pub fn for_step(
        &mut self,
        lb: i64,
        ub: i64,
        step: i64,
        f: &mut dyn FnMut(&mut Builder<'_>, Value) -> Result<()>,
    ) -> Result<()> {
        let (l, u, s) = (
            self.const_index(lb),
            self.const_index(ub),
            self.const_index(step),
        );
        self.for_values(l, u, s, f)
    }

    /// `loop.for %iv = lb to ub step step` with bounds and step computed at
    /// run time (`index` values; the step must be positive).
    pub fn for_values(
        &mut self,
        l: Value,
        u: Value,
        s: Value,
        f: &mut dyn FnMut(&mut Builder<'_>, Value) -> Result<()>,
    ) -> Result<()> {
        self.for_op(l, u, s, f).map(|_| ())
    }

    /// `for_step` marked `parallel`: the caller promises that iterations
    /// write disjoint elements and read nothing another iteration writes.
    pub fn parallel_for_step(
        &mut self,
        lb: i64,
        ub: i64,
        step: i64,
        f: &mut dyn FnMut(&mut Builder<'_>, Value) -> Result<()>,
    ) -> Result<()> {
        let (l, u, s) = (
            self.const_index(lb),
            self.const_index(ub),
            self.const_index(step),
        );
        let op = self.for_op(l, u, s, f)?;
        let unit = self.ctx.attr(AttrKind::Unit);
        self.ctx.set_attr(op, "parallel", unit);
        Ok(())
    }

    /// `for_values` marked `parallel` (see `parallel_for_step`).
    pub fn parallel_for_values(
        &mut self,
        l: Value,
        u: Value,
        s: Value,
        f: &mut dyn FnMut(&mut Builder<'_>, Value) -> Result<()>,
    ) -> Result<()> {
        let op = self.for_op(l, u, s, f)?;
        let unit = self.ctx.attr(AttrKind::Unit);
        self.ctx.set_attr(op, "parallel", unit);
        Ok(())
    }

    fn for_op(
        &mut self,
        l: Value,
        u: Value,
        s: Value,
        f: &mut dyn FnMut(&mut Builder<'_>, Value) -> Result<()>,
    ) -> Result<OpId> {
        let op = self.insert("loop.for", vec![l, u, s], &[], vec![]);
        let region = self.ctx.add_region(op);
        let it = self.ctx.types.index_ty();
        let body = self.ctx.add_block(region, &[it]);
        let iv = self.ctx.blocks[body].args[0];
        {
            let mut inner = Builder {
                ctx: &mut *self.ctx,
                block: body,
                pos: 0,
                loc: self.loc,
                reassoc: self.reassoc,
                contract: self.contract,
            };
            f(&mut inner, iv)?;
            inner.insert("loop.yield", vec![], &[], vec![]);
        }
        Ok(op)
    }

    /// Loop nest over `shape` (row-major order); `f` gets the indices.
    pub fn loop_nest(
        &mut self,
        shape: &[i64],
        f: &mut dyn FnMut(&mut Builder<'_>, &[Value]) -> Result<()>,
    ) -> Result<()> {
        let mut ivs = Vec::new();
        self.nest_marked(shape, &mut ivs, false, f)
    }

    /// `loop_nest` with every loop marked `parallel`: `f` writes only the
    /// elements at its indices.
    pub fn parallel_nest(
        &mut self,
        shape: &[i64],
        f: &mut dyn FnMut(&mut Builder<'_>, &[Value]) -> Result<()>,
    ) -> Result<()> {
        let mut ivs = Vec::new();
        self.nest_marked(shape, &mut ivs, true, f)
    }

    /// `parallel_nest` whose loop over the second innermost dimension is
    /// marked for `loop-tile`: the two innermost dimensions are walked in
    /// `block`×`block` blocks of `tile`×`tile` tiles (`tile` divides
    /// `block`, and `block` both dimensions).
    pub fn tiled_nest(
        &mut self,
        shape: &[i64],
        block: i64,
        tile: i64,
        f: &mut dyn FnMut(&mut Builder<'_>, &[Value]) -> Result<()>,
    ) -> Result<()> {
        let r = shape.len();
        let (rows, cols) = (shape[r - 2], shape[r - 1]);
        self.parallel_nest(&shape[..r - 2], &mut |b, outer| {
            b.parallel_for_step(0, rows, 1, &mut |b, i| {
                b.parallel_for_step(0, cols, 1, &mut |b, j| {
                    let mut idx = outer.to_vec();
                    idx.push(i);
                    idx.push(j);
                    f(b, &idx)
                })
            })?;
            let rows_loop = b.ctx.blocks[b.block].ops[b.pos - 1];
            let elem = b.ctx.types.int_ty(64);
            let sizes = b.ctx.attr(AttrKind::DenseArray {
                elem,
                values: vec![block, tile],
            });
            b.ctx.set_attr(rows_loop, "tile", sizes);
            Ok(())
        })
    }

    fn nest_marked(
        &mut self,
        shape: &[i64],
        ivs: &mut Vec<Value>,
        parallel: bool,
        f: &mut dyn FnMut(&mut Builder<'_>, &[Value]) -> Result<()>,
    ) -> Result<()> {
        if ivs.len() == shape.len() {
            return f(self, ivs);
        }
        let n = shape[ivs.len()];
        let body = &mut |b: &mut Builder<'_>, iv| {
            ivs.push(iv);
            let r = b.nest_marked(shape, ivs, parallel, f);
            ivs.pop();
            r
        };
        if parallel {
            self.parallel_for_step(0, n, 1, body)
        } else {
            self.for_range(0, n, body)
        }
    }

    /// A builder inserting at the end of `block` (a block of a region being
    /// built), with this builder's location and flags.
    pub fn in_block(&mut self, block: BlockId) -> Builder<'_> {
        let pos = self.ctx.blocks[block].ops.len();
        Builder {
            ctx: &mut *self.ctx,
            block,
            pos,
            loc: self.loc,
            reassoc: self.reassoc,
            contract: self.contract,
        }
    }

    /// Emits `loop.if %c` with empty then and else blocks (each ending in
    /// `loop.yield`); returns them for the caller to fill with `in_block`.
    pub fn if_else_blocks(&mut self, c: Value) -> (BlockId, BlockId) {
        let op = self.insert("loop.if", vec![c], &[], vec![]);
        let then_block = yield_block(self.ctx, op, self.loc);
        let else_block = yield_block(self.ctx, op, self.loc);
        (then_block, else_block)
    }

    /// Emits `loop.while`: `cond` builds the condition (an i1) in the cond
    /// block, `body` the loop body.
    pub fn while_loop(
        &mut self,
        cond: &mut dyn FnMut(&mut Builder<'_>) -> Result<Value>,
        body: &mut dyn FnMut(&mut Builder<'_>) -> Result<()>,
    ) -> Result<()> {
        let op = self.insert("loop.while", vec![], &[], vec![]);
        let (rc, rb) = (self.ctx.add_region(op), self.ctx.add_region(op));
        let (cb, bb) = (self.ctx.add_block(rc, &[]), self.ctx.add_block(rb, &[]));
        {
            let mut inner = self.in_block(cb);
            let c = cond(&mut inner)?;
            inner.insert("loop.condition", vec![c], &[], vec![]);
        }
        let mut inner = self.in_block(bb);
        body(&mut inner)?;
        inner.insert("loop.yield", vec![], &[], vec![]);
        Ok(())
    }

    /// A builder inserting before the terminator (last op) of `block`.
    pub fn before_terminator(&mut self, block: BlockId) -> Builder<'_> {
        let pos = self.ctx.blocks[block].ops.len().saturating_sub(1);
        Builder {
            ctx: &mut *self.ctx,
            block,
            pos,
            loc: self.loc,
            reassoc: self.reassoc,
            contract: self.contract,
        }
    }

    /// `loop.for %iv = start to end` (step 1), `start` computed at run time.
    pub fn for_values_from(
        &mut self,
        start: Value,
        end: i64,
        f: &mut dyn FnMut(&mut Builder<'_>, Value) -> Result<()>,
    ) -> Result<()> {
        let (u, s) = (self.const_index(end), self.const_index(1));
        self.for_values(start, u, s, f)
    }

    /// Emits `loop.if %c` with then and else blocks built by `then` and `other`.
    pub fn if_else(
        &mut self,
        c: Value,
        then: &mut dyn FnMut(&mut Builder<'_>) -> Result<()>,
        other: &mut dyn FnMut(&mut Builder<'_>) -> Result<()>,
    ) -> Result<()> {
        let (t, e) = self.if_else_blocks(c);
        then(&mut self.before_terminator(t))?;
        other(&mut self.before_terminator(e))
    }

    /// Emits `loop.if %c` with a then-block built by `f` (no else).
    pub fn if_then(
        &mut self,
        c: Value,
        f: &mut dyn FnMut(&mut Builder<'_>) -> Result<()>,
    ) -> Result<()> {
        let op = self.insert("loop.if", vec![c], &[], vec![]);
        let then_r = self.ctx.add_region(op);
        self.ctx.add_region(op);
        let body = self.ctx.add_block(then_r, &[]);
        let mut inner = Builder {
            ctx: &mut *self.ctx,
            block: body,
            pos: 0,
            loc: self.loc,
            reassoc: self.reassoc,
            contract: self.contract,
        };
        f(&mut inner)?;
        inner.insert("loop.yield", vec![], &[], vec![]);
        Ok(())
    }
}

/// The `part` attribute of `mem.load_part`/`mem.store_part` (0 real, 1
/// imaginary).
fn part_attr(ctx: &mut Context, part: i64) -> (String, strata_ir::Attr) {
    let i64t = ctx.types.int_ty(64);
    let value = ctx.attr(AttrKind::Int {
        value: part as i128,
        ty: i64t,
    });
    ("part".into(), value)
}

/// A new region of `op` holding one block that ends in `loop.yield`.
fn yield_block(ctx: &mut Context, op: OpId, loc: Location) -> BlockId {
    let r = ctx.add_region(op);
    let block = ctx.add_block(r, &[]);
    let y = ctx.create_op("loop.yield", vec![], &[], vec![], loc);
    ctx.append_op(block, y);
    block
}

/// `name` (`arith.cmpi` or `arith.cmpf`) of `a` and `c` with predicate
/// `pred`: an i1.
fn compare(b: &mut Builder<'_>, name: &'static str, pred: &str, a: Value, c: Value) -> Value {
    let p = b.ctx.attr(AttrKind::String(pred.into()));
    let i1 = b.ctx.types.int_ty(1);
    b.op1(name, vec![a, c], i1, vec![("predicate".into(), p)])
}
