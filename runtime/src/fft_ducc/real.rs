//! Real plans: DUCC's passes of radix 2, 3, 4 and 5, forward and backward.

use super::*;

/// One real pass of radix `ip` over `l1` x `ido`.
pub(super) struct RPass<T> {
    pub(super) ip: usize,
    pub(super) l1: usize,
    pub(super) ido: usize,
    /// (ip - 1) x (ido - 1) twiddles as (re, im) pairs.
    pub(super) wa: Vec<T>,
    /// Generic radix: e^(2πik/ip) for k = 0..ip, as (re, im) pairs.
    pub(super) csarr: Vec<T>,
}

/// A real transform of one length (FFTPACK's halfcomplex order): DUCC's
/// passes, the last factor first going forward.
pub struct RPlan<T> {
    pub n: usize,
    passes: Vec<RPass<T>>,
}

impl<T: Flt> RPlan<T> {
    pub fn new(n: usize) -> Option<Self> {
        // DUCC turns long even real transforms into complex ones.
        if n == 0 || (n > 1000 && n % 2 == 0) {
            return None;
        }
        let factors = factorize_real(n);
        if factors
            .iter()
            .any(|&f| !matches!(f, 2 | 3 | 4 | 5) && f >= 135)
        {
            return None;
        }
        let roots = Roots::new(n);
        let mut passes = Vec::new();
        let mut l1 = 1;
        for &ip in &factors {
            let ido = n / (ip * l1);
            let mut wa = vec![T::zero(); (ip - 1) * (ido - 1)];
            for j in 1..ip {
                for i in 1..=(ido - 1) / 2 {
                    let v: Cx<T> = roots.get(j * l1 * i);
                    wa[(j - 1) * (ido - 1) + 2 * i - 2] = v.r;
                    wa[(j - 1) * (ido - 1) + 2 * i - 1] = v.i;
                }
            }
            let mut csarr = Vec::new();
            if !matches!(ip, 2 | 3 | 4 | 5) {
                csarr = vec![T::zero(); 2 * ip];
                csarr[0] = T::one();
                let (mut i, mut ic) = (2, 2 * ip - 2);
                while i <= ic {
                    let v: Cx<T> = roots.get(i / 2 * (n / ip));
                    csarr[i] = v.r;
                    csarr[i + 1] = v.i;
                    csarr[ic] = v.r;
                    csarr[ic + 1] = -v.i;
                    i += 2;
                    ic -= 2;
                }
            }
            passes.push(RPass {
                ip,
                l1,
                ido,
                wa,
                csarr,
            });
            l1 *= ip;
        }
        Some(RPlan { n, passes })
    }

    /// Transforms `data` (length n) in place: forward from reals to the
    /// halfcomplex spectrum r0, r1, i1, r2, i2, ...; backward the other way.
    /// Then scales by `fct` when it is not 1.
    pub fn exec(&self, data: &mut [T], fwd: bool, fct: T) {
        let mut tmp = vec![T::zero(); self.n];
        self.exec_lanes(data, &mut tmp, fwd, fct);
    }

    /// `exec` of the lines held in the lanes of `data` (length n), with
    /// `tmp` (length n) as scratch.
    #[inline(always)]
    pub fn exec_lanes<L: Lane<T>>(&self, data: &mut [L], tmp: &mut [L], fwd: bool, fct: T) {
        // A plain loop, not a closure: a closure's body is a function of its
        // own, compiled without the caller's target features (the passes
        // ran as SSE inside `real_group_avx2`: a fifth of a 2-D rfft).
        let mut in_data = true;
        let count = self.passes.len();
        for i in 0..count {
            // Forward transforms run the passes last to first.
            let p = &self.passes[if fwd { count - 1 - i } else { i }];
            let (src, dst): (&mut [L], &mut [L]) = if in_data {
                (&mut *data, &mut *tmp)
            } else {
                (&mut *tmp, &mut *data)
            };
            if p.exec(fwd, src, dst) {
                in_data = !in_data;
            }
        }
        if !in_data {
            data.copy_from_slice(tmp);
        }
        if fct != T::one() {
            let f = L::splat(fct);
            for v in data.iter_mut() {
                *v = *v * f;
            }
        }
    }
}

/// (c·e + d·f, c·f - d·e): conj(c + id)·(e + if).
#[inline(always)]
fn mulpm<T: Arith>(c: T, d: T, e: T, f: T) -> (T, T) {
    (c * e + d * f, c * f - d * e)
}

