//! Every runtime function against its entry in `strata_abi::runtime`, the
//! one description the compiler declares calls from: the test takes each
//! definition as a function pointer of its own arity (so a parameter more
//! or less does not compile) and compares each parameter's and the
//! result's C type with the table; and every table entry must be here.

use strata_abi::runtime::{ALL, Param, Returns, lookup};

/// A parameter's C type as the table spells it.
trait CParam {
    const PARAM: Param;
}

/// A result's C type (a status is an `i32` at this level).
trait CResult {
    const RETURNS: Returns;
}

impl<T> CParam for *const T {
    const PARAM: Param = Param::Ptr;
}
impl<T> CParam for *mut T {
    const PARAM: Param = Param::Ptr;
}
impl CParam for i32 {
    const PARAM: Param = Param::I32;
}
impl CParam for i64 {
    const PARAM: Param = Param::I64;
}
impl CParam for u8 {
    const PARAM: Param = Param::U8;
}
impl CParam for f64 {
    const PARAM: Param = Param::F64;
}
impl<T: CParam> CParam for Option<T> {
    const PARAM: Param = T::PARAM;
}

/// Function pointers passed as parameters (tasks, hooks) are pointers.
macro_rules! fn_pointer_params {
    ($($arg:ident),*) => {
        impl<R, $($arg),*> CParam for unsafe extern "C" fn($($arg),*) -> R {
            const PARAM: Param = Param::Ptr;
        }
    };
}
fn_pointer_params!(A);
fn_pointer_params!(A, B);
fn_pointer_params!(A, B, C);
fn_pointer_params!(A, B, C, D);

impl CResult for () {
    const RETURNS: Returns = Returns::Nothing;
}
impl CResult for i32 {
    const RETURNS: Returns = Returns::I32;
}
impl CResult for u32 {
    const RETURNS: Returns = Returns::U32;
}
impl CResult for i64 {
    const RETURNS: Returns = Returns::I64;
}
impl CResult for u8 {
    const RETURNS: Returns = Returns::U8;
}
impl CResult for f64 {
    const RETURNS: Returns = Returns::F64;
}
impl<T> CResult for *const T {
    const RETURNS: Returns = Returns::Ptr;
}
impl<T> CResult for *mut T {
    const RETURNS: Returns = Returns::Ptr;
}

/// `sigN(f)`: the parameters and result of an N-parameter function.
macro_rules! arity {
    ($name:ident $(, $arg:ident)*) => {
        #[allow(non_snake_case, dead_code)]
        fn $name<R: CResult, $($arg: CParam),*>(
            _: unsafe extern "C" fn($($arg),*) -> R,
        ) -> (Vec<Param>, Returns) {
            (vec![$($arg::PARAM),*], R::RETURNS)
        }
    };
}
arity!(sig0);
arity!(sig1, A);
arity!(sig2, A, B);
arity!(sig3, A, B, C);
arity!(sig4, A, B, C, D);
arity!(sig5, A, B, C, D, E);
arity!(sig6, A, B, C, D, E, F);
arity!(sig9, A, B, C, D, E, F, G, H, I);
arity!(sig10, A, B, C, D, E, F, G, H, I, J);

