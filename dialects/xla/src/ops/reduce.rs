//! `xla.reduce` and its region terminator `xla.return`.

use strata_diag::{Diagnostic, Result};
use strata_ir::{BlockId, Context, OpId, Type, TypeKind, Value};

use crate::ops::control::names::RETURN;
use crate::ops::elementwise::names::{
    ADD, AND, BINARY_ELEMENTWISE, MAXIMUM, MINIMUM, MULTIPLY, OR,
};
use crate::ops::misc::names::CONSTANT;
use crate::ops::shape::names::BROADCAST_IN_DIM;
use names::{REDUCE, REDUCE_WINDOW, SELECT_AND_SCATTER};

use crate::parse;
use crate::util::*;
use strata_ir::{OpDef, OpParser, OpState, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    pub const REDUCE: &str = "xla.reduce";
    pub const REDUCE_WINDOW: &str = "xla.reduce_window";
    pub const SELECT_AND_SCATTER: &str = "xla.select_and_scatter";
}

/// `k` inputs of `shape`, then `k` 0-d init values of their element types,
/// and results of `out` shape; returns the element types.
fn check_inputs_and_inits(
    ctx: &Context,
    op: OpId,
    k: usize,
    shape: &[i64],
    out: &[i64],
) -> Result<Vec<strata_ir::Type>> {
    let mut elems = Vec::new();
    for i in 0..k {
        let (s, e) = operand_tensor(ctx, op, i)?;
        if s != shape {
            return Err(ctx.error(op, format!("input #{i} must have the shape of input #0")));
        }
        let (is, ie) = operand_tensor(ctx, op, k + i)?;
        if !is.is_empty() || ie != e {
            return Err(ctx.error(
                op,
                format!("init value #{i} must be a 0-d tensor of {}", ty_str(ctx, e)),
            ));
        }
        expect_result_type(ctx, op, i, out, e)?;
        elems.push(e);
    }
    Ok(elems)
}

pub fn verify_reduce(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    let n = o.operands().len();
    if n == 0 || n % 2 != 0 {
        return Err(ctx.error(op, "expects pairs of inputs and init values"));
    }
    let k = n / 2;
    if o.results.len() != k {
        return Err(ctx.error(
            op,
            format!("expects {k} results, found {}", o.results.len()),
        ));
    }
    let dims = i64s(ctx, op, "dimensions")?;
    let (shape, _) = operand_tensor(ctx, op, 0)?;
    for (i, &d) in dims.iter().enumerate() {
        if d < 0 || d as usize >= shape.len() || dims[..i].contains(&d) {
            return Err(ctx.error(
                op,
                format!(
                    "dimensions {} must be unique and in range for rank {}",
                    list(&dims),
                    shape.len()
                ),
            ));
        }
    }
    let out: Vec<i64> = (0..shape.len())
        .filter(|&i| !dims.contains(&(i as i64)))
        .map(|i| shape[i])
        .collect();
    let elems = check_inputs_and_inits(ctx, op, k, &shape, &out)?;
    check_reducer(ctx, op, 0, &elems)
}

/// Region `region` of `op` folds elements of `elems`' types: it takes two
/// 0-d tensors of each (accumulators, then elements) and returns one of
/// each. The lowering emits it on scalars of those types, so a region typed
/// otherwise is the user's error here, not invalid IR later.
pub fn check_reducer(
    ctx: &Context,
    op: OpId,
    region: usize,
    elems: &[strata_ir::Type],
) -> Result<()> {
    let k = elems.len();
    let Some(body) = ctx.entry_block(op, region) else {
        return Err(ctx.error(op, "requires a reducer region"));
    };
    let args: Vec<_> = ctx.blocks[body]
        .args
        .iter()
        .map(|&a| ctx.value_ty(a))
        .collect();
    let want: Vec<_> = elems.iter().chain(elems.iter()).copied().collect();
    let ok = args.len() == want.len()
        && args.iter().zip(&want).all(|(&a, &e)| matches!(ctx.types.kind(a), TypeKind::Tensor { shape, elem } if shape.is_empty() && *elem == e));
    if !ok {
        return Err(ctx.error(
            op,
            format!(
                "reducer must take {} 0-d tensor arguments matching the inputs' element types",
                want.len()
            ),
        ));
    }
    let Some(&last) = ctx.blocks[body].ops.last() else {
        return Err(ctx.error(op, "reducer region is empty"));
    };
    let returned: Vec<_> = ctx
        .op(last)
        .operands()
        .iter()
        .map(|&v| ctx.value_ty(v))
        .collect();
    if returned.len() != k || returned.iter().zip(&args).any(|(r, a)| r != a) {
        return Err(ctx.error(
            op,
            format!("reducer must return {k} 0-d tensors of the inputs' element types"),
        ));
    }
    Ok(())
}

