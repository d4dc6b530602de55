//! The contract between Strata's compiler and its runtime.
//!
//! Everything both sides must agree on lives here, once: how many bytes an
//! element occupies in a buffer, the element-type codes and check kinds the
//! generated code passes to the runtime, and the runtime's functions with
//! their signatures (`runtime`).
//! The compiler (conversion, codegen, header writer), the driver and the
//! runtime all read these definitions; none of them restates a rule.
//!
//! Treat the numeric values as set in stone: compiled libraries embed them.
//! A change that renumbers anything must bump [`ABI_VERSION`].

/// Version of this contract. Bumped on any incompatible change.
pub const ABI_VERSION: u32 = 1;

/// Bytes one scalar of `bit_width` bits occupies in a buffer: the smallest
/// power-of-two number of bytes that holds it (`i1`, `i4`, f8/f6/f4 → 1;
/// `i24` → 4; `f16`, `bf16` → 2; `index` → 8). A complex number stores its
/// two parts one after the other, so it takes twice its part's size.
///
/// This is *the* storage rule: buffers, the C ABI, literals handed to the
/// driver and the runtime's readers all use it.
pub const fn scalar_storage_bytes(bit_width: u32) -> u32 {
    if bit_width <= 8 {
        1
    } else {
        bit_width.next_power_of_two() / 8
    }
}

/// The element types the runtime can read (the `elem` argument of runtime
/// calls that take untyped buffers).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemCode {
    Pred = 0,
    S8 = 1,
    S16 = 2,
    S32 = 3,
    S64 = 4,
    U8 = 5,
    U16 = 6,
    U32 = 7,
    U64 = 8,
    F16 = 9,
    BF16 = 10,
    F32 = 11,
    F64 = 12,
    C64 = 13,
    C128 = 14,
}

/// Codes from `MINIFLOAT_BASE` on are the one-byte float formats (f8, f6,
/// f4): `MINIFLOAT_BASE + strata_minifloat::FloatKind::code()`.
pub const MINIFLOAT_BASE: i32 = 15;

impl ElemCode {
    pub const ALL: [ElemCode; 15] = [
        ElemCode::Pred,
        ElemCode::S8,
        ElemCode::S16,
        ElemCode::S32,
        ElemCode::S64,
        ElemCode::U8,
        ElemCode::U16,
        ElemCode::U32,
        ElemCode::U64,
        ElemCode::F16,
        ElemCode::BF16,
        ElemCode::F32,
        ElemCode::F64,
        ElemCode::C64,
        ElemCode::C128,
    ];

    pub fn from_i32(code: i32) -> Option<ElemCode> {
        ElemCode::ALL.into_iter().find(|c| *c as i32 == code)
    }

    /// The code of an integer of `width` bits stored by [`scalar_storage_bytes`]
    /// (`i1` is `Pred`; `i24` is stored, and read, as `S32`).
    pub fn of_int(width: u32, signed: bool) -> Option<ElemCode> {
        Some(match (width, signed) {
            (1, _) => ElemCode::Pred,
            (0..=8, true) => ElemCode::S8,
            (9..=16, true) => ElemCode::S16,
            (17..=32, true) => ElemCode::S32,
            (33..=64, true) => ElemCode::S64,
            (0..=8, false) => ElemCode::U8,
            (9..=16, false) => ElemCode::U16,
            (17..=32, false) => ElemCode::U32,
            (33..=64, false) => ElemCode::U64,
            _ => return None,
        })
    }

    /// Bytes of one element in a buffer (complex: both parts).
    pub const fn storage_bytes(self) -> u32 {
        match self {
            ElemCode::Pred | ElemCode::S8 | ElemCode::U8 => 1,
            ElemCode::S16 | ElemCode::U16 | ElemCode::F16 | ElemCode::BF16 => 2,
            ElemCode::S32 | ElemCode::U32 | ElemCode::F32 => 4,
            ElemCode::S64 | ElemCode::U64 | ElemCode::F64 | ElemCode::C64 => 8,
            ElemCode::C128 => 16,
        }
    }
}

/// The conformance check a `strata_rt_check` call evaluates.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    ExpectEq = 0,
    ExpectAlmostEq = 1,
    ExpectClose = 2,
}

