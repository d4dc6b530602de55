//! The ENTRY computation's ABI: the C interface passes dense row-major
//! buffers, so entry parameters and results must have the default layout.
//! Layouts elsewhere are ignored (HLO's semantics do not depend on them).

use strata_diag::{Diagnostic, Result};

use super::parser::{Computation, HloModule};
use super::shapes::Shape;

pub fn check_entry_layouts(module: &HloModule, entry: &Computation) -> Result<()> {
    let params = entry.instrs.iter().filter(|i| i.opcode == "parameter");
    for instr in params {
        check_default_layout(&instr.shape, "entry parameter")?;
    }
    check_default_layout(&entry.instrs[entry.root].shape, "entry result")?;
    let Some(layout) = &module.entry_layout else {
        return Ok(());
    };
    let declared = entry
        .instrs
        .iter()
        .filter(|i| i.opcode == "parameter")
        .count();
    if layout.params.len() != declared {
        return Err(Diagnostic::error(
            layout.result.loc(),
            format!(
                "entry_computation_layout lists {} parameters, but the ENTRY computation has {declared}",
                layout.params.len()
            ),
        ));
    }
    for shape in &layout.params {
        check_default_layout(shape, "entry parameter")?;
    }
    check_default_layout(&layout.result, "entry result")
}

fn check_default_layout(shape: &Shape, what: &str) -> Result<()> {
    match shape.first_non_default_layout() {
        Some(loc) => Err(Diagnostic::unsupported(
            loc,
            format!(
                "{what} has a non-default layout; only the row-major layout (minor-to-major {{n-1,...,1,0}}) is supported at the entry"
            ),
        )),
        None => Ok(()),
    }
}
