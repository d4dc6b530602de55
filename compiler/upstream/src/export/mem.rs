//! `mem` ops → `memref`. Buffers keep their static shapes; a complex
//! element is a trailing dimension of two parts; integers narrower than
//! their memory slot (i1, i4, ...) are extended on store and truncated on
//! load, as the native backend does, so the bytes a caller sees are the
//! same. `mem.offset` (a buffer starting inside another, passed to the
//! runtime) becomes an `!llvm.ptr`.

use strata_diag::Result;
use strata_dialect_mem as mem;
use strata_ir::{OpId, TypeKind};

use super::{Exporter, unsupported};

/// Alignment of heap buffers, as the native backend's.
const BUFFER_ALIGN: u32 = 64;

pub(crate) fn mem(ex: &mut Exporter<'_>, op: OpId) -> Result<Option<String>> {
    match ex.ir.op(op).name {
        mem::ALLOC => return alloc(ex, op),
        mem::ARENA => return arena(ex, op),
        mem::ARENA_RELEASE => {
            let (m, t) = buffer(ex, op, 0)?;
            let p = pointer_of(ex, &m, &t);
            let release = strata_abi::runtime::ARENA_RELEASE;
            let ty = ex.declare_runtime(&release);
            ex.line(format!("func.call @{}({p}) : {ty}", release.name));
        }
        mem::SLICE => slice(ex, op)?,
        // Hoisted to the function's entry (see `hoist_allocas`).
        mem::ALLOCA => {}
        mem::DEALLOC => {
            let (m, t) = buffer(ex, op, 0)?;
            ex.line(format!("memref.dealloc {m} : {t}"));
        }
        mem::GET_GLOBAL => {
            let sym = ex
                .ir
                .str_attr(op, "name")
                .or_else(|| symbol_attr(ex, op, "name"))
                .ok_or_else(|| ex.internal(op, "has no 'name'"))?
                .to_string();
            let t = ex.ty(ex.result_ty(op)?, op)?;
            let r = ex.define_result(op)?;
            ex.line(format!("{r} = memref.get_global @{sym} : {t}"));
        }
        mem::LOAD => load(ex, op, None)?,
        mem::LOAD_PART => load(ex, op, Some(part(ex, op)?))?,
        mem::STORE => store(ex, op, None)?,
        mem::STORE_PART => store(ex, op, Some(part(ex, op)?))?,
        mem::COPY => copy(ex, op)?,
        mem::VIEW => view(ex, op)?,
        mem::OFFSET => offset(ex, op)?,
        name => return Err(unsupported(ex.loc(op), format!("'{name}' op"))),
    }
    Ok(None)
}

fn symbol_attr<'e>(ex: &'e Exporter<'_>, op: OpId, name: &str) -> Option<&'e str> {
    match ex.ir.attr_of(op, name).map(|a| ex.ir.attr_kind(a)) {
        Some(strata_ir::AttrKind::SymbolRef(s)) => Some(s.as_str()),
        _ => None,
    }
}

fn part(ex: &Exporter<'_>, op: OpId) -> Result<u32> {
    mem::part(ex.ir, op).ok_or_else(|| ex.internal(op, "has no valid 'part'"))
}

/// Operand `i` (a buffer) and its memref type.
fn buffer(ex: &Exporter<'_>, op: OpId, i: usize) -> Result<(String, String)> {
    if let Some(&v) = ex.ir.op(op).operands().get(i)
        && ex.pointers.contains_key(&v)
    {
        return Err(unsupported(
            ex.loc(op),
            "a 'mem.offset' buffer used other than as a runtime call's argument",
        ));
    }
    Ok((ex.operand(op, i)?, ex.ty(ex.operand_ty(op, i)?, op)?))
}

