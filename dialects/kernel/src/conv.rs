//! `kernel.conv`: a convolution computed as im2col + one GEMM per image
//! (or one batched GEMM); a grouped one (`feature_group_count` G, at least
//! `MIN_GROUP_FEATURES` input features per group) as one GEMM batched over
//! its groups, group g's patches and kernel columns blocks of their own.
//! It keeps the convolution's attributes and adds the kernel selection's
//! choices: `columns`, the order of the K columns
//! (the kernel's input feature as -1, its spatial dimension `d` as `d`),
//! and `kernel_in_place = array<i64: row, col>` when the GEMM reads the
//! kernel's own buffer as its K x N matrix with those strides (HWIO: the
//! matrix as stored, OIHW: its transpose) instead of a copy packed per call.
//!
//! ```text
//! %r = "kernel.conv"(%x, %w) {..the convolution's attributes..,
//!        columns = array<i64: 0, 1, -1>, kernel_in_place = array<i64: 32, 1>}
//!      : (tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32>
//! ```

use strata_diag::Result;
use strata_dialect_xla::ops::conv::{Conv, conv, verify_convolution};
use strata_ir::{Attr, AttrKind, Context, FloatKind, OpId, TypeKind, row_major_strides};

/// Fewest input features per group for a grouped convolution to take the
/// im2col + GEMM path (measured on 4x28x28x128, 3x3: the loop nest takes
/// 0.08 ms with 1 feature per group and 0.76 ms with 2; im2col + GEMM
/// 0.65 ms with 32 features per group, where the loop nest took 49 ms).
pub const MIN_GROUP_FEATURES: i64 = 4;

/// A dimension of the K columns (of the patches and of the kernel matrix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    InputFeature,
    /// The kernel's spatial dimension `d` (in window order).
    Spatial(usize),
}

impl Column {
    fn code(self) -> i64 {
        match self {
            Column::InputFeature => -1,
            Column::Spatial(d) => d as i64,
        }
    }
}

/// How a convolution maps onto GEMMs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GemmPlan {
    /// The result's element type (f32 or f64).
    pub kind: FloatKind,
    /// The element types of the GEMM (the result's, or bf16 to f32).
    pub elements: crate::gemm::Elements,
    /// Output positions per image (product of the output's spatial sizes).
    pub m: i64,
    /// Input features (of one group) times kernel positions.
    pub k: i64,
    /// Output features (of one group).
    pub n: i64,
    /// Feature groups: group g multiplies its own patches (input features
    /// [g·C/G, (g+1)·C/G)) by its own kernel columns (output features
    /// [g·n, (g+1)·n)), one product of a batched GEMM each.
    pub groups: i64,
    pub batch: i64,
    /// Strides of the result between images, between consecutive output
    /// positions (the innermost spatial dimension) and features.
    pub out_batch_stride: i64,
    pub out_position_stride: i64,
    pub out_feature_stride: i64,
    /// The K columns' dimensions, outermost first.
    pub columns: Vec<Column>,
    /// The kernel matrix's (row, column) strides in the kernel's buffer
    /// when it is read in place; None: packed per call.
    pub kernel_in_place: Option<[i64; 2]>,
    /// Rows of the outermost output spatial dimension per block of output
    /// positions when each block's patches are packed and multiplied on
    /// their own, blocks split between threads ([`position_block`]);
    /// None: one patch matrix per image (or for all images).
    pub position_block: Option<i64>,
}

impl GemmPlan {
    /// Whether each image's result is one block of memory (batch outermost,
    /// as in NCHW and NHWC), so images can be multiplied one at a time.
    pub fn per_image(&self, result_elements: i64) -> bool {
        self.batch > 0 && self.out_batch_stride * self.batch == result_elements
    }
}

/// Bytes of patches a block of output positions packs at most: they stay
/// in the core's L2 cache until the GEMM reads them.
pub const POSITION_BLOCK_BYTES: i64 = 256 << 10;

/// Most output features (of one group) for which f32 patches are packed
/// block by block: the products the runtime's few-columns kernel takes
/// ([`strata_abi::GEMM_FEW_COLUMNS_MAX`]). Such a product reads each patch
/// once (two flops per element per column), so a patch matrix written to
/// memory and read back is its whole cost: a 3x3 convolution from 32
/// features to 3 on 4 x 128 x 128 (19 MB of patches per image) took 2.4x
/// XLA:CPU's time.
pub const BLOCKED_MAX_FEATURES: i64 = strata_abi::GEMM_FEW_COLUMNS_MAX as i64;

fn shape_of(ctx: &Context, v: strata_ir::Value) -> Vec<i64> {
    ctx.types.shape(ctx.value_ty(v)).unwrap_or(&[]).to_vec()
}

