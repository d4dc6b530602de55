use super::*;

#[test]
fn batched_product_with_transposed_rhs() {
    // 2 batches of (2x3) · (3x2)ᵀ-stored rhs: rhs is [batch][n][k].
    let a: Vec<f32> = (0..12).map(|x| x as f32).collect();
    let b: Vec<f32> = (0..12).map(|x| (x as f32) * 0.5).collect();
    let mut c = vec![0f32; 8];
    // m=2 k=3 n=2; a: rsa=3 csa=1; b stored [n][k]: rsb(k)=1, csb(n)=3; c: rsc=2 csc=1.
    let mut desc = GemmDesc {
        batch_rank: 1,
        m: 2,
        k: 3,
        n: 2,
        lhs_row_stride: 3,
        lhs_col_stride: 1,
        rhs_row_stride: 1,
        rhs_col_stride: 3,
        out_row_stride: 2,
        out_col_stride: 1,
        ..GemmDesc::default()
    };
    desc.batch_sizes[0] = 2;
    desc.lhs_batch_strides[0] = 6;
    desc.rhs_batch_strides[0] = 6;
    desc.out_batch_strides[0] = 4;
    unsafe { strata_rt_gemm_f32(&desc, a.as_ptr(), b.as_ptr(), c.as_mut_ptr()) };
    let mut want = vec![0f32; 8];
    for bt in 0..2 {
        for i in 0..2 {
            for j in 0..2 {
                want[bt * 4 + i * 2 + j] = (0..3)
                    .map(|kk| a[bt * 6 + i * 3 + kk] * b[bt * 6 + j * 3 + kk])
                    .sum();
            }
        }
    }
    assert_eq!(c, want);
}

/// Matrix-vector products large enough for the pool are split into
/// slices; each slice must land in its own rows or columns.
#[test]
fn thin_products_in_parallel_match_the_naive_product() {
    let k = 300usize;
    for (m, n) in [(1usize, 1001usize), (997, 1)] {
        let a: Vec<f64> = (0..m * k).map(|x| ((x * 7) % 13) as f64 - 6.0).collect();
        let b: Vec<f64> = (0..k * n).map(|x| ((x * 5) % 11) as f64 - 5.0).collect();
        let mut c = vec![f64::NAN; m * n];
        // b stored transposed ([n][k]) to take gemm's other GEMV path.
        let desc = GemmDesc {
            m: m as i64,
            k: k as i64,
            n: n as i64,
            lhs_row_stride: k as i64,
            lhs_col_stride: 1,
            rhs_row_stride: 1,
            rhs_col_stride: k as i64,
            out_row_stride: n as i64,
            out_col_stride: 1,
            ..GemmDesc::default()
        };
        assert!(m * k * n >= PARALLEL_MIN_FLOPS);
        assert_eq!(crate::pool::strata_rt_set_num_threads(3), 0);
        unsafe { strata_rt_gemm_f64(&desc, a.as_ptr(), b.as_ptr(), c.as_mut_ptr()) };
        for i in 0..m {
            for j in 0..n {
                let want: f64 = (0..k).map(|kk| a[i * k + kk] * b[j * k + kk]).sum();
                assert_eq!(c[i * n + j], want, "({m}x{n}) at ({i}, {j})");
            }
        }
    }
}

/// Multiplies small integers (a's elements `(x * 7) % 13 - 6`, b's
/// `(x * 5) % 11 - 5`, in storage order) through `strata_rt_gemm_f32` on
/// `threads` threads, with the given strides and c's rows `rsc` apart;
/// every element must equal the naive sum (exact in f32) and c's padding
/// stay untouched.
fn check_exact_f32(
    [m, k, n]: [usize; 3],
    [rsa, csa]: [usize; 2],
    [rsb, csb]: [usize; 2],
    rsc: usize,
    threads: i32,
) {
    let a: Vec<f32> = (0..m * k).map(|x| ((x * 7) % 13) as f32 - 6.0).collect();
    let b: Vec<f32> = (0..k * n).map(|x| ((x * 5) % 11) as f32 - 5.0).collect();
    let mut c = vec![f32::NAN; m * rsc];
    let desc = GemmDesc {
        m: m as i64,
        k: k as i64,
        n: n as i64,
        lhs_row_stride: rsa as i64,
        lhs_col_stride: csa as i64,
        rhs_row_stride: rsb as i64,
        rhs_col_stride: csb as i64,
        out_row_stride: rsc as i64,
        out_col_stride: 1,
        ..GemmDesc::default()
    };
    assert_eq!(crate::pool::strata_rt_set_num_threads(threads), 0);
    unsafe { strata_rt_gemm_f32(&desc, a.as_ptr(), b.as_ptr(), c.as_mut_ptr()) };
    let layout = format!("{m}x{k}x{n} (a {rsa},{csa}; b {rsb},{csb}; {threads} threads)");
    for i in 0..m {
        for j in 0..n {
            let want: f32 = (0..k)
                .map(|p| a[i * rsa + p * csa] * b[p * rsb + j * csb])
                .sum();
            assert_eq!(c[i * rsc + j], want, "{layout} at ({i}, {j})");
        }
        assert!(c[i * rsc + n..(i + 1) * rsc].iter().all(|x| x.is_nan()));
    }
}

