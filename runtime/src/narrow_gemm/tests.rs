//! Every path (each kernel this CPU runs, and the converted fallback)
//! against a naive product, over shapes that exercise every edge of the
//! blocking: partial tiles, odd k, k beyond one block, transposed and
//! strided operands, a strided result, batches, threads, and A read in
//! place.

use strata_abi::GemmDesc;

use super::*;

/// A small deterministic generator.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
}

/// bf16 bits of a value in [-2, 2).
fn bf16_of(r: &mut Lcg) -> u16 {
    let x = (r.next() % 4096) as f32 / 1024.0 - 2.0;
    (x.to_bits() >> 16) as u16
}

fn widen(x: u16) -> f64 {
    crate::float::bf16_to_f32(x) as f64
}

/// One case: `batches` products of m x k by k x n; the lhs transposed
/// (stored k x m) when `lt`, the rhs when `rt` (stored n x k), the result
/// transposed when `ot`.
#[derive(Clone, Copy, Debug)]
struct Case {
    batches: i64,
    m: i64,
    k: i64,
    n: i64,
    lt: bool,
    rt: bool,
    ot: bool,
}

impl Case {
    fn desc(&self) -> GemmDesc {
        let Case {
            batches,
            m,
            k,
            n,
            lt,
            rt,
            ot,
        } = *self;
        let (lr, lc) = if lt { (1, m) } else { (k, 1) };
        let (rr, rc) = if rt { (1, k) } else { (n, 1) };
        let (or, oc) = if ot { (1, m) } else { (n, 1) };
        let mut d = GemmDesc {
            batch_rank: 1,
            m,
            k,
            n,
            lhs_row_stride: lr,
            lhs_col_stride: lc,
            rhs_row_stride: rr,
            rhs_col_stride: rc,
            out_row_stride: or,
            out_col_stride: oc,
            ..GemmDesc::default()
        };
        d.batch_sizes[0] = batches;
        d.lhs_batch_strides[0] = m * k;
        d.rhs_batch_strides[0] = k * n;
        d.out_batch_strides[0] = m * n;
        d
    }

    /// The reference product of element `(b, i, j)` from `at(buffer, index)`.
    fn each(&self, mut f: impl FnMut(usize, usize, usize)) {
        let d = self.desc();
        for b in 0..self.batches {
            for i in 0..self.m {
                for j in 0..self.n {
                    for q in 0..self.k {
                        let ai = b * d.lhs_batch_strides[0]
                            + i * d.lhs_row_stride
                            + q * d.lhs_col_stride;
                        let bi = b * d.rhs_batch_strides[0]
                            + q * d.rhs_row_stride
                            + j * d.rhs_col_stride;
                        let ci = b * d.out_batch_strides[0]
                            + i * d.out_row_stride
                            + j * d.out_col_stride;
                        f(ai as usize, bi as usize, ci as usize);
                    }
                }
            }
        }
    }
}

fn cases() -> Vec<Case> {
    let c = |batches, m, k, n, lt, rt, ot| Case {
        batches,
        m,
        k,
        n,
        lt,
        rt,
        ot,
    };
    vec![
        c(1, 1, 1, 1, false, false, false),
        c(1, 8, 32, 32, false, false, false),
        c(1, 13, 7, 45, false, false, false),
        c(1, 1, 768, 300, false, false, false),
        c(1, 300, 33, 1, false, false, false),
        c(1, 70, 1000, 70, false, false, false),
        c(1, 37, 401, 2100, false, false, false),
        c(1, 19, 45, 77, true, false, false),
        c(1, 19, 45, 77, false, true, false),
        c(1, 19, 46, 77, true, true, true),
        c(1, 9, 390, 40, false, true, true),
        c(3, 17, 9, 33, false, false, false),
        c(1, 5, 0, 6, false, false, false),
        // bf16 with K even reads A in place (whole strips; the partial
        // last strip packed), in both loop orders (over 256 rows: the
        // other), batched, into a strided result.
        c(2, 260, 64, 40, false, false, false),
        c(1, 30, 64, 70, false, true, true),
    ]
}

/// Runs `f` with the pool's threads (the product then splits).
fn with_threads(f: impl FnOnce() + Send) {
    crate::pool::install(|_| f());
}

