//! Collectives, `replica_id` / `partition_id` and `run_parallel`: calls to
//! the runtime's rendezvous (`runtime/src/collectives/`), with the data
//! movement and any reducer region emitted here.
//!
//! Every collective is `begin(desc)`, `add(operand)` per operand,
//! `meet(info)` (info = {position, group size}), fetches of members'
//! operands, then `leave()`; each call's non-zero status returns from the
//! function with the runtime's message.

use strata_diag::{Diagnostic, Result};
use strata_dialect_xla::names::*;
use strata_dialect_xla::ops::collective::{self as coll, Grouping};
use strata_ir::{AttrKind, OpId, Type, TypeKind, Value, builtin};

use super::FuncLowering;
use super::element::Scalar;
use super::element::{load_scalar, store_scalar};
use super::materialize::shape_of;
use super::pattern::{Fusion, OpLowering};
use super::region::emit_reducer;
use crate::builder::Builder;
use strata_abi::runtime as sym;

/// The lowering pattern of collectives, device ids, send/recv and infeed/outfeed.
pub(super) const COLLECTIVE: OpLowering = OpLowering {
    ops: &[&[
        strata_dialect_xla::names::ALL_REDUCE,
        strata_dialect_xla::names::ALL_GATHER,
        strata_dialect_xla::names::REDUCE_SCATTER,
        strata_dialect_xla::names::ALL_TO_ALL,
        strata_dialect_xla::names::COLLECTIVE_PERMUTE,
        strata_dialect_xla::names::COLLECTIVE_BROADCAST,
        strata_dialect_xla::names::COLLECTIVE_REDUCE,
        strata_dialect_xla::names::REPLICA_ID,
        strata_dialect_xla::names::PARTITION_ID,
        strata_dialect_xla::names::AFTER_ALL,
        strata_dialect_xla::names::SEND,
        strata_dialect_xla::names::RECV,
        strata_dialect_xla::names::INFEED,
        strata_dialect_xla::names::OUTFEED,
    ]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| collective(cx, b, op, bufs),
};

fn mode(g: Grouping) -> strata_abi::CollectiveMode {
    use strata_abi::CollectiveMode as M;
    match g {
        Grouping::CrossReplica => M::CrossReplica,
        Grouping::CrossPartition => M::CrossPartition,
        Grouping::CrossReplicaAndPartition => M::CrossReplicaAndPartition,
        Grouping::FlattenedIds => M::FlattenedIds,
    }
}

fn bytes_of(b: &Builder<'_>, buf: Value) -> i64 {
    strata_dialect_mem::storage_bytes(b.ctx, b.ctx.value_ty(buf))
}

/// The runtime's built-in reduction for a reducer region that is one add,
/// multiply, maximum or minimum of its two arguments, on f32, f64 or a
/// 32/64-bit integer tensor of type `t`.
pub(super) fn builtin_reduction(
    ctx: &strata_ir::Context,
    body: strata_ir::BlockId,
    t: Type,
) -> Option<(strata_abi::ReduceOp, strata_abi::ElemCode)> {
    use strata_abi::{ElemCode, ReduceOp};
    let elem = ctx.types.elem(t);
    let code = match ctx.types.kind(elem) {
        TypeKind::Float(strata_ir::FloatKind::F32) => ElemCode::F32,
        TypeKind::Float(strata_ir::FloatKind::F64) => ElemCode::F64,
        TypeKind::Int {
            width: w @ (32 | 64),
            sign,
        } => ElemCode::of_int(*w, *sign != strata_ir::Signedness::Unsigned)?,
        _ => return None,
    };
    let args = &ctx.blocks[body].args;
    let [first, last] = ctx.blocks[body].ops.as_slice() else {
        return None;
    };
    let reduce = match ctx.op(*first).name {
        ADD => ReduceOp::Add,
        MULTIPLY => ReduceOp::Mul,
        MAXIMUM => ReduceOp::Max,
        MINIMUM => ReduceOp::Min,
        _ => return None,
    };
    let operands = &ctx.op(*first).operands();
    let on_args = args.len() == 2
        && operands.len() == 2
        && operands.iter().all(|v| args.contains(v))
        && operands[0] != operands[1];
    let returns_it = ctx.op(*last).operands() == ctx.op(*first).results.as_slice();
    (on_args && returns_it).then_some((reduce, code))
}

/// Writes the results of a collective (or device id) op into `bufs`.
pub(super) fn collective(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    match b.ctx.op(op).name {
        REPLICA_ID => device_id(cx, b, &sym::REPLICA_ID, bufs[0]),
        PARTITION_ID => device_id(cx, b, &sym::PARTITION_ID, bufs[0]),
        ALL_REDUCE | COLLECTIVE_REDUCE => all_reduce(cx, b, op, bufs),
        ALL_GATHER => all_gather(cx, b, op, bufs),
        REDUCE_SCATTER => reduce_scatter(cx, b, op, bufs[0]),
        ALL_TO_ALL => all_to_all(cx, b, op, bufs),
        COLLECTIVE_PERMUTE | COLLECTIVE_BROADCAST => receive_one(cx, b, op, bufs),
        AFTER_ALL | SEND | RECV | INFEED | OUTFEED => transfer(cx, b, op, bufs),
        name => Err(Diagnostic::internal(
            b.loc,
            format!("'{name}' is not a collective"),
        )),
    }
}

fn device_id(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    sig: &'static strata_abi::runtime::Signature,
    out: Value,
) -> Result<()> {
    let id = cx
        .call_runtime(b, sig, vec![])
        .ok_or_else(|| Diagnostic::internal(b.loc, "a device id call without a result"))?;
    b.store(id, out, &[]);
    Ok(())
}

/// `begin`, `add` per operand and `meet`; returns (position, group
/// size) as `index` values.
fn meet(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    desc: &strata_abi::CollectiveDesc,
    operands: &[Value],
) -> Result<(Value, Value)> {
    let desc_buf = cx.descriptor_global(b, desc)?;
    cx.call_runtime(b, &sym::COLLECTIVE_BEGIN, vec![desc_buf]);
    let i64t = b.ctx.types.int_ty(64);
    for &x in operands {
        let buf = cx.buffer_of(b, x)?;
        let bytes = b.const_int(bytes_of(b, buf) as i128, i64t);
        cx.call_runtime(b, &sym::COLLECTIVE_ADD, vec![buf, bytes]);
    }
    let info_ty = b.ctx.types.memref_ty(&[2], i64t);
    let info = b.alloca(info_ty);
    cx.call_runtime(b, &sym::COLLECTIVE_MEET, vec![info]);
    let it = b.ctx.types.index_ty();
    let (c0, c1) = (b.const_index(0), b.const_index(1));
    let pos = b.load(info, &[c0]);
    let size = b.load(info, &[c1]);
    Ok((
        b.cast("arith.index_cast", pos, it),
        b.cast("arith.index_cast", size, it),
    ))
}

/// Copies operand `k` of group member `member` into `out`.
fn fetch(cx: &mut FuncLowering<'_>, b: &mut Builder<'_>, member: Value, k: i64, out: Value) {
    let i64t = b.ctx.types.int_ty(64);
    let m = b.cast("arith.index_cast", member, i64t);
    let kv = b.const_int(k as i128, i64t);
    let bytes = b.const_int(bytes_of(b, out) as i128, i64t);
    cx.call_runtime(b, &sym::COLLECTIVE_FETCH, vec![m, kv, out, bytes]);
}

fn leave(cx: &mut FuncLowering<'_>, b: &mut Builder<'_>) {
    cx.call_runtime(b, &sym::COLLECTIVE_LEAVE, vec![]);
}

fn desc(
    b: &Builder<'_>,
    op: OpId,
    kind: strata_abi::CollectiveKind,
    expect_size: i64,
) -> Result<strata_abi::CollectiveDesc> {
    let ctx = &*b.ctx;
    let groups: Vec<Vec<i64>> = if kind == strata_abi::CollectiveKind::Pairs {
        coll::source_target_pairs(ctx, op)?
            .into_iter()
            .map(|(s, t)| vec![s, t])
            .collect()
    } else {
        coll::replica_groups(ctx, op)?
    };
    let mut d = strata_abi::CollectiveDesc {
        mode: mode(coll::grouping(ctx, op)) as i64,
        kind: kind as i64,
        expect_size,
        group_count: groups.len() as i64,
        group_size: groups.first().map_or(0, |g| g.len() as i64),
        ..Default::default()
    };
    for (slot, id) in d.ids.iter_mut().zip(groups.iter().flatten()) {
        *slot = *id;
    }
    Ok(d)
}

/// all_reduce (and collective_reduce, whose non-root members get
/// zeros): member 0's operands, folded with every other member's in
/// group order through the reducer.
fn all_reduce(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    let operands = b.ctx.op(op).operands().to_vec();
    let body = b
        .ctx
        .entry_block(op, 0)
        .ok_or_else(|| Diagnostic::internal(b.loc, "all_reduce without a reducer"))?;
    if b.ctx.op(op).name == ALL_REDUCE && operands.len() == 1 {
        if let Some((reduce, code)) = builtin_reduction(b.ctx, body, b.ctx.value_ty(operands[0])) {
            return runtime_all_reduce(cx, b, op, reduce, code, operands[0], bufs[0]);
        }
    }
    let per_operand = b.ctx.blocks[body].args.len() == 2 && operands.len() > 1;
    let desc = desc(b, op, strata_abi::CollectiveKind::Groups, 0)?;
    let (pos, size) = meet(cx, b, &desc, &operands)?;
    let zero = b.const_index(0);
    for (k, &out) in bufs.iter().enumerate() {
        fetch(cx, b, zero, k as i64, out);
    }
    let temps: Vec<Value> = bufs
        .iter()
        .map(|&o| {
            let t = b.ctx.value_ty(o);
            b.alloc(t)
        })
        .collect();
    let shape = shape_of(b.ctx, bufs[0]);
    let one = b.const_index(1);
    b.for_values(one, size, one, &mut |b, member| {
        for (k, &t) in temps.iter().enumerate() {
            fetch(cx, b, member, k as i64, t);
        }
        if per_operand {
            // A two-argument reducer applies to each operand on its own.
            for (&o, &t) in bufs.iter().zip(&temps) {
                let shape = shape_of(b.ctx, o);
                b.parallel_nest(&shape, &mut |b, idx| {
                    let args = [load_scalar(b, o, idx), load_scalar(b, t, idx)];
                    if let Some(s) = emit_reducer(b, body, &args)?.into_iter().next() {
                        store_scalar(b, s, o, idx);
                    }
                    Ok(())
                })?;
            }
            return Ok(());
        }
        b.parallel_nest(&shape, &mut |b, idx| {
            let mut args: Vec<Scalar> = bufs.iter().map(|&o| load_scalar(b, o, idx)).collect();
            args.extend(temps.iter().map(|&t| load_scalar(b, t, idx)));
            let folded = emit_reducer(b, body, &args)?;
            for (s, &o) in folded.into_iter().zip(bufs) {
                store_scalar(b, s, o, idx);
            }
            Ok(())
        })
    })?;
    leave(cx, b);
    for t in temps {
        b.insert("mem.dealloc", vec![t], &[], vec![]);
    }
    if b.ctx.op(op).name == COLLECTIVE_REDUCE {
        // Only the group's first member (the root) keeps the result.
        let not_root = b.cmpi("ne", pos, zero);
        b.if_then(not_root, &mut |b| fill_zero(b, bufs))?;
    }
    Ok(())
}

/// A one-operand all_reduce the runtime reduces itself: each device
/// folds its slice of every member's operand into every member's result.
fn runtime_all_reduce(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    reduce: strata_abi::ReduceOp,
    code: strata_abi::ElemCode,
    x: Value,
    out: Value,
) -> Result<()> {
    let desc = desc(b, op, strata_abi::CollectiveKind::Groups, 0)?;
    let desc_buf = cx.descriptor_global(b, &desc)?;
    let input = cx.buffer_of(b, x)?;
    let (i32t, i64t) = (b.ctx.types.int_ty(32), b.ctx.types.int_ty(64));
    let count = b.ctx.types.num_elements(b.ctx.value_ty(out));
    let args = vec![
        desc_buf,
        b.const_int(reduce as i128, i32t),
        b.const_int(code as i32 as i128, i32t),
        input,
        out,
        b.const_int(count as i128, i64t),
    ];
    cx.call_runtime(b, &sym::ALL_REDUCE, args);
    Ok(())
}

fn fill_zero(b: &mut Builder<'_>, bufs: &[Value]) -> Result<()> {
    for &o in bufs {
        let elem = b.ctx.types.elem(b.ctx.value_ty(o));
        let shape = shape_of(b.ctx, o);
        b.parallel_nest(&shape, &mut |b, idx| {
            let z = Scalar::zero(b, elem);
            store_scalar(b, z, o, idx);
            Ok(())
        })?;
    }
    Ok(())
}

/// all_gather: member j's operand is block j of the result along
/// `all_gather_dim`.
fn all_gather(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    let operands = b.ctx.op(op).operands().to_vec();
    let in_shape = shape_of(b.ctx, operands[0]);
    let dim = strata_dialect_xla::ops::collective::all_gather_dimension(b.ctx, op).unwrap_or(0);
    let out_shape = shape_of(b.ctx, bufs[0]);
    let groups = if in_shape[dim] == 0 {
        1
    } else {
        out_shape[dim] / in_shape[dim]
    };
    let desc = desc(b, op, strata_abi::CollectiveKind::Groups, groups)?;
    meet(cx, b, &desc, &operands)?;
    for (k, (&x, &out)) in operands.iter().zip(bufs).enumerate() {
        let shape = shape_of(b.ctx, x);
        let xb = cx.buffer_of(b, x)?;
        let t = b.ctx.value_ty(xb);
        let tmp = b.alloc(t);
        let n = shape[dim];
        b.for_range(0, groups, &mut |b, j| {
            fetch(cx, b, j, k as i64, tmp);
            let base = {
                let nv = b.const_index(n);
                b.binary("arith.muli", j, nv)
            };
            b.parallel_nest(&shape, &mut |b, idx| {
                let v = load_scalar(b, tmp, idx);
                let mut at = idx.to_vec();
                at[dim] = b.binary("arith.addi", base, idx[dim]);
                store_scalar(b, v, out, &at);
                Ok(())
            })
        })?;
        b.insert("mem.dealloc", vec![tmp], &[], vec![]);
    }
    leave(cx, b);
    Ok(())
}

/// reduce_scatter: this member's block (by position) of every member's
/// operand, folded in group order.
fn reduce_scatter(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    out: Value,
) -> Result<()> {
    let x = b.ctx.op(op).operands()[0];
    let body = b
        .ctx
        .entry_block(op, 0)
        .ok_or_else(|| Diagnostic::internal(b.loc, "reduce_scatter without a reducer"))?;
    let dim = strata_dialect_xla::ops::collective::reduce_scatter_dimension(b.ctx, op).unwrap_or(0);
    let in_shape = shape_of(b.ctx, x);
    let out_shape = shape_of(b.ctx, out);
    let blocks = if out_shape[dim] == 0 {
        1
    } else {
        in_shape[dim] / out_shape[dim]
    };
    let desc = desc(b, op, strata_abi::CollectiveKind::Groups, blocks)?;
    let (pos, size) = meet(cx, b, &desc, &[x])?;
    let xb = cx.buffer_of(b, x)?;
    let t = b.ctx.value_ty(xb);
    let tmp = b.alloc(t);
    let start = {
        let m = b.const_index(out_shape[dim]);
        b.binary("arith.muli", pos, m)
    };
    let zero = b.const_index(0);
    fetch(cx, b, zero, 0, tmp);
    let block_of = |b: &mut Builder<'_>, idx: &[Value]| {
        let mut at = idx.to_vec();
        at[dim] = b.binary("arith.addi", start, idx[dim]);
        at
    };
    b.parallel_nest(&out_shape, &mut |b, idx| {
        let at = block_of(b, idx);
        let v = load_scalar(b, tmp, &at);
        store_scalar(b, v, out, idx);
        Ok(())
    })?;
    let one = b.const_index(1);
    b.for_values(one, size, one, &mut |b, member| {
        fetch(cx, b, member, 0, tmp);
        b.parallel_nest(&out_shape, &mut |b, idx| {
            let at = block_of(b, idx);
            let acc = load_scalar(b, out, idx);
            let v = load_scalar(b, tmp, &at);
            let folded = emit_reducer(b, body, &[acc, v])?;
            if let Some(s) = folded.into_iter().next() {
                store_scalar(b, s, out, idx);
            }
            Ok(())
        })
    })?;
    leave(cx, b);
    b.insert("mem.dealloc", vec![tmp], &[], vec![]);
    Ok(())
}

