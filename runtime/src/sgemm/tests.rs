use super::*;

/// The kernel needs AVX2 and FMA whatever [`available`] decides (which also
/// asks for no AVX-512), so the tests run it on every x86-64 CPU with them.
fn kernel_runs_here() -> bool {
    use std::arch::is_x86_feature_detected as has;
    has!("avx2") && has!("fma")
}

fn values(len: usize, seed: usize) -> Vec<f32> {
    (0..len)
        .map(|i| ((i * 7919 + seed * 104729) % 2003) as f32 / 1001.0 - 1.0)
        .collect()
}

/// Multiplies with the given layouts (`a_transposed`: a stored k x m;
/// `b_transposed`: b stored n x k; c rows padded by 3) and compares with
/// an f64 sum.
fn check([m, k, n]: [usize; 3], a_transposed: bool, b_transposed: bool) {
    assert!(kernel_runs_here(), "this x86-64 CPU lacks AVX2 or FMA");
    let (a, b) = (values(m * k, 1), values(k * n, 2));
    let a_strides = if a_transposed {
        [1, m as isize]
    } else {
        [k as isize, 1]
    };
    let b_strides = if b_transposed {
        [1, k as isize]
    } else {
        [n as isize, 1]
    };
    let rsc = n + 3;
    let mut c = vec![f32::NAN; m * rsc];
    // SAFETY: the matrices have these sizes and strides; the CPU has the
    // instructions (asserted).
    unsafe {
        product(
            [m, k, n],
            a.as_ptr(),
            a_strides,
            b.as_ptr(),
            b_strides,
            c.as_mut_ptr(),
            rsc,
        )
    };
    let at = |i: usize, p: usize| a[i * a_strides[0] as usize + p * a_strides[1] as usize] as f64;
    let bt = |p: usize, j: usize| b[p * b_strides[0] as usize + j * b_strides[1] as usize] as f64;
    for i in 0..m {
        for j in 0..n {
            let want: f64 = (0..k).map(|p| at(i, p) * bt(p, j)).sum();
            let got = c[i * rsc + j] as f64;
            assert!(
                (got - want).abs() <= 1e-5 * (k as f64).sqrt() * 4.0,
                "{m}x{k}x{n} c[{i}][{j}] = {got}, want {want}"
            );
        }
        assert!(
            c[i * rsc + n].is_nan(),
            "the padding of row {i} was written"
        );
    }
}

#[test]
fn whole_tiles_match_the_f64_product() {
    check([12, 256, 32], false, false);
}

#[test]
fn edge_tiles_and_several_depth_blocks_match() {
    // 131 rows: lhs blocks of unequal height with a 5-row edge panel; 700
    // deep: three depth blocks (accumulated); 37 columns: a 5-column edge.
    check([131, 700, 37], false, false);
}

#[test]
fn more_columns_than_one_rhs_block_match() {
    check([7, 300, NC + 40], false, false);
}

#[test]
fn transposed_operands_match() {
    check([50, 260, 70], true, false);
    check([50, 260, 70], false, true);
    check([50, 260, 70], true, true);
}

#[test]
fn shallow_products_and_tall_blocks_match() {
    // 3 and 129 deep; 250 rows: blocks of 84, 84 and 82 rows, the last
    // with a 4-row panel packed beside rows read in place.
    check([250, 3, 40], false, false);
    check([250, 129, 33], false, false);
}

#[test]
fn thin_products_are_not_taken() {
    assert_eq!(takes([6, 1, 16], [16, 1]), available());
    assert!(!takes([6, 0, 16], [16, 1]));
    assert!(!takes([5, 1024, 16], [16, 1]));
    assert!(!takes([6, 1024, 15], [15, 1]));
    assert!(!takes([64, 1024, 64], [1, 64]));
    assert!(!takes([64, 1024, 64], [-64, 1]));
}

/// Whatever the blocking (several depth blocks, edge rows and columns, a
/// transposed lhs), each element is the one chain of FMAs in the order of
/// k, bit for bit: results do not depend on block sizes (see
/// `avx2::start`).
#[test]
fn every_element_is_the_sequential_chain_of_fmas() {
    for (m, k, n, a_transposed) in [
        (130, 784, 509, false),
        (784, 300, 40, true),
        (12, 1030, 35, false),
    ] {
        let (a, b) = (values(m * k, 3), values(k * n, 4));
        let a_strides = if a_transposed {
            [1, m as isize]
        } else {
            [k as isize, 1]
        };
        let mut c = vec![0f32; m * n];
        assert!(kernel_runs_here(), "this x86-64 CPU lacks AVX2 or FMA");
        // SAFETY: the matrices have these sizes and strides; the CPU has the
        // instructions (asserted).
        unsafe {
            product(
                [m, k, n],
                a.as_ptr(),
                a_strides,
                b.as_ptr(),
                [n as isize, 1],
                c.as_mut_ptr(),
                n,
            )
        };
        let at = |i: usize, p: usize| a[i * a_strides[0] as usize + p * a_strides[1] as usize];
        for i in 0..m {
            for j in 0..n {
                let chain = (0..k).fold(0f32, |sum, p| at(i, p).mul_add(b[p * n + j], sum));
                assert_eq!(
                    c[i * n + j].to_bits(),
                    chain.to_bits(),
                    "{m}x{k}x{n} c[{i}][{j}]"
                );
            }
        }
    }
}
