//! `builtin.module`, `func.func`, `func.call`, `func.return`: the module
//! driver, function declarations, bodies and exported wrappers (the
//! library's other entry points are in `library_api.rs`).

use inkwell::AddressSpace;
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::context::Context as LlContext;
use inkwell::module::{Linkage, Module};
use inkwell::types::{BasicMetadataTypeEnum, BasicType, BasicTypeEnum, FunctionType, StructType};
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, FunctionValue, PointerValue};
use strata_diag::{Diagnostic, Result};
use strata_ir::builtin::{self, CALL, FUNC, RETURN};
use strata_ir::{Context, OpId, Signedness, TypeKind};

use crate::arith;
use crate::batched;
use crate::custom_call;
use crate::ice;
use crate::library_api;
use crate::loop_;
use crate::mem;
use crate::pool_entry;
use crate::state::{DialectLowering, Lowerer};

/// The lowering of each dialect's ops inside function bodies.
const DIALECTS: &[(&str, DialectLowering)] = &[
    ("mem", mem::lower_mem),
    ("loop", loop_::lower_loop),
    ("arith", arith::lower_arith),
    ("func", |l, op| l.lower_func_op(op)),
];

/// Lowers one module to a fresh LLVM module with symbols prefixed `prefix`.
pub(crate) fn lower_module<'ctx>(
    ir: &Context,
    cx: &'ctx LlContext,
    module: OpId,
    prefix: &str,
    target: &crate::ResolvedTarget,
    glue_only: bool,
) -> Result<Module<'ctx>> {
    let mut l = Lowerer::new(ir, cx, prefix, DIALECTS);
    if !target.required.is_empty() {
        library_api::declare_cpu_check(&mut l, &target.required, target.baseline_cpu())?;
    }
    let Some(body) = ir.entry_block(module, 0) else {
        return Ok(l.ll.module);
    };
    let ops = ir.blocks[body].ops.clone();
    for &op in &ops {
        match ir.op(op).name {
            FUNC => l.declare_func(op, glue_only)?,
            // Another backend defines the constants with the bodies.
            strata_dialect_mem::GLOBAL if glue_only => {}
            strata_dialect_mem::GLOBAL => mem::lower_global(&mut l, op)?,
            name => {
                return Err(Diagnostic::unsupported(
                    ir.op(op).loc,
                    format!("'{name}' op cannot appear at module level in codegen"),
                ));
            }
        }
    }
    if glue_only {
        for op in launched_ops(ir, module) {
            loop_::define_launch_stub(&mut l, op)?;
        }
    }
    custom_call::define_custom_call_table(&mut l)?;
    for &op in ops.iter().filter(|&&o| ir.op(o).name == FUNC) {
        if ir.entry_block(op, 0).is_some() {
            if !glue_only {
                l.define_func(op)?;
            }
            if !builtin::is_private(ir, op) {
                l.export_wrapper(op)?;
            }
        }
    }
    batched::batched_entries(&mut l, ir, module)?;
    library_api::last_error_fn(&mut l)?;
    library_api::signature_fn(
        &mut l,
        ir.str_attr(module, crate::SIGNATURE_ATTR)
            .unwrap_or("{\"functions\": []}"),
    )?;
    if let Some(labels) = ir.str_attr(
        module,
        strata_dialect_loop::transforms::profile::LABELS_ATTR,
    ) {
        library_api::profile_fn(&mut l, labels)?;
    }
    library_api::set_num_threads_fn(&mut l)?;
    custom_call::register_custom_call_fn(&mut l)?;
    let over_mpi = ir.str_attr(module, crate::COLLECTIVES_ATTR) == Some("mpi");
    library_api::replicas_run_fn(&mut l, runs_as_partitions(ir, module), over_mpi)?;
    library_api::feed_hook_fn(&mut l, "set_infeed", &strata_abi::runtime::SET_INFEED)?;
    library_api::feed_hook_fn(&mut l, "set_outfeed", &strata_abi::runtime::SET_OUTFEED)?;
    Ok(l.ll.module)
}

