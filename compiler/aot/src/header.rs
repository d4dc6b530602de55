//! The C header describing a compiled module's exported functions.
//!
//! Contract (DESIGN.md, "Driver contract"): each public function `@f` becomes
//! `int32_t P_f(const T *arg0, ..., T *res0, ...)` over dense row-major buffers that the caller
//! allocates; it returns 0 on success and non-zero on a runtime error whose message
//! `P_last_error()` returns. For every buffer the header defines `P_F_ARGi_COUNT` /
//! `P_F_RESi_COUNT`: the number of C values the buffer holds (for complex element types that is
//! twice the element count, as complex numbers are stored as interleaved (re, im) pairs).

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
    /// Per buffer (ABI order), the axis whose size is the variable; its
    /// entry in the buffer's `shape` is -1.
    pub axes: Vec<Option<usize>>,
    /// The least value the model's shape assertions allow.
    pub min: i64,
    /// The sizes compiled ahead of time.
    pub sizes: Vec<i64>,
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
    fn is_complex(&self) -> bool {
        self.elem_doc.starts_with("complex")
    }

    /// Number of elements of the tensor (1 for a scalar; per unit of the
    /// dimension variable for a batched buffer).
    pub fn elements(&self) -> i64 {
        self.shape
            .iter()
            .map(|&d| if d < 0 { 1 } else { d })
            .product()
    }

    /// Whether one dimension is a function's dimension variable (-1).
    pub fn is_batched(&self) -> bool {
        self.shape.contains(&-1)
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
            if d < 0 {
                let _ = write!(s, "{var}x");
            } else {
                let _ = write!(s, "{d}x");
            }
        }
        s.push_str(&self.elem_doc);
        s.push('>');
        s
    }
}

/// Upper-cased C identifier form of `s` (non-alphanumerics become `_`).
pub(crate) fn macro_name(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if out.starts_with(|c: char| c.is_ascii_digit()) || out.is_empty() {
        out.insert(0, '_');
    }
    out
}

