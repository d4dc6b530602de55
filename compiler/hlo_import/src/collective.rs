//! Collectives across replicas: `all-reduce`, `all-gather`,
//! `reduce-scatter`, `all-to-all`, `collective-permute`, `replica-id`,
//! `partition-id`. Device groups and channels take StableHLO's spelling.

use strata_diag::{Diagnostic, Result};
use strata_ir::{Attr, AttrKind, DenseElements};

use super::attrs::{delimited_ints, int_lists};
use super::import::{Importer, Inst, Val};
use super::lexer::Cursor;
use super::lexer::whole;
use super::reduce::with_region;
use strata_dialect_xla::names::*;
use strata_dialect_xla::util::is_permutation;

/// `dense<[[...], ...]> : tensor<RxCxi64>` (short rows padded with -1, as
/// StableHLO writes uneven replica groups).
fn int_matrix(imp: &mut Importer<'_>, rows: &[Vec<i64>]) -> Attr {
    let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let i64t = imp.ctx.types.int_ty(64);
    let ty = imp
        .ctx
        .types
        .tensor_ty(&[rows.len() as i64, width as i64], i64t);
    let bits = rows
        .iter()
        .flat_map(|r| (0..width).map(move |i| r.get(i).copied().unwrap_or(-1) as u64))
        .collect();
    imp.ctx.attr(AttrKind::Dense(DenseElements {
        ty,
        splat: false,
        bits,
    }))
}

/// `replica_groups={{0,1},{2,3}}` (`{}`: all devices in one group), or the
/// iota form newer XLA prints, `[2,2]<=[4]` or `[2,2]<=[2,2]T(1,0)`.
fn replica_groups(inst: &Inst<'_, '_>) -> Result<Vec<Vec<i64>>> {
    let Some(mut c) = inst.attrs.get("replica_groups") else {
        return Ok(Vec::new());
    };
    if c.starts_with("[") {
        whole(&mut c, iota_groups)
    } else {
        whole(&mut c, int_lists)
    }
}

/// The most devices an iota group list may name: the groups become a dense
/// attribute, so `[1,2^40]<=[2^40]` must not allocate terabytes.
const MAX_IOTA_DEVICES: i64 = 1 << 20;

/// `[G,S]<=[d0,d1,...]T(p0,p1,...)`: the device ids 0..d0*d1*... laid out
/// row-major in the shape `dims`, transposed by the permutation (identity
/// without `T`), then read in row-major order as G groups of S devices.
fn iota_groups(c: &mut Cursor<'_>) -> Result<Vec<Vec<i64>>> {
    let groups_loc = c.loc();
    let groups = delimited_ints(c, "[", "]")?;
    let &[count, size] = groups.as_slice() else {
        return Err(Diagnostic::error(
            groups_loc,
            format!(
                "iota replica groups need [groups,size], found {} numbers",
                groups.len()
            ),
        ));
    };
    c.expect("<=")?;
    let dims_loc = c.loc();
    let dims = delimited_ints(c, "[", "]")?;
    let perm_loc = c.loc();
    let perm = if c.eat("T") {
        delimited_ints(c, "(", ")")?
    } else {
        (0..dims.len() as i64).collect()
    };
    if count < 1 || size < 1 || dims.is_empty() || dims.iter().any(|&d| d < 1) {
        return Err(Diagnostic::error(
            groups_loc,
            "iota replica groups need positive sizes and at least one reshape dimension",
        ));
    }
    let devices = dims.iter().try_fold(1i64, |n, &d| {
        n.checked_mul(d).filter(|&n| n <= MAX_IOTA_DEVICES)
    });
    if devices.is_none() || count.checked_mul(size) != devices {
        return Err(Diagnostic::error(
            dims_loc,
            format!(
                "reshape dimensions {dims:?} must hold the {count}x{size} devices of the groups (at most 2^20)"
            ),
        ));
    }
    if !is_permutation(&perm, dims.len()) {
        return Err(Diagnostic::error(
            perm_loc,
            format!(
                "transpose {perm:?} is not a permutation of the {} reshape dimensions",
                dims.len()
            ),
        ));
    }
    let ids = transposed_iota(&dims, &perm);
    Ok(ids.chunks(size as usize).map(<[i64]>::to_vec).collect())
}

/// Row-major iota over `dims`, read in the order of the dimensions `perm`
/// names (a checked permutation of positive sizes).
fn transposed_iota(dims: &[i64], perm: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * dims[i + 1];
    }
    let order: Vec<usize> = perm.iter().map(|&p| p as usize).collect();
    let total: i64 = dims.iter().product();
    let mut index = vec![0i64; dims.len()];
    let mut out = Vec::with_capacity(total as usize);
    for _ in 0..total {
        out.push(order.iter().map(|&d| index[d] * strides[d]).sum());
        // Count up in the transposed shape, its last dimension fastest.
        for &d in order.iter().rev() {
            index[d] += 1;
            if index[d] < dims[d] {
                break;
            }
            index[d] = 0;
        }
    }
    out
}

