//! Op names of the `xla` dialect, spelled once.

pub const ABS: &str = "xla.abs";
pub const NEGATE: &str = "xla.negate";
pub const SQRT: &str = "xla.sqrt";
pub const RSQRT: &str = "xla.rsqrt";
pub const CBRT: &str = "xla.cbrt";
pub const EXP: &str = "xla.exponential";
pub const EXPM1: &str = "xla.exponential_minus_one";
pub const LOG: &str = "xla.log";
pub const LOG1P: &str = "xla.log_plus_one";
pub const LOGISTIC: &str = "xla.logistic";
pub const SINE: &str = "xla.sine";
pub const COSINE: &str = "xla.cosine";
pub const TAN: &str = "xla.tan";
pub const TANH: &str = "xla.tanh";
pub const FLOOR: &str = "xla.floor";
pub const CEIL: &str = "xla.ceil";
pub const ROUND_AFZ: &str = "xla.round_nearest_afz";
pub const ROUND_EVEN: &str = "xla.round_nearest_even";
pub const SIGN: &str = "xla.sign";
pub const NOT: &str = "xla.not";
pub const POPCNT: &str = "xla.popcnt";
pub const CLZ: &str = "xla.count_leading_zeros";
// CHLO's element-wise ops (client-level in XLA), parsed from `chlo.*`.
pub const SQUARE: &str = "xla.square";
pub const ERF: &str = "xla.erf";
pub const ERFC: &str = "xla.erfc";
pub const ERF_INV: &str = "xla.erf_inv";
/// exp(-|x|) I1(x), CHLO's `bessel_i1e` (`jax.scipy.special.i1e`).
pub const BESSEL_I1E: &str = "xla.bessel_i1e";
pub const LGAMMA: &str = "xla.lgamma";
pub const NEXT_AFTER: &str = "xla.next_after";
pub const ZETA: &str = "xla.zeta";
pub const TRIANGULAR_SOLVE: &str = "xla.triangular_solve";
pub const CHOLESKY: &str = "xla.cholesky";
/// LU factorization with partial pivoting, as LAPACK's getrf: (lu, 1-based
/// row swaps, info). Made from JAX's `lapack_?getrf_ffi` custom calls.
pub const LU: &str = "xla.lu";
/// LAPACK's geqrf: (a) -> (R above the diagonal with the Householder
/// vectors below it, tau). Made from `lapack_?geqrf_ffi`.
pub const HOUSEHOLDER_QR: &str = "xla.householder_qr";
/// LAPACK's orgqr / ungqr: (reflectors, tau) -> the first columns of Q.
/// Made from `lapack_?orgqr_ffi` / `lapack_?ungqr_ffi`.
pub const HOUSEHOLDER_PRODUCT: &str = "xla.householder_product";
/// Self-adjoint eigendecomposition, as syevd / heevd: (a) -> (vectors,
/// ascending eigenvalues, info). Made from `lapack_?syevd_ffi` / `?heevd`.
pub const EIGH: &str = "xla.eigh";
/// Singular value decomposition, as gesdd: (a) -> (descending singular
/// values, u, vᴴ, info). Made from `lapack_?gesdd_ffi`.
pub const SVD: &str = "xla.svd";
pub const EIG: &str = "xla.eig";
pub const HESSENBERG: &str = "xla.hessenberg";
pub const TRIDIAGONAL: &str = "xla.tridiagonal";
pub const TRIDIAGONAL_SOLVE: &str = "xla.tridiagonal_solve";
pub const RNG_BIT_GENERATOR: &str = "xla.rng_bit_generator";
/// `rng(a, b, shape)`: uniform in [a, b) or normal (mean a, deviation b)
/// numbers; `xla-expand-rng` writes it with the process's Philox state.
pub const RNG: &str = "xla.rng";
/// Floats (or another quantization) to a quantized type.
pub const UNIFORM_QUANTIZE: &str = "xla.uniform_quantize";
/// A quantized type to its expressed floats.
pub const UNIFORM_DEQUANTIZE: &str = "xla.uniform_dequantize";
/// XLA's `rng-get-and-update-state`: the process's generator state
/// (`tensor<2xui64>`: key, counter), advanced by `delta` blocks.
pub const RNG_GET_AND_UPDATE_STATE: &str = "xla.rng_get_and_update_state";
// Batch normalization; `xla-expand-batch-norm` writes them as element-wise
// ops and reductions.
pub const BATCH_NORM_INFERENCE: &str = "xla.batch_norm_inference";
pub const BATCH_NORM_TRAINING: &str = "xla.batch_norm_training";
pub const BATCH_NORM_GRAD: &str = "xla.batch_norm_grad";
/// CHLO's `ragged_dot`; `xla-expand-ragged-dot` writes it as a dot_general
/// per group, masked.
pub const RAGGED_DOT: &str = "xla.ragged_dot";
/// CHLO's `scan`; `xla-expand-scan` writes it as a `while`.
pub const SCAN: &str = "xla.scan";
// StableHLO's dynamic-shape ops; `xla-static-dynamic-ops` turns those with
// constant shape operands into their static twins.
pub const DYNAMIC_BROADCAST_IN_DIM: &str = "xla.dynamic_broadcast_in_dim";
pub const DYNAMIC_IOTA: &str = "xla.dynamic_iota";
pub const DYNAMIC_RESHAPE: &str = "xla.dynamic_reshape";
pub const DYNAMIC_PAD: &str = "xla.dynamic_pad";
pub const REAL_DYNAMIC_SLICE: &str = "xla.real_dynamic_slice";
pub const DYNAMIC_GATHER: &str = "xla.dynamic_gather";
pub const DYNAMIC_CONV: &str = "xla.dynamic_conv";
pub const DYNAMIC_OPS: &[&str] = &[
    DYNAMIC_BROADCAST_IN_DIM,
    DYNAMIC_IOTA,
    DYNAMIC_RESHAPE,
    DYNAMIC_PAD,
    DYNAMIC_GATHER,
    DYNAMIC_CONV,
    REAL_DYNAMIC_SLICE,
];
pub const POLYGAMMA: &str = "xla.polygamma";
pub const DIGAMMA: &str = "xla.digamma";
pub const REDUCE_PRECISION: &str = "xla.reduce_precision";
pub const ASIN: &str = "xla.asin";
pub const ACOS: &str = "xla.acos";
pub const ATAN: &str = "xla.atan";
pub const SINH: &str = "xla.sinh";
pub const COSH: &str = "xla.cosh";
pub const ASINH: &str = "xla.asinh";
pub const ACOSH: &str = "xla.acosh";
pub const ATANH: &str = "xla.atanh";
pub const IS_INF: &str = "xla.is_inf";
pub const IS_POS_INF: &str = "xla.is_pos_inf";
pub const IS_NEG_INF: &str = "xla.is_neg_inf";