/// all_to_all: block `position` (along `split_dimension`) of member j's
/// operand becomes block j (along `concat_dimension`) of the result.
fn all_to_all(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    let operands = b.ctx.op(op).operands().to_vec();
    let strata_dialect_xla::ops::collective::AllToAll {
        count,
        split,
        concat,
    } = strata_dialect_xla::ops::collective::all_to_all(b.ctx, op)
        .ok_or_else(|| Diagnostic::internal(b.loc, "all_to_all without its dimensions"))?;
    let desc = desc(b, op, strata_abi::CollectiveKind::Groups, count)?;
    let (pos, _) = meet(cx, b, &desc, &operands)?;
    for (k, (&x, &out)) in operands.iter().zip(bufs).enumerate() {
        let shape = shape_of(b.ctx, x);
        let mut block = shape.clone();
        block[split] /= count;
        let xb = cx.buffer_of(b, x)?;
        let t = b.ctx.value_ty(xb);
        let tmp = b.alloc(t);
        let split_start = {
            let s = b.const_index(block[split]);
            b.binary("arith.muli", pos, s)
        };
        b.for_range(0, count, &mut |b, j| {
            fetch(cx, b, j, k as i64, tmp);
            let concat_start = {
                let c = b.const_index(block[concat]);
                b.binary("arith.muli", j, c)
            };
            b.parallel_nest(&block, &mut |b, idx| {
                let mut from = idx.to_vec();
                from[split] = b.binary("arith.addi", split_start, idx[split]);
                let mut to = idx.to_vec();
                to[concat] = b.binary("arith.addi", concat_start, idx[concat]);
                let v = load_scalar(b, tmp, &from);
                store_scalar(b, v, out, &to);
                Ok(())
            })
        })?;
        b.insert("mem.dealloc", vec![tmp], &[], vec![]);
    }
    leave(cx, b);
    Ok(())
}

