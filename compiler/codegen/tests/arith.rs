//! End-to-end tests of `arith` lowering: every op on scalars passed by
//! value, results stored into an output buffer, compared with Rust.

mod common;

use common::build;

/// A function `@f(%x: T, %y: T, %out: memref<NxR>)` storing the result of
/// each `(op, unary)` into `%out[k]`.
fn table(t: &str, r: &str, ops: &[(&str, bool)]) -> String {
    let n = ops.len();
    let mut s = format!("func.func @f(%x: {t}, %y: {t}, %out: memref<{n}x{r}>) {{\n");
    for (k, (op, unary)) in ops.iter().enumerate() {
        let (args, sig) = if *unary {
            ("%x".to_string(), t.to_string())
        } else {
            ("%x, %y".to_string(), format!("{t}, {t}"))
        };
        s += &format!("  %k{k} = \"arith.constant\"() {{value = {k} : index}} : () -> index\n");
        s += &format!("  %v{k} = \"{op}\"({args}) : ({sig}) -> {r}\n");
        s +=
            &format!("  \"mem.store\"(%v{k}, %out, %k{k}) : ({r}, memref<{n}x{r}>, index) -> ()\n");
    }
    s + "  func.return\n}\n"
}

#[test]
fn integer_ops() {
    let binary = [
        "addi", "subi", "muli", "divsi", "divui", "remsi", "remui", "andi", "ori", "xori", "shli",
        "shrsi", "shrui", "maxsi", "minsi", "maxui", "minui",
    ];
    let names: Vec<(String, bool)> = binary
        .iter()
        .map(|o| (format!("arith.{o}"), false))
        .chain([
            ("arith.ctlz".to_string(), true),
            ("arith.popcount".to_string(), true),
        ])
        .collect();
    let ops: Vec<(&str, bool)> = names.iter().map(|(n, u)| (n.as_str(), *u)).collect();
    let lib = build(&table("i32", "i32", &ops));
    let f: unsafe extern "C" fn(i32, i32, *mut i32) -> i32 = lib.func("p_f");
    for (x, y) in [(-17i32, 5i32), (1000, 3), (i32::MIN + 1, 7), (12, 31)] {
        let mut out = [0i32; 19];
        assert_eq!(unsafe { f(x, y, out.as_mut_ptr()) }, 0);
        let (ux, uy) = (x as u32, y as u32);
        let want = [
            x.wrapping_add(y),
            x.wrapping_sub(y),
            x.wrapping_mul(y),
            x / y,
            (ux / uy) as i32,
            x % y,
            (ux % uy) as i32,
            x & y,
            x | y,
            x ^ y,
            x << y,
            x >> y,
            (ux >> uy) as i32,
            x.max(y),
            x.min(y),
            ux.max(uy) as i32,
            ux.min(uy) as i32,
            x.leading_zeros() as i32,
            x.count_ones() as i32,
        ];
        assert_eq!(out, want, "x = {x}, y = {y}");
    }
}

const FLOAT_OPS: [(&str, bool); 28] = [
    ("arith.addf", false),
    ("arith.subf", false),
    ("arith.mulf", false),
    ("arith.divf", false),
    ("arith.remf", false),
    ("arith.powf", false),
    ("arith.atan2", false),
    ("arith.maximumf", false),
    ("arith.minimumf", false),
    ("arith.copysign", false),
    ("arith.negf", true),
    ("arith.absf", true),
    ("arith.sqrt", true),
    ("arith.rsqrt", true),
    ("arith.exp", true),
    ("arith.expm1", true),
    ("arith.log", true),
    ("arith.log1p", true),
    ("arith.sin", true),
    ("arith.cos", true),
    ("arith.tan", true),
    ("arith.tanh", true),
    ("arith.floor", true),
    ("arith.ceil", true),
    ("arith.round", true),
    ("arith.roundeven", true),
    ("arith.cbrt", true),
    ("arith.absf", true),
];

fn float_reference(x: f64, y: f64) -> [f64; 28] {
    [
        x + y,
        x - y,
        x * y,
        x / y,
        x % y,
        x.powf(y),
        x.atan2(y),
        if x.is_nan() || y.is_nan() {
            f64::NAN
        } else {
            x.max(y)
        },
        if x.is_nan() || y.is_nan() {
            f64::NAN
        } else {
            x.min(y)
        },
        x.copysign(y),
        -x,
        x.abs(),
        x.sqrt(),
        1.0 / x.sqrt(),
        x.exp(),
        x.exp_m1(),
        x.ln(),
        x.ln_1p(),
        x.sin(),
        x.cos(),
        x.tan(),
        x.tanh(),
        x.floor(),
        x.ceil(),
        x.round(),
        x.round_ties_even(),
        x.cbrt(),
        x.abs(),
    ]
}