/// The name of the element-count macro for `param` of `func`, e.g. `MLP_MAIN_ARG0_COUNT`.
pub fn count_macro(func: &CFunction, param: &CParam) -> String {
    format!(
        "{}_{}_COUNT",
        macro_name(&func.c_name),
        macro_name(&param.position)
    )
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

/// Writes the C header of `lib` with include guard `guard_name`.
pub fn header(lib: &Interface<'_>, guard_name: &str) -> String {
    let prefix = lib.prefix;
    let guard = macro_name(guard_name);
    let mut h = String::new();
    let _ = writeln!(h, "/* Generated by Strata. Do not edit.");
    let _ = writeln!(h, " * Target: {}.", comment_text(lib.target));
    let _ = writeln!(
        h,
        " * On a CPU without the target's features every function returns non-zero and"
    );
    let _ = writeln!(h, " * {prefix}_last_error() names the missing features. */");
    let _ = writeln!(h, "#ifndef {guard}");
    let _ = writeln!(h, "#define {guard}");
    h.push('\n');
    if let Some(d) = lib.devices {
        let what = if d.partitions {
            "partitions"
        } else {
            "replicas"
        };
        let _ = writeln!(
            h,
            "/* The program runs on {} devices ({what}): call {prefix}_replicas_run({}, ...). */",
            d.count, d.count
        );
        let _ = writeln!(
            h,
            "#define {}_NUM_DEVICES {}\n",
            macro_name(prefix),
            d.count
        );
    }
    h.push_str("#include <stdint.h>\n\n");
    h.push_str("#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    h.push_str(
        "/* Buffers are dense, row-major and allocated by the caller; *_COUNT is the number of C\n \
         * values in each buffer (complex numbers are interleaved (re, im) pairs, pred is one byte,\n \
         * f16/bf16 are their uint16_t bit patterns; NULL for a buffer that holds data is an\n \
         * error). Functions return 0 on success and non-zero on a runtime error whose message\n \
         * ",
    );
    let _ = write!(h, "{prefix}_last_error() returns. */\n\n");

    for f in lib.funcs {
        write_prototype(&mut h, f);
    }
    write_custom_calls(&mut h, prefix, lib.custom_calls);
    let _ = writeln!(
        h,
        "/* The message of this thread's last failed call (\"\" when none). */"
    );
    let _ = writeln!(h, "const char *{prefix}_last_error(void);");
    let _ = writeln!(
        h,
        "/* The library's signature as JSON: every function with its buffers (name, the\n \
         * model's path, element type, shape) in call order. */"
    );
    let _ = writeln!(h, "const char *{prefix}_signature(void);");
    if lib.profiled {
        let _ = writeln!(
            h,
            "/* Compiled with --profile: the time spent in each top-level op of the exported\n \
             * functions since the library was loaded, as JSON {{\"labels\": [...], \"rows\":\n \
             * [[calls, nanoseconds], ...]}} (one row per label). */"
        );
        let _ = writeln!(h, "const char *{prefix}_profile(void);");
    }
    h.push('\n');
    let _ = writeln!(
        h,
        "/* Threads the library's kernels may use: n >= 1, or n <= 0 for the default\n \
         * (STRATA_NUM_THREADS, else the CPUs this process may run on); at most 4 per CPU\n \
         * (larger n is clamped). Returns 0. */"
    );
    let _ = writeln!(h, "int32_t {prefix}_set_num_threads(int32_t n);");
    if lib.multi_device() {
        write_replicas_run(&mut h, prefix);
    }
    if lib.device_ops.feeds {
        write_feed_hooks(&mut h, prefix);
    }
    h.push_str("\n#ifdef __cplusplus\n}\n#endif\n\n");
    let _ = writeln!(h, "#endif /* {guard} */");
    h
}

/// `P_replicas_run`, for a module whose functions can run as one of
/// several devices.
fn write_replicas_run(h: &mut String, prefix: &str) {
    h.push('\n');
    let _ = writeln!(
        h,
        "/* Runs body(d, user) for every device d in 0..n-1, each on its own thread:\n \
         * functions called inside body are device d's program (replica d), and their\n \
         * collectives meet the other devices'. Returns 0, or non-zero when a device\n \
         * failed, with the message from {prefix}_last_error(). A device that does not\n \
         * reach a collective makes the others fail after STRATA_COLLECTIVE_TIMEOUT_MS\n \
         * (default 30000). */"
    );
    let _ = writeln!(
        h,
        "int32_t {prefix}_replicas_run(int32_t n, void (*body)(int32_t device, void *user), void *user);"
    );
}

/// The infeed and outfeed hooks, for a module with those ops.
fn write_feed_hooks(h: &mut String, prefix: &str) {
    h.push('\n');
    let _ = writeln!(
        h,
        "/* Host hooks for infeed and outfeed ops: hook(device, data, bytes, user) fills\n \
         * (infeed) or reads (outfeed) one value and returns 0, or non-zero to fail the\n \
         * call. Without a hook, those ops fail with a message. NULL unregisters. */"
    );
    let _ = writeln!(
        h,
        "void {prefix}_set_infeed(int32_t (*hook)(int32_t device, void *data, int64_t bytes, void *user), void *user);"
    );
    let _ = writeln!(
        h,
        "void {prefix}_set_outfeed(int32_t (*hook)(int32_t device, void *data, int64_t bytes, void *user), void *user);"
    );
}

/// The registration of host implementations for the model's custom-call
/// targets: `P_register_custom_call`, with each target's buffers listed.
fn write_custom_calls(h: &mut String, prefix: &str, targets: &[CFunction]) {
    h.push_str(
        "/* Custom calls: a model's custom_call @target runs the implementation the host\n \
         * registered for target, and nothing else. fn(user, operands, results) gets one\n \
         * pointer per operand and per result (dense, row-major, the types listed below;\n \
         * results are zero-filled before the call) and returns 0, or non-zero to fail the\n \
         * call with that status. A call reaching a target with no implementation returns\n \
         * non-zero and ",
    );
    let _ = writeln!(
        h,
        "{prefix}_last_error() names the target. Registration returns 0 when\n \
         * target is one of this library's targets (non-zero otherwise), is thread-safe,\n \
         * may happen before or between calls, and fn NULL removes an implementation."
    );
    if targets.is_empty() {
        h.push_str(" * This library has no custom-call targets. */\n");
    } else {
        h.push_str(" * Targets:\n");
        for t in targets {
            let _ = writeln!(h, " *   \"{}\"", comment_text(&t.c_name));
            let (ins, outs): (Vec<&CParam>, Vec<&CParam>) =
                t.params.iter().partition(|p| !p.is_output);
            for (i, p) in ins.iter().enumerate() {
                let _ = writeln!(
                    h,
                    " *     operands[{i}]  const {} *  {}  ({} values)",
                    p.c_type,
                    p.ir_type(),
                    p.c_count()
                );
            }
            for (i, p) in outs.iter().enumerate() {
                let _ = writeln!(
                    h,
                    " *     results[{i}]   {} *  {}  ({} values)",
                    p.c_type,
                    p.ir_type(),
                    p.c_count()
                );
            }
        }
        h.push_str(" */\n");
    }
    let _ = writeln!(
        h,
        "int32_t {prefix}_register_custom_call(const char *target, int32_t (*fn)(void *user, const void *const *operands, void *const *results), void *user);\n"
    );
}

/// `s` made safe inside a C or Rust comment: nothing can end the comment
/// (`*/`), open a nested one (`/*`) or start a new line, and control
/// characters are shown escaped.
pub fn comment_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev = '\0';
    for c in s.chars() {
        match c {
            // `*/` would end a C comment, `/*` open a nested Rust one.
            '/' if prev == '*' => out.push_str("\\/"),
            '*' if prev == '/' => out.push_str("\\*"),
            c if c.is_control() || is_line_or_direction_mark(c) => out.extend(c.escape_default()),
            c => out.push(c),
        }
        prev = c;
    }
    out
}