/// collective_permute (each target gets its source's operand) and
/// collective_broadcast (every member gets the operands of the group's
/// first member, or with `has_dynamic_root` of the member each root
/// entry names): fetches, or zeros for a device that receives nothing.
fn receive_one(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    outs: &[Value],
) -> Result<()> {
    let operands = b.ctx.op(op).operands().to_vec();
    let permute = b.ctx.op(op).name == COLLECTIVE_PERMUTE;
    let dynamic = b.ctx.attr_of(op, "has_dynamic_root").is_some();
    let data = &operands[..outs.len()];
    let kind = if permute {
        strata_abi::CollectiveKind::Pairs
    } else {
        strata_abi::CollectiveKind::GroupsOrNone
    };
    let root = match dynamic {
        true => Some(cx.buffer_of(b, operands[outs.len()])?),
        false => None,
    };
    let desc = desc(b, op, kind, 0)?;
    let (pos, _) = meet(cx, b, &desc, data)?;
    let zero = b.const_index(0);
    let receives = b.cmpi("sge", pos, zero);
    let (then_block, else_block) = b.if_else_blocks(receives);
    {
        let mut tb = b.before_terminator(then_block);
        for (k, &out) in outs.iter().enumerate() {
            let from = match root {
                _ if permute => pos,
                Some(r) => {
                    let i = tb.const_index(k as i64);
                    let v = tb.load(r, &[i]);
                    let it = tb.ctx.types.index_ty();
                    tb.cast("arith.index_cast", v, it)
                }
                None => tb.const_index(0),
            };
            fetch(cx, &mut tb, from, k as i64, out);
        }
    }
    {
        let mut eb = b.before_terminator(else_block);
        fill_zero(&mut eb, outs)?;
    }
    leave(cx, b);
    Ok(())
}