fn close(got: f64, want: f64, rel: f64) -> bool {
    (got.is_nan() && want.is_nan())
        || got == want
        || (got - want).abs() <= rel * want.abs().max(1e-30)
}

#[test]
fn float_ops_f64_and_f32() {
    let lib64 = build(&table("f64", "f64", &FLOAT_OPS));
    let lib32 = build(&table("f32", "f32", &FLOAT_OPS));
    let f64f: unsafe extern "C" fn(f64, f64, *mut f64) -> i32 = lib64.func("p_f");
    let f32f: unsafe extern "C" fn(f32, f32, *mut f32) -> i32 = lib32.func("p_f");
    for (x, y) in [
        (2.5f64, -1.5f64),
        (0.75, 3.0),
        (-2.5, 0.5),
        (f64::NAN, 1.0),
        (3.5, f64::NAN),
    ] {
        let want = float_reference(x, y);
        let mut out = [0f64; 28];
        assert_eq!(unsafe { f64f(x, y, out.as_mut_ptr()) }, 0);
        for (k, (g, w)) in out.iter().zip(want).enumerate() {
            assert!(
                close(*g, w, 1e-15),
                "f64 {} ({x}, {y}): got {g}, want {w}",
                FLOAT_OPS[k].0
            );
        }
        let mut out = [0f32; 28];
        assert_eq!(unsafe { f32f(x as f32, y as f32, out.as_mut_ptr()) }, 0);
        for (k, (g, w)) in out.iter().zip(want).enumerate() {
            assert!(
                close(*g as f64, w, 1e-6),
                "f32 {} ({x}, {y}): got {g}, want {w}",
                FLOAT_OPS[k].0
            );
        }
    }
}

#[test]
fn compares_and_select() {
    let preds = [
        "oeq", "one", "olt", "ole", "ogt", "oge", "ueq", "une", "ult", "ule", "ugt", "uge", "ord",
        "uno",
    ];
    let mut s = String::from(
        "func.func @f(%x: f32, %y: f32, %out: memref<14xi1>, %sel: memref<1xf32>) {\n",
    );
    for (k, p) in preds.iter().enumerate() {
        s += &format!("  %k{k} = \"arith.constant\"() {{value = {k} : index}} : () -> index\n");
        s += &format!(
            "  %v{k} = \"arith.cmpf\"(%x, %y) {{predicate = \"{p}\"}} : (f32, f32) -> i1\n"
        );
        s += &format!("  \"mem.store\"(%v{k}, %out, %k{k}) : (i1, memref<14xi1>, index) -> ()\n");
    }
    s += "  %s = \"arith.select\"(%v2, %x, %y) : (i1, f32, f32) -> f32\n";
    s += "  \"mem.store\"(%s, %sel, %k0) : (f32, memref<1xf32>, index) -> ()\n  func.return\n}\n";
    let lib = build(&s);
    let f: unsafe extern "C" fn(f32, f32, *mut u8, *mut f32) -> i32 = lib.func("p_f");
    for (x, y) in [(1.0f32, 2.0f32), (2.0, 2.0), (3.0, f32::NAN)] {
        let (mut out, mut sel) = ([7u8; 14], [0f32]);
        assert_eq!(unsafe { f(x, y, out.as_mut_ptr(), sel.as_mut_ptr()) }, 0);
        let uno = x.is_nan() || y.is_nan();
        let want = [
            x == y,
            !uno && x != y,
            x < y,
            x <= y,
            x > y,
            x >= y,
            uno || x == y,
            uno || x != y,
            uno || x < y,
            uno || x <= y,
            uno || x > y,
            uno || x >= y,
            !uno,
            uno,
        ]
        .map(u8::from);
        assert_eq!(out, want, "({x}, {y})");
        assert_eq!(sel[0].to_bits(), if x < y { x } else { y }.to_bits());
    }
}

/// Correctly rounded `f64 → bf16` for normal values (the `half` crate
/// rounds through `f32`, which can round twice).
fn bf16_from_f64(x: f64) -> u16 {
    let bits = x.to_bits();
    let drop = 52 - 7;
    let half = 1u64 << (drop - 1);
    let rest = bits & ((1u64 << drop) - 1);
    let mut kept = bits >> drop;
    if rest > half || (rest == half && kept & 1 == 1) {
        kept += 1;
    }
    half::bf16::from_f64(f64::from_bits(kept << drop)).to_bits()
}

