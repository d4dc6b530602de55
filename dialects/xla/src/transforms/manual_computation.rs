//! `xla-expand-manual-computation`: turns the `sdy.manual_computation` of a
//! JAX multi-device export (`jax.pmap`, `shard_map`) into a per-device
//! function and a global one that runs every device.
//!
//! Input: a function (`@main`) whose body holds `xla.manual_computation`
//! ops over a one-axis `xla.mesh` of N devices, every mesh axis manual; each
//! operand and result sharded along at most one dimension by that axis (or
//! replicated).
//! Output, for the k-th manual computation of `@f` (k = 0 for the first):
//! - `func.func @f_device` (`@f_device{k}` after the first): the body on
//!   shards — what each device runs, called once per device inside the
//!   library's `P_replicas_run`;
//! - in `@f`, in place of the manual computation: slices of the operands
//!   (one block per device along the sharded dimension; replicated
//!   operands whole), an `xla.run_parallel` of `@f_device` on N devices as
//!   partitions (1 x N, so `partition_id` is the device), and the results
//!   concatenated back along their sharded dimension (replicated results
//!   from device 0).
//!
//! The `xla.mesh` ops are removed.

use std::collections::HashMap;

use strata_diag::{Diagnostic, Result};
use strata_ir::builtin::{self, FUNC};
use strata_ir::{Attr, AttrKind, Context, OpId, Type, Value};

use crate::names::{CONCATENATE, MANUAL_COMPUTATION, MESH, RETURN, RUN_PARALLEL, SLICE};

pub const FLAG: &str = "xla-expand-manual-computation";

pub struct XlaExpandManualComputationPass;

impl strata_pass::Pass for XlaExpandManualComputationPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "turn sdy.manual_computation into a per-device function and a run_parallel over the mesh"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let Some(mb) = ctx.entry_block(module, 0) else {
            return Ok(());
        };
        let top = ctx.blocks[mb].ops.clone();
        let mut meshes: HashMap<String, Vec<(String, i64)>> = HashMap::new();
        for &o in &top {
            if ctx.op(o).name == MESH {
                meshes.insert(
                    ctx.str_attr(o, "sym_name").unwrap_or("").to_string(),
                    mesh_axes(ctx, o),
                );
            }
        }
        let funcs: Vec<OpId> = top
            .iter()
            .copied()
            .filter(|&o| ctx.op(o).name == FUNC)
            .collect();
        for f in funcs {
            let Some(body) = ctx.entry_block(f, 0) else {
                continue;
            };
            let manual: Vec<OpId> = ctx.blocks[body]
                .ops
                .iter()
                .copied()
                .filter(|&o| ctx.op(o).name == MANUAL_COMPUTATION)
                .collect();
            for (k, mc) in manual.into_iter().enumerate() {
                expand(ctx, module, f, mc, k, &meshes)?;
            }
        }
        for o in top {
            if ctx.op(o).name == MESH {
                ctx.detach_op(o);
            }
        }
        Ok(())
    }
}

