//! Collectives (`all_reduce`, `all_gather`, `reduce_scatter`, `all_to_all`,
//! `collective_permute`, `collective_broadcast`, `collective_reduce`),
//! `replica_id` / `partition_id`, and the interpreter's `run_parallel`.
//!
//! How the devices split into groups follows StableHLO's strategies; the
//! group size behind a result shape (all_gather's factor) is checked here
//! when the strategy makes it known at compile time, and by the runtime
//! otherwise.

use strata_diag::Result;
use strata_ir::{AttrKind, Context, OpId, TypeKind};

use crate::parse;
use crate::util::*;
use names::*;
use strata_ir::{OpDef, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    // Collectives (see ops/collective.rs).
    pub const ALL_REDUCE: &str = "xla.all_reduce";
    pub const ALL_GATHER: &str = "xla.all_gather";
    pub const ALL_TO_ALL: &str = "xla.all_to_all";
    pub const REDUCE_SCATTER: &str = "xla.reduce_scatter";
    pub const COLLECTIVE_PERMUTE: &str = "xla.collective_permute";
    pub const COLLECTIVE_BROADCAST: &str = "xla.collective_broadcast";
    pub const COLLECTIVE_REDUCE: &str = "xla.collective_reduce";
    pub const REPLICA_ID: &str = "xla.replica_id";
    // Tokens and point-to-point transfers.
    pub const AFTER_ALL: &str = "xla.after_all";
    pub const SEND: &str = "xla.send";
    pub const RECV: &str = "xla.recv";
    pub const INFEED: &str = "xla.infeed";
    pub const OUTFEED: &str = "xla.outfeed";
    pub const PARTITION_ID: &str = "xla.partition_id";
    /// The StableHLO interpreter's `interpreter.run_parallel`: runs one program
    /// per device (replica x partition) at once.
    pub const RUN_PARALLEL: &str = "xla.run_parallel";
    /// Shardy's `sdy.mesh` (a named device mesh) and `sdy.manual_computation`
    /// (a per-device program on shards), as JAX's pmap/shard_map exports write
    /// them; `xla-expand-manual-computation` turns them into a device function
    /// and a `run_parallel`.
    pub const MESH: &str = "xla.mesh";
    pub const MANUAL_COMPUTATION: &str = "xla.manual_computation";
}

/// StableHLO's process-grouping strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grouping {
    CrossReplica,
    CrossPartition,
    CrossReplicaAndPartition,
    FlattenedIds,
}

/// The `handle` of a `channel_handle` attribute (0 when absent).
pub fn channel_id(ctx: &Context, op: OpId) -> i64 {
    fields(ctx, op, "channel_handle")
        .and_then(|f| get(&f, "handle").first().copied())
        .unwrap_or(0)
}

/// How `op` groups the devices (StableHLO's rules per op).
pub fn grouping(ctx: &Context, op: OpId) -> Grouping {
    let channel = channel_id(ctx, op) > 0;
    match ctx.op(op).name {
        ALL_TO_ALL | COLLECTIVE_PERMUTE | COLLECTIVE_BROADCAST => {
            if channel {
                Grouping::CrossPartition
            } else {
                Grouping::CrossReplica
            }
        }
        _ => match (channel, ctx.attr_of(op, "use_global_device_ids").is_some()) {
            (false, _) => Grouping::CrossReplica,
            (true, false) => Grouping::CrossReplicaAndPartition,
            (true, true) => Grouping::FlattenedIds,
        },
    }
}

/// A 2-D integer attribute (`dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>`) as
/// rows; None when absent.
fn int_matrix(ctx: &Context, op: OpId, name: &str) -> Result<Option<Vec<Vec<i64>>>> {
    let Some(d) = ctx.dense_attr(op, name) else {
        return Ok(None);
    };
    let shape = ctx.types.shape(d.ty).unwrap_or(&[]).to_vec();
    let elem = ctx.types.elem(d.ty);
    if shape.len() != 2 || !ctx.types.is_int(elem) {
        return Err(ctx.error(
            op,
            format!(
                "'{name}' must be a 2-dimensional integer tensor, found {}",
                ty_str(ctx, d.ty)
            ),
        ));
    }
    let (rows, cols) = (shape[0] as usize, shape[1] as usize);
    let value = |i: usize| {
        strata_ir::dense::int_value(ctx, strata_ir::dense::element_bits(ctx, d, i)[0], elem) as i64
    };
    Ok(Some(
        (0..rows)
            .map(|r| (0..cols).map(|c| value(r * cols + c)).collect())
            .collect(),
    ))
}