/// Every pass is `#[inline(always)]` (as `real_generic`'s): the passes run
/// inside `crate::fft`'s `real_group_avx2` and are compiled with its target
/// features only when inlined there (a pass of its own was SSE code).
impl<T: Flt> RPass<T> {
    #[inline(always)]
    pub(super) fn wa<L: Lane<T>>(&self, x: usize, i: usize) -> L {
        L::splat(self.wa[i + x * (self.ido - 1)])
    }

    /// Runs the pass from `cc` into `ch`; false when the result is in `cc`.
    #[inline(always)]
    fn exec<L: Lane<T>>(&self, fwd: bool, cc: &mut [L], ch: &mut [L]) -> bool {
        match (self.ip, fwd) {
            (2, true) => self.radf2(cc, ch),
            (2, false) => self.radb2(cc, ch),
            (3, true) => self.radf3(cc, ch),
            (3, false) => self.radb3(cc, ch),
            (4, true) => self.radf4(cc, ch),
            (4, false) => self.radb4(cc, ch),
            (5, true) => self.radf5(cc, ch),
            (5, false) => self.radb5(cc, ch),
            (_, true) => return self.radfg(cc, ch),
            (_, false) => return self.radbg(cc, ch),
        }
        true
    }

    #[inline(always)]
    fn radf2<L: Lane<T>>(&self, cc: &[L], ch: &mut [L]) {
        let (l1, ido) = (self.l1, self.ido);
        let cci = |a, k, b| a + ido * (k + l1 * b);
        let chi = |a, b, k| a + ido * (b + 2 * k);
        for k in 0..l1 {
            ch[chi(0, 0, k)] = cc[cci(0, k, 0)] + cc[cci(0, k, 1)];
            ch[chi(ido - 1, 1, k)] = cc[cci(0, k, 0)] - cc[cci(0, k, 1)];
        }
        if ido % 2 == 0 {
            for k in 0..l1 {
                ch[chi(0, 1, k)] = -cc[cci(ido - 1, k, 1)];
                ch[chi(ido - 1, 0, k)] = cc[cci(ido - 1, k, 0)];
            }
        }
        if ido <= 2 {
            return;
        }
        for k in 0..l1 {
            for i in (2..ido).step_by(2) {
                let ic = ido - i;
                let (tr2, ti2) = mulpm(
                    self.wa(0, i - 2),
                    self.wa(0, i - 1),
                    cc[cci(i - 1, k, 1)],
                    cc[cci(i, k, 1)],
                );
                ch[chi(i - 1, 0, k)] = cc[cci(i - 1, k, 0)] + tr2;
                ch[chi(ic - 1, 1, k)] = cc[cci(i - 1, k, 0)] - tr2;
                ch[chi(i, 0, k)] = ti2 + cc[cci(i, k, 0)];
                ch[chi(ic, 1, k)] = ti2 - cc[cci(i, k, 0)];
            }
        }
    }

    #[inline(always)]
    fn radb2<L: Lane<T>>(&self, cc: &[L], ch: &mut [L]) {
        let (l1, ido) = (self.l1, self.ido);
        let cci = |a, b, k| a + ido * (b + 2 * k);
        let chi = |a, k, b| a + ido * (k + l1 * b);
        for k in 0..l1 {
            ch[chi(0, k, 0)] = cc[cci(0, 0, k)] + cc[cci(ido - 1, 1, k)];
            ch[chi(0, k, 1)] = cc[cci(0, 0, k)] - cc[cci(ido - 1, 1, k)];
        }
        if ido % 2 == 0 {
            for k in 0..l1 {
                ch[chi(ido - 1, k, 0)] = konst::<T, L>(2.0) * cc[cci(ido - 1, 0, k)];
                ch[chi(ido - 1, k, 1)] = konst::<T, L>(-2.0) * cc[cci(0, 1, k)];
            }
        }
        if ido <= 2 {
            return;
        }
        for k in 0..l1 {
            for i in (2..ido).step_by(2) {
                let ic = ido - i;
                ch[chi(i - 1, k, 0)] = cc[cci(i - 1, 0, k)] + cc[cci(ic - 1, 1, k)];
                let tr2 = cc[cci(i - 1, 0, k)] - cc[cci(ic - 1, 1, k)];
                let ti2 = cc[cci(i, 0, k)] + cc[cci(ic, 1, k)];
                ch[chi(i, k, 0)] = cc[cci(i, 0, k)] - cc[cci(ic, 1, k)];
                let (a, b) = mulpm(self.wa(0, i - 2), self.wa(0, i - 1), ti2, tr2);
                ch[chi(i, k, 1)] = a;
                ch[chi(i - 1, k, 1)] = b;
            }
        }
    }