fn mesh_axes(ctx: &Context, mesh: OpId) -> Vec<(String, i64)> {
    let names = match ctx.attr_of(mesh, "axes").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(items)) => items
            .iter()
            .map(|&i| match ctx.attr_kind(i) {
                AttrKind::String(s) => s.clone(),
                _ => String::new(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let sizes = ctx.i64_array(mesh, "sizes").unwrap_or_default();
    names.into_iter().zip(sizes).collect()
}

/// A sharding's mesh and, per dimension, the axes splitting it.
fn sharding(ctx: &Context, a: Attr) -> Option<(String, Vec<Vec<String>>)> {
    let AttrKind::Struct { name, fields } = ctx.attr_kind(a) else {
        return None;
    };
    if name != "sdy.sharding" {
        return None;
    }
    let field = |n: &str| fields.iter().find(|(k, _)| k == n).map(|(_, v)| *v);
    let mesh = match ctx.attr_kind(field("mesh")?) {
        AttrKind::SymbolRef(s) => s.clone(),
        _ => return None,
    };
    let AttrKind::Array(dims) = ctx.attr_kind(field("dims")?) else {
        return None;
    };
    let dims = dims
        .iter()
        .map(|&d| match ctx.attr_kind(d) {
            AttrKind::Array(axes) => axes
                .iter()
                .map(|&x| match ctx.attr_kind(x) {
                    AttrKind::String(s) => Some(s.clone()),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>(),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    Some((mesh, dims))
}

fn shardings(ctx: &Context, op: OpId, name: &str) -> Result<Vec<(String, Vec<Vec<String>>)>> {
    let bad = || ctx.error(op, format!("has a malformed '{name}'"));
    let Some(AttrKind::Array(items)) = ctx.attr_of(op, name).map(|a| ctx.attr_kind(a)) else {
        return Err(bad());
    };
    items
        .iter()
        .map(|&i| sharding(ctx, i).ok_or_else(bad))
        .collect()
}

/// The dimension split over `axis` (None: replicated); an error for
/// splits Strata does not run (two dimensions, or several axes).
fn split_dim(ctx: &Context, op: OpId, dims: &[Vec<String>], axis: &str) -> Result<Option<usize>> {
    let mut found = None;
    for (d, axes) in dims.iter().enumerate() {
        if axes.is_empty() {
            continue;
        }
        if axes.len() > 1 || axes[0] != axis || found.is_some() {
            return Err(Diagnostic::unsupported(
                ctx.op(op).loc,
                "shardings over more than one dimension or axis are not supported yet",
            ));
        }
        found = Some(d);
    }
    Ok(found)
}

fn shape_of(ctx: &Context, t: Type) -> Vec<i64> {
    ctx.shape(t).map(|s| s.to_vec()).unwrap_or_default()
}

fn expand(
    ctx: &mut Context,
    module: OpId,
    f: OpId,
    mc: OpId,
    k: usize,
    meshes: &HashMap<String, Vec<(String, i64)>>,
) -> Result<()> {
    let loc = ctx.op(mc).loc;
    let ins = shardings(ctx, mc, "in_shardings")?;
    let outs = shardings(ctx, mc, "out_shardings")?;
    let mesh_name = ins
        .iter()
        .chain(&outs)
        .map(|(m, _)| m.clone())
        .next()
        .unwrap_or_default();
    let axes = meshes.get(&mesh_name).cloned().unwrap_or_default();
    let [(axis, n)] = axes.as_slice() else {
        return Err(Diagnostic::unsupported(
            loc,
            format!(
                "manual computations over mesh @{mesh_name} with {} axes are not supported yet (one axis is)",
                axes.len()
            ),
        ));
    };
    let (axis, n) = (axis.clone(), *n);
    if !(1..=4096).contains(&n) {
        return Err(ctx.error(mc, format!("mesh axis '{axis}' has {n} devices")));
    }
    let operands = ctx.op(mc).operands.clone();
    let results = ctx.op(mc).results.clone();
    if ins.len() != operands.len() || outs.len() != results.len() {
        return Err(ctx.error(mc, "needs one sharding per operand and per result"));
    }

    // The per-device function, from the region.
    let region = *ctx
        .op(mc)
        .regions
        .first()
        .ok_or_else(|| ctx.error(mc, "has no body"))?;
    let entry = ctx.regions[region]
        .blocks
        .first()
        .copied()
        .ok_or_else(|| ctx.error(mc, "has no body"))?;
    let arg_types: Vec<Type> = ctx.blocks[entry]
        .args
        .iter()
        .map(|&a| ctx.value_ty(a))
        .collect();
    let term = ctx.blocks[entry]
        .ops
        .last()
        .copied()
        .filter(|&t| ctx.op(t).name == RETURN)
        .ok_or_else(|| ctx.error(mc, "body must end with sdy.return"))?;
    let res_types: Vec<Type> = ctx
        .op(term)
        .operands
        .iter()
        .map(|&v| ctx.value_ty(v))
        .collect();
    let fname = builtin::func_name(ctx, f).unwrap_or("main").to_string();
    let device_name = if k == 0 {
        format!("{fname}_device")
    } else {
        format!("{fname}_device{k}")
    };
    if builtin::lookup_func(ctx, module, &device_name).is_some() {
        return Err(ctx.error(
            mc,
            format!("the per-device function @{device_name} already exists"),
        ));
    }
    let fty = ctx.function_ty(arg_types.clone(), res_types.clone());
    let attrs = vec![
        (
            "sym_name".to_string(),
            ctx.attr(AttrKind::String(device_name.clone())),
        ),
        ("function_type".to_string(), ctx.attr(AttrKind::Type(fty))),
    ];
    let device_fn = ctx.create_op(FUNC, vec![], &[], attrs, loc);
    ctx.op_mut(mc).regions.clear();
    ctx.op_mut(device_fn).regions.push(region);
    ctx.regions[region].parent = Some(device_fn);
    let ret_operands = ctx.op(term).operands.clone();
    let ret = ctx.create_op(builtin::RETURN, ret_operands, &[], vec![], ctx.op(term).loc);
    ctx.detach_op(term);
    ctx.append_op(entry, ret);
    let mb = ctx
        .entry_block(module, 0)
        .ok_or_else(|| ctx.error(mc, "module without a body"))?;
    let at = ctx.blocks[mb]
        .ops
        .iter()
        .position(|&o| o == f)
        .map_or(0, |i| i + 1);
    ctx.insert_op_at(mb, at, device_fn);

    // Per-device operands: blocks along the sharded dimension.
    let block = ctx
        .op(mc)
        .parent
        .ok_or_else(|| ctx.error(mc, "is detached"))?;
    let mut pos = ctx.blocks[block]
        .ops
        .iter()
        .position(|&o| o == mc)
        .unwrap_or(0);
    let mut insert = |ctx: &mut Context, op: OpId| {
        ctx.insert_op_at(block, pos, op);
        pos += 1;
    };
    let i64t = ctx.int_ty(64);
    let mut per_device: Vec<Vec<Value>> = vec![Vec::new(); n as usize];
    for (i, &x) in operands.iter().enumerate() {
        let shape = shape_of(ctx, ctx.value_ty(x));
        match split_dim(ctx, mc, &ins[i].1, &axis)? {
            None => {
                for slot in per_device.iter_mut() {
                    slot.push(x);
                }
            }
            Some(d) => {
                if shape.get(d).is_none_or(|&s| s % n != 0) {
                    return Err(ctx.error(
                        mc,
                        format!("operand #{i} dimension {d} does not split into {n} equal blocks"),
                    ));
                }
                let size = shape[d] / n;
                let mut bshape = shape.clone();
                bshape[d] = size;
                let elem = ctx.elem(ctx.value_ty(x));
                let bty = ctx.tensor_ty(&bshape, elem);
                for (dev, slot) in per_device.iter_mut().enumerate() {
                    let mut start = vec![0; shape.len()];
                    start[d] = dev as i64 * size;
                    let mut limit = shape.clone();
                    limit[d] = start[d] + size;
                    let attrs = vec![
                        (
                            "start_indices".to_string(),
                            ctx.attr(AttrKind::DenseArray {
                                elem: i64t,
                                values: start,
                            }),
                        ),
                        (
                            "limit_indices".to_string(),
                            ctx.attr(AttrKind::DenseArray {
                                elem: i64t,
                                values: limit,
                            }),
                        ),
                        (
                            "strides".to_string(),
                            ctx.attr(AttrKind::DenseArray {
                                elem: i64t,
                                values: vec![1; shape.len()],
                            }),
                        ),
                    ];
                    let s = ctx.create_op(SLICE, vec![x], &[bty], attrs, loc);
                    insert(ctx, s);
                    slot.push(ctx.op(s).results[0]);
                }
            }
        }
        if ctx.value_ty(per_device[0][i]) != arg_types[i] {
            return Err(ctx.error(
                mc,
                format!("operand #{i}'s shard does not match the body's argument type"),
            ));
        }
    }

    // Every device at once, as partitions 0..n of one replica.
    let program = ctx.attr(AttrKind::SymbolRef(device_name));
    let row = ctx.attr(AttrKind::Array(vec![program; n as usize]));
    let programs = ctx.attr(AttrKind::Array(vec![row]));
    let run_types: Vec<Type> = (0..n).flat_map(|_| res_types.iter().copied()).collect();
    let run = ctx.create_op(
        RUN_PARALLEL,
        per_device.into_iter().flatten().collect(),
        &run_types,
        vec![("programs".into(), programs)],
        loc,
    );
    insert(ctx, run);
    let run_results = ctx.op(run).results.clone();

    // Results: blocks concatenated back, or device 0's.
    let nres = results.len();
    for (j, &r) in results.iter().enumerate() {
        let whole = match split_dim(ctx, mc, &outs[j].1, &axis)? {
            None => run_results[j],
            Some(d) => {
                let global = shape_of(ctx, ctx.value_ty(r));
                let shard = shape_of(ctx, res_types[j]);
                if global.get(d) != shard.get(d).map(|s| s * n).as_ref() {
                    return Err(ctx.error(mc, format!("result #{j} is not {n} shards of the body's result #{j} along dimension {d}")));
                }
                let parts: Vec<Value> = (0..n as usize)
                    .map(|dev| run_results[dev * nres + j])
                    .collect();
                let dim = ctx.attr(AttrKind::Int {
                    value: d as i128,
                    ty: i64t,
                });
                let c = ctx.create_op(
                    CONCATENATE,
                    parts,
                    &[ctx.value_ty(r)],
                    vec![("dimension".into(), dim)],
                    loc,
                );
                insert(ctx, c);
                ctx.op(c).results[0]
            }
        };
        ctx.replace_uses_in(f, r, whole);
    }
    ctx.detach_op(mc);
    Ok(())
}