/// The `replica_groups` of `op`: unique non-negative ids, rows padded with
/// -1 when the groups differ in size (an absent or empty attribute: no
/// groups, meaning every device). Padding is kept: the runtime skips it.
pub fn replica_groups(ctx: &Context, op: OpId) -> Result<Vec<Vec<i64>>> {
    let groups = int_matrix(ctx, op, "replica_groups")?.unwrap_or_default();
    let mut seen = std::collections::HashSet::new();
    for g in &groups {
        for &id in g {
            if id == -1 {
                continue;
            }
            if id < 0 {
                return Err(ctx.error(op, format!("replica_groups holds {id}")));
            }
            if !seen.insert(id) {
                return Err(ctx.error(op, format!("replica_groups names {id} twice")));
            }
        }
    }
    if groups.iter().map(|g| g.len()).sum::<usize>() > MAX_IDS {
        return Err(ctx.error(op, format!("replica_groups holds more than {MAX_IDS} ids")));
    }
    Ok(groups.into_iter().filter(|g| !g.is_empty()).collect())
}

/// Most ids a collective's groups or pairs may hold (the runtime's limit).
pub const MAX_IDS: usize = 256;

/// The group size a result shape implies, when the strategy fixes it at
/// compile time (groups given, and not multiplied by the partitions).
fn static_group_size(ctx: &Context, op: OpId, groups: &[Vec<i64>]) -> Option<i64> {
    if groups.iter().flatten().any(|&id| id < 0) {
        return None;
    }
    match grouping(ctx, op) {
        Grouping::CrossReplicaAndPartition => None,
        _ => groups.first().map(|g| g.len() as i64),
    }
}

fn expect_same_types(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if o.operands().is_empty() || o.operands().len() != o.results.len() {
        return Err(ctx.error(
            op,
            format!(
                "expects as many results as operands (at least one), found {} and {}",
                o.operands().len(),
                o.results.len()
            ),
        ));
    }
    for i in 0..o.operands().len() {
        let (shape, elem) = operand_tensor(ctx, op, i)?;
        let (rshape, relem) = result_tensor(ctx, op, i)?;
        if shape != rshape || elem != relem {
            return Err(ctx.error(
                op,
                format!(
                    "result #{i} must have operand #{i}'s type {}, found {}",
                    ty_str(ctx, ctx.value_ty(o.operands()[i])),
                    ty_str(ctx, ctx.value_ty(o.results[i]))
                ),
            ));
        }
    }
    Ok(())
}

