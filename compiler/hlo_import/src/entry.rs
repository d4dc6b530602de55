//! The ENTRY computation's interface. Layouts are ignored, at the entry too:
//! HLO's values do not depend on them, and Strata's C interface always
//! passes dense row-major buffers. (JAX's unoptimized HLO copies a
//! transpose's `{0,1}` layout into `entry_computation_layout` for results
//! such as `x.T + 1`, which XLA's own compilation lays out row-major; an
//! error there would reject everyday programs.)

use strata_diag::{Diagnostic, Result};

use super::parser::{Computation, HloModule};

pub fn check_entry_interface(module: &HloModule, entry: &Computation) -> Result<()> {
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
    Ok(())
}