    #[inline(always)]
    fn radf3<L: Lane<T>>(&self, cc: &[L], ch: &mut [L]) {
        let (l1, ido) = (self.l1, self.ido);
        let (taur, taui) = (
            konst::<T, L>(-0.5),
            konst::<T, L>(0.866_025_403_784_438_646_763_723_170_752_936_2),
        );
        let cci = |a, k, b| a + ido * (k + l1 * b);
        let chi = |a, b, k| a + ido * (b + 3 * k);
        for k in 0..l1 {
            let cr2 = cc[cci(0, k, 1)] + cc[cci(0, k, 2)];
            ch[chi(0, 0, k)] = cc[cci(0, k, 0)] + cr2;
            ch[chi(0, 2, k)] = taui * (cc[cci(0, k, 2)] - cc[cci(0, k, 1)]);
            ch[chi(ido - 1, 1, k)] = cc[cci(0, k, 0)] + taur * cr2;
        }
        if ido == 1 {
            return;
        }
        for k in 0..l1 {
            for i in (2..ido).step_by(2) {
                let ic = ido - i;
                let (dr2, di2) = mulpm(
                    self.wa(0, i - 2),
                    self.wa(0, i - 1),
                    cc[cci(i - 1, k, 1)],
                    cc[cci(i, k, 1)],
                );
                let (dr3, di3) = mulpm(
                    self.wa(1, i - 2),
                    self.wa(1, i - 1),
                    cc[cci(i - 1, k, 2)],
                    cc[cci(i, k, 2)],
                );
                // a2 = a + b, b2 = i(b - a)
                let (dr2, di2, dr3, di3) = (dr2 + dr3, di2 + di3, di2 - di3, dr3 - dr2);
                ch[chi(i - 1, 0, k)] = cc[cci(i - 1, k, 0)] + dr2;
                ch[chi(i, 0, k)] = cc[cci(i, k, 0)] + di2;
                let tr2 = cc[cci(i - 1, k, 0)] + taur * dr2;
                let ti2 = cc[cci(i, k, 0)] + taur * di2;
                let tr3 = taui * dr3;
                let ti3 = taui * di3;
                ch[chi(i - 1, 2, k)] = tr2 + tr3;
                ch[chi(ic - 1, 1, k)] = tr2 - tr3;
                ch[chi(i, 2, k)] = ti3 + ti2;
                ch[chi(ic, 1, k)] = ti3 - ti2;
            }
        }
    }

    #[inline(always)]
    fn radb3<L: Lane<T>>(&self, cc: &[L], ch: &mut [L]) {
        let (l1, ido) = (self.l1, self.ido);
        let (taur, taui) = (
            konst::<T, L>(-0.5),
            konst::<T, L>(0.866_025_403_784_438_646_763_723_170_752_936_2),
        );
        let cci = |a, b, k| a + ido * (b + 3 * k);
        let chi = |a, k, b| a + ido * (k + l1 * b);
        let two = konst::<T, L>(2.0);
        for k in 0..l1 {
            let tr2 = two * cc[cci(ido - 1, 1, k)];
            let cr2 = cc[cci(0, 0, k)] + taur * tr2;
            ch[chi(0, k, 0)] = cc[cci(0, 0, k)] + tr2;
            let ci3 = two * taui * cc[cci(0, 2, k)];
            ch[chi(0, k, 2)] = cr2 + ci3;
            ch[chi(0, k, 1)] = cr2 - ci3;
        }
        if ido == 1 {
            return;
        }
        for k in 0..l1 {
            for i in (2..ido).step_by(2) {
                let ic = ido - i;
                let tr2 = cc[cci(i - 1, 2, k)] + cc[cci(ic - 1, 1, k)];
                let ti2 = cc[cci(i, 2, k)] - cc[cci(ic, 1, k)];
                let cr2 = cc[cci(i - 1, 0, k)] + taur * tr2;
                let ci2 = cc[cci(i, 0, k)] + taur * ti2;
                ch[chi(i - 1, k, 0)] = cc[cci(i - 1, 0, k)] + tr2;
                ch[chi(i, k, 0)] = cc[cci(i, 0, k)] + ti2;
                let cr3 = taui * (cc[cci(i - 1, 2, k)] - cc[cci(ic - 1, 1, k)]);
                let ci3 = taui * (cc[cci(i, 2, k)] + cc[cci(ic, 1, k)]);
                let (dr3, dr2) = (cr2 + ci3, cr2 - ci3);
                let (di2, di3) = (ci2 + cr3, ci2 - cr3);
                let (a, b) = mulpm(self.wa(0, i - 2), self.wa(0, i - 1), di2, dr2);
                ch[chi(i, k, 1)] = a;
                ch[chi(i - 1, k, 1)] = b;
                let (a, b) = mulpm(self.wa(1, i - 2), self.wa(1, i - 1), di3, dr3);
                ch[chi(i, k, 2)] = a;
                ch[chi(i - 1, k, 2)] = b;
            }
        }
    }

