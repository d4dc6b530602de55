use super::*;

#[test]
fn rfft_then_irfft_round_trips() {
    let x = [1.0f64, 2.0, 0.5, -1.0];
    let mut spec = [0.0f64; 6];
    let desc = |kind: FftKind, len: i64, length: i64| {
        let mut d = FftDesc {
            kind: kind as i64,
            element_bits: 64,
            rank: 1,
            fft_rank: 1,
            ..FftDesc::default()
        };
        d.shape[0] = len;
        d.lengths[0] = length;
        d
    };
    let forward = desc(FftKind::Rfft, 4, 4);
    unsafe {
        strata_rt_fft(
            &forward,
            x.as_ptr() as *const u8,
            spec.as_mut_ptr() as *mut u8,
        )
    };
    assert!((spec[0] - 2.5).abs() < 1e-12, "{spec:?}");
    let mut back = [0.0f64; 4];
    let inverse = desc(FftKind::Irfft, 3, 4);
    unsafe {
        strata_rt_fft(
            &inverse,
            spec.as_ptr() as *const u8,
            back.as_mut_ptr() as *mut u8,
        )
    };
    for (a, b) in back.iter().zip(&x) {
        assert!((a - b).abs() < 1e-12, "{back:?}");
    }
}

/// Deterministic values in [-1, 1).
fn values(len: usize, seed: usize) -> Vec<f32> {
    (0..len)
        .map(|i| ((i * 7919 + seed * 104_729) % 2003) as f32 / 1001.5 - 1.0)
        .collect()
}

/// A 2-D FFT large enough to be shared between threads, its lines in
/// packs of LANES (rows and columns not a multiple of it), gives each
/// line the bits DUCC's plan gives it alone: the last axis first, then
/// the other (DUCC's order).
#[test]
fn packed_lines_match_one_line_at_a_time() {
    let (b, r, c) = (70, 20, 30);
    let x = values(2 * b * r * c, 1);
    let mut got = vec![0f32; x.len()];
    let mut d = FftDesc {
        kind: FftKind::Fft as i64,
        element_bits: 32,
        rank: 3,
        fft_rank: 2,
        ..FftDesc::default()
    };
    d.shape[..3].copy_from_slice(&[b as i64, r as i64, c as i64]);
    d.lengths[..2].copy_from_slice(&[r as i64, c as i64]);
    unsafe { strata_rt_fft(&d, x.as_ptr() as *const u8, got.as_mut_ptr() as *mut u8) };
    let mut want: Vec<Cx<f32>> = x.chunks(2).map(|p| Cx::new(p[0], p[1])).collect();
    let (rows, cols) = (CPlan::<f32>::new(c).unwrap(), CPlan::<f32>::new(r).unwrap());
    for line in want.chunks_mut(c) {
        rows.exec(line, true, 1.0);
    }
    for m in want.chunks_mut(r * c) {
        for j in 0..c {
            let mut line: Vec<Cx<f32>> = (0..r).map(|i| m[i * c + j]).collect();
            cols.exec(&mut line, true, 1.0);
            for (i, v) in line.into_iter().enumerate() {
                m[i * c + j] = v;
            }
        }
    }
    for (k, (g, w)) in got.chunks(2).zip(&want).enumerate() {
        assert!(
            g[0].to_bits() == w.r.to_bits() && g[1].to_bits() == w.i.to_bits(),
            "element {k}: {g:?} vs {w:?}"
        );
    }
}

/// The same for a real transform's rows, forward and back.
#[test]
fn packed_real_rows_match_one_row_at_a_time() {
    let (rows, l) = (1500, 45);
    let half = l / 2 + 1;
    let x = values(rows * l, 2);
    let desc = |kind: FftKind, last: usize| {
        let mut d = FftDesc {
            kind: kind as i64,
            element_bits: 32,
            rank: 2,
            fft_rank: 1,
            ..FftDesc::default()
        };
        d.shape[..2].copy_from_slice(&[rows as i64, last as i64]);
        d.lengths[0] = l as i64;
        d
    };
    let mut spec = vec![0f32; rows * 2 * half];
    let forward = desc(FftKind::Rfft, l);
    unsafe {
        strata_rt_fft(
            &forward,
            x.as_ptr() as *const u8,
            spec.as_mut_ptr() as *mut u8,
        )
    };
    let mut back = vec![0f32; rows * l];
    let inverse = desc(FftKind::Irfft, half);
    unsafe {
        strata_rt_fft(
            &inverse,
            spec.as_ptr() as *const u8,
            back.as_mut_ptr() as *mut u8,
        )
    };
    let plan = RPlan::<f32>::new(l).unwrap();
    for row in 0..rows {
        let mut one = x[row * l..][..l].to_vec();
        plan.exec(&mut one, true, 1.0);
        let got = &spec[row * 2 * half..][..2 * half];
        assert_eq!(got[0].to_bits(), one[0].to_bits(), "row {row}");
        for (k, v) in one[1..].iter().enumerate() {
            assert_eq!(got[k + 2].to_bits(), v.to_bits(), "row {row}, element {k}");
        }
        let mut inv = vec![got[0]];
        inv.extend_from_slice(&got[2..][..l - 1]);
        plan.exec(&mut inv, false, 1.0 / l as f32);
        for (a, b) in back[row * l..][..l].iter().zip(&inv) {
            assert_eq!(a.to_bits(), b.to_bits(), "row {row} backward");
        }
    }
}
