//! Passes and the pass manager. A pass is small and named by its
//! command-line flag; the manager runs passes in order, opens a `tracing`
//! span per pass, and verifies the IR after each one when asked to.

use std::time::{Duration, Instant};

use strata_diag::Diagnostic;
use strata_ir::{Context, OpId};

/// A transformation of a whole module.
pub trait Pass {
    /// The flag that names the pass (`xla-legalize-broadcast`).
    fn flag(&self) -> &'static str;
    /// One line describing what the pass does, for `strata opt --help`.
    fn summary(&self) -> &'static str;
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<(), Diagnostic>;
}

/// After which passes the manager prints the IR to standard error
/// (`--print-ir-after-all`, `--print-ir-after=FLAG`, as MLIR tools spell them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum PrintAfter {
    #[default]
    Nothing,
    All,
    Passes(Vec<String>),
}

impl PrintAfter {
    fn wants(&self, flag: &str) -> bool {
        match self {
            PrintAfter::Nothing => false,
            PrintAfter::All => true,
            PrintAfter::Passes(flags) => flags.iter().any(|f| f == flag),
        }
    }
}

pub struct PassManager {
    passes: Vec<Box<dyn Pass>>,
    pub verify_each: bool,
    pub print_after: PrintAfter,
    /// Time spent in each pass, in run order.
    pub timings: Vec<(&'static str, Duration)>,
}

impl Default for PassManager {
    fn default() -> Self {
        PassManager {
            passes: Vec::new(),
            verify_each: true,
            print_after: PrintAfter::Nothing,
            timings: Vec::new(),
        }
    }
}

impl PassManager {
    pub fn new() -> PassManager {
        PassManager::default()
    }

    pub fn add(&mut self, pass: Box<dyn Pass>) {
        self.passes.push(pass);
    }

    pub fn flags(&self) -> Vec<&'static str> {
        self.passes.iter().map(|p| p.flag()).collect()
    }

    /// Runs every pass; stops at the first failing pass. A verification
    /// failure after a pass is reported as the pass's internal error.
    pub fn run(&mut self, ctx: &mut Context, module: OpId) -> Result<(), Vec<Diagnostic>> {
        for pass in &self.passes {
            let span = tracing::info_span!("pass", name = pass.flag());
            let _enter = span.enter();
            let start = Instant::now();
            pass.run(ctx, module).map_err(|d| vec![d])?;
            self.timings.push((pass.flag(), start.elapsed()));
            if self.verify_each {
                strata_ir::verify::verify(ctx, module).map_err(|errors| {
                    errors
                        .into_iter()
                        .map(|mut d| {
                            d.kind = strata_diag::Kind::Internal;
                            d.message = format!(
                                "IR is invalid after pass '{}': {}",
                                pass.flag(),
                                d.message
                            );
                            d
                        })
                        .collect::<Vec<_>>()
                })?;
            }
            if self.print_after.wants(pass.flag()) {
                eprintln!(
                    "// -----// IR Dump After {} //----- //\n{}",
                    pass.flag(),
                    strata_ir::text::printer::print_op(ctx, module)
                );
            }
            tracing::debug!(elapsed = ?start.elapsed(), "pass done");
        }
        Ok(())
    }
}