/// Products with a transposed rhs go through blocks re-laid-out in
/// registers: every block, edge and thread count lands in its place; c's
/// rows padded (out_row_stride > n): the padding stays untouched.
#[test]
fn transposed_rhs_products_match_the_naive_product() {
    for (m, k, n, threads) in [
        (2, 3, 32, 1),
        (37, 70, 333, 1),
        (64, 256, 1000, 3),
        (5, 3000, 129, 2),
    ] {
        check_exact_f32([m, k, n], [k, 1], [1, k], n + 2, threads);
    }
}

/// Wide products on the pool are cut into slices of columns, the last
/// one narrower: every slice lands in its own columns, c's padding is
/// left alone, whatever the number of threads.
#[test]
fn column_slices_match_the_naive_product() {
    for (m, k, n, threads) in [
        (37usize, 50usize, 1000usize, 3usize),
        (9, 128, 300, 2),
        (20, 100, 384, 2),
    ] {
        assert!(m * k * n >= PARALLEL_MIN_FLOPS && n >= 2 * threads * COLUMN_SLICE_MULTIPLE);
        check_exact_f32([m, k, n], [k, 1], [n, 1], n + 3, threads as i32);
    }
}

/// The products of an MLP's training step (784-512-512-10, batch 128),
/// each operand plain or transposed, on one thread and on the pool.
#[test]
fn training_step_products_match_the_naive_product() {
    for (m, k, n) in [
        (128, 784, 512),
        (784, 128, 512),
        (128, 10, 512),
        (512, 128, 10),
        (10, 128, 512),
        (512, 128, 784),
        (512, 128, 512),
    ] {
        for (a_transposed, b_transposed, threads) in [
            (false, false, 1),
            (true, false, 2),
            (false, true, 2),
            (true, true, 1),
            (false, false, 2),
        ] {
            let a_strides = if a_transposed { [1, m] } else { [k, 1] };
            let b_strides = if b_transposed { [1, k] } else { [n, 1] };
            check_exact_f32([m, k, n], a_strides, b_strides, n, threads);
        }
    }
}

/// Enough batches and work for the pool: the batches run side by side
/// (one product per thread), each must still land in its own place.
#[test]
fn batches_in_parallel_match_the_naive_product() {
    let (batches, m, k, n) = (6usize, 48usize, 40usize, 56usize);
    let a: Vec<f64> = (0..batches * m * k)
        .map(|x| ((x * 7) % 13) as f64 - 6.0)
        .collect();
    let b: Vec<f64> = (0..batches * k * n)
        .map(|x| ((x * 5) % 11) as f64 - 5.0)
        .collect();
    let mut c = vec![0f64; batches * m * n];
    let mut desc = GemmDesc {
        batch_rank: 1,
        m: m as i64,
        k: k as i64,
        n: n as i64,
        lhs_row_stride: k as i64,
        lhs_col_stride: 1,
        rhs_row_stride: n as i64,
        rhs_col_stride: 1,
        out_row_stride: n as i64,
        out_col_stride: 1,
        ..GemmDesc::default()
    };
    desc.batch_sizes[0] = batches as i64;
    desc.lhs_batch_strides[0] = (m * k) as i64;
    desc.rhs_batch_strides[0] = (k * n) as i64;
    desc.out_batch_strides[0] = (m * n) as i64;
    assert!(batches * m * k * n >= PARALLEL_MIN_FLOPS);
    // Three threads: more than this machine may have, still correct.
    assert_eq!(crate::pool::strata_rt_set_num_threads(3), 0);
    unsafe { strata_rt_gemm_f64(&desc, a.as_ptr(), b.as_ptr(), c.as_mut_ptr()) };
    for bt in 0..batches {
        for i in 0..m {
            for j in 0..n {
                let want: f64 = (0..k)
                    .map(|kk| a[bt * m * k + i * k + kk] * b[bt * k * n + kk * n + j])
                    .sum();
                assert_eq!(c[bt * m * n + i * n + j], want, "batch {bt} ({i}, {j})");
            }
        }
    }
}