impl CheckKind {
    pub fn from_i32(kind: i32) -> Option<CheckKind> {
        match kind {
            0 => Some(CheckKind::ExpectEq),
            1 => Some(CheckKind::ExpectAlmostEq),
            2 => Some(CheckKind::ExpectClose),
            _ => None,
        }
    }
}

/// Descriptors are `#[repr(C)]` structs of `i64` fields only, so generated
/// code can embed one as a constant `i64` array ([`Descriptor::words`]) and
/// the runtime reads it back as the struct.
///
/// # Safety
/// Implement only for `#[repr(C)]` structs whose fields are all `i64` or
/// arrays of `i64`.
pub unsafe trait Descriptor: Sized {
    /// The descriptor as the `i64` words generated code stores.
    fn words(&self) -> &[i64] {
        // SAFETY: the implementor is repr(C) with only i64 fields (trait contract),
        // so it is exactly size_of::<Self>() / 8 initialised, aligned i64s.
        unsafe {
            std::slice::from_raw_parts(
                self as *const Self as *const i64,
                std::mem::size_of::<Self>() / 8,
            )
        }
    }
}

/// Most batch dimensions a [`GemmDesc`] describes (more go to loop nests).
pub const GEMM_MAX_BATCH: usize = 8;

/// One (batched) matrix product `C = A · B` with element strides, for
/// [`symbol::GEMM_F32`] / [`symbol::GEMM_F64`]: for every batch index `i`
/// (row-major over `batch_sizes[..batch_rank]`) the matrices start at
/// `Σ i_d · *_batch_strides[d]` elements into their buffers; element
/// `(r, c)` of A is at `r · lhs_row_stride + c · lhs_col_stride`, and
/// likewise for B and C.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GemmDesc {
    pub batch_rank: i64,
    pub batch_sizes: [i64; GEMM_MAX_BATCH],
    pub lhs_batch_strides: [i64; GEMM_MAX_BATCH],
    pub rhs_batch_strides: [i64; GEMM_MAX_BATCH],
    pub out_batch_strides: [i64; GEMM_MAX_BATCH],
    pub m: i64,
    pub k: i64,
    pub n: i64,
    pub lhs_row_stride: i64,
    pub lhs_col_stride: i64,
    pub rhs_row_stride: i64,
    pub rhs_col_stride: i64,
    pub out_row_stride: i64,
    pub out_col_stride: i64,
}

// SAFETY: repr(C), i64 fields and arrays only.
unsafe impl Descriptor for GemmDesc {}

/// Most outer dimensions a [`TransposeDesc`] describes (the selection
/// leaves transposes with more to loop nests).
pub const TRANSPOSE_MAX_OUTER: usize = 8;

/// A transpose that moves the innermost dimension, for
/// [`symbol::TRANSPOSE`], as a batch of 2-D transposes: for every outer
/// index `o` (row-major over `outer_sizes[..outer_rank]`), with
/// `s = Σ o_d · src_outer_strides[d]` and `t = Σ o_d · dst_outer_strides[d]`,
/// `dst[t + c · dst_row_stride + r] = src[s + r · src_row_stride + c]` for
/// `r < rows`, `c < cols` (strides in elements of `elem_bytes` bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TransposeDesc {
    pub elem_bytes: i64,
    pub outer_rank: i64,
    pub outer_sizes: [i64; TRANSPOSE_MAX_OUTER],
    pub src_outer_strides: [i64; TRANSPOSE_MAX_OUTER],
    pub dst_outer_strides: [i64; TRANSPOSE_MAX_OUTER],
    pub rows: i64,
    pub cols: i64,
    pub src_row_stride: i64,
    pub dst_row_stride: i64,
}

// SAFETY: repr(C), i64 fields and arrays only.
unsafe impl Descriptor for TransposeDesc {}

/// Bytes from which a transpose that moves the innermost dimension, and
/// that no consumer fuses, is the runtime's kernel rather than a loop nest
/// (below it the loop nest's tiles are as fast and fork nothing).
pub const TRANSPOSE_KERNEL_MIN_BYTES: u64 = 256 << 10;

/// The four kinds of `xla.fft`.
#[repr(i64)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FftKind {
    Fft = 0,
    Ifft = 1,
    Rfft = 2,
    Irfft = 3,
}

