//! `custom_call`: the targets the lowering knows (the rest are reported
//! together, JAX's host callbacks by their JAX name) and calls of a user's
//! target through the library's registry.

use strata_diag::{Diagnostic, Result};
use strata_ir::{AttrKind, Context, OpId, Type, TypeKind, builtin};

use super::{FuncLowering, Repr};
use crate::builder::Builder;

/// Every custom call whose target the lowering does not know (not a user's
/// function, not rewritten by the front passes), so a module reports them
/// all at once: the first as the error, the others as notes at their
/// locations.
pub(super) fn check_custom_call_targets(ctx: &Context, module: OpId) -> Result<()> {
    let mut unknown: Vec<(strata_diag::Location, String)> = Vec::new();
    ctx.walk_nested(module, &mut |op| {
        if let Some(message) = unsupported_custom_call(ctx, op) {
            unknown.push((ctx.op(op).loc, message));
        }
    });
    let mut found = unknown.into_iter();
    let Some((loc, message)) = found.next() else {
        return Ok(());
    };
    let mut d = Diagnostic::unsupported(loc, message);
    d.notes = found
        .map(|(l, m)| (l, format!("also unsupported: {m}")))
        .collect();
    Err(d)
}

/// Why custom call `op` cannot be lowered: its target is not one a host
/// can register (the front passes rewrote the targets Strata knows).
pub(super) fn unsupported_custom_call(ctx: &Context, op: OpId) -> Option<String> {
    if ctx.op(op).name != strata_dialect_xla::CUSTOM_CALL {
        return None;
    }
    let target = strata_dialect_xla::ops::misc::call_target(ctx, op).unwrap_or("?");
    if strata_abi::is_host_custom_call(target) {
        return None;
    }
    if let Some(api) = jax_host_callback(ctx, op, target) {
        return Some(format!(
            "{api} is not supported: it calls back into the Python process that traced the model \
             (custom_call @{target}), which an ahead-of-time library does not have; compute the \
             value in the model, or export the host function as a custom call the host registers"
        ));
    }
    use strata_dialect_xla::transforms::lapack_custom_calls::jax_function;
    if let Some(f) = jax_function(target) {
        return Some(format!(
            "{f} is not supported here: JAX lowers it to LAPACK (custom_call @{}), and this \
             routine or its options are not among those Strata compiles",
            strata_abi::shown_name(target)
        ));
    }
    Some(format!(
        "custom_call target '{}' is not supported",
        strata_abi::shown_name(target)
    ))
}

/// The JAX function behind a Python host callback: JAX lowers
/// `jax.pure_callback`, `jax.experimental.io_callback` and
/// `jax.debug.callback` (and `jax.debug.print`) to one target, telling
/// them apart only by side effects and results.
fn jax_host_callback(ctx: &Context, op: OpId, target: &str) -> Option<&'static str> {
    const TARGETS: &[&str] = &[
        "xla_ffi_python_cpu_callback",
        "xla_python_cpu_callback",
        "xla_ffi_python_gpu_callback",
        "xla_python_gpu_callback",
    ];
    if !TARGETS.contains(&target) {
        return None;
    }
    let side_effect = ctx
        .attr_of(op, "has_side_effect")
        .is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::Bool(true) | AttrKind::Unit));
    let returns = ctx
        .op(op)
        .results
        .iter()
        .any(|&r| matches!(ctx.types.kind(ctx.value_ty(r)), TypeKind::Tensor { .. }));
    Some(match (side_effect, returns) {
        (false, _) => "jax.pure_callback",
        (true, true) => "jax.experimental.io_callback",
        (true, false) => {
            "jax.debug.callback (or jax.debug.print, or an io_callback without results)"
        }
    })
}

