//! Batch axes: which dimension of each value of a shape-polymorphic program
//! is its dimension variable `b`, and a proof that the program treats the
//! rows along it independently — so that one library can run any `b` as
//! chunks of sizes compiled ahead of time (`strata compile` without
//! `--dim`).
//!
//! The program is refined for two sizes of `b` ([`SAMPLE_SIZES`]); the two
//! results are the same ops with the same attributes, except that values
//! have the first size where the second has the other. Comparing them
//! value by value gives each value's batch axis: an axis of size `m*b` for
//! a whole `m` (`b`, a `2*b` argument, `(b, T, D)` reshaped to `(b*T, D)`),
//! each row's `m` entries consecutive; any other function of `b` (`b+1`)
//! is refused. Then every op that
//! touches a batched value is checked against its semantics: row `i` of
//! each result may depend only on row `i` of batched operands and on
//! unbatched ones. Element-wise ops, broadcasts, reshapes and transposes
//! that keep the axis, dots and convolutions with `b` as a batch or free
//! dimension, reductions, sorts and windows along other axes, and gathers
//! from an unbatched table do; a reduction over `b`, an iota along it, `b`
//! used as data, a random-number op or custom call on batched values, or
//! anything not known to keep rows apart is a located error.

use std::collections::HashMap;

use strata_diag::{Diagnostic, Result};
use strata_ir::{BlockId, Context, OpId, Value, builtin};

use crate::names::*;

pub mod cost;
mod indexing;

/// The two sizes the program is refined for: primes unlikely to be any
/// other dimension, large enough that thresholds (`min(b, 512)`) show.
pub const SAMPLE_SIZES: (i64, i64) = (1031, 1033);

/// The batch axis of each argument and result of one public function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionAxes {
    pub name: String,
    pub args: Vec<Option<usize>>,
    pub results: Vec<Option<usize>>,
}

/// Batch axes of the values of `small` (the program refined for
/// `sizes.0`), found by comparing it with `large` (the same program refined
/// for `sizes.1`), and checked op by op. `var` names the variable in
/// errors.
pub fn batch_axes(
    ctx: &Context,
    small: OpId,
    large: OpId,
    sizes: (i64, i64),
    var: &str,
) -> Result<Vec<FunctionAxes>> {
    let mut axes = Axes {
        of: HashMap::new(),
        factor: HashMap::new(),
        sizes,
        var,
    };
    axes.compare(ctx, small, large)?;
    let mut ops = Vec::new();
    ctx.walk_nested(small, &mut |o| ops.push(o));
    for &op in &ops {
        axes.check(ctx, op).map_err(|why| {
            ctx.error(
                op,
                format!(
                    "does not keep the rows along dimension variable {var} apart ({why}): one \
                     library for every {var} cannot be made; compile for one size with --dim {var}=N"
                ),
            )
        })?;
    }
    let mut functions = Vec::new();
    for f in builtin::defined_funcs(ctx, small) {
        if builtin::is_private(ctx, f) {
            continue;
        }
        let Some(entry) = ctx.entry_block(f, 0) else {
            continue;
        };
        let args = ctx.blocks[entry]
            .args
            .iter()
            .map(|a| axes.axis(*a))
            .collect();
        let results = terminator_operands(ctx, entry)
            .iter()
            .map(|v| axes.axis(*v))
            .collect();
        functions.push(FunctionAxes {
            name: builtin::func_name(ctx, f).unwrap_or("?").to_string(),
            args,
            results,
        });
    }
    Ok(functions)
}

struct Axes<'a> {
    /// The batch axis of each value of the small program that has one, and
    /// its factor: the axis holds `factor` consecutive entries per row of
    /// `b` (a `(b, T, D)` value reshaped to `(b*T, D)` has factor `T`).
    of: HashMap<Value, usize>,
    factor: HashMap<Value, i64>,
    sizes: (i64, i64),
    var: &'a str,
}

fn terminator_operands(ctx: &Context, block: BlockId) -> Vec<Value> {
    ctx.blocks[block]
        .ops
        .last()
        .map(|&t| ctx.op(t).operands().to_vec())
        .unwrap_or_default()
}