/// The window of a `xla.reduce_window`, with StableHLO's defaults.
#[derive(Clone, Debug)]
pub struct Window {
    pub dims: Vec<i64>,
    pub strides: Vec<i64>,
    pub base_dilations: Vec<i64>,
    pub window_dilations: Vec<i64>,
    /// (low, high) per dimension.
    pub padding: Vec<(i64, i64)>,
}

impl Window {
    /// Result size per dimension for an input of `shape`. Saturating: the
    /// attributes are the model's (untrusted), and an absurd size is then
    /// rejected as not matching the result type, never an overflow.
    pub fn result_shape(&self, shape: &[i64]) -> Vec<i64> {
        (0..shape.len())
            .map(|d| {
                let padded = if shape[d] == 0 {
                    0
                } else {
                    (shape[d] - 1)
                        .saturating_mul(self.base_dilations[d])
                        .saturating_add(1)
                }
                .saturating_add(self.padding[d].0)
                .saturating_add(self.padding[d].1);
                let window = (self.dims[d] - 1)
                    .saturating_mul(self.window_dilations[d])
                    .saturating_add(1);
                if padded < window {
                    0
                } else {
                    padded.saturating_sub(window) / self.strides[d].max(1) + 1
                }
            })
            .collect()
    }
}

/// The op's window, or the error that it has none (or a malformed padding).
fn required_window(ctx: &Context, op: OpId, rank: usize) -> Result<Window> {
    window(ctx, op, rank).ok_or_else(|| {
        ctx.error(
            op,
            "requires window_dimensions and a padding of shape [rank, 2]",
        )
    })
}

pub fn window(ctx: &Context, op: OpId, rank: usize) -> Option<Window> {
    let ones = vec![1; rank];
    let dims = ctx.i64_array(op, "window_dimensions")?;
    let get = |n: &str| ctx.i64_array(op, n).unwrap_or_else(|| ones.clone());
    let padding = padding_pairs(ctx, op, rank)?;
    Some(Window {
        dims,
        strides: get("window_strides"),
        base_dilations: get("base_dilations"),
        window_dilations: get("window_dilations"),
        padding,
    })
}

pub fn verify_reduce_window(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    let n = o.operands().len();
    if n == 0 || n % 2 != 0 || o.results.len() != n / 2 {
        return Err(ctx.error(op, "expects N inputs, N init values and N results"));
    }
    let k = n / 2;
    let (shape, _) = operand_tensor(ctx, op, 0)?;
    let w = required_window(ctx, op, shape.len())?;
    check_window_lists(
        ctx,
        op,
        shape.len(),
        &[
            ("window_dimensions", &w.dims),
            ("window_strides", &w.strides),
            ("base_dilations", &w.base_dilations),
            ("window_dilations", &w.window_dilations),
        ],
    )?;
    if w.padding.iter().any(|&(l, h)| {
        let limit = strata_ir::text::parser::MAX_ELEMENTS as u64;
        l.unsigned_abs() > limit || h.unsigned_abs() > limit
    }) {
        return Err(ctx.error(op, "padding is out of range"));
    }
    let out = w.result_shape(&shape);
    let elems = check_inputs_and_inits(ctx, op, k, &shape, &out)?;
    check_reducer(ctx, op, 0, &elems)
}

/// `xla.select_and_scatter`: for every source element, the select region
/// picks one element of its operand window, and the scatter region folds
/// the source element into the result there (the result starts at init).
pub fn verify_select_and_scatter(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let (sshape, selem) = operand_tensor(ctx, op, 1)?;
    let (ishape, ielem) = operand_tensor(ctx, op, 2)?;
    if !ishape.is_empty() || ielem != selem {
        return Err(ctx.error(
            op,
            "init value must be a 0-d tensor of the source's element type",
        ));
    }
    let w = required_window(ctx, op, shape.len())?;
    check_window_lists(
        ctx,
        op,
        shape.len(),
        &[
            ("window_dimensions", &w.dims),
            ("window_strides", &w.strides),
        ],
    )?;
    if w.padding.iter().any(|&(l, h)| {
        l < 0
            || h < 0
            || l > strata_ir::text::parser::MAX_ELEMENTS
            || h > strata_ir::text::parser::MAX_ELEMENTS
    }) {
        return Err(ctx.error(op, "padding must be non-negative"));
    }
    if w.result_shape(&shape) != sshape {
        return Err(ctx.error(
            op,
            format!(
                "source shape {} does not match the windows of the operand",
                list(&sshape)
            ),
        ));
    }
    if ctx.op(op).regions.len() != 2
        || ctx.entry_block(op, 0).is_none()
        || ctx.entry_block(op, 1).is_none()
    {
        return Err(ctx.error(op, "requires a select region and a scatter region"));
    }
    check_select(ctx, op, elem)?;
    check_reducer(ctx, op, 1, &[selem])?;
    expect_result_type(ctx, op, 0, &shape, selem)
}

