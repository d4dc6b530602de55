//! One-dimensional FFT plans that compute exactly what XLA:CPU computes.
//!
//! XLA:CPU runs its FFTs on DUCC (`ducc0`, Max-Planck-Society, BSD-3-Clause;
//! the pocketfft lineage): FFTPACK-style mixed-radix passes over the
//! factorization of the length, with twiddle factors from a two-table
//! `UnityRoots` evaluated in double precision. Another algorithm (rustfft's,
//! or a more accurate one) lands 4 to 16 ULP away from XLA's results on odd
//! lengths, where every output is a long sum of rounded products; only the
//! same passes, in the same order, with the same operation order inside
//! each butterfly, give the same bits. So the passes below follow DUCC's
//! (`ducc0/fft/fft1d_impl.h`) arithmetic step for step, no FMA (DUCC is
//! built without contraction), written anew in Rust.
//!
//! Covered: complex passes of 2, 3, 4, 5 and 8; real passes of 2, 3, 4, 5
//! and the generic odd radix below 135 (with DUCC's multipass sequencing
//! when the length has several factors). A length needing another pass
//! (complex radix 7, 11 and larger primes, Bluestein, DUCC's vectorized and
//! complexified variants for long transforms) has no plan here, and the
//! caller (`fft.rs`) uses rustfft for it.

// DUCC's constants are written to 34 digits; they are kept as written so
// that they round exactly as DUCC's do.
#![allow(clippy::excessive_precision)]

use rustfft::num_traits::{Float, FromPrimitive};

/// The float types plans exist for.
pub trait Flt: Float + FromPrimitive + Default + Send + Sync + 'static {}
impl Flt for f32 {}
impl Flt for f64 {}

fn c<T: Flt>(v: f64) -> T {
    T::from_f64(v).unwrap_or_else(T::nan)
}

/// A complex value as DUCC's `Cmplx`: each operator is the plain two-part
/// formula, evaluated left to right.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cx<T> {
    pub r: T,
    pub i: T,
}

impl<T: Flt> Cx<T> {
    pub fn new(r: T, i: T) -> Self {
        Cx { r, i }
    }
    fn add(self, o: Self) -> Self {
        Cx::new(self.r + o.r, self.i + o.i)
    }
    fn sub(self, o: Self) -> Self {
        Cx::new(self.r - o.r, self.i - o.i)
    }
    pub fn scale(self, s: T) -> Self {
        Cx::new(self.r * s, self.i * s)
    }
}

/// (c + d, c - d).
fn pm<T: Flt>(c: Cx<T>, d: Cx<T>) -> (Cx<T>, Cx<T>) {
    (c.add(d), c.sub(d))
}

/// v times w (backward) or times conj(w) (forward).
fn special_mul<T: Flt>(fwd: bool, v: Cx<T>, w: Cx<T>) -> Cx<T> {
    if fwd {
        Cx::new(v.r * w.r + v.i * w.i, v.i * w.r - v.r * w.i)
    } else {
        Cx::new(v.r * w.r - v.i * w.i, v.r * w.i + v.i * w.r)
    }
}

/// Multiplication by -i (forward) or i (backward).
fn rotx90<T: Flt>(fwd: bool, a: Cx<T>) -> Cx<T> {
    if fwd {
        Cx::new(a.i, -a.r)
    } else {
        Cx::new(-a.i, a.r)
    }
}

/// π/4 rounded to x87 long double (64 bits), divided by n in long double,
/// then rounded to double: DUCC's `Thigh(0.25L*pi/n)`, by integer arithmetic.
fn quarter_pi_over(n: usize) -> f64 {
    // π in x87 long double: 0xC90FDAA22168C235 · 2^-62, so π/4 = M · 2^-64.
    const M: u128 = 0xC90F_DAA2_2168_C235;
    let num = M << 63;
    let d = n.max(1) as u128;
    let (q, sticky) = (num / d, num % d != 0);
    // π/4/n = q · 2^-127 (plus the remainder): round q to 64 bits.
    let drop = (128 - q.leading_zeros() as i32 - 64).max(1);
    let mut m = q >> drop;
    let rest = q & ((1u128 << drop) - 1);
    let half = 1u128 << (drop - 1);
    if rest > half || (rest == half && (sticky || m & 1 == 1)) {
        m += 1;
    }
    let mut e = drop - 127;
    if m >> 64 != 0 {
        m >>= 1;
        e += 1;
    }
    // Then to double, from the 64-bit value alone (ties to even).
    let rest = m & 0x7ff;
    let mut m53 = m >> 11;
    if rest > 0x400 || (rest == 0x400 && m53 & 1 == 1) {
        m53 += 1;
    }
    (m53 as f64) * 2f64.powi(e + 11)
}

/// DUCC's `UnityRoots(n)`: e^(2πik/n) from two tables (fine and coarse) of
/// octant-reduced cos/sin in double, multiplied in double, then rounded.
pub struct Roots {
    n: usize,
    mask: usize,
    shift: u32,
    v1: Vec<(f64, f64)>,
    v2: Vec<(f64, f64)>,
}