    #[inline(always)]
    fn radf4<L: Lane<T>>(&self, cc: &[L], ch: &mut [L]) {
        let (l1, ido) = (self.l1, self.ido);
        let hsqt2 = konst::<T, L>(0.707_106_781_186_547_524_400_844_362_104_849);
        let cci = |a, k, b| a + ido * (k + l1 * b);
        let chi = |a, b, k| a + ido * (b + 4 * k);
        for k in 0..l1 {
            let tr1 = cc[cci(0, k, 3)] + cc[cci(0, k, 1)];
            ch[chi(0, 2, k)] = cc[cci(0, k, 3)] - cc[cci(0, k, 1)];
            let tr2 = cc[cci(0, k, 0)] + cc[cci(0, k, 2)];
            ch[chi(ido - 1, 1, k)] = cc[cci(0, k, 0)] - cc[cci(0, k, 2)];
            ch[chi(0, 0, k)] = tr2 + tr1;
            ch[chi(ido - 1, 3, k)] = tr2 - tr1;
        }
        if ido % 2 == 0 {
            for k in 0..l1 {
                let ti1 = -hsqt2 * (cc[cci(ido - 1, k, 1)] + cc[cci(ido - 1, k, 3)]);
                let tr1 = hsqt2 * (cc[cci(ido - 1, k, 1)] - cc[cci(ido - 1, k, 3)]);
                ch[chi(ido - 1, 0, k)] = cc[cci(ido - 1, k, 0)] + tr1;
                ch[chi(ido - 1, 2, k)] = cc[cci(ido - 1, k, 0)] - tr1;
                ch[chi(0, 3, k)] = ti1 + cc[cci(ido - 1, k, 2)];
                ch[chi(0, 1, k)] = ti1 - cc[cci(ido - 1, k, 2)];
            }
        }
        if ido <= 2 {
            return;
        }
        for k in 0..l1 {
            for i in (2..ido).step_by(2) {
                let ic = ido - i;
                let (cr2, ci2) = mulpm(
                    self.wa(0, i - 2),
                    self.wa(0, i - 1),
                    cc[cci(i - 1, k, 1)],
                    cc[cci(i, k, 1)],
                );
                let (cr3, ci3) = mulpm(
                    self.wa(1, i - 2),
                    self.wa(1, i - 1),
                    cc[cci(i - 1, k, 2)],
                    cc[cci(i, k, 2)],
                );
                let (cr4, ci4) = mulpm(
                    self.wa(2, i - 2),
                    self.wa(2, i - 1),
                    cc[cci(i - 1, k, 3)],
                    cc[cci(i, k, 3)],
                );
                let (tr1, tr4) = (cr4 + cr2, cr4 - cr2);
                let (ti1, ti4) = (ci2 + ci4, ci2 - ci4);
                let (tr2, tr3) = (cc[cci(i - 1, k, 0)] + cr3, cc[cci(i - 1, k, 0)] - cr3);
                let (ti2, ti3) = (cc[cci(i, k, 0)] + ci3, cc[cci(i, k, 0)] - ci3);
                ch[chi(i - 1, 0, k)] = tr2 + tr1;
                ch[chi(ic - 1, 3, k)] = tr2 - tr1;
                ch[chi(i, 0, k)] = ti1 + ti2;
                ch[chi(ic, 3, k)] = ti1 - ti2;
                ch[chi(i - 1, 2, k)] = tr3 + ti4;
                ch[chi(ic - 1, 1, k)] = tr3 - ti4;
                ch[chi(i, 2, k)] = tr4 + ti3;
                ch[chi(ic, 1, k)] = tr4 - ti3;
            }
        }
    }

