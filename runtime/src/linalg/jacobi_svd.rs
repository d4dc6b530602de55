//! Singular values of small real matrices by one-sided Jacobi (Hestenes).
//!
//! For an 8x8 matrix faer's general SVD (bidiagonalization, then QR
//! iterations) spends most of its time in setup and in carefully scaled
//! Givens rotations: 4.1 µs per matrix on one thread (AMD EPYC), 1.3x
//! XLA:CPU's LAPACK over a batch of 512. One-sided Jacobi rotates pairs of
//! columns until all are orthogonal; the singular values are then the
//! column norms. It is as accurate as any SVD (more, in relative terms,
//! for graded matrices) and, on a few short columns held in f64, a few
//! sweeps of short loops (see [`MAX_COLS`] for where faer wins). Only the
//! values: the vectors of a rank-deficient matrix need a completed basis,
//! which faer provides.

/// The largest column count (after transposing to at least as many rows
/// as columns) and row count taken here; larger matrices go to faer.
/// Measured over batches, one thread (AMD EPYC): 512 of 4x4 0.74 -> 0.28
/// ms, 512 of 8x8 2.1 -> 1.27 ms; but 256 of 16x16 3.3 -> 4.1 ms and 128
/// of 64x16 2.4 -> 4.5 ms (a sweep costs columns² x rows; faer reduces a
/// tall matrix to a square one first).
pub(super) const MAX_COLS: usize = 10;
pub(super) const MAX_ROWS: usize = 16;

/// Sweeps at most: convergence is quadratic (8x8 random matrices take 6 to
/// 8); the bound only stops a pathological input.
const MAX_SWEEPS: usize = 40;

/// The singular values, descending, of the row-major `m` x `n` matrix `a`
/// (entries finite, small enough that squares stay finite in f64); `None`
/// for sizes above [`MAX_COLS`] / [`MAX_ROWS`]. Columns count as
/// orthogonal once their cosine is at most `tolerance` (the element type's
/// epsilon: the values' relative error is then of its square).
pub(super) fn singular_values(a: &[f64], m: usize, n: usize, tolerance: f64) -> Option<Vec<f64>> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has the features the function is compiled for.
        return unsafe { singular_values_avx2(a, m, n, tolerance) };
    }
    values(a, m, n, tolerance)
}

/// [`values`] compiled for AVX2 and FMA: the runtime is built for the
/// baseline x86-64 (SSE2, two f64 lanes), and the rotations and dot
/// products of a sweep run four lanes wide here. Chosen at run time, so a
/// library built for any CPU uses what the running one has.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn singular_values_avx2(a: &[f64], m: usize, n: usize, tolerance: f64) -> Option<Vec<f64>> {
    values(a, m, n, tolerance)
}

/// The body of [`singular_values`], inlined into each version.
#[inline(always)]
fn values(a: &[f64], m: usize, n: usize, tolerance: f64) -> Option<Vec<f64>> {
    // Columns of A (or of Aᵀ when it is wider than tall), each contiguous.
    let (rows, cols) = (m.max(n), m.min(n));
    if cols > MAX_COLS || rows > MAX_ROWS {
        return None;
    }
    let mut c = vec![0.0f64; rows * cols];
    for i in 0..m {
        for j in 0..n {
            let (col, row) = if m >= n { (j, i) } else { (i, j) };
            c[col * rows + row] = a[i * n + j];
        }
    }
    let mut norms = vec![0.0f64; cols];
    for _ in 0..MAX_SWEEPS {
        // Squared column norms, recomputed each sweep (rotations update
        // them exactly in exact arithmetic; this bounds the drift).
        for (k, norm) in norms.iter_mut().enumerate() {
            *norm = dot(&c[k * rows..(k + 1) * rows], &c[k * rows..(k + 1) * rows]);
        }
        let mut rotated = false;
        for round in rounds(cols) {
            for (p, q) in round {
                rotated |= rotate(&mut c, rows, (p, q), &mut norms, tolerance);
            }
        }
        if !rotated {
            break;
        }
    }
    let mut values: Vec<f64> = c
        .chunks_exact(rows.max(1))
        .take(cols)
        .map(|col| dot(col, col).sqrt())
        .collect();
    values.sort_by(|x, y| y.total_cmp(x));
    Some(values)
}

/// Every pair of `0..n` once, as rounds of disjoint pairs (a round-robin
/// tournament, `p < q` in each pair): the rotations of a round touch
/// different columns, so the CPU overlaps their square roots and
/// divisions instead of waiting on each in turn.
fn rounds(n: usize) -> impl Iterator<Item = impl Iterator<Item = (usize, usize)>> {
    // An odd count gets a bye: player `n` plays nobody.
    let players = n + n % 2;
    (0..players.saturating_sub(1)).map(move |round| {
        // Player 0 stays; the others turn one place per round.
        let seat = move |k: usize| {
            if k == 0 {
                0
            } else {
                1 + (k - 1 + round) % (players - 1)
            }
        };
        (0..players / 2).filter_map(move |k| {
            let (a, b) = (seat(k), seat(players - 1 - k));
            (a.max(b) < n).then_some((a.min(b), a.max(b)))
        })
    })
}

