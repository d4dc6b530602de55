//! Matrix products for `dot_general` on f32/f64: generated code describes
//! the (batched) product with strides and calls these, which run the
//! `matrixmultiply` crate's blocked SIMD kernels on every batch.
//!
//! Descriptor layout (i64 elements), as written by the lowering:
//! `[nb, size_0.., lhs_stride_0.., rhs_stride_0.., out_stride_0..,
//!   m, k, n, rsa, csa, rsb, csb, rsc, csc]` where the four middle groups
//! have `nb` entries (one per batch dimension) and all strides count
//! elements.

use crate::ffi_guard;

struct Desc {
    sizes: Vec<i64>,
    lhs: Vec<i64>,
    rhs: Vec<i64>,
    out: Vec<i64>,
    /// m, k, n, rsa, csa, rsb, csb, rsc, csc
    mat: [i64; 9],
}

/// Reads a descriptor; `None` if it is malformed.
///
/// # Safety
/// `desc` points to a descriptor written by the lowering.
unsafe fn read_desc(desc: *const i64) -> Option<Desc> {
    if desc.is_null() {
        return None;
    }
    // SAFETY: the first entry is the batch rank; the rest follows it.
    unsafe {
        let nb = usize::try_from(*desc).ok().filter(|&n| n <= 64)?;
        let take = |from: usize, n: usize| {
            (from..from + n)
                .map(|i| *desc.add(1 + i))
                .collect::<Vec<i64>>()
        };
        let mut mat = [0i64; 9];
        for (i, m) in mat.iter_mut().enumerate() {
            *m = *desc.add(1 + 4 * nb + i);
        }
        Some(Desc {
            sizes: take(0, nb),
            lhs: take(nb, nb),
            rhs: take(2 * nb, nb),
            out: take(3 * nb, nb),
            mat,
        })
    }
}

/// Calls `gemm(batch offsets...)` for every batch index.
fn for_each_batch(d: &Desc, mut gemm: impl FnMut(isize, isize, isize)) {
    let nb = d.sizes.len();
    if d.sizes.iter().any(|&s| s <= 0) {
        return;
    }
    let mut idx = vec![0i64; nb];
    loop {
        let off =
            |strides: &[i64]| idx.iter().zip(strides).map(|(i, s)| i * s).sum::<i64>() as isize;
        gemm(off(&d.lhs), off(&d.rhs), off(&d.out));
        let mut dim = nb;
        loop {
            if dim == 0 {
                return;
            }
            dim -= 1;
            idx[dim] += 1;
            if idx[dim] < d.sizes[dim] {
                break;
            }
            idx[dim] = 0;
        }
    }
}

macro_rules! gemm_entry {
    ($name:ident, $t:ty, $kernel:path) => {
        /// `void NAME(const int64_t *desc, const T *a, const T *b, T *c)`:
        /// `c = a · b` for every batch (see the module docs).
        ///
        /// # Safety
        /// The buffers hold the elements the descriptor addresses.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(desc: *const i64, a: *const $t, b: *const $t, c: *mut $t) {
            ffi_guard((), || {
                // SAFETY: guaranteed by the caller (generated code).
                let Some(d) = (unsafe { read_desc(desc) }) else {
                    return;
                };
                let [m, k, n, rsa, csa, rsb, csb, rsc, csc] = d.mat.map(|x| x as isize);
                if m <= 0 || n <= 0 {
                    return;
                }
                for_each_batch(&d, |oa, ob, oc| {
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
        let desc = [1i64, 2, 6, 6, 4, 2, 3, 2, 3, 1, 1, 3, 2, 1];
        unsafe { strata_rt_gemm_f32(desc.as_ptr(), a.as_ptr(), b.as_ptr(), c.as_mut_ptr()) };
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