/// The reducer region of `all_reduce`-like ops: 2k 0-d tensors of the
/// operands' element types (folding all operands together), or two when
/// every operand has the same element type (applied to each operand).
fn expect_reducer(ctx: &Context, op: OpId, k: usize) -> Result<()> {
    let body = ctx
        .entry_block(op, 0)
        .ok_or_else(|| ctx.error(op, "requires a reducer region"))?;
    let args = &ctx.blocks[body].args;
    let per_operand = args.len() == 2 && k > 1;
    if args.len() != 2 * k && !per_operand {
        return Err(ctx.error(
            op,
            format!(
                "reducer must take {} arguments (or 2), found {}",
                2 * k,
                args.len()
            ),
        ));
    }
    for i in 0..(if per_operand { 2 * k } else { args.len() }) {
        let a = args[if per_operand { i % 2 } else { i }];
        let want = operand_tensor(ctx, op, if per_operand { i / 2 } else { i % k })?.1;
        match tensor_of(ctx, a) {
            Some((s, e)) if s.is_empty() && e == want => {}
            _ => {
                return Err(ctx.error(
                    op,
                    format!(
                        "reducer argument #{} must be tensor<{}>, found {}",
                        if per_operand { i % 2 } else { i },
                        ty_str(ctx, want),
                        ty_str(ctx, ctx.value_ty(a))
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// `all_reduce` and `collective_reduce`.
pub fn verify_all_reduce(ctx: &Context, op: OpId) -> Result<()> {
    expect_same_types(ctx, op)?;
    replica_groups(ctx, op)?;
    expect_reducer(ctx, op, ctx.op(op).operands().len())
}

fn dimension(ctx: &Context, op: OpId, name: &str, rank: usize) -> Result<usize> {
    let d = ctx
        .int_attr(op, name)
        .ok_or_else(|| ctx.error(op, format!("requires an integer attribute '{name}'")))?;
    if d < 0 || d >= rank as i128 {
        return Err(ctx.error(op, format!("{name} {d} is out of range for rank {rank}")));
    }
    Ok(d as usize)
}

/// `all_gather`: results are the operands concatenated `G` times along
/// `all_gather_dim`.
pub fn verify_all_gather(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if o.operands().is_empty() || o.operands().len() != o.results.len() {
        return Err(ctx.error(op, "expects as many results as operands (at least one)"));
    }
    let groups = replica_groups(ctx, op)?;
    let mut factor = None;
    for i in 0..o.operands().len() {
        let (shape, elem) = operand_tensor(ctx, op, i)?;
        let (rshape, relem) = result_tensor(ctx, op, i)?;
        let d = dimension(ctx, op, "all_gather_dim", shape.len())?;
        let ok_other = rshape.len() == shape.len()
            && (0..shape.len()).all(|j| j == d || rshape[j] == shape[j])
            && elem == relem;
        let f = if shape[d] > 0 && rshape.get(d).is_some_and(|&r| r % shape[d] == 0) {
            Some(rshape[d] / shape[d])
        } else {
            None
        };
        if !ok_other || f.is_none() || factor.is_some_and(|g| Some(g) != f) {
            return Err(ctx.error(
                op,
                format!(
                    "result #{i} {} must be operand #{i} {} concatenated along dimension {d} once per device",
                    ty_str(ctx, ctx.value_ty(o.results[i])),
                    ty_str(ctx, ctx.value_ty(o.operands()[i]))
                ),
            ));
        }
        factor = f;
    }
    if let (Some(g), Some(f)) = (static_group_size(ctx, op, &groups), factor) {
        if g != f {
            return Err(ctx.error(
                op,
                format!("results are {f} operands long, but replica_groups has groups of {g}"),
            ));
        }
    }
    Ok(())
}

/// `reduce_scatter`: each device keeps its block of the reduction along
/// `scatter_dimension`.
pub fn verify_reduce_scatter(ctx: &Context, op: OpId) -> Result<()> {
    let groups = replica_groups(ctx, op)?;
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    let d = dimension(ctx, op, "scatter_dimension", shape.len())?;
    let ok_other = rshape.len() == shape.len()
        && (0..shape.len()).all(|j| j == d || rshape[j] == shape[j])
        && elem == relem;
    let factor =
        (rshape.get(d).is_some_and(|&r| r > 0 && shape[d] % r == 0)).then(|| shape[d] / rshape[d]);
    let Some(factor) = factor.filter(|_| ok_other) else {
        return Err(ctx.error(
            op,
            format!(
                "result {} must be one of the equal blocks of operand {} along dimension {d}",
                ty_str(ctx, ctx.value_ty(ctx.op(op).results[0])),
                ty_str(ctx, ctx.value_ty(ctx.op(op).operands()[0]))
            ),
        ));
    };
    if let Some(g) = static_group_size(ctx, op, &groups) {
        if g != factor {
            return Err(ctx.error(
                op,
                format!(
                    "the operand splits into {factor} blocks, but replica_groups has groups of {g}"
                ),
            ));
        }
    }
    expect_reducer(ctx, op, 1)
}

/// `all_to_all`: `split_count` blocks along `split_dimension` go one to
/// each device, and come back concatenated along `concat_dimension`.
pub fn verify_all_to_all(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if o.operands().is_empty() || o.operands().len() != o.results.len() {
        return Err(ctx.error(op, "expects as many results as operands (at least one)"));
    }
    let groups = replica_groups(ctx, op)?;
    let count = ctx
        .int_attr(op, "split_count")
        .ok_or_else(|| ctx.error(op, "requires an integer attribute 'split_count'"))?;
    if count < 1 || count > MAX_IDS as i128 {
        return Err(ctx.error(op, format!("split_count {count} must be in [1, {MAX_IDS}]")));
    }
    let count = count as i64;
    if let Some(g) = groups.first() {
        if g.len() as i64 != count {
            return Err(ctx.error(
                op,
                format!(
                    "split_count {count} differs from the group size {}",
                    g.len()
                ),
            ));
        }
    }
    for i in 0..o.operands().len() {
        let (shape, elem) = operand_tensor(ctx, op, i)?;
        let (rshape, relem) = result_tensor(ctx, op, i)?;
        let split = dimension(ctx, op, "split_dimension", shape.len())?;
        let concat = dimension(ctx, op, "concat_dimension", shape.len())?;
        if shape[split] % count != 0 {
            return Err(ctx.error(
                op,
                format!("dimension {split} of operand #{i} ({}) is not divisible by split_count {count}", shape[split]),
            ));
        }
        let mut expected = shape.clone();
        expected[split] /= count;
        expected[concat] *= count;
        if rshape != expected || elem != relem {
            return Err(ctx.error(
                op,
                format!(
                    "result #{i} must be {}, found {}",
                    tensor_text(&expected, &ty_str(ctx, elem)),
                    ty_str(ctx, ctx.value_ty(o.results[i]))
                ),
            ));
        }
    }
    Ok(())
}

/// The (source, target) pairs of `collective_permute`.
pub fn source_target_pairs(ctx: &Context, op: OpId) -> Result<Vec<(i64, i64)>> {
    let rows = int_matrix(ctx, op, "source_target_pairs")?
        .ok_or_else(|| ctx.error(op, "requires 'source_target_pairs'"))?;
    let (mut sources, mut targets) = (
        std::collections::HashSet::new(),
        std::collections::HashSet::new(),
    );
    let mut pairs = Vec::new();
    for r in rows {
        let [s, t] = r[..] else {
            return Err(ctx.error(op, "source_target_pairs must be an Nx2 tensor"));
        };
        if s < 0 || t < 0 {
            return Err(ctx.error(
                op,
                format!("source_target_pairs holds a negative id in ({s}, {t})"),
            ));
        }
        if !sources.insert(s) || !targets.insert(t) {
            return Err(ctx.error(
                op,
                format!("source_target_pairs repeats a source or target in ({s}, {t})"),
            ));
        }
        pairs.push((s, t));
    }
    if pairs.len() * 2 > MAX_IDS {
        return Err(ctx.error(
            op,
            format!("source_target_pairs holds more than {MAX_IDS} ids"),
        ));
    }
    Ok(pairs)
}

pub fn verify_collective_permute(ctx: &Context, op: OpId) -> Result<()> {
    expect_same_types(ctx, op)?;
    source_target_pairs(ctx, op).map(|_| ())
}

/// `collective_broadcast`: one or more operands; with `has_dynamic_root`
/// a last `tensor<Kxi32>` operand names, per data operand, the group
/// position to take it from (else position 0).
pub fn verify_collective_broadcast(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    let dynamic = ctx.attr_of(op, "has_dynamic_root").is_some();
    let data = o.operands().len().saturating_sub(usize::from(dynamic));
    if data == 0 || o.results.len() != data {
        return Err(ctx.error(
            op,
            format!(
                "expects one result per data operand{}, found {} operands and {} results",
                if dynamic {
                    " (the last operand is the root)"
                } else {
                    ""
                },
                o.operands().len(),
                o.results.len()
            ),
        ));
    }
    for i in 0..data {
        let (shape, elem) = operand_tensor(ctx, op, i)?;
        let (rshape, relem) = result_tensor(ctx, op, i)?;
        if shape != rshape || elem != relem {
            return Err(ctx.error(op, format!("result #{i} must have operand #{i}'s type")));
        }
    }
    if dynamic {
        let (shape, elem) = operand_tensor(ctx, op, data)?;
        let int32 = is_i32(ctx, elem);
        if shape != [data as i64] || !int32 {
            return Err(ctx.error(
                op,
                format!(
                    "the root operand must be tensor<{data}xi32>, found {}",
                    ty_str(ctx, ctx.value_ty(o.operands()[data]))
                ),
            ));
        }
    }
    replica_groups(ctx, op).map(|_| ())
}

/// `replica_id` / `partition_id`: `tensor<ui32>`.
pub fn verify_device_id(ctx: &Context, op: OpId) -> Result<()> {
    let t = ctx.value_ty(ctx.op(op).results[0]);
    let ok = matches!(ctx.types.kind(t), TypeKind::Tensor { shape, elem } if shape.is_empty()
        && matches!(ctx.types.kind(*elem), TypeKind::Int { width: 32, sign: strata_ir::Signedness::Unsigned }));
    if !ok {
        return Err(ctx.error(
            op,
            format!("result must be tensor<ui32>, found {}", ty_str(ctx, t)),
        ));
    }
    Ok(())
}

/// The programs of `run_parallel`, one row per replica, one column per
/// partition.
pub fn programs(ctx: &Context, op: OpId) -> Result<Vec<Vec<String>>> {
    let bad = || {
        ctx.error(
            op,
            "'programs' must be a non-empty list of equally long lists of function symbols",
        )
    };
    let a = ctx.attr_of(op, "programs").ok_or_else(bad)?;
    let AttrKind::Array(rows) = ctx.attr_kind(a) else {
        return Err(bad());
    };
    let mut out = Vec::new();
    for &row in rows {
        let AttrKind::Array(items) = ctx.attr_kind(row) else {
            return Err(bad());
        };
        let names = items
            .iter()
            .map(|&i| match ctx.attr_kind(i) {
                AttrKind::SymbolRef(s) => Some(s.clone()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(bad)?;
        out.push(names);
    }
    let width = out.first().map_or(0, |r| r.len());
    if width == 0 || out.iter().any(|r| r.len() != width) || out.len() * width > 4096 {
        return Err(bad());
    }
    Ok(out)
}

pub fn verify_run_parallel(ctx: &Context, op: OpId) -> Result<()> {
    programs(ctx, op).map(|_| ())
}

fn is_token(ctx: &Context, v: strata_ir::Value) -> bool {
    matches!(ctx.types.kind(ctx.value_ty(v)), TypeKind::Token)
}

/// `after_all`: tokens in, one token out.
pub fn verify_after_all(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if o.results.len() != 1
        || !is_token(ctx, o.results[0])
        || !o.operands().iter().all(|&v| is_token(ctx, v))
    {
        return Err(ctx.error(op, "expects token operands and one token result"));
    }
    Ok(())
}

/// `send` (tensors, token -> token), `recv` (token -> tensors, token),
/// `infeed` (token -> tensors, token), `outfeed` (tensors, token -> token).
pub fn verify_transfer(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    let name = o.name;
    let (data_in, data_out) = match name {
        SEND | OUTFEED => (o.operands().len().saturating_sub(1), 0),
        _ => (0, o.results.len().saturating_sub(1)),
    };
    let token_in =
        o.operands().last().is_some_and(|&v| is_token(ctx, v)) && o.operands().len() == data_in + 1;
    let token_out =
        o.results.last().is_some_and(|&v| is_token(ctx, v)) && o.results.len() == data_out + 1;
    if !token_in || !token_out {
        return Err(ctx.error(
            op,
            "expects its data, then a token, as operands (send, outfeed) or results (recv, infeed), and a token as the other",
        ));
    }
    for &v in o.operands()[..data_in].iter().chain(&o.results[..data_out]) {
        if tensor_of(ctx, v).is_none_or(|(s, _)| s.iter().any(|&d| d < 0)) {
            return Err(ctx.error(
                op,
                format!(
                    "transfers static tensors, found {}",
                    ty_str(ctx, ctx.value_ty(v))
                ),
            ));
        }
    }
    if matches!(name, SEND | RECV) && channel_id(ctx, op) <= 0 {
        return Err(ctx.error(op, "requires a channel_handle with a positive handle"));
    }
    Ok(())
}

// Typed accessors of verified collectives (the lowerings read attributes
// through these).

/// `xla.all_gather`: the dimension the devices' operands are joined along.
pub fn all_gather_dimension(ctx: &Context, op: OpId) -> Option<usize> {
    index_attr(ctx, op, "all_gather_dim")
}

/// `xla.reduce_scatter`: the dimension the reduced value is split along.
pub fn reduce_scatter_dimension(ctx: &Context, op: OpId) -> Option<usize> {
    index_attr(ctx, op, "scatter_dimension")
}

/// `xla.all_to_all`: `count` blocks along `split` go one to each device
/// and come back joined along `concat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllToAll {
    pub count: i64,
    pub split: usize,
    pub concat: usize,
}

pub fn all_to_all(ctx: &Context, op: OpId) -> Option<AllToAll> {
    Some(AllToAll {
        count: i64::try_from(ctx.int_attr(op, "split_count")?).ok()?,
        split: index_attr(ctx, op, "split_dimension")?,
        concat: index_attr(ctx, op, "concat_dimension")?,
    })
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
pub(crate) fn register(r: &mut Registry) {
    r.add(OpDef::new(ALL_REDUCE, Traits::NONE).verifier(verify_all_reduce));
    r.add(OpDef::new(COLLECTIVE_REDUCE, Traits::NONE).verifier(verify_all_reduce));
    r.add(OpDef::new(ALL_GATHER, Traits::NONE).verifier(verify_all_gather));
    r.add(
        OpDef::new(REDUCE_SCATTER, Traits::NONE)
            .counts(1, 1)
            .verifier(verify_reduce_scatter),
    );
    r.add(OpDef::new(ALL_TO_ALL, Traits::NONE).verifier(verify_all_to_all));
    r.add(
        OpDef::new(COLLECTIVE_PERMUTE, Traits::NONE)
            .counts(1, 1)
            .verifier(verify_collective_permute),
    );
    r.add(OpDef::new(COLLECTIVE_BROADCAST, Traits::NONE).verifier(verify_collective_broadcast));
    for name in [REPLICA_ID, PARTITION_ID] {
        r.add(
            OpDef::new(name, Traits::NONE)
                .counts(0, 1)
                .verifier(verify_device_id)
                .parser(parse::parse_elementwise),
        );
    }
    r.add(OpDef::new(RUN_PARALLEL, Traits::NONE).verifier(verify_run_parallel));
    r.add(
        OpDef::new(AFTER_ALL, Traits::NONE)
            .verifier(verify_after_all)
            .parser(parse::parse_elementwise),
    );
    for name in [SEND, RECV, INFEED, OUTFEED] {
        r.add(OpDef::new(name, Traits::NONE).verifier(verify_transfer));
    }
    r.alias("interpreter.run_parallel", RUN_PARALLEL);
    // Shardy's mesh and manual computations, as JAX's shard_map exports.
    r.add(OpDef::new(MESH, Traits::SYMBOL).parser(parse::parse_mesh));
    r.alias("sdy.mesh", MESH);
    r.add(OpDef::new(MANUAL_COMPUTATION, Traits::NONE).parser(parse::parse_manual_computation));
    r.alias("sdy.manual_computation", MANUAL_COMPUTATION);
    r.alias("sdy.return", crate::ops::control::names::RETURN);
    r.add_attr_parser("sdy.sharding", parse::parse_sharding_attr);
    r.add_attr_parser("sdy.op_sharding_rule", parse::parse_ignored_attr);
    r.add_attr_parser("sdy.sharding_per_value", parse::parse_ignored_attr);
}
