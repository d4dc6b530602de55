//! strata-aot: turns the object code that `strata-codegen` emits into the artifacts the driver
//! writes — object files, static archives and shared libraries with the runtime linked in — and
//! writes the C header that describes the exported functions.
//!
//! Linking uses the system toolchain (`cc`, `ar`, `nm`, `strip` from binutils / build-essential);
//! `CC` overrides the compiler driver.
//!
//! The runtime (`libstrata_runtime.a`, the static library of the `strata-runtime` crate) is
//! embedded in the compiler (`strata-runtime-archive`) and extracted on use by
//! [`find_runtime`]; the environment variable `STRATA_RUNTIME_LIB` names another file instead.

mod header;
mod header_cpp;
mod interface;
mod link;
pub mod names;
mod param_names;
pub mod private_dir;
mod rust_bindings;
mod toolchain;

pub use header::{comment_text, header};
pub use header_cpp::cpp_header;
pub use interface::{
    BatchDim, CFunction, CParam, DeviceOps, Devices, Interface, batch_formula, c_type_bytes,
};
pub use link::{
    Exports, RUNTIME_LIB_ENV, archive, archive_for, find_runtime, find_runtime_for, link_shared,
    link_shared_for, write_object,
};
pub use rust_bindings::rust_bindings;
pub use toolchain::{CROSS_TARGETS, Toolchain};

/// Runtime symbols every shared library keeps exported (looked up with `dlsym` by `strata check`,
/// or forwarded to by `P_last_error`).
pub use strata_abi::runtime::EXPORTED as RUNTIME_EXPORTS;