/// `select_and_scatter`'s select region: two 0-d tensors of the operand's
/// element type to one `tensor<i1>`.
fn check_select(ctx: &Context, op: OpId, elem: strata_ir::Type) -> Result<()> {
    let bad = || {
        ctx.error(op, "select region must take two 0-d tensors of the operand's element type and return one tensor<i1>")
    };
    let body = ctx.entry_block(op, 0).ok_or_else(bad)?;
    let args_ok = ctx.blocks[body].args.len() == 2
        && ctx.blocks[body].args.iter().all(|&a| matches!(ctx.types.kind(ctx.value_ty(a)), TypeKind::Tensor { shape, elem: e } if shape.is_empty() && *e == elem));
    let returned = ctx.blocks[body]
        .ops
        .last()
        .map(|&l| ctx.op(l).operands().to_vec())
        .unwrap_or_default();
    let ret_ok = returned.len() == 1
        && matches!(ctx.types.kind(ctx.value_ty(returned[0])), TypeKind::Tensor { shape, elem: e } if shape.is_empty() && ctx.types.is_bool(*e));
    if args_ok && ret_ok {
        Ok(())
    } else {
        Err(bad())
    }
}

/// The bits and element type of a scalar constant (seen through a
/// `broadcast_in_dim` to a scalar, as JAX writes the init).
fn constant_scalar(ctx: &Context, v: Value) -> Option<(u64, Type)> {
    let mut op = ctx.defining_op(v)?;
    if ctx.op(op).name == BROADCAST_IN_DIM {
        op = ctx.defining_op(ctx.op(op).operands()[0])?;
    }
    if ctx.op(op).name != CONSTANT {
        return None;
    }
    let d = ctx.dense_attr(op, "value")?;
    if ctx.types.num_elements(d.ty) != 1 {
        return None;
    }
    Some((*d.bits.first()?, ctx.types.elem(d.ty)))
}

/// Whether a fold through the reducer `body` from `init` may start over
/// from `init` (or fold it in more than once) without changing its result:
/// the body is one associative, commutative op of its two arguments, on
/// real elements, and `init` a constant that folded with itself is itself
/// (`add` from ±0, `multiply` from 0 or 1, `maximum`, `minimum`, `and` and
/// `or` from anything). Running folds of reduce_window and split reductions
/// rely on it.
pub fn init_folds_away(ctx: &Context, body: BlockId, init: Value) -> bool {
    let Some((bits, elem)) = constant_scalar(ctx, init) else {
        return false;
    };
    let block = &ctx.blocks[body];
    let [fold, ret] = block.ops[..] else {
        return false;
    };
    let args = &block.args;
    let (f, r) = (ctx.op(fold), ctx.op(ret));
    let of_args = f.operands().len() == 2
        && args.len() == 2
        && (f.operands()[..] == args[..]
            || (f.operands()[0] == args[1] && f.operands()[1] == args[0]));
    if !of_args || r.name != RETURN || r.operands()[..] != f.results[..] {
        return false;
    }
    let float = match ctx.types.kind(elem) {
        TypeKind::Float(k) => Some(*k),
        TypeKind::Int { .. } => None,
        _ => return false,
    };
    let value = |v: f64| match float {
        Some(k) => bits == strata_ir::dense::float_to_bits(v, k),
        None => bits == v as u64,
    };
    let zero = match float {
        // ±0: the sign bit alone.
        Some(k) => bits & !(1u64 << (k.width() - 1)) == 0,
        None => bits == 0,
    };
    match f.name {
        MAXIMUM | MINIMUM | AND | OR => true,
        ADD => zero,
        MULTIPLY => zero || value(1.0),
        _ => false,
    }
}

