//! Calls of the runtime's functions: declared once per module from their
//! signatures in `strata_abi::runtime`, with descriptors as module
//! constants.

use strata_diag::Result;
use strata_ir::{AttrKind, Type, Value, builtin};

use super::FuncLowering;
use crate::builder::Builder;

impl FuncLowering<'_> {
    /// A module constant holding a runtime call's descriptor (its `i64`
    /// words, see `strata_abi::Descriptor`).
    pub fn descriptor_global(
        &mut self,
        b: &mut Builder<'_>,
        desc: &impl strata_abi::Descriptor,
    ) -> Result<Value> {
        let words = desc.words();
        let i64t = b.ctx.types.int_ty(64);
        let ty = b.ctx.types.tensor_ty(&[words.len() as i64], i64t);
        let attr = b.ctx.attr(AttrKind::Dense(strata_ir::DenseElements {
            ty,
            splat: false,
            bits: words.iter().map(|&w| w as u64).collect(),
        }));
        self.global_of_attr(b, attr, ty)
    }

    /// Calls the runtime function `sig` with `args` (buffers as any
    /// memref), declaring it once per module from its signature in
    /// `strata_abi::runtime`; its result, if it has one. A status result is
    /// checked by codegen (a non-zero one returns from the caller): the
    /// signature says so, no attribute on the call or declaration does.
    pub fn call_runtime(
        &mut self,
        b: &mut Builder<'_>,
        sig: &'static strata_abi::runtime::Signature,
        args: Vec<Value>,
    ) -> Option<Value> {
        let fty = builtin::runtime_fn_type(b.ctx, sig);
        self.declare_runtime_op(b, sig.name, fty);
        let results = match b.ctx.types.kind(fty) {
            strata_ir::TypeKind::Function { results, .. } => results.clone(),
            _ => Vec::new(),
        };
        let callee = b.ctx.attr(AttrKind::SymbolRef(sig.name.into()));
        let call = b.insert(
            builtin::CALL,
            args,
            &results,
            vec![("callee".into(), callee)],
        );
        b.ctx.op(call).results.first().copied()
    }

    /// Declares the runtime function `name` once per module, as a bodiless
    /// private `func.func` of type `fty`.
    fn declare_runtime_op(&mut self, b: &mut Builder<'_>, name: &'static str, fty: Type) {
        if !self.state.declared.insert(name) {
            return;
        }
        let attrs = builtin::private_func_attrs(b.ctx, name, fty);
        let decl = b.ctx.create_op(
            builtin::FUNC,
            vec![],
            &[],
            attrs,
            strata_diag::Location::unknown(),
        );
        self.state.add_front(b.ctx, decl);
    }
}
