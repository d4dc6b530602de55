//! Functions with many parameters take them packed.
//!
//! A defined function with more than [`MAX_DIRECT_PARAMS`] parameters
//! becomes `P.f(ptr %args)` instead of `P.f(p0, p1, ...)`: `%args` points
//! to a struct of the parameters in order, which the caller fills on its
//! stack, and `P.f` loads each where it uses it. The exported `P_f` keeps the C
//! ABI's one parameter per buffer; it only stores them into the struct and
//! calls `P.f`, and it is `optnone`.
//!
//! Why: LLVM keeps a function's parameter attributes in one immutable,
//! uniqued list with a slot per parameter, and changing one parameter's
//! attributes makes a new list. Our `noalias` on each buffer parameter,
//! and LLVM's function-attrs pass inferring `readonly` / `captures(none)`
//! on each one, therefore cost memory and time quadratic in the number of
//! parameters, and the lists live as long as the LLVM context: 5,000
//! arguments took 820 MB, 10,000 took 3 GB, 20,000 took 7.4 GB and then
//! LLVM aborted. A packed function has one parameter; function-attrs
//! skips `optnone` functions, so the wrapper's parameters get none.
//!
//! The price is the `noalias` of the packed parameters (their pointers
//! are loads now), so the threshold is far above real signatures (GPT-2
//! with its weights as arguments has about 150; a 70B-parameter LLaMA
//! about 720), where the quadratic part stays small (about 30 MB and a
//! fraction of a second at 1,024).
//!
//! Only the native backend packs: with `--backend mlir` the other backend
//! defines `P.f` with its own signature.

use inkwell::AddressSpace;
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::types::{BasicMetadataTypeEnum, BasicTypeEnum, StructType};
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, FunctionValue, PointerValue};
use strata_diag::Result;

use crate::ice;
use crate::state::Lowerer;

/// Parameters a defined function takes directly; more are packed.
pub const MAX_DIRECT_PARAMS: usize = 1024;

/// Calls of defined functions in one function beyond which none of them
/// is inlined. LLVM inlines a small function called once, and the caller
/// of thousands of them becomes one huge function that its passes take
/// superlinear time over (20,000 calls of small functions: 800 s in
/// LLVM's optimisation, against 20 s with the calls kept).
pub(crate) const MAX_INLINED_CALLS: usize = 256;