/// Tokens, send/recv by channel and infeed/outfeed: runtime calls per
/// data buffer; the token result is a byte set to 0.
fn transfer(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    let name = b.ctx.op(op).name;
    let operands = b.ctx.op(op).operands().to_vec();
    let i64t = b.ctx.types.int_ty(64);
    let channel = coll::channel_id(b.ctx, op);
    let (data, token): (Vec<Value>, Value) = match name {
        SEND | OUTFEED => {
            let mut ins = Vec::new();
            for &x in &operands[..operands.len() - 1] {
                ins.push(cx.buffer_of(b, x)?);
            }
            (ins, bufs[0])
        }
        AFTER_ALL => (Vec::new(), bufs[0]),
        _ => (bufs[..bufs.len() - 1].to_vec(), bufs[bufs.len() - 1]),
    };
    for buf in data {
        let bytes = b.const_int(bytes_of(b, buf) as i128, i64t);
        match name {
            SEND | RECV => {
                let ch = b.const_int(channel as i128, i64t);
                let callee = if name == SEND { &sym::SEND } else { &sym::RECV };
                cx.call_runtime(b, callee, vec![ch, buf, bytes]);
            }
            INFEED => {
                cx.call_runtime(b, &sym::INFEED, vec![buf, bytes]);
            }
            _ => {
                cx.call_runtime(b, &sym::OUTFEED, vec![buf, bytes]);
            }
        }
    }
    let i8t = b.ctx.types.int_ty(8);
    let zero = b.const_int(0, i8t);
    b.store(zero, token, &[]);
    Ok(())
}