impl FftKind {
    pub fn from_i64(v: i64) -> Option<FftKind> {
        [FftKind::Fft, FftKind::Ifft, FftKind::Rfft, FftKind::Irfft]
            .into_iter()
            .find(|k| *k as i64 == v)
    }
}

/// Highest operand rank an [`FftDesc`] describes.
pub const FFT_MAX_RANK: usize = 16;

/// One `xla.fft` for [`symbol::FFT`]: the operand's shape (its element type
/// has `element_bits`-bit parts, 32 or 64), the kind, and the lengths of the
/// `fft_rank` innermost dimensions transformed.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FftDesc {
    /// An [`FftKind`].
    pub kind: i64,
    pub element_bits: i64,
    pub rank: i64,
    pub shape: [i64; FFT_MAX_RANK],
    pub fft_rank: i64,
    pub lengths: [i64; 3],
}

// SAFETY: repr(C), i64 fields and arrays only.
unsafe impl Descriptor for FftDesc {}

/// How a collective's `ids` split the devices into groups (StableHLO's
/// process-grouping strategies; a device is (replica, partition)).
#[repr(i64)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollectiveMode {
    /// Groups of replica ids, one group per partition.
    CrossReplica = 0,
    /// Groups of partition ids, one group per replica.
    CrossPartition = 1,
    /// Groups of replica ids, each with every partition of its replicas.
    CrossReplicaAndPartition = 2,
    /// Groups of flattened ids `replica * num_partitions + partition`.
    FlattenedIds = 3,
}

impl CollectiveMode {
    pub fn from_i64(v: i64) -> Option<CollectiveMode> {
        use CollectiveMode::*;
        [
            CrossReplica,
            CrossPartition,
            CrossReplicaAndPartition,
            FlattenedIds,
        ]
        .into_iter()
        .find(|m| *m as i64 == v)
    }
}

/// The reductions [`symbol::ALL_REDUCE`] computes itself (a reducer region
/// that is one of these ops on its two arguments).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceOp {
    Add = 0,
    Mul = 1,
    /// Floats: NaN if either is NaN (StableHLO's maximum).
    Max = 2,
    Min = 3,
}

impl ReduceOp {
    pub fn from_i32(v: i32) -> Option<ReduceOp> {
        [ReduceOp::Add, ReduceOp::Mul, ReduceOp::Max, ReduceOp::Min]
            .into_iter()
            .find(|o| *o as i32 == v)
    }
}

/// Most ids a [`CollectiveDesc`] holds (all groups, or all pairs x 2).
pub const COLLECTIVE_MAX_IDS: usize = 256;

/// What a [`CollectiveDesc`]'s ids are.
#[repr(i64)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollectiveKind {
    /// Groups; every device must be in one.
    Groups = 0,
    /// Groups; a device in none meets nobody (collective_broadcast: zeros).
    GroupsOrNone = 1,
    /// collective_permute's (source, target) pairs: every device along the
    /// mode's dimension meets, and each receives its source's operand, if any.
    Pairs = 2,
}

/// One collective for [`symbol::COLLECTIVE_BEGIN`]: `group_count` groups of
/// `group_size` ids each, row-major in `ids` (no groups: every device of
/// the mode's dimension in one group). `expect_size`, when positive, is the
/// group size the program was compiled for (all_gather's factor); a run
/// whose groups differ fails with a message.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollectiveDesc {
    /// A [`CollectiveMode`].
    pub mode: i64,
    /// A [`CollectiveKind`].
    pub kind: i64,
    pub expect_size: i64,
    pub group_count: i64,
    pub group_size: i64,
    pub ids: [i64; COLLECTIVE_MAX_IDS],
}

impl Default for CollectiveDesc {
    fn default() -> Self {
        CollectiveDesc {
            mode: 0,
            kind: 0,
            expect_size: 0,
            group_count: 0,
            group_size: 0,
            ids: [0; COLLECTIVE_MAX_IDS],
        }
    }
}

// SAFETY: repr(C), i64 fields and arrays only.
unsafe impl Descriptor for CollectiveDesc {}

/// A program run once per device on its own thread:
/// `int32_t task(void *ctx, int64_t device, int64_t device_plus_one)` (the
/// [`ParallelTask`] shape, so outlined functions serve both).
pub type DeviceTask = ParallelTask;