    #[inline(always)]
    fn radb4<L: Lane<T>>(&self, cc: &[L], ch: &mut [L]) {
        let (l1, ido) = (self.l1, self.ido);
        let sqrt2 = konst::<T, L>(std::f64::consts::SQRT_2);
        let two = konst::<T, L>(2.0);
        let cci = |a, b, k| a + ido * (b + 4 * k);
        let chi = |a, k, b| a + ido * (k + l1 * b);
        for k in 0..l1 {
            let (tr2, tr1) = (
                cc[cci(0, 0, k)] + cc[cci(ido - 1, 3, k)],
                cc[cci(0, 0, k)] - cc[cci(ido - 1, 3, k)],
            );
            let tr3 = two * cc[cci(ido - 1, 1, k)];
            let tr4 = two * cc[cci(0, 2, k)];
            ch[chi(0, k, 0)] = tr2 + tr3;
            ch[chi(0, k, 2)] = tr2 - tr3;
            ch[chi(0, k, 3)] = tr1 + tr4;
            ch[chi(0, k, 1)] = tr1 - tr4;
        }
        if ido % 2 == 0 {
            for k in 0..l1 {
                let (ti1, ti2) = (
                    cc[cci(0, 3, k)] + cc[cci(0, 1, k)],
                    cc[cci(0, 3, k)] - cc[cci(0, 1, k)],
                );
                let (tr2, tr1) = (
                    cc[cci(ido - 1, 0, k)] + cc[cci(ido - 1, 2, k)],
                    cc[cci(ido - 1, 0, k)] - cc[cci(ido - 1, 2, k)],
                );
                ch[chi(ido - 1, k, 0)] = tr2 + tr2;
                ch[chi(ido - 1, k, 1)] = sqrt2 * (tr1 - ti1);
                ch[chi(ido - 1, k, 2)] = ti2 + ti2;
                ch[chi(ido - 1, k, 3)] = -sqrt2 * (tr1 + ti1);
            }
        }
        if ido <= 2 {
            return;
        }
        for k in 0..l1 {
            for i in (2..ido).step_by(2) {
                let ic = ido - i;
                let (tr2, tr1) = (
                    cc[cci(i - 1, 0, k)] + cc[cci(ic - 1, 3, k)],
                    cc[cci(i - 1, 0, k)] - cc[cci(ic - 1, 3, k)],
                );
                let (ti1, ti2) = (
                    cc[cci(i, 0, k)] + cc[cci(ic, 3, k)],
                    cc[cci(i, 0, k)] - cc[cci(ic, 3, k)],
                );
                let (tr4, ti3) = (
                    cc[cci(i, 2, k)] + cc[cci(ic, 1, k)],
                    cc[cci(i, 2, k)] - cc[cci(ic, 1, k)],
                );
                let (tr3, ti4) = (
                    cc[cci(i - 1, 2, k)] + cc[cci(ic - 1, 1, k)],
                    cc[cci(i - 1, 2, k)] - cc[cci(ic - 1, 1, k)],
                );
                ch[chi(i - 1, k, 0)] = tr2 + tr3;
                let cr3 = tr2 - tr3;
                ch[chi(i, k, 0)] = ti2 + ti3;
                let ci3 = ti2 - ti3;
                let (cr4, cr2) = (tr1 + tr4, tr1 - tr4);
                let (ci2, ci4) = (ti1 + ti4, ti1 - ti4);
                let (a, b) = mulpm(self.wa(0, i - 2), self.wa(0, i - 1), ci2, cr2);
                ch[chi(i, k, 1)] = a;
                ch[chi(i - 1, k, 1)] = b;
                let (a, b) = mulpm(self.wa(1, i - 2), self.wa(1, i - 1), ci3, cr3);
                ch[chi(i, k, 2)] = a;
                ch[chi(i - 1, k, 2)] = b;
                let (a, b) = mulpm(self.wa(2, i - 2), self.wa(2, i - 1), ci4, cr4);
                ch[chi(i, k, 3)] = a;
                ch[chi(i - 1, k, 3)] = b;
            }
        }
    }