/// The GEMM form of convolution `op` (an `xla.convolution` or a
/// `kernel.conv`), with the K columns in the order that lets the GEMM read
/// the kernel in place when one does; None when it has none: elements
/// other than f32/f64, feature or batch groups, output spatial dimensions
/// that are not one run of memory, tiny products (the loop nest is
/// cheaper), patch matrices over 2^28 elements.
pub fn gemm_plan(ctx: &Context, op: OpId) -> Option<GemmPlan> {
    let (lhs, rhs) = (
        *ctx.op(op).operands().first()?,
        *ctx.op(op).operands().get(1)?,
    );
    let result = *ctx.op(op).results.first()?;
    let kind = match ctx.types.kind(ctx.types.elem(ctx.value_ty(result))) {
        TypeKind::Float(k @ (FloatKind::F32 | FloatKind::F64)) => *k,
        _ => return None,
    };
    let operands = match ctx.types.kind(ctx.types.elem(ctx.value_ty(lhs))) {
        TypeKind::Float(k) => *k,
        _ => return None,
    };
    // Operands of the result's type, or bf16 ones summed in f32: what a
    // GEMM kernel takes.
    let elements = crate::gemm::Elements::of_floats(operands, kind)?;
    if ctx.types.elem(ctx.value_ty(lhs)) != ctx.types.elem(ctx.value_ty(rhs)) {
        return None;
    }
    let c = conv(ctx, op)?;
    if c.feature_groups < 1 || c.batch_groups != 1 {
        return None;
    }
    let (ls, rs, os) = (
        shape_of(ctx, lhs),
        shape_of(ctx, rhs),
        shape_of(ctx, result),
    );
    let ost = row_major_strides(&os);
    // The output's spatial dimensions, in window order, must form one run of
    // memory: each stride equals the next one's stride times its size.
    let spatial = &c.output_spatial;
    if !spatial
        .windows(2)
        .all(|w| ost[w[0]] == ost[w[1]] * os[w[1]])
    {
        return None;
    }
    let m: i64 = spatial.iter().map(|&d| os[d]).product();
    let kpos: i64 = c.kernel_spatial.iter().map(|&d| rs[d]).product();
    let (columns, kernel_in_place) = kernel_columns(&c, &rs);
    let mut plan = GemmPlan {
        kind,
        elements,
        m,
        k: rs[c.kernel_input_feature] * kpos,
        n: rs[c.kernel_output_feature] / c.feature_groups,
        groups: c.feature_groups,
        batch: ls[c.input_batch],
        out_batch_stride: ost[c.output_batch],
        out_position_stride: spatial.last().map_or(0, |&d| ost[d]),
        out_feature_stride: ost[c.output_feature],
        columns,
        kernel_in_place,
        position_block: None,
    };
    let elem_bytes = i64::from(operands.width() / 8);
    let rows = spatial.first().map_or(1, |&d| os[d]);
    plan.position_block = position_block(&plan, rows, elem_bytes, os.iter().product());
    let patch = plan.batch * plan.groups * plan.m * plan.k;
    let work = plan.groups * plan.m * plan.n * plan.k;
    // Depthwise convolutions (one input feature per group) stay loop
    // nests: a GEMM of one or a few columns per group is slower than the
    // loop, which vectorizes over the features.
    let wide_groups = plan.groups == 1 || rs[c.kernel_input_feature] >= MIN_GROUP_FEATURES;
    (work >= 4096 && patch <= 1 << 28 && wide_groups).then_some(plan)
}

/// The rows (of `rows`, the outermost output spatial dimension) per block
/// of output positions when packing block by block pays
/// ([`BLOCKED_MAX_FEATURES`]): the most whole rows whose patches fit in
/// [`POSITION_BLOCK_BYTES`], dividing `rows` (every block is the same
/// product), at least one.
fn position_block(
    plan: &GemmPlan,
    rows: i64,
    elem_bytes: i64,
    result_elements: i64,
) -> Option<i64> {
    let row_bytes = (plan.m / rows.max(1)) * plan.k * elem_bytes;
    let blocked = plan.groups == 1
        && plan.elements == crate::gemm::Elements::F32
        && plan.n <= BLOCKED_MAX_FEATURES
        && plan.per_image(result_elements)
        && rows > 1
        && row_bytes * rows > POSITION_BLOCK_BYTES;
    blocked.then(|| {
        (1..=rows)
            .rev()
            .find(|&r| rows % r == 0 && r * row_bytes <= POSITION_BLOCK_BYTES)
            .unwrap_or(1)
    })
}

/// The K columns' dimensions and, when the kernel already holds its
/// matrix, its strides: the order is the kernel's layout (outermost first)
/// when that order reads the kernel in place ([`in_place_strides`]);
/// (input feature, spatial dimensions) otherwise, packed.
fn kernel_columns(c: &Conv, rs: &[i64]) -> (Vec<Column>, Option<[i64; 2]>) {
    let packed: Vec<Column> = std::iter::once(Column::InputFeature)
        .chain((0..c.kernel_spatial.len()).map(Column::Spatial))
        .collect();
    let kst = row_major_strides(rs);
    let mut by_layout = packed.clone();
    by_layout.sort_by_key(|&col| std::cmp::Reverse(kst[kernel_dim(c, col)]));
    match in_place_strides(c, rs, &by_layout) {
        Some(strides) => (by_layout, Some(strides)),
        None => (packed, None),
    }
}

