//! `strata compile`.

use std::path::Path;

use strata_codegen::{CodegenOptions, EmitKind};
use strata_ir::Context;

use crate::abi;
use crate::input::{read_or_report, report, unknown_loc_error};

/// Default symbol prefix: the output's stem without a leading `lib`.
pub fn default_prefix(output: &Path) -> String {
    let stem = output
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("strata");
    let stem = stem
        .strip_prefix("lib")
        .filter(|s| !s.is_empty())
        .unwrap_or(stem);
    stem.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The device count a multi-device module states (`mhlo.num_partitions`,
/// else `mhlo.num_replicas`, when above 1).
fn devices_of(ctx: &Context, module: strata_ir::OpId) -> Option<strata_aot::Devices> {
    let attr = |name| {
        ctx.int_attr(module, name)
            .filter(|&n| n > 1)
            .map(|n| n as i64)
    };
    attr("mhlo.num_partitions")
        .map(|count| strata_aot::Devices {
            count,
            partitions: true,
        })
        .or_else(|| {
            attr("mhlo.num_replicas").map(|count| strata_aot::Devices {
                count,
                partitions: false,
            })
        })
}

/// Whether the module's ops meet other devices or the host's feeds (the
/// header declares `P_replicas_run` and the feed hooks only then).
fn device_ops_of(ctx: &Context, module: strata_ir::OpId) -> strata_aot::DeviceOps {
    use strata_dialect_xla::names as xla;
    const MULTI_DEVICE: &[&str] = &[
        xla::ALL_REDUCE,
        xla::ALL_GATHER,
        xla::REDUCE_SCATTER,
        xla::ALL_TO_ALL,
        xla::COLLECTIVE_PERMUTE,
        xla::COLLECTIVE_BROADCAST,
        xla::COLLECTIVE_REDUCE,
        xla::REPLICA_ID,
        xla::PARTITION_ID,
        xla::SEND,
        xla::RECV,
    ];
    let mut ops = strata_aot::DeviceOps::default();
    ctx.walk_nested(module, &mut |op| {
        let name = ctx.op(op).name;
        ops.collectives |= MULTI_DEVICE.contains(&name);
        ops.feeds |= name == xla::INFEED || name == xla::OUTFEED;
    });
    ops
}

/// `--time-passes`: wall time per pass and per code generation phase, on
/// standard error, as MLIR tools print it.
fn print_times(times: &[(&'static str, std::time::Duration)]) {
    let total: f64 = times.iter().map(|(_, d)| d.as_secs_f64()).sum();
    errln!("===-------------------------------------------------------------------------===");
    errln!("                         ... Execution time report ...");
    errln!("===-------------------------------------------------------------------------===");
    errln!("  Total Execution Time: {:.4} seconds", total);
    errln!();
    errln!("  ----Wall Time----  ----Name----");
    for (name, d) in times {
        let s = d.as_secs_f64();
        let pct = if total > 0.0 { 100.0 * s / total } else { 0.0 };
        errln!("  {:8.4} ({:5.1}%)  {}", s, pct, name);
    }
    errln!("  {:8.4} (100.0%)  Total", total);
}

/// How the compiled library's devices meet at collectives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Collectives {
    /// `P_replicas_run(n, ...)` starts n threads in this process.
    Threads,
    /// Each MPI process is one device (run under `mpirun -np n`); Open MPI
    /// is loaded at run time.
    Mpi,
}

#[allow(clippy::too_many_arguments)]
/// What `compile` reports on standard error as it goes.
#[derive(Clone, Default)]
pub struct Reports {
    /// `--time-passes`.
    pub time_passes: bool,
    /// `--print-ir-after-all` / `--print-ir-after=PASS`, spelled as flags.
    pub print_after: Vec<String>,
}

/// How the code is generated.
#[derive(Clone, Copy)]
pub struct Generation<'a> {
    /// LLVM optimisation level, 0..=3.
    pub opt_level: u8,
    pub target: &'a strata_codegen::TargetSpec,
    pub collectives: Collectives,
    pub backend: crate::backend::Backend,
    /// `--platforms`: a multi-platform export's platforms, in order.
    pub platforms: &'a [String],
    /// `--dim NAME=VALUE`: the sizes a shape-polymorphic export is compiled for.
    pub dims: &'a [(String, i64)],
    /// Arguments a serialized export's `@main` does not take (JAX dropped
    /// them as unused).
    pub dropped: &'a [String],
    /// `--profile`: time the exported functions' top-level ops.
    pub profile: bool,
}

/// Files written beside the artifact.
#[derive(Clone, Copy, Default)]
pub struct Extras<'a> {
    /// The C header.
    pub header: Option<&'a Path>,
    /// The C++ header (the C interface and a `std::span` one).
    pub header_cpp: Option<&'a Path>,
    /// Safe Rust bindings (`strata_aot::rust_bindings`).
    pub rust_bindings: Option<&'a Path>,
    /// A pkg-config file for a `.a` or `.so`.
    pub pkg_config: Option<&'a Path>,
}

pub fn run(
    input: &Path,
    output: &Path,
    extras: Extras<'_>,
    name: Option<&str>,
    generation: Generation<'_>,
    reports: Reports,
) -> bool {
    let prefix = name
        .map(str::to_string)
        .unwrap_or_else(|| default_prefix(output));
    let checked =
        check_paths(input, output, extras).and_then(|()| check_name(name, &prefix, output));
    if let Err(message) = checked {
        report_plain(&message);
        return false;
    }
    let Some(source) = read_or_report(input) else {
        return false;
    };
    // `--platforms` overrides what a serialized export says.
    let platforms = if generation.platforms.is_empty() {
        &source.platforms[..]
    } else {
        generation.platforms
    };
    let generation = Generation {
        platforms,
        dropped: &source.dropped,
        ..generation
    };
    let mut ctx = strata_pipeline::new_context();
    match compile(
        &mut ctx,
        &input.display().to_string(),
        &source.text,
        output,
        extras,
        &prefix,
        &generation,
        &reports,
    ) {
        Ok(()) => true,
        Err(diags) => {
            report(&ctx, &diags);
            false
        }
    }
}

fn report_plain(message: &str) {
    errln!("error: {message}");
}

/// Refuses to write an artifact or header over the input (a typo such as
/// `-o m.mlir` would destroy the JAX export) or a header over the artifact.
/// Files are the same when they are one inode (a hard link or a symbolic
/// link to the input is the input), or the same path when not yet there.
fn check_paths(input: &Path, output: &Path, extras: Extras<'_>) -> Result<(), String> {
    let same = |a: &Path, b: &Path| match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => {
            use std::os::unix::fs::MetadataExt;
            (x.dev(), x.ino()) == (y.dev(), y.ino())
        }
        _ => match (std::path::absolute(a), std::path::absolute(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => a == b,
        },
    };
    if same(input, output) {
        return Err(format!(
            "the output {} is the input file; choose another -o",
            output.display()
        ));
    }
    let side_files = [
        (extras.header, "header", "--header"),
        (extras.header_cpp, "C++ header", "--header-cpp"),
        (extras.rust_bindings, "Rust bindings", "--rust-bindings"),
        (extras.pkg_config, "pkg-config file", "--pkg-config"),
    ];
    for (path, what, flag) in side_files {
        let Some(h) = path else { continue };
        if same(input, h) {
            return Err(format!(
                "the {what} {} is the input file; choose another {flag}",
                h.display()
            ));
        }
        if same(output, h) {
            return Err(format!(
                "the {what} {} is the output file; choose another {flag}",
                h.display()
            ));
        }
    }
    Ok(())
}

/// A pkg-config file for the library `output` (a `.a` or `.so`): its
/// directory as `libdir`, the header's as `includedir`, and what a C program
/// links besides (the static runtime needs libm, pthread and libdl; a shared
/// library gets an rpath).
fn pkg_config(
    output: &Path,
    header: Option<&Path>,
    prefix: &str,
    ext: &str,
) -> Result<String, String> {
    let absolute_dir = |p: &Path| -> Result<String, String> {
        let dir = p
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::canonicalize(dir)
            .map(|d| d.display().to_string())
            .map_err(|e| format!("cannot resolve {}: {e}", dir.display()))
    };
    let stem = output
        .file_stem()
        .and_then(|s| s.to_str())
        .and_then(|s| s.strip_prefix("lib"))
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            format!(
                "--pkg-config needs a library named lib<name>.a or lib<name>.so, not {}",
                output.display()
            )
        })?;
    let libdir = absolute_dir(output)?;
    let includedir = match header {
        Some(h) => absolute_dir(h)?,
        None => libdir.clone(),
    };
    let libs = match ext {
        "a" => format!("-L${{libdir}} -l{stem} -lm -lpthread -ldl"),
        "so" => format!("-L${{libdir}} -l{stem} -Wl,-rpath,${{libdir}}"),
        _ => return Err(format!("--pkg-config needs a .a or .so output, not .{ext}")),
    };
    Ok(format!(
        "# Generated by strata compile --pkg-config.\nlibdir={libdir}\nincludedir={includedir}\n\n\
         Name: {prefix}\nDescription: Strata-compiled library {prefix} (functions {prefix}_*)\n\
         Version: {}\nCflags: -I${{includedir}}\nLibs: {libs}\n",
        env!("CARGO_PKG_VERSION")
    ))
}

