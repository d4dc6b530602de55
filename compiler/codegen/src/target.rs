//! The host target machine, LLVM's `default<ON>` pipeline, and emission of
//! LLVM IR text, assembly or an object file.

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

/// Initialises the native target once per process.
fn init_native() -> Result<()> {
    static INIT: OnceLock<std::result::Result<(), String>> = OnceLock::new();
    INIT.get_or_init(|| Target::initialize_native(&InitializationConfig::default()))
        .clone()
        .map_err(|e| failure("cannot initialise the native LLVM target", e))
}

fn level(opt_level: u8) -> OptimizationLevel {
    match opt_level {
        0 => OptimizationLevel::None,
        1 => OptimizationLevel::Less,
        2 => OptimizationLevel::Default,
        _ => OptimizationLevel::Aggressive,
    }
}

/// A target machine for the host CPU (name and features), PIC.
pub(crate) fn host_machine(opt_level: u8) -> Result<TargetMachine> {
    init_native()?;
    let triple = TargetMachine::get_default_triple();
    let target =
        Target::from_triple(&triple).map_err(|e| failure("no LLVM target for the host", e))?;
    let cpu = TargetMachine::get_host_cpu_name();
    let features = TargetMachine::get_host_cpu_features();
    target
        .create_target_machine(
            &triple,
            &cpu.to_string(),
            &features.to_string(),
            level(opt_level),
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| failure("cannot create a target machine", triple))
}

/// Verifies `module`, runs the optimisation pipeline and emits `kind`.
pub(crate) fn optimize_and_emit(
    tm: &TargetMachine,
    module: &Module,
    opt_level: u8,
    kind: EmitKind,
) -> Result<Vec<u8>> {
    module.set_triple(&tm.get_triple());
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    module
        .verify()
        .map_err(|e| failure("the generated LLVM IR is invalid", e))?;
    let pipeline = format!("default<O{}>", opt_level.min(3));
    module
        .run_passes(&pipeline, tm, PassBuilderOptions::create())
        .map_err(|e| failure("the LLVM optimisation pipeline failed", e))?;
    match kind {
        EmitKind::LlvmIr => Ok(module.print_to_string().to_bytes().to_vec()),
        EmitKind::Assembly => emit(tm, module, FileType::Assembly),
        EmitKind::Object => emit(tm, module, FileType::Object),
    }
}

fn emit(tm: &TargetMachine, module: &Module, ft: FileType) -> Result<Vec<u8>> {
    let buf = tm
        .write_to_memory_buffer(module, ft)
        .map_err(|e| failure("LLVM code generation failed", e))?;
    Ok(buf.as_slice().to_vec())
}
