// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// One case per verifier message of the mem dialect (dialects/mem/src/*.rs).

func.func @load_index_count(%a: memref<4x3xf32>, %i: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.load' op expects 2 indices for memref<4x3xf32>, found 1
  %v = "mem.load"(%a, %i) : (memref<4x3xf32>, index) -> f32
  func.return
}

// -----

func.func @load_index_type(%a: memref<4xf32>, %i: i64) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.load' op expects operand #1 to be index, found i64
  %v = "mem.load"(%a, %i) : (memref<4xf32>, i64) -> f32
  func.return
}

// -----

func.func @load_no_memref() {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.load' op expects a memref operand #0, found 0 operands
  %v = "mem.load"() : () -> f32
  func.return
}

// -----

func.func @load_not_memref(%a: tensor<4xf32>, %i: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.load' op expects operand #0 to be a memref, found tensor<4xf32>
  %v = "mem.load"(%a, %i) : (tensor<4xf32>, index) -> f32
  func.return
}

// -----

func.func @load_dynamic(%a: memref<?xf32>, %i: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.load' op expects operand #0 to have a static shape, found memref<?xf32>
  %v = "mem.load"(%a, %i) : (memref<?xf32>, index) -> f32
  func.return
}

// -----

func.func @load_result_type(%a: memref<4xf32>, %i: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.load' op expects a result of type f32, found f64
  %v = "mem.load"(%a, %i) : (memref<4xf32>, index) -> f64
  func.return
}

// -----

func.func @load_result_count(%a: memref<4xf32>, %i: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.load' op expects 1 results, found 0
  "mem.load"(%a, %i) : (memref<4xf32>, index) -> ()
  func.return
}

// -----

func.func @load_complex(%a: memref<4xcomplex<f32>>, %i: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.load' op cannot access complex element type complex<f32> directly; use 'mem.load_part' / 'mem.store_part'
  %v = "mem.load"(%a, %i) : (memref<4xcomplex<f32>>, index) -> complex<f32>
  func.return
}

// -----

func.func @store_type(%a: memref<4xf32>, %i: index, %x: f64) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.store' op expects a stored value of type f32, found f64
  "mem.store"(%x, %a, %i) : (f64, memref<4xf32>, index) -> ()
  func.return
}

// -----

func.func @store_result(%a: memref<4xf32>, %i: index, %x: f32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.store' op expects 0 results, found 1
  %r = "mem.store"(%x, %a, %i) : (f32, memref<4xf32>, index) -> f32
  func.return
}

// -----

func.func @load_part_real(%a: memref<4xf32>, %i: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.load_part' op expects a memref of complex elements, found element type f32
  %p = "mem.load_part"(%a, %i) {part = 0 : i64} : (memref<4xf32>, index) -> f32
  func.return
}

// -----

func.func @load_part_attr(%a: memref<4xcomplex<f32>>, %i: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.load_part' op requires a 'part' integer attribute of 0 (real) or 1 (imaginary)
  %p = "mem.load_part"(%a, %i) {part = 2 : i64} : (memref<4xcomplex<f32>>, index) -> f32
  func.return
}

// -----

func.func @load_part_result(%a: memref<4xcomplex<f32>>, %i: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.load_part' op expects a result of type f32, found f64
  %p = "mem.load_part"(%a, %i) {part = 0 : i64} : (memref<4xcomplex<f32>>, index) -> f64
  func.return
}

// -----

func.func @store_part_type(%a: memref<4xcomplex<f64>>, %i: index, %x: f32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.store_part' op expects a stored value of type f64, found f32
  "mem.store_part"(%x, %a, %i) {part = 1 : i64} : (f32, memref<4xcomplex<f64>>, index) -> ()
  func.return
}

// -----

func.func @alloc_operands(%i: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.alloc' op expects 0 operands, found 1
  %a = "mem.alloc"(%i) : (index) -> memref<4xf32>
  func.return
}

// -----

func.func @alloc_tensor() {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.alloc' op expects result to be a memref, found tensor<4xf32>
  %a = "mem.alloc"() : () -> tensor<4xf32>
  func.return
}

// -----

func.func @alloca_dynamic() {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.alloca' op expects result to have a static shape, found memref<?xf32>
  %a = "mem.alloca"() : () -> memref<?xf32>
  func.return
}

// -----

func.func @dealloc_not_memref(%x: f32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.dealloc' op expects operand #0 to be a memref, found f32
  "mem.dealloc"(%x) : (f32) -> ()
  func.return
}

// -----

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.global' op requires a 'sym_name' string attribute
"mem.global"() {value = dense<1.0> : tensor<2xf32>} : () -> ()

// -----

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.global' op requires a 'value' dense elements attribute
"mem.global"() {sym_name = "g", value = 1.0 : f32} : () -> ()

// -----

func.func @get_global_name() {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.get_global' op requires a 'name' symbol reference attribute
  %g = "mem.get_global"() {name = "g"} : () -> memref<2xf32>
  func.return
}

// -----

func.func @get_global_missing() {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.get_global' op '@nope' does not reference a valid 'mem.global'
  %g = "mem.get_global"() {name = @nope} : () -> memref<2xf32>
  func.return
}

// -----

"mem.global"() {sym_name = "g", value = dense<[1, 2]> : tensor<2xi32>} : () -> ()
func.func @get_global_type() {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.get_global' op result type memref<3xi32> does not match the type tensor<2xi32> of global '@g'
  %g = "mem.get_global"() {name = @g} : () -> memref<3xi32>
  func.return
}

// -----

func.func @copy_mismatch(%a: memref<4xf32>, %b: memref<4xf64>) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.copy' op expects the same element type and element count, found memref<4xf32> and memref<4xf64>
  "mem.copy"(%a, %b) : (memref<4xf32>, memref<4xf64>) -> ()
  func.return
}

// -----

func.func @copy_operand(%a: memref<4xf32>, %b: tensor<4xf32>) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.copy' op expects operand #1 to be a memref, found tensor<4xf32>
  "mem.copy"(%a, %b) : (memref<4xf32>, tensor<4xf32>) -> ()
  func.return
}

// -----

func.func @view_count(%a: memref<4xf32>) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.view' op expects a view of the same byte size, found memref<4xf32> (16 bytes) and memref<5xf32> (20 bytes)
  %w = "mem.view"(%a) : (memref<4xf32>) -> memref<5xf32>
  func.return
}

// -----

func.func @store_no_memref(%x: f32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.store' op expects a memref operand #1, found 1 operands
  "mem.store"(%x) : (f32) -> ()
  func.return
}

// -----

func.func @offset_larger_than_operand(%a: memref<4xf32>, %i: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.offset' op expects a result of the operand's element type and at most its size, found memref<4xf32> and memref<8xf32>
  %0 = "mem.offset"(%a, %i) : (memref<4xf32>, index) -> memref<8xf32>
  "func.return"() : () -> ()
}

// -----

func.func @offset_not_index(%a: memref<4xf32>, %i: i64) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'mem.offset' op expects an index offset as operand #1
  %0 = "mem.offset"(%a, %i) : (memref<4xf32>, i64) -> memref<2xf32>
  "func.return"() : () -> ()
}