/// Casts between integer and float types, with `bf16`/`f16` data as bits.
#[test]
fn conversions() {
    let text = r#"func.func @f(%x: f64, %i: i32, %o: memref<13xi64>) {
  %k0 = "arith.constant"() {value = 0 : index} : () -> index
  %k1 = "arith.constant"() {value = 1 : index} : () -> index
  %k2 = "arith.constant"() {value = 2 : index} : () -> index
  %k3 = "arith.constant"() {value = 3 : index} : () -> index
  %k4 = "arith.constant"() {value = 4 : index} : () -> index
  %k5 = "arith.constant"() {value = 5 : index} : () -> index
  %k6 = "arith.constant"() {value = 6 : index} : () -> index
  %k7 = "arith.constant"() {value = 7 : index} : () -> index
  %k8 = "arith.constant"() {value = 8 : index} : () -> index
  %k9 = "arith.constant"() {value = 9 : index} : () -> index
  %a = "arith.fptosi"(%x) : (f64) -> i8
  %a1 = "arith.extsi"(%a) : (i8) -> i64
  "mem.store"(%a1, %o, %k0) : (i64, memref<13xi64>, index) -> ()
  %b = "arith.fptoui"(%x) : (f64) -> ui8
  %b1 = "arith.extui"(%b) : (ui8) -> i64
  "mem.store"(%b1, %o, %k1) : (i64, memref<13xi64>, index) -> ()
  %c = "arith.truncf"(%x) : (f64) -> bf16
  %c1 = "arith.bitcast"(%c) : (bf16) -> i16
  %c2 = "arith.extui"(%c1) : (i16) -> i64
  "mem.store"(%c2, %o, %k2) : (i64, memref<13xi64>, index) -> ()
  %d = "arith.truncf"(%x) : (f64) -> f16
  %d1 = "arith.bitcast"(%d) : (f16) -> i16
  %d2 = "arith.extui"(%d1) : (i16) -> i64
  "mem.store"(%d2, %o, %k3) : (i64, memref<13xi64>, index) -> ()
  %e = "arith.sitofp"(%i) : (i32) -> bf16
  %e1 = "arith.extf"(%e) : (bf16) -> f64
  %e2 = "arith.bitcast"(%e1) : (f64) -> i64
  "mem.store"(%e2, %o, %k4) : (i64, memref<13xi64>, index) -> ()
  %f = "arith.uitofp"(%i) : (i32) -> f32
  %f1 = "arith.extf"(%f) : (f32) -> f64
  %f2 = "arith.bitcast"(%f1) : (f64) -> i64
  "mem.store"(%f2, %o, %k5) : (i64, memref<13xi64>, index) -> ()
  %g = "arith.index_cast"(%i) : (i32) -> index
  %g1 = "arith.index_cast"(%g) : (index) -> i64
  "mem.store"(%g1, %o, %k6) : (i64, memref<13xi64>, index) -> ()
  %h = "arith.trunci"(%i) : (i32) -> i8
  %h1 = "arith.extsi"(%h) : (i8) -> i64
  "mem.store"(%h1, %o, %k7) : (i64, memref<13xi64>, index) -> ()
  %j = "arith.truncf"(%x) : (f64) -> f16
  %j1 = "arith.extf"(%j) : (f16) -> bf16
  %j2 = "arith.bitcast"(%j1) : (bf16) -> i16
  %j3 = "arith.extui"(%j2) : (i16) -> i64
  "mem.store"(%j3, %o, %k8) : (i64, memref<13xi64>, index) -> ()
  %l = "arith.truncf"(%x) : (f64) -> bf16
  %l1 = "arith.sqrt"(%l) : (bf16) -> bf16
  %l2 = "arith.fptosi"(%l1) : (bf16) -> i64
  "mem.store"(%l2, %o, %k9) : (i64, memref<13xi64>, index) -> ()
  func.return
}
"#;
    let lib = build(text);
    let f: unsafe extern "C" fn(f64, i32, *mut i64) -> i32 = lib.func("p_f");
    let halfway = 1.0 + 2f64.powi(-8) + 2f64.powi(-30);
    for (x, i) in [
        (-3.7f64, -7i32),
        (1e10, 16_777_217),
        (f64::NAN, 255),
        (halfway, -1),
        (-1e10, 300),
        (300.0, 3),
    ] {
        let mut o = [0i64; 13];
        assert_eq!(unsafe { f(x, i, o.as_mut_ptr()) }, 0);
        let sat_i8 = if x.is_nan() {
            0
        } else {
            x.clamp(-128.0, 127.0) as i64
        };
        let sat_u8 = if x.is_nan() {
            0
        } else {
            x.clamp(0.0, 255.0) as i64
        };
        assert_eq!(o[0], sat_i8, "fptosi {x}");
        assert_eq!(o[1], sat_u8, "fptoui {x}");
        if !x.is_nan() {
            assert_eq!(o[2], bf16_from_f64(x) as i64, "truncf {x} to bf16");
            assert_eq!(
                o[8],
                half::bf16::from_f32(half::f16::from_f64(x).to_f32()).to_bits() as i64,
                "f16 to bf16"
            );
            let r = half::bf16::from_bits(bf16_from_f64(x)).to_f32().sqrt();
            let want = if r.is_nan() {
                0
            } else {
                half::bf16::from_f32(r).to_f32() as i64
            };
            assert_eq!(o[9], want, "bf16 sqrt {x}");
        } else {
            assert_eq!(o[2] & 0x7f80, 0x7f80, "NaN stays NaN in bf16");
            assert_ne!(o[2] & 0x7f, 0);
        }
        assert_eq!(
            o[3],
            half::f16::from_f64(x).to_bits() as i64,
            "truncf {x} to f16"
        );
        assert_eq!(
            f64::from_bits(o[4] as u64),
            half::bf16::from_f64(i as f64).to_f64(),
            "sitofp {i} to bf16"
        );
        assert_eq!(
            f64::from_bits(o[5] as u64),
            (i as u32) as f32 as f64,
            "uitofp {i}"
        );
        assert_eq!(o[6], i as i64, "index_cast {i}");
        assert_eq!(o[7], i as i8 as i64, "trunci {i}");
    }
}

