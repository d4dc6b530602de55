//! The library's own entry points beside the exported functions: the CPU
//! check every exported function runs first, `P_set_num_threads`,
//! `P_replicas_run`, the feed hooks and `P_last_error`, each forwarding to
//! the runtime.

use inkwell::AddressSpace;
use inkwell::attributes::AttributeLoc;
use inkwell::module::Linkage;
use inkwell::values::{AnyValue, BasicMetadataValueEnum, FunctionValue};
use strata_diag::Result;

use crate::ice;
use crate::llvm::nounwind;
use crate::state::Lowerer;

/// The globals behind the CPU check: the required features as a C
/// string, and `P.cpu_ok`, set to 1 once the check has passed.
pub(crate) fn declare_cpu_check<'ctx>(
    lw: &mut Lowerer<'ctx, '_>,
    features: &str,
    baseline: &'static str,
) -> Result<()> {
    let text = lw.ll.cx.const_string(features.as_bytes(), true);
    let list = lw.ll.module.add_global(
        text.get_type(),
        None,
        &format!("{}.cpu_features", lw.prefix),
    );
    list.set_initializer(&text);
    list.set_constant(true);
    list.set_linkage(Linkage::Private);
    let i32t = lw.ll.cx.i32_type();
    let ok = lw
        .ll
        .module
        .add_global(i32t, None, &format!("{}.cpu_ok", lw.prefix));
    ok.set_initializer(&i32t.const_zero());
    ok.set_linkage(Linkage::Internal);
    lw.cpu_check = Some((list.as_pointer_value(), ok.as_pointer_value(), baseline));
    Ok(())
}

/// At the top of exported wrapper `f`: unless `P.cpu_ok` says the check
/// already passed, asks the runtime whether this CPU has the target's
/// features and returns its non-zero status (the last error names the
/// missing features) if not. The wrapper itself is compiled for the
/// baseline x86-64 CPU, so nothing before the check can fault; the
/// function body, compiled for the target, is never inlined into it.
///
/// ```text
/// entry: ok = load atomic P.cpu_ok; br ok == 1, body, check
/// check: r = strata_rt_cpu_supports(P.cpu_features); br r == 0, pass, fail
/// pass:  store atomic 1, P.cpu_ok; br body
/// fail:  ret r
/// body:  ...
/// ```
pub(crate) fn emit_cpu_check<'ctx>(
    lw: &mut Lowerer<'ctx, '_>,
    f: FunctionValue<'ctx>,
) -> Result<()> {
    let Some((list, ok_flag, baseline)) = lw.cpu_check else {
        return Ok(());
    };
    for (key, value) in [("target-cpu", baseline), ("target-features", "")] {
        f.add_attribute(
            AttributeLoc::Function,
            lw.ll.cx.create_string_attribute(key, value),
        );
    }
    let i32t = lw.ll.cx.i32_type();
    let supports = lw.ll.runtime_fn(&strata_abi::runtime::CPU_SUPPORTS);
    let (check, pass, fail, body) = (
        lw.ll.cx.append_basic_block(f, "cpu_check"),
        lw.ll.cx.append_basic_block(f, "cpu_ok"),
        lw.ll.cx.append_basic_block(f, "cpu_fail"),
        lw.ll.cx.append_basic_block(f, "body"),
    );
    let state = lw.ll.b.build_load(i32t, ok_flag, "cpu_ok").map_err(ice)?;
    if let Some(i) = state.as_any_value_enum().into_int_value().as_instruction() {
        i.set_atomic_ordering(inkwell::AtomicOrdering::Monotonic)
            .map_err(ice)?;
        i.set_alignment(4).map_err(ice)?;
    }
    let one = i32t.const_int(1, false);
    let known = lw
        .ll
        .b
        .build_int_compare(inkwell::IntPredicate::EQ, state.into_int_value(), one, "")
        .map_err(ice)?;
    lw.ll
        .b
        .build_conditional_branch(known, body, check)
        .map_err(ice)?;
    lw.ll.b.position_at_end(check);
    let status = lw
        .ll
        .call(supports, &[list.into()])?
        .ok_or_else(|| ice("strata_rt_cpu_supports returns nothing"))?
        .into_int_value();
    let good = lw
        .ll
        .b
        .build_int_compare(inkwell::IntPredicate::EQ, status, i32t.const_zero(), "")
        .map_err(ice)?;
    lw.ll
        .b
        .build_conditional_branch(good, pass, fail)
        .map_err(ice)?;
    lw.ll.b.position_at_end(pass);
    let store = lw.ll.b.build_store(ok_flag, one).map_err(ice)?;
    store
        .set_atomic_ordering(inkwell::AtomicOrdering::Monotonic)
        .map_err(ice)?;
    store.set_alignment(4).map_err(ice)?;
    lw.ll.b.build_unconditional_branch(body).map_err(ice)?;
    lw.ll.b.position_at_end(fail);
    lw.ll.b.build_return(Some(&status)).map_err(ice)?;
    lw.ll.b.position_at_end(body);
    Ok(())
}

