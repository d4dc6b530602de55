//! What `xla-refine-shapes` computes per op: the shapes of `?` results
//! from their operands and attributes, and the values of the small integer
//! computations of shapes.

use strata_diag::Result;
use strata_ir::{Context, OpId};

use super::{MAX_EVALUATED, Refiner, is_dynamic, shape};
use crate::names::*;

impl Refiner {
    /// The shapes of `op`'s results, from its operands and attributes.
    pub(super) fn infer(&self, ctx: &Context, op: OpId) -> Result<Vec<Vec<i64>>> {
        let name = ctx.op(op).name;
        let operands = ctx.op(op).operands();
        let results = &ctx.op(op).results;
        // Runs before verification: an op may have no result at all.
        let Some(&first_result) = results.first() else {
            return Ok(vec![]);
        };
        let cannot = || {
            ctx.error(
                op,
                "has a symbolic result shape that cannot be refined from its operands",
            )
        };
        let operand = |i: usize| operands.get(i).map(|&v| shape(ctx, v)).ok_or_else(cannot);
        let ints = |i: usize| {
            operands
                .get(i)
                .and_then(|v| self.known.get(v))
                .cloned()
                .ok_or_else(cannot)
        };
        let attr = |key: &str| ctx.i64_array(op, key).ok_or_else(cannot);
        let same_rank = || -> Result<Vec<i64>> {
            let rank = ctx
                .types
                .shape(ctx.value_ty(first_result))
                .map_or(0, |s| s.len());
            operands
                .iter()
                .map(|&v| shape(ctx, v))
                .find(|s| s.len() == rank && s.iter().all(|&d| d >= 0))
                .ok_or_else(cannot)
        };
        let one = |s: Vec<i64>| Ok(vec![s]);
        match name {
            DYNAMIC_BROADCAST_IN_DIM | DYNAMIC_RESHAPE | DYNAMIC_IOTA => {
                one(ints(if name == DYNAMIC_IOTA { 0 } else { 1 })?)
            }
            DOT_GENERAL => {
                let (l, r) = (operand(0)?, operand(1)?);
                let d = crate::ops::dot::dot_dims(ctx, op).ok_or_else(cannot)?;
                let pick = |s: &[i64], dims: &[i64]| -> Vec<i64> {
                    dims.iter()
                        .filter_map(|&i| s.get(i as usize).copied())
                        .collect()
                };
                let free = |s: &[i64], batch: &[i64], contract: &[i64]| -> Vec<i64> {
                    (0..s.len() as i64)
                        .filter(|i| !batch.contains(i) && !contract.contains(i))
                        .map(|i| s[i as usize])
                        .collect()
                };
                let mut out = pick(&l, &d.lhs_batch);
                out.extend(free(&l, &d.lhs_batch, &d.lhs_contract));
                out.extend(free(&r, &d.rhs_batch, &d.rhs_contract));
                one(out)
            }
            CONVOLUTION => {
                let c = crate::ops::conv::conv(ctx, op).ok_or_else(cannot)?;
                let (l, r) = (operand(0)?, operand(1)?);
                let fits = |s: &[i64], dims: &[usize]| dims.iter().all(|&d| d < s.len());
                let lhs: Vec<usize> = [c.input_batch, c.input_feature]
                    .into_iter()
                    .chain(c.input_spatial.iter().copied())
                    .collect();
                let rhs: Vec<usize> = [c.kernel_output_feature]
                    .into_iter()
                    .chain(c.kernel_spatial.iter().copied())
                    .collect();
                let out = c.output_spatial.len() + 2;
                let outs = [c.output_batch, c.output_feature];
                if !fits(&l, &lhs)
                    || !fits(&r, &rhs)
                    || c.kernel_spatial.len() != c.input_spatial.len()
                    || c.output_spatial.len() != c.input_spatial.len()
                    || outs.iter().chain(&c.output_spatial).any(|&d| d >= out)
                {
                    return Err(cannot());
                }
                one(crate::ops::conv::result_shape(&c, &l, &r).map_err(|_| cannot())?)
            }
            REDUCE_WINDOW => {
                // N inputs, N init values, N results of the window's shape.
                let n = results.len();
                (0..n)
                    .map(|i| {
                        let s = operand(i)?;
                        let window = crate::ops::reduce::window(ctx, op, s.len())
                            .filter(|w| {
                                [&w.dims, &w.strides, &w.base_dilations, &w.window_dilations]
                                    .iter()
                                    .all(|v| v.len() == s.len())
                                    && w.padding.len() == s.len()
                            })
                            .ok_or_else(cannot)?;
                        Ok(window.result_shape(&s))
                    })
                    .collect()
            }
            FFT => {
                use crate::attrs::FftType;
                let s = operand(0)?;
                let lengths = attr("fft_length")?;
                let kind = ctx
                    .str_attr(op, "fft_type")
                    .and_then(FftType::parse)
                    .ok_or_else(cannot)?;
                let n = lengths.len();
                if n == 0 || n > s.len() {
                    return Err(cannot());
                }
                let mut out = s[..s.len() - n].to_vec();
                out.extend(&lengths);
                if kind == FftType::Rfft {
                    let last = out.len() - 1;
                    out[last] = lengths[n - 1] / 2 + 1;
                }
                one(out)
            }
            // The solution has the right-hand side's shape.
            TRIANGULAR_SOLVE => one(operand(1)?),
            TOP_K => {
                let mut s = operand(0)?;
                let k = ctx.int_attr(op, "k").and_then(|k| i64::try_from(k).ok());
                match (s.last_mut(), k) {
                    (Some(last), Some(k)) => *last = k,
                    _ => return Err(cannot()),
                }
                Ok(vec![s; results.len()])
            }
            REDUCE => {
                let dims = attr("dimensions")?;
                let s = operand(0)?;
                let kept: Vec<i64> = (0..s.len() as i64)
                    .filter(|i| !dims.contains(i))
                    .map(|i| s[i as usize])
                    .collect();
                Ok(vec![kept; results.len()])
            }
            BROADCAST_IN_DIM => {
                let dims = attr("broadcast_dimensions")?;
                let s = operand(0)?;
                let mut out = ctx
                    .types
                    .shape(ctx.value_ty(first_result))
                    .map(|s| s.to_vec())
                    .unwrap_or_default();
                for (i, &d) in dims.iter().enumerate() {
                    if let (Some(o), Some(&src)) = (out.get_mut(d as usize), s.get(i)) {
                        if *o < 0 {
                            *o = src;
                        }
                    }
                }
                if out.iter().any(|&d| d < 0) {
                    return Err(cannot());
                }
                one(out)
            }
            TRANSPOSE => {
                let perm = attr("permutation")?;
                let s = operand(0)?;
                one(perm
                    .iter()
                    .filter_map(|&p| s.get(p as usize).copied())
                    .collect())
            }
            RESHAPE => {
                let total: i64 = operand(0)?.iter().fold(1i64, |a, &d| a.saturating_mul(d));
                let mut out = ctx
                    .types
                    .shape(ctx.value_ty(first_result))
                    .map(|s| s.to_vec())
                    .unwrap_or_default();
                let known: i64 = out
                    .iter()
                    .filter(|&&d| d >= 0)
                    .fold(1i64, |a, &d| a.saturating_mul(d));
                let unknown = out.iter().filter(|&&d| d < 0).count();
                if unknown != 1 || known == 0 || total % known != 0 {
                    return Err(cannot());
                }
                for d in out.iter_mut().filter(|d| **d < 0) {
                    *d = total / known;
                }
                one(out)
            }
            CONCATENATE => {
                let dim = ctx.int_attr(op, "dimension").ok_or_else(cannot)? as usize;
                let mut out = operand(0)?;
                let mut sum = 0;
                for i in 0..operands.len() {
                    sum = operand(i)?
                        .get(dim)
                        .copied()
                        .ok_or_else(cannot)?
                        .saturating_add(sum);
                }
                *out.get_mut(dim).ok_or_else(cannot)? = sum;
                one(out)
            }
            SLICE => {
                let (start, limit, strides) = (
                    attr("start_indices")?,
                    attr("limit_indices")?,
                    attr("strides")?,
                );
                one(start
                    .iter()
                    .zip(&limit)
                    .zip(&strides)
                    .map(|((s, l), t)| slice_size(*s, *l, *t))
                    .collect())
            }
            REAL_DYNAMIC_SLICE => {
                let strides = ints(3)?;
                // A start computed at run time with the limit `start +
                // sizes` (how JAX slices a batched value at a loop's
                // index): the sizes are the result's.
                let (start, limit) = match (ints(1), ints(2)) {
                    (Ok(start), Ok(limit)) => (start, limit),
                    _ => {
                        let sizes = crate::transforms::static_dynamic_ops::sizes_past(
                            ctx,
                            operands[1],
                            operands[2],
                        )
                        .and_then(|v| self.known.get(&v).cloned())
                        .ok_or_else(cannot)?;
                        (vec![0; sizes.len()], sizes)
                    }
                };
                one(start
                    .iter()
                    .zip(&limit)
                    .zip(&strides)
                    .map(|((s, l), t)| slice_size(*s, *l, *t))
                    .collect())
            }
            DYNAMIC_PAD | PAD => {
                let (low, high, interior) = if name == PAD {
                    (
                        attr("edge_padding_low")?,
                        attr("edge_padding_high")?,
                        attr("interior_padding")?,
                    )
                } else {
                    (ints(2)?, ints(3)?, ints(4)?)
                };
                let s = operand(0)?;
                one(s
                    .iter()
                    .enumerate()
                    .map(|(i, &d)| {
                        let inner = if d > 0 {
                            (d - 1).saturating_mul(interior.get(i).copied().unwrap_or(0))
                        } else {
                            0
                        };
                        d.saturating_add(inner)
                            .saturating_add(low.get(i).copied().unwrap_or(0))
                            .saturating_add(high.get(i).copied().unwrap_or(0))
                    })
                    .collect())
            }
            GATHER | DYNAMIC_GATHER => {
                let sizes = if name == GATHER {
                    attr("slice_sizes")?
                } else {
                    ints(2)?
                };
                let g = crate::ops::gather::gather_dims(ctx, op).ok_or_else(cannot)?;
                let indices = operand(1)?;
                let batch: Vec<i64> = (0..indices.len() as i64)
                    .filter(|&i| i != g.index_vector_dim)
                    .map(|i| indices[i as usize])
                    .collect();
                let offsets: Vec<i64> = (0..sizes.len() as i64)
                    .filter(|i| {
                        !g.collapsed_slice_dims.contains(i) && !g.operand_batching_dims.contains(i)
                    })
                    .map(|i| sizes[i as usize])
                    .collect();
                let rank = batch.len() + offsets.len();
                let (mut b, mut o) = (batch.into_iter(), offsets.into_iter());
                one((0..rank as i64)
                    .map(|i| {
                        if g.offset_dims.contains(&i) {
                            o.next()
                        } else {
                            b.next()
                        }
                    })
                    .collect::<Option<Vec<i64>>>()
                    .ok_or_else(cannot)?)
            }
            _ => {
                // Shape-keeping ops: result i has operand i's shape when
                // the ranks agree (sort, optimization_barrier, batch norm's
                // statistics, while's carried values), else the shape of an
                // operand of the first result's rank (element-wise ops
                // with scalar operands, select, clamp).
                let guess = same_rank()?;
                Ok(results
                    .iter()
                    .enumerate()
                    .map(|(i, &r)| {
                        let rank = ctx.types.shape(ctx.value_ty(r)).map_or(0, |s| s.len());
                        operands
                            .get(i)
                            .map(|&v| shape(ctx, v))
                            .filter(|s| s.len() == rank && s.iter().all(|&d| d >= 0))
                            .unwrap_or_else(|| guess.clone())
                    })
                    .collect())
            }
        }
    }

