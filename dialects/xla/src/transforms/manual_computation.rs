//! `xla-expand-manual-computation`: turns the `sdy.manual_computation` of a
//! JAX multi-device export (`jax.pmap`, `shard_map`) into a per-device
//! function and a global one that runs every device.
//!
//! Input: a function (`@main`) whose body holds `xla.manual_computation`
//! ops over an `xla.mesh` of N devices (any number of axes, numbered
//! row-major), every mesh axis manual; each operand and result dimension
//! split over some of the axes (each axis used once) or whole.
//! Output, for the k-th manual computation of `@f` (k = 0 for the first):
//! - `func.func @f_device` (`@f_device{k}` after the first): the body on
//!   shards — what each device runs, called once per device inside the
//!   library's `P_replicas_run`;
//! - in `@f`, in place of the manual computation: slices of the operands
//!   (each device's block; replicated operands whole), an
//!   `xla.run_parallel` of `@f_device` on N devices as partitions (1 x N, so
//!   `partition_id` is the device), and the results concatenated back along
//!   each split dimension (from the devices at index 0 of the axes a result
//!   is replicated over).
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

/// A device mesh: axes (name, size), devices numbered row-major over them.
struct Mesh {
    axes: Vec<(String, i64)>,
}

impl Mesh {
    fn devices(&self) -> i64 {
        self.axes.iter().map(|(_, n)| n).product()
    }

    /// Device `d`'s index along axis `a`.
    fn coord(&self, d: i64, a: usize) -> i64 {
        let stride: i64 = self.axes[a + 1..].iter().map(|(_, n)| n).product();
        (d / stride) % self.axes[a].1
    }

    fn axis(&self, name: &str) -> Option<usize> {
        self.axes.iter().position(|(n, _)| n == name)
    }

    /// Per dimension, the mesh axes splitting it; each axis used once.
    fn splits(&self, ctx: &Context, op: OpId, dims: &[Vec<String>]) -> Result<Vec<Vec<usize>>> {
        let mut used = std::collections::HashSet::new();
        let mut out = Vec::new();
        for axes in dims {
            let mut these = Vec::new();
            for name in axes {
                let a = self.axis(name).ok_or_else(|| {
                    ctx.error(
                        op,
                        format!("shards over '{name}', which is not an axis of the mesh"),
                    )
                })?;
                if !used.insert(a) {
                    return Err(ctx.error(op, format!("shards two dimensions over axis '{name}'")));
                }
                these.push(a);
            }
            out.push(these);
        }
        Ok(out)
    }

    /// How many blocks `axes` split a dimension into, and device `d`'s block.
    fn block(&self, axes: &[usize], d: i64) -> (i64, i64) {
        axes.iter().fold((1, 0), |(count, idx), &a| {
            let n = self.axes[a].1;
            (count * n, idx * n + self.coord(d, a))
        })
    }
}

