//! `--backend`: which code generator lowers the loop level.

/// The code generator of `strata compile`, `check` and `run`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Backend {
    /// Strata's own lowering to LLVM IR (`strata-codegen`).
    #[default]
    Native,
    /// The loop level exported as upstream MLIR and lowered by MLIR's own
    /// passes (`strata-upstream`, through melior); the C wrappers around it
    /// are the native ones, so the artifacts are the same.
    Mlir,
}

impl Backend {
    /// What lowers the function bodies (`None`: the native lowering).
    pub fn bodies(self) -> Option<strata_codegen::BodyLowering> {
        match self {
            Backend::Native => None,
            Backend::Mlir => Some(strata_upstream::lower_bodies),
        }
    }
}
