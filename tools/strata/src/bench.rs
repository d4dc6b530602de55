//! `strata bench MODEL|LIB`: compiles the model (or loads a library), warms
//! up, then times calls of one function and reports latency percentiles and
//! throughput for a thread count. Arguments come from `.npy` files
//! (`--input @x.npy`, checked against the library's signature) or are zeros.
//! With `--profile`, also where the time goes: the library's timer table
//! (`P_profile`, see `loop-profile`) over the timed calls.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

/// What to run and how often.
pub struct Bench<'a> {
    pub function: &'a str,
    pub inputs: &'a [String],
    /// `P_set_num_threads(n)` before timing (None: the library's default).
    pub threads: Option<i32>,
    pub iterations: usize,
    pub warmup: usize,
    /// `--dim NAME=VALUE` for a shape-polymorphic model.
    pub dims: &'a [(String, i64)],
    /// `--target-cpu` for a model (default: the portable CPU, as `compile`).
    pub target_cpu: Option<&'a str>,
    /// `--profile`: also report the time of each timed op (`P_profile`).
    pub profile: bool,
}

pub fn run(input: &Path, name: Option<&str>, bench: &Bench<'_>) -> bool {
    match bench_in(input, name, bench) {
        Ok(report) => {
            outln!("{report}");
            true
        }
        Err(e) => {
            errln!("{}: error: {e}", input.display());
            false
        }
    }
}

fn bench_in(input: &Path, name: Option<&str>, bench: &Bench<'_>) -> Result<String, String> {
    let is_elf = std::fs::read(input)
        .map(|b| b.starts_with(b"\x7fELF"))
        .map_err(|e| format!("cannot read: {e}"))?;
    let tmp = tempfile::tempdir().map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let (lib_path, prefix) = if is_elf {
        let prefix = name
            .map(str::to_string)
            .unwrap_or_else(|| crate::compile::default_prefix(input));
        (
            std::path::absolute(input).map_err(|e| e.to_string())?,
            prefix,
        )
    } else {
        let dims = dimensions(input, bench)?;
        (
            compile_model(input, tmp.path(), bench, &dims)?,
            "bench".to_string(),
        )
    };
    // SAFETY: loading the library the user asked to benchmark.
    let lib = unsafe { libloading::Library::new(&lib_path) }
        .map_err(|e| format!("cannot load {}: {e}", lib_path.display()))?;
    let signature = signature(&lib, &prefix)?;
    let function = signature["functions"]
        .as_array()
        .and_then(|fs| fs.iter().find(|f| f["name"] == bench.function))
        .ok_or_else(|| format!("no function {} in the library", bench.function))?
        .clone();
    if let Some(vars) = function["dimension_variables"]
        .as_array()
        .filter(|v| !v.is_empty())
    {
        let names: Vec<&str> = vars.iter().filter_map(|v| v["name"].as_str()).collect();
        return Err(format!(
            "{} takes any {}: benchmark one size (--dim NAME=N, or .npy inputs of a model)",
            bench.function,
            names.join(", ")
        ));
    }
    let mut buffers = buffers(&function, bench.inputs)?;
    let mut pointers: Vec<*mut u8> = buffers.iter_mut().map(|b| b.as_mut_ptr()).collect();
    if let Some(n) = bench.threads {
        let set = format!("{prefix}_set_num_threads");
        // SAFETY: every Strata library defines `int32_t P_set_num_threads(int32_t)`.
        let f = unsafe { lib.get::<unsafe extern "C" fn(i32) -> i32>(set.as_bytes()) }
            .map_err(|e| format!("missing {set}: {e}"))?;
        unsafe { f(n) };
    }
    let symbol = function["symbol"].as_str().unwrap_or_default().to_string();
    let mut call = || -> Result<Duration, String> {
        let start = Instant::now();
        let status = crate::load::call(&lib, &symbol, &mut pointers)?;
        let took = start.elapsed();
        if status != 0 {
            return Err(format!(
                "{symbol} failed (status {status}): {}",
                crate::load::last_error(&lib, &prefix)
            ));
        }
        Ok(took)
    };
    for _ in 0..bench.warmup {
        call()?;
    }
    let before = bench.profile.then(|| profile(&lib, &prefix)).transpose()?;
    let mut times = (0..bench.iterations.max(1))
        .map(|_| call())
        .collect::<Result<Vec<_>, _>>()?;
    times.sort();
    let mut text = report(bench, &times);
    if let Some(before) = before {
        let after = profile(&lib, &prefix)?;
        text.push('\n');
        text.push_str(&profile_report(&before, &after, &times));
    }
    Ok(text)
}

/// A profiled library's timer table: each timed op's label, calls and
/// nanoseconds so far (`P_profile()`).
struct Profile {
    rows: Vec<(String, u64, u64)>,
}