/// `x · y` in four partial sums (a single chain of additions would wait
/// on each).
#[inline(always)]
fn dot(x: &[f64], y: &[f64]) -> f64 {
    let mut sums = [0.0f64; 4];
    let (xs, ys) = (x.chunks_exact(4), y.chunks_exact(4));
    let tail: f64 = xs
        .remainder()
        .iter()
        .zip(ys.remainder())
        .map(|(a, b)| a * b)
        .sum();
    for (a, b) in xs.zip(ys) {
        for k in 0..4 {
            sums[k] += a[k] * b[k];
        }
    }
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + tail
}

/// Rotates columns `p` and `q` (each `rows` long in `c`, squared norms in
/// `norms`) to be orthogonal; whether they were not already.
#[inline(always)]
fn rotate(
    c: &mut [f64],
    rows: usize,
    (p, q): (usize, usize),
    norms: &mut [f64],
    tolerance: f64,
) -> bool {
    let (head, tail) = c.split_at_mut(q * rows);
    let x = &mut head[p * rows..(p + 1) * rows];
    let y = &mut tail[..rows];
    let (alpha, beta) = (norms[p], norms[q]);
    let gamma = dot(x, y);
    if gamma == 0.0 || gamma * gamma <= tolerance * tolerance * (alpha * beta) {
        return false;
    }
    // The rotation zeroing the off-diagonal entry of the 2x2 Gram matrix
    // [[alpha, gamma], [gamma, beta]]: tan θ = t, the smaller root.
    let zeta = (beta - alpha) / (2.0 * gamma);
    let t = zeta.signum() / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
    let cos = 1.0 / (1.0 + t * t).sqrt();
    let sin = cos * t;
    for (a, b) in x.iter_mut().zip(y.iter_mut()) {
        let (u, v) = (*a, *b);
        *a = cos * u - sin * v;
        *b = sin * u + cos * v;
    }
    norms[p] = alpha - t * gamma;
    norms[q] = beta + t * gamma;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }

    fn faer_values(a: &[f64], m: usize, n: usize) -> Vec<f64> {
        let mat = faer::MatRef::from_row_major_slice(a, m, n);
        mat.singular_values().expect("faer's svd")
    }

    #[test]
    fn values_match_faer_on_every_small_shape() {
        let mut seed = 7;
        for (m, n) in [
            (1, 1),
            (1, 5),
            (5, 1),
            (2, 2),
            (3, 7),
            (8, 8),
            (10, 10),
            (16, 10),
            (9, 4),
        ] {
            for _ in 0..20 {
                let a: Vec<f64> = (0..m * n).map(|_| lcg(&mut seed)).collect();
                let want = faer_values(&a, m, n);
                // The version this CPU runs, and the baseline one (the
                // CPUs without AVX2 and FMA run).
                for got in [
                    singular_values(&a, m, n, f64::EPSILON).expect("small"),
                    values(&a, m, n, f64::EPSILON).expect("small"),
                ] {
                    assert_eq!(got.len(), want.len());
                    for (g, w) in got.iter().zip(&want) {
                        assert!(
                            (g - w).abs() <= 1e-13 * want[0].max(1.0),
                            "{m}x{n}: {got:?} vs {want:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn rounds_pair_every_column_once() {
        for n in 0..20 {
            let mut seen = std::collections::HashSet::new();
            for round in rounds(n) {
                let mut used = std::collections::HashSet::new();
                for (p, q) in round {
                    assert!(p < q && q < n && used.insert(p) && used.insert(q));
                    assert!(seen.insert((p, q)), "{n}: ({p}, {q}) twice");
                }
            }
            assert_eq!(seen.len(), n * n.saturating_sub(1) / 2, "{n}");
        }
    }

    #[test]
    fn rank_deficient_and_graded_matrices() {
        // Two equal rows: one zero singular value.
        let a = [1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 0.5, -1.0, 2.0];
        let s = singular_values(&a, 3, 3, f64::EPSILON).expect("small");
        assert!(s[2].abs() < 1e-15, "{s:?}");
        // Columns scaled by 1e-12: the small value keeps its relative accuracy.
        let g = [1.0, 1e-12, 1.0, -1e-12];
        let s = singular_values(&g, 2, 2, f64::EPSILON).expect("small");
        assert!((s[0] - 2f64.sqrt()).abs() < 1e-15 && (s[1] - 2f64.sqrt() * 1e-12).abs() < 1e-27);
        // A zero matrix, and sizes past the limits.
        assert_eq!(
            singular_values(&[0.0; 6], 2, 3, f64::EPSILON),
            Some(vec![0.0, 0.0])
        );
        assert!(singular_values(&vec![0.0; 11 * 11], 11, 11, f64::EPSILON).is_none());
        assert!(singular_values(&vec![0.0; 17 * 2], 2, 17, f64::EPSILON).is_none());
    }
}
