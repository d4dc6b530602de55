//! End-to-end tests of `mem` and `loop` lowering: compile, link, dlopen,
//! call the exported wrappers on real buffers.

mod common;

use common::{build, emit, for_loop};
use strata_codegen::EmitKind;

type Fn3<A, B, C> = unsafe extern "C" fn(A, B, C) -> i32;
type Fn2<A, B> = unsafe extern "C" fn(A, B) -> i32;

#[test]
fn elementwise_add() {
    let body = r#"    %x = "mem.load"(%a, %i) : (memref<4xf32>, index) -> f32
    %y = "mem.load"(%b, %i) : (memref<4xf32>, index) -> f32
    %s = "arith.addf"(%x, %y) : (f32, f32) -> f32
    "mem.store"(%s, %out, %i) : (f32, memref<4xf32>, index) -> ()"#;
    let text = format!(
        "func.func @add(%a: memref<4xf32>, %b: memref<4xf32>, %out: memref<4xf32>) {{\n  {}\n  func.return\n}}\n",
        for_loop("i", 4, body)
    );
    let lib = build(&text);
    let f: Fn3<*const f32, *const f32, *mut f32> = lib.func("p_add");
    let (a, b, mut out) = (
        [1.0f32, 2.0, 3.0, 4.0],
        [10.0f32, 20.0, 30.0, 40.5],
        [0f32; 4],
    );
    assert_eq!(unsafe { f(a.as_ptr(), b.as_ptr(), out.as_mut_ptr()) }, 0);
    assert_eq!(out, [11.0, 22.0, 33.0, 44.5]);
    assert!(!lib.has("p.add"), "the internal function is not exported");
    let err: unsafe extern "C" fn() -> *const std::ffi::c_char = lib.func("p_last_error");
    let msg = unsafe { std::ffi::CStr::from_ptr(err()) };
    assert_eq!(msg.to_str().unwrap(), "stub error");
}

/// Row sums of a 2x3 matrix; the accumulator is a `mem.alloca` inside the
/// outer loop, which codegen must hoist into the entry block.
const ROW_SUM: &str = r#"func.func @rowsum(%m: memref<2x3xf32>, %out: memref<2xf32>) {
  %c0 = "arith.constant"() {value = 0 : index} : () -> index
  %c1 = "arith.constant"() {value = 1 : index} : () -> index
  %c2 = "arith.constant"() {value = 2 : index} : () -> index
  %c3 = "arith.constant"() {value = 3 : index} : () -> index
  %zero = "arith.constant"() {value = 0.0 : f32} : () -> f32
  "loop.for"(%c0, %c2, %c1) ({
  ^bb0(%i: index):
    %acc = "mem.alloca"() : () -> memref<f32>
    "mem.store"(%zero, %acc) : (f32, memref<f32>) -> ()
    "loop.for"(%c0, %c3, %c1) ({
    ^bb0(%j: index):
      %x = "mem.load"(%m, %i, %j) : (memref<2x3xf32>, index, index) -> f32
      %s = "mem.load"(%acc) : (memref<f32>) -> f32
      %t = "arith.addf"(%s, %x) : (f32, f32) -> f32
      "mem.store"(%t, %acc) : (f32, memref<f32>) -> ()
      "loop.yield"() : () -> ()
    }) : (index, index, index) -> ()
    %r = "mem.load"(%acc) : (memref<f32>) -> f32
    "mem.store"(%r, %out, %i) : (f32, memref<2xf32>, index) -> ()
    "loop.yield"() : () -> ()
  }) : (index, index, index) -> ()
  func.return
}
"#;

#[test]
fn sum_reduction_with_alloca() {
    for opt in [0, 3] {
        let lib = common::build_opt(ROW_SUM, opt);
        let f: Fn2<*const f32, *mut f32> = lib.func("p_rowsum");
        let m = [1.0f32, 2.0, 3.0, 10.0, 20.0, 30.5];
        let mut out = [0f32; 2];
        assert_eq!(unsafe { f(m.as_ptr(), out.as_mut_ptr()) }, 0);
        assert_eq!(out, [6.0, 60.5], "at O{opt}");
    }
}