/// The `loop.dispatch` and `loop.run_devices` ops of the module's bodies.
fn launched_ops(ir: &Context, module: OpId) -> Vec<OpId> {
    let mut found = Vec::new();
    ir.walk_nested(module, &mut |op| {
        let name = ir.op(op).name;
        if name == strata_dialect_loop::DISPATCH || name == strata_dialect_loop::RUN_DEVICES {
            found.push(op);
        }
    });
    found
}

/// Makes the bodies another backend defined (`P.f`) and the launch stubs
/// they call internal once linked with the wrappers, as the native
/// lowering defines them.
pub(crate) fn internalize_bodies(ir: &Context, linked: &Module<'_>, module: OpId, prefix: &str) {
    let launched = launched_ops(ir, module)
        .into_iter()
        .filter_map(|op| strata_dialect_loop::dispatch_callee(ir, op))
        .map(|callee| loop_::launch_stub_name(prefix, callee));
    let bodies = builtin::defined_funcs(ir, module)
        .into_iter()
        .filter_map(|op| builtin::func_name(ir, op))
        .map(|name| format!("{prefix}.{name}"));
    for symbol in bodies.chain(launched) {
        if let Some(f) = linked.get_function(&symbol) {
            f.set_linkage(Linkage::Internal);
        }
    }
}

/// Whether the module's devices are partitions (`mhlo.num_partitions` > 1,
/// as JAX's pmap and shard_map exports say) rather than replicas.
fn runs_as_partitions(ir: &Context, module: OpId) -> bool {
    ir.int_attr(module, "mhlo.num_partitions")
        .is_some_and(|n| n > 1)
}

/// The scratch a function's exported call needs (see `loop-plan-arena`).
fn scratch_bytes(ir: &Context, op: OpId) -> u64 {
    ir.int_attr(op, "scratch_bytes")
        .and_then(|b| u64::try_from(b).ok())
        .unwrap_or(0)
}

/// The three C entries of an exported function.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// `P_f(buffers...)`.
    Direct,
    /// `P_f_with_scratch(buffers..., scratch)`.
    WithScratch,
    /// `P_f_packed(buffers[])`.
    Packed,
}