/// The kernel dimension a K column stands for.
fn kernel_dim(c: &Conv, col: Column) -> usize {
    match col {
        Column::InputFeature => c.kernel_input_feature,
        Column::Spatial(d) => c.kernel_spatial[d],
    }
}

/// The kernel matrix's strides when `columns`, in that order, form one run
/// of memory in the kernel (dimensions of size 1 take no part) and no
/// window is reversed.
fn in_place_strides(c: &Conv, rs: &[i64], columns: &[Column]) -> Option<[i64; 2]> {
    let kst = row_major_strides(rs);
    let run: Vec<usize> = columns
        .iter()
        .map(|&col| kernel_dim(c, col))
        .filter(|&d| rs[d] != 1)
        .collect();
    let merges = run.windows(2).all(|w| kst[w[0]] == kst[w[1]] * rs[w[1]]);
    (merges && !c.reversal.iter().any(|&r| r)).then(|| {
        [
            run.last().map_or(1, |&d| kst[d]),
            kst[c.kernel_output_feature],
        ]
    })
}

/// The choice's attributes (`columns`, and `kernel_in_place` and
/// `position_block` if any).
pub fn attrs(ctx: &mut Context, plan: &GemmPlan) -> Vec<(String, Attr)> {
    let elem = ctx.types.int_ty(64);
    let mut out = vec![(
        "columns".to_string(),
        ctx.attr(AttrKind::DenseArray {
            elem,
            values: plan.columns.iter().map(|c| c.code()).collect(),
        }),
    )];
    if let Some(s) = plan.kernel_in_place {
        out.push((
            "kernel_in_place".to_string(),
            ctx.attr(AttrKind::DenseArray {
                elem,
                values: s.to_vec(),
            }),
        ));
    }
    if let Some(rows) = plan.position_block {
        let value = ctx.attr(AttrKind::Int {
            value: i128::from(rows),
            ty: elem,
        });
        out.push(("position_block".to_string(), value));
    }
    out
}

/// The plan a `kernel.conv` states: its convolution's, with the columns
/// and in-place choice its attributes say (None when malformed).
pub fn plan(ctx: &Context, op: OpId) -> Option<GemmPlan> {
    let mut plan = gemm_plan(ctx, op)?;
    let c = conv(ctx, op)?;
    let n = c.kernel_spatial.len();
    let columns: Vec<Column> = ctx
        .i64_array(op, "columns")?
        .into_iter()
        .map(|v| match v {
            -1 => Some(Column::InputFeature),
            d if d >= 0 && (d as usize) < n => Some(Column::Spatial(d as usize)),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let mut seen = columns.clone();
    seen.sort_by_key(|c| c.code());
    seen.dedup();
    if seen.len() != n + 1 || columns.len() != n + 1 {
        return None;
    }
    let rs = shape_of(ctx, ctx.op(op).operands()[1]);
    plan.kernel_in_place = match ctx.i64_array(op, "kernel_in_place") {
        None => None,
        Some(given) => {
            let strides = in_place_strides(&c, &rs, &columns)?;
            if given != strides {
                return None;
            }
            Some(strides)
        }
    };
    plan.columns = columns;
    plan.position_block = match ctx.int_attr(op, "position_block") {
        None => None,
        Some(rows) => Some(valid_position_block(ctx, op, &plan, rows)?),
    };
    Some(plan)
}

/// A `position_block` that blocks the result's positions exactly: a
/// positive divisor of the outermost output spatial dimension, of an
/// ungrouped convolution whose images are blocks of memory.
fn valid_position_block(ctx: &Context, op: OpId, plan: &GemmPlan, given: i128) -> Option<i64> {
    let rows_per_block = i64::try_from(given).ok()?;
    let os = shape_of(ctx, *ctx.op(op).results.first()?);
    let rows = os[*conv(ctx, op)?.output_spatial.first()?];
    let exact = rows_per_block >= 1 && rows % rows_per_block == 0;
    let per_image = plan.per_image(os.iter().product());
    (exact && per_image && plan.groups == 1).then_some(rows_per_block)
}

/// A valid convolution (xla's verifier) that has a GEMM form, whose
/// `columns` are its K dimensions once each and whose `kernel_in_place`,
/// if given, is where that order of columns lies in the kernel's buffer:
/// a wrong one would make the GEMM read outside the kernel.
pub fn verify(ctx: &Context, op: OpId) -> Result<()> {
    verify_convolution(ctx, op)?;
    if gemm_plan(ctx, op).is_none() {
        return Err(ctx.error(
            op,
            "is not a convolution im2col + GEMM computes (f32/f64, or bf16 to f32; no batch groups, feature groups of at least 4 features; the output's spatial dimensions one run)",
        ));
    }
    if plan(ctx, op).is_none() {
        return Err(ctx.error(
            op,
            "has malformed 'columns', a 'kernel_in_place' that is not where those columns lie in the kernel, or a 'position_block' that does not divide the outermost output spatial dimension of an ungrouped convolution with images outermost",
        ));
    }
    Ok(())
}
