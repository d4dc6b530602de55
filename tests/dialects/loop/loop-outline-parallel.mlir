// RUN: strata opt %s --split-input-file --loop-outline-parallel | FileCheck %s

// A parallel loop becomes a loop.dispatch of a new private function over
// (begin, end, captures...); constants are copied in, not captured, and the
// cost is the body's estimated operations per iteration (a function such as
// exp counts 16, every other op 1, the terminator included).

// CHECK-LABEL: func.func @scale
// CHECK-SAME: (%[[A:.*]]: memref<65536xf32>, %[[S:.*]]: f32, %[[OUT:.*]]: memref<65536xf32>)
// CHECK: %[[LB:.*]] = "arith.constant"() {value = 0 : index}
// CHECK: %[[UB:.*]] = "arith.constant"() {value = 65536 : index}
// CHECK: %[[ST:.*]] = "arith.constant"() {value = 1 : index}
// CHECK-NOT: "loop.for"
// CHECK: "loop.dispatch"(%[[LB]], %[[UB]], %[[ST]], %[[A]], %[[S]], %[[OUT]]) {callee = @scale__parallel0, cost = 21 : i64}
// CHECK-NEXT: "func.return"
// CHECK: func.func private @scale__parallel0(%[[B:.*]]: index, %[[E:.*]]: index, %[[CA:.*]]: memref<65536xf32>, %[[CS:.*]]: f32, %[[CO:.*]]: memref<65536xf32>)
// CHECK-NEXT: %[[ONE:.*]] = "arith.constant"() {value = 1 : index}
// CHECK-NEXT: "loop.for"(%[[B]], %[[E]], %[[ONE]])
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK-NEXT: %[[X:.*]] = "mem.load"(%[[CA]], %[[I]])
// CHECK-NEXT: %[[Y:.*]] = "arith.mulf"(%[[X]], %[[CS]])
// CHECK-NEXT: %[[Z:.*]] = "arith.exp"(%[[Y]])
// CHECK-NEXT: "arith.addf"
// CHECK-NEXT: "mem.store"(%{{.*}}, %[[CO]], %[[I]])
// CHECK: }) : (index, index, index) -> ()
// CHECK-NEXT: "func.return"
func.func @scale(%a: memref<65536xf32>, %s: f32, %out: memref<65536xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %ub = "arith.constant"() {value = 65536 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    %x = "mem.load"(%a, %i) : (memref<65536xf32>, index) -> f32
    %y = "arith.mulf"(%x, %s) : (f32, f32) -> f32
    %z = "arith.exp"(%y) : (f32) -> f32
    %w = "arith.addf"(%z, %s) : (f32, f32) -> f32
    "mem.store"(%w, %out, %i) : (f32, memref<65536xf32>, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  func.return
}

// -----

// In a chain of perfectly nested parallel loops, the first with at least 16
// iterations is split: here the inner one, once per outer iteration. An inner
// loop costs its trip count times its body and latch: 2 x (3 + 1), + 1.

// CHECK-LABEL: func.func @rows
// CHECK-SAME: (%[[OUT:.*]]: memref<2x65536xi32>)
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[R:.*]]: index):
// CHECK: "loop.dispatch"(%{{.*}}, %{{.*}}, %{{.*}}, %[[OUT]], %[[R]]) {callee = @rows__parallel0, cost = 9 : i64}
// CHECK-NEXT: "loop.yield"
// CHECK: func.func private @rows__parallel0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: memref<2x65536xi32>, %{{.*}}: index)
func.func @rows(%out: memref<2x65536xi32>) {
  %c0 = "arith.constant"() {value = 0 : index} : () -> index
  %c1 = "arith.constant"() {value = 1 : index} : () -> index
  %c2 = "arith.constant"() {value = 2 : index} : () -> index
  %n = "arith.constant"() {value = 65536 : index} : () -> index
  "loop.for"(%c0, %c2, %c1) ({
  ^bb0(%r: index):
    "loop.for"(%c0, %n, %c1) ({
    ^bb1(%c: index):
      "loop.for"(%c0, %c2, %c1) ({
      ^bb2(%k: index):
        %v = "arith.index_cast"(%k) : (index) -> i32
        "mem.store"(%v, %out, %r, %c) : (i32, memref<2x65536xi32>, index, index) -> ()
        "loop.yield"() : () -> ()
      }) : (index, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  func.return
}

// -----

// Constants in the outer loop's body (the inner loop's bounds, as a sort
// along axis 0 of a 4096 x 256 matrix emits them) do not end the chain:
// the 256 columns are split, not the one outer iteration, whose stores
// (at a row index of its own loop) would look shared by iterations.

// CHECK-LABEL: func.func @columns
// CHECK: "loop.for"
// CHECK: "loop.dispatch"({{.*}}) {callee = @columns__parallel0
// CHECK: func.func private @columns__parallel0
func.func @columns(%out: memref<4096x256xf32>) {
  %c0 = "arith.constant"() {value = 0 : index} : () -> index
  %c1 = "arith.constant"() {value = 1 : index} : () -> index
  "loop.for"(%c0, %c1, %c1) ({
  ^bb0(%r: index):
    %lo = "arith.constant"() {value = 0 : index} : () -> index
    %hi = "arith.constant"() {value = 256 : index} : () -> index
    %st = "arith.constant"() {value = 1 : index} : () -> index
    "loop.for"(%lo, %hi, %st) ({
    ^bb1(%c: index):
      %n = "arith.constant"() {value = 4096 : index} : () -> index
      "loop.for"(%lo, %n, %st) ({
      ^bb2(%k: index):
        %x = "mem.load"(%out, %k, %c) : (memref<4096x256xf32>, index, index) -> f32
        %y = "arith.addf"(%x, %x) : (f32, f32) -> f32
        "mem.store"(%y, %out, %k, %c) : (f32, memref<4096x256xf32>, index, index) -> ()
        "loop.yield"() : () -> ()
      }) : (index, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  func.return
}

// -----

// Left as they are: a loop whose whole work is known to be small, one that
// stores into a buffer from outside at an index shared by all iterations,
// and one that calls a function.

// CHECK-LABEL: func.func @serial
// CHECK-NOT: "loop.dispatch"
// CHECK: }) {parallel}
// CHECK: }) {parallel}
// CHECK: }) {parallel}
// CHECK-NOT: "loop.dispatch"
// CHECK-NOT: func.func private @serial__parallel
func.func private @ext(index)
func.func @serial(%a: memref<1000000xf32>, %acc: memref<f32>) {
  %c0 = "arith.constant"() {value = 0 : index} : () -> index
  %c1 = "arith.constant"() {value = 1 : index} : () -> index
  %small = "arith.constant"() {value = 100 : index} : () -> index
  %n = "arith.constant"() {value = 1000000 : index} : () -> index
  "loop.for"(%c0, %small, %c1) ({
  ^bb0(%i: index):
    %x = "mem.load"(%a, %i) : (memref<1000000xf32>, index) -> f32
    "mem.store"(%x, %a, %i) : (f32, memref<1000000xf32>, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "loop.for"(%c0, %n, %c1) ({
  ^bb0(%i: index):
    %x = "mem.load"(%a, %i) : (memref<1000000xf32>, index) -> f32
    %s = "mem.load"(%acc) : (memref<f32>) -> f32
    %t = "arith.addf"(%s, %x) : (f32, f32) -> f32
    "mem.store"(%t, %acc) : (f32, memref<f32>) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "loop.for"(%c0, %n, %c1) ({
  ^bb0(%i: index):
    "func.call"(%i) {callee = @ext} : (index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  func.return
}

// -----

// Bounds known only at run time: outlined, the split left to the runtime.
// Two captures viewing one buffer make the function's buffers 'may_alias'
// (no noalias in LLVM IR); a scratch buffer allocated in the body is the
// chunk's own.

// CHECK-LABEL: func.func @dynamic
// CHECK: "loop.dispatch"(%{{.*}}, %[[N:.*]], %{{.*}}, %{{.*}}, %{{.*}}) {callee = @dynamic__parallel0, cost = {{[0-9]+}} : i64}
// CHECK: func.func private @dynamic__parallel0({{.*}}) attributes {may_alias}
// CHECK: "mem.alloca"
func.func @dynamic(%buf: memref<64xf32>, %n: index) {
  %c0 = "arith.constant"() {value = 0 : index} : () -> index
  %c1 = "arith.constant"() {value = 1 : index} : () -> index
  %v = "mem.view"(%buf) : (memref<64xf32>) -> memref<8x8xf32>
  "loop.for"(%c0, %n, %c1) ({
  ^bb0(%i: index):
    %t = "mem.alloca"() : () -> memref<f32>
    %x = "mem.load"(%buf, %i) : (memref<64xf32>, index) -> f32
    "mem.store"(%x, %t) : (f32, memref<f32>) -> ()
    %y = "mem.load"(%t) : (memref<f32>) -> f32
    "mem.store"(%y, %v, %i, %c0) : (f32, memref<8x8xf32>, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  func.return
}

// -----

// A runtime kernel that writes only its last operand (a GEMM) may run in
// concurrent iterations when each writes its own view of the result (at an
// offset of the induction variable), as a convolution's blocks of output
// positions do: outlined. The same call writing one view shared by all
// iterations stays serial, as does a kernel with other effects (an FFT).

// CHECK-LABEL: func.func @blocks
// CHECK: "loop.dispatch"
// CHECK-SAME: callee = @blocks__parallel0
// CHECK: func.func private @blocks__parallel0
// CHECK: "mem.offset"
// CHECK: "func.call"
// CHECK-SAME: callee = @strata_rt_gemm_f32
func.func private @strata_rt_gemm_f32(memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>)
func.func @blocks(%d: memref<42xi64>, %x: memref<128x288xf32>, %w: memref<288x3xf32>, %out: memref<49152xf32>) {
  %c0 = "arith.constant"() {value = 0 : index} : () -> index
  %c1 = "arith.constant"() {value = 1 : index} : () -> index
  %n = "arith.constant"() {value = 128 : index} : () -> index
  %block = "arith.constant"() {value = 384 : index} : () -> index
  "loop.for"(%c0, %n, %c1) ({
  ^bb0(%i: index):
    %at = "arith.muli"(%i, %block) : (index, index) -> index
    %o = "mem.offset"(%out, %at) : (memref<49152xf32>, index) -> memref<384xf32>
    "func.call"(%d, %x, %w, %o) {callee = @strata_rt_gemm_f32} : (memref<42xi64>, memref<128x288xf32>, memref<288x3xf32>, memref<384xf32>) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  func.return
}

// -----

// CHECK-LABEL: func.func @shared_result
// CHECK-NOT: "loop.dispatch"
// CHECK: }) {parallel}
// CHECK: }) {parallel}
// CHECK-NOT: func.func private @shared_result__parallel
func.func private @strata_rt_gemm_f32(memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>)
func.func private @strata_rt_fft(memref<0xi8>, memref<0xi8>, memref<0xi8>)
func.func @shared_result(%d: memref<42xi64>, %x: memref<128x288xf32>, %w: memref<288x3xf32>, %out: memref<384xf32>, %big: memref<49152xf32>) {
  %c0 = "arith.constant"() {value = 0 : index} : () -> index
  %c1 = "arith.constant"() {value = 1 : index} : () -> index
  %n = "arith.constant"() {value = 128 : index} : () -> index
  %block = "arith.constant"() {value = 384 : index} : () -> index
  "loop.for"(%c0, %n, %c1) ({
  ^bb0(%i: index):
    "func.call"(%d, %x, %w, %out) {callee = @strata_rt_gemm_f32} : (memref<42xi64>, memref<128x288xf32>, memref<288x3xf32>, memref<384xf32>) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "loop.for"(%c0, %n, %c1) ({
  ^bb0(%i: index):
    %at = "arith.muli"(%i, %block) : (index, index) -> index
    %o = "mem.offset"(%big, %at) : (memref<49152xf32>, index) -> memref<384xf32>
    "func.call"(%d, %x, %o) {callee = @strata_rt_fft} : (memref<42xi64>, memref<128x288xf32>, memref<384xf32>) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  func.return
}