#[test]
fn bf16_products_match_the_naive_product() {
    let mut r = Lcg(7);
    for case in cases() {
        let d = case.desc();
        let len = |x: i64| (case.batches * x) as usize;
        let a: Vec<u16> = (0..len(case.m * case.k)).map(|_| bf16_of(&mut r)).collect();
        let b: Vec<u16> = (0..len(case.k * case.n)).map(|_| bf16_of(&mut r)).collect();
        let mut want = vec![0f64; len(case.m * case.n)];
        case.each(|ai, bi, ci| want[ci] += widen(a[ai]) * widen(b[bi]));
        let mut paths: Vec<(&str, Vec<f32>)> = vec![];
        let mut conv = vec![f32::NAN; want.len()];
        // SAFETY: the buffers hold what the descriptor addresses.
        with_threads(|| unsafe { fallback::bf16(&d, a.as_ptr(), b.as_ptr(), conv.as_mut_ptr()) });
        paths.push(("converted", conv));
        for (name, run) in kernels_bf16() {
            let mut native_out = vec![f32::NAN; want.len()];
            let c = native_out.as_mut_ptr() as usize;
            // SAFETY: as above; the CPU runs the kernel.
            with_threads(|| unsafe { native(&d, a.as_ptr(), b.as_ptr(), c as *mut u32, run) });
            paths.push((name, native_out));
        }
        for (path, got) in paths {
            for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
                let tol = 1e-5 * (case.k as f64 + 1.0) * 4.0;
                assert!(
                    (g as f64 - w).abs() <= tol,
                    "{path} {case:?} [{i}]: {g} vs {w}"
                );
            }
        }
    }
}

#[test]
fn s8_products_match_the_naive_product_exactly() {
    let mut r = Lcg(11);
    for case in cases() {
        let d = case.desc();
        let len = |x: i64| (case.batches * x) as usize;
        let a: Vec<i8> = (0..len(case.m * case.k)).map(|_| r.next() as i8).collect();
        let b: Vec<i8> = (0..len(case.k * case.n)).map(|_| r.next() as i8).collect();
        let mut want = vec![0i32; len(case.m * case.n)];
        case.each(|ai, bi, ci| want[ci] = want[ci].wrapping_add(a[ai] as i32 * b[bi] as i32));
        let mut conv = vec![i32::MIN; want.len()];
        // SAFETY: the buffers hold what the descriptor addresses.
        with_threads(|| unsafe { fallback::s8(&d, a.as_ptr(), b.as_ptr(), conv.as_mut_ptr()) });
        assert_eq!(conv, want, "converted {case:?}");
        for (name, run) in kernels_s8() {
            let mut got = vec![i32::MIN; want.len()];
            let c = got.as_mut_ptr() as usize;
            // SAFETY: as above; the CPU runs the kernel.
            with_threads(|| unsafe { native(&d, a.as_ptr(), b.as_ptr(), c as *mut u32, run) });
            assert_eq!(got, want, "{name} {case:?}");
        }
    }
}

#[test]
fn extreme_i8_values_wrap_as_i32_sums_do() {
    // -128 · -128 summed 2^17 + 1 times passes 2^31.
    let k = (1 << 17) + 1;
    let case = Case {
        batches: 1,
        m: 2,
        k,
        n: 3,
        lt: false,
        rt: false,
        ot: false,
    };
    let d = case.desc();
    let a = vec![-128i8; (2 * k) as usize];
    let b = vec![-128i8; (3 * k) as usize];
    let want = (0..k).fold(0i32, |s, _| s.wrapping_add(16384));
    let mut got = vec![0i32; 6];
    // SAFETY: the buffers hold what the descriptor addresses.
    unsafe { fallback::s8(&d, a.as_ptr(), b.as_ptr(), got.as_mut_ptr()) };
    assert!(
        got.iter().all(|&g| g == want),
        "converted: {got:?} vs {want}"
    );
    for (name, run) in kernels_s8() {
        let mut got = vec![0i32; 6];
        // SAFETY: as above; the CPU runs the kernel.
        unsafe {
            native(
                &d,
                a.as_ptr(),
                b.as_ptr(),
                got.as_mut_ptr() as *mut u32,
                run,
            )
        };
        assert!(got.iter().all(|&g| g == want), "{name}: {got:?} vs {want}");
    }
}

/// The bf16 kernels this CPU runs (none off x86-64).
fn kernels_bf16() -> Vec<(&'static str, Runner<u16>)> {
    #[cfg(target_arch = "x86_64")]
    return x86::bf16_kernels().collect();
    #[cfg(not(target_arch = "x86_64"))]
    vec![]
}

/// The i8 kernels this CPU runs (none off x86-64).
fn kernels_s8() -> Vec<(&'static str, Runner<i8>)> {
    #[cfg(target_arch = "x86_64")]
    return x86::s8_kernels().collect();
    #[cfg(not(target_arch = "x86_64"))]
    vec![]
}

/// The kernels this machine has are the ones tested: on a CPU with
/// AVX512-VNNI every i8 kernel runs above (the AVX-512 one first).
#[test]
#[cfg(target_arch = "x86_64")]
fn every_kernel_the_cpu_has_is_listed() {
    let names: Vec<_> = kernels_s8().into_iter().map(|(n, _)| n).collect();
    if std::arch::is_x86_feature_detected!("avx2") {
        assert_eq!(names.last(), Some(&"avx2"), "{names:?}");
    }
    if std::arch::is_x86_feature_detected!("avx512vnni") {
        assert_eq!(names.first(), Some(&"avx512vnni"), "{names:?}");
    }
}