/// Highest output rank an [`RngDesc`] describes.
pub const RNG_MAX_RANK: usize = 16;

/// One `rng_bit_generator` for [`symbol::RNG_THREE_FRY`] or
/// [`symbol::RNG_PHILOX`]: the output's shape, element size (1, 2, 4 or 8
/// bytes) and the number of u64 words of the state (2 for THREE_FRY, 2 or
/// 3 for PHILOX).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RngDesc {
    pub rank: i64,
    pub dims: [i64; RNG_MAX_RANK],
    pub element_bytes: i64,
    pub state_words: i64,
}

// SAFETY: repr(C), i64 fields and arrays only.
unsafe impl Descriptor for RngDesc {}

/// One `rng_get_and_update_state` for [`symbol::RNG_GET_AND_UPDATE_STATE`]:
/// how far the process's generator state advances (the number of 128-bit
/// Philox blocks the caller will draw).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RngStateDesc {
    pub delta: i64,
}

// SAFETY: repr(C), one i64.
unsafe impl Descriptor for RngStateDesc {}

/// One batched matrix decomposition for [`symbol::HOUSEHOLDER_QR`],
/// [`symbol::HOUSEHOLDER_PRODUCT`], [`symbol::HESSENBERG`], [`symbol::TRIDIAGONAL`],
/// [`symbol::TRIDIAGONAL_SOLVE`] (b's shape),
/// [`symbol::EIGH`], [`symbol::SVD`] or [`symbol::EIG`]:
/// `batch` matrices of `rows` x `cols` elements of type `elem` (an
/// [`ElemCode`]: F32, F64, C64 or C128), each dense row-major, one after
/// the other in every buffer (as the tensors' values are laid out).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinalgDesc {
    /// An [`ElemCode`] (F32, F64, C64, C128).
    pub elem: i64,
    pub batch: i64,
    pub rows: i64,
    pub cols: i64,
    /// Householder product: the number of reflectors (tau's length).
    pub reflectors: i64,
    /// [`LINALG_LOWER`] | [`LINALG_VECTORS`] | [`LINALG_LEFT_VECTORS`].
    pub flags: i64,
    /// SVD: u is `rows` x `u_cols` and vt is `vt_rows` x `cols` (the square
    /// factors, or the reduced ones with min(rows, cols)).
    pub u_cols: i64,
    pub vt_rows: i64,
}

// SAFETY: repr(C), i64 fields only.
unsafe impl Descriptor for LinalgDesc {}

/// [`LinalgDesc::flags`] bit: eigh and tridiagonal read the lower triangle
/// (else the upper).
pub const LINALG_LOWER: i64 = 1;
/// [`LinalgDesc::flags`] bit: eigh / svd compute the vectors too (eig: the
/// right eigenvectors).
pub const LINALG_VECTORS: i64 = 2;
/// [`LinalgDesc::flags`] bit: eig computes the left eigenvectors.
pub const LINALG_LEFT_VECTORS: i64 = 4;
/// [`LinalgDesc::flags`] bit: a triangular solve has a on the left (op(a)·x = b).
pub const LINALG_LEFT_SIDE: i64 = 8;
/// [`LinalgDesc::flags`] bit: a triangular solve uses a's transpose.
pub const LINALG_TRANSPOSE_A: i64 = 16;
/// [`LinalgDesc::flags`] bit: a triangular solve takes a's diagonal as ones.
pub const LINALG_UNIT_DIAGONAL: i64 = 32;
/// [`LinalgDesc::flags`] bit: trsm reads a conjugated (with
/// [`LINALG_TRANSPOSE_A`]: aᴴ).
pub const LINALG_CONJUGATE_A: i64 = 64;

/// The body of a parallel loop, outlined by the compiler:
/// `int32_t task(void *ctx, int64_t begin, int64_t end)` runs the loop's
/// iterations `begin, begin + step, ... < end` with the captured values that
/// `ctx` points to, and returns 0 or a non-zero status after setting the
/// calling thread's last error. Chunks never overlap and may run at once on
/// several threads.
pub type ParallelTask =
    unsafe extern "C" fn(ctx: *mut core::ffi::c_void, begin: i64, end: i64) -> i32;