/// `f16` and `bf16` arithmetic on buffers of raw 16-bit values.
#[test]
fn half_precision_buffers() {
    let body = r#"    %x = "mem.load"(%a, %i) : (memref<4xbf16>, index) -> bf16
    %y = "mem.load"(%b, %i) : (memref<4xbf16>, index) -> bf16
    %s = "arith.addf"(%x, %y) : (bf16, bf16) -> bf16
    %n = "arith.negf"(%s) : (bf16) -> bf16
    "mem.store"(%n, %out, %i) : (bf16, memref<4xbf16>, index) -> ()
    %h = "mem.load"(%c, %i) : (memref<4xf16>, index) -> f16
    %t = "arith.tanh"(%h) : (f16) -> f16
    %m = "arith.maximumf"(%t, %h) : (f16, f16) -> f16
    "mem.store"(%m, %hout, %i) : (f16, memref<4xf16>, index) -> ()"#;
    let text = format!(
        "func.func @f(%a: memref<4xbf16>, %b: memref<4xbf16>, %out: memref<4xbf16>, %c: memref<4xf16>, %hout: memref<4xf16>) {{\n  {}\n  func.return\n}}\n",
        common::for_loop("i", 4, body)
    );
    let lib = build(&text);
    type F = unsafe extern "C" fn(*const u16, *const u16, *mut u16, *const u16, *mut u16) -> i32;
    let f: F = lib.func("p_f");
    let bf = |v: f32| half::bf16::from_f32(v).to_bits();
    let hf = |v: f32| half::f16::from_f32(v).to_bits();
    let a = [bf(1.0), bf(0.1), bf(-3.5), bf(1e30)];
    let b = [bf(2.0), bf(0.2), bf(0.25), bf(1e30)];
    let c = [hf(0.5), hf(-2.0), hf(-0.0), hf(100.0)];
    let (mut out, mut hout) = ([0u16; 4], [0u16; 4]);
    assert_eq!(
        unsafe {
            f(
                a.as_ptr(),
                b.as_ptr(),
                out.as_mut_ptr(),
                c.as_ptr(),
                hout.as_mut_ptr(),
            )
        },
        0
    );
    for k in 0..4 {
        let x = half::bf16::from_bits(a[k]).to_f32() + half::bf16::from_bits(b[k]).to_f32();
        assert_eq!(out[k], bf(-x), "bf16 lane {k}");
        let h = half::f16::from_bits(c[k]).to_f32();
        let t = half::f16::from_f32(h.tanh()).to_f32();
        assert_eq!(
            half::f16::from_bits(hout[k]).to_f32(),
            t.max(h),
            "f16 lane {k}"
        );
    }
}

#[test]
fn libm_calls_with_runtime_scalars() {
    let text = r#"func.func private @ext_scale(f64, i8) -> f64
func.func @f(%x: f64, %o: memref<2xf64>) {
  %k0 = "arith.constant"() {value = 0 : index} : () -> index
  %k1 = "arith.constant"() {value = 1 : index} : () -> index
  %t = "arith.tanh"(%x) : (f64) -> f64
  "mem.store"(%t, %o, %k0) : (f64, memref<2xf64>, index) -> ()
  %m = "arith.constant"() {value = -3 : i8} : () -> i8
  %s = func.call @ext_scale(%x, %m) : (f64, i8) -> f64
  "mem.store"(%s, %o, %k1) : (f64, memref<2xf64>, index) -> ()
  func.return
}
"#;
    let lib = build(text);
    let f: unsafe extern "C" fn(f64, *mut f64) -> i32 = lib.func("p_f");
    let mut o = [0f64; 2];
    assert_eq!(unsafe { f(0.5, o.as_mut_ptr()) }, 0);
    assert_eq!(o, [0.5f64.tanh(), -1.5]);
}
