//! `xla.convolution`.

use strata_diag::Result;
use strata_ir::{Context, OpId};

use crate::parse;
use crate::util::*;
use names::*;
use strata_ir::text::parser::MAX_ELEMENTS;
use strata_ir::{OpDef, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    pub const CONVOLUTION: &str = "xla.convolution";
}

/// Dimension numbers and window of a convolution, with StableHLO's defaults.
#[derive(Clone, Debug)]
pub struct Conv {
    pub input_batch: usize,
    pub input_feature: usize,
    pub input_spatial: Vec<usize>,
    pub kernel_input_feature: usize,
    pub kernel_output_feature: usize,
    pub kernel_spatial: Vec<usize>,
    pub output_batch: usize,
    pub output_feature: usize,
    pub output_spatial: Vec<usize>,
    pub strides: Vec<i64>,
    /// (low, high) per spatial dimension.
    pub padding: Vec<(i64, i64)>,
    pub lhs_dilation: Vec<i64>,
    pub rhs_dilation: Vec<i64>,
    pub reversal: Vec<bool>,
    pub feature_groups: i64,
    pub batch_groups: i64,
}

pub fn conv(ctx: &Context, op: OpId) -> Option<Conv> {
    let f = fields(ctx, op, "dimension_numbers")?;
    let one = |n: &str| get(&f, n).first().map(|&v| v as usize);
    let many = |n: &str| get(&f, n).iter().map(|&v| v as usize).collect::<Vec<_>>();
    let spatial = many("input_spatial_dimensions");
    let n = spatial.len();
    let list_or = |name: &str, d: i64| ctx.i64_array(op, name).unwrap_or_else(|| vec![d; n]);
    let padding = padding_pairs(ctx, op, n)?;
    Some(Conv {
        input_batch: one("input_batch_dimension")?,
        input_feature: one("input_feature_dimension")?,
        input_spatial: spatial,
        kernel_input_feature: one("kernel_input_feature_dimension")?,
        kernel_output_feature: one("kernel_output_feature_dimension")?,
        kernel_spatial: many("kernel_spatial_dimensions"),
        output_batch: one("output_batch_dimension")?,
        output_feature: one("output_feature_dimension")?,
        output_spatial: many("output_spatial_dimensions"),
        strides: list_or("window_strides", 1),
        padding,
        lhs_dilation: list_or("lhs_dilation", 1),
        rhs_dilation: list_or("rhs_dilation", 1),
        reversal: list_or("window_reversal", 0)
            .iter()
            .map(|&v| v != 0)
            .collect(),
        feature_groups: ctx.int_attr(op, "feature_group_count").unwrap_or(1) as i64,
        batch_groups: ctx.int_attr(op, "batch_group_count").unwrap_or(1) as i64,
    })
}

impl Conv {
    /// Output size of spatial dimension `d`, or None when it overflows
    /// (the attributes are checked against 2^48 first, so it cannot with
    /// verified attributes; i128 keeps the arithmetic exact regardless).
    pub fn spatial_size(&self, d: usize, input: i64, kernel: i64) -> Option<i64> {
        let (input, kernel) = (input as i128, kernel as i128);
        let dilated_input = if input == 0 {
            0
        } else {
            (input - 1) * self.lhs_dilation[d] as i128 + 1
        };
        let padded = dilated_input + self.padding[d].0 as i128 + self.padding[d].1 as i128;
        let window = if kernel == 0 {
            0
        } else {
            (kernel - 1) * self.rhs_dilation[d] as i128 + 1
        };
        let stride = self.strides[d] as i128;
        let size = if padded < window || stride <= 0 {
            0
        } else {
            (padded - window) / stride + 1
        };
        i64::try_from(size).ok()
    }
}

/// The result shape of convolution `c` of an lhs of shape `ls` by a kernel
/// of shape `rs` (dimension numbers, windows and groups already checked),
/// or the spatial dimension that would exceed 2^48 elements.
pub fn result_shape(c: &Conv, ls: &[i64], rs: &[i64]) -> std::result::Result<Vec<i64>, usize> {
    let n = c.input_spatial.len();
    let mut out = vec![0; n + 2];
    out[c.output_batch] = ls[c.input_batch] / c.batch_groups.max(1);
    out[c.output_feature] = rs[c.kernel_output_feature];
    for d in 0..n {
        let size = c
            .spatial_size(d, ls[c.input_spatial[d]], rs[c.kernel_spatial[d]])
            .filter(|&s| s <= MAX_ELEMENTS)
            .ok_or(d)?;
        out[c.output_spatial[d]] = size;
    }
    Ok(out)
}