/// `memref.alloca` for every `mem.alloca` of the function, at its
/// entry: an alloca inside a loop would grow the stack per iteration.
pub(crate) fn hoist_allocas(ex: &mut Exporter<'_>, block: strata_ir::BlockId) -> Result<()> {
    let ir = ex.ir;
    for &op in &ir.blocks[block].ops {
        if ir.op(op).name == mem::ALLOCA {
            let t = ex.ty(ex.result_ty(op)?, op)?;
            let r = ex.define_result(op)?;
            ex.line(format!(
                "{r} = memref.alloca() {{alignment = 16 : i64}} : {t}"
            ));
        }
        for &region in &ir.op(op).regions {
            for &b in &ir.regions[region].blocks {
                hoist_allocas(ex, b)?;
            }
        }
    }
    Ok(())
}

/// `memref.alloc`; in a status-returning function a failed allocation
/// sets the last error and fails with status 1.
fn alloc(ex: &mut Exporter<'_>, op: OpId) -> Result<Option<String>> {
    let ty = ex.result_ty(op)?;
    let t = ex.ty(ty, op)?;
    let r = ex.define_result(op)?;
    ex.line(format!(
        "{r} = memref.alloc() {{alignment = {BUFFER_ALIGN} : i64}} : {t}"
    ));
    if !ex.returns_status {
        return Ok(None);
    }
    let bytes = strata_dialect_mem::storage_bytes(ex.ir, ty).max(1);
    let address = ex.fresh();
    ex.line(format!(
        "{address} = memref.extract_aligned_pointer_as_index {r} : {t} -> index"
    ));
    let null = ex.constant(0, "index");
    let failed = ex.fresh();
    ex.line(format!(
        "{failed} = arith.cmpi eq, {address}, {null} : index"
    ));
    out_of_memory_status(ex, &failed, bytes).map(Some)
}

/// The status of an allocation of `bytes` that `failed` (an i1) says
/// came back NULL: 1 with an out-of-memory message, else 0.
fn out_of_memory_status(ex: &mut Exporter<'_>, failed: &str, bytes: i64) -> Result<String> {
    let status = ex.fresh();
    ex.open(format!("{status} = scf.if {failed} -> (i32) {{"));
    set_error(ex, &format!("out of memory: cannot allocate {bytes} bytes"))?;
    let one = ex.constant(1, "i32");
    ex.line(format!("scf.yield {one} : i32"));
    ex.close("} else {");
    ex.indent += 1;
    let zero = ex.constant(0, "i32");
    ex.line(format!("scf.yield {zero} : i32"));
    ex.close("}");
    Ok(status)
}

/// `mem.arena`: the function's arena from the runtime's per-thread stack
/// (as the native backend takes it); NULL fails the function.
fn arena(ex: &mut Exporter<'_>, op: OpId) -> Result<Option<String>> {
    let ty = ex.result_ty(op)?;
    let to = ex.ty(ty, op)?;
    let bytes = strata_dialect_mem::storage_bytes(ex.ir, ty).max(1);
    let acquire = strata_abi::runtime::ARENA_ACQUIRE;
    let ty = ex.declare_runtime(&acquire);
    let n = ex.constant(bytes, "i64");
    let p = ex.fresh();
    ex.line(format!("{p} = func.call @{}({n}) : {ty}", acquire.name));
    memref_at(ex, op, &p, &[bytes], &[1], &to)?;
    if !ex.returns_status {
        return Ok(None);
    }
    let null = ex.fresh();
    ex.line(format!("{null} = llvm.mlir.zero : !llvm.ptr"));
    let failed = ex.fresh();
    ex.line(format!(
        "{failed} = llvm.icmp \"eq\" {p}, {null} : !llvm.ptr"
    ));
    out_of_memory_status(ex, &failed, bytes).map(Some)
}

