// RUN: strata opt %s --split-input-file --loop-update-in-place | FileCheck %s

// An update of %b computed into %t, then copied over %b: the loop writes
// %b itself (each element read, then overwritten, by its own iteration);
// the buffer, its copy and its free go.
// CHECK-LABEL: func.func @update
// CHECK-NOT: "mem.alloc"
// CHECK: %[[X:.*]] = "mem.load"(%arg0, %[[I:[^,]*]], %[[J:[^)]*]])
// CHECK: "mem.store"(%{{.*}}, %arg0, %[[I]], %[[J]])
// CHECK-NOT: "mem.copy"
// CHECK-NOT: "mem.dealloc"
// CHECK: "func.return"
func.func @update(%b: memref<8x4xf32>, %g: memref<8x4xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %ub = "arith.constant"() {value = 8 : index} : () -> index
  %n = "arith.constant"() {value = 4 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  %t = "mem.alloc"() : () -> memref<8x4xf32>
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    "loop.for"(%lb, %n, %st) ({
    ^bb1(%j: index):
      %x = "mem.load"(%b, %i, %j) : (memref<8x4xf32>, index, index) -> f32
      %y = "mem.load"(%g, %i, %j) : (memref<8x4xf32>, index, index) -> f32
      %z = "arith.subf"(%x, %y) : (f32, f32) -> f32
      "mem.store"(%z, %t, %i, %j) : (f32, memref<8x4xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "mem.copy"(%t, %b) : (memref<8x4xf32>, memref<8x4xf32>) -> ()
  "mem.dealloc"(%t) : (memref<8x4xf32>) -> ()
  func.return
}

// -----

// Read at another element (a transpose): iteration (i, j) would see what
// iteration (j, i) wrote. Kept.
// CHECK-LABEL: func.func @other_element
// CHECK: "mem.alloc"
// CHECK: "mem.copy"
func.func @other_element(%b: memref<8x4xf32>, %g: memref<8x4xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %ub = "arith.constant"() {value = 8 : index} : () -> index
  %n = "arith.constant"() {value = 4 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  %t = "mem.alloc"() : () -> memref<8x4xf32>
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    "loop.for"(%lb, %n, %st) ({
    ^bb1(%j: index):
      %x = "mem.load"(%b, %j, %i) : (memref<8x4xf32>, index, index) -> f32
      "mem.store"(%x, %t, %i, %j) : (f32, memref<8x4xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "mem.copy"(%t, %b) : (memref<8x4xf32>, memref<8x4xf32>) -> ()
  "mem.dealloc"(%t) : (memref<8x4xf32>) -> ()
  func.return
}

// -----

// %b read after the store in the body (the new value would be read). Kept.
// CHECK-LABEL: func.func @read_after_write
// CHECK: "mem.alloc"
// CHECK: "mem.copy"
func.func @read_after_write(%b: memref<8x4xf32>, %g: memref<8x4xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %ub = "arith.constant"() {value = 8 : index} : () -> index
  %n = "arith.constant"() {value = 4 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  %t = "mem.alloc"() : () -> memref<8x4xf32>
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    "loop.for"(%lb, %n, %st) ({
    ^bb1(%j: index):
      %y = "mem.load"(%g, %i, %j) : (memref<8x4xf32>, index, index) -> f32
      "mem.store"(%y, %t, %i, %j) : (f32, memref<8x4xf32>, index, index) -> ()
      %x = "mem.load"(%b, %i, %j) : (memref<8x4xf32>, index, index) -> f32
      "mem.store"(%x, %g, %i, %j) : (f32, memref<8x4xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "mem.copy"(%t, %b) : (memref<8x4xf32>, memref<8x4xf32>) -> ()
  "mem.dealloc"(%t) : (memref<8x4xf32>) -> ()
  func.return
}

// -----

// %b read between the loop and the copy: it must still hold the old
// values there. Kept.
// CHECK-LABEL: func.func @read_between
// CHECK: "mem.alloc"
// CHECK: "mem.copy"
func.func @read_between(%b: memref<8x4xf32>, %g: memref<8x4xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %ub = "arith.constant"() {value = 8 : index} : () -> index
  %n = "arith.constant"() {value = 4 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  %t = "mem.alloc"() : () -> memref<8x4xf32>
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    "loop.for"(%lb, %n, %st) ({
    ^bb1(%j: index):
      %x = "mem.load"(%b, %i, %j) : (memref<8x4xf32>, index, index) -> f32
      %y = "mem.load"(%g, %i, %j) : (memref<8x4xf32>, index, index) -> f32
      %z = "arith.subf"(%x, %y) : (f32, f32) -> f32
      "mem.store"(%z, %t, %i, %j) : (f32, memref<8x4xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  %s = "mem.load"(%b, %lb, %lb) : (memref<8x4xf32>, index, index) -> f32
  "mem.store"(%s, %g, %lb, %lb) : (f32, memref<8x4xf32>, index, index) -> ()
  "mem.copy"(%t, %b) : (memref<8x4xf32>, memref<8x4xf32>) -> ()
  "mem.dealloc"(%t) : (memref<8x4xf32>) -> ()
  func.return
}

// -----

// An index that is not every loop's induction variable (a reduction over
// %k rewrites element (i, 0) four times, reading %b[i, 0] each time). Kept.
// CHECK-LABEL: func.func @reduction
// CHECK: "mem.alloc"
// CHECK: "mem.copy"
func.func @reduction(%b: memref<8x4xf32>, %g: memref<8x4xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %ub = "arith.constant"() {value = 8 : index} : () -> index
  %n = "arith.constant"() {value = 4 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  %t = "mem.alloc"() : () -> memref<8x4xf32>
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    "loop.for"(%lb, %n, %st) ({
    ^bb1(%k: index):
      %x = "mem.load"(%b, %i, %lb) : (memref<8x4xf32>, index, index) -> f32
      %y = "mem.load"(%g, %i, %k) : (memref<8x4xf32>, index, index) -> f32
      %z = "arith.addf"(%x, %y) : (f32, f32) -> f32
      "mem.store"(%z, %t, %i, %lb) : (f32, memref<8x4xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "mem.copy"(%t, %b) : (memref<8x4xf32>, memref<8x4xf32>) -> ()
  "mem.dealloc"(%t) : (memref<8x4xf32>) -> ()
  func.return
}

// -----

// One loop computes the new values of two buffers (a binary search's low
// and high bounds, a while body's two state buffers), each element of
// both read before either is written: both are updated in place, even
// swapped (%a takes %b's old value and %b %a's).
// CHECK-LABEL: func.func @two_updates
// CHECK-NOT: "mem.alloc"
// CHECK: %[[A:.*]] = "mem.load"(%arg0, %[[I:[^)]*]])
// CHECK: %[[B:.*]] = "mem.load"(%arg1, %[[I]])
// CHECK: "mem.store"(%[[B]], %arg0, %[[I]])
// CHECK: "mem.store"(%[[A]], %arg1, %[[I]])
// CHECK-NOT: "mem.copy"
// CHECK-NOT: "mem.dealloc"
// CHECK: "func.return"
func.func @two_updates(%a: memref<8xf32>, %b: memref<8xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %ub = "arith.constant"() {value = 8 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  %ta = "mem.alloc"() : () -> memref<8xf32>
  %tb = "mem.alloc"() : () -> memref<8xf32>
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    %x = "mem.load"(%a, %i) : (memref<8xf32>, index) -> f32
    %y = "mem.load"(%b, %i) : (memref<8xf32>, index) -> f32
    "mem.store"(%y, %ta, %i) : (f32, memref<8xf32>, index) -> ()
    "mem.store"(%x, %tb, %i) : (f32, memref<8xf32>, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "mem.copy"(%ta, %a) : (memref<8xf32>, memref<8xf32>) -> ()
  "mem.copy"(%tb, %b) : (memref<8xf32>, memref<8xf32>) -> ()
  "mem.dealloc"(%ta) : (memref<8xf32>) -> ()
  "mem.dealloc"(%tb) : (memref<8xf32>) -> ()
  func.return
}

// -----

// The same, but %a is read again after its new value is stored: that
// rewrite would read the new value, so %a keeps its copy; %b's update
// (its reads all first) is still made in place.
// CHECK-LABEL: func.func @two_updates_one_kept
// CHECK: %[[TA:.*]] = "mem.alloc"
// CHECK-NOT: "mem.alloc"
// CHECK: "mem.store"(%{{.*}}, %arg1, %{{.*}})
// CHECK: "mem.copy"(%[[TA]], %arg0)
// CHECK-NOT: "mem.copy"
func.func @two_updates_one_kept(%a: memref<8xf32>, %b: memref<8xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %ub = "arith.constant"() {value = 8 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  %ta = "mem.alloc"() : () -> memref<8xf32>
  %tb = "mem.alloc"() : () -> memref<8xf32>
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    %y = "mem.load"(%b, %i) : (memref<8xf32>, index) -> f32
    "mem.store"(%y, %ta, %i) : (f32, memref<8xf32>, index) -> ()
    %x = "mem.load"(%a, %i) : (memref<8xf32>, index) -> f32
    "mem.store"(%x, %tb, %i) : (f32, memref<8xf32>, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "mem.copy"(%ta, %a) : (memref<8xf32>, memref<8xf32>) -> ()
  "mem.copy"(%tb, %b) : (memref<8xf32>, memref<8xf32>) -> ()
  "mem.dealloc"(%ta) : (memref<8xf32>) -> ()
  "mem.dealloc"(%tb) : (memref<8xf32>) -> ()
  func.return
}
