//! The target (triple, CPU, features) and its machine, LLVM's `default<ON>`
//! pipeline, and emission of LLVM IR text, assembly or an object file.

use std::sync::OnceLock;

use inkwell::OptimizationLevel;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine,
};
use strata_diag::{Diagnostic, Location, Result};

use crate::EmitKind;

fn failure(what: &str, e: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::internal(Location::unknown(), format!("{what}: {e}"))
}

/// Initialises LLVM's x86 and AArch64 targets once per process.
fn init_targets() {
    static INIT: OnceLock<()> = OnceLock::new();
    INIT.get_or_init(|| {
        let config = InitializationConfig::default();
        Target::initialize_x86(&config);
        Target::initialize_aarch64(&config);
        Target::initialize_riscv(&config);
    });
}

fn level(opt_level: u8) -> OptimizationLevel {
    match opt_level {
        0 => OptimizationLevel::None,
        1 => OptimizationLevel::Less,
        2 => OptimizationLevel::Default,
        _ => OptimizationLevel::Aggressive,
    }
}

/// What machine code is generated for: `--target`, `--target-cpu` and
/// `--target-features` of `strata compile`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetSpec {
    /// LLVM target triple; `None` is the host's.
    pub triple: Option<String>,
    /// LLVM CPU name, or `host` for the CPU running the compiler; `None` is
    /// the triple's default ([`DEFAULT_X86_CPU`] on x86-64, else `generic`).
    pub cpu: Option<String>,
    /// Extra LLVM features, `+a,-b`.
    pub features: String,
}

/// The CPU artifacts target unless told otherwise: x86-64-v3 (AVX2, FMA,
/// BMI2: Intel Haswell and AMD Zen onwards, and valgrind) on x86-64, so a
/// library built on an AVX-512 machine runs on any recent x86 machine; the
/// generic CPU of other architectures.
pub const DEFAULT_X86_CPU: &str = "x86-64-v3";

impl TargetSpec {
    /// The machine running the compiler, for code loaded in-process
    /// (`strata check`, `strata run`).
    pub fn host() -> Self {
        TargetSpec {
            triple: None,
            cpu: Some("host".into()),
            features: String::new(),
        }
    }

    /// The default for artifacts: the host triple and its default CPU.
    pub fn portable() -> Self {
        TargetSpec {
            triple: None,
            cpu: None,
            features: String::new(),
        }
    }
}

/// A [`TargetSpec`] with everything spelled out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedTarget {
    pub triple: String,
    pub cpu: String,
    /// Feature string handed to LLVM.
    pub features: String,
    /// Features (LLVM names, comma-separated) the running CPU must have,
    /// on x86-64 and aarch64; empty for riscv64. Exported functions check
    /// them.
    pub required: String,
}

impl ResolvedTarget {
    /// The CPU every machine of the target's architecture is: the code that
    /// checks the features runs on it.
    pub fn baseline_cpu(&self) -> &'static str {
        if is_x86_64(&self.triple) {
            "x86-64"
        } else if self.triple.starts_with("riscv64") {
            "generic-rv64"
        } else {
            "generic"
        }
    }

    /// One line for the header's comment.
    pub fn describe(&self) -> String {
        let mut s = format!("{}, CPU {}", self.triple, self.cpu);
        if !self.features.is_empty() {
            s.push_str(&format!(", features {}", self.features));
        }
        s
    }
}

fn is_x86_64(triple: &str) -> bool {
    triple.starts_with("x86_64")
}

/// Features of the x86-64 micro-architecture levels (the psABI's
/// definitions, in LLVM's feature names), each level adding to the last.
const X86_LEVELS: [(&str, &[&str]); 4] = [
    (
        "x86-64",
        &["cmov", "cx8", "fxsr", "mmx", "sse", "sse2", "x87"],
    ),
    (
        "x86-64-v2",
        &[
            "cx16", "popcnt", "sahf", "sse3", "sse4.1", "sse4.2", "ssse3",
        ],
    ),
    (
        "x86-64-v3",
        &[
            "avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave",
        ],
    ),
    (
        "x86-64-v4",
        &["avx512bw", "avx512cd", "avx512dq", "avx512f", "avx512vl"],
    ),
];