#[test]
fn alloca_is_hoisted_to_entry_block() {
    let ir = emit(ROW_SUM, 0, EmitKind::LlvmIr);
    let func = &ir[ir
        .find("define internal i32 @p.rowsum")
        .expect("internal function")..];
    let entry_end = func.find("br label %body").expect("entry branch");
    let alloca = func.find("alloca").expect("an alloca");
    assert!(alloca < entry_end, "alloca not in the entry block:\n{func}");
    assert_eq!(func.matches(" alloca ").count(), 1);
}

#[test]
fn narrow_integer_storage() {
    let body = r#"    %x = "mem.load"(%a, %i) : (memref<4xi4>, index) -> i4
    %one = "arith.constant"() {value = 1 : i4} : () -> i4
    %zero = "arith.constant"() {value = 0 : i4} : () -> i4
    %y = "arith.addi"(%x, %one) : (i4, i4) -> i4
    "mem.store"(%y, %out, %i) : (i4, memref<4xi4>, index) -> ()
    %u = "arith.bitcast"(%y) : (i4) -> ui4
    "mem.store"(%u, %uout, %i) : (ui4, memref<4xui4>, index) -> ()
    %c = "arith.cmpi"(%y, %zero) {predicate = "sgt"} : (i4, i4) -> i1
    "mem.store"(%c, %pos, %i) : (i1, memref<4xi1>, index) -> ()"#;
    let text = format!(
        "func.func @inc(%a: memref<4xi4>, %out: memref<4xi4>, %uout: memref<4xui4>, %pos: memref<4xi1>) {{\n  {}\n  func.return\n}}\n",
        for_loop("i", 4, body)
    );
    let lib = build(&text);
    let f: unsafe extern "C" fn(*const i8, *mut i8, *mut u8, *mut u8) -> i32 = lib.func("p_inc");
    let a = [7i8, -8, -1, 0];
    let (mut out, mut uout, mut pos) = ([0i8; 4], [0u8; 4], [9u8; 4]);
    assert_eq!(
        unsafe {
            f(
                a.as_ptr(),
                out.as_mut_ptr(),
                uout.as_mut_ptr(),
                pos.as_mut_ptr(),
            )
        },
        0
    );
    assert_eq!(out, [-8, -7, 0, 1], "i4 is sign-extended in its byte");
    assert_eq!(uout, [8, 9, 0, 1], "ui4 is zero-extended in its byte");
    assert_eq!(pos, [0, 0, 0, 1], "i1 is one byte, 0 or 1");
}

#[test]
fn complex_parts() {
    let body = r#"    %ar = "mem.load_part"(%a, %i) {part = 0 : i64} : (memref<2xcomplex<f64>>, index) -> f64
    %ai = "mem.load_part"(%a, %i) {part = 1 : i64} : (memref<2xcomplex<f64>>, index) -> f64
    %br = "mem.load_part"(%b, %i) {part = 0 : i64} : (memref<2xcomplex<f64>>, index) -> f64
    %bi = "mem.load_part"(%b, %i) {part = 1 : i64} : (memref<2xcomplex<f64>>, index) -> f64
    %p1 = "arith.mulf"(%ar, %br) : (f64, f64) -> f64
    %p2 = "arith.mulf"(%ai, %bi) : (f64, f64) -> f64
    %p3 = "arith.mulf"(%ar, %bi) : (f64, f64) -> f64
    %p4 = "arith.mulf"(%ai, %br) : (f64, f64) -> f64
    %re = "arith.subf"(%p1, %p2) : (f64, f64) -> f64
    %im = "arith.addf"(%p3, %p4) : (f64, f64) -> f64
    "mem.store_part"(%re, %out, %i) {part = 0 : i64} : (f64, memref<2xcomplex<f64>>, index) -> ()
    "mem.store_part"(%im, %out, %i) {part = 1 : i64} : (f64, memref<2xcomplex<f64>>, index) -> ()"#;
    let text = format!(
        "func.func @cmul(%a: memref<2xcomplex<f64>>, %b: memref<2xcomplex<f64>>, %out: memref<2xcomplex<f64>>) {{\n  {}\n  func.return\n}}\n",
        for_loop("i", 2, body)
    );
    let lib = build(&text);
    let f: Fn3<*const f64, *const f64, *mut f64> = lib.func("p_cmul");
    let a = [1.0, 2.0, 0.0, 1.0];
    let b = [3.0, 4.0, 0.0, 1.0];
    let mut out = [0f64; 4];
    assert_eq!(unsafe { f(a.as_ptr(), b.as_ptr(), out.as_mut_ptr()) }, 0);
    assert_eq!(out, [-5.0, 10.0, -1.0, 0.0]);
}