impl<'ctx> Lowerer<'ctx, '_> {
    /// The struct type `name` that a function with these parameter types
    /// takes packed, if it has too many to take them directly. Named: LLVM
    /// IR text spells an anonymous struct type out in full at every use,
    /// which would make a `.ll` file quadratic in the parameter count.
    pub(crate) fn pack_type(
        &self,
        name: &str,
        params: &[BasicMetadataTypeEnum<'ctx>],
    ) -> Option<StructType<'ctx>> {
        if params.len() <= MAX_DIRECT_PARAMS {
            return None;
        }
        let fields: Vec<BasicTypeEnum<'ctx>> = params
            .iter()
            .filter_map(|&t| BasicTypeEnum::try_from(t).ok())
            .collect();
        let ty = self.ll.cx.opaque_struct_type(name);
        ty.set_body(&fields, false);
        Some(ty)
    }

    /// The single `ptr` parameter list of a packed function.
    pub(crate) fn packed_params(&self) -> Vec<BasicMetadataTypeEnum<'ctx>> {
        vec![self.ll.cx.ptr_type(AddressSpace::default()).into()]
    }

    /// Calls the defined or external function `f` with `args`, packing
    /// them first if `f` takes them packed; `noinline` at the call site in
    /// a function that makes too many calls (`keep_calls`).
    pub(crate) fn call_defined(
        &self,
        f: FunctionValue<'ctx>,
        args: &[BasicMetadataValueEnum<'ctx>],
    ) -> Result<Option<BasicValueEnum<'ctx>>> {
        let packed;
        let args = match self.packed.get(&f) {
            Some(&ty) => {
                packed = [self.pack_args(ty, args)?.into()];
                &packed[..]
            }
            None => args,
        };
        let site = self.ll.b.build_call(f, args, "").map_err(ice)?;
        if self.keep_calls && f.get_first_basic_block().is_some() {
            let noinline = self
                .ll
                .cx
                .create_enum_attribute(Attribute::get_named_enum_kind_id("noinline"), 0);
            site.add_attribute(AttributeLoc::Function, noinline);
        }
        Ok(site.try_as_basic_value().basic())
    }

    /// A struct of type `ty` holding `args`, on the current function's
    /// stack, stored at the builder's position.
    pub(crate) fn pack_args(
        &self,
        ty: StructType<'ctx>,
        args: &[BasicMetadataValueEnum<'ctx>],
    ) -> Result<PointerValue<'ctx>> {
        let pack = self.entry_alloca(ty.into(), "args")?;
        for (i, &a) in args.iter().enumerate() {
            let value = BasicValueEnum::try_from(a)
                .map_err(|_| ice("a packed argument is not a first-class value"))?;
            let slot = self
                .ll
                .b
                .build_struct_gep(ty, pack, i as u32, "")
                .map_err(ice)?;
            self.ll.b.build_store(slot, value).map_err(ice)?;
        }
        Ok(pack)
    }

    /// `P.f`'s pack filled from an array of `count` pointers, each copied
    /// straight from its slot to the pack's.
    pub(crate) fn pack_from_array(
        &self,
        ty: StructType<'ctx>,
        array: PointerValue<'ctx>,
        types: &[BasicMetadataTypeEnum<'ctx>],
    ) -> Result<PointerValue<'ctx>> {
        let pack = self.entry_alloca(ty.into(), "args")?;
        for (i, &t) in types.iter().enumerate() {
            let value = self.load_param(array, i, t)?;
            let field = self
                .ll
                .b
                .build_struct_gep(ty, pack, i as u32, "")
                .map_err(ice)?;
            self.ll.b.build_store(field, value).map_err(ice)?;
        }
        Ok(pack)
    }

    /// Makes the block arguments `args` of packed function `f` read their
    /// slots of the pack where they are used (see [`Lowerer::packed_arg`]),
    /// and tells LLVM that nothing else writes the pack while `f` runs.
    pub(crate) fn bind_packed_params(
        &mut self,
        f: FunctionValue<'ctx>,
        ty: StructType<'ctx>,
        args: &[strata_ir::Value],
    ) -> Result<()> {
        let pack = f
            .get_nth_param(0)
            .ok_or_else(|| ice("packed function without its parameter"))?
            .into_pointer_value();
        if ty.count_fields() as usize != args.len() {
            return Err(ice("packed parameter count mismatch"));
        }
        // The caller's own stack slot, only read here: `noalias` lets LICM
        // hoist the loads out of the loops that use the parameters.
        let noalias = self
            .ll
            .cx
            .create_enum_attribute(Attribute::get_named_enum_kind_id("noalias"), 0);
        f.add_attribute(AttributeLoc::Param(0), noalias);
        for (i, &v) in args.iter().enumerate() {
            self.packed_args.insert(v, (pack, ty, i as u32));
        }
        Ok(())
    }

    /// A packed parameter, loaded from its slot at the builder's position.
    /// Each use loads it again (LLVM merges and hoists the loads): loading
    /// them all at the top of the function would make one basic block
    /// with a value live per parameter, and LLVM's instruction scheduling
    /// takes time quadratic in such a block (20,000 loads: 42 s).
    pub(crate) fn packed_arg(&self, v: strata_ir::Value) -> Option<Result<BasicValueEnum<'ctx>>> {
        let &(pack, ty, i) = self.packed_args.get(&v)?;
        let field = ty.get_field_type_at_index(i)?;
        Some((|| {
            let slot = self.ll.b.build_struct_gep(ty, pack, i, "").map_err(ice)?;
            self.ll.b.build_load(field, slot, "").map_err(ice)
        })())
    }

    /// Keeps LLVM's optimiser off `f` (an exported wrapper with very many
    /// parameters, which only forwards them packed; see the module
    /// comment).
    pub(crate) fn leave_unoptimised(&self, f: FunctionValue<'ctx>) {
        for name in ["optnone", "noinline"] {
            let a = self
                .ll
                .cx
                .create_enum_attribute(Attribute::get_named_enum_kind_id(name), 0);
            f.add_attribute(AttributeLoc::Function, a);
        }
    }

    /// A stack slot of type `ty` at the top of the current function's
    /// entry block (so that a loop does not allocate it again each time).
    fn entry_alloca(&self, ty: BasicTypeEnum<'ctx>, name: &str) -> Result<PointerValue<'ctx>> {
        let entry = self
            .ll
            .current_fn()?
            .get_first_basic_block()
            .ok_or_else(|| ice("function without an entry block"))?;
        let eb = self.ll.builder_at_start(entry);
        eb.build_alloca(ty, name).map_err(ice)
    }
}