/// Whether `body` is a reducer of several ops (a monoid written out, such
/// as `cumlogsumexp`'s logaddexp, which [`init_folds_away`] cannot prove
/// anything of) on real scalars, from a constant `init`: a running fold of
/// it is one of the orders its reduction may be computed in by contract
/// alone. JAX requires a reduction's init and computation to form a monoid
/// (init an identity of an associative computation; `jax.lax.reduce`) and
/// XLA exploits it: its reduce-window rewriter turns long cumulative
/// windows into scans that regroup the folds.
pub fn is_written_out_monoid(ctx: &Context, body: BlockId, init: Value) -> bool {
    let Some((_, elem)) = constant_scalar(ctx, init) else {
        return false;
    };
    let block = &ctx.blocks[body];
    let real = matches!(
        ctx.types.kind(elem),
        TypeKind::Float(_) | TypeKind::Int { .. }
    );
    real && block.args.len() == 2 && block.ops.len() > 2
}

/// `xla.reduce`: the dimensions folded away (the others are the result's).
pub fn reduce_dimensions(ctx: &Context, op: OpId) -> Option<Vec<usize>> {
    indices_attr(ctx, op, "dimensions")
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
/// `reduce(%a init: %i), ... applies stablehlo.add across dimensions = [1] : sig`
/// or `... across dimensions = [1] : sig reducer(%x: t, %y: t) { body }`.
fn parse_reduce(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    let (mut inputs, mut inits) = (Vec::new(), Vec::new());
    loop {
        p.expect_punct("(")?;
        inputs.push(p.parse_operand()?);
        p.expect_keyword("init")?;
        p.expect_punct(":")?;
        inits.push(p.parse_operand()?);
        p.expect_punct(")")?;
        if !p.consume_punct(",") {
            break;
        }
    }
    st.operands = inputs.iter().chain(inits.iter()).copied().collect();
    let mut applies = None;
    if p.consume_keyword("applies") {
        let loc = p.loc();
        let name = p.parse_ident()?;
        let def = p
            .ctx()
            .registry
            .resolve(&name)
            .ok_or_else(|| Diagnostic::error(loc, format!("unknown operation '{name}'")))?;
        if !BINARY_ELEMENTWISE.contains(&def.name) {
            return Err(Diagnostic::error(
                loc,
                format!(
                    "'{name}' cannot be applied as a reducer; expected a binary element-wise op"
                ),
            ));
        }
        applies = Some((def.name, loc));
    }
    p.expect_keyword("across")?;
    parse::parse_named_dims(p, st, "dimensions", "dimensions")?;
    p.parse_optional_attr_dict(st)?;
    parse::parse_signature(p, st)?;
    let elems: Vec<Type> = inits.iter().map(|&v| p.ctx().value_ty(v)).collect();
    match applies {
        Some((name, loc)) => {
            if elems.len() != 1 {
                return Err(Diagnostic::error(loc, "'applies' needs exactly one input"));
            }
            let t = elems[0];
            let region = p.ctx().regions.alloc(strata_ir::Region::default());
            let block = p.ctx().add_block(region, &[t, t]);
            let args = p.ctx().blocks[block].args.clone();
            let body = p.ctx().create_op(name, args, &[t], vec![], loc);
            p.ctx().append_op(block, body);
            let r = p.ctx().op(body).results[0];
            let ret = p.ctx().create_op(RETURN, vec![r], &[], vec![], loc);
            p.ctx().append_op(block, ret);
            st.regions.push(region);
        }
        None => {
            p.expect_keyword("reducer")?;
            let mut lhs = Vec::new();
            let mut rhs = Vec::new();
            while p.is_punct("(") {
                let pair = p.parse_region_args()?;
                if pair.len() != 2 {
                    return Err(p.error("each reducer argument group has two arguments"));
                }
                let mut it = pair.into_iter();
                lhs.extend(it.next());
                rhs.extend(it.next());
            }
            let args: Vec<_> = lhs.into_iter().chain(rhs).collect();
            let region = p.parse_region(&args, false)?;
            st.regions.push(region);
        }
    }
    Ok(())
}

pub(crate) fn register(r: &mut Registry) {
    let pure = Traits::PURE;
    r.add(
        OpDef::new(REDUCE, pure)
            .verifier(verify_reduce)
            .parser(parse_reduce),
    );
    r.add(
        OpDef::new(SELECT_AND_SCATTER, pure)
            .counts(3, 1)
            .verifier(verify_select_and_scatter),
    );
    r.add(OpDef::new(REDUCE_WINDOW, pure).verifier(verify_reduce_window));
}