/// Line separators, and the marks that change the direction of text
/// (rustc denies them in comments: they can make code read other than it
/// compiles).
fn is_line_or_direction_mark(c: char) -> bool {
    matches!(
        c,
        '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
    )
}

/// A function's buffer comment, count macros and prototype.
fn write_prototype(h: &mut String, f: &CFunction) {
    if let Some(batch) = &f.batch {
        return write_batched_prototype(h, f, batch);
    }
    let _ = writeln!(h, "/* {}", f.c_name);
    let width = f.params.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in &f.params {
        let dir = if p.is_output { "out" } else { "in " };
        let n = p.elements();
        let what = if p.is_complex() {
            format!(
                "{n} element{} = {} {}",
                if n == 1 { "" } else { "s" },
                p.c_count(),
                p.c_type
            )
        } else {
            format!("{n} element{}", if n == 1 { "" } else { "s" })
        };
        let path = p
            .path
            .as_deref()
            .map(|s| format!("  {}", comment_text(s)))
            .unwrap_or_default();
        let _ = writeln!(
            h,
            " *   {dir} {:width$}  {}  ({what}){path}",
            p.name,
            p.ir_type()
        );
    }
    if !f.dropped.is_empty() {
        let paths: Vec<String> = f.dropped.iter().map(|p| comment_text(p)).collect();
        let _ = writeln!(
            h,
            " * Not parameters: JAX dropped these unused arguments (keep_unused=False): {}",
            paths.join(", ")
        );
    }
    h.push_str(" */\n");
    for p in &f.params {
        let _ = writeln!(h, "#define {} {}", count_macro(f, p), p.c_count());
    }
    let params: Vec<String> = f.params.iter().map(c_parameter).collect();
    let params = if params.is_empty() {
        "void".to_string()
    } else {
        params.join(", ")
    };
    let _ = writeln!(h, "int32_t {}({params});", f.c_name);
    let _ = writeln!(
        h,
        "/* The same call with its {} buffer pointers in an array, arguments then results\n \
         * (one C type for every function, for generic hosts). */",
        f.params.len()
    );
    let _ = writeln!(h, "int32_t {}_packed(void *const *buffers);", f.c_name);
    for &(arg, res) in &f.aliases {
        let _ = writeln!(
            h,
            "/* Donated: res{res} may be the same buffer as arg{arg} (the update is made in place). */"
        );
    }
    if let Some(bytes) = f.scratch_bytes {
        let upper = macro_name(&f.c_name);
        let _ = writeln!(
            h,
            "/* The same call on memory the caller provides: scratch holds {upper}_SCRATCH_BYTES\n \
             * bytes, 64-byte aligned (nothing is allocated). {}() allocates its {bytes}\n \
             * bytes once per thread and reuses them. */",
            f.c_name
        );
        let _ = writeln!(h, "#define {upper}_SCRATCH_BYTES {bytes}");
        let _ = writeln!(h, "int64_t {}_scratch_bytes(void);", f.c_name);
        let scratch_params = if f.params.is_empty() {
            "void *scratch".to_string()
        } else {
            format!("{params}, void *scratch")
        };
        let _ = writeln!(h, "int32_t {}_with_scratch({scratch_params});", f.c_name);
    }
    h.push('\n');
}