/// `replica_groups`, the channel, and `use_global_device_ids=true` as a
/// unit attribute.
fn grouping_attrs(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Vec<(String, Attr)>> {
    let groups = replica_groups(inst)?;
    let mut attrs = vec![("replica_groups".to_string(), int_matrix(imp, &groups))];
    attrs.extend(channel_handle(imp, inst)?);
    if inst.attrs.flag_or("use_global_device_ids", false)? {
        let unit = imp.ctx.attr(AttrKind::Unit);
        attrs.push(("use_global_device_ids".to_string(), unit));
    }
    Ok(attrs)
}

/// `channel_id=N` as `#stablehlo.channel_handle<handle = N, type = 1>`
/// (device to device), if given.
fn channel_handle(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Option<(String, Attr)>> {
    if inst.instr.attr("channel_id").is_none() {
        return Ok(None);
    }
    let handle = inst.attrs.int("channel_id")?;
    let fields = vec![
        ("handle".to_string(), imp.i64_attr(handle)),
        ("type".to_string(), imp.i64_attr(1)),
    ];
    let channel = imp.ctx.attr(AttrKind::Struct {
        name: "stablehlo.channel_handle".into(),
        fields,
    });
    Ok(Some(("channel_handle".to_string(), channel)))
}

/// The one dimension of `dimensions={d}`.
fn one_dimension(inst: &Inst<'_, '_>) -> Result<i64> {
    let dims = inst.attrs.ints("dimensions")?;
    match dims[..] {
        [d] => Ok(d),
        _ => Err(Diagnostic::error(
            inst.instr.attr("dimensions").map_or(inst.loc(), |a| a.loc),
            format!(
                "'{}' takes one dimension, found {}",
                inst.instr.opcode,
                dims.len()
            ),
        )),
    }
}

/// `all-reduce(x), replica_groups={{0,1}}, to_apply=add`.
pub fn all_reduce(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let attrs = grouping_attrs(imp, inst)?;
    with_region(imp, inst, ALL_REDUCE, attrs, &["to_apply"])
}

/// `reduce-scatter(x), dimensions={0}, replica_groups=.., to_apply=add`.
pub fn reduce_scatter(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let mut attrs = grouping_attrs(imp, inst)?;
    let d = one_dimension(inst)?;
    attrs.push(("scatter_dimension".to_string(), imp.i64_attr(d)));
    with_region(imp, inst, REDUCE_SCATTER, attrs, &["to_apply"])
}

/// `all-gather(x), dimensions={0}, replica_groups=..`.
pub fn all_gather(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let mut attrs = grouping_attrs(imp, inst)?;
    let d = one_dimension(inst)?;
    attrs.push(("all_gather_dim".to_string(), imp.i64_attr(d)));
    let operands = inst.all_leaves()?;
    imp.build(inst, ALL_GATHER, operands, attrs)
}

/// `all-to-all(x), dimensions={d}, replica_groups={{...}}`: split and
/// concatenated along `d`, in as many pieces as a group has devices. The
/// tuple form (no `dimensions`) and groups left implicit are not supported.
pub fn all_to_all(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let groups = replica_groups(inst)?;
    let Some(split_count) = groups.first().map(|g| g.len() as i64) else {
        return Err(Diagnostic::unsupported(
            inst.instr.opcode_loc,
            "'all-to-all' needs explicit replica_groups (the number of devices is not known here)",
        ));
    };
    let d = one_dimension(inst)?;
    let mut attrs = grouping_attrs(imp, inst)?;
    attrs.push(("split_dimension".to_string(), imp.i64_attr(d)));
    attrs.push(("concat_dimension".to_string(), imp.i64_attr(d)));
    attrs.push(("split_count".to_string(), imp.i64_attr(split_count)));
    let operands = inst.all_leaves()?;
    imp.build(inst, ALL_TO_ALL, operands, attrs)
}

/// `collective-permute(x), source_target_pairs={{0,1},{1,0}}`.
pub fn collective_permute(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    let mut c = inst.attrs.required("source_target_pairs")?;
    let pairs = whole(&mut c, int_lists)?;
    if let Some(bad) = pairs.iter().find(|p| p.len() != 2) {
        let loc = inst
            .instr
            .attr("source_target_pairs")
            .map_or(inst.loc(), |a| a.loc);
        return Err(Diagnostic::error(
            loc,
            format!(
                "each source_target_pairs entry is {{source,target}}, found {} numbers",
                bad.len()
            ),
        ));
    }
    let mut attrs = vec![("source_target_pairs".to_string(), int_matrix(imp, &pairs))];
    attrs.extend(channel_handle(imp, inst)?);
    imp.build(inst, COLLECTIVE_PERMUTE, vec![inst.leaf(0)?], attrs)
}

/// `replica-id()` and `partition-id()`: a `u32[]`.
pub fn device_id(imp: &mut Importer<'_>, inst: &Inst<'_, '_>, name: &'static str) -> Result<Val> {
    inst.expect_operands(0)?;
    imp.build(inst, name, vec![], vec![])
}
