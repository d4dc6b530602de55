//! The C++ header (`--header-cpp`): the C interface, then a namespace named
//! after the prefix with one overload set per exported function that takes
//! `std::span` buffers, checks their sizes, and throws on failure:
//! `strata::mlp::main(x, w, out)` (the namespace `strata` keeps a prefix
//! such as `exp` clear of the C library's names).
//!
//! C++20 (`<span>`). The C declarations are included verbatim under the C
//! header's own guard, so a program may include both headers. Every name the
//! C++ part spells comes from the C interface (validated identifiers: the
//! parameter rule already avoids C++ keywords) or from this file; function
//! names get a trailing `_` when they are a C++ keyword or one of the
//! namespace's own names.

use crate::header::{count_macro, header, macro_name};
use crate::interface::{CFunction, CParam, Interface};
use crate::param_names::is_cpp_keyword;
use std::collections::HashSet;
use std::fmt::Write as _;

/// Names the generated namespace defines itself.
const OWN_NAMES: &[&str] = &["Error", "Scratch", "detail", "signature", "set_num_threads"];

/// The C++ header of `lib`: the C header (guard `c_guard`) and the C++
/// interface in namespace `lib.prefix`.
pub fn cpp_header(lib: &Interface<'_>, c_guard: &str) -> String {
    let prefix = lib.prefix;
    let mut h = header(lib, c_guard);
    let guard = format!("{}_HPP", macro_name(c_guard).trim_end_matches("_H"));
    let namespace = cpp_name(prefix, &HashSet::new());
    let qualified = format!("strata::{namespace}");
    let _ = writeln!(h);
    let _ = writeln!(
        h,
        "/* The C++ interface (C++20). Buffers are std::span over the C types above; a\n \
         * span of the wrong size throws std::invalid_argument, a call that returns\n \
         * non-zero throws {qualified}::Error with {prefix}_last_error()'s message. */"
    );
    let _ = writeln!(h, "#ifndef {guard}\n#define {guard}\n");
    h.push_str(PREAMBLE_INCLUDES);
    let _ = writeln!(h, "\nnamespace strata::{namespace} {{\n");
    h.push_str(&PREAMBLE.replace("@P@", prefix));
    let mut taken: HashSet<String> = OWN_NAMES.iter().map(|s| s.to_string()).collect();
    let names: Vec<String> = lib
        .funcs
        .iter()
        .map(|f| {
            let base = f
                .c_name
                .strip_prefix(&format!("{prefix}_"))
                .unwrap_or(&f.c_name);
            let name = cpp_name(base, &taken);
            taken.insert(name.clone());
            name
        })
        .collect();
    for (f, name) in lib.funcs.iter().zip(&names) {
        // `new_` gets `new_results`: no `__`, which C++ reserves.
        let results = cpp_name(&format!("{}_results", name.trim_end_matches('_')), &taken);
        taken.insert(results.clone());
        write_function(&mut h, f, name, &results, &namespace);
    }
    let _ = writeln!(
        h,
        "}}  // namespace strata::{namespace}\n\n#endif /* {guard} */"
    );
    h
}

/// `base`, or `base_` (repeated) while it is a C++ keyword or taken.
fn cpp_name(base: &str, taken: &HashSet<String>) -> String {
    let mut name = base.to_string();
    while is_cpp_keyword(&name) || taken.contains(&name) {
        name.push('_');
    }
    name
}

const PREAMBLE_INCLUDES: &str = "#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>
";

/// Error, Scratch and the size checks, for prefix `@P@`.
const PREAMBLE: &str = "/* A call that returned non-zero: status() is what it returned. */
class Error : public std::runtime_error {
 public:
  Error(std::int32_t status, const char *message)
      : std::runtime_error(message), status_(status) {}
  std::int32_t status() const noexcept { return status_; }

 private:
  std::int32_t status_;
};

/* Memory for the calls that take scratch: 64-byte aligned, freed with the
 * object (move-only). Size it with the function's *_SCRATCH_BYTES. */
class Scratch {
 public:
  explicit Scratch(std::size_t bytes)
      : data_(bytes == 0 ? nullptr : ::operator new(bytes, std::align_val_t{64})),
        bytes_(bytes) {}
  ~Scratch() { release(); }
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  Scratch(Scratch &&other) noexcept : data_(other.data_), bytes_(other.bytes_) {
    other.data_ = nullptr;
    other.bytes_ = 0;
  }
  Scratch &operator=(Scratch &&other) noexcept {
    if (this != &other) {
      release();
      data_ = other.data_;
      bytes_ = other.bytes_;
      other.data_ = nullptr;
      other.bytes_ = 0;
    }
    return *this;
  }
  void *data() const noexcept { return data_; }
  std::size_t size() const noexcept { return bytes_; }

 private:
  void release() noexcept {
    if (data_ != nullptr) ::operator delete(data_, std::align_val_t{64});
  }
  void *data_;
  std::size_t bytes_;
};