/// The prototype of a function of a dimension variable `b`: counts as
/// macros of it, `int64_t b` first.
fn write_batched_prototype(h: &mut String, f: &CFunction, batch: &BatchDim) {
    let var = &batch.var;
    let sizes: Vec<String> = batch.sizes.iter().map(i64::to_string).collect();
    let _ = writeln!(
        h,
        "/* {}: one call for any {var} >= {} (compiled for {var} = {}; other values run as\n \
         * chunks of those). A smaller {var} returns non-zero with the model's shape assertion.",
        f.c_name,
        batch.min,
        sizes.join(", ")
    );
    let width = f.params.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in &f.params {
        let dir = if p.is_output { "out" } else { "in " };
        let count = count_formula(p, var);
        let path = p
            .path
            .as_deref()
            .map(|s| format!("  {}", comment_text(s)))
            .unwrap_or_default();
        let _ = writeln!(
            h,
            " *   {dir} {:width$}  {}  ({count} values){path}",
            p.name,
            p.ir_type_of(var)
        );
    }
    h.push_str(" */\n");
    for p in &f.params {
        let m = count_macro(f, p);
        if p.is_batched() {
            let _ = writeln!(h, "#define {m}({var}) ((int64_t)({var}) * {})", p.c_count());
        } else {
            let _ = writeln!(h, "#define {m}({var}) {}", p.c_count());
        }
    }
    let mut params = vec![format!("int64_t {var}")];
    params.extend(f.params.iter().map(c_parameter));
    let _ = writeln!(h, "int32_t {}({});", f.c_name, params.join(", "));
    let _ = writeln!(
        h,
        "/* The same call with {var} in dims[0] and its {} buffer pointers in an array,\n \
         * arguments then results. */",
        f.params.len()
    );
    let _ = writeln!(
        h,
        "int32_t {}_packed(const int64_t *dims, void *const *buffers);\n",
        f.c_name
    );
}

/// A buffer as a C parameter: `const float *x` (results not const).
fn c_parameter(p: &CParam) -> String {
    let constness = if p.is_output { "" } else { "const " };
    format!("{constness}{} *{}", p.c_type, p.name)
}

