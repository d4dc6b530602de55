//! What a compiled library offers, as the generated headers and bindings
//! describe it: its functions with their buffers (`CFunction`, `CParam`), a
//! function's dimension variable, and what the library was compiled for
//! (`Interface`). The C header (`header.rs`), the C++ header
//! (`header_cpp.rs`) and the Rust bindings write text from these.

use std::fmt::Write as _;

/// One buffer parameter of an exported function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CParam {
    /// Parameter name: from the model's path for it (`params_attn_wk` for
    /// JAX's `params['attn']['wk']`, see `names::param_names`), else
    /// `position`.
    pub name: String,
    /// Positional name, `arg0` or `res0`: the count macros and Rust shape
    /// constants keep it (`P_MAIN_ARG0_COUNT`), whatever the model's names.
    pub position: String,
    /// The model's path for the buffer (JAX's pytree path), if it has one.
    pub path: Option<String>,
    /// C element type of the pointer, e.g. `float`, `int32_t`, `uint8_t` (pred), `uint16_t`
    /// (f16/bf16 bits); `float`/`double` for complex.
    pub c_type: String,
    /// Static shape (empty for a scalar).
    pub shape: Vec<i64>,
    /// Results are written by the function (non-const pointer).
    pub is_output: bool,
    /// The IR element type, e.g. `f32`, `bf16`, `complex<f32>`.
    pub elem_doc: String,
}

/// One exported function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CFunction {
    /// The C symbol, e.g. `mlp_main`.
    pub c_name: String,
    /// Inputs first, then outputs, in ABI order.
    pub params: Vec<CParam>,
    /// Bytes of scratch `P_f_with_scratch` takes (the function's arena and
    /// its callees'); None for a custom-call target's description.
    pub scratch_bytes: Option<i64>,
    /// The model's paths of arguments JAX left out of the function because
    /// it does not use them (`jax.jit`'s `keep_unused=False`; a serialized
    /// export says which): the caller must not pass them.
    pub dropped: Vec<String>,
    /// (argument, result) pairs that may be passed as one buffer: a
    /// donated argument updated in place (`xla-plan-donation`).
    pub aliases: Vec<(usize, usize)>,
    /// A function of one dimension variable, compiled for every size of
    /// it: `P_f(int64_t b, ...)`.
    pub batch: Option<BatchDim>,
}

/// The dimension variable of a function compiled for every size of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchDim {
    /// The variable's name, a C identifier (`b`).
    pub var: String,
    /// Per buffer (ABI order), the axis whose size is a multiple `m` of the
    /// variable (`b`, or `2*b` for an argument JAX declares so, `T*b` for
    /// a `(b, T, D)` value reshaped to `(b*T, D)`); its entry in the
    /// buffer's `shape` is `-m`.
    pub axes: Vec<Option<usize>>,
    /// The least value the model's shape assertions allow.
    pub min: i64,
    /// The sizes compiled ahead of time.
    pub sizes: Vec<i64>,
    /// Unnamed dimensions the program requires equal to `var` (`arg1_dim0`
    /// beside `arg0_dim0`): no parameters of their own.
    pub tied: Vec<String>,
}

/// Bytes of one C value of `c_type` (`float`, `int32_t`, ...).
pub fn c_type_bytes(c_type: &str) -> i64 {
    match c_type {
        "double" | "int64_t" | "uint64_t" => 8,
        "float" | "int32_t" | "uint32_t" => 4,
        "int16_t" | "uint16_t" => 2,
        _ => 1,
    }
}

impl CParam {
    pub(crate) fn is_complex(&self) -> bool {
        self.elem_doc.starts_with("complex")
    }

    /// Number of elements of the tensor (1 for a scalar; per unit of the
    /// dimension variable for a batched buffer).
    pub fn elements(&self) -> i64 {
        self.shape.iter().map(|&d| d.abs()).product()
    }

    /// Whether one dimension is a multiple of the function's dimension
    /// variable (negative).
    pub fn is_batched(&self) -> bool {
        self.shape.iter().any(|&d| d < 0)
    }

    /// Number of C values in the buffer (twice the elements for complex types).
    pub fn c_count(&self) -> i64 {
        self.elements() * if self.is_complex() { 2 } else { 1 }
    }

    /// The IR type as MLIR spells it, e.g. `tensor<4x8xf32>` (`tensor<bx8xf32>`
    /// with the dimension variable `var` for -1).
    pub fn ir_type(&self) -> String {
        self.ir_type_of("?")
    }

    /// [`ir_type`](Self::ir_type) with -1 spelled `var`.
    pub fn ir_type_of(&self, var: &str) -> String {
        let mut s = String::from("tensor<");
        for &d in &self.shape {
            match d {
                -1 => {
                    let _ = write!(s, "{var}x");
                }
                _ if d < 0 => {
                    let _ = write!(s, "({})x", batch_formula(d, var));
                }
                _ => {
                    let _ = write!(s, "{d}x");
                }
            }
        }
        s.push_str(&self.elem_doc);
        s.push('>');
        s
    }
}

/// A batched dimension of a shape (`-m`: `m` entries per unit of the
/// variable `var`) as a formula: `b`, `2*b`.
pub fn batch_formula(d: i64, var: &str) -> String {
    match d.unsigned_abs() {
        1 => var.to_string(),
        m => format!("{m}*{var}"),
    }
}

/// How many devices a multi-device module runs on, and whether they are
/// replicas or partitions (`mhlo.num_replicas` / `mhlo.num_partitions`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Devices {
    pub count: i64,
    pub partitions: bool,
}

/// Which host or device services a module's ops use: the header declares
/// `P_replicas_run` only for a module that can run on several devices, and
/// the feed hooks only for one with infeed or outfeed ops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceOps {
    /// Collectives, send/recv or replica/partition ids.
    pub collectives: bool,
    /// Infeed or outfeed.
    pub feeds: bool,
}

/// What a header describes: the library's functions and what it was
/// compiled for.
#[derive(Clone, Copy, Debug)]
pub struct Interface<'a> {
    /// The symbol prefix `P`.
    pub prefix: &'a str,
    pub funcs: &'a [CFunction],
    /// The model's host custom-call targets.
    pub custom_calls: &'a [CFunction],
    /// What the code was compiled for (triple, CPU, features), recorded in
    /// the opening comment.
    pub target: &'a str,
    /// The device count a multi-device module states.
    pub devices: Option<Devices>,
    pub device_ops: DeviceOps,
    /// Compiled with `--profile` (`P_profile` exists).
    pub profiled: bool,
}

impl Interface<'_> {
    /// Whether the library's functions can run as one of several devices.
    pub fn multi_device(&self) -> bool {
        self.devices.is_some() || self.device_ops.collectives
    }
}
