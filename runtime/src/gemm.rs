//! Matrix products for `dot_general` on f32/f64: generated code describes
//! the (batched) product with strides and calls these, which run the
//! `matrixmultiply` crate's blocked SIMD kernels on every batch.
//!
//! The product is described by a `strata_abi::GemmDesc`.

use strata_abi::{GEMM_MAX_BATCH, GemmDesc};

use crate::ffi_guard;

/// Reads a descriptor; `None` if it is null or malformed.
///
/// # Safety
/// `desc` is null or points to a `GemmDesc` written by the lowering.
unsafe fn read_desc<'a>(desc: *const GemmDesc) -> Option<&'a GemmDesc> {
    // SAFETY: guaranteed by the caller.
    let d = unsafe { desc.as_ref() }?;
    let rank_ok = usize::try_from(d.batch_rank).is_ok_and(|n| n <= GEMM_MAX_BATCH);
    rank_ok.then_some(d)
}

/// Calls `gemm(batch offsets...)` for every batch index.
fn for_each_batch(d: &GemmDesc, mut gemm: impl FnMut(isize, isize, isize)) {
    let nb = d.batch_rank as usize;
    let sizes = &d.batch_sizes[..nb];
    if sizes.iter().any(|&s| s <= 0) {
        return;
    }
    let mut idx = [0i64; GEMM_MAX_BATCH];
    loop {
        let off = |strides: &[i64; GEMM_MAX_BATCH]| {
            idx[..nb]
                .iter()
                .zip(strides)
                .map(|(i, s)| i * s)
                .sum::<i64>() as isize
        };
        gemm(
            off(&d.lhs_batch_strides),
            off(&d.rhs_batch_strides),
            off(&d.out_batch_strides),
        );
        let mut dim = nb;
        loop {
            if dim == 0 {
                return;
            }
            dim -= 1;
            idx[dim] += 1;
            if idx[dim] < sizes[dim] {
                break;
            }
            idx[dim] = 0;
        }
    }
}

macro_rules! gemm_entry {
    ($name:ident, $t:ty, $kernel:path) => {
        /// `void NAME(const GemmDesc *desc, const T *a, const T *b, T *c)`:
        /// `c = a · b` for every batch.
        ///
        /// # Safety
        /// The buffers hold the elements the descriptor addresses.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(
            desc: *const GemmDesc,
            a: *const $t,
            b: *const $t,
            c: *mut $t,
        ) {
            ffi_guard((), || {
                // SAFETY: guaranteed by the caller (generated code).
                let Some(d) = (unsafe { read_desc(desc) }) else {
                    return;
                };
                let [m, k, n, rsa, csa, rsb, csb, rsc, csc] = [
                    d.m,
                    d.k,
                    d.n,
                    d.lhs_row_stride,
                    d.lhs_col_stride,
                    d.rhs_row_stride,
                    d.rhs_col_stride,
                    d.out_row_stride,
                    d.out_col_stride,
                ]
                .map(|x| x as isize);
                if m <= 0 || n <= 0 {
                    return;
                }
                for_each_batch(d, |oa, ob, oc| {
                    // SAFETY: offsets and strides stay inside the buffers
                    // (they come from the tensors' static shapes).
                    unsafe {
                        $kernel(
                            m as usize,
                            k.max(0) as usize,
                            n as usize,
                            1.0,
                            a.offset(oa),
                            rsa,
                            csa,
                            b.offset(ob),
                            rsb,
                            csb,
                            0.0,
                            c.offset(oc),
                            rsc,
                            csc,
                        )
                    }
                });
            })
        }
    };
}

gemm_entry!(strata_rt_gemm_f32, f32, matrixmultiply::sgemm);
gemm_entry!(strata_rt_gemm_f64, f64, matrixmultiply::dgemm);

#[cfg(test)]
mod tests {
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
}