#[test]
fn every_runtime_function_matches_its_signature_in_the_abi() {
    use crate::*;
    let defined: Vec<(&str, (Vec<Param>, Returns))> = vec![
        (
            "strata_rt_minifloat_decode",
            sig2(minifloat::strata_rt_minifloat_decode),
        ),
        (
            "strata_rt_minifloat_encode",
            sig2(minifloat::strata_rt_minifloat_encode),
        ),
        ("strata_rt_set_error", sig1(error::strata_rt_set_error)),
        (
            "strata_rt_batched_call",
            sig5(batched::strata_rt_batched_call),
        ),
        ("strata_rt_last_error", sig0(error::strata_rt_last_error)),
        ("strata_rt_clear_error", sig0(error::strata_rt_clear_error)),
        ("strata_rt_check", sig9(check::strata_rt_check)),
        (
            "strata_rt_check_failure_count",
            sig0(check::strata_rt_check_failure_count),
        ),
        (
            "strata_rt_check_failure_id",
            sig1(check::strata_rt_check_failure_id),
        ),
        (
            "strata_rt_check_failure_message",
            sig1(check::strata_rt_check_failure_message),
        ),
        ("strata_rt_check_reset", sig0(check::strata_rt_check_reset)),
        (
            "strata_rt_profile_now",
            sig0(profile::strata_rt_profile_now),
        ),
        (
            "strata_rt_profile_add",
            sig2(profile::strata_rt_profile_add),
        ),
        (
            "strata_rt_profile_report",
            sig1(profile::strata_rt_profile_report),
        ),
        ("strata_rt_gemm_f32", sig4(gemm::strata_rt_gemm_f32)),
        ("strata_rt_gemm_f64", sig4(gemm::strata_rt_gemm_f64)),
        (
            "strata_rt_gemm_bf16_f32",
            sig4(narrow_gemm::strata_rt_gemm_bf16_f32),
        ),
        (
            "strata_rt_gemm_s8_s32",
            sig4(narrow_gemm::strata_rt_gemm_s8_s32),
        ),
        ("strata_rt_fft", sig3(fft::strata_rt_fft)),
        (
            "strata_rt_set_num_threads",
            sig1(pool::strata_rt_set_num_threads),
        ),
        ("strata_rt_parallel_for", sig6(pool::strata_rt_parallel_for)),
        ("strata_rt_call_on_pool", sig4(pool::strata_rt_call_on_pool)),
        ("strata_rt_copy", sig3(pool::strata_rt_copy)),
        ("strata_rt_transpose", sig3(transpose::strata_rt_transpose)),
        (
            "strata_rt_collective_begin",
            sig1(collectives::strata_rt_collective_begin),
        ),
        (
            "strata_rt_collective_add",
            sig2(collectives::strata_rt_collective_add),
        ),
        (
            "strata_rt_collective_meet",
            sig1(collectives::strata_rt_collective_meet),
        ),
        (
            "strata_rt_collective_fetch",
            sig4(collectives::strata_rt_collective_fetch),
        ),
        (
            "strata_rt_collective_leave",
            sig0(collectives::strata_rt_collective_leave),
        ),
        ("strata_rt_send", sig3(collectives::strata_rt_send)),
        ("strata_rt_recv", sig3(collectives::strata_rt_recv)),
        ("strata_rt_infeed", sig2(collectives::strata_rt_infeed)),
        (
            "strata_rt_infeed_push",
            sig2(collectives::strata_rt_infeed_push),
        ),
        ("strata_rt_outfeed", sig2(collectives::strata_rt_outfeed)),
        (
            "strata_rt_set_infeed",
            sig2(collectives::strata_rt_set_infeed),
        ),
        (
            "strata_rt_set_outfeed",
            sig2(collectives::strata_rt_set_outfeed),
        ),
        (
            "strata_rt_all_reduce",
            sig6(collectives::strata_rt_all_reduce),
        ),
        (
            "strata_rt_replica_id",
            sig0(collectives::strata_rt_replica_id),
        ),
        (
            "strata_rt_partition_id",
            sig0(collectives::strata_rt_partition_id),
        ),
        (
            "strata_rt_run_devices",
            sig4(collectives::strata_rt_run_devices),
        ),
        (
            "strata_rt_replicas_run",
            sig4(collectives::strata_rt_replicas_run),
        ),
        (
            "strata_rt_replicas_run_mpi",
            sig4(collectives::strata_rt_replicas_run_mpi),
        ),
        (
            "strata_rt_rng_three_fry",
            sig4(rng::strata_rt_rng_three_fry),
        ),
        ("strata_rt_rng_philox", sig4(rng::strata_rt_rng_philox)),
        (
            "strata_rt_rng_get_and_update_state",
            sig2(rng::strata_rt_rng_get_and_update_state),
        ),
        (
            "strata_rt_householder_qr",
            sig4(linalg::strata_rt_householder_qr),
        ),
        (
            "strata_rt_householder_product",
            sig4(linalg::strata_rt_householder_product),
        ),
        ("strata_rt_eigh", sig5(linalg::strata_rt_eigh)),
        ("strata_rt_svd", sig6(linalg::strata_rt_svd)),
        ("strata_rt_hessenberg", sig4(linalg::strata_rt_hessenberg)),
        ("strata_rt_tridiagonal", sig6(linalg::strata_rt_tridiagonal)),
        (
            "strata_rt_tridiagonal_solve",
            sig10(linalg::strata_rt_tridiagonal_solve),
        ),
        ("strata_rt_eig", sig6(linalg::strata_rt_eig)),
        (
            "strata_rt_triangular_solve",
            sig4(triangular_solve::strata_rt_triangular_solve),
        ),
        ("strata_rt_trsm", sig4(linalg::strata_rt_trsm)),
        ("strata_rt_getrf", sig5(linalg::strata_rt_getrf)),
        ("strata_rt_potrf", sig4(linalg::strata_rt_potrf)),
        (
            "strata_rt_register_custom_call",
            sig5(custom_call::strata_rt_register_custom_call),
        ),
        (
            "strata_rt_custom_call",
            sig3(custom_call::strata_rt_custom_call),
        ),
        (
            "strata_rt_arena_acquire",
            sig1(arena::strata_rt_arena_acquire),
        ),
        (
            "strata_rt_arena_release",
            sig1(arena::strata_rt_arena_release),
        ),
        ("strata_rt_arena_mark", sig0(arena::strata_rt_arena_mark)),
        ("strata_rt_arena_reset", sig1(arena::strata_rt_arena_reset)),
        (
            "strata_rt_arena_use_scratch",
            sig2(arena::strata_rt_arena_use_scratch),
        ),
        (
            "strata_rt_arena_end_scratch",
            sig0(arena::strata_rt_arena_end_scratch),
        ),
        ("strata_rt_cpu_supports", sig1(cpu::strata_rt_cpu_supports)),
    ];
    let mut mismatches = Vec::new();
    for (name, (params, returns)) in &defined {
        let Some(sig) = lookup(name) else {
            mismatches.push(format!(
                "{name}: defined by the runtime, missing from strata_abi::runtime"
            ));
            continue;
        };
        // A status is an i32 to C.
        let table_returns = match sig.returns {
            Returns::Status => Returns::I32,
            r => r,
        };
        if sig.params != params.as_slice() || table_returns != *returns {
            mismatches.push(format!(
                "{name}: the runtime takes {params:?} -> {returns:?}, the table says {:?} -> {:?}",
                sig.params, sig.returns
            ));
        }
    }
    for sig in ALL {
        if !defined.iter().any(|(n, _)| *n == sig.name) {
            mismatches.push(format!(
                "{}: in strata_abi::runtime, not checked here",
                sig.name
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
