//! Op names of the `xla` dialect, spelled once: each family's in its file
//! (`ops::<family>::names`, beside its verifiers and registration), gathered
//! here so passes and lowerings name any op as `strata_dialect_xla::names::X`.

pub use crate::ops::collective::names::*;
pub use crate::ops::control::names::*;
pub use crate::ops::conv::names::*;
pub use crate::ops::decomposition::names::*;
pub use crate::ops::dot::names::*;
pub use crate::ops::dynamic::names::*;
pub use crate::ops::elementwise::names::*;
pub use crate::ops::gather::names::*;
pub use crate::ops::linalg::names::*;
pub use crate::ops::misc::names::*;
pub use crate::ops::norm::names::*;
pub use crate::ops::quant::names::*;
pub use crate::ops::ragged::names::*;
pub use crate::ops::reduce::names::*;
pub use crate::ops::scan::names::*;
pub use crate::ops::shape::names::*;