pub const ADD: &str = "xla.add";
pub const SUBTRACT: &str = "xla.subtract";
pub const MULTIPLY: &str = "xla.multiply";
pub const DIVIDE: &str = "xla.divide";
pub const REMAINDER: &str = "xla.remainder";
pub const POWER: &str = "xla.power";
pub const MAXIMUM: &str = "xla.maximum";
pub const MINIMUM: &str = "xla.minimum";
pub const AND: &str = "xla.and";
pub const OR: &str = "xla.or";
pub const XOR: &str = "xla.xor";
pub const SHIFT_LEFT: &str = "xla.shift_left";
pub const SHIFT_RIGHT_ARITHMETIC: &str = "xla.shift_right_arithmetic";
pub const SHIFT_RIGHT_LOGICAL: &str = "xla.shift_right_logical";
pub const ATAN2: &str = "xla.atan2";

pub const CONVERT: &str = "xla.convert";
pub const BITCAST_CONVERT: &str = "xla.bitcast_convert";
pub const IS_FINITE: &str = "xla.is_finite";
pub const REAL: &str = "xla.real";
pub const IMAG: &str = "xla.imag";
pub const COMPLEX: &str = "xla.complex";
pub const SELECT: &str = "xla.select";
pub const CLAMP: &str = "xla.clamp";
pub const COMPARE: &str = "xla.compare";
pub const CONSTANT: &str = "xla.constant";
pub const IOTA: &str = "xla.iota";
pub const BROADCAST_IN_DIM: &str = "xla.broadcast_in_dim";
pub const RESHAPE: &str = "xla.reshape";
pub const TRANSPOSE: &str = "xla.transpose";
pub const SLICE: &str = "xla.slice";
pub const CONCATENATE: &str = "xla.concatenate";
pub const REVERSE: &str = "xla.reverse";
pub const PAD: &str = "xla.pad";
pub const DOT_GENERAL: &str = "xla.dot_general";
pub const REDUCE: &str = "xla.reduce";
pub const RETURN: &str = "xla.return";
pub const OPTIMIZATION_BARRIER: &str = "xla.optimization_barrier";
pub const CUSTOM_CALL: &str = "xla.custom_call";
pub const BROADCAST_TO: &str = "xla.broadcast_to";
pub const DYNAMIC_SLICE: &str = "xla.dynamic_slice";
pub const DYNAMIC_UPDATE_SLICE: &str = "xla.dynamic_update_slice";
pub const GATHER: &str = "xla.gather";
pub const SCATTER: &str = "xla.scatter";
pub const WHILE: &str = "xla.while";
pub const IF: &str = "xla.if";
pub const CASE: &str = "xla.case";
pub const REDUCE_WINDOW: &str = "xla.reduce_window";
pub const CONVOLUTION: &str = "xla.convolution";
pub const MULHI: &str = "xla.mulhi";
pub const SORT: &str = "xla.sort";
/// CHLO's top_k: the k largest elements of each row (last dimension), in
/// descending total order, and their indices.
pub const TOP_K: &str = "xla.top_k";
// Collectives (see ops/collective.rs).
pub const ALL_REDUCE: &str = "xla.all_reduce";
pub const ALL_GATHER: &str = "xla.all_gather";
pub const ALL_TO_ALL: &str = "xla.all_to_all";
pub const REDUCE_SCATTER: &str = "xla.reduce_scatter";
pub const COLLECTIVE_PERMUTE: &str = "xla.collective_permute";
pub const COLLECTIVE_BROADCAST: &str = "xla.collective_broadcast";
pub const COLLECTIVE_REDUCE: &str = "xla.collective_reduce";
pub const REPLICA_ID: &str = "xla.replica_id";
// Tokens and point-to-point transfers.
pub const AFTER_ALL: &str = "xla.after_all";
pub const SEND: &str = "xla.send";
pub const RECV: &str = "xla.recv";
pub const INFEED: &str = "xla.infeed";
pub const OUTFEED: &str = "xla.outfeed";
pub const PARTITION_ID: &str = "xla.partition_id";
/// The StableHLO interpreter's `interpreter.run_parallel`: runs one program
/// per device (replica x partition) at once.
pub const RUN_PARALLEL: &str = "xla.run_parallel";
/// Shardy's `sdy.mesh` (a named device mesh) and `sdy.manual_computation`
/// (a per-device program on shards), as JAX's pmap/shard_map exports write
/// them; `xla-expand-manual-computation` turns them into a device function
/// and a `run_parallel`.
pub const MESH: &str = "xla.mesh";
pub const MANUAL_COMPUTATION: &str = "xla.manual_computation";
pub const FFT: &str = "xla.fft";
pub const SELECT_AND_SCATTER: &str = "xla.select_and_scatter";
pub const MAP: &str = "xla.map";
pub const GET_DIMENSION_SIZE: &str = "xla.get_dimension_size";
pub const COMPOSITE: &str = "xla.composite";
pub const TUPLE: &str = "xla.tuple";
pub const GET_TUPLE_ELEMENT: &str = "xla.get_tuple_element";