impl<'ctx> Lowerer<'ctx, '_> {
    fn func_name(&self, op: OpId) -> Result<String> {
        builtin::func_name(self.ir, op)
            .map(str::to_string)
            .ok_or_else(|| self.internal(op, "has no 'sym_name'"))
    }

    /// LLVM types of a function's parameters: memrefs as pointers.
    fn param_types(&self, op: OpId) -> Result<Vec<BasicMetadataTypeEnum<'ctx>>> {
        let (inputs, _) = builtin::func_signature(self.ir, op)
            .ok_or_else(|| self.internal(op, "has no signature"))?;
        inputs
            .iter()
            .map(|&t| self.value_type(t, op).map(BasicMetadataTypeEnum::from))
            .collect()
    }

    /// LLVM type of a function taking `params`: at most one result.
    fn func_type(
        &self,
        op: OpId,
        params: &[BasicMetadataTypeEnum<'ctx>],
    ) -> Result<FunctionType<'ctx>> {
        let (_, results) = builtin::func_signature(self.ir, op)
            .ok_or_else(|| self.internal(op, "has no signature"))?;
        let params = params.to_vec();
        match results.as_slice() {
            [] if self.ir.entry_block(op, 0).is_some() => {
                Ok(self.ll.cx.i32_type().fn_type(&params, false))
            }
            [] => Ok(self.ll.cx.void_type().fn_type(&params, false)),
            [r] if !matches!(self.ir.types.kind(*r), TypeKind::MemRef { .. }) => {
                Ok(self.value_type(*r, op)?.fn_type(&params, false))
            }
            _ => Err(Diagnostic::unsupported(
                self.loc(op),
                "functions at the loop level return at most one scalar; results must be passed as output buffers",
            )),
        }
    }

    /// Declares `op`; a function with a body is defined here later, or by
    /// another backend (`glue_only`: external until linked, see
    /// [`internalize_bodies`]).
    fn declare_func(&mut self, op: OpId, glue_only: bool) -> Result<()> {
        let name = self.func_name(op)?;
        let params = self.param_types(op)?;
        let defined = self.ir.entry_block(op, 0).is_some();
        // Another backend defines `P.f` with every parameter.
        let pack = if defined && !glue_only {
            self.pack_type(&format!("{}.{name}.args", self.prefix), &params)
        } else {
            None
        };
        let ty = match pack {
            Some(_) => self.func_type(op, &self.packed_params())?,
            None => self.func_type(op, &params)?,
        };
        let f = if defined {
            // `P.f`: a '.' never appears in the C names `P_f` exports.
            let linkage = if glue_only {
                Linkage::External
            } else {
                Linkage::Internal
            };
            let f =
                self.ll
                    .module
                    .add_function(&format!("{}.{name}", self.prefix), ty, Some(linkage));
            f.add_attribute(AttributeLoc::Function, crate::llvm::nounwind(self.ll.cx));
            match pack {
                Some(pack) => {
                    self.packed.insert(f, pack);
                }
                None => self.add_noalias_attrs(op, f),
            }
            f
        } else if let Some(target) = self.ir.str_attr(op, strata_abi::CUSTOM_CALL_ATTR) {
            // A registry entry, not a symbol (see custom_call.rs).
            let target = target.to_string();
            custom_call::declare_custom_call(self, op, &name, &target);
            return Ok(());
        } else {
            let f = self.ll.external(&name, ty);
            self.add_extension_attrs(op, f);
            f
        };
        self.funcs.insert(name, f);
        Ok(())
    }

    /// `noalias` on the buffer parameters of a defined function. Sound
    /// because the C ABI requires output buffers not to overlap any other
    /// buffer argument, and internal calls pass distinct allocations for
    /// outputs (inputs may repeat, but are only read). An outlined parallel
    /// loop whose captures view one buffer twice says `may_alias`.
    fn add_noalias_attrs(&self, op: OpId, f: FunctionValue<'ctx>) {
        if self.ir.attr_of(op, "may_alias").is_some() {
            return;
        }
        let Some((inputs, _)) = builtin::func_signature(self.ir, op) else {
            return;
        };
        // A donated argument and its result may be one buffer.
        let shared = self
            .ir
            .i64_array(op, strata_abi::ALIASED_PARAMS_ATTR)
            .unwrap_or_default();
        for (i, &t) in inputs.iter().enumerate() {
            if matches!(self.ir.types.kind(t), TypeKind::MemRef { .. })
                && !shared.contains(&(i as i64))
            {
                let a = self
                    .ll
                    .cx
                    .create_enum_attribute(Attribute::get_named_enum_kind_id("noalias"), 0);
                f.add_attribute(AttributeLoc::Param(i as u32), a);
            }
        }
    }

    /// `signext` / `zeroext` on narrow integer parameters and results of an
    /// external function, as the C ABI expects.
    fn add_extension_attrs(&self, op: OpId, f: FunctionValue<'ctx>) {
        let Some((inputs, results)) = builtin::func_signature(self.ir, op) else {
            return;
        };
        let attr = |t| match self.ir.types.kind(t) {
            TypeKind::Int { width, sign } if *width < 32 => {
                let kind = if *sign == Signedness::Unsigned || *width == 1 {
                    "zeroext"
                } else {
                    "signext"
                };
                Some(
                    self.ll
                        .cx
                        .create_enum_attribute(Attribute::get_named_enum_kind_id(kind), 0),
                )
            }
            _ => None,
        };
        for (i, &t) in inputs.iter().enumerate() {
            if let Some(a) = attr(t) {
                f.add_attribute(AttributeLoc::Param(i as u32), a);
            }
        }
        if let Some(a) = results.first().and_then(|&t| attr(t)) {
            f.add_attribute(AttributeLoc::Return, a);
        }
    }

    fn define_func(&mut self, op: OpId) -> Result<()> {
        let name = self.func_name(op)?;
        let f = self.funcs[&name];
        let region = self.ir.op(op).regions[0];
        let blocks = &self.ir.regions[region].blocks;
        if blocks.len() != 1 {
            return Err(Diagnostic::unsupported(
                self.loc(op),
                "functions with more than one block cannot be lowered",
            ));
        }
        let block = blocks[0];
        let entry = self.ll.cx.append_basic_block(f, "entry");
        let body = self.ll.cx.append_basic_block(f, "body");
        self.alloca_block = Some(entry);
        self.returns_status =
            builtin::func_signature(self.ir, op).is_some_and(|(_, r)| r.is_empty());
        // Calls of functions with a body (runtime calls are not inlined).
        let module = self
            .ir
            .op(op)
            .parent
            .and_then(|b| self.ir.block_parent_op(b));
        let mut calls = 0usize;
        self.ir.walk_nested(op, &mut |o| {
            let defined = || {
                let callee = match self.ir.attr_kind(self.ir.attr_of(o, "callee")?) {
                    strata_ir::AttrKind::SymbolRef(s) => s,
                    _ => return None,
                };
                let f = builtin::lookup_func(self.ir, module?, callee)?;
                self.ir.entry_block(f, 0)
            };
            if self.ir.op(o).name == CALL && defined().is_some() {
                calls += 1;
            }
        });
        self.keep_calls = calls > crate::params::MAX_INLINED_CALLS;
        let args = &self.ir.blocks[block].args;
        match self.packed.get(&f) {
            Some(&pack) => self.bind_packed_params(f, pack, args)?,
            None => {
                let params = f.get_params();
                if params.len() != args.len() {
                    return Err(self.internal(op, "parameter count mismatch"));
                }
                for (&arg, p) in args.iter().zip(params) {
                    self.values.insert(arg, p);
                }
            }
        }
        self.ll.b.position_at_end(body);
        self.lower_block(block)?;
        if self
            .ll
            .b
            .get_insert_block()
            .is_some_and(|bb| bb.get_terminator().is_none())
        {
            return Err(self.internal(op, "body does not end with 'func.return'"));
        }
        self.ll.b.position_at_end(entry);
        self.ll.b.build_unconditional_branch(body).map_err(ice)?;
        self.alloca_block = None;
        Ok(())
    }

    /// `int32_t P_f(args...)`: clears the last error, calls `P.f` and
    /// returns its status (0 on success).
    fn export_wrapper(&mut self, op: OpId) -> Result<()> {
        let name = self.func_name(op)?;
        // `strata compile` holds exported names to the C identifier rule
        // before code generation (they reach the header); `check` and
        // `run` call their wrappers by symbol, so only the length limit
        // applies everywhere (a 10 MB symbol makes every tool slow).
        if name.len() > strata_abi::MAX_NAME_LEN {
            return Err(Diagnostic::error(
                self.loc(op),
                format!(
                    "public function @{} cannot be exported: the name has {} characters (at most {})",
                    strata_abi::shown_name(&name),
                    name.len(),
                    strata_abi::MAX_NAME_LEN
                ),
            ));
        }
        if strata_abi::LIBRARY_API.contains(&name.as_str()) {
            return Err(Diagnostic::error(
                self.loc(op),
                format!(
                    "a public function cannot be named @{name}: its C name {}_{name} belongs to the library's API",
                    self.prefix
                ),
            ));
        }
        let has_results = builtin::func_signature(self.ir, op).is_some_and(|(_, r)| !r.is_empty());
        if has_results {
            return Err(Diagnostic::unsupported(
                self.loc(op),
                format!(
                    "exported function '@{name}' returns a value; results must be passed as output buffers"
                ),
            ));
        }
        self.export_entry(op, &name, Entry::Direct)?;
        self.export_entry(op, &name, Entry::WithScratch)?;
        self.export_entry(op, &name, Entry::Packed)?;
        self.scratch_bytes_fn(op, &name)
    }

    /// `int32_t P_f(buffers...)`; `int32_t P_f_with_scratch(buffers..., void
    /// *scratch)`; or `int32_t P_f_packed(void *const *buffers)`, the same
    /// call with the buffers in an array (one C type for every function, for
    /// generic hosts: `strata run`, Python). Each checks the CPU and the
    /// buffers, then runs `P.f` with its arenas on this thread's stack (reset
    /// on return, whatever the status) or on the caller's scratch.
    fn export_entry(&mut self, op: OpId, name: &str, kind: Entry) -> Result<()> {
        let inner = self.funcs[name];
        let i32t = self.ll.cx.i32_type();
        let ptr = self.ll.cx.ptr_type(AddressSpace::default());
        // The program's parameters (`P.f` may take them packed).
        let mut params = self.param_types(op)?;
        let types = params.clone();
        let count = params.len();
        let symbol = match kind {
            Entry::Direct => format!("{}_{name}", self.prefix),
            Entry::WithScratch => {
                params.push(ptr.into());
                format!("{}_{name}_with_scratch", self.prefix)
            }
            Entry::Packed => {
                params = vec![ptr.into()];
                format!("{}_{name}_packed", self.prefix)
            }
        };
        let f = self
            .ll
            .module
            .add_function(&symbol, i32t.fn_type(&params, false), None);
        f.add_attribute(AttributeLoc::Function, crate::llvm::nounwind(self.ll.cx));
        if self.packed.contains_key(&inner) {
            self.leave_unoptimised(f);
        }
        let bb = self.ll.cx.append_basic_block(f, "entry");
        self.ll.b.position_at_end(bb);
        let mut args: Vec<BasicMetadataValueEnum> =
            f.get_params().into_iter().map(|p| p.into()).collect();
        let scratch = if kind == Entry::WithScratch {
            Some(args.pop().ok_or_else(|| ice("no scratch parameter"))?)
        } else {
            None
        };
        let mut pack = None;
        if kind == Entry::Packed {
            let array = f
                .get_nth_param(0)
                .ok_or_else(|| ice("no buffers parameter"))?
                .into_pointer_value();
            self.emit_null_array_check(&symbol, array, count)?;
            match self.packed.get(&inner) {
                // Each pointer goes from the array to the pack at once: no
                // value lives long (see below).
                Some(&ty) => {
                    let p = self.pack_from_array(ty, array, &types)?;
                    args = vec![p.into()];
                    pack = Some((ty, p));
                }
                None => {
                    args = (0..count)
                        .map(|i| Ok(self.load_param(array, i, types[i])?.into()))
                        .collect::<Result<_>>()?;
                }
            }
        } else if let Some(&ty) = self.packed.get(&inner) {
            // Packed in the entry block, where the parameters arrive: used
            // in a later block, each would be copied to a register live
            // from the entry on, and LLVM's register allocation of that
            // many overlapping values takes time quadratic in their count
            // (20,000: 10 s instead of 2). Plain stores, safe on any CPU;
            // the checks below read the pack.
            let p = self.pack_args(ty, &args)?;
            args = vec![p.into()];
            pack = Some((ty, p));
        }
        library_api::emit_cpu_check(self, f)?;
        let clear = self.ll.runtime_fn(&strata_abi::runtime::CLEAR_ERROR);
        self.ll.call(clear, &[])?;
        self.emit_null_checks(op, f, name, pack)?;
        let on_pool = pool_entry::parallel_regions(self.ir, op, 2) >= 2;
        let status = if on_pool {
            pool_entry::call_inner_on_pool(
                self,
                name,
                inner,
                &args,
                scratch_bytes(self.ir, op),
                scratch,
            )?
        } else if let Some(scratch) = scratch {
            let use_scratch = self.ll.runtime_fn(&strata_abi::runtime::ARENA_USE_SCRATCH);
            let bytes = self.ll.i64(scratch_bytes(self.ir, op));
            let refused = self
                .ll
                .call(use_scratch, &[scratch, bytes.into()])?
                .ok_or_else(|| ice("strata_rt_arena_use_scratch returns nothing"))?
                .into_int_value();
            self.ll.return_status_if_failed(refused)?;
            let status = self
                .ll
                .call(inner, &args)?
                .ok_or_else(|| ice("internal function returns no status"))?;
            let end = self.ll.runtime_fn(&strata_abi::runtime::ARENA_END_SCRATCH);
            self.ll.call(end, &[])?;
            status
        } else {
            self.call_between_arena_marks(inner, &args)?
        };
        self.ll.b.build_return(Some(&status)).map_err(ice)?;
        Ok(())
    }

    /// A NULL array of `count > 0` buffers makes the wrapper being built
    /// return 1 with a message.
    fn emit_null_array_check(
        &mut self,
        symbol: &str,
        array: PointerValue<'ctx>,
        count: usize,
    ) -> Result<()> {
        if count == 0 {
            return Ok(());
        }
        let message = format!("{symbol}: the array of {count} buffers is NULL");
        self.ll.fail_if_null(array, &message, "null_array")
    }

    /// Slot `i` of an array of pointers.
    pub(crate) fn array_slot(
        &self,
        array: PointerValue<'ctx>,
        i: usize,
    ) -> Result<PointerValue<'ctx>> {
        let ptr = self.ll.cx.ptr_type(AddressSpace::default());
        // SAFETY (of the generated code): the caller passes as many
        // pointers as the function has buffers, as the header says.
        unsafe {
            self.ll
                .b
                .build_in_bounds_gep(ptr, array, &[self.ll.i64(i as u64)], "")
                .map_err(ice)
        }
    }

    /// Parameter `i` of `types` from slot `i` of `array`: the buffer
    /// pointer itself, or for a scalar parameter (functions of `strata opt`
    /// pipelines; the driver's ABI passes buffers only) the value it points
    /// to.
    pub(crate) fn load_param(
        &self,
        array: PointerValue<'ctx>,
        i: usize,
        ty: BasicMetadataTypeEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let ptr = self.ll.cx.ptr_type(AddressSpace::default());
        let slot = self.array_slot(array, i)?;
        let pointer = self.ll.b.build_load(ptr, slot, "").map_err(ice)?;
        match BasicTypeEnum::try_from(ty) {
            Ok(BasicTypeEnum::PointerType(_)) => Ok(pointer),
            Ok(scalar) => self
                .ll
                .b
                .build_load(scalar, pointer.into_pointer_value(), "")
                .map_err(ice),
            Err(_) => Err(ice("a parameter that is not a first-class value")),
        }
    }

    /// `inner(args)` between a mark of this thread's arena stack and a reset
    /// to it (whatever the status); returns the status.
    pub(crate) fn call_between_arena_marks(
        &mut self,
        inner: FunctionValue<'ctx>,
        args: &[BasicMetadataValueEnum<'ctx>],
    ) -> Result<inkwell::values::BasicValueEnum<'ctx>> {
        let mark_fn = self.ll.runtime_fn(&strata_abi::runtime::ARENA_MARK);
        let mark = self
            .ll
            .call(mark_fn, &[])?
            .ok_or_else(|| ice("strata_rt_arena_mark returns nothing"))?;
        let status = self
            .ll
            .call(inner, args)?
            .ok_or_else(|| ice("internal function returns no status"))?;
        let reset = self.ll.runtime_fn(&strata_abi::runtime::ARENA_RESET);
        self.ll.call(reset, &[mark.into()])?;
        Ok(status)
    }

    /// `int64_t P_f_scratch_bytes(void)`: the scratch `P_f_with_scratch`
    /// needs (`loop-plan-arena`'s `scratch_bytes`).
    fn scratch_bytes_fn(&mut self, op: OpId, name: &str) -> Result<()> {
        let i64t = self.ll.cx.i64_type();
        let f = self.ll.module.add_function(
            &format!("{}_{name}_scratch_bytes", self.prefix),
            i64t.fn_type(&[], false),
            None,
        );
        f.add_attribute(AttributeLoc::Function, crate::llvm::nounwind(self.ll.cx));
        let bb = self.ll.cx.append_basic_block(f, "entry");
        self.ll.b.position_at_end(bb);
        let bytes = self.ll.i64(scratch_bytes(self.ir, op));
        self.ll.b.build_return(Some(&bytes)).map_err(ice)?;
        Ok(())
    }

    /// A NULL pointer for a buffer that holds data makes the exported
    /// function return 1 with a message naming the buffer's position,
    /// instead of crashing the host (empty buffers may be NULL).
    ///
    /// With `pack` (a wrapper whose parameters were stored in `P.f`'s
    /// pack, see `params.rs`), each check reads the pointer from the pack,
    /// so that no parameter is used past the entry block.
    fn emit_null_checks(
        &mut self,
        op: OpId,
        f: FunctionValue<'ctx>,
        name: &str,
        pack: Option<(StructType<'ctx>, PointerValue<'ctx>)>,
    ) -> Result<()> {
        let Some((inputs, _)) = builtin::func_signature(self.ir, op) else {
            return Ok(());
        };
        let count = inputs.len();
        let ptr = self.ll.cx.ptr_type(AddressSpace::default());
        for (i, &t) in inputs.iter().enumerate() {
            if !matches!(self.ir.types.kind(t), TypeKind::MemRef { .. })
                || crate::types::memref_bytes(self.ir, t) == 0
            {
                continue;
            }
            let p = match pack {
                Some((ty, pack)) => {
                    let slot = self
                        .ll
                        .b
                        .build_struct_gep(ty, pack, i as u32, "")
                        .map_err(ice)?;
                    self.ll.b.build_load(ptr, slot, "").map_err(ice)?
                }
                None => match f.get_nth_param(i as u32) {
                    Some(p) => p,
                    None => continue,
                },
            };
            let message = format!(
                "{}_{name}: buffer parameter {} of {count} is NULL (every buffer that holds data must be passed)",
                self.prefix,
                i + 1
            );
            self.ll
                .fail_if_null(p.into_pointer_value(), &message, "null_buffer")?;
        }
        Ok(())
    }

    /// `func.call` and `func.return` inside a function body.
    pub(crate) fn lower_func_op(&mut self, op: OpId) -> Result<()> {
        let n = self.ir.op(op).operands().len();
        let args = (0..n)
            .map(|i| self.val(op, i))
            .collect::<Result<Vec<_>>>()?;
        match self.ir.op(op).name {
            CALL => {
                let callee = match self.ir.attr_of(op, "callee").map(|a| self.ir.attr_kind(a)) {
                    Some(strata_ir::AttrKind::SymbolRef(s)) => s.clone(),
                    _ => return Err(self.internal(op, "has no 'callee'")),
                };
                if let Some(&entry) = self.custom_calls.get(&callee) {
                    return custom_call::lower_custom_call(self, op, entry, &args);
                }
                let f = *self
                    .funcs
                    .get(&callee)
                    .ok_or_else(|| self.internal(op, format!("calls unknown '@{callee}'")))?;
                let args: Vec<BasicMetadataValueEnum> =
                    args.into_iter().map(|a| a.into()).collect();
                let r = self.call_defined(f, &args)?;
                if strata_abi::runtime::returns_status(&callee) && self.returns_status {
                    // A runtime function that failed: its status, with the
                    // last error it set.
                    let status = r
                        .ok_or_else(|| ice("a status-returning function returns nothing"))?
                        .into_int_value();
                    if let Some(&res) = self.ir.op(op).results.first() {
                        self.values.insert(res, status.into());
                    }
                    return self.ll.return_status_if_failed(status);
                }
                let callee_defined = self.ir.op(op).results.is_empty()
                    && f.get_first_basic_block().is_some()
                    && f.get_type().get_return_type().is_some();
                if callee_defined && self.returns_status {
                    // Propagate a failed callee's status.
                    let status = r
                        .ok_or_else(|| ice("internal function returns no status"))?
                        .into_int_value();
                    return self.ll.return_status_if_failed(status);
                }
                match (r, self.ir.op(op).results.len()) {
                    (_, 0) => Ok(()),
                    (Some(v), 1) => self.bind(op, 0, v),
                    _ => Err(self.internal(op, "result count does not match the callee")),
                }
            }
            RETURN => {
                match args.as_slice() {
                    [] if self.returns_status => self
                        .ll
                        .b
                        .build_return(Some(&self.ll.cx.i32_type().const_zero())),
                    [] => self.ll.b.build_return(None),
                    [v] => self.ll.b.build_return(Some(v)),
                    _ => {
                        return Err(Diagnostic::unsupported(
                            self.loc(op),
                            "returning more than one value",
                        ));
                    }
                }
                .map_err(ice)?;
                Ok(())
            }
            name => Err(Diagnostic::unsupported(
                self.loc(op),
                format!("'{name}' op cannot be lowered to LLVM IR"),
            )),
        }
    }
}