/// `mem.slice`: a typed buffer at a constant byte offset of the arena.
fn slice(ex: &mut Exporter<'_>, op: OpId) -> Result<()> {
    let (m, t) = buffer(ex, op, 0)?;
    let offset = ex
        .ir
        .int_attr(op, "offset")
        .and_then(|o| i64::try_from(o).ok())
        .ok_or_else(|| ex.internal(op, "has no valid 'offset'"))?;
    let rt = ex.result_ty(op)?;
    let TypeKind::MemRef { shape, elem } = ex.ir.types.kind(rt).clone() else {
        return Err(ex.internal(op, "does not produce a memref"));
    };
    let mut sizes = super::storage_shape(&shape);
    if ex.ir.types.is_complex(elem) {
        sizes.push(2);
    }
    let strides = row_major_strides(&sizes);
    let to = ex.ty(rt, op)?;
    let base = pointer_of(ex, &m, &t);
    let at = ex.constant(offset, "i64");
    let p = ex.fresh();
    ex.line(format!(
        "{p} = llvm.getelementptr inbounds {base}[{at}] : (!llvm.ptr, i64) -> !llvm.ptr, i8"
    ));
    memref_at(ex, op, &p, &sizes, &strides, &to)
}

/// Calls the runtime's `strata_rt_set_error` with a constant message.
pub(crate) fn set_error(ex: &mut Exporter<'_>, text: &str) -> Result<()> {
    let sym = ex.message(text);
    let set = strata_abi::runtime::SET_ERROR;
    let ty = ex.declare_runtime(&set);
    let set = set.name;
    let len = text.len() + 1;
    let g = ex.fresh();
    ex.line(format!("{g} = memref.get_global @{sym} : memref<{len}xi8>"));
    let p = pointer_of(ex, &g, &format!("memref<{len}xi8>"));
    ex.line(format!("func.call @{set}({p}) : {ty}"));
    Ok(())
}

/// The address of a buffer's first element as an `!llvm.ptr`.
pub(crate) fn pointer_of(ex: &mut Exporter<'_>, m: &str, t: &str) -> String {
    let i = ex.fresh();
    ex.line(format!(
        "{i} = memref.extract_aligned_pointer_as_index {m} : {t} -> index"
    ));
    let w = ex.fresh();
    ex.line(format!("{w} = arith.index_cast {i} : index to i64"));
    let p = ex.fresh();
    ex.line(format!("{p} = llvm.inttoptr {w} : i64 to !llvm.ptr"));
    p
}

/// The indices of operands `first..` (plus the part index).
fn indices(
    ex: &mut Exporter<'_>,
    op: OpId,
    first: usize,
    part: Option<u32>,
) -> Result<Vec<String>> {
    let n = ex.ir.op(op).operands().len();
    let mut idx = (first..n)
        .map(|i| ex.operand(op, i))
        .collect::<Result<Vec<_>>>()?;
    if let Some(p) = part {
        idx.push(ex.constant(p, "index"));
    }
    Ok(idx)
}

fn load(ex: &mut Exporter<'_>, op: OpId, part: Option<u32>) -> Result<()> {
    let (m, t) = buffer(ex, op, 0)?;
    let idx = indices(ex, op, 1, part)?.join(", ");
    let elem = ex.ir.types.elem(ex.operand_ty(op, 0)?);
    let r = ex.define_result(op)?;
    match ex.widened_int(elem) {
        Some((width, slot, _)) => {
            let raw = ex.fresh();
            ex.line(format!("{raw} = memref.load {m}[{idx}] : {t}"));
            ex.line(format!("{r} = arith.trunci {raw} : i{slot} to i{width}"));
        }
        None => ex.line(format!("{r} = memref.load {m}[{idx}] : {t}")),
    }
    Ok(())
}

fn store(ex: &mut Exporter<'_>, op: OpId, part: Option<u32>) -> Result<()> {
    let v = ex.operand(op, 0)?;
    let (m, t) = buffer(ex, op, 1)?;
    let idx = indices(ex, op, 2, part)?.join(", ");
    let elem = ex.ir.types.elem(ex.operand_ty(op, 1)?);
    let v = match ex.widened_int(elem) {
        Some((width, slot, zero)) => {
            let ext = if zero { "arith.extui" } else { "arith.extsi" };
            let w = ex.fresh();
            ex.line(format!("{w} = {ext} {v} : i{width} to i{slot}"));
            w
        }
        None => v,
    };
    ex.line(format!("memref.store {v}, {m}[{idx}] : {t}"));
    Ok(())
}

