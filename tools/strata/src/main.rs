//! `strata`: the driver. `compile` writes native artifacts, `opt` prints IR
//! after passes, `check` runs conformance files natively, `run` calls a
//! function on literal inputs.

/// Printing that never panics: `println!` panics when stdout is a closed
/// pipe (`strata opt m.mlir | head -1`). These write and ignore write errors,
/// so the exit status stays the one the command earned.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($arg)*);
    }};
}
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}
macro_rules! err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr().lock(), $($arg)*);
    }};
}

mod abi;
mod backend;
mod bench;
mod check;
mod compile;
mod dot;
mod every_size;
mod info;
mod input;
mod load;
mod npy;
mod opt;
mod run;
mod signature;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "strata",
    version,
    about = "Ahead-of-time compiler for XLA/StableHLO array programs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile a module to a native artifact; OUT's extension picks the kind
    /// (.so, .a, .o, .ll, .s, .mlir; .dot draws the module for Graphviz).
    Compile {
        /// Input file (StableHLO or xla dialect text).
        input: PathBuf,
        /// Output file.
        #[arg(short = 'o')]
        output: PathBuf,
        /// Also write a C header for the library.
        #[arg(long)]
        header: Option<PathBuf>,
        /// Also write a C++ header: the C interface and, in namespace strata::P, overloads
        /// on std::span that check sizes and throw on errors (C++20).
        #[arg(long)]
        header_cpp: Option<PathBuf>,
        /// Also write safe Rust bindings for the library (what `strata-build` uses).
        #[arg(long)]
        rust_bindings: Option<PathBuf>,
        /// Also write a pkg-config file for the .a or .so.
        #[arg(long)]
        pkg_config: Option<PathBuf>,
        /// Symbol prefix (default: OUT's stem without a leading `lib`).
        #[arg(long)]
        name: Option<String>,
        /// LLVM optimisation level.
        #[arg(short = 'O', default_value_t = 3, value_parser = clap::value_parser!(u8).range(0..=3))]
        opt_level: u8,
        /// CPU to generate code for: an LLVM CPU name (x86-64, x86-64-v2, x86-64-v3,
        /// x86-64-v4, skylake-avx512, znver4, ...) or `host` [default: x86-64-v3 on x86-64]
        #[arg(long)]
        target_cpu: Option<String>,
        /// Extra CPU features, LLVM spelling: `+avx512f,-fma`.
        #[arg(long, default_value = "")]
        target_features: String,
        /// Target triple [default: the host's]: aarch64-linux-gnu and riscv64-linux-gnu also
        /// for .so and .a (the runtime is built in), any LLVM triple for .o, .ll and .s.
        #[arg(long)]
        target: Option<String>,
        /// How devices meet at collectives: `threads` (P_replicas_run starts one
        /// thread per device) or `mpi` (each MPI process is one device).
        #[arg(long, value_enum, default_value = "threads")]
        collectives: compile::Collectives,
        /// Print the wall time of every pass, of LLVM's optimisation and code
        /// generation, and of linking, on standard error.
        #[arg(long)]
        time_passes: bool,
        /// Print the IR after every pass of the lowering, on standard error.
        #[arg(long)]
        print_ir_after_all: bool,
        /// Print the IR after the named pass (repeatable), on standard error.
        #[arg(long, value_name = "PASS")]
        print_ir_after: Vec<String>,
        /// Code generator: `native` (Strata's own LLVM lowering) or `mlir`
        /// (the loop level exported to upstream MLIR and lowered by its passes).
        #[arg(long, value_enum, default_value = "native")]
        backend: backend::Backend,
        /// The platforms a multi-platform JAX export was made for, in its order
        /// (`jax.export.export(f, platforms=("cpu", "cuda"))` → `cpu,cuda`): the
        /// library runs the cpu code. A serialized export says so itself; for
        /// text, without this flag, the first platform is taken to be cpu.
        #[arg(long, value_delimiter = ',', value_name = "LIST")]
        platforms: Vec<String>,
        /// The value of a dimension variable of a shape-polymorphic JAX export
        /// (`jax.export.symbolic_shape("b, 784")` → `--dim b=64`), repeatable: the
        /// library is compiled for that size, as XLA compiles such exports.
        #[arg(long = "dim", value_name = "NAME=VALUE", value_parser = parse_dim)]
        dims: Vec<(String, i64)>,
        /// Time each top-level op of the exported functions (loop nests,
        /// kernel calls, copies, allocations): `const char *P_profile(void)`
        /// returns the table as JSON (`strata bench --profile` prints it).
        #[arg(long)]
        profile: bool,
    },
    /// Print the IR after running the given passes (e.g. --convert-xla-to-loop).
    Opt {
        /// Input file (not needed with --list-passes).
        #[arg(required_unless_present = "list_passes")]
        input: Option<PathBuf>,
        /// Print every pass flag with its summary, and exit.
        #[arg(long)]
        list_passes: bool,
        /// Parse each `// -----` piece separately.
        #[arg(long)]
        split_input_file: bool,
        /// Pass flags, in order; `--list-passes` prints them.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        passes: Vec<String>,
    },
    /// Compile and run every non-private zero-argument function of each
    /// `// -----` piece, evaluating `check.*` assertions.
    Check {
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Code generator: `native` or `mlir` (see `strata compile --backend`).
        #[arg(long, value_enum, default_value = "native")]
        backend: backend::Backend,
        /// Implementations of the models' custom-call targets: a shared library
        /// defining `int32_t TARGET(void *user, const void *const *operands,
        /// void *const *results)` for each target it implements. Without it,
        /// a custom call fails naming its target; no host function is ever
        /// found by a name the model chose.
        #[arg(long, value_name = "LIB")]
        custom_calls: Option<PathBuf>,
        /// Compile the pieces for this target (aarch64-linux-gnu, riscv64-linux-gnu)
        /// and run them with --run-with.
        #[arg(long)]
        target: Option<String>,
        /// CPU of --target (see `strata compile --target-cpu`).
        #[arg(long)]
        target_cpu: Option<String>,
        /// Extra CPU features of --target, LLVM spelling.
        #[arg(long, default_value = "")]
        target_features: String,
        /// Run the pieces in a program started under this command, e.g.
        /// "qemu-aarch64 -L /usr/aarch64-linux-gnu" (split on spaces).
        #[arg(long, value_name = "COMMAND")]
        run_with: Option<String>,
    },
    /// Print the signature of a model or of a compiled library (`.so`): every
    /// function with its buffers' names, the model's paths, types and shapes.
    Info {
        /// A model (any input `compile` reads) or a shared library.
        input: PathBuf,
        /// The library's symbol prefix (default: its file stem without `lib`).
        #[arg(long)]
        name: Option<String>,
        /// Print the JSON `P_signature()` returns instead of a table.
        #[arg(long)]
        json: bool,
        /// A dimension variable's value for a shape-polymorphic model (repeatable).
        #[arg(long = "dim", value_name = "NAME=VALUE", value_parser = parse_dim)]
        dims: Vec<(String, i64)>,
    },
    /// Time calls of one function of a model (compiled first) or of a library: latency
    /// percentiles and throughput.
    Bench {
        /// A model (any input `compile` reads) or a shared library.
        input: PathBuf,
        /// Function to time.
        #[arg(long, default_value = "main")]
        function: String,
        /// One per argument: `@x.npy` (C order, the argument's size); zeros when none is given.
        #[arg(long = "input")]
        inputs: Vec<String>,
        /// Threads the library's kernels may use (default: the library's).
        #[arg(long)]
        threads: Option<i32>,
        /// Timed calls.
        #[arg(long, default_value_t = 100)]
        iterations: usize,
        /// Untimed calls first.
        #[arg(long, default_value_t = 10)]
        warmup: usize,
        /// A library's symbol prefix (default: its file stem without `lib`).
        #[arg(long)]
        name: Option<String>,
        /// A dimension variable's value for a shape-polymorphic model (repeatable).
        #[arg(long = "dim", value_name = "NAME=VALUE", value_parser = parse_dim)]
        dims: Vec<(String, i64)>,
        /// CPU to compile a model for (default: as `compile`).
        #[arg(long)]
        target_cpu: Option<String>,
        /// Also print where the time goes: each top-level op (loop nest,
        /// kernel call, copy, allocation) with its share of the call (the
        /// model is compiled with `--profile`; a library must have been).
        #[arg(long)]
        profile: bool,
    },
    /// Compile a module and run one function on literal inputs.
    Run {
        input: PathBuf,
        /// Function to run.
        #[arg(long, default_value = "main")]
        function: String,
        /// One per argument: a literal (`[[1.0, 2.0]]`, `3`), `@x.npy` (a NumPy
        /// file of the argument's type and shape) or `@x.bin` (raw bytes in the
        /// argument's declared type).
        #[arg(long = "input")]
        inputs: Vec<String>,
        /// Also write each result as DIR/res<i>.npy (DIR is created if needed).
        #[arg(long, value_name = "DIR")]
        output_dir: Option<PathBuf>,
        /// Do not print the results (with --output-dir, the files hold them).
        #[arg(long)]
        quiet: bool,
        /// Code generator: `native` or `mlir` (see `strata compile --backend`).
        #[arg(long, value_enum, default_value = "native")]
        backend: backend::Backend,
        /// Implementations of the model's custom-call targets (see `strata
        /// check --custom-calls`).
        #[arg(long, value_name = "LIB")]
        custom_calls: Option<PathBuf>,
    },
}

