//! `mem` ops: buffers (malloc/free, entry-block allocas, private constant
//! globals) and row-major element access with `getelementptr inbounds`.

use inkwell::AddressSpace;
use inkwell::module::Linkage;
use inkwell::values::{BasicValue, BasicValueEnum, IntValue, PointerValue};
use strata_diag::{Diagnostic, Result};
use strata_dialect_mem as mem;
use strata_ir::{AttrKind, OpId, Signedness, Type, TypeKind, dense};

use crate::ice;
use crate::state::Lowerer;
use crate::types::{memref_bytes, storage_int_width, storage_type, unit_bytes};

/// Alignment of allocations and globals (a cache line).
const BUFFER_ALIGN: u32 = 64;

impl<'ctx> Lowerer<'ctx, '_> {
    pub(crate) fn lower_mem(&mut self, op: OpId) -> Result<()> {
        match self.ir.op(op).name {
            mem::ALLOC => self.lower_alloc(op),
            mem::ALLOCA => self.lower_alloca(op),
            mem::DEALLOC => {
                let ptr = self.cx.ptr_type(AddressSpace::default());
                let free = self.external("free", self.cx.void_type().fn_type(&[ptr.into()], false));
                self.call(free, &[self.ptr(op, 0)?.into()]).map(|_| ())
            }
            mem::GET_GLOBAL => {
                let name = match self.ir.attr_of(op, "name").map(|a| self.ir.attr_kind(a)) {
                    Some(AttrKind::SymbolRef(s)) => s.clone(),
                    _ => return Err(self.internal(op, "has no 'name'")),
                };
                let g = *self
                    .globals
                    .get(&name)
                    .ok_or_else(|| self.internal(op, format!("refers to unknown '@{name}'")))?;
                self.bind(op, 0, g.into())
            }
            mem::VIEW => {
                let p = self.ptr(op, 0)?;
                self.bind(op, 0, p.into())
            }
            mem::OFFSET => self.lower_offset(op),
            mem::ARENA => self.lower_arena(op),
            mem::ARENA_RELEASE => {
                let release = self.runtime_fn(&strata_abi::runtime::ARENA_RELEASE);
                self.call(release, &[self.ptr(op, 0)?.into()]).map(|_| ())
            }
            mem::SLICE => {
                let offset = self
                    .ir
                    .int_attr(op, "offset")
                    .and_then(|o| u64::try_from(o).ok())
                    .ok_or_else(|| self.internal(op, "has no valid 'offset'"))?;
                let base = self.ptr(op, 0)?;
                // SAFETY (of the GEP): the verifier keeps the slice inside the arena.
                let p = unsafe {
                    self.b
                        .build_in_bounds_gep(self.cx.i8_type(), base, &[self.i64(offset)], "slice")
                        .map_err(ice)?
                };
                self.bind(op, 0, p.into())
            }
            mem::COPY => self.lower_copy(op),
            mem::LOAD => self.lower_load(op, None),
            mem::LOAD_PART => self.lower_load(op, Some(self.part(op)?)),
            mem::STORE => self.lower_store(op, None),
            mem::STORE_PART => self.lower_store(op, Some(self.part(op)?)),
            name => Err(Diagnostic::unsupported(
                self.loc(op),
                format!("'{name}' op cannot be lowered to LLVM IR"),
            )),
        }
    }

    fn part(&self, op: OpId) -> Result<u64> {
        mem::part(self.ir, op)
            .map(u64::from)
            .ok_or_else(|| self.internal(op, "has no valid 'part'"))
    }

    /// `mem.arena`: the function's arena from the runtime's per-thread
    /// stack; NULL (memory exhausted) fails the function with a message.
    fn lower_arena(&mut self, op: OpId) -> Result<()> {
        let bytes = memref_bytes(self.ir, self.result_ty(op)?).max(1);
        let acquire = self.runtime_fn(&strata_abi::runtime::ARENA_ACQUIRE);
        let p = self
            .call(acquire, &[self.i64(bytes).into()])?
            .ok_or_else(|| ice("strata_rt_arena_acquire returns nothing"))?;
        self.fail_if_null(p.into_pointer_value(), bytes)?;
        self.bind(op, 0, p)
    }

    /// Returns status 1 with an out-of-memory message when `p` is NULL (in
    /// a status-returning function).
    fn fail_if_null(&mut self, p: PointerValue<'ctx>, bytes: u64) -> Result<()> {
        if !self.returns_status {
            return Ok(());
        }
        let null = self.b.build_is_null(p, "").map_err(ice)?;
        let f = self.current_fn()?;
        let fail = self.cx.append_basic_block(f, "oom");
        let ok = self.cx.append_basic_block(f, "allocated");
        self.b
            .build_conditional_branch(null, fail, ok)
            .map_err(ice)?;
        self.b.position_at_end(fail);
        let msg = format!("out of memory: cannot allocate {bytes} bytes");
        let text = self
            .b
            .build_global_string_ptr(&msg, "oom_msg")
            .map_err(ice)?;
        let set = self.runtime_fn(&strata_abi::runtime::SET_ERROR);
        self.call(set, &[text.as_pointer_value().into()])?;
        self.b
            .build_return(Some(&self.cx.i32_type().const_int(1, false)))
            .map_err(ice)?;
        self.b.position_at_end(ok);
        Ok(())
    }

    fn lower_alloc(&mut self, op: OpId) -> Result<()> {
        let bytes = memref_bytes(self.ir, self.result_ty(op)?).max(1);
        let ptr = self.cx.ptr_type(AddressSpace::default());
        let malloc = self.external("malloc", ptr.fn_type(&[self.cx.i64_type().into()], false));
        let p = self
            .call(malloc, &[self.i64(bytes).into()])?
            .ok_or_else(|| ice("malloc returns nothing"))?;
        // Out of memory is a runtime error: set the message, return 1.
        self.fail_if_null(p.into_pointer_value(), bytes)?;
        self.bind(op, 0, p)
    }

    fn lower_alloca(&mut self, op: OpId) -> Result<()> {
        let ty = self.result_ty(op)?;
        let entry = self
            .alloca_block
            .ok_or_else(|| self.internal(op, "is outside a function"))?;
        let bytes = memref_bytes(self.ir, ty);
        let eb = self.cx.create_builder();
        eb.position_at_end(entry);
        let arr = self.cx.i8_type().array_type(bytes.max(1) as u32);
        let p = eb.build_alloca(arr, "buf").map_err(ice)?;
        if let Some(inst) = p.as_instruction_value() {
            inst.set_alignment(BUFFER_ALIGN.min(16.max(bytes.next_power_of_two() as u32)))
                .map_err(ice)?;
        }
        self.bind(op, 0, p.into())
    }

    /// `mem.global`: a private constant global holding the raw element bytes.
    pub(crate) fn lower_global(&mut self, op: OpId) -> Result<()> {
        let name = self
            .ir
            .str_attr(op, "sym_name")
            .ok_or_else(|| self.internal(op, "has no 'sym_name'"))?
            .to_string();
        let (_, bytes) = global_bytes(self.ir, op)?;
        let init = self.cx.const_string(&bytes, false);
        let g = self
            .module
            .add_global(init.get_type(), None, &format!("{}.{name}", self.prefix));
        g.set_initializer(&init);
        g.set_constant(true);
        g.set_linkage(Linkage::Private);
        g.set_unnamed_addr(true);
        g.set_alignment(BUFFER_ALIGN);
        self.globals.insert(name, g.as_pointer_value());
        Ok(())
    }

    fn lower_copy(&mut self, op: OpId) -> Result<()> {
        let (src, dst) = (self.ptr(op, 0)?, self.ptr(op, 1)?);
        let ty = self.operand_ty(op, 0)?;
        let align = unit_bytes(self.ir, self.ir.elem(ty)).clamp(1, 16) as u32;
        let bytes = memref_bytes(self.ir, ty);
        if bytes == 0 {
            return Ok(());
        }
        // A buffer copied onto itself (a donated argument that is also its
        // result's buffer) is left alone: no pass over it at all.
        let f = self.current_fn()?;
        let (copy, done) = (
            self.cx.append_basic_block(f, "copy"),
            self.cx.append_basic_block(f, "copied"),
        );
        let same = self
            .b
            .build_int_compare(inkwell::IntPredicate::EQ, src, dst, "")
            .map_err(ice)?;
        self.b
            .build_conditional_branch(same, done, copy)
            .map_err(ice)?;
        self.b.position_at_end(copy);
        if bytes >= strata_abi::PARALLEL_COPY_MIN_BYTES {
            // Large copies (a loop's carried state, a KV cache that is not
            // donated) are split over the pool by the runtime.
            let copy_fn = self.runtime_fn(&strata_abi::runtime::COPY);
            self.call(copy_fn, &[dst.into(), src.into(), self.i64(bytes).into()])?;
        } else {
            self.b
                .build_memcpy(dst, align, src, align, self.i64(bytes))
                .map_err(ice)?;
        }
        self.b.build_unconditional_branch(done).map_err(ice)?;
        self.b.position_at_end(done);
        Ok(())
    }

    /// Address of the element (or part) that operands `first..` index in
    /// the memref operand `first - 1`.
    fn element_ptr(
        &self,
        op: OpId,
        first: usize,
        part: Option<u64>,
    ) -> Result<(PointerValue<'ctx>, Type)> {
        let base = self.ptr(op, first - 1)?;
        let mty = self.operand_ty(op, first - 1)?;
        let shape = self
            .ir
            .shape(mty)
            .ok_or_else(|| self.internal(op, "expects a memref"))?
            .to_vec();
        let mut lin: Option<IntValue> = None;
        for (k, &dim) in shape.iter().enumerate() {
            let idx = self.int(op, first + k)?;
            lin = Some(match lin {
                None => idx,
                Some(acc) => {
                    let scaled = self
                        .b
                        .build_int_nsw_mul(acc, self.i64(dim as u64), "")
                        .map_err(ice)?;
                    self.b.build_int_nsw_add(scaled, idx, "").map_err(ice)?
                }
            });
        }
        let elem = self.ir.elem(mty);
        let mut lin = lin.unwrap_or(self.i64(0));
        if let Some(p) = part {
            let twice = self
                .b
                .build_int_nsw_mul(lin, self.i64(2), "")
                .map_err(ice)?;
            lin = self
                .b
                .build_int_nsw_add(twice, self.i64(p), "")
                .map_err(ice)?;
        }
        let unit = storage_type(self.ir, self.cx, elem, self.loc(op))?;
        // SAFETY: the index is in bounds of the buffer for verified input.
        let p = unsafe { self.b.build_in_bounds_gep(unit, base, &[lin], "") }.map_err(ice)?;
        Ok((p, elem))
    }

    /// `mem.offset`: the base pointer moved by the offset's elements
    /// (addressing units: two per complex element).
    fn lower_offset(&mut self, op: OpId) -> Result<()> {
        let base = self.ptr(op, 0)?;
        let n = self.int(op, 1)?;
        let elem = self.ir.elem(self.operand_ty(op, 0)?);
        let units = crate::types::units_per_elem(self.ir, elem);
        let n = self
            .b
            .build_int_nsw_mul(n, self.i64(units), "")
            .map_err(ice)?;
        let unit = storage_type(self.ir, self.cx, elem, self.loc(op))?;
        // SAFETY: producers keep the offset buffer inside the operand.
        let p = unsafe { self.b.build_in_bounds_gep(unit, base, &[n], "") }.map_err(ice)?;
        self.bind(op, 0, p.into())
    }

    fn lower_load(&mut self, op: OpId, part: Option<u64>) -> Result<()> {
        let (p, elem) = self.element_ptr(op, 1, part)?;
        let unit = storage_type(self.ir, self.cx, elem, self.loc(op))?;
        let raw = self.b.build_load(unit, p, "").map_err(ice)?;
        let v = match self.ir.kind(elem) {
            TypeKind::Int { width, .. } if storage_int_width(*width) != *width => {
                let t = crate::types::int_type(self.cx, *width);
                self.b
                    .build_int_truncate(raw.into_int_value(), t, "")
                    .map_err(ice)?
                    .as_basic_value_enum()
            }
            _ => raw,
        };
        self.bind(op, 0, v)
    }

    fn lower_store(&mut self, op: OpId, part: Option<u64>) -> Result<()> {
        let (p, elem) = self.element_ptr(op, 2, part)?;
        let v = self.val(op, 0)?;
        let v: BasicValueEnum = match self.ir.kind(elem) {
            TypeKind::Int { width, sign } if storage_int_width(*width) != *width => {
                let t = crate::types::int_type(self.cx, storage_int_width(*width));
                let iv = self.int(op, 0)?;
                if *sign == Signedness::Unsigned || *width == 1 {
                    self.b.build_int_z_extend(iv, t, "").map_err(ice)?.into()
                } else {
                    self.b.build_int_s_extend(iv, t, "").map_err(ice)?.into()
                }
            }
            _ => v,
        };
        self.b.build_store(p, v).map_err(ice)?;
        Ok(())
    }
}