/// `run_parallel`'s `infeed = [@f, ...]`: each function's results, in
/// order, queued for the run's infeed ops.
fn queue_infeed(cx: &mut FuncLowering<'_>, b: &mut Builder<'_>, op: OpId) -> Result<()> {
    let Some(list) = b.ctx.attr_of(op, "infeed") else {
        return Ok(());
    };
    let AttrKind::Array(items) = b.ctx.attr_kind(list).clone() else {
        return Err(Diagnostic::error(
            b.loc,
            "run_parallel's 'infeed' must be a list of functions",
        ));
    };
    let i64t = b.ctx.types.int_ty(64);
    for item in items {
        let AttrKind::SymbolRef(name) = b.ctx.attr_kind(item).clone() else {
            return Err(Diagnostic::error(
                b.loc,
                "run_parallel's 'infeed' must be a list of functions",
            ));
        };
        let (ins, types) = cx.state.signatures.get(&name).cloned().ok_or_else(|| {
            Diagnostic::error(
                b.loc,
                format!("run_parallel's infeed names unknown function @{name}"),
            )
        })?;
        if !ins.is_empty() {
            return Err(Diagnostic::error(
                b.loc,
                format!("infeed function @{name} must take no arguments"),
            ));
        }
        let mut outs = Vec::new();
        for t in types {
            outs.push(cx.new_buffer(b, t)?);
        }
        let callee = b.ctx.attr(AttrKind::SymbolRef(name));
        b.insert(
            builtin::CALL,
            outs.clone(),
            &[],
            vec![("callee".into(), callee)],
        );
        for buf in outs {
            let bytes = b.const_int(bytes_of(b, buf) as i128, i64t);
            cx.call_runtime(b, &sym::INFEED_PUSH, vec![buf, bytes]);
        }
    }
    Ok(())
}