/// The `+` features of an x86 CPU: the level table, the host's own list, or
/// for any other CPU name what clang reports for `-march=NAME` (LLVM's C API
/// cannot list a CPU's features; clang-22 comes with the toolchain).
fn x86_cpu_features(cpu: &str) -> std::result::Result<Vec<String>, String> {
    if let Some(n) = X86_LEVELS.iter().position(|(name, _)| *name == cpu) {
        return Ok(X86_LEVELS[..=n]
            .iter()
            .flat_map(|(_, fs)| fs.iter().map(|f| f.to_string()))
            .collect());
    }
    if cpu == "host" {
        let all = TargetMachine::get_host_cpu_features().to_string();
        return Ok(plus_features(&all));
    }
    clang_cpu_features(cpu, "x86_64-linux-gnu", "-march")
}

/// The features of an aarch64 CPU (clang's list for `-mcpu`), except the
/// ones every aarch64 Linux machine has; `host` is this machine's.
fn aarch64_cpu_features(cpu: &str, triple: &str) -> std::result::Result<Vec<String>, String> {
    if cpu == "generic" {
        return Ok(vec![]);
    }
    let all = if cpu == "host" {
        plus_features(&TargetMachine::get_host_cpu_features().to_string())
    } else {
        clang_cpu_features(cpu, "aarch64-linux-gnu", "-mcpu").map_err(|_| {
            format!("unknown CPU '{cpu}' for {triple} (see `llc-22 -mtriple=aarch64 -mcpu=help`)")
        })?
    };
    Ok(all
        .into_iter()
        .filter(|f| !["neon", "fp-armv8", "v8a", "outline-atomics"].contains(&f.as_str()))
        .collect())
}

fn plus_features(list: &str) -> Vec<String> {
    list.split(',')
        .filter_map(|f| f.strip_prefix('+'))
        .map(str::to_string)
        .collect()
}