#[test]
fn globals_views_copies_and_heap_buffers() {
    let text = r#"
"mem.global"() {sym_name = "m", value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> ()
"mem.global"() {sym_name = "t", value = dense<true> : tensor<3xi1>} : () -> ()
"mem.global"() {sym_name = "n", value = dense<[-1, 2]> : tensor<2xi4>} : () -> ()
"mem.global"() {sym_name = "h", value = dense<1.5> : tensor<2xbf16>} : () -> ()
func.func @g(%out: memref<4xi32>, %b: memref<3xi1>, %n: memref<2xi4>, %h: memref<2xbf16>) {
  %m = "mem.get_global"() {name = @m} : () -> memref<2x2xi32>
  %tmp = "mem.alloc"() : () -> memref<2x2xi32>
  "mem.copy"(%m, %tmp) : (memref<2x2xi32>, memref<2x2xi32>) -> ()
  %v = "mem.view"(%tmp) : (memref<2x2xi32>) -> memref<4xi32>
  "mem.copy"(%v, %out) : (memref<4xi32>, memref<4xi32>) -> ()
  "mem.dealloc"(%tmp) : (memref<2x2xi32>) -> ()
  %t = "mem.get_global"() {name = @t} : () -> memref<3xi1>
  "mem.copy"(%t, %b) : (memref<3xi1>, memref<3xi1>) -> ()
  %g = "mem.get_global"() {name = @n} : () -> memref<2xi4>
  "mem.copy"(%g, %n) : (memref<2xi4>, memref<2xi4>) -> ()
  %hh = "mem.get_global"() {name = @h} : () -> memref<2xbf16>
  "mem.copy"(%hh, %h) : (memref<2xbf16>, memref<2xbf16>) -> ()
  func.return
}
"#;
    let lib = build(text);
    let f: unsafe extern "C" fn(*mut i32, *mut u8, *mut i8, *mut u16) -> i32 = lib.func("p_g");
    let (mut out, mut b, mut n, mut h) = ([0i32; 4], [7u8; 3], [0i8; 2], [0u16; 2]);
    assert_eq!(
        unsafe {
            f(
                out.as_mut_ptr(),
                b.as_mut_ptr(),
                n.as_mut_ptr(),
                h.as_mut_ptr(),
            )
        },
        0
    );
    assert_eq!(out, [1, 2, 3, 4]);
    assert_eq!(b, [1, 1, 1]);
    assert_eq!(n, [-1, 2]);
    assert_eq!(h, [half::bf16::from_f32(1.5).to_bits(); 2]);
}

#[test]
fn conditionals_and_calls() {
    let body = r#"    %x = "mem.load"(%in, %i) : (memref<4xi32>, index) -> i32
    %zero = "arith.constant"() {value = 0 : i32} : () -> i32
    %neg = "arith.cmpi"(%x, %zero) {predicate = "slt"} : (i32, i32) -> i1
    "loop.if"(%neg) ({
      %y = func.call @ext_twice(%x) : (i32) -> i32
      "mem.store"(%y, %out, %i) : (i32, memref<4xi32>, index) -> ()
      "loop.yield"() : () -> ()
    }, {
      %y = func.call @plus_one(%x) : (i32) -> i32
      "mem.store"(%y, %out, %i) : (i32, memref<4xi32>, index) -> ()
      "loop.yield"() : () -> ()
    }) : (i1) -> ()
    %big = "arith.constant"() {value = 100 : i32} : () -> i32
    %isbig = "arith.cmpi"(%x, %big) {predicate = "sge"} : (i32, i32) -> i1
    "loop.if"(%isbig) ({
      "mem.store"(%big, %out, %i) : (i32, memref<4xi32>, index) -> ()
      "loop.yield"() : () -> ()
    }, {
    }) : (i1) -> ()"#;
    let text = format!(
        r#"func.func private @ext_twice(i32) -> i32
func.func private @plus_one(%x: i32) -> i32 {{
  %c = "arith.constant"() {{value = 1 : i32}} : () -> i32
  %y = "arith.addi"(%x, %c) : (i32, i32) -> i32
  func.return %y : i32
}}
func.func @f(%in: memref<4xi32>, %out: memref<4xi32>) {{
  {}
  func.return
}}
"#,
        for_loop("i", 4, body)
    );
    let lib = build(&text);
    assert!(!lib.has("p_plus_one"), "private functions are not exported");
    let f: Fn2<*const i32, *mut i32> = lib.func("p_f");
    let a = [-3, 0, 5, 200];
    let mut out = [0i32; 4];
    assert_eq!(unsafe { f(a.as_ptr(), out.as_mut_ptr()) }, 0);
    assert_eq!(out, [-6, 1, 6, 100]);
}

#[test]
fn several_modules_in_one_object() {
    let text = |v: i32| {
        format!(
            r#""mem.global"() {{sym_name = "g", value = dense<{v}> : tensor<1xi32>}} : () -> ()
func.func private @helper(%o: memref<1xi32>) {{
  %g = "mem.get_global"() {{name = @g}} : () -> memref<1xi32>
  "mem.copy"(%g, %o) : (memref<1xi32>, memref<1xi32>) -> ()
  func.return
}}
func.func @f(%o: memref<1xi32>) {{
  func.call @helper(%o) : (memref<1xi32>) -> ()
  func.return
}}
"#
        )
    };
    let (a, b) = (text(11), text(22));
    let lib = common::build_many(&[(&a, "m1"), (&b, "m2")]);
    for (name, want) in [("m1_f", 11), ("m2_f", 22)] {
        let f: unsafe extern "C" fn(*mut i32) -> i32 = lib.func(name);
        let mut o = [0i32];
        assert_eq!(unsafe { f(o.as_mut_ptr()) }, 0);
        assert_eq!(o[0], want);
    }
    assert!(lib.has("m1_last_error") && lib.has("m2_last_error"));
}

#[test]
fn emits_ir_and_assembly() {
    let text = "func.func @nop(%a: memref<2xf32>) {\n  func.return\n}\n";
    let ir = emit(text, 0, EmitKind::LlvmIr);
    assert!(ir.contains("define i32 @p_nop(ptr"), "{ir}");
    assert!(ir.contains("define internal i32 @p.nop(ptr"), "{ir}");
    assert!(ir.contains("define ptr @p_last_error()"), "{ir}");
    assert!(ir.contains("declare ptr @strata_rt_last_error()"), "{ir}");
    let asm = emit(text, 2, EmitKind::Assembly);
    assert!(asm.contains("p_nop:"), "{asm}");
}

#[test]
fn unsupported_element_type_is_reported() {
    let mut ctx = common::context();
    let m = common::parse(
        &mut ctx,
        "func.func @f(%a: memref<4xtf32>) {\n  func.return\n}\n",
    );
    let opts = strata_codegen::CodegenOptions {
        prefix: "p".into(),
        opt_level: 0,
        target: common::host(),
        bodies: None,
    };
    let err =
        strata_codegen::compile(&ctx, m, &opts, EmitKind::Object).expect_err("tf32 is unsupported");
    assert_eq!(err.kind, strata_diag::Kind::Unsupported);
    assert!(err.message.contains("tf32"), "{}", err.message);
    assert!(err.loc.is_known());
}

#[test]
fn o3_vectorizes_elementwise_loops() {
    let body = r#"    %x = "mem.load"(%a, %i) : (memref<1024xf32>, index) -> f32
    %y = "mem.load"(%b, %i) : (memref<1024xf32>, index) -> f32
    %s = "arith.mulf"(%x, %y) : (f32, f32) -> f32
    "mem.store"(%s, %out, %i) : (f32, memref<1024xf32>, index) -> ()"#;
    let text = format!(
        "func.func @mul(%a: memref<1024xf32>, %b: memref<1024xf32>, %out: memref<1024xf32>) {{\n  {}\n  func.return\n}}\n",
        for_loop("i", 1024, body)
    );
    let ir = emit(&text, 3, EmitKind::LlvmIr);
    assert!(ir.contains(" x float>"), "no vector code at O3:\n{ir}");
}

/// A module built with the Context API (no text, unknown locations).
#[test]
fn module_built_with_the_context_api() {
    use strata_diag::Location;
    use strata_ir::AttrKind;
    let mut ctx = common::context();
    let loc = Location::unknown();
    let i32t = ctx.types.int_ty(32);
    let index = ctx.types.index_ty();
    let buf = ctx.types.memref_ty(&[2], i32t);
    let module = ctx.create_op(strata_ir::builtin::MODULE, vec![], &[], vec![], loc);
    let region = ctx.add_region(module);
    let body = ctx.add_block(region, &[]);
    let fty = ctx.types.function_ty(vec![buf], vec![]);
    let attrs = vec![
        (
            "sym_name".to_string(),
            ctx.attr(AttrKind::String("f".into())),
        ),
        ("function_type".to_string(), ctx.attr(AttrKind::Type(fty))),
    ];
    let func = ctx.create_op(strata_ir::builtin::FUNC, vec![], &[], attrs, loc);
    ctx.append_op(body, func);
    let fr = ctx.add_region(func);
    let entry = ctx.add_block(fr, &[buf]);
    let out = ctx.blocks[entry].args[0];
    for (i, v) in [(0, -5), (1, 42)] {
        let ia = ctx.attr(AttrKind::Int {
            value: i,
            ty: index,
        });
        let idx = ctx.create_op(
            strata_dialect_arith::CONSTANT,
            vec![],
            &[index],
            vec![("value".into(), ia)],
            loc,
        );
        let va = ctx.attr(AttrKind::Int { value: v, ty: i32t });
        let val = ctx.create_op(
            strata_dialect_arith::CONSTANT,
            vec![],
            &[i32t],
            vec![("value".into(), va)],
            loc,
        );
        let (iv, vv) = (ctx.op(idx).results[0], ctx.op(val).results[0]);
        let store = ctx.create_op(
            strata_dialect_mem::STORE,
            vec![vv, out, iv],
            &[],
            vec![],
            loc,
        );
        for op in [idx, val, store] {
            ctx.append_op(entry, op);
        }
    }
    let ret = ctx.create_op(strata_ir::builtin::RETURN, vec![], &[], vec![], loc);
    ctx.append_op(entry, ret);
    strata_ir::verify::verify(&ctx, module).expect("valid module");
    let opts = strata_codegen::CodegenOptions {
        prefix: "api".into(),
        opt_level: 1,
        target: common::host(),
        bodies: None,
    };
    let obj = strata_codegen::compile(&ctx, module, &opts, EmitKind::Object).expect("compiles");
    let lib = common::link(&obj);
    let f: unsafe extern "C" fn(*mut i32) -> i32 = lib.func("api_f");
    let mut o = [0i32; 2];
    assert_eq!(unsafe { f(o.as_mut_ptr()) }, 0);
    assert_eq!(o, [-5, 42]);
}
