//! The runtime's C functions: every symbol the generated code, the driver
//! and the libraries' wrappers call, with its parameters and result, stated
//! once. The conversion declares loop-level calls from these, codegen and
//! the upstream export read which calls return a status from them, and the
//! runtime's own test checks each definition against its entry.

/// A parameter's C type (`Ptr`: any data or function pointer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    Ptr,
    I32,
    I64,
    U8,
    F64,
}

/// What a call returns. `Status` is an `int32_t` that is 0 on success;
/// a loop-level call that returns non-zero makes the calling function
/// return it (the runtime has set the error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Returns {
    Nothing,
    Status,
    I32,
    U32,
    I64,
    U8,
    F64,
    Ptr,
}

/// One runtime function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    pub name: &'static str,
    pub params: &'static [Param],
    pub returns: Returns,
}

use Param::*;

/// `double (int32_t format, uint8_t bits)`: an f8/f6/f4 value's bits to f64.
pub const MINIFLOAT_DECODE: Signature = Signature {
    name: "strata_rt_minifloat_decode",
    params: &[I32, U8],
    returns: Returns::F64,
};

/// `uint8_t (int32_t format, double x)`: f64 to an f8/f6/f4 value's bits.
pub const MINIFLOAT_ENCODE: Signature = Signature {
    name: "strata_rt_minifloat_encode",
    params: &[I32, F64],
    returns: Returns::U8,
};

/// `void (const char *message)`: sets this thread's last error.
pub const SET_ERROR: Signature = Signature {
    name: "strata_rt_set_error",
    params: &[Ptr],
    returns: Returns::Nothing,
};

/// `i32 (kind, elem, actual, expected, count, tolerance, min_ulp, max_ulp, id)`.
pub const CHECK: Signature = Signature {
    name: "strata_rt_check",
    params: &[I32, I32, Ptr, Ptr, I64, F64, I64, I64, I64],
    returns: Returns::I32,
};