namespace detail {
inline void check(std::int32_t status) {
  if (status != 0) throw Error(status, ::@P@_last_error());
}
inline void check_size(const char *function, const char *buffer, std::size_t got,
                       std::int64_t want) {
  if (want < 0 || got != static_cast<std::size_t>(want))
    throw std::invalid_argument(std::string(function) + \": \" + buffer + \" holds \" +
                                std::to_string(got) + \" values, the model takes \" +
                                std::to_string(want));
}
inline std::size_t size(const char *function, std::int64_t count) {
  if (count < 0) throw std::invalid_argument(std::string(function) + \": a negative size\");
  return static_cast<std::size_t>(count);
}
inline void check_scratch(const char *function, const Scratch &scratch, std::int64_t want) {
  if (scratch.size() < static_cast<std::size_t>(want))
    throw std::invalid_argument(std::string(function) + \": scratch holds \" +
                                std::to_string(scratch.size()) + \" bytes, the call needs \" +
                                std::to_string(want));
}
}  // namespace detail

/* The library's signature as JSON (see @P@_signature). */
inline const char *signature() { return ::@P@_signature(); }
/* Threads the kernels may use (see @P@_set_num_threads). */
inline void set_num_threads(std::int32_t n) { ::@P@_set_num_threads(n); }

";

/// A buffer as a C++ parameter: `std::span<const float> x`.
fn span_parameter(p: &CParam) -> String {
    let constness = if p.is_output { "" } else { "const " };
    format!("std::span<{constness}{}> {}", p.c_type, p.name)
}

/// The overloads of one function `f`, C++ name `name`: on the caller's
/// spans; returning its results in `results` (a struct of vectors); and on
/// caller's scratch. A function of a dimension variable takes it first.
fn write_function(h: &mut String, f: &CFunction, name: &str, results: &str, ns: &str) {
    let var = f.batch.as_ref().map(|b| b.var.as_str());
    let checks: String = f.params.iter().map(|p| size_check(f, name, p)).collect();
    let mut c_args: Vec<String> = var.iter().map(|v| v.to_string()).collect();
    c_args.extend(f.params.iter().map(|p| format!("{}.data()", p.name)));
    let mut params: Vec<String> = var.iter().map(|v| format!("std::int64_t {v}")).collect();
    params.extend(f.params.iter().map(span_parameter));
    let _ = writeln!(h, "/* {name}: {} on spans. */", f.c_name);
    let _ = writeln!(h, "inline void {name}({}) {{", params.join(", "));
    h.push_str(&checks);
    let _ = writeln!(
        h,
        "  detail::check(::{}({}));\n}}\n",
        f.c_name,
        c_args.join(", ")
    );
    write_allocating(h, f, name, results, ns);
    if let (Some(_), None) = (f.scratch_bytes, var) {
        let upper = macro_name(&f.c_name);
        let mut params = vec!["Scratch &scratch".to_string()];
        params.extend(f.params.iter().map(span_parameter));
        let _ = writeln!(
            h,
            "/* {name} on the caller's scratch ({upper}_SCRATCH_BYTES bytes): nothing is allocated. */"
        );
        let _ = writeln!(h, "inline void {name}({}) {{", params.join(", "));
        h.push_str(&checks);
        let _ = writeln!(
            h,
            "  detail::check_scratch(\"{name}\", scratch, {upper}_SCRATCH_BYTES);"
        );
        c_args.push("scratch.data()".into());
        let _ = writeln!(
            h,
            "  detail::check(::{}_with_scratch({}));\n}}\n",
            f.c_name,
            c_args.join(", ")
        );
    }
}

/// The overload that allocates `f`'s results and returns them as a struct
/// of vectors named like the results (none for a function without results).
/// It calls the C function itself: a parameter may be named like `name`.
fn write_allocating(h: &mut String, f: &CFunction, name: &str, results: &str, ns: &str) {
    let outs: Vec<&CParam> = f.params.iter().filter(|p| p.is_output).collect();
    if outs.is_empty() {
        return;
    }
    let var = f.batch.as_ref().map(|b| b.var.as_str());
    let _ = writeln!(h, "/* The results of {name}, in call order. */");
    let _ = writeln!(h, "struct {results} {{");
    for p in &outs {
        let _ = writeln!(h, "  std::vector<{}> {};", p.c_type, p.name);
    }
    let _ = writeln!(h, "}};");
    let mut params: Vec<String> = var.iter().map(|v| format!("std::int64_t {v}")).collect();
    params.extend(f.params.iter().filter(|p| !p.is_output).map(span_parameter));
    let _ = writeln!(h, "/* {name} into new vectors. */");
    let _ = writeln!(h, "inline {results} {name}({}) {{", params.join(", "));
    for p in f.params.iter().filter(|p| !p.is_output) {
        h.push_str(&size_check(f, name, p));
    }
    // `r_` cannot be a parameter's name (a name ends in `_` only when it
    // is a keyword with `_` added); the struct is named in full, as a
    // parameter may be named like it.
    let _ = writeln!(h, "  ::strata::{ns}::{results} r_;");
    for p in &outs {
        let _ = writeln!(
            h,
            "  r_.{}.resize(detail::size(\"{name}\", {}));",
            p.name,
            count_of(f, p)
        );
    }
    let mut args: Vec<String> = var.iter().map(|v| v.to_string()).collect();
    args.extend(f.params.iter().map(|p| {
        if p.is_output {
            format!("r_.{}.data()", p.name)
        } else {
            format!("{}.data()", p.name)
        }
    }));
    let _ = writeln!(
        h,
        "  detail::check(::{}({}));\n  return r_;\n}}\n",
        f.c_name,
        args.join(", ")
    );
}

/// The number of C values `p` holds, as C++ text (a macro of the dimension
/// variable for a function of one).
fn count_of(f: &CFunction, p: &CParam) -> String {
    match &f.batch {
        Some(b) => format!("{}({})", count_macro(f, p), b.var),
        None => count_macro(f, p),
    }
}

/// The statement that throws when span `p` does not hold its count.
fn size_check(f: &CFunction, name: &str, p: &CParam) -> String {
    format!(
        "  detail::check_size(\"{name}\", \"{}\", {}.size(), {});\n",
        p.name,
        p.name,
        count_of(f, p)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interface::{BatchDim, DeviceOps};
    use std::process::Command;

    fn param(name: &str, shape: &[i64], is_output: bool) -> CParam {
        CParam {
            name: name.into(),
            position: name.into(),
            path: None,
            c_type: "float".into(),
            shape: shape.to_vec(),
            is_output,
            elem_doc: "f32".into(),
        }
    }

    fn func(c_name: &str, params: Vec<CParam>, batch: Option<BatchDim>) -> CFunction {
        CFunction {
            c_name: c_name.into(),
            params,
            scratch_bytes: batch.is_none().then_some(128),
            dropped: vec![],
            aliases: vec![],
            batch,
        }
    }

    /// Names that C accepts and C++ would not (keywords, the namespace's
    /// own names, a function named like another's results struct or like
    /// its own parameter) compile, as does a function of a dimension
    /// variable.
    #[test]
    fn awkward_names_compile_as_cxx20() {
        let funcs = vec![
            func(
                "m_new",
                vec![param("x", &[2], false), param("res0", &[2], true)],
                None,
            ),
            func("m_Error", vec![param("arg0", &[1], false)], None),
            func(
                "m_f",
                vec![param("f", &[3], false), param("f_results", &[3], true)],
                None,
            ),
            func("m_f_results", vec![param("res0", &[1], true)], None),
            func(
                "m_g",
                vec![param("arg0", &[-1, 4], false), param("res0", &[-1], true)],
                Some(BatchDim {
                    var: "b".into(),
                    axes: vec![Some(0), Some(0)],
                    min: 1,
                    sizes: vec![1, 2],
                    tied: Vec::new(),
                }),
            ),
        ];
        let lib = Interface {
            prefix: "m",
            funcs: &funcs,
            custom_calls: &[],
            target: "x86_64-unknown-linux-gnu",
            devices: None,
            device_ops: DeviceOps::default(),
            profiled: false,
        };
        let h = cpp_header(&lib, "STRATA_M_H");
        for needle in [
            "namespace strata::m {",
            "inline void new_(std::span<const float> x, std::span<float> res0) {",
            "inline void Error_(std::span<const float> arg0) {",
            "struct f_results_ {",
            "struct new_results {",
            "inline void f_results(std::span<float> res0) {",
            "inline void g(std::int64_t b, std::span<const float> arg0, std::span<float> res0) {",
            "detail::check_size(\"g\", \"arg0\", arg0.size(), M_G_ARG0_COUNT(b));",
            "#ifndef STRATA_M_HPP",
        ] {
            assert!(h.contains(needle), "{needle} not in\n{h}");
        }
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("m.hpp"), &h).unwrap();
        let src = "#include \"m.hpp\"\n#include \"m.hpp\"\n\
                   void use(std::vector<float> &v) { auto r = strata::m::f(v); (void)r.f_results; \
                   strata::m::Scratch s(M_NEW_SCRATCH_BYTES); strata::m::new_(s, v, v); }\n";
        std::fs::write(tmp.path().join("t.cc"), src).unwrap();
        // build-essential (.ci/setup) installs the C++ compiler.
        let out = Command::new("c++")
            .args(["-std=c++20", "-fsyntax-only", "-Wall", "-Wextra", "-Werror"])
            .arg(tmp.path().join("t.cc"))
            .output()
            .unwrap_or_else(|e| panic!("c++ is required (build-essential): {e}"));
        assert!(
            out.status.success(),
            "c++ rejected the header:\n{}\n{h}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
