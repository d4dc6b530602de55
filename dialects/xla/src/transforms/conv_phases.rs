//! `xla-conv-phases`: a transposed convolution (lhs_dilation L > 1, as
//! `lax.conv_transpose` and flax's `ConvTranspose` write it) becomes one
//! ordinary convolution per output phase, their results interleaved.
//!
//! Between the input elements the dilation puts L - 1 zeros: of the K taps
//! of the kernel only every L-th meets an input element at a given output
//! position, and which ones depends only on the position modulo L (its
//! phase). Output o = L·m + p along a dimension folds taps k = r + L·j
//! (r = (low padding - p) mod L) with input m + j + c (c = (p + r - low
//! padding) / L): a convolution of the undilated input with the kernel's
//! taps r, r + L, ... and padding -c. The phases' results (of ceil(out / L)
//! positions, the last ones padded) are interleaved by concatenating them
//! along a new dimension after each spatial one and merging the two; the
//! excess is sliced off. Each phase convolution is an ordinary one, so it
//! reaches the convolution kernels; the dilated form multiplies L^d times
//! as many zeros as elements (a 2x upsampling 4x) and fell back to a loop
//! nest.
//!
//! Taken when every window stride and rhs dilation is 1, no window is
//! reversed, every phase has taps and positions (K ≥ L, out ≥ L), and
//! there are at most `MAX_PHASES` phases; other convolutions are
//! unchanged. The products are those of the dilated
//! form without its zeros; only the order of the sums differs.

use strata_diag::{Diagnostic, Result};
use strata_ir::{Attr, AttrKind, Context, DenseElements, OpId, Type, Value};

use super::build::{OpBuilder, ops_named};
use crate::names::{CONCATENATE, CONVOLUTION, PAD, RESHAPE, SLICE};
use crate::ops::conv::{Conv, conv};

pub const FLAG: &str = "xla-conv-phases";

/// Most phase convolutions one convolution becomes (the product of its
/// dilations): 64 covers stride 4 in three dimensions. The dilations are
/// the model's (untrusted), and a product in the millions would emit
/// millions of ops; such a convolution keeps its dilated form.
const MAX_PHASES: i64 = 64;

pub struct XlaConvPhasesPass;

impl strata_pass::Pass for XlaConvPhasesPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "write a transposed (lhs-dilated) convolution as one convolution per output phase"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        for op in ops_named(ctx, module, &[CONVOLUTION]) {
            if let Some(plan) = plan(ctx, op) {
                rewrite(ctx, op, &plan)?;
            }
        }
        Ok(())
    }
}

/// One phase p of a spatial dimension.
#[derive(Clone, Copy, Debug)]
struct Phase {
    /// First tap (the taps are first, first + L, ...).
    first_tap: i64,
    /// Output positions of this phase.
    positions: i64,
    /// Input window: [start, end) of the input, then padding (low, high).
    start: i64,
    end: i64,
    low: i64,
    high: i64,
}

/// One spatial dimension: its dilation L, its L phases, its output size.
struct DimPlan {
    dilation: i64,
    phases: Vec<Phase>,
    out: i64,
}

struct Plan {
    conv: Conv,
    dims: Vec<DimPlan>,
    out_shape: Vec<i64>,
    elem: Type,
}

fn plan(ctx: &Context, op: OpId) -> Option<Plan> {
    let c = conv(ctx, op)?;
    let o = ctx.op(op);
    let shape = |v: Value| ctx.types.shape(ctx.value_ty(v)).map(<[i64]>::to_vec);
    let (x, w, out) = (
        shape(o.operands()[0])?,
        shape(o.operands()[1])?,
        shape(o.results[0])?,
    );
    let ones = |v: &[i64]| v.iter().all(|&s| s == 1);
    if ones(&c.lhs_dilation)
        || !ones(&c.strides)
        || !ones(&c.rhs_dilation)
        || c.reversal.iter().any(|&r| r)
        || c.lhs_dilation.iter().any(|&l| l < 1)
    {
        return None;
    }
    let phases = c
        .lhs_dilation
        .iter()
        .try_fold(1i64, |n, &l| n.checked_mul(l))?;
    if phases > MAX_PHASES {
        return None;
    }
    let mut dims = Vec::new();
    for d in 0..c.input_spatial.len() {
        let l = c.lhs_dilation[d];
        let (n, k, o) = (
            x[c.input_spatial[d]],
            w[c.kernel_spatial[d]],
            out[c.output_spatial[d]],
        );
        if n < 1 || k < l || o < l {
            return None;
        }
        let phases = (0..l)
            .map(|p| phase(p, l, n, k, o, c.padding[d].0))
            .collect::<Option<Vec<_>>>()?;
        dims.push(DimPlan {
            dilation: l,
            phases,
            out: o,
        });
    }
    Some(Plan {
        conv: c,
        dims,
        out_shape: out,
        elem: ctx.types.elem(ctx.value_ty(o.results[0])),
    })
}