/// `chlo.broadcast_*` spellings of the binary ops.
pub const CHLO_BROADCASTING: &[(&str, &str)] = &[
    ("chlo.broadcast_add", ADD),
    ("chlo.broadcast_subtract", SUBTRACT),
    ("chlo.broadcast_multiply", MULTIPLY),
    ("chlo.broadcast_divide", DIVIDE),
    ("chlo.broadcast_remainder", REMAINDER),
    ("chlo.broadcast_power", POWER),
    ("chlo.broadcast_maximum", MAXIMUM),
    ("chlo.broadcast_minimum", MINIMUM),
    ("chlo.broadcast_and", AND),
    ("chlo.broadcast_or", OR),
    ("chlo.broadcast_xor", XOR),
    ("chlo.broadcast_shift_left", SHIFT_LEFT),
    (
        "chlo.broadcast_shift_right_arithmetic",
        SHIFT_RIGHT_ARITHMETIC,
    ),
    ("chlo.broadcast_shift_right_logical", SHIFT_RIGHT_LOGICAL),
    ("chlo.broadcast_atan2", ATAN2),
    ("chlo.broadcast_compare", COMPARE),
    ("chlo.broadcast_complex", COMPLEX),
];

pub const UNARY_ELEMENTWISE: &[&str] = &[
    ABS, NEGATE, SQRT, RSQRT, CBRT, EXP, EXPM1, LOG, LOG1P, LOGISTIC, SINE, COSINE, TAN, TANH,
    FLOOR, CEIL, ROUND_AFZ, ROUND_EVEN, SIGN, NOT, POPCNT, CLZ, SQUARE, ERF, ERFC, ERF_INV, LGAMMA,
    DIGAMMA, BESSEL_I1E, ASIN, ACOS, ATAN, SINH, COSH, ASINH, ACOSH, ATANH,
];