/// Estimated work (operations per iteration, as the compiler counts them,
/// times iterations) below which a parallel loop runs on the calling thread
/// alone: waking the pool costs a few microseconds, as much as ~2^17 simple
/// operations. The compiler does not outline loops it knows are smaller,
/// and the runtime does not split smaller ones it is handed.
pub const PARALLEL_MIN_WORK: u64 = 1 << 17;

/// Bytes from which a buffer copy (`mem.copy`) is a runtime call that
/// splits it over the thread pool (smaller ones are an inline `memcpy`).
pub const PARALLEL_COPY_MIN_BYTES: u64 = 1 << 20;

/// Multiply-adds (m·n·k over every batch) below which a matrix product runs
/// on the calling thread alone.
pub const GEMM_PARALLEL_MIN_FLOPS: u64 = 1 << 18;

/// The most columns of an f32 product the runtime computes transposed, on
/// its few-rows kernels (`skinny::try_few_columns`); the kernel selection
/// packs the patches of convolutions to at most this many features block
/// by block for them (`kernel.conv`'s `position_block`). With 8 and 16
/// (a 3x3 convolution of 4 x 128 x 128 x 32, AMD EPYC with AVX2) the
/// packed GEMM was 1.2-1.3x faster, and blocks cost it more per call than
/// they saved (1.2-1.4x one patch matrix per image).
pub const GEMM_FEW_COLUMNS_MAX: u64 = 4;

/// An exported function's body run by [`symbol::CALL_ON_POOL`]:
/// `int32_t body(void *ctx)`, `ctx` holding the function's parameters; 0 or
/// a non-zero status after setting the calling thread's last error.
pub type PoolBody = unsafe extern "C" fn(ctx: *mut core::ffi::c_void) -> i32;

/// A host's implementation of a custom-call target, as registered with
/// `P_register_custom_call`: one pointer per operand and per result (dense,
/// row-major), 0 on success or a non-zero status that fails the call.
pub type CustomCallFn = unsafe extern "C" fn(
    user: *mut core::ffi::c_void,
    operands: *const *const core::ffi::c_void,
    results: *const *mut core::ffi::c_void,
) -> i32;

/// One entry of a library's custom-call registry: the generated code holds
/// an array of these (one per target the model names, `name` a constant of
/// the library), and the runtime reads and writes `function`/`user` under
/// its registry lock. Nothing binds a target to a process symbol: an entry
/// has an implementation only once the host registered one.
#[repr(C)]
pub struct CustomCallTarget {
    /// The target's name, NUL-terminated.
    pub name: *const core::ffi::c_char,
    /// The registered implementation (NULL: none).
    pub function: Option<CustomCallFn>,
    /// The host's pointer handed back to `function`.
    pub user: *mut core::ffi::c_void,
}

/// Whether a `custom_call` target is one a host may register an
/// implementation for (`P_register_custom_call`): a C identifier that is
/// none of the runtime's, XLA's or JAX's own targets (`strata_*`,
/// `lapack_*`, `xla*`, `Sharding`, `cublas*`, `__*`...), which the front
/// passes rewrite or the lowering reports as unsupported.
pub fn is_host_custom_call(name: &str) -> bool {
    let identifier = identifier_error(name).is_none();
    let reserved = [
        "strata_",
        "lapack_",
        "xla",
        "Xla",
        "__",
        "cublas",
        "cusolver",
        "cudnn",
        "cufft",
        "cusparse",
        "cu_",
        "hip",
        "mhlo",
        "stablehlo",
        "tpu",
        "mosaic",
    ]
    .iter()
    .any(|p| name.starts_with(p))
        || matches!(
            name,
            "Sharding"
                | "SPMDFullToShardShape"
                | "SPMDShardToFullShape"
                | "annotate_device_placement"
                | "check.expect_eq"
        );
    identifier && !reserved
}

/// Attribute of the loop-level declaration that stands for a custom-call
/// target: the target's name (a string). Codegen gives each such
/// declaration an entry in the library's registry.
/// Names of the functions every library defines itself as `P_name`
/// (`profile` only when compiled with `--profile`, reserved always): no
/// exported function of the model may take them.
pub const LIBRARY_API: &[&str] = &[
    "last_error",
    "profile",
    "signature",
    "set_num_threads",
    "replicas_run",
    "set_infeed",
    "set_outfeed",
    "register_custom_call",
];