fn shape_of(ctx: &Context, t: Type) -> Vec<i64> {
    ctx.types.shape(t).map(|s| s.to_vec()).unwrap_or_default()
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
    let mesh = Mesh {
        axes: meshes.get(&mesh_name).cloned().unwrap_or_default(),
    };
    let n = mesh.devices();
    if mesh.axes.is_empty() || !(1..=4096).contains(&n) {
        return Err(ctx.error(
            mc,
            format!("mesh @{mesh_name} is unknown or has {n} devices"),
        ));
    }
    let manual = match ctx.attr_of(mc, "manual_axes").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(items)) => items.len(),
        _ => 0,
    };
    if manual != mesh.axes.len() {
        return Err(Diagnostic::unsupported(
            loc,
            format!(
                "manual computations over some axes of mesh @{mesh_name} ({manual} of {}) are not supported yet; every axis must be manual",
                mesh.axes.len()
            ),
        ));
    }
    let operands = ctx.op(mc).operands().to_vec();
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
        .operands()
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
    let fty = ctx.types.function_ty(arg_types.clone(), res_types.clone());
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
    let ret_operands = ctx.op(term).operands().to_vec();
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
    let i64t = ctx.types.int_ty(64);
    let mut per_device: Vec<Vec<Value>> = vec![Vec::new(); n as usize];
    for (i, &x) in operands.iter().enumerate() {
        let shape = shape_of(ctx, ctx.value_ty(x));
        let splits = mesh.splits(ctx, mc, &ins[i].1)?;
        if splits.len() != shape.len() && splits.iter().any(|s| !s.is_empty()) {
            return Err(ctx.error(
                mc,
                format!("operand #{i}'s sharding does not match its rank"),
            ));
        }
        let mut bshape = shape.clone();
        for (d, axes) in splits.iter().enumerate() {
            let (count, _) = mesh.block(axes, 0);
            if shape[d] % count != 0 {
                return Err(ctx.error(
                    mc,
                    format!("operand #{i} dimension {d} does not split into {count} equal blocks"),
                ));
            }
            bshape[d] = shape[d] / count;
        }
        if bshape == shape {
            for slot in per_device.iter_mut() {
                slot.push(x);
            }
        } else {
            let elem = ctx.types.elem(ctx.value_ty(x));
            let bty = ctx.types.tensor_ty(&bshape, elem);
            // One slice per distinct block (devices that differ only along
            // unsplit axes share it).
            let mut made: HashMap<Vec<i64>, Value> = HashMap::new();
            for (dev, slot) in per_device.iter_mut().enumerate() {
                let start: Vec<i64> = (0..shape.len())
                    .map(|d| {
                        let axes = splits.get(d).map_or(&[][..], |v| v.as_slice());
                        mesh.block(axes, dev as i64).1 * bshape[d]
                    })
                    .collect();
                if let Some(&v) = made.get(&start) {
                    slot.push(v);
                    continue;
                }
                let limit: Vec<i64> = start.iter().zip(&bshape).map(|(s, b)| s + b).collect();
                let attrs = vec![
                    (
                        "start_indices".to_string(),
                        ctx.attr(AttrKind::DenseArray {
                            elem: i64t,
                            values: start.clone(),
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
                let sl = ctx.create_op(SLICE, vec![x], &[bty], attrs, loc);
                insert(ctx, sl);
                let v = ctx.op(sl).results[0];
                made.insert(start, v);
                slot.push(v);
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

    // Results: blocks concatenated back along each split dimension (from
    // the devices at index 0 of the other axes), or device 0's.
    let nres = results.len();
    for (j, &r) in results.iter().enumerate() {
        let global = shape_of(ctx, ctx.value_ty(r));
        let shard = shape_of(ctx, res_types[j]);
        let splits = mesh.splits(ctx, mc, &outs[j].1)?;
        let split_dims: Vec<(usize, Vec<usize>)> = splits
            .iter()
            .enumerate()
            .filter(|(_, a)| !a.is_empty())
            .map(|(d, a)| (d, a.clone()))
            .collect();
        for (d, axes) in &split_dims {
            let (count, _) = mesh.block(axes, 0);
            if global.get(*d) != shard.get(*d).map(|s| s * count).as_ref() {
                return Err(ctx.error(
                    mc,
                    format!("result #{j} is not {count} shards of the body's result #{j} along dimension {d}"),
                ));
            }
        }
        let elem = ctx.types.elem(res_types[j]);
        let whole = assemble(
            ctx,
            &mut insert,
            &mesh,
            &split_dims,
            &shard,
            elem,
            &mut vec![0; mesh.axes.len()],
            0,
            &|dev| run_results[dev as usize * nres + j],
            i64t,
            loc,
        );
        ctx.replace_uses_in(f, r, whole);
    }
    ctx.detach_op(mc);
    Ok(())
}

/// The global value of a result from its device shards: concatenations
/// along each split dimension in turn (`coords` fixes the mesh coordinates
/// chosen so far; unsplit axes stay at 0).
#[allow(clippy::too_many_arguments)]
fn assemble(
    ctx: &mut Context,
    insert: &mut dyn FnMut(&mut Context, OpId),
    mesh: &Mesh,
    split_dims: &[(usize, Vec<usize>)],
    shard: &[i64],
    elem: Type,
    coords: &mut Vec<i64>,
    level: usize,
    result_of: &dyn Fn(i64) -> Value,
    i64t: Type,
    loc: strata_diag::Location,
) -> Value {
    let Some((dim, axes)) = split_dims.get(level) else {
        let device = coords
            .iter()
            .zip(&mesh.axes)
            .fold(0, |d, (&c, (_, n))| d * n + c);
        return result_of(device);
    };
    // Every block index along this dimension, major axis first.
    let (count, _) = mesh.block(axes, 0);
    let mut parts = Vec::new();
    for b in 0..count {
        let mut rest = b;
        for &a in axes.iter().rev() {
            let n = mesh.axes[a].1;
            coords[a] = rest % n;
            rest /= n;
        }
        parts.push(assemble(
            ctx,
            insert,
            mesh,
            split_dims,
            shard,
            elem,
            coords,
            level + 1,
            result_of,
            i64t,
            loc,
        ));
    }
    for &a in axes {
        coords[a] = 0;
    }
    // This value covers the dimensions split at this level and below.
    let mut shape = shard.to_vec();
    for (d, ax) in &split_dims[level..] {
        shape[*d] *= mesh.block(ax, 0).0;
    }
    let ty = ctx.types.tensor_ty(&shape, elem);
    let dim_attr = ctx.attr(AttrKind::Int {
        value: *dim as i128,
        ty: i64t,
    });
    let c = ctx.create_op(
        CONCATENATE,
        parts,
        &[ty],
        vec![("dimension".into(), dim_attr)],
        loc,
    );
    insert(ctx, c);
    ctx.op(c).results[0]
}