/// Phase `p` of a dimension with dilation `l`, input `n`, kernel `k`,
/// output `o` and low padding `pad`.
fn phase(p: i64, l: i64, n: i64, k: i64, o: i64, pad: i64) -> Option<Phase> {
    let first_tap = (pad - p).rem_euclid(l);
    let taps = (k - first_tap + l - 1) / l;
    let positions = (o - p + l - 1) / l;
    let offset = (p + first_tap - pad).div_euclid(l);
    // Positions m read inputs m + offset .. m + offset + taps - 1.
    let low = -offset;
    let high = positions + taps - 1 - n - low;
    let (start, low) = if low < 0 { (-low, 0) } else { (0, low) };
    let (end, high) = if high < 0 { (n + high, 0) } else { (n, high) };
    (taps >= 1 && positions >= 1 && start < end).then_some(Phase {
        first_tap,
        positions,
        start,
        end,
        low,
        high,
    })
}

fn rewrite(ctx: &mut Context, op: OpId, plan: &Plan) -> Result<()> {
    let (x, w) = (ctx.op(op).operands()[0], ctx.op(op).operands()[1]);
    let attrs = ctx.op(op).attrs.clone();
    let mut b = OpBuilder::before_op(ctx, op)?;
    let zero = b.splat_bits(0, &[], plan.elem);
    // Every combination of phases, the first dimension's varying slowest.
    let counts: Vec<usize> = plan.dims.iter().map(|d| d.phases.len()).collect();
    let total: usize = counts.iter().product();
    let mut results = Vec::with_capacity(total);
    for index in 0..total {
        let mut rest = index;
        let mut combo = vec![0; counts.len()];
        for d in (0..counts.len()).rev() {
            combo[d] = rest % counts[d];
            rest /= counts[d];
        }
        let phases: Vec<Phase> = combo
            .iter()
            .enumerate()
            .map(|(d, &p)| plan.dims[d].phases[p])
            .collect();
        let y = phase_conv(&mut b, plan, &attrs, x, w, &phases)?;
        results.push(pad_positions(&mut b, plan, y, &phases, zero));
    }
    // Interleave the last dimension's phases first: groups of consecutive
    // results differ only in it.
    for d in (0..counts.len()).rev() {
        let od = plan.conv.output_spatial[d];
        results = results
            .chunks(counts[d])
            .map(|group| interleave(&mut b, group, od))
            .collect();
    }
    let mut y = results
        .pop()
        .ok_or_else(|| Diagnostic::internal(b.loc, "no phase of a convolution"))?;
    let shape = b.shape_of(y);
    if shape != plan.out_shape {
        let n = shape.len();
        y = slice(&mut b, y, &vec![0; n], &plan.out_shape, &vec![1; n]);
    }
    b.replace(op, &[y]);
    Ok(())
}

/// The convolution of phase combination `phases`: the input window, the
/// kernel's taps, the phase's padding, no lhs dilation.
fn phase_conv(
    b: &mut OpBuilder<'_>,
    plan: &Plan,
    attrs: &[(String, Attr)],
    x: Value,
    w: Value,
    phases: &[Phase],
) -> Result<Value> {
    let c = &plan.conv;
    let (xs, ws) = (b.shape_of(x), b.shape_of(w));
    let (mut x_start, mut x_limit) = (vec![0; xs.len()], xs.clone());
    let (mut w_start, mut w_stride) = (vec![0; ws.len()], vec![1; ws.len()]);
    let mut out = plan.out_shape.clone();
    for (d, ph) in phases.iter().enumerate() {
        x_start[c.input_spatial[d]] = ph.start;
        x_limit[c.input_spatial[d]] = ph.end;
        w_start[c.kernel_spatial[d]] = ph.first_tap;
        w_stride[c.kernel_spatial[d]] = plan.dims[d].dilation;
        out[c.output_spatial[d]] = ph.positions;
    }
    let x = if x_start != vec![0; xs.len()] || x_limit != xs {
        slice(b, x, &x_start, &x_limit, &vec![1; xs.len()])
    } else {
        x
    };
    let w = slice(b, w, &w_start, &ws, &w_stride);
    let n = phases.len();
    let i64t = b.ctx.types.int_ty(64);
    let pad_ty = b.ctx.types.tensor_ty(&[n as i64, 2], i64t);
    let padding = b.ctx.attr(AttrKind::Dense(DenseElements {
        ty: pad_ty,
        splat: false,
        bits: phases
            .iter()
            .flat_map(|ph| [ph.low as u64, ph.high as u64])
            .collect(),
    }));
    let ones = b.i64_array(vec![1; n]);
    let mut new_attrs: Vec<(String, Attr)> = attrs
        .iter()
        .filter(|(k, _)| k != "padding" && k != "lhs_dilation")
        .cloned()
        .collect();
    new_attrs.push(("padding".into(), padding));
    new_attrs.push(("lhs_dilation".into(), ones));
    let ty = b.tensor(&out, plan.elem);
    let y = b.op(CONVOLUTION, vec![x, w], ty, new_attrs);
    if let Some(o) = b.ctx.defining_op(y) {
        strata_ir::verify::verify_definition(b.ctx, o).map_err(|e| {
            Diagnostic::internal(b.loc, format!("a phase of a convolution: {}", e.message))
        })?;
    }
    Ok(y)
}