/// `(const GemmDesc *, const float *lhs, const float *rhs, float *out)`.
pub const GEMM_F32: Signature = Signature {
    name: "strata_rt_gemm_f32",
    params: &[Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Nothing,
};

/// `(const GemmDesc *, const double *lhs, const double *rhs, double *out)`.
pub const GEMM_F64: Signature = Signature {
    name: "strata_rt_gemm_f64",
    params: &[Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Nothing,
};

/// `(const GemmDesc *, const uint16_t *lhs, const uint16_t *rhs, float *out)`:
/// bf16 operands (bit patterns), products summed in f32.
pub const GEMM_BF16_F32: Signature = Signature {
    name: "strata_rt_gemm_bf16_f32",
    params: &[Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Nothing,
};

/// `(const GemmDesc *, const int8_t *lhs, const int8_t *rhs, int32_t *out)`:
/// sums wrapping modulo 2^32.
pub const GEMM_S8_S32: Signature = Signature {
    name: "strata_rt_gemm_s8_s32",
    params: &[Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Nothing,
};

/// Kernels that write only through their last parameter (their result),
/// read the others, return nothing and may run on several threads at once
/// (buffers per thread, a nested call taking one thread): the iterations of
/// a parallel loop may call them concurrently on disjoint results
/// (`loop-outline-parallel`), as a convolution's blocks of positions do.
pub const KERNELS_WRITING_LAST: &[Signature] = &[GEMM_F32, GEMM_F64, GEMM_BF16_F32, GEMM_S8_S32];

/// `(const FftDesc *, const void *in, void *out)`.
pub const FFT: Signature = Signature {
    name: "strata_rt_fft",
    params: &[Ptr, Ptr, Ptr],
    returns: Returns::Nothing,
};

/// `int32_t (int32_t n)`: resizes the runtime's thread pool.
pub const SET_NUM_THREADS: Signature = Signature {
    name: "strata_rt_set_num_threads",
    params: &[I32],
    returns: Returns::I32,
};

/// `int32_t (task, void *ctx, int64_t lb, int64_t ub, int64_t step, int64_t cost)`:
/// runs `task(ctx, begin, end)` over chunks of `lb..ub` on the pool (see
/// [`ParallelTask`](crate::ParallelTask)).
pub const PARALLEL_FOR: Signature = Signature {
    name: "strata_rt_parallel_for",
    params: &[Ptr, Ptr, I64, I64, I64, I64],
    returns: Returns::Status,
};

/// `int32_t (const CollectiveDesc *)`: starts this device's next collective.
pub const COLLECTIVE_BEGIN: Signature = Signature {
    name: "strata_rt_collective_begin",
    params: &[Ptr],
    returns: Returns::Status,
};

/// `int32_t (const void *operand, int64_t bytes)`: adds an operand to it.
pub const COLLECTIVE_ADD: Signature = Signature {
    name: "strata_rt_collective_add",
    params: &[Ptr, I64],
    returns: Returns::Status,
};

/// `int32_t (int64_t *info)`: waits for the group; `info` = {position
/// (the source's, for pairs; -1: none), group size}.
pub const COLLECTIVE_MEET: Signature = Signature {
    name: "strata_rt_collective_meet",
    params: &[Ptr],
    returns: Returns::Status,
};

/// `int32_t (int64_t member, int64_t operand, void *out, int64_t bytes)`:
/// copies a group member's operand.
pub const COLLECTIVE_FETCH: Signature = Signature {
    name: "strata_rt_collective_fetch",
    params: &[I64, I64, Ptr, I64],
    returns: Returns::Status,
};

/// `int32_t (void)`: waits until every member has fetched, ending it.
pub const COLLECTIVE_LEAVE: Signature = Signature {
    name: "strata_rt_collective_leave",
    params: &[],
    returns: Returns::Status,
};

/// `int32_t (int64_t channel, const void *data, int64_t bytes)`.
pub const SEND: Signature = Signature {
    name: "strata_rt_send",
    params: &[I64, Ptr, I64],
    returns: Returns::Status,
};

/// `int32_t (int64_t channel, void *out, int64_t bytes)`.
pub const RECV: Signature = Signature {
    name: "strata_rt_recv",
    params: &[I64, Ptr, I64],
    returns: Returns::Status,
};

/// `int32_t (void *out, int64_t bytes)`: the run's next infeed value.
pub const INFEED: Signature = Signature {
    name: "strata_rt_infeed",
    params: &[Ptr, I64],
    returns: Returns::Status,
};

/// `int32_t (const void *data, int64_t bytes)`: queues an infeed value.
pub const INFEED_PUSH: Signature = Signature {
    name: "strata_rt_infeed_push",
    params: &[Ptr, I64],
    returns: Returns::Status,
};

/// `int32_t (const void *data, int64_t bytes)`.
pub const OUTFEED: Signature = Signature {
    name: "strata_rt_outfeed",
    params: &[Ptr, I64],
    returns: Returns::Status,
};

/// `void (hook, void *user)`: the library's `P_set_infeed`.
pub const SET_INFEED: Signature = Signature {
    name: "strata_rt_set_infeed",
    params: &[Ptr, Ptr],
    returns: Returns::Nothing,
};

/// `void (hook, void *user)`: the library's `P_set_outfeed`.
pub const SET_OUTFEED: Signature = Signature {
    name: "strata_rt_set_outfeed",
    params: &[Ptr, Ptr],
    returns: Returns::Nothing,
};

/// `int32_t (const CollectiveDesc *, int32_t op, int32_t elem, const void *in,
/// void *out, int64_t count)`: a one-operand all_reduce whose reducer is
/// a [`ReduceOp`](crate::ReduceOp) on an [`ElemCode`](crate::ElemCode) of S32, S64, U32, U64, F32 or F64;
/// each device reduces its slice of every member's operand, in member
/// order, and writes it into every member's result.
pub const ALL_REDUCE: Signature = Signature {
    name: "strata_rt_all_reduce",
    params: &[Ptr, I32, I32, Ptr, Ptr, I64],
    returns: Returns::Status,
};

/// `(const RngDesc *, const uint64_t state[2], uint64_t new_state[2], void *out)`:
/// XLA:CPU's THREE_FRY `rng_bit_generator`, bit for bit.
pub const RNG_THREE_FRY: Signature = Signature {
    name: "strata_rt_rng_three_fry",
    params: &[Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Nothing,
};

/// `(const RngDesc *, const uint64_t state[w], uint64_t new_state[w], void *out)`:
/// XLA:CPU's PHILOX (and DEFAULT) `rng_bit_generator`, bit for bit.
pub const RNG_PHILOX: Signature = Signature {
    name: "strata_rt_rng_philox",
    params: &[Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Nothing,
};

/// `(const RngStateDesc *, uint64_t state[2])`: the process's Philox
/// state (key, counter), then the counter advanced by `delta`.
pub const RNG_GET_AND_UPDATE_STATE: Signature = Signature {
    name: "strata_rt_rng_get_and_update_state",
    params: &[Ptr, Ptr],
    returns: Returns::Nothing,
};

/// `int32_t (const LinalgDesc *, const T *a, T *factored, T *tau)`: LAPACK's
/// geqrf per matrix (R on and above the diagonal, the reflectors below).
pub const HOUSEHOLDER_QR: Signature = Signature {
    name: "strata_rt_householder_qr",
    params: &[Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Status,
};

/// `int32_t (const LinalgDesc *, const T *a, const T *tau, T *q)`: LAPACK's
/// orgqr / ungqr per matrix (Q from geqrf's reflectors).
pub const HOUSEHOLDER_PRODUCT: Signature = Signature {
    name: "strata_rt_householder_product",
    params: &[Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Status,
};

/// `int32_t (const LinalgDesc *, const T *a, T *vectors, Real *values,
/// int32_t *info)`: syevd / heevd per matrix, eigenvalues ascending.
pub const EIGH: Signature = Signature {
    name: "strata_rt_eigh",
    params: &[Ptr, Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Status,
};

/// `int32_t (const LinalgDesc *, const T *a, Real *s, T *u, T *vt,
/// int32_t *info)`: gesdd per matrix, singular values descending.
pub const SVD: Signature = Signature {
    name: "strata_rt_svd",
    params: &[Ptr, Ptr, Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Status,
};

/// `int32_t (const LinalgDesc *, const T *a, T *packed, T *tau)`: LAPACK's
/// gehrd per matrix (H on and above the subdiagonal, the reflectors below).
pub const HESSENBERG: Signature = Signature {
    name: "strata_rt_hessenberg",
    params: &[Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Status,
};

/// `int32_t (const LinalgDesc *, const T *a, T *packed, Real *d, Real *e,
/// T *tau)`: LAPACK's sytrd / hetrd with uplo 'L' per matrix.
pub const TRIDIAGONAL: Signature = Signature {
    name: "strata_rt_tridiagonal",
    params: &[Ptr, Ptr, Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Status,
};

/// `int32_t (const LinalgDesc *, const T *dl, const T *d, const T *du,
/// const T *b, T *dl_out, T *d_out, T *du_out, T *x, int32_t *info)`:
/// LAPACK's gtsv per system (`rows` = n, `cols` = right-hand sides).
pub const TRIDIAGONAL_SOLVE: Signature = Signature {
    name: "strata_rt_tridiagonal_solve",
    params: &[Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Status,
};

/// `int32_t (const LinalgDesc *, const T *a, C *values, C *left,
/// C *right, int32_t *info)`, C the complex type of T's precision: geev
/// per matrix, the eigenvectors normalized as geev normalizes them.
pub const EIG: Signature = Signature {
    name: "strata_rt_eig",
    params: &[Ptr, Ptr, Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Status,
};

/// `int32_t (const LinalgDesc *, const T *a, const T *b, T *x)`, T one of
/// F16, BF16, F32, F64: XLA:CPU's expansion of `triangular_solve` per
/// system (b's shape in `rows` x `cols`; `LINALG_LEFT_SIDE`,
/// `LINALG_LOWER`, `LINALG_TRANSPOSE_A`, `LINALG_UNIT_DIAGONAL`).
pub const TRIANGULAR_SOLVE: Signature = Signature {
    name: "strata_rt_triangular_solve",
    params: &[Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Status,
};

/// `int32_t (const LinalgDesc *, const T *a, const T *b, T *x)`, T one of
/// F32, F64, C64, C128: LAPACK's trsm per system, blocked (b's shape in
/// `rows` x `cols`; `LINALG_LEFT_SIDE`, `LINALG_LOWER`,
/// `LINALG_TRANSPOSE_A`, `LINALG_CONJUGATE_A`, `LINALG_UNIT_DIAGONAL`).
pub const TRSM: Signature = Signature {
    name: "strata_rt_trsm",
    params: &[Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Status,
};

/// `int32_t (const LinalgDesc *, const T *a, T *lu, int32_t *pivots,
/// int32_t *info)`, T one of F32, F64: LAPACK's getrf per matrix, blocked
/// (`rows` x `cols`; 1-based pivots, `min(rows, cols)` per matrix).
pub const GETRF: Signature = Signature {
    name: "strata_rt_getrf",
    params: &[Ptr, Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Status,
};

/// `int32_t (const LinalgDesc *, const T *a, T *out, int32_t *info)`, T
/// one of F32, F64: LAPACK's potrf per matrix, blocked (`rows` x `rows`;
/// `LINALG_LOWER` for a lower factor, else upper; the other triangle keeps
/// a).
pub const POTRF: Signature = Signature {
    name: "strata_rt_potrf",
    params: &[Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Status,
};

/// `void (void *dst, const void *src, int64_t bytes)`: a copy of at
/// least `PARALLEL_COPY_MIN_BYTES` between distinct buffers, split over
/// the pool when that pays.
pub const COPY: Signature = Signature {
    name: "strata_rt_copy",
    params: &[Ptr, Ptr, I64],
    returns: Returns::Nothing,
};

/// `void (const TransposeDesc *, const void *src, void *dst)`: a
/// transpose between distinct buffers, split over the pool when large.
pub const TRANSPOSE: Signature = Signature {
    name: "strata_rt_transpose",
    params: &[Ptr, Ptr, Ptr],
    returns: Returns::Nothing,
};

/// `int32_t (CustomCallTarget *table, int64_t count, const char *target,
/// CustomCallFn fn, void *user)`: the library's `P_register_custom_call`.
pub const REGISTER_CUSTOM_CALL: Signature = Signature {
    name: "strata_rt_register_custom_call",
    params: &[Ptr, I64, Ptr, Ptr, Ptr],
    returns: Returns::I32,
};

/// `int32_t (CustomCallTarget *entry, const void *const *operands, void
/// *const *results)`: runs the host's implementation registered for
/// `entry`, or fails naming the target when there is none.
pub const CUSTOM_CALL: Signature = Signature {
    name: "strata_rt_custom_call",
    params: &[Ptr, Ptr, Ptr],
    returns: Returns::Status,
};

/// `int32_t (PoolBody body, void *ctx, int64_t arena_bytes, void
/// *scratch)`: runs an exported function's body on the thread pool
/// (one hand-off per call instead of one per parallel region), its
/// arenas cut from `scratch` (NULL: from the caller's stack); returns
/// the body's status, its message as the caller's last error.
pub const CALL_ON_POOL: Signature = Signature {
    name: "strata_rt_call_on_pool",
    params: &[Ptr, Ptr, I64, Ptr],
    returns: Returns::Status,
};

/// `int32_t (const int64_t *layout, PackedFn const *variants, const char
/// *message, const int64_t *dims, void *const *buffers)`: a function of
/// one dimension variable `b = dims[0]`, run as chunks of the sizes it was
/// compiled for (`layout` is a [`crate::batched::BatchedCall`]'s words;
/// `variants[i]` the packed entry compiled for its `sizes[i]`); `message`
/// is the shape assertion's text for `b` below the least size allowed,
/// byte 1 standing for `b`'s value.
pub const BATCHED_CALL: Signature = Signature {
    name: "strata_rt_batched_call",
    params: &[Ptr, Ptr, Ptr, Ptr, Ptr],
    returns: Returns::Status,
};

/// `void *(int64_t bytes)`: a function's arena, on this thread's stack
/// of arenas (NULL when memory is exhausted).
pub const ARENA_ACQUIRE: Signature = Signature {
    name: "strata_rt_arena_acquire",
    params: &[I64],
    returns: Returns::Ptr,
};

/// `void (void *arena)`: gives the arena back (top of the stack).
pub const ARENA_RELEASE: Signature = Signature {
    name: "strata_rt_arena_release",
    params: &[Ptr],
    returns: Returns::Nothing,
};

/// `int64_t (void)`: the stack's state on entry to an exported function.
pub const ARENA_MARK: Signature = Signature {
    name: "strata_rt_arena_mark",
    params: &[],
    returns: Returns::I64,
};

/// `void (int64_t mark)`: back to that state on its return.
pub const ARENA_RESET: Signature = Signature {
    name: "strata_rt_arena_reset",
    params: &[I64],
    returns: Returns::Nothing,
};

/// `int32_t (void *scratch, int64_t bytes)`: arenas come from the
/// caller's scratch until `ARENA_END_SCRATCH` (`P_f_with_scratch`).
pub const ARENA_USE_SCRATCH: Signature = Signature {
    name: "strata_rt_arena_use_scratch",
    params: &[Ptr, I64],
    returns: Returns::Status,
};

/// `void (void)`: back to the thread's own memory.
pub const ARENA_END_SCRATCH: Signature = Signature {
    name: "strata_rt_arena_end_scratch",
    params: &[],
    returns: Returns::Nothing,
};

/// `uint32_t (void)`: the calling device's replica id.
pub const REPLICA_ID: Signature = Signature {
    name: "strata_rt_replica_id",
    params: &[],
    returns: Returns::U32,
};

/// `uint32_t (void)`: the calling device's partition id.
pub const PARTITION_ID: Signature = Signature {
    name: "strata_rt_partition_id",
    params: &[],
    returns: Returns::U32,
};

/// `int32_t (DeviceTask, void *ctx, int64_t replicas, int64_t partitions)`:
/// runs the task once per device, each on its own thread.
pub const RUN_DEVICES: Signature = Signature {
    name: "strata_rt_run_devices",
    params: &[Ptr, Ptr, I64, I64],
    returns: Returns::Status,
};

/// `int32_t (int32_t n, void (*body)(int32_t, void *), void *user,
/// int32_t as_partitions)`: the library's `P_replicas_run`.
pub const REPLICAS_RUN: Signature = Signature {
    name: "strata_rt_replicas_run",
    params: &[I32, Ptr, Ptr, I32],
    returns: Returns::I32,
};

/// `P_replicas_run` of a `--collectives mpi` library (same signature).
pub const REPLICAS_RUN_MPI: Signature = Signature {
    name: "strata_rt_replicas_run_mpi",
    params: &[I32, Ptr, Ptr, I32],
    returns: Returns::I32,
};

/// Checks that the CPU running a library has the features it was built for.
pub const CPU_SUPPORTS: Signature = Signature {
    name: "strata_rt_cpu_supports",
    params: &[Ptr],
    returns: Returns::I32,
};
/// `const char *(void)`: this thread's last error (NULL: none).
pub const LAST_ERROR: Signature = Signature {
    name: "strata_rt_last_error",
    params: &[],
    returns: Returns::Ptr,
};
/// `void (void)`: forgets this thread's last error.
pub const CLEAR_ERROR: Signature = Signature {
    name: "strata_rt_clear_error",
    params: &[],
    returns: Returns::Nothing,
};
/// `int64_t (void)`: failed `check.*` assertions recorded so far (`strata check`).
pub const CHECK_FAILURE_COUNT: Signature = Signature {
    name: "strata_rt_check_failure_count",
    params: &[],
    returns: Returns::I64,
};
/// `int64_t (int64_t i)`: the id of the i-th failure.
pub const CHECK_FAILURE_ID: Signature = Signature {
    name: "strata_rt_check_failure_id",
    params: &[I64],
    returns: Returns::I64,
};
/// `const char *(int64_t i)`: its message.
pub const CHECK_FAILURE_MESSAGE: Signature = Signature {
    name: "strata_rt_check_failure_message",
    params: &[I64],
    returns: Returns::Ptr,
};
/// `void (void)`: forgets the recorded failures.
pub const CHECK_RESET: Signature = Signature {
    name: "strata_rt_check_reset",
    params: &[],
    returns: Returns::Nothing,
};

/// `int64_t (void)`: a monotonic clock in nanoseconds (profiled libraries).
pub const PROFILE_NOW: Signature = Signature {
    name: "strata_rt_profile_now",
    params: &[],
    returns: Returns::I64,
};

/// `void (int64_t id, int64_t start)`: adds a call of timed op `id` that
/// began at `start` to the profile.
pub const PROFILE_ADD: Signature = Signature {
    name: "strata_rt_profile_add",
    params: &[I64, I64],
    returns: Returns::Nothing,
};

/// `const char *(const char *labels)`: the profile as JSON, with the
/// module's labels.
pub const PROFILE_REPORT: Signature = Signature {
    name: "strata_rt_profile_report",
    params: &[Ptr],
    returns: Returns::Ptr,
};

/// Every runtime function.
pub const ALL: &[Signature] = &[
    BATCHED_CALL,
    MINIFLOAT_DECODE,
    MINIFLOAT_ENCODE,
    SET_ERROR,
    CHECK,
    GEMM_F32,
    GEMM_F64,
    GEMM_BF16_F32,
    GEMM_S8_S32,
    FFT,
    SET_NUM_THREADS,
    PARALLEL_FOR,
    COLLECTIVE_BEGIN,
    COLLECTIVE_ADD,
    COLLECTIVE_MEET,
    COLLECTIVE_FETCH,
    COLLECTIVE_LEAVE,
    SEND,
    RECV,
    INFEED,
    INFEED_PUSH,
    OUTFEED,
    SET_INFEED,
    SET_OUTFEED,
    ALL_REDUCE,
    RNG_THREE_FRY,
    RNG_PHILOX,
    RNG_GET_AND_UPDATE_STATE,
    HOUSEHOLDER_QR,
    HOUSEHOLDER_PRODUCT,
    EIGH,
    SVD,
    HESSENBERG,
    TRIDIAGONAL,
    TRIDIAGONAL_SOLVE,
    EIG,
    TRIANGULAR_SOLVE,
    TRSM,
    GETRF,
    POTRF,
    COPY,
    TRANSPOSE,
    REGISTER_CUSTOM_CALL,
    CUSTOM_CALL,
    CALL_ON_POOL,
    ARENA_ACQUIRE,
    ARENA_RELEASE,
    ARENA_MARK,
    ARENA_RESET,
    ARENA_USE_SCRATCH,
    ARENA_END_SCRATCH,
    REPLICA_ID,
    PARTITION_ID,
    RUN_DEVICES,
    REPLICAS_RUN,
    REPLICAS_RUN_MPI,
    CPU_SUPPORTS,
    LAST_ERROR,
    CLEAR_ERROR,
    CHECK_FAILURE_COUNT,
    CHECK_FAILURE_ID,
    CHECK_FAILURE_MESSAGE,
    CHECK_RESET,
    PROFILE_NOW,
    PROFILE_ADD,
    PROFILE_REPORT,
];

/// The runtime functions that stay visible (dynamic symbols) in every shared
/// library Strata links with its runtime, because the driver looks them up
/// with `dlsym` (`strata check`'s runner, the error of a failed call). A
/// test in `strata-aot` checks that each is defined in the built archive.
pub const EXPORTED: &[&str] = &[
    LAST_ERROR.name,
    SET_ERROR.name,
    CLEAR_ERROR.name,
    CHECK.name,
    CHECK_FAILURE_COUNT.name,
    CHECK_FAILURE_ID.name,
    CHECK_FAILURE_MESSAGE.name,
    CHECK_RESET.name,
];

/// The runtime function named `name`.
pub fn lookup(name: &str) -> Option<&'static Signature> {
    ALL.iter().find(|s| s.name == name)
}

/// Whether `name` is a runtime function whose result is a status.
pub fn returns_status(name: &str) -> bool {
    lookup(name).is_some_and(|s| s.returns == Returns::Status)
}

/// Prefix every runtime symbol shares; a `.so` or `.a` never exports these.
pub const RUNTIME_PREFIX: &str = "strata_rt_";