    #[inline(always)]
    fn radf5<L: Lane<T>>(&self, cc: &[L], ch: &mut [L]) {
        let (l1, ido) = (self.l1, self.ido);
        let tr11 = konst::<T, L>(0.309_016_994_374_947_424_102_293_417_182_819_1);
        let ti11 = konst::<T, L>(0.951_056_516_295_153_572_116_439_333_379_382_1);
        let tr12 = konst::<T, L>(-0.809_016_994_374_947_424_102_293_417_182_819_1);
        let ti12 = konst::<T, L>(0.587_785_252_292_473_129_168_705_954_639_072_8);
        let cci = |a, k, b| a + ido * (k + l1 * b);
        let chi = |a, b, k| a + ido * (b + 5 * k);
        for k in 0..l1 {
            let (cr2, ci5) = (
                cc[cci(0, k, 4)] + cc[cci(0, k, 1)],
                cc[cci(0, k, 4)] - cc[cci(0, k, 1)],
            );
            let (cr3, ci4) = (
                cc[cci(0, k, 3)] + cc[cci(0, k, 2)],
                cc[cci(0, k, 3)] - cc[cci(0, k, 2)],
            );
            let c0 = cc[cci(0, k, 0)];
            ch[chi(0, 0, k)] = c0 + cr2 + cr3;
            ch[chi(ido - 1, 1, k)] = c0 + tr11 * cr2 + tr12 * cr3;
            ch[chi(0, 2, k)] = ti11 * ci5 + ti12 * ci4;
            ch[chi(ido - 1, 3, k)] = c0 + tr12 * cr2 + tr11 * cr3;
            ch[chi(0, 4, k)] = ti12 * ci5 - ti11 * ci4;
        }
        if ido == 1 {
            return;
        }
        for k in 0..l1 {
            for i in (2..ido).step_by(2) {
                let ic = ido - i;
                let (dr2, di2) = mulpm(
                    self.wa(0, i - 2),
                    self.wa(0, i - 1),
                    cc[cci(i - 1, k, 1)],
                    cc[cci(i, k, 1)],
                );
                let (dr3, di3) = mulpm(
                    self.wa(1, i - 2),
                    self.wa(1, i - 1),
                    cc[cci(i - 1, k, 2)],
                    cc[cci(i, k, 2)],
                );
                let (dr4, di4) = mulpm(
                    self.wa(2, i - 2),
                    self.wa(2, i - 1),
                    cc[cci(i - 1, k, 3)],
                    cc[cci(i, k, 3)],
                );
                let (dr5, di5) = mulpm(
                    self.wa(3, i - 2),
                    self.wa(3, i - 1),
                    cc[cci(i - 1, k, 4)],
                    cc[cci(i, k, 4)],
                );
                let (dr2, di2, dr5, di5) = (dr2 + dr5, di2 + di5, di2 - di5, dr5 - dr2);
                let (dr3, di3, dr4, di4) = (dr3 + dr4, di3 + di4, di3 - di4, dr4 - dr3);
                let (c0, c1) = (cc[cci(i - 1, k, 0)], cc[cci(i, k, 0)]);
                ch[chi(i - 1, 0, k)] = c0 + dr2 + dr3;
                ch[chi(i, 0, k)] = c1 + di2 + di3;
                let tr2 = c0 + tr11 * dr2 + tr12 * dr3;
                let ti2 = c1 + tr11 * di2 + tr12 * di3;
                let tr3 = c0 + tr12 * dr2 + tr11 * dr3;
                let ti3 = c1 + tr12 * di2 + tr11 * di3;
                let tr5 = ti11 * dr5 + ti12 * dr4;
                let ti5 = ti11 * di5 + ti12 * di4;
                let tr4 = ti12 * dr5 - ti11 * dr4;
                let ti4 = ti12 * di5 - ti11 * di4;
                ch[chi(i - 1, 2, k)] = tr2 + tr5;
                ch[chi(ic - 1, 1, k)] = tr2 - tr5;
                ch[chi(i, 2, k)] = ti5 + ti2;
                ch[chi(ic, 1, k)] = ti5 - ti2;
                ch[chi(i - 1, 4, k)] = tr3 + tr4;
                ch[chi(ic - 1, 3, k)] = tr3 - tr4;
                ch[chi(i, 4, k)] = ti4 + ti3;
                ch[chi(ic, 3, k)] = ti4 - ti3;
            }
        }
    }