/// `y` padded with zeros after its last positions along every spatial
/// dimension whose phase has fewer than ceil(out / L).
fn pad_positions(
    b: &mut OpBuilder<'_>,
    plan: &Plan,
    y: Value,
    phases: &[Phase],
    zero: Value,
) -> Value {
    let shape = b.shape_of(y);
    let mut high = vec![0; shape.len()];
    for (d, ph) in phases.iter().enumerate() {
        let DimPlan {
            dilation: l, out, ..
        } = plan.dims[d];
        high[plan.conv.output_spatial[d]] = (out + l - 1) / l - ph.positions;
    }
    if high.iter().all(|&h| h == 0) {
        return y;
    }
    let padded: Vec<i64> = shape.iter().zip(&high).map(|(s, h)| s + h).collect();
    let ty = b.tensor(&padded, plan.elem);
    let (lo, hi, interior) = (
        b.i64_array(vec![0; shape.len()]),
        b.i64_array(high),
        b.i64_array(vec![0; shape.len()]),
    );
    b.op(
        PAD,
        vec![y, zero],
        ty,
        vec![
            ("edge_padding_low".into(), lo),
            ("edge_padding_high".into(), hi),
            ("interior_padding".into(), interior),
        ],
    )
}

/// The phases `group` (each of M positions along dimension `od`) as one
/// value of M·L positions, position m·L + p from phase p.
fn interleave(b: &mut OpBuilder<'_>, group: &[Value], od: usize) -> Value {
    if group.len() == 1 {
        return group[0];
    }
    let shape = b.shape_of(group[0]);
    let elem = b.elem_of(group[0]);
    let mut unit = shape.clone();
    unit.insert(od + 1, 1);
    let unit_ty = b.tensor(&unit, elem);
    let parts: Vec<Value> = group
        .iter()
        .map(|&v| b.op(RESHAPE, vec![v], unit_ty, vec![]))
        .collect();
    let mut stacked = unit.clone();
    stacked[od + 1] = group.len() as i64;
    let stacked_ty = b.tensor(&stacked, elem);
    let i64t = b.ctx.types.int_ty(64);
    let dim = b.ctx.attr(AttrKind::Int {
        value: (od + 1) as i128,
        ty: i64t,
    });
    let joined = b.op(
        CONCATENATE,
        parts,
        stacked_ty,
        vec![("dimension".into(), dim)],
    );
    let mut merged = shape;
    merged[od] *= group.len() as i64;
    let merged_ty = b.tensor(&merged, elem);
    b.op(RESHAPE, vec![joined], merged_ty, vec![])
}

/// `xla.slice` of `v`.
fn slice(b: &mut OpBuilder<'_>, v: Value, start: &[i64], limit: &[i64], stride: &[i64]) -> Value {
    let shape: Vec<i64> = (0..start.len())
        .map(|d| (limit[d] - start[d] + stride[d] - 1) / stride[d])
        .collect();
    let elem = b.elem_of(v);
    let ty = b.tensor(&shape, elem);
    let (s, l, t) = (
        b.i64_array(start.to_vec()),
        b.i64_array(limit.to_vec()),
        b.i64_array(stride.to_vec()),
    );
    b.op(
        SLICE,
        vec![v],
        ty,
        vec![
            ("start_indices".into(), s),
            ("limit_indices".into(), l),
            ("strides".into(), t),
        ],
    )
}