pub const CUSTOM_CALL_ATTR: &str = "custom_call";
/// Attribute of the same declaration: how many of its buffer parameters
/// are the call's operands (the rest are its results).
pub const CUSTOM_CALL_OPERANDS_ATTR: &str = "custom_call_operands";

/// The longest name accepted for an exported function or a custom-call
/// target. C requires compilers to tell apart 63 leading characters of an
/// identifier; 255 is far beyond any real model and keeps the header, the
/// symbol tables and the messages that quote names small.
pub const MAX_NAME_LEN: usize = 255;

/// Why `name` cannot be exported as (part of) a C identifier, if it cannot:
/// the one rule for names from a model that reach generated symbols and
/// source (`[A-Za-z_][A-Za-z0-9_]*`, at most [`MAX_NAME_LEN`] characters).
/// Nothing is escaped into an identifier, so nothing else can reach
/// generated text outside escaped comments.
pub fn identifier_error(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("the name is empty".into());
    }
    if name.len() > MAX_NAME_LEN {
        return Some(format!(
            "the name has {} characters (at most {MAX_NAME_LEN})",
            name.len()
        ));
    }
    let first_ok = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !first_ok || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Some(format!(
            "'{}' is not a C identifier ([A-Za-z_][A-Za-z0-9_]*)",
            shown_name(name)
        ));
    }
    None
}

/// A name from a model as a message quotes it: escaped (no control
/// characters reach the terminal), and cut after 64 characters.
pub fn shown_name(name: &str) -> String {
    let mut s: String = name.chars().take(64).flat_map(char::escape_debug).collect();
    if name.chars().count() > 64 {
        s.push_str("...");
    }
    s
}

/// Attribute of a loop-level function: the buffer parameters the caller may
/// pass as one buffer (a donated argument and the result updated in it, in
/// pairs); codegen gives them no `noalias`.
pub const ALIASED_PARAMS_ATTR: &str = "aliased_params";

/// Alignment (bytes) of a function's arena and of every buffer the
/// compiler places in it (`mem-plan-arena`), and what `P_f_with_scratch`
/// requires of the caller's scratch.
pub const ARENA_ALIGN: i64 = 64;

/// The runtime's C functions, each with its signature.
pub mod batched;
pub mod runtime;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_rule() {
        let cases = [
            (1, 1),
            (4, 1),
            (6, 1),
            (8, 1),
            (9, 2),
            (16, 2),
            (17, 4),
            (24, 4),
            (32, 4),
            (33, 8),
            (48, 8),
            (64, 8),
        ];
        for (bits, bytes) in cases {
            assert_eq!(scalar_storage_bytes(bits), bytes, "{bits} bits");
        }
    }

    #[test]
    fn int_codes_agree_with_the_storage_rule() {
        for width in 1..=64 {
            for signed in [true, false] {
                let code = ElemCode::of_int(width, signed).expect("width in range");
                assert_eq!(
                    code.storage_bytes(),
                    scalar_storage_bytes(width),
                    "i{width}"
                );
            }
        }
    }

    #[test]
    fn descriptors_are_plain_words() {
        let d = GemmDesc {
            batch_rank: 1,
            m: 7,
            out_col_stride: 9,
            ..GemmDesc::default()
        };
        let w = d.words();
        assert_eq!(w.len(), 1 + 4 * GEMM_MAX_BATCH + 9);
        assert_eq!((w[0], w[1 + 4 * GEMM_MAX_BATCH], w[w.len() - 1]), (1, 7, 9));
        let f = FftDesc {
            kind: FftKind::Irfft as i64,
            ..FftDesc::default()
        };
        assert_eq!(f.words()[0], 3);
        assert_eq!(f.words().len(), 3 + FFT_MAX_RANK + 1 + 3);
    }

    #[test]
    fn codes_round_trip() {
        for c in ElemCode::ALL {
            assert_eq!(ElemCode::from_i32(c as i32), Some(c));
        }
        assert_eq!(ElemCode::from_i32(MINIFLOAT_BASE), None);
    }
}