impl Axes<'_> {
    fn axis(&self, v: Value) -> Option<usize> {
        self.of.get(&v).copied()
    }

    /// Walks both programs side by side, recording batch axes.
    fn compare(&mut self, ctx: &Context, small: OpId, large: OpId) -> Result<()> {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        ctx.walk_nested(small, &mut |o| a.push(o));
        ctx.walk_nested(large, &mut |o| b.push(o));
        let var = self.var;
        let differ = |op: OpId, what: &str| {
            ctx.error(
                op,
                format!(
                    "{what} depends on dimension variable {var}: one library for every {var} cannot \
                     be made; compile for one size with --dim {var}=N"
                ),
            )
        };
        if a.len() != b.len() {
            return Err(Diagnostic::error(
                ctx.op(small).loc,
                format!(
                    "the program's structure depends on dimension variable {}: compile for one \
                     size with --dim {}=N",
                    self.var, self.var
                ),
            ));
        }
        for (&x, &y) in a.iter().zip(&b) {
            let (ox, oy) = (ctx.op(x), ctx.op(y));
            if ox.name != oy.name
                || ox.results.len() != oy.results.len()
                || ox.regions.len() != oy.regions.len()
            {
                return Err(differ(x, "the op at this place"));
            }
            for (&u, &v) in ox.results.iter().zip(&oy.results) {
                self.value(ctx, x, u, v)?;
            }
            for (&ru, &rv) in ox.regions.iter().zip(&oy.regions) {
                let (bu, bv) = (&ctx.regions[ru].blocks, &ctx.regions[rv].blocks);
                for (&bu, &bv) in bu.iter().zip(bv) {
                    let (au, av) = (&ctx.blocks[bu].args, &ctx.blocks[bv].args);
                    if au.len() != av.len() {
                        return Err(differ(x, "a region's arguments"));
                    }
                    for (&u, &v) in au.iter().zip(av) {
                        self.value(ctx, x, u, v)?;
                    }
                }
            }
            if let Some(name) = self.differing_attribute(ctx, x, y) {
                // A splat constant of a batched shape is checked below; a
                // constant whose value changes with the size is the size
                // used as data.
                let batched = ox.results.iter().any(|r| self.of.contains_key(r));
                if !tolerates_shape_attribute(ox.name, &name) || (ox.name == CONSTANT && !batched) {
                    return Err(differ(x, &format!("attribute '{name}'")));
                }
            }
        }
        Ok(())
    }

    /// The first attribute of `x` that `y` does not have alike (types and
    /// function types aside: the values' comparison covers them).
    fn differing_attribute(&self, ctx: &Context, x: OpId, y: OpId) -> Option<String> {
        let (ax, ay) = (&ctx.op(x).attrs, &ctx.op(y).attrs);
        if ax.len() != ay.len() {
            return Some("(attribute count)".into());
        }
        for ((n, a), (m, b)) in ax.iter().zip(ay) {
            if n != m {
                return Some(n.clone());
            }
            if a != b && n != "function_type" {
                return Some(n.clone());
            }
        }
        None
    }

    /// Records `u`'s batch axis from its types in the two programs.
    fn value(&mut self, ctx: &Context, op: OpId, u: Value, v: Value) -> Result<()> {
        let (tu, tv) = (ctx.value_ty(u), ctx.value_ty(v));
        if tu == tv {
            return Ok(());
        }
        let refuse = |what: String| {
            Err(ctx.error(
                op,
                format!(
                    "{what}: one library for every {} cannot be made; compile for one size with \
                     --dim {}=N",
                    self.var, self.var
                ),
            ))
        };
        let (Some(su), Some(sv)) = (ctx.types.shape(tu), ctx.types.shape(tv)) else {
            return refuse(format!("has a value whose type depends on {}", self.var));
        };
        if su.len() != sv.len() || ctx.types.elem(tu) != ctx.types.elem(tv) {
            return refuse(format!("has a value whose rank depends on {}", self.var));
        }
        let differing: Vec<usize> = (0..su.len()).filter(|&i| su[i] != sv[i]).collect();
        let (s1, s2) = self.sizes;
        // `m * b` for a whole m: the sizes of an affine m*b + c at two points
        // determine c = 0.
        let multiple = |a: i64, b: i64| a % s1 == 0 && b % s2 == 0 && a / s1 == b / s2;
        match differing.as_slice() {
            [k] if multiple(su[*k], sv[*k]) => {
                self.of.insert(u, *k);
                self.factor.insert(u, su[*k] / s1);
                Ok(())
            }
            [k] => refuse(format!(
                "has a dimension that is a function of {} other than a multiple of it (sizes {} \
                 and {} for {} = {} and {})",
                self.var, su[*k], sv[*k], self.var, self.sizes.0, self.sizes.1
            )),
            _ => refuse(format!(
                "has a value with {} dimensions that depend on {}",
                differing.len(),
                self.var
            )),
        }
    }

    /// Checks that `op` keeps rows apart; the reason when it does not.
    fn check(&self, ctx: &Context, op: OpId) -> std::result::Result<(), String> {
        let o = ctx.op(op);
        let ins: Vec<Option<usize>> = o.operands().iter().map(|&v| self.axis(v)).collect();
        let outs: Vec<Option<usize>> = o.results.iter().map(|&v| self.axis(v)).collect();
        let batched_region_args = o.regions.iter().any(|&r| {
            ctx.regions[r]
                .blocks
                .iter()
                .any(|&b| ctx.blocks[b].args.iter().any(|&a| self.axis(a).is_some()))
        });
        if ins.iter().chain(&outs).all(Option::is_none) && !batched_region_args {
            return Ok(());
        }
        // Rows of b hold the same number of entries along every batched
        // value of an op; only a reshape regroups them (checked below).
        if o.name != RESHAPE {
            let mut factors = o
                .operands()
                .iter()
                .chain(&o.results)
                .filter_map(|v| self.factor.get(v));
            if let Some(first) = factors.next()
                && factors.any(|f| f != first)
            {
                return Err(format!(
                    "values whose dimension {} is grouped differently",
                    self.var
                ));
            }
        }
        let shape = |v: Value| value_shape(ctx, v);
        let out = outs.first().copied().flatten();
        use crate::ops::{misc, reduce, shape as views};
        let same_as_result = || -> std::result::Result<(), String> {
            let rank = o.results.first().map(|&r| shape(r).len()).unwrap_or(0);
            for (i, &v) in o.operands().iter().enumerate() {
                let expected = if shape(v).len() == rank { out } else { None };
                if ins[i] != expected {
                    return Err(format!("operand {i} is not batched as its result"));
                }
            }
            Ok(())
        };
        let name = o.name;
        if is_elementwise(name) {
            return same_as_result();
        }
        match name {
            _ if name == builtin::RETURN || name == RETURN || name == builtin::FUNC => Ok(()),
            CONSTANT => match ctx.dense_attr(op, "value") {
                Some(d) if d.splat => Ok(()),
                _ => Err(format!("a constant with a dimension of size {}", self.var)),
            },
            BROADCAST_IN_DIM => match ins[0] {
                None => Ok(()),
                Some(k) => expect(
                    views::broadcast_dimensions(ctx, op).and_then(|d| d.get(k).copied()) == out,
                    "the batch dimension is broadcast to another",
                ),
            },
            RESHAPE => match (ins[0], out) {
                (Some(k), Some(j)) => {
                    let (a, r) = (shape(o.operands()[0]), shape(o.results[0]));
                    let before = |s: &[i64], n: usize| s[..n].iter().product::<i64>();
                    expect(
                        before(&a, k) == before(&r, j),
                        "the reshape mixes the batch dimension with others",
                    )
                }
                _ => Err("the reshape merges the batch dimension into, or splits it from, an unbatched value".into()),
            },
            TRANSPOSE => {
                let perm = views::permutation(ctx, op).unwrap_or_default();
                expect(
                    ins[0].is_some() && out.and_then(|j| perm.get(j)).copied() == ins[0],
                    "the batch dimension moves inconsistently",
                )
            }
            IOTA => expect(
                views::iota_dimension(ctx, op) != out,
                &format!("an iota along {}", self.var),
            ),
            REDUCE => {
                let n = o.operands().len() / 2;
                let dims = reduce::reduce_dimensions(ctx, op).unwrap_or_default();
                let k = ins[0];
                let ok = ins[..n].iter().all(|&a| a == k)
                    && ins[n..].iter().all(Option::is_none)
                    && match k {
                        Some(k) => {
                            !dims.contains(&k)
                                && outs.iter().all(|&r| {
                                    r == Some(k - dims.iter().filter(|&&d| d < k).count())
                                })
                        }
                        None => outs.iter().all(Option::is_none),
                    };
                expect(ok, &format!("a reduction over {}", self.var))
            }
            DOT_GENERAL => self.dot(ctx, op, &ins, out),
            CONVOLUTION => {
                let c = crate::ops::conv::conv(ctx, op).ok_or("unreadable dimension numbers")?;
                expect(
                    ins[1].is_none()
                        && c.batch_groups == 1
                        && ins[0] == Some(c.input_batch)
                        && out == Some(c.output_batch),
                    "the batch dimension is not the convolution's batch",
                )
            }
            SLICE => {
                let k = ins[0].ok_or("an unbatched slice with a batched result")?;
                let full = shape(o.operands()[0])[k];
                let b = views::slice_bounds(ctx, op).ok_or("unreadable bounds")?;
                expect(
                    out == Some(k)
                        && b.start.get(k) == Some(&0)
                        && b.limit.get(k) == Some(&full)
                        && b.strides.get(k).is_none_or(|&s| s == 1),
                    &format!("a slice along {}", self.var),
                )
            }
            PAD => {
                let k = ins[0].ok_or("padding an unbatched operand to a batched result")?;
                let p = views::padding(ctx, op).ok_or("unreadable padding")?;
                let zero = |n: &[i64]| n.get(k).is_none_or(|&p| p == 0);
                expect(
                    out == Some(k)
                        && ins[1].is_none()
                        && zero(&p.low)
                        && zero(&p.high)
                        && zero(&p.interior),
                    &format!("padding along {}", self.var),
                )
            }
            REVERSE => expect(
                ins[0] == out
                    && out.is_none_or(|k| {
                        !views::reverse_dimensions(ctx, op).unwrap_or_default().contains(&k)
                    }),
                &format!("a reverse along {}", self.var),
            ),
            CONCATENATE => expect(
                ins.iter().all(|&a| a == out)
                    && out.is_some_and(|k| views::concatenate_dimension(ctx, op) != Some(k)),
                &format!("a concatenation along {}", self.var),
            ),
            SORT => expect(
                ins.iter().chain(&outs).all(|&a| a == out)
                    && out.is_some_and(|k| misc::sort_dimension(ctx, op) != Some(k)),
                &format!("a sort along {}", self.var),
            ),
            // The k largest of each row along the last dimension.
            TOP_K => {
                let rank = shape(o.operands()[0]).len();
                expect(
                    outs.iter().all(|&a| a == ins[0]) && ins[0].is_some_and(|k| k + 1 < rank),
                    &format!("a top_k along {}", self.var),
                )
            }
            REDUCE_WINDOW => self.reduce_window(ctx, op, &ins, &outs),
            DYNAMIC_SLICE | DYNAMIC_UPDATE_SLICE => self.dynamic_slice(ctx, op, &ins, out),
            GATHER => self.gather(ctx, op, &ins, out),
            SCATTER => self.scatter(ctx, op, &ins, &outs),
            WHILE | OPTIMIZATION_BARRIER => {
                let args_alike = o.regions.iter().all(|&r| {
                    ctx.regions[r].blocks.iter().all(|&b| {
                        ctx.blocks[b]
                            .args
                            .iter()
                            .map(|&a| self.axis(a))
                            .eq(ins.iter().copied())
                    })
                });
                expect(
                    ins == outs && args_alike,
                    "a loop carries values whose batch dimension changes",
                )?;
                self.regions_return(ctx, op, &outs, name == WHILE)
            }
            IF | CASE => {
                expect(
                    ins.first() == Some(&None),
                    &format!("a branch chosen by {}", self.var),
                )?;
                self.regions_return(ctx, op, &outs, false)
            }
            // Batched matrix operations: the batch a leading (batch)
            // dimension of every operand and result.
            CHOLESKY | TRIANGULAR_SOLVE | LU | HOUSEHOLDER_QR | HOUSEHOLDER_PRODUCT | EIGH | SVD
            | EIG | HESSENBERG | TRIDIAGONAL | TRIDIAGONAL_SOLVE => {
                let rank = shape(o.operands()[0]).len();
                expect(
                    ins.iter().chain(&outs).all(|&a| a == out) && out.is_some_and(|k| k + 2 < rank),
                    "the batch dimension is a matrix dimension",
                )
            }
            FFT => {
                let rank = shape(o.operands()[0]).len();
                let n = misc::fft_lengths(ctx, op).unwrap_or_default().len();
                expect(
                    ins[0] == out && out.is_some_and(|k| k + n < rank),
                    &format!("a Fourier transform along {}", self.var),
                )
            }
            _ => Err(format!(
                "'{name}' is not known to keep the rows of a batched operand apart"
            )),
        }
    }

    fn dot(
        &self,
        ctx: &Context,
        op: OpId,
        ins: &[Option<usize>],
        out: Option<usize>,
    ) -> std::result::Result<(), String> {
        let d = crate::ops::dot::dot_dims(ctx, op).ok_or("unreadable dimension numbers")?;
        let rank = |i: usize| value_shape(ctx, ctx.op(op).operands()[i]).len();
        let free_l = crate::ops::dot::free_dims(rank(0), &d.lhs_batch, &d.lhs_contract);
        let free_r = crate::ops::dot::free_dims(rank(1), &d.rhs_batch, &d.rhs_contract);
        let pos = |list: &[i64], k: usize| list.iter().position(|&x| x == k as i64);
        let expected = match (ins[0], ins[1]) {
            (Some(l), Some(r)) => match (pos(&d.lhs_batch, l), pos(&d.rhs_batch, r)) {
                (Some(i), Some(j)) if i == j => Some(i),
                _ => {
                    return Err(format!(
                        "a product that pairs rows of {} with other rows",
                        self.var
                    ));
                }
            },
            (Some(l), None) => Some(
                d.lhs_batch.len()
                    + free_l
                        .iter()
                        .position(|&f| f == l)
                        .ok_or(format!("a contraction over {}", self.var))?,
            ),
            (None, Some(r)) => Some(
                d.lhs_batch.len()
                    + free_l.len()
                    + free_r
                        .iter()
                        .position(|&f| f == r)
                        .ok_or(format!("a contraction over {}", self.var))?,
            ),
            (None, None) => None,
        };
        expect(expected == out, "the product's result is batched elsewhere")
    }

    fn reduce_window(
        &self,
        ctx: &Context,
        op: OpId,
        ins: &[Option<usize>],
        outs: &[Option<usize>],
    ) -> std::result::Result<(), String> {
        let n = ins.len() / 2;
        let k = ins[0].ok_or("a window over unbatched operands with batched results")?;
        let rank = value_shape(ctx, ctx.op(op).operands()[0]).len();
        let w = crate::ops::reduce::window(ctx, op, rank).ok_or("unreadable window")?;
        let one = |v: &[i64]| v.get(k).is_none_or(|&x| x == 1);
        expect(
            ins[..n].iter().chain(outs).all(|&a| a == Some(k))
                && ins[n..].iter().all(Option::is_none)
                && one(&w.dims)
                && one(&w.strides)
                && one(&w.base_dilations)
                && one(&w.window_dilations)
                && w.padding.get(k) == Some(&(0, 0)),
            &format!("a window along {}", self.var),
        )
    }

    /// Each region's terminator returns values batched as `outs` (a while
    /// loop's condition returns an unbatched predicate).
    fn regions_return(
        &self,
        ctx: &Context,
        op: OpId,
        outs: &[Option<usize>],
        is_while: bool,
    ) -> std::result::Result<(), String> {
        for (i, &r) in ctx.op(op).regions.iter().enumerate() {
            for &b in &ctx.regions[r].blocks {
                let returned: Vec<Option<usize>> = terminator_operands(ctx, b)
                    .iter()
                    .map(|&v| self.axis(v))
                    .collect();
                let ok = if is_while && i == 0 {
                    returned.iter().all(Option::is_none)
                } else {
                    returned == outs
                };
                if !ok {
                    return Err(if is_while && i == 0 {
                        format!("a loop whose condition depends on the rows of {}", self.var)
                    } else {
                        "a region returns values batched otherwise than the op's results".into()
                    });
                }
            }
        }
        Ok(())
    }
}