impl Roots {
    pub fn new(n: usize) -> Self {
        let ang = quarter_pi_over(n);
        let nval = (n + 2) / 2;
        let mut shift = 1u32;
        while (1usize << shift) * (1usize << shift) < nval {
            shift += 1;
        }
        let mask = (1usize << shift) - 1;
        let calc = |x: usize| -> (f64, f64) {
            let x = x << 3;
            let f = |v: usize| v as f64 * ang;
            if x < 4 * n {
                if x < 2 * n {
                    if x < n {
                        return (f(x).cos(), f(x).sin());
                    }
                    return (f(2 * n - x).sin(), f(2 * n - x).cos());
                }
                let x = x - 2 * n;
                if x < n {
                    return (-f(x).sin(), f(x).cos());
                }
                return (-f(2 * n - x).cos(), f(2 * n - x).sin());
            }
            let x = 8 * n - x;
            if x < 2 * n {
                if x < n {
                    return (f(x).cos(), -f(x).sin());
                }
                return (f(2 * n - x).sin(), -f(2 * n - x).cos());
            }
            let x = x - 2 * n;
            if x < n {
                return (-f(x).sin(), -f(x).cos());
            }
            (-f(2 * n - x).cos(), -f(2 * n - x).sin())
        };
        let mut v1 = vec![(1.0, 0.0); mask + 1];
        for (i, v) in v1.iter_mut().enumerate().skip(1) {
            *v = calc(i);
        }
        let mut v2 = vec![(1.0, 0.0); nval.div_ceil(mask + 1)];
        for (i, v) in v2.iter_mut().enumerate().skip(1) {
            *v = calc(i * (mask + 1));
        }
        Roots {
            n,
            mask,
            shift,
            v1,
            v2,
        }
    }

    pub fn get<T: Flt>(&self, idx: usize) -> Cx<T> {
        let (idx, neg) = if 2 * idx <= self.n {
            (idx, false)
        } else {
            (self.n - idx, true)
        };
        let (x1, x2) = (self.v1[idx & self.mask], self.v2[idx >> self.shift]);
        let r = x1.0 * x2.0 - x1.1 * x2.1;
        let i = x1.0 * x2.1 + x1.1 * x2.0;
        let (r, i) = (c::<T>(r), c::<T>(i));
        Cx::new(r, if neg { -i } else { i })
    }
}

/// DUCC's complex factorization: 8s, then 4s, then one 2 (moved to the
/// front), then odd factors ascending.
fn factorize_complex(mut n: usize) -> Vec<usize> {
    let mut f = Vec::new();
    while n % 8 == 0 {
        f.push(8);
        n >>= 3;
    }
    while n % 4 == 0 {
        f.push(4);
        n >>= 2;
    }
    if n % 2 == 0 {
        n >>= 1;
        f.push(2);
        let last = f.len() - 1;
        f.swap(0, last);
    }
    odd_factors(n, &mut f);
    f
}

/// DUCC's real factorization: 4s, then one 2 (moved to the front), then odd
/// factors ascending.
fn factorize_real(mut n: usize) -> Vec<usize> {
    let mut f = Vec::new();
    while n % 4 == 0 {
        f.push(4);
        n >>= 2;
    }
    if n % 2 == 0 {
        n >>= 1;
        f.push(2);
        let last = f.len() - 1;
        f.swap(0, last);
    }
    odd_factors(n, &mut f);
    f
}

fn odd_factors(mut n: usize, f: &mut Vec<usize>) {
    let mut d = 3;
    while d * d <= n {
        while n % d == 0 {
            f.push(d);
            n /= d;
        }
        d += 2;
    }
    if n > 1 {
        f.push(n);
    }
}

/// One complex pass of radix `ip` over `l1` x `ido`.
struct CPass<T> {
    ip: usize,
    l1: usize,
    ido: usize,
    wa: Vec<Cx<T>>,
}

/// A complex transform of one length: DUCC's passes in order.
pub struct CPlan<T> {
    pub n: usize,
    passes: Vec<CPass<T>>,
}

impl<T: Flt> CPlan<T> {
    /// None when the length needs a pass not written here.
    pub fn new(n: usize) -> Option<Self> {
        if n == 0 || n > 10000 {
            return None;
        }
        let roots = Roots::new(n);
        let factors = factorize_complex(n);
        if factors.iter().any(|f| !matches!(f, 2 | 3 | 4 | 5 | 8)) {
            return None;
        }
        let mut passes = Vec::new();
        let mut l1 = 1;
        for &ip in &factors {
            let ido = n / (ip * l1);
            let mut wa = vec![Cx::default(); (ip - 1) * (ido - 1)];
            for i in 1..ido {
                for j in 1..ip {
                    wa[(j - 1) + (i - 1) * (ip - 1)] = roots.get(j * l1 * i);
                }
            }
            passes.push(CPass { ip, l1, ido, wa });
            l1 *= ip;
        }
        Some(CPlan { n, passes })
    }

