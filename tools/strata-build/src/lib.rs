//! strata-build: compile a model with the Strata driver from a `build.rs`,
//! link it statically and get safe, typed bindings.
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), strata_build::Error> {
//!     strata_build::Model::new("model.mlir").name("mlp").compile()?;
//!     Ok(())
//! }
//! ```
//! ```ignore
//! // src/main.rs
//! mod mlp {
//!     include!(concat!(env!("OUT_DIR"), "/mlp.rs"));
//! }
//! let probabilities: Vec<f32> = mlp::main(&x, &w1, &b1, &w2, &b2)?;
//! ```
//!
//! The model is StableHLO text (as `jax.jit(f).lower(...).as_text()` writes
//! it) or XLA HLO text. The driver is the `strata` binary named by the
//! `STRATA` environment variable, else the one on `PATH` (`cargo install
//! --path tools/strata` puts it there). The generated module has one
//! function per exported function of the model (see `strata compile
//! --rust-bindings`): arrays of the exact buffer length in, `Vec`s out,
//! errors as `Result` carrying the library's message.
//!
//! Like the driver's default, the code runs on any x86-64-v3 CPU (AVX2,
//! FMA); [`Model::target_cpu`] picks another (`"host"`: this machine's).
//!
//! A cross build (`cargo build --target aarch64-unknown-linux-gnu` or
//! `riscv64gc-unknown-linux-gnu`) compiles the model for that target (its
//! runtime is in the driver); cargo links with the target's linker, e.g.
//! `CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc`,
//! and can run the program under emulation with
//! `CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"`.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Why a model could not be compiled.
#[derive(Debug)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// A model to compile into the crate being built.
#[derive(Clone, Debug)]
pub struct Model {
    input: PathBuf,
    name: Option<String>,
    target_cpu: Option<String>,
}

impl Model {
    /// The model file, relative to the crate's root (where `build.rs` runs).
    pub fn new(input: impl AsRef<Path>) -> Model {
        Model {
            input: input.as_ref().to_path_buf(),
            name: None,
            target_cpu: None,
        }
    }

    /// The library's name: the bindings file `OUT_DIR/NAME.rs` and the C
    /// symbol prefix (default: the file's stem).
    pub fn name(mut self, name: &str) -> Model {
        self.name = Some(name.to_string());
        self
    }

    /// The CPU the code is generated for, as `strata compile --target-cpu`.
    pub fn target_cpu(mut self, cpu: &str) -> Model {
        self.target_cpu = Some(cpu.to_string());
        self
    }

    /// Compiles the model into `OUT_DIR/libNAME.a` and `OUT_DIR/NAME.rs`,
    /// and tells cargo to link the archive and to rebuild when the model or
    /// the driver changes. Returns the bindings file's path.
    pub fn compile(&self) -> Result<PathBuf, Error> {
        let out_dir = std::env::var_os("OUT_DIR")
            .map(PathBuf::from)
            .ok_or_else(|| {
                Error("OUT_DIR is not set: call compile() from a build script".into())
            })?;
        let name = self.library_name()?;
        let archive = out_dir.join(format!("lib{name}.a"));
        let bindings = out_dir.join(format!("{name}.rs"));
        let mut cmd = Command::new(driver());
        cmd.arg("compile")
            .arg(&self.input)
            .arg("-o")
            .arg(&archive)
            .arg("--name")
            .arg(&name)
            .arg("--rust-bindings")
            .arg(&bindings);
        if let Some(cpu) = &self.target_cpu {
            cmd.arg("--target-cpu").arg(cpu);
        }
        if let Some(target) = cross_target() {
            cmd.arg("--target").arg(target);
        }
        let out = cmd.output().map_err(|e| {
            Error(format!(
                "cannot run the Strata driver {:?} ({e}); install it (cargo install --path \
                 tools/strata) or set STRATA to its path",
                driver()
            ))
        })?;
        if !out.status.success() {
            return Err(Error(format!(
                "strata compile {} failed:\n{}",
                self.input.display(),
                String::from_utf8_lossy(&out.stderr)
            )));
        }
        println!("cargo:rerun-if-changed={}", self.input.display());
        println!("cargo:rerun-if-env-changed=STRATA");
        println!("cargo:rerun-if-env-changed=TARGET");
        println!("cargo:rustc-link-search=native={}", out_dir.display());
        println!("cargo:rustc-link-lib=static={name}");
        Ok(bindings)
    }

    fn library_name(&self) -> Result<String, Error> {
        let name = match &self.name {
            Some(n) => n.clone(),
            None => self
                .input
                .file_stem()
                .and_then(|s| s.to_str())
                .map(|s| s.replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "_"))
                .unwrap_or_default(),
        };
        let valid = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if valid {
            Ok(name)
        } else {
            Err(Error(format!(
                "'{name}' cannot name the library: use letters, digits and '_', not starting \
                 with a digit (Model::name)"
            )))
        }
    }
}

/// The driver to run: `$STRATA`, else `strata` on the `PATH`.
/// The `strata compile --target` of a cross build (`cargo build --target
/// aarch64-unknown-linux-gnu`): cargo's `TARGET` when it is not `HOST`, in
/// the spelling of Debian's cross toolchains (`aarch64-linux-gnu`,
/// `riscv64-linux-gnu`).
fn cross_target() -> Option<String> {
    let target = std::env::var("TARGET").ok()?;
    if std::env::var("HOST").ok().as_deref() == Some(target.as_str()) {
        return None;
    }
    Some(match target.as_str() {
        "aarch64-unknown-linux-gnu" => "aarch64-linux-gnu".to_string(),
        "riscv64gc-unknown-linux-gnu" => "riscv64-linux-gnu".to_string(),
        other => other.to_string(),
    })
}

fn driver() -> PathBuf {
    std::env::var_os("STRATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("strata"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_file_stem_or_the_builder() {
        assert_eq!(
            Model::new("models/my-net.mlir").library_name().unwrap(),
            "my_net"
        );
        assert_eq!(
            Model::new("m.mlir").name("mlp").library_name().unwrap(),
            "mlp"
        );
        assert!(Model::new("m.mlir").name("9lives").library_name().is_err());
    }
}
