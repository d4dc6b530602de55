//! Passes that stay inside the `xla` dialect.

pub mod batch_norm;
pub mod build;
pub mod composites;
pub mod conv_phases;
pub mod cse;
pub mod dead_ops;
pub mod donation;
pub mod fold_bf16_convert;
pub mod fold_branches;
pub mod fold_constant_convert;
pub mod fold_dot_transpose;
pub mod inline;
pub mod jax_calling_convention;
pub mod lapack_custom_calls;
pub mod legalize_broadcast;
pub mod manual_computation;
pub mod quantized;
pub mod ragged_dot;
pub mod reciprocal_divisor;
pub mod refine_shapes;
pub mod rng;
pub mod scan;
pub mod split_reduce;
pub mod static_dynamic_ops;
pub mod tree_reduce;