/// `int32_t P_set_num_threads(int32_t n)` forwarding to the runtime's
/// `strata_rt_set_num_threads` (the size of the library's thread pool).
pub(crate) fn set_num_threads_fn<'ctx>(lw: &mut Lowerer<'ctx, '_>) -> Result<()> {
    let i32t = lw.ll.cx.i32_type();
    let fty = i32t.fn_type(&[i32t.into()], false);
    let rt = lw.ll.runtime_fn(&strata_abi::runtime::SET_NUM_THREADS);
    let f = lw
        .ll
        .module
        .add_function(&format!("{}_set_num_threads", lw.prefix), fty, None);
    f.add_attribute(AttributeLoc::Function, nounwind(lw.ll.cx));
    let bb = lw.ll.cx.append_basic_block(f, "entry");
    lw.ll.b.position_at_end(bb);
    let n = f
        .get_nth_param(0)
        .ok_or_else(|| ice("set_num_threads without its parameter"))?;
    let status = lw
        .ll
        .call(rt, &[n.into()])?
        .ok_or_else(|| ice("strata_rt_set_num_threads returns nothing"))?;
    lw.ll.b.build_return(Some(&status)).map_err(ice)?;
    Ok(())
}

/// `int32_t P_replicas_run(int32_t n, void (*body)(int32_t, void *),
/// void *user)` forwarding to the runtime's `strata_rt_replicas_run`:
/// runs `body(d, user)` for every device d on its own thread, where the
/// library's collectives meet.
pub(crate) fn replicas_run_fn<'ctx>(
    lw: &mut Lowerer<'ctx, '_>,
    as_partitions: bool,
    over_mpi: bool,
) -> Result<()> {
    let i32t = lw.ll.cx.i32_type();
    let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
    let fty = i32t.fn_type(&[i32t.into(), ptr.into(), ptr.into()], false);
    let rt = lw.ll.runtime_fn(if over_mpi {
        &strata_abi::runtime::REPLICAS_RUN_MPI
    } else {
        &strata_abi::runtime::REPLICAS_RUN
    });
    let f = lw
        .ll
        .module
        .add_function(&format!("{}_replicas_run", lw.prefix), fty, None);
    let bb = lw.ll.cx.append_basic_block(f, "entry");
    lw.ll.b.position_at_end(bb);
    let mut args: Vec<BasicMetadataValueEnum> =
        f.get_params().into_iter().map(|p| p.into()).collect();
    args.push(i32t.const_int(u64::from(as_partitions), false).into());
    let status = lw
        .ll
        .call(rt, &args)?
        .ok_or_else(|| ice("strata_rt_replicas_run returns nothing"))?;
    lw.ll.b.build_return(Some(&status)).map_err(ice)?;
    Ok(())
}