/// The shape of `v` (empty for a scalar or a non-tensor).
fn value_shape(ctx: &Context, v: Value) -> Vec<i64> {
    ctx.types
        .shape(ctx.value_ty(v))
        .map(<[i64]>::to_vec)
        .unwrap_or_default()
}

fn expect(ok: bool, why: &str) -> std::result::Result<(), String> {
    if ok { Ok(()) } else { Err(why.to_string()) }
}

/// Shape attributes that legitimately differ between the two sizes: they
/// are checked by the op's rule (a gather's slice along the batch must be
/// whole; along other dimensions a size that changes changes the result's
/// shape there, which the comparison refuses).
fn tolerates_shape_attribute(op: &str, attr: &str) -> bool {
    matches!(
        (op, attr),
        (SLICE, "limit_indices")
            | (DYNAMIC_SLICE, "slice_sizes")
            | (GATHER, "slice_sizes")
            | (CONSTANT, "value")
    )
}

fn is_zero_constant(ctx: &Context, v: Value) -> bool {
    ctx.defining_op(v)
        .filter(|&d| ctx.op(d).name == CONSTANT)
        .and_then(|d| ctx.dense_attr(d, "value"))
        .is_some_and(|d| d.bits.iter().all(|&b| b == 0))
}

/// Ops computed per element from operand elements at the same index.
fn is_elementwise(name: &str) -> bool {
    UNARY_ELEMENTWISE.contains(&name)
        || BINARY_ELEMENTWISE.contains(&name)
        || FLOAT_PREDICATES.contains(&name)
        || matches!(
            name,
            COMPARE
                | SELECT
                | CLAMP
                | CONVERT
                | IS_FINITE
                | REAL
                | IMAG
                | COMPLEX
                | REDUCE_PRECISION
                | MAP
        )
}
