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

/// An `m x k x n` product's operands (`a_transposed`: a stored k x m;
/// `b_transposed`: b stored n x k; values from seeds `seed` and
/// `seed + 1`) and c as [`product`] wrote it, its rows padded by 3 (NaN).
struct Multiplied {
    a: Vec<f32>,
    a_strides: [usize; 2],
    b: Vec<f32>,
    b_strides: [usize; 2],
    c: Vec<f32>,
    rsc: usize,
}

impl Multiplied {
    fn new([m, k, n]: [usize; 3], a_transposed: bool, b_transposed: bool, seed: usize) -> Self {
        assert!(kernel_runs_here(), "this x86-64 CPU lacks AVX2 or FMA");
        let (a, b) = (values(m * k, seed), values(k * n, seed + 1));
        let a_strides = if a_transposed { [1, m] } else { [k, 1] };
        let b_strides = if b_transposed { [1, k] } else { [n, 1] };
        let rsc = n + 3;
        let mut c = vec![f32::NAN; m * rsc];
        let signed = |[r, c]: [usize; 2]| [r as isize, c as isize];
        // SAFETY: the matrices have these sizes and strides; the CPU has the
        // instructions (asserted).
        unsafe {
            product(
                [m, k, n],
                a.as_ptr(),
                signed(a_strides),
                b.as_ptr(),
                signed(b_strides),
                c.as_mut_ptr(),
                rsc,
            )
        };
        Multiplied {
            a,
            a_strides,
            b,
            b_strides,
            c,
            rsc,
        }
    }

    fn a(&self, i: usize, p: usize) -> f32 {
        self.a[i * self.a_strides[0] + p * self.a_strides[1]]
    }

    fn b(&self, p: usize, j: usize) -> f32 {
        self.b[p * self.b_strides[0] + j * self.b_strides[1]]
    }

    fn c(&self, i: usize, j: usize) -> f32 {
        self.c[i * self.rsc + j]
    }
}

/// Multiplies with the given layouts and compares with an f64 sum; the
/// padding of c's rows stays untouched.
fn check([m, k, n]: [usize; 3], a_transposed: bool, b_transposed: bool) {
    let product = Multiplied::new([m, k, n], a_transposed, b_transposed, 1);
    for i in 0..m {
        for j in 0..n {
            let want: f64 = (0..k)
                .map(|p| product.a(i, p) as f64 * product.b(p, j) as f64)
                .sum();
            let got = product.c(i, j) as f64;
            assert!(
                (got - want).abs() <= 1e-5 * (k as f64).sqrt() * 4.0,
                "{m}x{k}x{n} c[{i}][{j}] = {got}, want {want}"
            );
        }
        assert!(
            product.c(i, n).is_nan(),
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
        let product = Multiplied::new([m, k, n], a_transposed, false, 3);
        for i in 0..m {
            for j in 0..n {
                let chain =
                    (0..k).fold(0f32, |sum, p| product.a(i, p).mul_add(product.b(p, j), sum));
                assert_eq!(
                    product.c(i, j).to_bits(),
                    chain.to_bits(),
                    "{m}x{k}x{n} c[{i}][{j}]"
                );
            }
        }
    }
}