/// `run_parallel`: a device function calling each device's program with
/// its operands and results, run once per device on its own thread.
pub(super) fn run_parallel(cx: &mut FuncLowering<'_>, b: &mut Builder<'_>, op: OpId) -> Result<()> {
    let programs = coll::programs(b.ctx, op)?;
    let (replicas, partitions) = (programs.len(), programs[0].len());
    let operands = b.ctx.op(op).operands().to_vec();
    let results = b.ctx.op(op).results.clone();
    let mut captures = Vec::new();
    for &x in &operands {
        captures.push(cx.buffer_of(b, x)?);
    }
    for &r in &results {
        let t = b.ctx.value_ty(r);
        let buf = cx.new_buffer(b, t)?;
        cx.repr.insert(r, super::Repr::Buffer(buf));
        captures.push(buf);
    }
    // Each program's arguments and results, in device order: indices of
    // `captures` (the operands, then the results).
    let (mut next_in, mut next_res) = (0, 0);
    let mut calls = Vec::new();
    for name in programs.iter().flatten() {
        let (ins, outs) = cx.state.signatures.get(name).ok_or_else(|| {
            Diagnostic::error(
                b.loc,
                format!("run_parallel names unknown function @{name}"),
            )
        })?;
        let given = next_in..next_in + ins.len();
        let taken = next_res..next_res + outs.len();
        let (Some(args_given), Some(results_taken)) =
            (operands.get(given.clone()), results.get(taken.clone()))
        else {
            return Err(Diagnostic::error(
                b.loc,
                format!(
                    "run_parallel has {} operands and {} results, fewer than its programs take",
                    operands.len(),
                    results.len()
                ),
            ));
        };
        // Each device's operands and results are its program's own.
        let matches = |have: &[Value], want: &[Type]| {
            have.iter()
                .map(|&v| b.ctx.value_ty(v))
                .eq(want.iter().copied())
        };
        if !matches(args_given, ins) || !matches(results_taken, outs) {
            return Err(Diagnostic::error(
                b.loc,
                format!(
                    "run_parallel's operand or result types do not match the signature of @{name}"
                ),
            ));
        }
        let results_at = taken.map(|r| operands.len() + r);
        calls.push((name.clone(), given.chain(results_at).collect()));
        next_in += ins.len();
        next_res += outs.len();
    }
    if next_in != operands.len() || next_res != results.len() {
        return Err(Diagnostic::error(
            b.loc,
            "run_parallel's operands and results do not match its programs' signatures",
        ));
    }
    queue_infeed(cx, b, op)?;
    let callee = device_function(cx, b, &captures, &calls)?;
    let i64t = b.ctx.types.int_ty(64);
    let attrs = vec![
        ("callee".into(), b.ctx.attr(AttrKind::SymbolRef(callee))),
        (
            "replicas".into(),
            b.ctx.attr(AttrKind::Int {
                value: replicas as i128,
                ty: i64t,
            }),
        ),
        (
            "partitions".into(),
            b.ctx.attr(AttrKind::Int {
                value: partitions as i128,
                ty: i64t,
            }),
        ),
    ];
    b.insert(strata_dialect_loop::RUN_DEVICES, captures, &[], attrs);
    Ok(())
}

