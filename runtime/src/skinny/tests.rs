use super::*;

/// Deterministic values in [-1, 1).
fn values(len: usize, seed: u64) -> Vec<f32> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..len)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

/// Runs one product with padded strides on `kernel` (or through
/// `try_product` on `threads` when `kernel` is None) and checks it against
/// a sum in f64, and that the padding of c is untouched. With `shift`, the
/// rhs's rows are a multiple of 64 bytes apart and start `shift` elements
/// past a 64-byte boundary (every row equally off vector alignment).
fn check(kernel: Option<Kernel>, [m, k, n]: [usize; 3], transposed: bool, threads: usize) {
    check_shifted(kernel, [m, k, n], transposed, threads, None)
}

fn check_shifted(
    kernel: Option<Kernel>,
    [m, k, n]: [usize; 3],
    transposed: bool,
    threads: usize,
    shift: Option<usize>,
) {
    let (rsa, csa) = if transposed {
        (k as isize + 3, 1)
    } else {
        (1, m as isize + 2)
    };
    let a = values(m * (k + 3) + k * (m + 2), 1);
    let row = if transposed { k } else { n };
    let b_stride = match shift {
        Some(_) => row.next_multiple_of(16) + 16,
        None => row + if transposed { 5 } else { 7 },
    };
    let b_rows = if transposed { n } else { k };
    let storage = values(b_rows * b_stride + 32, 2);
    let b = match shift {
        Some(shift) => &storage[storage.as_ptr().align_offset(64) + shift..],
        None => &storage[..],
    };
    let c_stride = n + 2;
    let mut c = vec![f32::NAN; m * c_stride];
    let b_layout = if transposed {
        Layout::Transposed {
            stride: b_stride as isize,
        }
    } else {
        Layout::RowMajor {
            stride: b_stride as isize,
        }
    };
    let p = Product {
        m,
        k,
        n,
        a: a.as_ptr(),
        a_strides: [rsa, csa],
        b: b.as_ptr(),
        b_layout,
        c: c.as_mut_ptr(),
        c_stride: c_stride as isize,
    };
    match kernel {
        // SAFETY: the buffers hold the strided matrices.
        Some(kernel) => unsafe { kernel.run(&p) },
        None => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            // SAFETY: as above.
            let ran = pool.install(|| unsafe { try_product(p, threads) });
            assert!(ran, "declined {m}x{k}x{n} transposed={transposed}");
        }
    }
    for i in 0..m {
        for j in 0..c_stride {
            let got = c[i * c_stride + j];
            if j >= n {
                assert!(got.is_nan(), "padding written at ({i}, {j})");
                continue;
            }
            let want: f64 = (0..k)
                .map(|l| {
                    let x = a[(i as isize * rsa + l as isize * csa) as usize] as f64;
                    let y = if transposed {
                        b[j * b_stride + l]
                    } else {
                        b[l * b_stride + j]
                    };
                    x * y as f64
                })
                .sum();
            let tol = 1e-5 * (k as f64).sqrt().max(1.0);
            assert!(
                (got as f64 - want).abs() <= tol,
                "{kernel:?} {m}x{k}x{n} transposed={transposed}: ({i}, {j}) {got} != {want}"
            );
        }
    }
}

#[test]
fn every_kernel_matches_a_wide_sum() {
    for &kernel in Kernel::available() {
        for transposed in [false, true] {
            for m in 1..=MAX_ROWS {
                for n in [1, 3, 4, 5, 16, 17, 63, 64, 65, 130] {
                    for k in [1, 7, 8, 16, 17, 100] {
                        check(Some(kernel), [m, k, n], transposed, 1);
                    }
                }
            }
        }
    }
}

/// Rhs rows off vector alignment by every amount: the row-major kernel's
/// first block starts with a short vector, its block of c laid out to
/// match; every column still lands in its place.
#[test]
fn rhs_rows_off_vector_alignment_by_any_amount() {
    for &kernel in Kernel::available() {
        for transposed in [false, true] {
            for shift in 0..16 {
                for [m, k, n] in [
                    [1, 40, 100],
                    [3, 17, 64],
                    [4, 100, 9],
                    [2, 5, 3],
                    [3, 9, 3000],
                ] {
                    check_shifted(Some(kernel), [m, k, n], transposed, 1, Some(shift));
                }
            }
        }
    }
    for transposed in [false, true] {
        check_shifted(None, [2, 300, 1000], transposed, 2, Some(5));
    }
}