/// Float predicates with an i1 result (like `xla.is_finite`).
pub const FLOAT_PREDICATES: &[&str] = &[IS_INF, IS_POS_INF, IS_NEG_INF];

pub const BINARY_ELEMENTWISE: &[&str] = &[
    NEXT_AFTER,
    ZETA,
    POLYGAMMA,
    ADD,
    SUBTRACT,
    MULTIPLY,
    DIVIDE,
    REMAINDER,
    POWER,
    MAXIMUM,
    MINIMUM,
    AND,
    OR,
    XOR,
    SHIFT_LEFT,
    SHIFT_RIGHT_ARITHMETIC,
    SHIFT_RIGHT_LOGICAL,
    ATAN2,
    MULHI,
];

pub const ALL: &[&str] = &[
    SCAN,
    RAGGED_DOT,
    BATCH_NORM_INFERENCE,
    BATCH_NORM_TRAINING,
    BATCH_NORM_GRAD,
    TRIANGULAR_SOLVE,
    CHOLESKY,
    HOUSEHOLDER_QR,
    HOUSEHOLDER_PRODUCT,
    EIGH,
    SVD,
    EIG,
    HESSENBERG,
    TRIDIAGONAL,
    TRIDIAGONAL_SOLVE,
    RNG_BIT_GENERATOR,
    RNG,
    RNG_GET_AND_UPDATE_STATE,
    UNIFORM_QUANTIZE,
    UNIFORM_DEQUANTIZE,
    DYNAMIC_BROADCAST_IN_DIM,
    DYNAMIC_IOTA,
    DYNAMIC_RESHAPE,
    DYNAMIC_PAD,
    DYNAMIC_GATHER,
    DYNAMIC_CONV,
    REAL_DYNAMIC_SLICE,
    NEXT_AFTER,
    ZETA,
    POLYGAMMA,
    TOP_K,
    REDUCE_PRECISION,
    AFTER_ALL,
    SEND,
    RECV,
    INFEED,
    OUTFEED,
    ALL_REDUCE,
    ALL_GATHER,
    ALL_TO_ALL,
    REDUCE_SCATTER,
    COLLECTIVE_PERMUTE,
    COLLECTIVE_BROADCAST,
    COLLECTIVE_REDUCE,
    REPLICA_ID,
    PARTITION_ID,
    ABS,
    NEGATE,
    SQRT,
    RSQRT,
    CBRT,
    EXP,
    EXPM1,
    LOG,
    LOG1P,
    LOGISTIC,
    SINE,
    COSINE,
    TAN,
    TANH,
    FLOOR,
    CEIL,
    ROUND_AFZ,
    ROUND_EVEN,
    SIGN,
    NOT,
    POPCNT,
    CLZ,
    ADD,
    SUBTRACT,
    MULTIPLY,
    DIVIDE,
    REMAINDER,
    POWER,
    MAXIMUM,
    MINIMUM,
    AND,
    OR,
    XOR,
    SHIFT_LEFT,
    SHIFT_RIGHT_ARITHMETIC,
    SHIFT_RIGHT_LOGICAL,
    ATAN2,
    CONVERT,
    BITCAST_CONVERT,
    IS_FINITE,
    REAL,
    IMAG,
    COMPLEX,
    SELECT,
    CLAMP,
    COMPARE,
    CONSTANT,
    IOTA,
    BROADCAST_IN_DIM,
    RESHAPE,
    TRANSPOSE,
    SLICE,
    CONCATENATE,
    REVERSE,
    PAD,
    DOT_GENERAL,
    REDUCE,
    RETURN,
    OPTIMIZATION_BARRIER,
    CUSTOM_CALL,
    BROADCAST_TO,
    SQUARE,
    ERF,
    ERFC,
    ERF_INV,
    BESSEL_I1E,
    LGAMMA,
    DIGAMMA,
    ASIN,
    ACOS,
    ATAN,
    SINH,
    COSH,
    ASINH,
    ACOSH,
    ATANH,
    IS_INF,
    IS_POS_INF,
    IS_NEG_INF,
    DYNAMIC_SLICE,
    DYNAMIC_UPDATE_SLICE,
    GATHER,
    SCATTER,
    WHILE,
    IF,
    CASE,
    REDUCE_WINDOW,
    CONVOLUTION,
    MULHI,
    MAP,
    GET_DIMENSION_SIZE,
    COMPOSITE,
    TUPLE,
    GET_TUPLE_ELEMENT,
    SORT,
    FFT,
    SELECT_AND_SCATTER,
];