    /// Records `op`'s value when it is a small integer computation on known
    /// values (the arithmetic of shapes).
    pub(super) fn evaluate(&mut self, ctx: &Context, op: OpId) {
        let Some(&r) = ctx.op(op).results.first() else {
            return;
        };
        let t = ctx.value_ty(r);
        let elem = ctx.types.elem(t);
        if !ctx.types.is_int(elem)
            || is_dynamic(ctx, t)
            || ctx.types.num_elements(t) > MAX_EVALUATED
        {
            return;
        }
        let n = ctx.types.num_elements(t) as usize;
        let operands = ctx.op(op).operands();
        let arg = |i: usize| operands.get(i).and_then(|v| self.known.get(v));
        let value: Option<Vec<i64>> = match ctx.op(op).name {
            // Before verification the value's type may not be the result's:
            // only a value of the result's type (or a splat) is read.
            CONSTANT => ctx
                .dense_attr(op, "value")
                .filter(|d| d.ty == t && (d.splat || d.bits.len() >= n))
                .map(|d| {
                    (0..n)
                        .map(|i| {
                            let bits = strata_ir::dense::element_bits(ctx, d, i)
                                .first()
                                .copied()
                                .unwrap_or(0);
                            strata_ir::dense::int_value(ctx, bits, elem) as i64
                        })
                        .collect()
                }),
            GET_DIMENSION_SIZE => {
                let of = operands.first().map(|&v| shape(ctx, v)).unwrap_or_default();
                crate::ops::misc::size_dimension(ctx, op)
                    .and_then(|d| of.get(d).copied())
                    .filter(|&d| d >= 0)
                    .map(|d| vec![d])
            }
            CONVERT | RESHAPE | BITCAST_CONVERT
                if operands
                    .first()
                    .is_some_and(|&v| ctx.types.is_int(ctx.types.elem(ctx.value_ty(v)))) =>
            {
                arg(0).cloned().filter(|v| v.len() == n)
            }
            BROADCAST_IN_DIM => arg(0).filter(|v| v.len() == 1).map(|v| vec![v[0]; n]),
            CONCATENATE => {
                let mut all = Vec::new();
                for i in 0..operands.len() {
                    all.extend(arg(i).cloned().unwrap_or_default());
                }
                (all.len() == n).then_some(all)
            }
            SELECT => match (arg(0), arg(1), arg(2)) {
                (Some(p), Some(a), Some(b)) => (0..n)
                    .map(|i| {
                        // A 0-d predicate selects whole operands.
                        let holds = p.get(i).or(p.first())?;
                        if *holds != 0 { a.get(i) } else { b.get(i) }.copied()
                    })
                    .collect(),
                _ => None,
            },
            // An element of a known vector picked by known indices (JAX
            // reads a dimension's size out of the shape vector this way).
            GATHER => match (arg(0), arg(1), crate::ops::gather::gather_dims(ctx, op)) {
                (Some(a), Some(idx), Some(g))
                    if shape(ctx, operands[0]).len() == 1
                        && g.collapsed_slice_dims == [0]
                        && g.start_index_map == [0]
                        && g.offset_dims.is_empty()
                        && g.operand_batching_dims.is_empty()
                        && ctx.i64_array(op, "slice_sizes").as_deref() == Some(&[1])
                        && idx.len() == n
                        && !a.is_empty() =>
                {
                    // Start indices are clamped into the operand.
                    let last = a.len() as i64 - 1;
                    Some(idx.iter().map(|&i| a[i.clamp(0, last) as usize]).collect())
                }
                _ => None,
            },
            COMPARE => match (arg(0), arg(1), ctx.str_attr(op, "comparison_direction")) {
                (Some(a), Some(b), Some(dir)) => compare(a, b, dir),
                _ => None,
            },
            name => match (arg(0), arg(1)) {
                (Some(a), Some(b)) if a.len() == n && b.len() == n => binary(name, a, b),
                (Some(a), None) if a.len() == n && name == NEGATE => {
                    Some(a.iter().map(|x| x.wrapping_neg()).collect())
                }
                (Some(a), None) if a.len() == n && name == SIGN => {
                    Some(a.iter().map(|x| x.signum()).collect())
                }
                _ => None,
            },
        };
        if let Some(v) = value {
            self.known.insert(r, v);
        }
    }
}

/// Elements of a slice from `start` to `limit` by `stride` (saturating: the
/// operands are the model's).
fn slice_size(start: i64, limit: i64, stride: i64) -> i64 {
    let stride = stride.max(1);
    limit
        .saturating_sub(start)
        .saturating_add(stride - 1)
        .max(0)
        / stride
}

fn binary(name: &str, a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| match name {
            ADD => x.checked_add(y),
            SUBTRACT => x.checked_sub(y),
            MULTIPLY => x.checked_mul(y),
            DIVIDE => x.checked_div(y),
            REMAINDER => x.checked_rem(y),
            MAXIMUM => Some(x.max(y)),
            MINIMUM => Some(x.min(y)),
            AND => Some(x & y),
            OR => Some(x | y),
            _ => None,
        })
        .collect()
}

fn compare(a: &[i64], b: &[i64], dir: &str) -> Option<Vec<i64>> {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| {
            let holds = match dir {
                "EQ" => x == y,
                "NE" => x != y,
                "LT" => x < y,
                "LE" => x <= y,
                "GT" => x > y,
                "GE" => x >= y,
                _ => return None,
            };
            Some(i64::from(holds))
        })
        .collect()
}