    /// Transforms `data` (length n) in place, then scales by `fct` when it
    /// is not 1.
    pub fn exec(&self, data: &mut [Cx<T>], fwd: bool, fct: T) {
        let mut tmp = vec![Cx::default(); self.n];
        let mut in_data = true;
        for p in &self.passes {
            let (src, dst): (&mut [Cx<T>], &mut [Cx<T>]) = if in_data {
                (data, &mut tmp)
            } else {
                (&mut tmp, data)
            };
            if p.exec(fwd, src, dst) {
                in_data = !in_data;
            }
        }
        if !in_data {
            data.copy_from_slice(&tmp);
        }
        if fct != T::one() {
            for v in data.iter_mut() {
                *v = v.scale(fct);
            }
        }
    }
}

impl<T: Flt> CPass<T> {
    fn wa(&self, x: usize, i: usize) -> Cx<T> {
        self.wa[x + (i - 1) * (self.ip - 1)]
    }

    /// Runs the pass from `cc` into `ch`; returns false when the result was
    /// left in `cc` instead (radix 8 with l1 = 1 works in place).
    fn exec(&self, fwd: bool, cc: &mut [Cx<T>], ch: &mut [Cx<T>]) -> bool {
        let (l1, ido, ip) = (self.l1, self.ido, self.ip);
        let cci = |a: usize, b: usize, k: usize| a + ido * (b + ip * k);
        let chi = |a: usize, k: usize, b: usize| a + ido * (k + l1 * b);
        match ip {
            2 => {
                for k in 0..l1 {
                    let (a, b) = pm(cc[cci(0, 0, k)], cc[cci(0, 1, k)]);
                    ch[chi(0, k, 0)] = a;
                    ch[chi(0, k, 1)] = b;
                    for i in 1..ido {
                        let (x, y) = (cc[cci(i, 0, k)], cc[cci(i, 1, k)]);
                        ch[chi(i, k, 0)] = x.add(y);
                        ch[chi(i, k, 1)] = special_mul(fwd, x.sub(y), self.wa[i - 1]);
                    }
                }
                true
            }
            3 => {
                let sign = if fwd { -1.0 } else { 1.0 };
                let (twr, twi) = (
                    c::<T>(-0.5),
                    c::<T>(sign * 0.866_025_403_784_438_646_763_723_170_752_936_2),
                );
                for k in 0..l1 {
                    for i in 0..ido {
                        let t0 = cc[cci(i, 0, k)];
                        let (t1, t2) = pm(cc[cci(i, 1, k)], cc[cci(i, 2, k)]);
                        ch[chi(i, k, 0)] = t0.add(t1);
                        let ca = t0.add(t1.scale(twr));
                        let cb = Cx::new(-t2.i * twi, t2.r * twi);
                        if i == 0 {
                            let (u, v) = pm(ca, cb);
                            ch[chi(0, k, 1)] = u;
                            ch[chi(0, k, 2)] = v;
                        } else {
                            ch[chi(i, k, 1)] = special_mul(fwd, ca.add(cb), self.wa(0, i));
                            ch[chi(i, k, 2)] = special_mul(fwd, ca.sub(cb), self.wa(1, i));
                        }
                    }
                }
                true
            }
            4 => {
                for k in 0..l1 {
                    for i in 0..ido {
                        let (t2, t1) = pm(cc[cci(i, 0, k)], cc[cci(i, 2, k)]);
                        let (t3, t4) = pm(cc[cci(i, 1, k)], cc[cci(i, 3, k)]);
                        let t4 = rotx90(fwd, t4);
                        if i == 0 {
                            let (a, b) = pm(t2, t3);
                            let (d, e) = pm(t1, t4);
                            ch[chi(0, k, 0)] = a;
                            ch[chi(0, k, 2)] = b;
                            ch[chi(0, k, 1)] = d;
                            ch[chi(0, k, 3)] = e;
                        } else {
                            ch[chi(i, k, 0)] = t2.add(t3);
                            ch[chi(i, k, 1)] = special_mul(fwd, t1.add(t4), self.wa(0, i));
                            ch[chi(i, k, 2)] = special_mul(fwd, t2.sub(t3), self.wa(1, i));
                            ch[chi(i, k, 3)] = special_mul(fwd, t1.sub(t4), self.wa(2, i));
                        }
                    }
                }
                true
            }
            5 => {
                let sign = if fwd { -1.0 } else { 1.0 };
                let tw1r = c::<T>(0.309_016_994_374_947_424_102_293_417_182_819_1);
                let tw1i = c::<T>(sign * 0.951_056_516_295_153_572_116_439_333_379_382_1);
                let tw2r = c::<T>(-0.809_016_994_374_947_424_102_293_417_182_819_1);
                let tw2i = c::<T>(sign * 0.587_785_252_292_473_129_168_705_954_639_072_8);
                for k in 0..l1 {
                    for i in 0..ido {
                        let t0 = cc[cci(i, 0, k)];
                        let (t1, t4) = pm(cc[cci(i, 1, k)], cc[cci(i, 4, k)]);
                        let (t2, t3) = pm(cc[cci(i, 2, k)], cc[cci(i, 3, k)]);
                        ch[chi(i, k, 0)] = Cx::new(t0.r + t1.r + t2.r, t0.i + t1.i + t2.i);
                        // (u1, u2, twar, twbr, twai, twbi with its sign)
                        let steps = [
                            (1, 4, tw1r, tw2r, tw1i, tw2i),
                            (2, 3, tw2r, tw1r, tw2i, -tw1i),
                        ];
                        for (u1, u2, twar, twbr, twai, twbi) in steps {
                            let ca = Cx::new(
                                t0.r + twar * t1.r + twbr * t2.r,
                                t0.i + twar * t1.i + twbr * t2.i,
                            );
                            let cb =
                                Cx::new(-(twai * t4.i + twbi * t3.i), twai * t4.r + twbi * t3.r);
                            if i == 0 {
                                let (a, b) = pm(ca, cb);
                                ch[chi(0, k, u1)] = a;
                                ch[chi(0, k, u2)] = b;
                            } else {
                                ch[chi(i, k, u1)] =
                                    special_mul(fwd, ca.add(cb), self.wa(u1 - 1, i));
                                ch[chi(i, k, u2)] =
                                    special_mul(fwd, ca.sub(cb), self.wa(u2 - 1, i));
                            }
                        }
                    }
                }
                true
            }
            8 => self.pass8(fwd, cc, ch),
            _ => unreachable!("plans hold only the radices written here"),
        }
    }

