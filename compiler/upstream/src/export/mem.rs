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

impl Exporter<'_> {
    pub(crate) fn mem(&mut self, op: OpId) -> Result<Option<String>> {
        match self.ir.op(op).name {
            mem::ALLOC => return self.alloc(op),
            mem::ARENA => return self.arena(op),
            mem::ARENA_RELEASE => {
                let (m, t) = self.buffer(op, 0)?;
                let p = self.pointer_of(&m, &t);
                let release = strata_abi::runtime::ARENA_RELEASE;
                let ty = self.declare_runtime(&release);
                self.line(format!("func.call @{}({p}) : {ty}", release.name));
            }
            mem::SLICE => self.slice(op)?,
            // Hoisted to the function's entry (see `hoist_allocas`).
            mem::ALLOCA => {}
            mem::DEALLOC => {
                let (m, t) = self.buffer(op, 0)?;
                self.line(format!("memref.dealloc {m} : {t}"));
            }
            mem::GET_GLOBAL => {
                let sym = self
                    .ir
                    .str_attr(op, "name")
                    .or_else(|| self.symbol_attr(op, "name"))
                    .ok_or_else(|| self.internal(op, "has no 'name'"))?
                    .to_string();
                let t = self.ty(self.result_ty(op)?, op)?;
                let r = self.define_result(op)?;
                self.line(format!("{r} = memref.get_global @{sym} : {t}"));
            }
            mem::LOAD => self.load(op, None)?,
            mem::LOAD_PART => self.load(op, Some(self.part(op)?))?,
            mem::STORE => self.store(op, None)?,
            mem::STORE_PART => self.store(op, Some(self.part(op)?))?,
            mem::COPY => self.copy(op)?,
            mem::VIEW => self.view(op)?,
            mem::OFFSET => self.offset(op)?,
            name => return Err(unsupported(self.loc(op), format!("'{name}' op"))),
        }
        Ok(None)
    }

    fn symbol_attr(&self, op: OpId, name: &str) -> Option<&str> {
        match self.ir.attr_of(op, name).map(|a| self.ir.attr_kind(a)) {
            Some(strata_ir::AttrKind::SymbolRef(s)) => Some(s.as_str()),
            _ => None,
        }
    }

    fn part(&self, op: OpId) -> Result<u32> {
        mem::part(self.ir, op).ok_or_else(|| self.internal(op, "has no valid 'part'"))
    }

    /// Operand `i` (a buffer) and its memref type.
    fn buffer(&self, op: OpId, i: usize) -> Result<(String, String)> {
        if let Some(&v) = self.ir.op(op).operands.get(i)
            && self.pointers.contains_key(&v)
        {
            return Err(unsupported(
                self.loc(op),
                "a 'mem.offset' buffer used other than as a runtime call's argument",
            ));
        }
        Ok((self.operand(op, i)?, self.ty(self.operand_ty(op, i)?, op)?))
    }

    /// `memref.alloca` for every `mem.alloca` of the function, at its
    /// entry: an alloca inside a loop would grow the stack per iteration.
    pub(crate) fn hoist_allocas(&mut self, block: strata_ir::BlockId) -> Result<()> {
        let ir = self.ir;
        for &op in &ir.blocks[block].ops {
            if ir.op(op).name == mem::ALLOCA {
                let t = self.ty(self.result_ty(op)?, op)?;
                let r = self.define_result(op)?;
                self.line(format!(
                    "{r} = memref.alloca() {{alignment = 16 : i64}} : {t}"
                ));
            }
            for &region in &ir.op(op).regions {
                for &b in &ir.regions[region].blocks {
                    self.hoist_allocas(b)?;
                }
            }
        }
        Ok(())
    }

    /// `memref.alloc`; in a status-returning function a failed allocation
    /// sets the last error and fails with status 1.
    fn alloc(&mut self, op: OpId) -> Result<Option<String>> {
        let ty = self.result_ty(op)?;
        let t = self.ty(ty, op)?;
        let r = self.define_result(op)?;
        self.line(format!(
            "{r} = memref.alloc() {{alignment = {BUFFER_ALIGN} : i64}} : {t}"
        ));
        if !self.returns_status {
            return Ok(None);
        }
        let bytes = strata_dialect_mem::storage_bytes(self.ir, ty).max(1);
        let address = self.fresh();
        self.line(format!(
            "{address} = memref.extract_aligned_pointer_as_index {r} : {t} -> index"
        ));
        let null = self.constant(0, "index");
        let failed = self.fresh();
        self.line(format!(
            "{failed} = arith.cmpi eq, {address}, {null} : index"
        ));
        self.out_of_memory_status(&failed, bytes).map(Some)
    }

    /// The status of an allocation of `bytes` that `failed` (an i1) says
    /// came back NULL: 1 with an out-of-memory message, else 0.
    fn out_of_memory_status(&mut self, failed: &str, bytes: i64) -> Result<String> {
        let status = self.fresh();
        self.open(format!("{status} = scf.if {failed} -> (i32) {{"));
        self.set_error(&format!("out of memory: cannot allocate {bytes} bytes"))?;
        let one = self.constant(1, "i32");
        self.line(format!("scf.yield {one} : i32"));
        self.close("} else {");
        self.indent += 1;
        let zero = self.constant(0, "i32");
        self.line(format!("scf.yield {zero} : i32"));
        self.close("}");
        Ok(status)
    }

    /// `mem.arena`: the function's arena from the runtime's per-thread stack
    /// (as the native backend takes it); NULL fails the function.
    fn arena(&mut self, op: OpId) -> Result<Option<String>> {
        let ty = self.result_ty(op)?;
        let to = self.ty(ty, op)?;
        let bytes = strata_dialect_mem::storage_bytes(self.ir, ty).max(1);
        let acquire = strata_abi::runtime::ARENA_ACQUIRE;
        let ty = self.declare_runtime(&acquire);
        let n = self.constant(bytes, "i64");
        let p = self.fresh();
        self.line(format!("{p} = func.call @{}({n}) : {ty}", acquire.name));
        self.memref_at(op, &p, &[bytes], &[1], &to)?;
        if !self.returns_status {
            return Ok(None);
        }
        let null = self.fresh();
        self.line(format!("{null} = llvm.mlir.zero : !llvm.ptr"));
        let failed = self.fresh();
        self.line(format!(
            "{failed} = llvm.icmp \"eq\" {p}, {null} : !llvm.ptr"
        ));
        self.out_of_memory_status(&failed, bytes).map(Some)
    }

    /// `mem.slice`: a typed buffer at a constant byte offset of the arena.
    fn slice(&mut self, op: OpId) -> Result<()> {
        let (m, t) = self.buffer(op, 0)?;
        let offset = self
            .ir
            .int_attr(op, "offset")
            .and_then(|o| i64::try_from(o).ok())
            .ok_or_else(|| self.internal(op, "has no valid 'offset'"))?;
        let rt = self.result_ty(op)?;
        let TypeKind::MemRef { shape, elem } = self.ir.kind(rt).clone() else {
            return Err(self.internal(op, "does not produce a memref"));
        };
        let mut sizes = super::storage_shape(&shape);
        if self.ir.is_complex(elem) {
            sizes.push(2);
        }
        let strides = row_major_strides(&sizes);
        let to = self.ty(rt, op)?;
        let base = self.pointer_of(&m, &t);
        let at = self.constant(offset, "i64");
        let p = self.fresh();
        self.line(format!(
            "{p} = llvm.getelementptr inbounds {base}[{at}] : (!llvm.ptr, i64) -> !llvm.ptr, i8"
        ));
        self.memref_at(op, &p, &sizes, &strides, &to)
    }

    /// Calls the runtime's `strata_rt_set_error` with a constant message.
    pub(crate) fn set_error(&mut self, text: &str) -> Result<()> {
        let sym = self.message(text);
        let set = strata_abi::runtime::SET_ERROR;
        let ty = self.declare_runtime(&set);
        let set = set.name;
        let len = text.len() + 1;
        let g = self.fresh();
        self.line(format!("{g} = memref.get_global @{sym} : memref<{len}xi8>"));
        let p = self.pointer_of(&g, &format!("memref<{len}xi8>"));
        self.line(format!("func.call @{set}({p}) : {ty}"));
        Ok(())
    }

    /// The address of a buffer's first element as an `!llvm.ptr`.
    pub(crate) fn pointer_of(&mut self, m: &str, t: &str) -> String {
        let i = self.fresh();
        self.line(format!(
            "{i} = memref.extract_aligned_pointer_as_index {m} : {t} -> index"
        ));
        let w = self.fresh();
        self.line(format!("{w} = arith.index_cast {i} : index to i64"));
        let p = self.fresh();
        self.line(format!("{p} = llvm.inttoptr {w} : i64 to !llvm.ptr"));
        p
    }

    /// The indices of operands `first..` (plus the part index).
    fn indices(&mut self, op: OpId, first: usize, part: Option<u32>) -> Result<Vec<String>> {
        let n = self.ir.op(op).operands.len();
        let mut idx = (first..n)
            .map(|i| self.operand(op, i))
            .collect::<Result<Vec<_>>>()?;
        if let Some(p) = part {
            idx.push(self.constant(p, "index"));
        }
        Ok(idx)
    }

    fn load(&mut self, op: OpId, part: Option<u32>) -> Result<()> {
        let (m, t) = self.buffer(op, 0)?;
        let idx = self.indices(op, 1, part)?.join(", ");
        let elem = self.ir.elem(self.operand_ty(op, 0)?);
        let r = self.define_result(op)?;
        match self.widened_int(elem) {
            Some((width, slot, _)) => {
                let raw = self.fresh();
                self.line(format!("{raw} = memref.load {m}[{idx}] : {t}"));
                self.line(format!("{r} = arith.trunci {raw} : i{slot} to i{width}"));
            }
            None => self.line(format!("{r} = memref.load {m}[{idx}] : {t}")),
        }
        Ok(())
    }

    fn store(&mut self, op: OpId, part: Option<u32>) -> Result<()> {
        let v = self.operand(op, 0)?;
        let (m, t) = self.buffer(op, 1)?;
        let idx = self.indices(op, 2, part)?.join(", ");
        let elem = self.ir.elem(self.operand_ty(op, 1)?);
        let v = match self.widened_int(elem) {
            Some((width, slot, zero)) => {
                let ext = if zero { "arith.extui" } else { "arith.extsi" };
                let w = self.fresh();
                self.line(format!("{w} = {ext} {v} : i{width} to i{slot}"));
                w
            }
            None => v,
        };
        self.line(format!("memref.store {v}, {m}[{idx}] : {t}"));
        Ok(())
    }

    /// A buffer seen as one dimension of its storage units (same bytes).
    fn flat(&mut self, m: &str, t: &str, op: OpId, i: usize) -> Result<(String, String)> {
        let ty = self.operand_ty(op, i)?;
        let elem = self.ir.elem(ty);
        let units = self.ir.num_elements(ty).max(0) * if self.ir.is_complex(elem) { 2 } else { 1 };
        let flat_t = format!("memref<{units}x{}>", self.storage_ty(elem, op)?);
        if *t == flat_t {
            return Ok((m.to_string(), flat_t));
        }
        let r = self.fresh();
        self.line(format!(
            "{r} = memref.reinterpret_cast {m} to offset: [0], sizes: [{units}], strides: [1] : {t} to {flat_t}"
        ));
        Ok((r, flat_t))
    }

    /// `mem.copy`: the source's bytes into the destination (the verifier
    /// guarantees they hold as many).
    fn copy(&mut self, op: OpId) -> Result<()> {
        let (src, st) = self.buffer(op, 0)?;
        let (dst, dt) = self.buffer(op, 1)?;
        if self.ir.num_elements(self.operand_ty(op, 0)?) <= 0 {
            return Ok(());
        }
        let (src, st) = self.flat(&src, &st, op, 0)?;
        let (dst, dt) = self.flat(&dst, &dt, op, 1)?;
        if st != dt {
            return Err(self.internal(op, "copies between buffers of different storage"));
        }
        self.line(format!("memref.copy {src}, {dst} : {st} to {dt}"));
        Ok(())
    }

    /// `mem.view`: the same bytes under another static shape.
    fn view(&mut self, op: OpId) -> Result<()> {
        let (m, t) = self.buffer(op, 0)?;
        let rt = self.result_ty(op)?;
        let TypeKind::MemRef { shape, elem } = self.ir.kind(rt).clone() else {
            return Err(self.internal(op, "does not produce a memref"));
        };
        let mut sizes = super::storage_shape(&shape);
        if self.ir.is_complex(elem) {
            sizes.push(2);
        }
        let strides = row_major_strides(&sizes);
        let to = self.ty(rt, op)?;
        let src_elem = self.ir.elem(self.operand_ty(op, 0)?);
        if self.storage_ty(src_elem, op)? != self.storage_ty(elem, op)? {
            return self.retyped_view(op, &m, &t, &sizes, &strides, &to);
        }
        let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        let r = self.define_result(op)?;
        self.line(format!(
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
        &mut self,
        op: OpId,
        m: &str,
        t: &str,
        sizes: &[i64],
        strides: &[i64],
        to: &str,
    ) -> Result<()> {
        let p = self.pointer_of(m, t);
        self.memref_at(op, &p, sizes, strides, to)
    }

    /// Defines `op`'s result as the memref of type `to` (storage `sizes`
    /// and `strides`) whose data starts at the pointer `p`.
    fn memref_at(
        &mut self,
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
        let mut d = self.fresh();
        self.line(format!("{d} = llvm.mlir.poison : {desc_ty}"));
        let mut insert = |x: &mut Self, value: &str, pos: String| {
            let n = x.fresh();
            x.line(format!(
                "{n} = llvm.insertvalue {value}, {d}[{pos}] : {desc_ty}"
            ));
            d = n;
        };
        insert(self, &p, "0".into());
        insert(self, &p, "1".into());
        let zero = self.constant(0, "i64");
        insert(self, &zero, "2".into());
        for (i, (&size, &stride)) in sizes.iter().zip(strides).enumerate() {
            let s = self.constant(size, "i64");
            insert(self, &s, format!("3, {i}"));
            let st = self.constant(stride, "i64");
            insert(self, &st, format!("4, {i}"));
        }
        let r = self.define_result(op)?;
        self.line(format!(
            "{r} = builtin.unrealized_conversion_cast {d} : {desc_ty} to {to}"
        ));
        Ok(())
    }

    /// `mem.offset %buf, %n`: the address `n` elements into `%buf`, for the
    /// runtime calls that take it.
    fn offset(&mut self, op: OpId) -> Result<()> {
        let (m, t) = self.buffer(op, 0)?;
        let n = self.operand(op, 1)?;
        let elem = self.ir.elem(self.operand_ty(op, 0)?);
        let unit = self.storage_ty(elem, op)?;
        let units = if self.ir.is_complex(elem) { 2 } else { 1 };
        let base = self.pointer_of(&m, &t);
        let scale = self.constant(units, "index");
        let scaled = self.fresh();
        self.line(format!("{scaled} = arith.muli {n}, {scale} : index"));
        let i = self.fresh();
        self.line(format!("{i} = arith.index_cast {scaled} : index to i64"));
        let unit = if unit == "index" {
            "i64".to_string()
        } else {
            unit
        };
        let p = self.fresh();
        self.line(format!(
            "{p} = llvm.getelementptr {base}[{i}] : (!llvm.ptr, i64) -> !llvm.ptr, {unit}"
        ));
        let v = *self
            .ir
            .op(op)
            .results
            .first()
            .ok_or_else(|| self.internal(op, "has no result"))?;
        self.pointers.insert(v, p);
        Ok(())
    }

    /// `mem.global` → a private constant `memref.global` holding the same
    /// bytes the native backend writes (`strata_codegen::global_bytes`).
    pub(crate) fn global(&mut self, op: OpId) -> Result<()> {
        let name = self
            .ir
            .str_attr(op, "sym_name")
            .ok_or_else(|| self.internal(op, "has no 'sym_name'"))?
            .to_string();
        let (ty, bytes) = strata_codegen::global_bytes(self.ir, op)?;
        let TypeKind::Tensor { shape, elem } = self.ir.kind(ty).clone() else {
            return Err(self.internal(op, "has a value that is not a tensor"));
        };
        let t = self.memref_ty(&shape, elem, op)?;
        let hex: String = bytes.iter().map(|b| format!("{b:02X}")).collect();
        // The initial value's type is the memref's, as a tensor (implied).
        let init = if bytes.is_empty() {
            "dense<>".to_string()
        } else {
            format!("dense<\"0x{hex}\">")
        };
        self.module_lines.push(format!(
            "memref.global \"private\" constant @{name} : {t} = {init} {{alignment = {BUFFER_ALIGN} : i64}}"
        ));
        Ok(())
    }
}

fn row_major_strides(sizes: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; sizes.len()];
    for i in (0..sizes.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * sizes[i + 1].max(1);
    }
    strides
}