    #[inline(always)]
    fn radb5<L: Lane<T>>(&self, cc: &[L], ch: &mut [L]) {
        let (l1, ido) = (self.l1, self.ido);
        let tr11 = konst::<T, L>(0.309_016_994_374_947_424_102_293_417_182_819_1);
        let ti11 = konst::<T, L>(0.951_056_516_295_153_572_116_439_333_379_382_1);
        let tr12 = konst::<T, L>(-0.809_016_994_374_947_424_102_293_417_182_819_1);
        let ti12 = konst::<T, L>(0.587_785_252_292_473_129_168_705_954_639_072_8);
        let cci = |a, b, k| a + ido * (b + 5 * k);
        let chi = |a, k, b| a + ido * (k + l1 * b);
        for k in 0..l1 {
            let ti5 = cc[cci(0, 2, k)] + cc[cci(0, 2, k)];
            let ti4 = cc[cci(0, 4, k)] + cc[cci(0, 4, k)];
            let tr2 = cc[cci(ido - 1, 1, k)] + cc[cci(ido - 1, 1, k)];
            let tr3 = cc[cci(ido - 1, 3, k)] + cc[cci(ido - 1, 3, k)];
            let c0 = cc[cci(0, 0, k)];
            ch[chi(0, k, 0)] = c0 + tr2 + tr3;
            let cr2 = c0 + tr11 * tr2 + tr12 * tr3;
            let cr3 = c0 + tr12 * tr2 + tr11 * tr3;
            let (ci5, ci4) = mulpm(ti5, ti4, ti11, ti12);
            ch[chi(0, k, 4)] = cr2 + ci5;
            ch[chi(0, k, 1)] = cr2 - ci5;
            ch[chi(0, k, 3)] = cr3 + ci4;
            ch[chi(0, k, 2)] = cr3 - ci4;
        }
        if ido == 1 {
            return;
        }
        for k in 0..l1 {
            for i in (2..ido).step_by(2) {
                let ic = ido - i;
                let (tr2, tr5) = (
                    cc[cci(i - 1, 2, k)] + cc[cci(ic - 1, 1, k)],
                    cc[cci(i - 1, 2, k)] - cc[cci(ic - 1, 1, k)],
                );
                let (ti5, ti2) = (
                    cc[cci(i, 2, k)] + cc[cci(ic, 1, k)],
                    cc[cci(i, 2, k)] - cc[cci(ic, 1, k)],
                );
                let (tr3, tr4) = (
                    cc[cci(i - 1, 4, k)] + cc[cci(ic - 1, 3, k)],
                    cc[cci(i - 1, 4, k)] - cc[cci(ic - 1, 3, k)],
                );
                let (ti4, ti3) = (
                    cc[cci(i, 4, k)] + cc[cci(ic, 3, k)],
                    cc[cci(i, 4, k)] - cc[cci(ic, 3, k)],
                );
                let (c0, c1) = (cc[cci(i - 1, 0, k)], cc[cci(i, 0, k)]);
                ch[chi(i - 1, k, 0)] = c0 + tr2 + tr3;
                ch[chi(i, k, 0)] = c1 + ti2 + ti3;
                let cr2 = c0 + tr11 * tr2 + tr12 * tr3;
                let ci2 = c1 + tr11 * ti2 + tr12 * ti3;
                let cr3 = c0 + tr12 * tr2 + tr11 * tr3;
                let ci3 = c1 + tr12 * ti2 + tr11 * ti3;
                let (cr5, cr4) = mulpm(tr5, tr4, ti11, ti12);
                let (ci5, ci4) = mulpm(ti5, ti4, ti11, ti12);
                let (dr4, dr3) = (cr3 + ci4, cr3 - ci4);
                let (di3, di4) = (ci3 + cr4, ci3 - cr4);
                let (dr5, dr2) = (cr2 + ci5, cr2 - ci5);
                let (di2, di5) = (ci2 + cr5, ci2 - cr5);
                for (j, di, dr) in [(1, di2, dr2), (2, di3, dr3), (3, di4, dr4), (4, di5, dr5)] {
                    let (a, b) = mulpm(self.wa(j - 1, i - 2), self.wa(j - 1, i - 1), di, dr);
                    ch[chi(i, k, j)] = a;
                    ch[chi(i - 1, k, j)] = b;
                }
            }
        }
    }
}
