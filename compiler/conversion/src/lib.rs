//! Conversions between dialects. Each lives in its own folder named
//! `<from>_to_<to>` and exports its pass.

pub mod builder;
pub mod xla_to_kernel;
pub mod xla_to_loop;

pub use xla_to_kernel::ConvertXlaToKernelPass;
pub use xla_to_loop::ConvertXlaToLoopPass;