/// The type of a `mem.global`'s value and the bytes a buffer of it holds
/// (the C ABI's layout): what both backends put in the object.
pub fn global_bytes(ir: &strata_ir::Context, op: OpId) -> Result<(Type, Vec<u8>)> {
    let loc = ir.op(op).loc;
    let internal = |what: &str| Diagnostic::internal(loc, format!("'mem.global' op {what}"));
    let d = ir
        .dense_attr(op, "value")
        .ok_or_else(|| internal("has no 'value'"))?;
    let elem = ir.elem(d.ty);
    if !crate::types::has_storage(ir, elem) {
        return Err(Diagnostic::unsupported(
            loc,
            format!(
                "type {} is not supported by the LLVM lowering",
                strata_ir::text::printer::type_to_string(ir, elem)
            ),
        ));
    }
    let count = ir.num_elements(d.ty).max(0) as usize;
    let mut bytes = Vec::with_capacity(count * unit_bytes(ir, elem) as usize);
    for i in 0..count {
        if !d.splat && (i + 1) * dense::parts(ir, elem) > d.bits.len() {
            return Err(internal("has fewer values than elements"));
        }
        for bits in dense::element_bits(ir, d, i) {
            push_unit(ir, elem, bits, &mut bytes);
        }
    }
    Ok((d.ty, bytes))
}

/// Appends the in-memory bytes of one addressing unit holding `bits`.
fn push_unit(ir: &strata_ir::Context, elem: Type, bits: u64, out: &mut Vec<u8>) {
    let n = unit_bytes(ir, elem) as usize;
    let v = match ir.kind(elem) {
        TypeKind::Int { width, sign } if storage_int_width(*width) != *width => {
            if *sign == Signedness::Unsigned || *width == 1 {
                bits & ((1u64 << width) - 1)
            } else {
                dense::int_value(ir, bits, elem) as u64
            }
        }
        _ => bits,
    };
    out.extend_from_slice(&v.to_le_bytes()[..n]);
}