/// The prefix (from `--name`, or by default from the output's name) starts
/// every C identifier of the library (`P_main`), so it must be one.
fn check_name(name: Option<&str>, prefix: &str, output: &Path) -> Result<(), String> {
    let Some(why) = strata_aot::names::identifier_error(prefix) else {
        return Ok(());
    };
    Err(match name {
        Some(_) => format!("--name: {why}"),
        None => format!(
            "the symbol prefix taken from the output's name {} is not usable: {why}; choose one with --name",
            strata_aot::names::shown(&output.display().to_string())
        ),
    })
}

fn compile(
    ctx: &mut Context,
    name: &str,
    text: &str,
    output: &Path,
    extras: Extras<'_>,
    prefix: &str,
    generation: &Generation<'_>,
    reports: &Reports,
) -> Result<(), Vec<strata_diag::Diagnostic>> {
    let Generation {
        opt_level,
        target,
        collectives,
        backend,
        platforms,
        dims,
        dropped,
        profile,
    } = *generation;
    let (module, every_size) = crate::every_size::parse(ctx, name, text, dims, platforms)?;
    crate::every_size::note_platforms(ctx, module, platforms);
    if collectives == Collectives::Mpi {
        // Read by codegen: P_replicas_run runs this process as one MPI device.
        let mpi = ctx.attr(strata_ir::AttrKind::String("mpi".into()));
        ctx.set_attr(module, strata_codegen::COLLECTIVES_ATTR, mpi);
    }
    let ext = output.extension().and_then(|e| e.to_str()).unwrap_or("");
    if !["so", "a", "o", "ll", "s", "mlir", "dot"].contains(&ext) {
        return Err(vec![unknown_loc_error(format!(
            "cannot tell the artifact kind from '{}': use .so, .a, .o, .ll, .s, .mlir or .dot",
            output.display()
        ))]);
    }
    if ext == "dot" {
        strata_pipeline::front(ctx, module)?;
        let text = crate::dot::graph(ctx, module);
        return std::fs::write(output, text).map_err(|e| {
            vec![unknown_loc_error(format!(
                "cannot write {}: {e}",
                output.display()
            ))]
        });
    }
    let target = strata_codegen::resolve_target(target).map_err(|m| vec![unknown_loc_error(m)])?;
    let host = strata_codegen::host_target().map_err(|d| vec![d])?.triple;
    // A library for another target links that target's runtime with its
    // GNU toolchain; an object file needs neither.
    let toolchain = if ["so", "a"].contains(&ext) {
        Some(
            strata_aot::Toolchain::for_target(&target.triple, &host)
                .map_err(|m| vec![unknown_loc_error(m)])?,
        )
    } else {
        None
    };
    let devices = devices_of(ctx, module);
    let device_ops = device_ops_of(ctx, module);
    strata_pipeline::entry_points(ctx, module)?;
    let (mut funcs, custom_calls) = abi::library_interface(ctx, module, prefix)?;
    if let Some(plan) = &every_size {
        let entries = crate::every_size::interface(plan, prefix, &mut funcs)
            .map_err(|m| vec![unknown_loc_error(m)])?;
        let a = crate::every_size::attribute(ctx, &entries, plan);
        ctx.set_attr(module, strata_codegen::BATCHED_ATTR, a);
    }
    if let Some(main) = funcs
        .iter_mut()
        .find(|f| f.c_name == format!("{prefix}_main"))
    {
        main.dropped = dropped.to_vec();
    }
    let flags: Vec<&String> = reports.print_after.iter().collect();
    let print_after = crate::opt::print_after(&flags).map_err(|m| vec![unknown_loc_error(m)])?;
    let mut times = strata_pipeline::lower_timed(ctx, module, print_after, profile)?;
    abi::record_plan(ctx, module, prefix, &mut funcs);
    let signature = crate::signature::json(prefix, &funcs);
    let signature = ctx.attr(strata_ir::AttrKind::String(signature));
    ctx.set_attr(module, strata_codegen::SIGNATURE_ATTR, signature);
    let io = |r: Result<(), String>| r.map_err(|m| vec![unknown_loc_error(m)]);
    if ext == "mlir" {
        let printed = strata_ir::text::printer::print_op(ctx, module);
        io(std::fs::write(output, printed)
            .map_err(|e| format!("cannot write {}: {e}", output.display())))?;
    } else {
        let kind = match ext {
            "ll" => EmitKind::LlvmIr,
            "s" => EmitKind::Assembly,
            _ => EmitKind::Object,
        };
        let opts = CodegenOptions {
            prefix: prefix.to_string(),
            opt_level,
            target: target.clone(),
            bodies: backend.bodies(),
        };
        let bytes = strata_codegen::compile(ctx, module, &opts, kind).map_err(|d| vec![d])?;
        times.extend(strata_codegen::last_phase_times());
        let start = std::time::Instant::now();
        match ext {
            "so" | "a" => {
                let toolchain = toolchain.as_ref().ok_or_else(|| {
                    vec![unknown_loc_error("internal: no toolchain for a library")]
                })?;
                if ext == "so" {
                    io(strata_aot::link_shared_for(
                        &bytes,
                        output,
                        strata_aot::Exports::Library,
                        toolchain,
                    ))?
                } else {
                    io(strata_aot::archive_for(&bytes, output, toolchain))?
                }
            }
            _ => io(strata_aot::write_object(&bytes, output))?,
        }
        times.push(("link / write the artifact", start.elapsed()));
    }
    if reports.time_passes {
        print_times(&times);
        for f in &funcs {
            errln!(
                "  memory plan: {} takes {} bytes of scratch (its arena and its callees')",
                f.c_name,
                f.scratch_bytes.unwrap_or(0)
            );
        }
    }
    if let Some(pc) = extras.pkg_config {
        let text = pkg_config(output, extras.header, prefix, ext)
            .map_err(|m| vec![unknown_loc_error(m)])?;
        io(std::fs::write(pc, text).map_err(|e| format!("cannot write {}: {e}", pc.display())))?;
    }
    if let Some(r) = extras.rust_bindings {
        let text = strata_aot::rust_bindings(prefix, &funcs, &custom_calls, name);
        io(std::fs::write(r, text).map_err(|e| format!("cannot write {}: {e}", r.display())))?;
    }
    let description = target.describe();
    let interface = strata_aot::Interface {
        prefix,
        funcs: &funcs,
        custom_calls: &custom_calls,
        target: &description,
        devices,
        device_ops,
        profiled: profile,
    };
    let guard = format!("STRATA_{}_H", prefix.to_uppercase());
    if let Some(h) = extras.header {
        let text = strata_aot::header(&interface, &guard);
        io(std::fs::write(h, text).map_err(|e| format!("cannot write {}: {e}", h.display())))?;
    }
    if let Some(h) = extras.header_cpp {
        let text = strata_aot::cpp_header(&interface, &guard);
        io(std::fs::write(h, text).map_err(|e| format!("cannot write {}: {e}", h.display())))?;
    }
    Ok(())
}