/// A buffer seen as one dimension of its storage units (same bytes).
fn flat(ex: &mut Exporter<'_>, m: &str, t: &str, op: OpId, i: usize) -> Result<(String, String)> {
    let ty = ex.operand_ty(op, i)?;
    let elem = ex.ir.types.elem(ty);
    let units =
        ex.ir.types.num_elements(ty).max(0) * if ex.ir.types.is_complex(elem) { 2 } else { 1 };
    let flat_t = format!("memref<{units}x{}>", ex.storage_ty(elem, op)?);
    if *t == flat_t {
        return Ok((m.to_string(), flat_t));
    }
    let r = ex.fresh();
    ex.line(format!(
        "{r} = memref.reinterpret_cast {m} to offset: [0], sizes: [{units}], strides: [1] : {t} to {flat_t}"
    ));
    Ok((r, flat_t))
}

/// `mem.copy`: the source's bytes into the destination (the verifier
/// guarantees they hold as many).
fn copy(ex: &mut Exporter<'_>, op: OpId) -> Result<()> {
    let (src, st) = buffer(ex, op, 0)?;
    let (dst, dt) = buffer(ex, op, 1)?;
    if ex.ir.types.num_elements(ex.operand_ty(op, 0)?) <= 0 {
        return Ok(());
    }
    let (src, st) = flat(ex, &src, &st, op, 0)?;
    let (dst, dt) = flat(ex, &dst, &dt, op, 1)?;
    if st != dt {
        return Err(ex.internal(op, "copies between buffers of different storage"));
    }
    ex.line(format!("memref.copy {src}, {dst} : {st} to {dt}"));
    Ok(())
}

/// `mem.view`: the same bytes under another static shape.
fn view(ex: &mut Exporter<'_>, op: OpId) -> Result<()> {
    let (m, t) = buffer(ex, op, 0)?;
    let rt = ex.result_ty(op)?;
    let TypeKind::MemRef { shape, elem } = ex.ir.types.kind(rt).clone() else {
        return Err(ex.internal(op, "does not produce a memref"));
    };
    let mut sizes = super::storage_shape(&shape);
    if ex.ir.types.is_complex(elem) {
        sizes.push(2);
    }
    let strides = row_major_strides(&sizes);
    let to = ex.ty(rt, op)?;
    let src_elem = ex.ir.types.elem(ex.operand_ty(op, 0)?);
    if ex.storage_ty(src_elem, op)? != ex.storage_ty(elem, op)? {
        return retyped_view(ex, op, &m, &t, &sizes, &strides, &to);
    }
    let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    let r = ex.define_result(op)?;
    ex.line(format!(
        "{r} = memref.reinterpret_cast {m} to offset: [0], sizes: [{}], strides: [{}] : {t} to {to}",
        list(&sizes),
        list(&strides)
    ));
    Ok(())
}

/// A view with another element type (a bitcast of a buffer): upstream
/// `memref` changes element types only from `i8` buffers
/// (`memref.view`), so the view's descriptor is built in the `llvm`
/// dialect over the same address and cast to the memref type; the
/// memref-to-LLVM conversion then cancels the cast.
fn retyped_view(
    ex: &mut Exporter<'_>,
    op: OpId,
    m: &str,
    t: &str,
    sizes: &[i64],
    strides: &[i64],
    to: &str,
) -> Result<()> {
    let p = pointer_of(ex, m, t);
    memref_at(ex, op, &p, sizes, strides, to)
}