/// The features clang gives a function compiled for `cpu` of `target`
/// (`flag` is `-march` or `-mcpu`).
fn clang_cpu_features(
    cpu: &str,
    target: &str,
    flag: &str,
) -> std::result::Result<Vec<String>, String> {
    static CACHE: OnceLock<std::sync::Mutex<std::collections::HashMap<String, Vec<String>>>> =
        OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = format!("{target} {cpu}");
    if let Some(f) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Ok(f);
    }
    let clang = ["/usr/lib/llvm-22/bin/clang", "clang-22"]
        .into_iter()
        .find(|c| std::path::Path::new(c).exists() || *c == "clang-22")
        .unwrap_or("clang-22");
    let mut child = std::process::Command::new(clang)
        .args([format!("--target={target}"), format!("{flag}={cpu}")])
        .args(["-S", "-emit-llvm", "-O0", "-o", "-", "-x", "c", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {clang} to list the features of CPU '{cpu}': {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        let _ = stdin.write_all(b"void strata_probe(void) {}\n");
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("cannot run {clang}: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let features = text
        .split("\"target-features\"=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .filter(|_| out.status.success())
        .ok_or_else(|| format!("unknown CPU '{cpu}' for {target} (see `llc-22 -mcpu=help`)"))?;
    let list = plus_features(features);
    if let Ok(mut c) = cache.lock() {
        c.insert(key, list.clone());
    }
    Ok(list)
}

/// Spells out `spec`: the triple, the CPU name and feature string LLVM gets,
/// and the features the running CPU must have.
pub fn resolve(spec: &TargetSpec) -> std::result::Result<ResolvedTarget, String> {
    init_targets();
    let host_triple = TargetMachine::get_default_triple()
        .as_str()
        .to_string_lossy()
        .into_owned();
    let triple = spec.triple.clone().unwrap_or(host_triple.clone());
    let ll_triple = inkwell::targets::TargetTriple::create(&triple);
    Target::from_triple(&ll_triple)
        .map_err(|e| format!("unknown target triple '{triple}': {e}"))?;
    let riscv64 = triple.starts_with("riscv64");
    let default_cpu = if is_x86_64(&triple) {
        DEFAULT_X86_CPU
    } else if riscv64 {
        "generic-rv64"
    } else {
        "generic"
    };
    let spec_cpu = spec.cpu.as_deref().unwrap_or(default_cpu);
    if spec_cpu == "host" && triple != host_triple {
        return Err(format!(
            "--target-cpu host names this machine's CPU, but the target is {triple}"
        ));
    }
    for f in spec.features.split(',').filter(|f| !f.is_empty()) {
        if !(f.starts_with('+') || f.starts_with('-')) || f.len() < 2 {
            return Err(format!(
                "target feature '{f}' must be written +name or -name"
            ));
        }
    }
    let (cpu, mut features) = if spec_cpu == "host" {
        let host = TargetMachine::get_host_cpu_features().to_string();
        (TargetMachine::get_host_cpu_name().to_string(), host)
    } else {
        (spec_cpu.to_string(), String::new())
    };
    if riscv64 && spec_cpu != "host" {
        // RV64GC, the ISA Debian's riscv64 port and its lp64d ABI assume
        // (the generic CPU has only the base integer ISA).
        features = RISCV64_GC.to_string();
    }
    if !spec.features.is_empty() {
        if !features.is_empty() {
            features.push(',');
        }
        features.push_str(&spec.features);
    }
    let aarch64 = triple.starts_with("aarch64");
    let required = if is_x86_64(&triple) || aarch64 {
        let mut have = if aarch64 {
            aarch64_cpu_features(spec_cpu, &triple)?
        } else {
            x86_cpu_features(spec_cpu)?
        };
        for f in spec.features.split(',') {
            if let Some(on) = f.strip_prefix('+') {
                have.push(on.to_string());
            } else if let Some(off) = f.strip_prefix('-') {
                have.retain(|h| h != off);
            }
        }
        have.sort();
        have.dedup();
        have.join(",")
    } else {
        String::new()
    };
    Ok(ResolvedTarget {
        triple,
        cpu,
        features,
        required,
    })
}

/// A PIC target machine for `target`.
pub(crate) fn machine(target: &ResolvedTarget, opt_level: u8) -> Result<TargetMachine> {
    init_targets();
    let triple = inkwell::targets::TargetTriple::create(&target.triple);
    let llvm_target =
        Target::from_triple(&triple).map_err(|e| failure("no LLVM target for the triple", e))?;
    llvm_target
        .create_target_machine(
            &triple,
            &target.cpu,
            &target.features,
            level(opt_level),
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| failure("cannot create a target machine", &target.triple))
}

/// Verifies `module`, runs the optimisation pipeline and emits `kind`.
/// The extensions of RV64GC (G = IMAFD, Zicsr, Zifencei; C compressed).
const RISCV64_GC: &str = "+m,+a,+f,+d,+c,+zicsr,+zifencei";

pub(crate) fn optimize_and_emit(
    tm: &TargetMachine,
    module: &Module,
    opt_level: u8,
    kind: EmitKind,
) -> Result<Vec<u8>> {
    module.set_triple(&tm.get_triple());
    let triple = tm.get_triple().as_str().to_string_lossy().into_owned();
    if triple.starts_with("riscv64") {
        // Doubles in float registers, as Debian's riscv64 C library is
        // built (the backend reads the ABI from this flag).
        let abi = module.get_context().metadata_string("lp64d");
        module.add_metadata_flag("target-abi", inkwell::module::FlagBehavior::Error, abi);
    }
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    module
        .verify()
        .map_err(|e| failure("the generated LLVM IR is invalid", e))?;
    let pipeline = format!("default<O{}>", opt_level.min(3));
    let start = std::time::Instant::now();
    module
        .run_passes(&pipeline, tm, PassBuilderOptions::create())
        .map_err(|e| failure("the LLVM optimisation pipeline failed", e))?;
    crate::record_phase("codegen: LLVM optimisation", start);
    let start = std::time::Instant::now();
    let out = match kind {
        EmitKind::LlvmIr => Ok(module.print_to_string().to_bytes().to_vec()),
        EmitKind::Assembly => emit(tm, module, FileType::Assembly),
        EmitKind::Object => emit(tm, module, FileType::Object),
    };
    crate::record_phase("codegen: machine code", start);
    out
}

fn emit(tm: &TargetMachine, module: &Module, ft: FileType) -> Result<Vec<u8>> {
    let buf = tm
        .write_to_memory_buffer(module, ft)
        .map_err(|e| failure("LLVM code generation failed", e))?;
    Ok(buf.as_slice().to_vec())
}