impl FuncLowering<'_> {
    /// `custom_call @target(...)`: a call through the library's registry
    /// of host implementations (`P_register_custom_call`). The target gets
    /// a bodiless private declaration whose symbol the lowering makes up
    /// (never the target's own name, so it cannot meet a function of the
    /// module), marked with the unit-free attribute `custom_call = "target"`
    /// and the operand count: codegen turns calls of it into the runtime's
    /// `strata_rt_custom_call` on the target's registry entry.
    pub(super) fn user_custom_call(
        &mut self,
        b: &mut Builder<'_>,
        op: OpId,
        target: String,
    ) -> Result<()> {
        let mut args = Vec::new();
        for v in b.ctx.op(op).operands().to_vec() {
            if !matches!(b.ctx.types.kind(b.ctx.value_ty(v)), TypeKind::Tensor { .. }) {
                return Err(Diagnostic::unsupported(
                    b.loc,
                    format!(
                        "custom_call @{target}: only tensor operands and results can be passed to the host"
                    ),
                ));
            }
            args.push(self.buffer_of(b, v)?);
        }
        let operands = args.len();
        for r in b.ctx.op(op).results.clone() {
            let t = b.ctx.value_ty(r);
            if !matches!(b.ctx.types.kind(t), TypeKind::Tensor { .. }) {
                return Err(Diagnostic::unsupported(
                    b.loc,
                    format!(
                        "custom_call @{target}: only tensor operands and results can be passed to the host"
                    ),
                ));
            }
            let buf = self.new_buffer(b, t)?;
            self.repr.insert(r, Repr::Buffer(buf));
            args.push(buf);
        }
        let i32t = b.ctx.types.int_ty(32);
        let params: Vec<Type> = args.iter().map(|&a| b.ctx.value_ty(a)).collect();
        let fty = b.ctx.types.function_ty(params, vec![i32t]);
        let symbol = match self.state.custom_calls.get(&target) {
            Some((_, known)) if *known != fty => {
                return Err(Diagnostic::error(
                    b.loc,
                    format!("custom_call @{target} is called with two different signatures"),
                ));
            }
            Some((symbol, _)) => symbol.clone(),
            None => {
                let symbol = self.declare_custom_call(b, &target, fty, operands);
                self.state
                    .custom_calls
                    .insert(target.clone(), (symbol.clone(), fty));
                symbol
            }
        };
        let callee = b.ctx.attr(AttrKind::SymbolRef(symbol));
        b.insert(
            builtin::CALL,
            args,
            &[i32t],
            vec![("callee".into(), callee)],
        );
        Ok(())
    }

    /// The private declaration standing for custom-call `target`, under a
    /// symbol no function of the module has; returns the symbol.
    fn declare_custom_call(
        &mut self,
        b: &mut Builder<'_>,
        target: &str,
        fty: Type,
        operands: usize,
    ) -> String {
        let mb = self.state.module_block;
        let module = b.ctx.block_parent_op(mb);
        let taken = |ctx: &Context, name: &str| {
            module.is_some_and(|m| builtin::lookup_func(ctx, m, name).is_some())
        };
        let mut symbol = format!("custom_call.{target}");
        let mut n = 0;
        while taken(b.ctx, &symbol) {
            n += 1;
            symbol = format!("custom_call.{target}.{n}");
        }
        let mut attrs = builtin::private_func_attrs(b.ctx, &symbol, fty);
        attrs.extend([
            (
                strata_abi::CUSTOM_CALL_ATTR.into(),
                b.ctx.attr(AttrKind::String(target.to_string())),
            ),
            (strata_abi::CUSTOM_CALL_OPERANDS_ATTR.into(), {
                let ty = b.ctx.types.int_ty(64);
                b.ctx.attr(AttrKind::Int {
                    value: operands as i128,
                    ty,
                })
            }),
        ]);
        let decl = b.ctx.create_op(
            builtin::FUNC,
            vec![],
            &[],
            attrs,
            strata_diag::Location::unknown(),
        );
        self.state.add_front(b.ctx, decl);
        symbol
    }
}