/// Runs `body` with the `--custom-calls` library loaded, if one is given.
fn with_host_calls(
    path: Option<&std::path::Path>,
    body: impl FnOnce(Option<&load::HostCalls>) -> bool,
) -> bool {
    match path.map(load::HostCalls::open).transpose() {
        Ok(host) => body(host.as_ref()),
        Err(e) => {
            errln!("error: {e}");
            false
        }
    }
}

fn main() -> ExitCode {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("STRATA_LOG"))
        .with_writer(std::io::stderr)
        .try_init();
    // `--version` also names the LLVM the compiler generates code with.
    // (clap keeps a &'static str; the string lives for the whole run anyway.)
    let version: &'static str = Box::leak(
        format!(
            "{} (LLVM {})",
            env!("CARGO_PKG_VERSION"),
            strata_codegen::llvm_version()
        )
        .into_boxed_str(),
    );
    let matches = Cli::command().version(version).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let ok = match cli.command {
        Command::Compile {
            input,
            output,
            header,
            header_cpp,
            rust_bindings,
            pkg_config,
            name,
            opt_level,
            target_cpu,
            target_features,
            target,
            collectives,
            time_passes,
            print_ir_after_all,
            print_ir_after,
            backend,
            platforms,
            dims,
            profile,
        } => {
            let mut spec = strata_codegen::TargetSpec::portable();
            spec.triple = target;
            spec.cpu = target_cpu;
            spec.features = target_features;
            compile::run(
                &input,
                &output,
                compile::Extras {
                    header: header.as_deref(),
                    header_cpp: header_cpp.as_deref(),
                    rust_bindings: rust_bindings.as_deref(),
                    pkg_config: pkg_config.as_deref(),
                },
                name.as_deref(),
                compile::Generation {
                    opt_level,
                    target: &spec,
                    collectives,
                    backend,
                    platforms: &platforms,
                    dims: &dims,
                    dropped: &[],
                    profile,
                },
                compile::Reports {
                    time_passes,
                    print_after: if print_ir_after_all {
                        vec!["--print-ir-after-all".to_string()]
                    } else {
                        print_ir_after
                            .iter()
                            .map(|p| format!("--print-ir-after={p}"))
                            .collect()
                    },
                },
            )
        }
        Command::Opt {
            input,
            list_passes,
            split_input_file,
            passes,
        } => match input {
            Some(input) if !list_passes => opt::run(&input, split_input_file, &passes),
            _ => opt::list_passes(),
        },
        Command::Check {
            inputs,
            backend,
            custom_calls,
            target,
            target_cpu,
            target_features,
            run_with,
        } => {
            let remote = match (run_with, &target) {
                (Some(command), _) => {
                    let mut spec = strata_codegen::TargetSpec::portable();
                    spec.triple = target;
                    spec.cpu = target_cpu;
                    spec.features = target_features;
                    Some(check::remote::Remote {
                        target: spec,
                        run_with: command.split_whitespace().map(str::to_string).collect(),
                    })
                }
                (None, Some(t)) => {
                    errln!(
                        "error: --target {t} needs --run-with (the command that runs its programs, e.g. qemu-aarch64 -L /usr/aarch64-linux-gnu)"
                    );
                    return ExitCode::from(1);
                }
                (None, None) => None,
            };
            if remote.is_some() && (custom_calls.is_some() || backend != backend::Backend::Native) {
                errln!("error: --run-with takes neither --custom-calls nor another --backend");
                return ExitCode::from(1);
            }
            with_host_calls(custom_calls.as_deref(), |host| {
                check::run(&inputs, backend, host, remote.as_ref())
            })
        }
        Command::Info {
            input,
            name,
            json,
            dims,
        } => info::run(&input, name.as_deref(), json, &dims),
        Command::Bench {
            input,
            function,
            inputs,
            threads,
            iterations,
            warmup,
            name,
            dims,
            target_cpu,
            profile,
        } => bench::run(
            &input,
            name.as_deref(),
            &bench::Bench {
                function: &function,
                inputs: &inputs,
                threads,
                iterations,
                warmup,
                dims: &dims,
                target_cpu: target_cpu.as_deref(),
                profile,
            },
        ),
        Command::Run {
            input,
            function,
            inputs,
            output_dir,
            quiet,
            backend,
            custom_calls,
        } => with_host_calls(custom_calls.as_deref(), |host| {
            run::run(
                &input,
                &function,
                &inputs,
                run::Outputs {
                    dir: output_dir.as_deref(),
                    quiet,
                },
                backend,
                host,
            )
        }),
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `NAME=VALUE` of `--dim`: a dimension variable and its size.
fn parse_dim(s: &str) -> Result<(String, i64), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=VALUE (like b=64), found '{s}'"))?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("'{name}' is not a dimension variable's name"));
    }
    let value: i64 = value
        .trim()
        .parse()
        .map_err(|_| format!("'{value}' is not a size (a non-negative integer)"))?;
    if value < 0 {
        return Err(format!("'{value}' is not a size (a non-negative integer)"));
    }
    Ok((name.to_string(), value))
}