#[test]
// The kernels are x86's; the CPUs the suite runs on have AVX2 at least.
#[cfg(target_arch = "x86_64")]
fn threads_share_the_columns() {
    for transposed in [false, true] {
        for [m, k, n] in [[1, 300, 1000], [3, 513, 777], [3, 64, 4099], [2, 1024, 130]] {
            check(None, [m, k, n], transposed, 2);
            check(None, [m, k, n], transposed, 3);
        }
    }
    check(None, [MAX_ROWS, 100, 999], true, 2);
}

#[test]
fn declines_what_it_has_no_kernel_for() {
    let a = [1.0f32; 64];
    let b = [1.0f32; 64];
    let mut c = [0.0f32; (MAX_ROWS + 1) * MIN_COLUMNS];
    let c = c.as_mut_ptr();
    // Wide enough for the kernels: each case declines for the reason given.
    let p = |m, a_strides, b_layout| Product {
        m,
        k: 2,
        n: MIN_COLUMNS,
        a: a.as_ptr(),
        a_strides,
        b: b.as_ptr(),
        b_layout,
        c,
        c_stride: MIN_COLUMNS as isize,
    };
    // SAFETY: every product declined writes nothing.
    unsafe {
        assert!(!try_product(
            p(MAX_ROWS + 1, [2, 1], Layout::Transposed { stride: 2 }),
            1
        ));
        assert!(!try_product(
            p(
                4,
                [2, 1],
                Layout::RowMajor {
                    stride: MIN_COLUMNS as isize
                }
            ),
            1
        ));
        // A transposed rhs needs contiguous lhs rows.
        assert!(!try_product(
            p(2, [1, 2], Layout::Transposed { stride: 2 }),
            1
        ));
    }
}

/// One product of few columns with padded strides, c's columns contiguous
/// (`columns_contiguous`: written in place) or not (through the scratch
/// matrix), against a sum in f64; c's padding stays untouched.
fn check_few_columns([m, k, n]: [usize; 3], columns_contiguous: bool, threads: usize) {
    let rsa = k as isize + 3;
    let a = values(m * (k + 3), 3);
    // The rhs transposed in memory (a weight stored out x in) with padding.
    let (rsb, csb) = (1, k as isize + 2);
    let b = values(n * (k + 2), 4);
    let (rsc, csc) = match columns_contiguous {
        true => (1, m as isize + 5),
        false => (n as isize + 1, 1),
    };
    let len = (m - 1) * rsc as usize + (n - 1) * csc as usize + 1;
    let mut c = vec![f32::NAN; len + 8];
    // SAFETY: the strides address m x k, k x n and m x n matrices inside the buffers.
    let ran = unsafe {
        try_few_columns(
            [m, k, n],
            a.as_ptr(),
            [rsa, 1],
            b.as_ptr(),
            [rsb, csb],
            c.as_mut_ptr(),
            [rsc, csc],
            threads,
        )
    };
    if Kernel::available().is_empty() {
        assert!(!ran, "no kernel for this CPU, yet the product ran");
        return;
    }
    assert!(ran, "m {m} k {k} n {n}");
    let mut written = vec![false; c.len()];
    for i in 0..m {
        for j in 0..n {
            let want: f64 = (0..k)
                .map(|l| {
                    a[i * rsa as usize + l] as f64 * b[l * rsb as usize + j * csb as usize] as f64
                })
                .sum();
            let at = i * rsc as usize + j * csc as usize;
            written[at] = true;
            assert!(
                (c[at] as f64 - want).abs() <= 1e-4 * (1.0 + want.abs()),
                "m {m} k {k} n {n} ({i}, {j})"
            );
        }
    }
    assert!(c.iter().zip(&written).all(|(x, &w)| w || x.is_nan()));
}

#[test]
fn few_columns_match_a_sum_in_f64() {
    for n in 1..=FEW_COLUMNS_MAX {
        for (m, k) in [(32, 1), (33, 17), (128, 288), (1000, 7)] {
            for contiguous in [true, false] {
                check_few_columns([m, k, n], contiguous, 1);
                check_few_columns([m, k, n], contiguous, 2);
            }
        }
    }
}

#[test]
fn few_columns_decline_what_they_do_not_take() {
    let a = [0f32; 64 * 4];
    let mut c = [0f32; 64 * 8];
    // SAFETY: every product declined writes nothing.
    unsafe {
        // Too many columns, too few rows, a's rows not contiguous.
        for ([m, k, n], csa) in [
            ([64, 4, FEW_COLUMNS_MAX + 1], 1),
            ([8, 4, 2], 1),
            ([64, 2, 2], 2),
        ] {
            assert!(!try_few_columns(
                [m, k, n],
                a.as_ptr(),
                [4, csa],
                a.as_ptr(),
                [8, 1],
                c.as_mut_ptr(),
                [8, 1],
                1
            ));
        }
    }
}