fn profile(lib: &libloading::Library, prefix: &str) -> Result<Profile, String> {
    let symbol = format!("{prefix}_profile");
    // SAFETY: a library compiled with --profile defines `const char *P_profile(void)`.
    let f =
        unsafe { lib.get::<unsafe extern "C" fn() -> *const std::ffi::c_char>(symbol.as_bytes()) }
            .map_err(|_| format!("no {symbol}(): the library was not compiled with --profile"))?;
    let p = unsafe { f() };
    if p.is_null() {
        return Err(format!("{symbol}() returned NULL"));
    }
    let text = unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy();
    let json: Value =
        serde_json::from_str(&text).map_err(|e| format!("{symbol}() is not valid JSON: {e}"))?;
    let labels = json["labels"].as_array().cloned().unwrap_or_default();
    let rows = json["rows"].as_array().cloned().unwrap_or_default();
    Ok(Profile {
        rows: labels
            .iter()
            .zip(&rows)
            .map(|(label, row)| {
                (
                    label.as_str().unwrap_or("?").to_string(),
                    row[0].as_u64().unwrap_or(0),
                    row[1].as_u64().unwrap_or(0),
                )
            })
            .collect(),
    })
}

/// Rows shown by `--profile`; the rest are summed in one line.
const PROFILE_ROWS: usize = 25;

/// The timed calls' profile: per call of the function, each op's time, its
/// share of the call and how often it ran, the costliest first.
fn profile_report(before: &Profile, after: &Profile, times: &[Duration]) -> String {
    let calls = times.len().max(1) as f64;
    let wall: f64 = times.iter().map(Duration::as_secs_f64).sum::<f64>() / calls;
    let mut rows: Vec<(&str, f64, f64)> = after
        .rows
        .iter()
        .enumerate()
        .map(|(i, (label, n, ns))| {
            let (n0, ns0) = before.rows.get(i).map_or((0, 0), |r| (r.1, r.2));
            let seconds = ns.saturating_sub(ns0) as f64 * 1e-9 / calls;
            (label.as_str(), seconds, n.saturating_sub(n0) as f64 / calls)
        })
        .filter(|r| r.2 > 0.0)
        .collect();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1));
    let timed: f64 = rows.iter().map(|r| r.1).sum();
    let share = |s: f64| 100.0 * s / wall.max(1e-12);
    let mut out = format!(
        "profile per call (mean of {} calls; the timed ops take {:.1}% of the call):\n\
         {:>7} {:>10} {:>7}  op",
        times.len(),
        share(timed),
        "share",
        "time",
        "runs"
    );
    for &(label, seconds, runs) in rows.iter().take(PROFILE_ROWS) {
        out.push_str(&format!(
            "\n{:>6.1}% {:>10} {:>7}  {label}",
            share(seconds),
            duration(seconds),
            format_runs(runs)
        ));
    }
    if rows.len() > PROFILE_ROWS {
        let rest: f64 = rows[PROFILE_ROWS..].iter().map(|r| r.1).sum();
        out.push_str(&format!(
            "\n{:>6.1}% {:>10} {:>7}  ({} more ops)",
            share(rest),
            duration(rest),
            "",
            rows.len() - PROFILE_ROWS
        ));
    }
    out.push_str("\nby kind:");
    for (kind, seconds, ops) in by_kind(&rows) {
        out.push_str(&format!(
            "\n{:>6.1}% {:>10} {ops:>7}  {kind}",
            share(seconds),
            duration(seconds)
        ));
    }
    out
}

/// The rows summed by what they are (the label before " at "), the
/// costliest first: (kind, seconds, how many ops).
fn by_kind<'a>(rows: &[(&'a str, f64, f64)]) -> Vec<(&'a str, f64, usize)> {
    let mut kinds: Vec<(&str, f64, usize)> = Vec::new();
    for &(label, seconds, _) in rows {
        let kind = label.split(" at ").next().unwrap_or(label);
        match kinds.iter_mut().find(|k| k.0 == kind) {
            Some(k) => {
                k.1 += seconds;
                k.2 += 1;
            }
            None => kinds.push((kind, seconds, 1)),
        }
    }
    kinds.sort_by(|a, b| b.1.total_cmp(&a.1));
    kinds
}

fn format_runs(runs: f64) -> String {
    if runs.fract() == 0.0 {
        format!("{runs:.0}")
    } else {
        format!("{runs:.2}")
    }
}

fn duration(seconds: f64) -> String {
    if seconds < 1e-3 {
        format!("{:.1} us", seconds * 1e6)
    } else {
        format!("{:.3} ms", seconds * 1e3)
    }
}

/// The model compiled to a shared library in `dir`, prefix `bench`.
/// The dimension values to compile a model for: `--dim`'s, and for a
/// shape-polymorphic model benchmarked on `.npy` inputs the others from
/// their shapes, as `strata run` takes them (code for those sizes).
fn dimensions(input: &Path, bench: &Bench<'_>) -> Result<Vec<(String, i64)>, String> {
    let mut dims = bench.dims.to_vec();
    if bench.inputs.is_empty() {
        return Ok(dims);
    }
    let Ok(source) = crate::input::read_source(input) else {
        return Ok(dims); // the compilation reports it
    };
    let name = input.display().to_string();
    for (var, value) in
        crate::run::dimensions_from_inputs(&name, &source.text, bench.function, bench.inputs)?
    {
        if !dims.iter().any(|(v, _)| *v == var) {
            dims.push((var, value));
        }
    }
    Ok(dims)
}