pub fn verify_convolution(ctx: &Context, op: OpId) -> Result<()> {
    let (ls, le) = operand_tensor(ctx, op, 0)?;
    let (rs, re) = operand_tensor(ctx, op, 1)?;
    if le != re {
        return Err(ctx.error(op, "lhs and rhs must have the same element type"));
    }
    let c = conv(ctx, op).ok_or_else(|| {
        ctx.error(
            op,
            "requires dimension_numbers (#stablehlo.conv<...>) and a valid padding",
        )
    })?;
    let n = c.input_spatial.len();
    let (rank, out_rank) = (ls.len(), n + 2);
    let lhs_dims: Vec<usize> = [c.input_batch, c.input_feature]
        .into_iter()
        .chain(c.input_spatial.iter().copied())
        .collect();
    let rhs_dims: Vec<usize> = [c.kernel_input_feature, c.kernel_output_feature]
        .into_iter()
        .chain(c.kernel_spatial.iter().copied())
        .collect();
    let out_dims: Vec<usize> = [c.output_batch, c.output_feature]
        .into_iter()
        .chain(c.output_spatial.iter().copied())
        .collect();
    let shapes_fit = rank == out_rank
        && rs.len() == out_rank
        && c.kernel_spatial.len() == n
        && c.output_spatial.len() == n;
    if !shapes_fit
        || !is_permutation(&lhs_dims, rank)
        || !is_permutation(&rhs_dims, rs.len())
        || !is_permutation(&out_dims, out_rank)
    {
        return Err(ctx.error(
            op,
            "dimension numbers must name every dimension of lhs, rhs and result once",
        ));
    }
    check_window_lists(
        ctx,
        op,
        n,
        &[
            ("window_strides", &c.strides),
            ("lhs_dilation", &c.lhs_dilation),
            ("rhs_dilation", &c.rhs_dilation),
        ],
    )?;
    if c.reversal.len() != n || c.padding.len() != n {
        return Err(ctx.error(
            op,
            format!("window_reversal and padding must have {n} entries"),
        ));
    }
    if c.padding.iter().any(|&(l, h)| {
        l.unsigned_abs() > MAX_ELEMENTS as u64 || h.unsigned_abs() > MAX_ELEMENTS as u64
    }) {
        return Err(ctx.error(op, "padding entries must lie in [-2^48, 2^48]"));
    }
    let (g, bg) = (c.feature_groups, c.batch_groups);
    if g <= 0 || bg <= 0 {
        return Err(ctx.error(
            op,
            "feature_group_count and batch_group_count must be positive",
        ));
    }
    let (batch, feat) = (ls[c.input_batch], ls[c.input_feature]);
    let (kin, kout) = (rs[c.kernel_input_feature], rs[c.kernel_output_feature]);
    if feat != kin * g || kout % g != 0 || batch % bg != 0 || kout % bg != 0 {
        return Err(ctx.error(
            op,
            format!("feature sizes do not fit the groups: lhs features {feat}, kernel input features {kin}, output features {kout}, feature_group_count {g}, batch_group_count {bg}"),
        ));
    }
    let out = result_shape(&c, &ls, &rs).map_err(|d| {
        ctx.error(
            op,
            format!("spatial dimension {d} of the result would exceed 2^48 elements"),
        )
    })?;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    if rshape != out {
        return Err(ctx.error(
            op,
            format!(
                "inferred shape {} does not match result shape {}",
                list(&out),
                list(&rshape)
            ),
        ));
    }
    let _ = relem;
    Ok(())
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
pub(crate) fn register(r: &mut Registry) {
    let pure = Traits::PURE;
    r.add(
        OpDef::new(CONVOLUTION, pure)
            .counts(2, 1)
            .verifier(verify_convolution)
            .parser(parse::parse_convolution),
    );
    r.add_attr_parser("stablehlo.conv", parse::parse_conv_dims_attr);
}