/// A buffer's count of C values as C text: `b * 784` or `10`.
fn count_formula(p: &CParam, var: &str) -> String {
    if p.is_batched() {
        format!("{var} * {}", p.c_count())
    } else {
        p.c_count().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn param(name: &str, c_type: &str, shape: &[i64], is_output: bool, elem: &str) -> CParam {
        CParam {
            position: name.to_string(),
            path: None,
            name: name.into(),
            c_type: c_type.into(),
            shape: shape.to_vec(),
            is_output,
            elem_doc: elem.into(),
        }
    }

    fn mlp() -> Vec<CFunction> {
        vec![CFunction {
            c_name: "mlp_main".into(),
            params: vec![
                param("arg0", "float", &[4, 8], false, "f32"),
                param("arg1", "uint8_t", &[], false, "i1"),
                param("res0", "float", &[4, 4], true, "f32"),
                param("res1", "float", &[3], true, "complex<f32>"),
            ],
            scratch_bytes: Some(512),
            dropped: vec![],
            aliases: vec![],
            batch: None,
        }]
    }

    /// A single-device library without custom calls.
    fn interface<'a>(prefix: &'a str, funcs: &'a [CFunction], profiled: bool) -> Interface<'a> {
        Interface {
            prefix,
            funcs,
            custom_calls: &[],
            target: "x86_64-unknown-linux-gnu, CPU x86-64-v3",
            devices: None,
            device_ops: DeviceOps::default(),
            profiled,
        }
    }

    #[test]
    fn exact_text_for_a_small_module() {
        let h = header(&interface("mlp", &mlp(), false), "MLP_H");
        let want = r#"/* Generated by Strata. Do not edit.
 * Target: x86_64-unknown-linux-gnu, CPU x86-64-v3.
 * On a CPU without the target's features every function returns non-zero and
 * mlp_last_error() names the missing features. */
#ifndef MLP_H
#define MLP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Buffers are dense, row-major and allocated by the caller; *_COUNT is the number of C
 * values in each buffer (complex numbers are interleaved (re, im) pairs, pred is one byte,
 * f16/bf16 are their uint16_t bit patterns; NULL for a buffer that holds data is an
 * error). Functions return 0 on success and non-zero on a runtime error whose message
 * mlp_last_error() returns. */

/* mlp_main
 *   in  arg0  tensor<4x8xf32>  (32 elements)
 *   in  arg1  tensor<i1>  (1 element)
 *   out res0  tensor<4x4xf32>  (16 elements)
 *   out res1  tensor<3xcomplex<f32>>  (3 elements = 6 float)
 */
#define MLP_MAIN_ARG0_COUNT 32
#define MLP_MAIN_ARG1_COUNT 1
#define MLP_MAIN_RES0_COUNT 16
#define MLP_MAIN_RES1_COUNT 6
int32_t mlp_main(const float *arg0, const uint8_t *arg1, float *res0, float *res1);
/* The same call with its 4 buffer pointers in an array, arguments then results
 * (one C type for every function, for generic hosts). */
int32_t mlp_main_packed(void *const *buffers);
/* The same call on memory the caller provides: scratch holds MLP_MAIN_SCRATCH_BYTES
 * bytes, 64-byte aligned (nothing is allocated). mlp_main() allocates its 512
 * bytes once per thread and reuses them. */
#define MLP_MAIN_SCRATCH_BYTES 512
int64_t mlp_main_scratch_bytes(void);
int32_t mlp_main_with_scratch(const float *arg0, const uint8_t *arg1, float *res0, float *res1, void *scratch);

/* Custom calls: a model's custom_call @target runs the implementation the host
 * registered for target, and nothing else. fn(user, operands, results) gets one
 * pointer per operand and per result (dense, row-major, the types listed below;
 * results are zero-filled before the call) and returns 0, or non-zero to fail the
 * call with that status. A call reaching a target with no implementation returns
 * non-zero and mlp_last_error() names the target. Registration returns 0 when
 * target is one of this library's targets (non-zero otherwise), is thread-safe,
 * may happen before or between calls, and fn NULL removes an implementation.
 * This library has no custom-call targets. */
int32_t mlp_register_custom_call(const char *target, int32_t (*fn)(void *user, const void *const *operands, void *const *results), void *user);

/* The message of this thread's last failed call ("" when none). */
const char *mlp_last_error(void);
/* The library's signature as JSON: every function with its buffers (name, the
 * model's path, element type, shape) in call order. */
const char *mlp_signature(void);

/* Threads the library's kernels may use: n >= 1, or n <= 0 for the default
 * (STRATA_NUM_THREADS, else the CPUs this process may run on); at most 4 per CPU
 * (larger n is clamped). Returns 0. */
int32_t mlp_set_num_threads(int32_t n);

#ifdef __cplusplus
}
#endif

#endif /* MLP_H */
"#;
        assert_eq!(h, want);
    }

    #[test]
    fn structure() {
        let funcs = vec![
            CFunction {
                c_name: "m_f".into(),
                params: vec![
                    param("arg0", "double", &[2, 0], false, "f64"),
                    param("res0", "int64_t", &[5], true, "i64"),
                ],
                scratch_bytes: None,
                dropped: vec![],
                aliases: vec![],
                batch: None,
            },
            CFunction {
                c_name: "m_g".into(),
                params: vec![],
                scratch_bytes: None,
                dropped: vec![],
                aliases: vec![],
                batch: None,
            },
        ];
        let h = header(&interface("m", &funcs, false), "m.h");
        // Guard is sanitized and balanced.
        assert!(h.contains("#ifndef M_H\n#define M_H\n"));
        assert!(h.trim_end().ends_with("#endif /* M_H */"));
        assert_eq!(h.matches("#ifdef __cplusplus").count(), 2);
        // Prototypes: inputs const, outputs mutable, no parameters → void.
        assert!(h.contains("int32_t m_f(const double *arg0, int64_t *res0);\n"));
        assert!(h.contains("int32_t m_g(void);\n"));
        assert!(h.contains("const char *m_last_error(void);\n"));
        // Counts, including an empty tensor.
        assert!(h.contains("#define M_F_ARG0_COUNT 0\n"));
        assert!(h.contains("#define M_F_RES0_COUNT 5\n"));
        assert_eq!(
            count_macro(&funcs[0], &funcs[0].params[1]),
            "M_F_RES0_COUNT"
        );
        assert!(h.contains("tensor<2x0xf64>"));
        // Every function appears once as a prototype and once packed, beside
        // m_set_num_threads and m_register_custom_call.
        assert_eq!(h.matches("int32_t m_").count(), 6);
        assert!(h.contains("int32_t m_f_packed(void *const *buffers);\n"));
    }

    #[test]
    fn device_hooks_only_where_the_module_uses_them() {
        let replicas = "int32_t m_replicas_run(int32_t n, void (*body)(int32_t device, void *user), void *user);\n";
        let declared = |device_ops, devices| {
            let h = header(
                &Interface {
                    device_ops,
                    devices,
                    ..interface("m", &[], false)
                },
                "M_H",
            );
            (
                h.contains(replicas),
                h.contains("void m_set_infeed("),
                h.contains("void m_set_outfeed("),
            )
        };
        let ops = |collectives, feeds| DeviceOps { collectives, feeds };
        assert_eq!(declared(ops(false, false), None), (false, false, false));
        assert_eq!(declared(ops(true, false), None), (true, false, false));
        assert_eq!(declared(ops(false, true), None), (false, true, true));
        let two = Some(Devices {
            count: 2,
            partitions: false,
        });
        assert_eq!(declared(ops(false, false), two), (true, false, false));
    }

    #[test]
    fn comments_stay_comments() {
        assert_eq!(comment_text("a */ b"), "a *\\/ b");
        assert_eq!(comment_text("a /* b"), "a /\\* b");
        assert_eq!(
            comment_text("x\nint y;\r\u{2028}"),
            "x\\nint y;\\r\\u{2028}"
        );
        // Direction marks would make rustc refuse the Rust bindings.
        assert_eq!(comment_text("a\u{202e}b\u{2067}"), "a\\u{202e}b\\u{2067}");
        // A target and a target description with hostile text compile
        // as C and declare nothing more.
        let evil = "evil */\n#include <stdlib.h>\nstatic int x = system(\"id\"); /*";
        let h = header(
            &Interface {
                target: evil,
                ..interface("m", &[], false)
            },
            "M_H",
        );
        assert!(!h.contains("\n#include <stdlib.h>"), "{h}");
        assert_eq!(h.matches("*/").count(), h.matches("/*").count(), "{h}");
    }

    #[test]
    fn param_helpers() {
        let p = param("res1", "double", &[2, 3], true, "complex<f64>");
        assert_eq!(p.elements(), 6);
        assert_eq!(p.c_count(), 12);
        assert_eq!(p.ir_type(), "tensor<2x3xcomplex<f64>>");
        let s = param("arg0", "uint16_t", &[], false, "bf16");
        assert_eq!((s.elements(), s.c_count()), (1, 1));
        assert_eq!(s.ir_type(), "tensor<bf16>");
        assert_eq!(macro_name("9lives-x"), "_9LIVES_X");
    }

    #[test]
    fn header_compiles_as_c_and_cxx() {
        let tmp = tempfile::tempdir().unwrap();
        let funcs = mlp();
        let h = header(&interface("mlp", &funcs, true), "MLP_H");
        std::fs::write(tmp.path().join("mlp.h"), &h).unwrap();
        let src = "#include \"mlp.h\"\n#include \"mlp.h\"\nfloat buf[MLP_MAIN_RES0_COUNT];\n\
                   int32_t (*fp)(const float *, const uint8_t *, float *, float *) = mlp_main;\n\
                   const char *(*ep)(void) = mlp_last_error;\n\
                   const char *(*pp)(void) = mlp_profile;\n";
        for (file, compiler) in [("t.c", "cc"), ("t.cc", "c++")] {
            std::fs::write(tmp.path().join(file), src).unwrap();
            // build-essential (.ci/setup) installs both compilers.
            let st = Command::new(compiler)
                .args(["-fsyntax-only", "-Wall", "-Werror"])
                .arg(tmp.path().join(file))
                .status()
                .unwrap_or_else(|e| panic!("{compiler} is required (build-essential): {e}"));
            assert!(st.success(), "{compiler} rejected the header:\n{h}");
        }
    }
}
