//! Real plans: DUCC's generic odd-radix passes (radfg, radbg).

use super::real::RPass;
use super::*;

impl<T: Flt> RPass<T> {
    /// Generic odd radix, forward; the result is left in `cc` (returns false).
    #[inline(always)]
    pub(super) fn radfg<L: Lane<T>>(&self, cc: &mut [L], ch: &mut [L]) -> bool {
        let (ip, l1, ido) = (self.ip, self.l1, self.ido);
        let cs = |i: usize| L::splat(self.csarr[i]);
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
                        let w = |i: usize| L::splat(self.wa[i]);
                        let x1 = w(idij) * t1 + w(idij + 1) * t2;
                        let x2 = w(idij) * t2 - w(idij + 1) * t1;
                        let x3 = w(idij2) * t3 + w(idij2 + 1) * t4;
                        let x4 = w(idij2) * t4 - w(idij2 + 1) * t3;
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
                    cc[c2(ik, 0)] + cs(2 * l) * cc[c2(ik, 1)] + cs(4 * l) * cc[c2(ik, 2)];
                ch[c2(ik, lc)] =
                    cs(2 * l + 1) * cc[c2(ik, ip - 1)] + cs(4 * l + 1) * cc[c2(ik, ip - 2)];
            }
            let mut iang = 2 * l;
            let (mut j, mut jc) = (3, ip - 3);
            let next = |iang: &mut usize| {
                *iang += l;
                if *iang >= ip {
                    *iang -= ip;
                }
                (cs(2 * *iang), cs(2 * *iang + 1))
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
    #[inline(always)]
    pub(super) fn radbg<L: Lane<T>>(&self, cc: &mut [L], ch: &mut [L]) -> bool {
        let (ip, l1, ido) = (self.ip, self.l1, self.ido);
        let cs = |i: usize| L::splat(self.csarr[i]);
        let ipph = ip.div_ceil(2);
        let idl1 = ido * l1;
        let ccx = |a: usize, b: usize, k: usize| a + ido * (b + ip * k);
        let chx = |a: usize, k: usize, b: usize| a + ido * (k + l1 * b);
        let c2 = |a: usize, b: usize| a + idl1 * b;
        let two = konst::<T, L>(2.0);
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
                    ch[c2(ik, 0)] + cs(2 * l) * ch[c2(ik, 1)] + cs(4 * l) * ch[c2(ik, 2)];
                cc[c2(ik, lc)] =
                    cs(2 * l + 1) * ch[c2(ik, ip - 1)] + cs(4 * l + 1) * ch[c2(ik, ip - 2)];
            }
            let mut iang = 2 * l;
            let (mut j, mut jc) = (3, ip - 3);
            // Backward wraps only past ip (DUCC's `iang>ip`).
            let next = |iang: &mut usize| {
                *iang += l;
                if *iang > ip {
                    *iang -= ip;
                }
                (cs(2 * *iang), cs(2 * *iang + 1))
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
                    ch[chx(i, k, j)] =
                        L::splat(self.wa[idij]) * t1 - L::splat(self.wa[idij + 1]) * t2;
                    ch[chx(i + 1, k, j)] =
                        L::splat(self.wa[idij]) * t2 + L::splat(self.wa[idij + 1]) * t1;
                    idij += 2;
                }
            }
        }
        true
    }
}
