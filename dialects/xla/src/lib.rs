//! The `xla` front dialect: XLA's operation semantics on tensors. The parser
//! reads `stablehlo.*` (and `chlo.*`) spellings as their `xla` twins, so
//! JAX exports compile unchanged.

pub mod attrs;
pub mod batch_axes;
pub mod broadcast;
pub mod names;
pub mod ops;
pub mod parse;
pub mod transforms;
pub mod util;

use strata_ir::{Context, OpDef, Traits};

pub use names::*;

/// Adds every `xla` op, its verifier and pretty syntax, and the
/// `stablehlo.*` / `chlo.*` aliases.
pub fn register(ctx: &mut Context) {
    let pure = Traits::PURE;
    let r = &mut ctx.registry;
    for &name in names::UNARY_ELEMENTWISE {
        r.add(
            OpDef::new(name, pure)
                .counts(1, 1)
                .verifier(ops::elementwise::verify_unary)
                .parser(parse::parse_elementwise),
        );
    }
    for &name in names::BINARY_ELEMENTWISE {
        r.add(
            OpDef::new(name, pure)
                .counts(2, 1)
                .verifier(ops::elementwise::verify_binary)
                .parser(parse::parse_elementwise),
        );
    }
    r.add(
        OpDef::new(CONVERT, pure)
            .counts(1, 1)
            .verifier(ops::elementwise::verify_convert)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(BITCAST_CONVERT, pure)
            .counts(1, 1)
            .verifier(ops::elementwise::verify_bitcast_convert)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(IS_FINITE, pure)
            .counts(1, 1)
            .verifier(ops::elementwise::verify_is_finite)
            .parser(parse::parse_elementwise),
    );
    for &name in names::FLOAT_PREDICATES {
        r.add(
            OpDef::new(name, pure)
                .counts(1, 1)
                .verifier(ops::elementwise::verify_is_finite)
                .parser(parse::parse_elementwise),
        );
    }
    r.add(
        OpDef::new(REAL, pure)
            .counts(1, 1)
            .verifier(ops::elementwise::verify_real_imag)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(IMAG, pure)
            .counts(1, 1)
            .verifier(ops::elementwise::verify_real_imag)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(COMPLEX, pure)
            .counts(2, 1)
            .verifier(ops::elementwise::verify_complex)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(SELECT, pure)
            .counts(3, 1)
            .verifier(ops::elementwise::verify_select)
            .parser(parse::parse_select),
    );
    r.add(
        OpDef::new(CLAMP, pure)
            .counts(3, 1)
            .verifier(ops::elementwise::verify_clamp)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(COMPARE, pure)
            .verifier(ops::elementwise::verify_compare)
            .parser(parse::parse_compare),
    );
    r.add(
        OpDef::new(CONSTANT, pure)
            .counts(0, 1)
            .verifier(ops::misc::verify_constant)
            .parser(parse::parse_constant),
    );
    r.add(
        OpDef::new(IOTA, pure)
            .counts(0, 1)
            .verifier(ops::shape::verify_iota)
            .parser(parse::parse_iota),
    );
    r.add(
        OpDef::new(BROADCAST_IN_DIM, pure)
            .counts(1, 1)
            .verifier(ops::shape::verify_broadcast_in_dim)
            .parser(parse::parse_broadcast_in_dim),
    );
    r.add(
        OpDef::new(BROADCAST_TO, pure)
            .counts(1, 1)
            .verifier(ops::shape::verify_broadcast_to)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(DYNAMIC_SLICE, pure)
            .verifier(ops::shape::verify_dynamic_slice)
            .parser(parse::parse_dynamic_slice),
    );
    r.add(
        OpDef::new(DYNAMIC_UPDATE_SLICE, pure)
            .verifier(ops::shape::verify_dynamic_update_slice)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(WHILE, Traits::NONE)
            .verifier(ops::control::verify_while)
            .parser(parse::parse_while),
    );
    r.add(OpDef::new(IF, Traits::NONE).verifier(ops::control::verify_branches));
    r.add(OpDef::new(CASE, Traits::NONE).verifier(ops::control::verify_branches));
    r.add(
        OpDef::new(GATHER, pure)
            .counts(2, 1)
            .verifier(ops::gather::verify_gather),
    );
    r.add(OpDef::new(SCATTER, pure).verifier(ops::gather::verify_scatter));
    r.add(
        OpDef::new(RESHAPE, pure)
            .counts(1, 1)
            .verifier(ops::shape::verify_reshape)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(TRANSPOSE, pure)
            .counts(1, 1)
            .verifier(ops::shape::verify_transpose)
            .parser(parse::parse_transpose),
    );
    r.add(
        OpDef::new(SLICE, pure)
            .counts(1, 1)
            .verifier(ops::shape::verify_slice)
            .parser(parse::parse_slice),
    );
    r.add(
        OpDef::new(CONCATENATE, pure)
            .verifier(ops::shape::verify_concatenate)
            .parser(parse::parse_concatenate),
    );
    r.add(
        OpDef::new(REVERSE, pure)
            .counts(1, 1)
            .verifier(ops::shape::verify_reverse)
            .parser(parse::parse_reverse),
    );
    r.add(
        OpDef::new(PAD, pure)
            .counts(2, 1)
            .verifier(ops::shape::verify_pad)
            .parser(parse::parse_pad),
    );
    r.add(
        OpDef::new(DOT_GENERAL, pure)
            .counts(2, 1)
            .verifier(ops::dot::verify_dot_general)
            .parser(parse::parse_dot_general),
    );
    r.add(
        OpDef::new(REDUCE, pure)
            .verifier(ops::reduce::verify_reduce)
            .parser(parse::parse_reduce),
    );
    r.add(
        OpDef::new(CONVOLUTION, pure)
            .counts(2, 1)
            .verifier(ops::conv::verify_convolution)
            .parser(parse::parse_convolution),
    );
    r.add_attr_parser("stablehlo.conv", parse::parse_conv_dims_attr);
    r.add(
        OpDef::new(SELECT_AND_SCATTER, pure)
            .counts(3, 1)
            .verifier(ops::reduce::verify_select_and_scatter),
    );
    r.add(
        OpDef::new(FFT, pure)
            .counts(1, 1)
            .verifier(ops::misc::verify_fft)
            .parser(parse::parse_fft),
    );
    r.add(OpDef::new(SORT, pure).verifier(ops::misc::verify_sort));
    r.add(
        OpDef::new(REDUCE_PRECISION, pure)
            .counts(1, 1)
            .verifier(ops::elementwise::verify_reduce_precision)
            .parser(parse::parse_reduce_precision),
    );
    r.add(
        OpDef::new(TOP_K, pure)
            .counts(1, 2)
            .verifier(ops::misc::verify_top_k)
            .parser(parse::parse_top_k),
    );
    r.add(OpDef::new(MAP, pure).verifier(ops::misc::verify_map));
    r.add(
        OpDef::new(GET_DIMENSION_SIZE, pure)
            .counts(1, 1)
            .verifier(ops::misc::verify_get_dimension_size)
            .parser(parse::parse_get_dimension_size),
    );
    r.add(
        OpDef::new(COMPOSITE, Traits::NONE)
            .verifier(ops::misc::verify_composite)
            .parser(parse::parse_composite),
    );
    r.add(
        OpDef::new(TUPLE, pure)
            .verifier(ops::misc::verify_tuple)
            .parser(parse::parse_tuple),
    );
    r.add(
        OpDef::new(GET_TUPLE_ELEMENT, pure)
            .counts(1, 1)
            .verifier(ops::misc::verify_get_tuple_element)
            .parser(parse::parse_get_tuple_element),
    );
    r.add(OpDef::new(REDUCE_WINDOW, pure).verifier(ops::reduce::verify_reduce_window));
    r.add(OpDef::new(RETURN, Traits::TERMINATOR).parser(parse::parse_return));
    r.add(
        OpDef::new(OPTIMIZATION_BARRIER, Traits::NONE)
            .verifier(ops::misc::verify_optimization_barrier)
            .parser(parse::parse_optimization_barrier),
    );
    r.add(OpDef::new(CUSTOM_CALL, Traits::NONE).parser(parse::parse_custom_call));
    use ops::collective as coll;
    r.add(OpDef::new(ALL_REDUCE, Traits::NONE).verifier(coll::verify_all_reduce));
    r.add(OpDef::new(COLLECTIVE_REDUCE, Traits::NONE).verifier(coll::verify_all_reduce));
    r.add(OpDef::new(ALL_GATHER, Traits::NONE).verifier(coll::verify_all_gather));
    r.add(
        OpDef::new(REDUCE_SCATTER, Traits::NONE)
            .counts(1, 1)
            .verifier(coll::verify_reduce_scatter),
    );
    r.add(OpDef::new(ALL_TO_ALL, Traits::NONE).verifier(coll::verify_all_to_all));
    r.add(
        OpDef::new(COLLECTIVE_PERMUTE, Traits::NONE)
            .counts(1, 1)
            .verifier(coll::verify_collective_permute),
    );
    r.add(
        OpDef::new(COLLECTIVE_BROADCAST, Traits::NONE).verifier(coll::verify_collective_broadcast),
    );
    for name in [REPLICA_ID, PARTITION_ID] {
        r.add(
            OpDef::new(name, Traits::NONE)
                .counts(0, 1)
                .verifier(coll::verify_device_id)
                .parser(parse::parse_elementwise),
        );
    }
    r.add(OpDef::new(DYNAMIC_BROADCAST_IN_DIM, pure).parser(parse::parse_dynamic_broadcast_in_dim));
    for name in [
        DYNAMIC_RESHAPE,
        DYNAMIC_PAD,
        DYNAMIC_GATHER,
        DYNAMIC_CONV,
        REAL_DYNAMIC_SLICE,
    ] {
        r.add(OpDef::new(name, pure).parser(parse::parse_elementwise));
    }
    r.add(
        OpDef::new(RNG_BIT_GENERATOR, pure)
            .counts(1, 2)
            .verifier(ops::misc::verify_rng_bit_generator)
            .parser(parse::parse_rng_bit_generator),
    );
    r.add(
        OpDef::new(UNIFORM_QUANTIZE, pure)
            .counts(1, 1)
            .verifier(ops::quant::verify_uniform_quantize)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(UNIFORM_DEQUANTIZE, pure)
            .counts(1, 1)
            .verifier(ops::quant::verify_uniform_dequantize)
            .parser(parse::parse_elementwise),
    );
    // Not pure: every call draws new numbers.
    r.add(
        OpDef::new(RNG, Traits::NONE)
            .counts(3, 1)
            .verifier(ops::misc::verify_rng)
            .parser(parse::parse_rng),
    );
    r.add(
        OpDef::new(RNG_GET_AND_UPDATE_STATE, Traits::NONE)
            .counts(0, 1)
            .verifier(ops::misc::verify_rng_get_and_update_state),
    );
    r.add(
        OpDef::new(LU, pure)
            .counts(1, 3)
            .verifier(ops::linalg::verify_lu),
    );
    r.add(
        OpDef::new(RAGGED_DOT, pure)
            .counts(3, 1)
            .verifier(ops::ragged::verify_ragged_dot),
    );
    r.add(
        OpDef::new(SCAN, pure)
            .verifier(ops::scan::verify_scan)
            .parser(parse::parse_scan),
    );
    for name in [BATCH_NORM_INFERENCE, BATCH_NORM_TRAINING, BATCH_NORM_GRAD] {
        r.add(OpDef::new(name, pure).verifier(ops::norm::verify_batch_norm));
    }
    r.add(
        OpDef::new(HOUSEHOLDER_QR, pure)
            .counts(1, 2)
            .verifier(ops::decomposition::verify_householder_qr),
    );
    r.add(
        OpDef::new(HOUSEHOLDER_PRODUCT, pure)
            .counts(2, 1)
            .verifier(ops::decomposition::verify_householder_product),
    );
    r.add(
        OpDef::new(EIGH, pure)
            .counts(1, 3)
            .verifier(ops::decomposition::verify_eigh),
    );
    r.add(
        OpDef::new(SVD, pure)
            .counts(1, 4)
            .verifier(ops::decomposition::verify_svd),
    );
    r.add(
        OpDef::new(EIG, pure)
            .counts(1, 4)
            .verifier(ops::decomposition::verify_eig),
    );
    r.add(
        OpDef::new(HESSENBERG, pure)
            .counts(1, 2)
            .verifier(ops::decomposition::verify_hessenberg),
    );
    r.add(
        OpDef::new(TRIDIAGONAL, pure)
            .counts(1, 4)
            .verifier(ops::decomposition::verify_tridiagonal),
    );
    r.add(
        OpDef::new(TRIDIAGONAL_SOLVE, pure)
            .counts(4, 5)
            .verifier(ops::decomposition::verify_tridiagonal_solve),
    );
    r.add(
        OpDef::new(CHOLESKY, pure)
            .verifier(ops::linalg::verify_cholesky)
            .parser(parse::parse_cholesky),
    );
    r.add(
        OpDef::new(TRIANGULAR_SOLVE, pure)
            .counts(2, 1)
            .verifier(ops::linalg::verify_triangular_solve),
    );
    r.add(OpDef::new(DYNAMIC_IOTA, pure).parser(parse::parse_dynamic_iota));
    r.add(OpDef::new(RUN_PARALLEL, Traits::NONE).verifier(coll::verify_run_parallel));
    r.add(
        OpDef::new(AFTER_ALL, Traits::NONE)
            .verifier(coll::verify_after_all)
            .parser(parse::parse_elementwise),
    );
    for name in [SEND, RECV, INFEED, OUTFEED] {
        r.add(OpDef::new(name, Traits::NONE).verifier(coll::verify_transfer));
    }
    r.alias("interpreter.run_parallel", RUN_PARALLEL);
    r.add(OpDef::new(MESH, Traits::SYMBOL).parser(parse::parse_mesh));
    r.alias("sdy.mesh", MESH);
    r.add(OpDef::new(MANUAL_COMPUTATION, Traits::NONE).parser(parse::parse_manual_computation));
    r.alias("sdy.manual_computation", MANUAL_COMPUTATION);
    r.alias("sdy.return", RETURN);
    r.add_attr_parser("sdy.sharding", parse::parse_sharding_attr);
    r.add_attr_parser("sdy.op_sharding_rule", parse::parse_ignored_attr);
    r.add_attr_parser("sdy.sharding_per_value", parse::parse_ignored_attr);

    for &name in names::ALL {
        let suffix = &name["xla.".len()..];
        r.alias(format!("stablehlo.{suffix}"), name);
        r.alias(format!("mhlo.{suffix}"), name);
        r.alias(format!("chlo.{suffix}"), name);
    }
    // StableHLO spellings that differ from XLA's op names.
    r.alias("stablehlo.dot", DOT_GENERAL);
    // CHLO's broadcasting ops are the same ops; without broadcast_dimensions
    // they broadcast numpy-style.
    for (chlo, name) in names::CHLO_BROADCASTING {
        r.alias_with_fixup(*chlo, name, chlo_default_numpy);
    }
}

/// CHLO ops without `broadcast_dimensions` broadcast numpy-style.
fn chlo_default_numpy(ctx: &mut Context, st: &mut strata_ir::OpState) {
    if st
        .attrs
        .iter()
        .all(|(k, _)| k != "broadcast_dimensions" && k != "auto_broadcast")
    {
        let a = ctx.attr(strata_ir::AttrKind::String("numpy".into()));
        st.add_attr("auto_broadcast", a);
    }
}
