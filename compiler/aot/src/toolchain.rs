//! What a library is linked with: this machine's C toolchain and runtime,
//! or for a cross target (`--target aarch64-linux-gnu`) the runtime the
//! compiler embeds for it and Debian's GNU cross toolchain
//! (`aarch64-linux-gnu-gcc`, `-ar`, `-nm`, `-objcopy`).

use std::process::Command;

/// The targets a library can be linked for besides this machine: (LLVM
/// architecture, Rust target of the runtime, GNU tool prefix, Debian
/// packages).
pub const CROSS_TARGETS: &[(&str, &str, &str, &str)] = &[
    (
        "aarch64",
        "aarch64-unknown-linux-gnu",
        "aarch64-linux-gnu",
        "gcc-aarch64-linux-gnu libc6-dev-arm64-cross",
    ),
    (
        "riscv64",
        "riscv64gc-unknown-linux-gnu",
        "riscv64-linux-gnu",
        "gcc-riscv64-linux-gnu libc6-dev-riscv64-cross",
    ),
];

/// The tools and runtime of one link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toolchain {
    /// `aarch64-linux-gnu` for a cross target; None for this machine.
    gnu_prefix: Option<&'static str>,
    /// The runtime archive's bytes and hash.
    runtime: (&'static [u8], &'static str),
}

impl Toolchain {
    /// This machine's (`$CC` or `cc`, and binutils).
    pub fn host() -> Toolchain {
        Toolchain {
            gnu_prefix: None,
            runtime: (
                strata_runtime_archive::ARCHIVE,
                strata_runtime_archive::HASH,
            ),
        }
    }

    /// The toolchain for LLVM target `triple` (`aarch64-unknown-linux-gnu`),
    /// or why there is none.
    pub fn for_target(triple: &str, host_triple: &str) -> Result<Toolchain, String> {
        if triple == host_triple {
            return Ok(Toolchain::host());
        }
        let arch = triple.split('-').next().unwrap_or("");
        let supported = || {
            CROSS_TARGETS
                .iter()
                .map(|(_, _, gnu, _)| *gnu)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let Some(&(_, rust, gnu, packages)) = CROSS_TARGETS
            .iter()
            .find(|(a, ..)| *a == arch)
            .filter(|_| triple.ends_with("linux-gnu"))
        else {
            return Err(format!(
                "no runtime for {triple}, so a .so or .a cannot be linked for it (libraries are \
                 made for {}); write a .o, .ll or .s instead",
                supported()
            ));
        };
        let Some(&(_, bytes, hash)) = strata_runtime_archive::CROSS
            .iter()
            .find(|(t, ..)| *t == rust)
        else {
            return Err(format!(
                "this strata was built without the runtime for {gnu}: install the target's \
                 standard library (rustup target add {rust}) and rebuild strata"
            ));
        };
        let cc = format!("{gnu}-gcc");
        if Command::new(&cc).arg("--version").output().is_err() {
            return Err(format!(
                "linking for {gnu} needs {cc}: install Debian's {packages}"
            ));
        }
        Ok(Toolchain {
            gnu_prefix: Some(gnu),
            runtime: (bytes, hash),
        })
    }

    /// The runtime archive: its bytes and the hash naming extracted copies.
    pub fn runtime(&self) -> (&'static [u8], &'static str) {
        self.runtime
    }

    /// Whether a relocatable link (`ld -r`, for a `.a`) may drop unused
    /// sections: not for riscv64, whose Debian 12 linker (binutils 2.40)
    /// then writes an `.eh_frame` that crashes it when the program links.
    pub fn gc_relocatable(&self) -> bool {
        !self.gnu_prefix.is_some_and(|p| p.starts_with("riscv64"))
    }

    /// Whether this is a cross target.
    pub fn is_cross(&self) -> bool {
        self.gnu_prefix.is_some()
    }

    /// A binutils tool (`nm`, `ar`, `objcopy`) for the target.
    pub fn tool(&self, name: &str) -> Command {
        match self.gnu_prefix {
            Some(p) => Command::new(format!("{p}-{name}")),
            None => Command::new(name),
        }
    }

    /// The C compiler driver that links: `$CC` (may include arguments) or
    /// `cc` for this machine, `<prefix>-gcc` for a cross target.
    pub fn cc(&self) -> Command {
        if let Some(p) = self.gnu_prefix {
            return Command::new(format!("{p}-gcc"));
        }
        let cc = std::env::var("CC")
            .ok()
            .filter(|s| !s.trim().is_empty())
            .unwrap_or_else(|| "cc".into());
        let mut words = cc.split_whitespace();
        let mut cmd = Command::new(words.next().unwrap_or("cc"));
        cmd.args(words);
        cmd
    }
}