    fn pass8(&self, fwd: bool, cc: &mut [Cx<T>], ch: &mut [Cx<T>]) -> bool {
        let (l1, ido, ip) = (self.l1, self.ido, self.ip);
        let h = c::<T>(0.707_106_781_186_547_524_400_844_362_104_849);
        let rot45 = |a: Cx<T>| {
            if fwd {
                Cx::new(h * (a.r + a.i), h * (a.i - a.r))
            } else {
                Cx::new(h * (a.r - a.i), h * (a.i + a.r))
            }
        };
        let rot135 = |a: Cx<T>| {
            if fwd {
                Cx::new(h * (a.i - a.r), h * (-a.r - a.i))
            } else {
                Cx::new(h * (-a.r - a.i), h * (a.r - a.i))
            }
        };
        // Inputs x[0..8] and outputs y[0..8] of one butterfly; `tw` gives
        // the twiddle of output j (none for the first column).
        let butterfly = |x: [Cx<T>; 8], i: usize| -> [Cx<T>; 8] {
            let (a1, a5) = pm(x[1], x[5]);
            let (a3, a7) = pm(x[3], x[7]);
            let (a1, a3) = (a1.add(a3), a1.sub(a3));
            let a3 = rotx90(fwd, a3);
            let a7 = rotx90(fwd, a7);
            let (a5, a7) = (a5.add(a7), a5.sub(a7));
            let a5 = rot45(a5);
            let a7 = rot135(a7);
            let (a0, a4) = pm(x[0], x[4]);
            let (a2, a6) = pm(x[2], x[6]);
            let mut y = [Cx::default(); 8];
            if i == 0 {
                let (p, q) = pm(a0.add(a2), a1);
                y[0] = p;
                y[4] = q;
                let (p, q) = pm(a0.sub(a2), a3);
                y[2] = p;
                y[6] = q;
                let a6 = rotx90(fwd, a6);
                let (p, q) = pm(a4.add(a6), a5);
                y[1] = p;
                y[5] = q;
                let (p, q) = pm(a4.sub(a6), a7);
                y[3] = p;
                y[7] = q;
            } else {
                let (a0, a2) = (a0.add(a2), a0.sub(a2));
                y[0] = a0.add(a1);
                y[4] = special_mul(fwd, a0.sub(a1), self.wa(3, i));
                y[2] = special_mul(fwd, a2.add(a3), self.wa(1, i));
                y[6] = special_mul(fwd, a2.sub(a3), self.wa(5, i));
                let a6 = rotx90(fwd, a6);
                let (a4, a6) = (a4.add(a6), a4.sub(a6));
                y[1] = special_mul(fwd, a4.add(a5), self.wa(0, i));
                y[5] = special_mul(fwd, a4.sub(a5), self.wa(4, i));
                y[3] = special_mul(fwd, a6.add(a7), self.wa(2, i));
                y[7] = special_mul(fwd, a6.sub(a7), self.wa(6, i));
            }
            y
        };
        if l1 == 1 {
            // In place: element (i, b) at i + ido·b.
            for i in 0..ido {
                let x = std::array::from_fn(|b| cc[i + ido * b]);
                let y = butterfly(x, i);
                for (b, v) in y.into_iter().enumerate() {
                    cc[i + ido * b] = v;
                }
            }
            return false;
        }
        for k in 0..l1 {
            for i in 0..ido {
                let x = std::array::from_fn(|b| cc[i + ido * (b + ip * k)]);
                let y = butterfly(x, i);
                for (b, v) in y.into_iter().enumerate() {
                    ch[i + ido * (k + l1 * b)] = v;
                }
            }
        }
        true
    }
}

/// One real pass of radix `ip` over `l1` x `ido`.
struct RPass<T> {
    ip: usize,
    l1: usize,
    ido: usize,
    /// (ip - 1) x (ido - 1) twiddles as (re, im) pairs.
    wa: Vec<T>,
    /// Generic radix: e^(2πik/ip) for k = 0..ip, as (re, im) pairs.
    csarr: Vec<T>,
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
        let mut in_data = true;
        let order: Vec<&RPass<T>> = if fwd {
            self.passes.iter().rev().collect()
        } else {
            self.passes.iter().collect()
        };
        for p in order {
            let (src, dst): (&mut [T], &mut [T]) = if in_data {
                (data, &mut tmp)
            } else {
                (&mut tmp, data)
            };
            if p.exec(fwd, src, dst) {
                in_data = !in_data;
            }
        }
        if !in_data {
            data.copy_from_slice(&tmp);
        }
        if fct != T::one() {
            for v in data.iter_mut() {
                *v = *v * fct;
            }
        }
    }
}