/// Defines `op`'s result as the memref of type `to` (storage `sizes`
/// and `strides`) whose data starts at the pointer `p`.
fn memref_at(
    ex: &mut Exporter<'_>,
    op: OpId,
    p: &str,
    sizes: &[i64],
    strides: &[i64],
    to: &str,
) -> Result<()> {
    let p = p.to_string();
    let rank = sizes.len();
    let desc_ty = if rank == 0 {
        "!llvm.struct<(ptr, ptr, i64)>".to_string()
    } else {
        format!("!llvm.struct<(ptr, ptr, i64, array<{rank} x i64>, array<{rank} x i64>)>")
    };
    let mut d = ex.fresh();
    ex.line(format!("{d} = llvm.mlir.poison : {desc_ty}"));
    let mut insert = |x: &mut Exporter<'_>, value: &str, pos: String| {
        let n = x.fresh();
        x.line(format!(
            "{n} = llvm.insertvalue {value}, {d}[{pos}] : {desc_ty}"
        ));
        d = n;
    };
    insert(ex, &p, "0".into());
    insert(ex, &p, "1".into());
    let zero = ex.constant(0, "i64");
    insert(ex, &zero, "2".into());
    for (i, (&size, &stride)) in sizes.iter().zip(strides).enumerate() {
        let s = ex.constant(size, "i64");
        insert(ex, &s, format!("3, {i}"));
        let st = ex.constant(stride, "i64");
        insert(ex, &st, format!("4, {i}"));
    }
    let r = ex.define_result(op)?;
    ex.line(format!(
        "{r} = builtin.unrealized_conversion_cast {d} : {desc_ty} to {to}"
    ));
    Ok(())
}

/// `mem.offset %buf, %n`: the address `n` elements into `%buf`, for the
/// runtime calls that take it.
fn offset(ex: &mut Exporter<'_>, op: OpId) -> Result<()> {
    let (m, t) = buffer(ex, op, 0)?;
    let n = ex.operand(op, 1)?;
    let elem = ex.ir.types.elem(ex.operand_ty(op, 0)?);
    let unit = ex.storage_ty(elem, op)?;
    let units = if ex.ir.types.is_complex(elem) { 2 } else { 1 };
    let base = pointer_of(ex, &m, &t);
    let scale = ex.constant(units, "index");
    let scaled = ex.fresh();
    ex.line(format!("{scaled} = arith.muli {n}, {scale} : index"));
    let i = ex.fresh();
    ex.line(format!("{i} = arith.index_cast {scaled} : index to i64"));
    let unit = if unit == "index" {
        "i64".to_string()
    } else {
        unit
    };
    let p = ex.fresh();
    ex.line(format!(
        "{p} = llvm.getelementptr {base}[{i}] : (!llvm.ptr, i64) -> !llvm.ptr, {unit}"
    ));
    let v = *ex
        .ir
        .op(op)
        .results
        .first()
        .ok_or_else(|| ex.internal(op, "has no result"))?;
    ex.pointers.insert(v, p);
    Ok(())
}

/// `mem.global` → a private constant `memref.global` holding the same
/// bytes the native backend writes (`strata_codegen::global_bytes`).
pub(crate) fn global(ex: &mut Exporter<'_>, op: OpId) -> Result<()> {
    let name = ex
        .ir
        .str_attr(op, "sym_name")
        .ok_or_else(|| ex.internal(op, "has no 'sym_name'"))?
        .to_string();
    let (ty, bytes) = strata_codegen::global_bytes(ex.ir, op)?;
    let TypeKind::Tensor { shape, elem } = ex.ir.types.kind(ty).clone() else {
        return Err(ex.internal(op, "has a value that is not a tensor"));
    };
    let t = ex.memref_ty(&shape, elem, op)?;
    let hex: String = bytes.iter().map(|b| format!("{b:02X}")).collect();
    // The initial value's type is the memref's, as a tensor (implied).
    let init = if bytes.is_empty() {
        "dense<>".to_string()
    } else {
        format!("dense<\"0x{hex}\">")
    };
    ex.module_lines.push(format!(
        "memref.global \"private\" constant @{name} : {t} = {init} {{alignment = {BUFFER_ALIGN} : i64}}"
    ));
    Ok(())
}

fn row_major_strides(sizes: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; sizes.len()];
    for i in (0..sizes.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * sizes[i + 1].max(1);
    }
    strides
}