fn compile_model(
    input: &Path,
    dir: &Path,
    bench: &Bench<'_>,
    dims: &[(String, i64)],
) -> Result<PathBuf, String> {
    let out = dir.join("libbench.so");
    let mut spec = strata_codegen::TargetSpec::portable();
    spec.cpu = bench.target_cpu.map(str::to_string);
    let compiled = crate::compile::run(
        input,
        &out,
        crate::compile::Extras::default(),
        Some("bench"),
        crate::compile::Generation {
            opt_level: 3,
            target: &spec,
            collectives: crate::compile::Collectives::Threads,
            backend: crate::backend::Backend::Native,
            platforms: &[],
            dims,
            dropped: &[],
            profile: bench.profile,
        },
        crate::compile::Reports::default(),
    );
    if compiled {
        Ok(out)
    } else {
        Err("the model does not compile (see above)".to_string())
    }
}

fn signature(lib: &libloading::Library, prefix: &str) -> Result<Value, String> {
    let symbol = format!("{prefix}_signature");
    // SAFETY: a Strata library defines `const char *P_signature(void)`.
    let f =
        unsafe { lib.get::<unsafe extern "C" fn() -> *const std::ffi::c_char>(symbol.as_bytes()) }
            .map_err(|_| {
                format!("no {symbol}() (its prefix is not '{prefix}': say it with --name)")
            })?;
    let p = unsafe { f() };
    if p.is_null() {
        return Err(format!("{symbol}() returned NULL"));
    }
    let text = unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy();
    serde_json::from_str(&text).map_err(|e| format!("the signature is not valid JSON: {e}"))
}

/// Bytes per element of a signature's element type.
fn element_bytes(element_type: &str) -> Option<usize> {
    Some(match element_type {
        "i1" | "i8" | "ui8" => 1,
        "f16" | "bf16" | "i16" | "ui16" => 2,
        "f32" | "i32" | "ui32" => 4,
        "f64" | "i64" | "ui64" | "complex<f32>" => 8,
        "complex<f64>" => 16,
        t if t.starts_with('f') && t.len() > 3 => 1, // the f8 formats
        _ => return None,
    })
}

/// One zeroed buffer per argument and result; arguments given as `@x.npy`
/// are read (their data must be the argument's size).
fn buffers(function: &Value, inputs: &[String]) -> Result<Vec<Vec<u8>>, String> {
    let args = function["arguments"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let results = function["results"].as_array().cloned().unwrap_or_default();
    if !inputs.is_empty() && inputs.len() != args.len() {
        return Err(format!(
            "{} takes {} arguments, {} --input given",
            function["name"],
            args.len(),
            inputs.len()
        ));
    }
    let mut out = Vec::new();
    for (i, p) in args.iter().chain(&results).enumerate() {
        let element_type = p["element_type"].as_str().unwrap_or("?");
        let elements: u64 = p["shape"]
            .as_array()
            .map(|s| s.iter().filter_map(Value::as_u64).product())
            .unwrap_or(1);
        let bytes = element_bytes(element_type).ok_or_else(|| {
            format!("buffer {i} has element type {element_type}, not benchmarkable")
        })? as u64
            * elements;
        let len = usize::try_from(bytes).map_err(|_| "a buffer too large")?;
        let buffer = match inputs.get(i) {
            Some(input) => {
                let file = input
                    .strip_prefix('@')
                    .ok_or_else(|| format!("argument {i}: give it as a file (--input @x.npy)"))?;
                let data = crate::npy::raw_data(Path::new(file))?;
                if data.len() != len {
                    return Err(format!(
                        "argument {i}: {file} holds {} bytes, the argument {len} ({element_type})",
                        data.len()
                    ));
                }
                data
            }
            // Zeros written, not allocated zeroed: a calloc'd buffer's pages
            // all map the kernel's one zero page until written, so reading a
            // large argument would hit the cache every time (a 16384x128 @
            // 128x128 product timed 30% faster on zeroed arguments than on
            // real ones).
            None => {
                let mut zeros = Vec::with_capacity(len);
                zeros.resize(len, 0u8);
                zeros
            }
        };
        out.push(buffer);
    }
    Ok(out)
}

fn report(bench: &Bench<'_>, sorted: &[Duration]) -> String {
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    let ms = |d: Duration| duration(d.as_secs_f64());
    let total: Duration = sorted.iter().sum();
    let threads = bench
        .threads
        .map(|n| format!("{n} threads"))
        .unwrap_or_else(|| "default threads".to_string());
    format!(
        "@{}: {} calls after {} warm-up, {threads}: min {}, p50 {}, p90 {}, p99 {}, max {}; \
         {:.1} calls/s",
        bench.function,
        sorted.len(),
        bench.warmup,
        ms(sorted[0]),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(sorted[sorted.len() - 1]),
        sorted.len() as f64 / total.as_secs_f64().max(1e-12)
    )
}