/// `void P_<name>(hook, void *user)` forwarding to the runtime's `target`
/// (registering the host's infeed or outfeed hook).
pub(crate) fn feed_hook_fn<'ctx>(
    lw: &mut Lowerer<'ctx, '_>,
    name: &str,
    target: &strata_abi::runtime::Signature,
) -> Result<()> {
    let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
    let fty = lw
        .ll
        .cx
        .void_type()
        .fn_type(&[ptr.into(), ptr.into()], false);
    let rt = lw.ll.runtime_fn(target);
    let f = lw
        .ll
        .module
        .add_function(&format!("{}_{name}", lw.prefix), fty, None);
    let bb = lw.ll.cx.append_basic_block(f, "entry");
    lw.ll.b.position_at_end(bb);
    let args: Vec<BasicMetadataValueEnum> = f.get_params().into_iter().map(|p| p.into()).collect();
    lw.ll.call(rt, &args)?;
    lw.ll.b.build_return(None).map_err(ice)?;
    Ok(())
}

/// `const char *P_last_error(void)` forwarding to `strata_rt_last_error`.
pub(crate) fn last_error_fn<'ctx>(lw: &mut Lowerer<'ctx, '_>) -> Result<()> {
    let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
    let rt = lw.ll.runtime_fn(&strata_abi::runtime::LAST_ERROR);
    let f = lw.ll.module.add_function(
        &format!("{}_last_error", lw.prefix),
        ptr.fn_type(&[], false),
        None,
    );
    let bb = lw.ll.cx.append_basic_block(f, "entry");
    lw.ll.b.position_at_end(bb);
    let msg = lw
        .ll
        .call(rt, &[])?
        .ok_or_else(|| ice("strata_rt_last_error returns nothing"))?;
    lw.ll.b.build_return(Some(&msg)).map_err(ice)?;
    Ok(())
}

/// `const char *P_signature(void)`: the library's signature as JSON
/// (functions, and for each buffer its name, path, element type and
/// shape), so a generic host builds a safe call without the header.
pub(crate) fn signature_fn<'ctx>(lw: &mut Lowerer<'ctx, '_>, json: &str) -> Result<()> {
    let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
    let f = lw.ll.module.add_function(
        &format!("{}_signature", lw.prefix),
        ptr.fn_type(&[], false),
        None,
    );
    f.add_attribute(AttributeLoc::Function, nounwind(lw.ll.cx));
    let bb = lw.ll.cx.append_basic_block(f, "entry");
    lw.ll.b.position_at_end(bb);
    let text = lw
        .ll
        .b
        .build_global_string_ptr(json, "signature")
        .map_err(ice)?;
    lw.ll
        .b
        .build_return(Some(&text.as_pointer_value()))
        .map_err(ice)?;
    Ok(())
}

/// `const char *P_profile(void)` in a library compiled with `--profile`:
/// the runtime's timer table with the module's labels (`loop-profile`), as
/// JSON `{"labels": [...], "rows": [[calls, nanoseconds], ...]}`.
pub(crate) fn profile_fn<'ctx>(lw: &mut Lowerer<'ctx, '_>, labels: &str) -> Result<()> {
    let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
    let rt = lw.ll.runtime_fn(&strata_abi::runtime::PROFILE_REPORT);
    let f = lw.ll.module.add_function(
        &format!("{}_profile", lw.prefix),
        ptr.fn_type(&[], false),
        None,
    );
    let bb = lw.ll.cx.append_basic_block(f, "entry");
    lw.ll.b.position_at_end(bb);
    let text = lw
        .ll
        .b
        .build_global_string_ptr(labels, "profile_labels")
        .map_err(ice)?;
    let report = lw
        .ll
        .call(rt, &[text.as_pointer_value().into()])?
        .ok_or_else(|| ice("strata_rt_profile_report returns nothing"))?;
    lw.ll.b.build_return(Some(&report)).map_err(ice)?;
    Ok(())
}