/// (c·e + d·f, c·f - d·e): conj(c + id)·(e + if).
fn mulpm<T: Flt>(c: T, d: T, e: T, f: T) -> (T, T) {
    (c * e + d * f, c * f - d * e)
}

impl<T: Flt> RPass<T> {
    fn wa(&self, x: usize, i: usize) -> T {
        self.wa[i + x * (self.ido - 1)]
    }

    /// Runs the pass from `cc` into `ch`; false when the result is in `cc`.
    fn exec(&self, fwd: bool, cc: &mut [T], ch: &mut [T]) -> bool {
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

    fn radf2(&self, cc: &[T], ch: &mut [T]) {
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

    fn radb2(&self, cc: &[T], ch: &mut [T]) {
        let (l1, ido) = (self.l1, self.ido);
        let cci = |a, b, k| a + ido * (b + 2 * k);
        let chi = |a, k, b| a + ido * (k + l1 * b);
        for k in 0..l1 {
            ch[chi(0, k, 0)] = cc[cci(0, 0, k)] + cc[cci(ido - 1, 1, k)];
            ch[chi(0, k, 1)] = cc[cci(0, 0, k)] - cc[cci(ido - 1, 1, k)];
        }
        if ido % 2 == 0 {
            for k in 0..l1 {
                ch[chi(ido - 1, k, 0)] = c::<T>(2.0) * cc[cci(ido - 1, 0, k)];
                ch[chi(ido - 1, k, 1)] = c::<T>(-2.0) * cc[cci(0, 1, k)];
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

    fn radf3(&self, cc: &[T], ch: &mut [T]) {
        let (l1, ido) = (self.l1, self.ido);
        let (taur, taui) = (
            c::<T>(-0.5),
            c::<T>(0.866_025_403_784_438_646_763_723_170_752_936_2),
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

    fn radb3(&self, cc: &[T], ch: &mut [T]) {
        let (l1, ido) = (self.l1, self.ido);
        let (taur, taui) = (
            c::<T>(-0.5),
            c::<T>(0.866_025_403_784_438_646_763_723_170_752_936_2),
        );
        let cci = |a, b, k| a + ido * (b + 3 * k);
        let chi = |a, k, b| a + ido * (k + l1 * b);
        let two = c::<T>(2.0);
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

    fn radf4(&self, cc: &[T], ch: &mut [T]) {
        let (l1, ido) = (self.l1, self.ido);
        let hsqt2 = c::<T>(0.707_106_781_186_547_524_400_844_362_104_849);
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

    fn radb4(&self, cc: &[T], ch: &mut [T]) {
        let (l1, ido) = (self.l1, self.ido);
        let sqrt2 = c::<T>(std::f64::consts::SQRT_2);
        let two = c::<T>(2.0);
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

    fn radf5(&self, cc: &[T], ch: &mut [T]) {
        let (l1, ido) = (self.l1, self.ido);
        let tr11 = c::<T>(0.309_016_994_374_947_424_102_293_417_182_819_1);
        let ti11 = c::<T>(0.951_056_516_295_153_572_116_439_333_379_382_1);
        let tr12 = c::<T>(-0.809_016_994_374_947_424_102_293_417_182_819_1);
        let ti12 = c::<T>(0.587_785_252_292_473_129_168_705_954_639_072_8);
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

    fn radb5(&self, cc: &[T], ch: &mut [T]) {
        let (l1, ido) = (self.l1, self.ido);
        let tr11 = c::<T>(0.309_016_994_374_947_424_102_293_417_182_819_1);
        let ti11 = c::<T>(0.951_056_516_295_153_572_116_439_333_379_382_1);
        let tr12 = c::<T>(-0.809_016_994_374_947_424_102_293_417_182_819_1);
        let ti12 = c::<T>(0.587_785_252_292_473_129_168_705_954_639_072_8);
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

    /// Generic odd radix, forward; the result is left in `cc` (returns false).
    fn radfg(&self, cc: &mut [T], ch: &mut [T]) -> bool {
        let (ip, l1, ido) = (self.ip, self.l1, self.ido);
        let cs = &self.csarr;
        let ipph = ip.div_ceil(2);
        let idl1 = ido * l1;
        let c1 = |a: usize, k: usize, b: usize| a + ido * (k + l1 * b);
        let ccx = |a: usize, b: usize, k: usize| a + ido * (b + ip * k);
        let c2 = |a: usize, b: usize| a + idl1 * b;
        if ido > 1 {
            for (j, jc) in (1..ipph).zip((ipph..ip).rev()) {
                let is = (j - 1) * (ido - 1);
                let is2 = (jc - 1) * (ido - 1);
                for k in 0..l1 {
                    let (mut idij, mut idij2) = (is, is2);
                    for i in (1..=ido - 2).step_by(2) {
                        let (t1, t2) = (cc[c1(i, k, j)], cc[c1(i + 1, k, j)]);
                        let (t3, t4) = (cc[c1(i, k, jc)], cc[c1(i + 1, k, jc)]);
                        let w = &self.wa;
                        let x1 = w[idij] * t1 + w[idij + 1] * t2;
                        let x2 = w[idij] * t2 - w[idij + 1] * t1;
                        let x3 = w[idij2] * t3 + w[idij2 + 1] * t4;
                        let x4 = w[idij2] * t4 - w[idij2 + 1] * t3;
                        cc[c1(i, k, j)] = x3 + x1;
                        cc[c1(i + 1, k, jc)] = x3 - x1;
                        cc[c1(i + 1, k, j)] = x2 + x4;
                        cc[c1(i, k, jc)] = x2 - x4;
                        idij += 2;
                        idij2 += 2;
                    }
                }
            }
        }
        for (j, jc) in (1..ipph).zip((ipph..ip).rev()) {
            for k in 0..l1 {
                // MPINPLACE(C1(0,k,jc), C1(0,k,j)): a -= b; b = a_old + b.
                let (a, b) = (cc[c1(0, k, jc)], cc[c1(0, k, j)]);
                cc[c1(0, k, jc)] = a - b;
                cc[c1(0, k, j)] = a + b;
            }
        }
        for (l, lc) in (1..ipph).zip((ipph..ip).rev()) {
            for ik in 0..idl1 {
                ch[c2(ik, l)] =
                    cc[c2(ik, 0)] + cs[2 * l] * cc[c2(ik, 1)] + cs[4 * l] * cc[c2(ik, 2)];
                ch[c2(ik, lc)] =
                    cs[2 * l + 1] * cc[c2(ik, ip - 1)] + cs[4 * l + 1] * cc[c2(ik, ip - 2)];
            }
            let mut iang = 2 * l;
            let (mut j, mut jc) = (3, ip - 3);
            let next = |iang: &mut usize| {
                *iang += l;
                if *iang >= ip {
                    *iang -= ip;
                }
                (cs[2 * *iang], cs[2 * *iang + 1])
            };
            while j + 3 < ipph {
                let (ar1, ai1) = next(&mut iang);
                let (ar2, ai2) = next(&mut iang);
                let (ar3, ai3) = next(&mut iang);
                let (ar4, ai4) = next(&mut iang);
                for ik in 0..idl1 {
                    ch[c2(ik, l)] = ch[c2(ik, l)]
                        + (ar1 * cc[c2(ik, j)]
                            + ar2 * cc[c2(ik, j + 1)]
                            + ar3 * cc[c2(ik, j + 2)]
                            + ar4 * cc[c2(ik, j + 3)]);
                    ch[c2(ik, lc)] = ch[c2(ik, lc)]
                        + (ai1 * cc[c2(ik, jc)]
                            + ai2 * cc[c2(ik, jc - 1)]
                            + ai3 * cc[c2(ik, jc - 2)]
                            + ai4 * cc[c2(ik, jc - 3)]);
                }
                j += 4;
                jc -= 4;
            }
            while j + 1 < ipph {
                let (ar1, ai1) = next(&mut iang);
                let (ar2, ai2) = next(&mut iang);
                for ik in 0..idl1 {
                    ch[c2(ik, l)] = ch[c2(ik, l)] + (ar1 * cc[c2(ik, j)] + ar2 * cc[c2(ik, j + 1)]);
                    ch[c2(ik, lc)] =
                        ch[c2(ik, lc)] + (ai1 * cc[c2(ik, jc)] + ai2 * cc[c2(ik, jc - 1)]);
                }
                j += 2;
                jc -= 2;
            }
            while j < ipph {
                let (ar, ai) = next(&mut iang);
                for ik in 0..idl1 {
                    ch[c2(ik, l)] = ch[c2(ik, l)] + ar * cc[c2(ik, j)];
                    ch[c2(ik, lc)] = ch[c2(ik, lc)] + ai * cc[c2(ik, jc)];
                }
                j += 1;
                jc -= 1;
            }
        }
        for ik in 0..idl1 {
            ch[c2(ik, 0)] = cc[c2(ik, 0)];
        }
        for j in 1..ipph {
            for ik in 0..idl1 {
                ch[c2(ik, 0)] = ch[c2(ik, 0)] + cc[c2(ik, j)];
            }
        }
        for k in 0..l1 {
            for i in 0..ido {
                cc[ccx(i, 0, k)] = ch[c1(i, k, 0)];
            }
        }
        for (j, jc) in (1..ipph).zip((ipph..ip).rev()) {
            let j2 = 2 * j - 1;
            for k in 0..l1 {
                cc[ccx(ido - 1, j2, k)] = ch[c1(0, k, j)];
                cc[ccx(0, j2 + 1, k)] = ch[c1(0, k, jc)];
            }
        }
        if ido == 1 {
            return false;
        }
        for (j, jc) in (1..ipph).zip((ipph..ip).rev()) {
            let j2 = 2 * j - 1;
            for k in 0..l1 {
                let mut ic = ido - 3;
                for i in (1..=ido - 2).step_by(2) {
                    cc[ccx(i, j2 + 1, k)] = ch[c1(i, k, j)] + ch[c1(i, k, jc)];
                    cc[ccx(ic, j2, k)] = ch[c1(i, k, j)] - ch[c1(i, k, jc)];
                    cc[ccx(i + 1, j2 + 1, k)] = ch[c1(i + 1, k, j)] + ch[c1(i + 1, k, jc)];
                    cc[ccx(ic + 1, j2, k)] = ch[c1(i + 1, k, jc)] - ch[c1(i + 1, k, j)];
                    ic = ic.wrapping_sub(2);
                }
            }
        }
        false
    }

    /// Generic odd radix, backward; the result is in `ch` (returns true).
    fn radbg(&self, cc: &mut [T], ch: &mut [T]) -> bool {
        let (ip, l1, ido) = (self.ip, self.l1, self.ido);
        let cs = &self.csarr;
        let ipph = ip.div_ceil(2);
        let idl1 = ido * l1;
        let ccx = |a: usize, b: usize, k: usize| a + ido * (b + ip * k);
        let chx = |a: usize, k: usize, b: usize| a + ido * (k + l1 * b);
        let c2 = |a: usize, b: usize| a + idl1 * b;
        let two = c::<T>(2.0);
        for k in 0..l1 {
            for i in 0..ido {
                ch[chx(i, k, 0)] = cc[ccx(i, 0, k)];
            }
        }
        for (j, jc) in (1..ipph).zip((ipph..ip).rev()) {
            let j2 = 2 * j - 1;
            for k in 0..l1 {
                ch[chx(0, k, j)] = two * cc[ccx(ido - 1, j2, k)];
                ch[chx(0, k, jc)] = two * cc[ccx(0, j2 + 1, k)];
            }
        }
        if ido != 1 {
            for (j, jc) in (1..ipph).zip((ipph..ip).rev()) {
                let j2 = 2 * j - 1;
                for k in 0..l1 {
                    let mut ic = ido - 3;
                    for i in (1..=ido - 2).step_by(2) {
                        ch[chx(i, k, j)] = cc[ccx(i, j2 + 1, k)] + cc[ccx(ic, j2, k)];
                        ch[chx(i, k, jc)] = cc[ccx(i, j2 + 1, k)] - cc[ccx(ic, j2, k)];
                        ch[chx(i + 1, k, j)] = cc[ccx(i + 1, j2 + 1, k)] - cc[ccx(ic + 1, j2, k)];
                        ch[chx(i + 1, k, jc)] = cc[ccx(i + 1, j2 + 1, k)] + cc[ccx(ic + 1, j2, k)];
                        ic = ic.wrapping_sub(2);
                    }
                }
            }
        }
        for (l, lc) in (1..ipph).zip((ipph..ip).rev()) {
            for ik in 0..idl1 {
                cc[c2(ik, l)] =
                    ch[c2(ik, 0)] + cs[2 * l] * ch[c2(ik, 1)] + cs[4 * l] * ch[c2(ik, 2)];
                cc[c2(ik, lc)] =
                    cs[2 * l + 1] * ch[c2(ik, ip - 1)] + cs[4 * l + 1] * ch[c2(ik, ip - 2)];
            }
            let mut iang = 2 * l;
            let (mut j, mut jc) = (3, ip - 3);
            // Backward wraps only past ip (DUCC's `iang>ip`).
            let next = |iang: &mut usize| {
                *iang += l;
                if *iang > ip {
                    *iang -= ip;
                }
                (cs[2 * *iang], cs[2 * *iang + 1])
            };
            while j + 3 < ipph {
                let (ar1, ai1) = next(&mut iang);
                let (ar2, ai2) = next(&mut iang);
                let (ar3, ai3) = next(&mut iang);
                let (ar4, ai4) = next(&mut iang);
                for ik in 0..idl1 {
                    cc[c2(ik, l)] = cc[c2(ik, l)]
                        + (ar1 * ch[c2(ik, j)]
                            + ar2 * ch[c2(ik, j + 1)]
                            + ar3 * ch[c2(ik, j + 2)]
                            + ar4 * ch[c2(ik, j + 3)]);
                    cc[c2(ik, lc)] = cc[c2(ik, lc)]
                        + (ai1 * ch[c2(ik, jc)]
                            + ai2 * ch[c2(ik, jc - 1)]
                            + ai3 * ch[c2(ik, jc - 2)]
                            + ai4 * ch[c2(ik, jc - 3)]);
                }
                j += 4;
                jc -= 4;
            }
            while j + 1 < ipph {
                let (ar1, ai1) = next(&mut iang);
                let (ar2, ai2) = next(&mut iang);
                for ik in 0..idl1 {
                    cc[c2(ik, l)] = cc[c2(ik, l)] + (ar1 * ch[c2(ik, j)] + ar2 * ch[c2(ik, j + 1)]);
                    cc[c2(ik, lc)] =
                        cc[c2(ik, lc)] + (ai1 * ch[c2(ik, jc)] + ai2 * ch[c2(ik, jc - 1)]);
                }
                j += 2;
                jc -= 2;
            }
            while j < ipph {
                let (ar, ai) = next(&mut iang);
                for ik in 0..idl1 {
                    cc[c2(ik, l)] = cc[c2(ik, l)] + ar * ch[c2(ik, j)];
                    cc[c2(ik, lc)] = cc[c2(ik, lc)] + ai * ch[c2(ik, jc)];
                }
                j += 1;
                jc -= 1;
            }
        }
        for j in 1..ipph {
            for ik in 0..idl1 {
                ch[c2(ik, 0)] = ch[c2(ik, 0)] + ch[c2(ik, j)];
            }
        }
        for (j, jc) in (1..ipph).zip((ipph..ip).rev()) {
            for k in 0..l1 {
                let (a, b) = (cc[chx(0, k, j)], cc[chx(0, k, jc)]);
                ch[chx(0, k, jc)] = a + b;
                ch[chx(0, k, j)] = a - b;
            }
        }
        if ido == 1 {
            return true;
        }
        for (j, jc) in (1..ipph).zip((ipph..ip).rev()) {
            for k in 0..l1 {
                for i in (1..=ido - 2).step_by(2) {
                    ch[chx(i, k, j)] = cc[chx(i, k, j)] - cc[chx(i + 1, k, jc)];
                    ch[chx(i, k, jc)] = cc[chx(i, k, j)] + cc[chx(i + 1, k, jc)];
                    ch[chx(i + 1, k, j)] = cc[chx(i + 1, k, j)] + cc[chx(i, k, jc)];
                    ch[chx(i + 1, k, jc)] = cc[chx(i + 1, k, j)] - cc[chx(i, k, jc)];
                }
            }
        }
        for j in 1..ip {
            let is = (j - 1) * (ido - 1);
            for k in 0..l1 {
                let mut idij = is;
                for i in (1..=ido - 2).step_by(2) {
                    let (t1, t2) = (ch[chx(i, k, j)], ch[chx(i + 1, k, j)]);
                    ch[chx(i, k, j)] = self.wa[idij] * t1 - self.wa[idij + 1] * t2;
                    ch[chx(i + 1, k, j)] = self.wa[idij] * t2 + self.wa[idij + 1] * t1;
                    idij += 2;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angle_rounds_through_long_double() {
        // (π/4 in x87 long double) / n, rounded to long double, then double.
        for (n, want) in [
            (17, 0x3fa7_a783_2222_0c53u64),
            (33, 0x3f98_5f03_3a70_a7d9),
            (16, 0x3fa9_21fb_5444_2d18),
            (15, 0x3faa_cee9_f37b_ebd6),
            (7, 0x3fbc_b91f_3bbb_a140),
        ] {
            assert_eq!(quarter_pi_over(n).to_bits(), want, "n = {n}");
        }
    }

    #[test]
    fn plans_match_a_direct_dft() {
        for n in [1usize, 2, 3, 4, 5, 6, 8, 9, 12, 15, 16, 20, 30, 40, 120] {
            let plan = CPlan::<f64>::new(n).expect("covered length");
            let x: Vec<Cx<f64>> = (0..n)
                .map(|k| Cx::new((k as f64 * 0.7).sin(), (k as f64 * 0.3).cos()))
                .collect();
            for fwd in [true, false] {
                let mut y = x.clone();
                plan.exec(&mut y, fwd, 1.0);
                let s = if fwd { -1.0 } else { 1.0 };
                for (j, v) in y.iter().enumerate() {
                    let (mut re, mut im) = (0.0, 0.0);
                    for (k, a) in x.iter().enumerate() {
                        let t = s * 2.0 * std::f64::consts::PI * (j * k % n) as f64 / n as f64;
                        re += a.r * t.cos() - a.i * t.sin();
                        im += a.r * t.sin() + a.i * t.cos();
                    }
                    assert!(
                        (v.r - re).abs() < 1e-12 && (v.i - im).abs() < 1e-12,
                        "n = {n}, fwd = {fwd}"
                    );
                }
            }
        }
        for n in [1usize, 2, 3, 4, 5, 7, 11, 16, 17, 33, 45, 127] {
            let plan = RPlan::<f64>::new(n).expect("covered length");
            let x: Vec<f64> = (0..n).map(|k| (k as f64 * 0.9).sin() + 0.25).collect();
            let mut y = x.clone();
            plan.exec(&mut y, true, 1.0);
            // Halfcomplex: r0, r1, i1, r2, i2, ...
            for j in 0..n / 2 + 1 {
                let (mut re, mut im) = (0.0, 0.0);
                for (k, a) in x.iter().enumerate() {
                    let t = -2.0 * std::f64::consts::PI * (j * k % n) as f64 / n as f64;
                    re += a * t.cos();
                    im += a * t.sin();
                }
                let got_re = if j == 0 { y[0] } else { y[2 * j - 1] };
                let got_im = if j == 0 || 2 * j == n { 0.0 } else { y[2 * j] };
                assert!(
                    (got_re - re).abs() < 1e-12 && (got_im - im).abs() < 1e-12,
                    "n = {n}"
                );
            }
            plan.exec(&mut y, false, 1.0 / n as f64);
            for (a, b) in y.iter().zip(&x) {
                assert!((a - b).abs() < 1e-12, "n = {n} round trip");
            }
        }
    }
}
