//! `strata bench MODEL|LIB`: compiles the model (or loads a library), warms
//! up, then times calls of one function and reports latency percentiles and
//! throughput for a thread count. Arguments come from `.npy` files
//! (`--input @x.npy`, checked against the library's signature) or are zeros.

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
        (
            compile_model(input, tmp.path(), bench)?,
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
    let mut times = (0..bench.iterations.max(1))
        .map(|_| call())
        .collect::<Result<Vec<_>, _>>()?;
    times.sort();
    Ok(report(bench, &times))
}

/// The model compiled to a shared library in `dir`, prefix `bench`.
fn compile_model(input: &Path, dir: &Path, bench: &Bench<'_>) -> Result<PathBuf, String> {
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
            dims: bench.dims,
            dropped: &[],
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
        let mut buffer = vec![0u8; usize::try_from(bytes).map_err(|_| "a buffer too large")?];
        if let Some(file) = inputs.get(i).and_then(|s| s.strip_prefix('@')) {
            let data = crate::npy::raw_data(Path::new(file))?;
            if data.len() != buffer.len() {
                return Err(format!(
                    "argument {i}: {file} holds {} bytes, the argument {} ({element_type})",
                    data.len(),
                    buffer.len()
                ));
            }
            buffer = data;
        } else if inputs.get(i).is_some() {
            return Err(format!("argument {i}: give it as a file (--input @x.npy)"));
        }
        out.push(buffer);
    }
    Ok(out)
}

fn report(bench: &Bench<'_>, sorted: &[Duration]) -> String {
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    let ms = |d: Duration| {
        let s = d.as_secs_f64();
        if s < 1e-3 {
            format!("{:.1} us", s * 1e6)
        } else {
            format!("{:.3} ms", s * 1e3)
        }
    };
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