/// `func.func private @__devicesN(%device, %next, captures...)`: calls
/// program `calls[device]` with the captures it takes.
fn device_function(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    captures: &[Value],
    calls: &[(String, Vec<usize>)],
) -> Result<String> {
    let name = format!("__devices{}", cx.state.next_devices);
    cx.state.next_devices += 1;
    let it = b.ctx.types.index_ty();
    let mut params = vec![it, it];
    params.extend(captures.iter().map(|&c| b.ctx.value_ty(c)));
    let fty = b.ctx.types.function_ty(params.clone(), vec![]);
    let attrs = builtin::private_func_attrs(b.ctx, &name, fty);
    let f = b.ctx.create_op(builtin::FUNC, vec![], &[], attrs, b.loc);
    let region = b.ctx.add_region(f);
    let entry = b.ctx.add_block(region, &params);
    let args = b.ctx.blocks[entry].args.clone();
    let mut fb = Builder::at_end(b.ctx, entry);
    fb.loc = b.loc;
    for (device, (program, uses)) in calls.iter().enumerate() {
        let d = fb.const_index(device as i64);
        let here = fb.cmpi("eq", args[0], d);
        let program = program.clone();
        let call_args: Vec<Value> = uses.iter().map(|&i| args[2 + i]).collect();
        fb.if_then(here, &mut |b| {
            let callee = b.ctx.attr(AttrKind::SymbolRef(program.clone()));
            b.insert(
                builtin::CALL,
                call_args.clone(),
                &[],
                vec![("callee".into(), callee)],
            );
            Ok(())
        })?;
    }
    fb.insert(builtin::RETURN, vec![], &[], vec![]);
    cx.state.add_back(b.ctx, f);
    Ok(name)
}
