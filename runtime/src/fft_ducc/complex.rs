//! Complex plans: DUCC's passes of radix 2, 3, 4, 5 and 8, over one line
//! (`exec`) or over [`LANES`] lines at once (`exec_lanes` on [`Pack`]s).

use super::*;

/// Lines a plan transforms at once on `Pack`s: 8 f32 fill an AVX2
/// register (two with f64).
pub const LANES: usize = 8;

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
        self.exec_lanes(data, &mut tmp, fwd, fct);
    }

    /// `exec` of the lines held in the lanes of `data` (length n), with
    /// `tmp` (length n) as scratch.
    #[inline(always)]
    pub fn exec_lanes<L: Lane<T>>(&self, data: &mut [Cx<L>], tmp: &mut [Cx<L>], fwd: bool, fct: T) {
        let mut in_data = true;
        for p in &self.passes {
            let (src, dst): (&mut [Cx<L>], &mut [Cx<L>]) =
                if in_data { (data, tmp) } else { (tmp, data) };
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
                *v = v.scale(f);
            }
        }
    }
}

impl<T: Flt> CPass<T> {
    #[inline(always)]
    fn wa<L: Lane<T>>(&self, x: usize, i: usize) -> Cx<L> {
        splat_cx(self.wa[x + (i - 1) * (self.ip - 1)])
    }

    /// Runs the pass from `cc` into `ch`; returns false when the result was
    /// left in `cc` instead (radix 8 with l1 = 1 works in place).
    #[inline(always)]
    fn exec<L: Lane<T>>(&self, fwd: bool, cc: &mut [Cx<L>], ch: &mut [Cx<L>]) -> bool {
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
                        ch[chi(i, k, 1)] = special_mul(fwd, x.sub(y), self.wa(0, i));
                    }
                }
                true
            }
            3 => {
                let sign = if fwd { -1.0 } else { 1.0 };
                let (twr, twi) = (
                    L::splat(c::<T>(-0.5)),
                    L::splat(c::<T>(
                        sign * 0.866_025_403_784_438_646_763_723_170_752_936_2,
                    )),
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
                let tw = |v: f64| L::splat(c::<T>(v));
                let tw1r = tw(0.309_016_994_374_947_424_102_293_417_182_819_1);
                let tw1i = tw(sign * 0.951_056_516_295_153_572_116_439_333_379_382_1);
                let tw2r = tw(-0.809_016_994_374_947_424_102_293_417_182_819_1);
                let tw2i = tw(sign * 0.587_785_252_292_473_129_168_705_954_639_072_8);
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

    /// One radix-8 butterfly: inputs x[0..8] to outputs y[0..8], output j
    /// times its twiddle (none for the first column, i = 0).
    #[inline(always)]
    fn butterfly8<L: Lane<T>>(&self, fwd: bool, x: [Cx<L>; 8], i: usize) -> [Cx<L>; 8] {
        let h = L::splat(c::<T>(0.707_106_781_186_547_524_400_844_362_104_849));
        let (a1, a5) = pm(x[1], x[5]);
        let (a3, a7) = pm(x[3], x[7]);
        let (a1, a3) = (a1.add(a3), a1.sub(a3));
        let a3 = rotx90(fwd, a3);
        let a7 = rotx90(fwd, a7);
        let (a5, a7) = (a5.add(a7), a5.sub(a7));
        let a5 = rot45(fwd, h, a5);
        let a7 = rot135(fwd, h, a7);
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
    }

    #[inline(always)]
    fn pass8<L: Lane<T>>(&self, fwd: bool, cc: &mut [Cx<L>], ch: &mut [Cx<L>]) -> bool {
        let (l1, ido, ip) = (self.l1, self.ido, self.ip);
        if l1 == 1 {
            // In place: element (i, b) at i + ido·b.
            for i in 0..ido {
                let x = std::array::from_fn(|b| cc[i + ido * b]);
                let y = self.butterfly8(fwd, x, i);
                for (b, v) in y.into_iter().enumerate() {
                    cc[i + ido * b] = v;
                }
            }
            return false;
        }
        for k in 0..l1 {
            for i in 0..ido {
                let x = std::array::from_fn(|b| cc[i + ido * (b + ip * k)]);
                let y = self.butterfly8(fwd, x, i);
                for (b, v) in y.into_iter().enumerate() {
                    ch[i + ido * (k + l1 * b)] = v;
                }
            }
        }
        true
    }
}

/// a times e^(∓iπ/4) (forward / backward), `h` being √2/2.
#[inline(always)]
fn rot45<L: Arith>(fwd: bool, h: L, a: Cx<L>) -> Cx<L> {
    if fwd {
        Cx::new(h * (a.r + a.i), h * (a.i - a.r))
    } else {
        Cx::new(h * (a.r - a.i), h * (a.i + a.r))
    }
}

/// a times e^(∓3iπ/4) (forward / backward), `h` being √2/2.
#[inline(always)]
fn rot135<L: Arith>(fwd: bool, h: L, a: Cx<L>) -> Cx<L> {
    if fwd {
        Cx::new(h * (a.i - a.r), h * (-a.r - a.i))
    } else {
        Cx::new(h * (-a.r - a.i), h * (a.r - a.i))
    }
}
