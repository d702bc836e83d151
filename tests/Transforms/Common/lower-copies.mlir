// RUN: %pb-opt %s -split-input-file -pb-lower-copies -verify-diagnostics | FileCheck %s
// RUN: %pb-opt %s -split-input-file -pb-lower-copies -verify-diagnostics | FileCheck %s --check-prefix=NOCOPY

// Tests for pb-lower-copies: every memref.copy between ranked memrefs becomes
// a linalg.copy with the same source and target; nothing else changes.

// No memref.copy is left.
// NOCOPY-NOT: memref.copy

// A copy between identity-layout memrefs becomes linalg.copy.

// CHECK-LABEL: func.func @copy_between_identity_layouts_becomes_linalg_copy
// CHECK-SAME:    (%[[SRC:.*]]: memref<4x8xf32>, %[[DST:.*]]: memref<4x8xf32>)
// CHECK-NEXT:    linalg.copy ins(%[[SRC]] : memref<4x8xf32>) outs(%[[DST]] : memref<4x8xf32>)
// CHECK-NEXT:    return
func.func @copy_between_identity_layouts_becomes_linalg_copy(%src: memref<4x8xf32>, %dst: memref<4x8xf32>) {
  memref.copy %src, %dst : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

// A copy between strided subviews becomes linalg.copy on the same views; the
// subviews themselves are left unchanged.

// CHECK-LABEL: func.func @copy_between_strided_views_becomes_linalg_copy
// CHECK-SAME:    (%[[A:.*]]: memref<8x8xf32>, %[[B:.*]]: memref<8x16xf32>)
// CHECK-NEXT:    %[[SRC:.*]] = memref.subview %[[A]][2, 1] [4, 4] [1, 2] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 2], offset: 17>>
// CHECK-NEXT:    %[[DST:.*]] = memref.subview %[[B]][0, 3] [4, 4] [2, 3] : memref<8x16xf32> to memref<4x4xf32, strided<[32, 3], offset: 3>>
// CHECK-NEXT:    linalg.copy ins(%[[SRC]] : memref<4x4xf32, strided<[8, 2], offset: 17>>) outs(%[[DST]] : memref<4x4xf32, strided<[32, 3], offset: 3>>)
// CHECK-NEXT:    return
func.func @copy_between_strided_views_becomes_linalg_copy(%a: memref<8x8xf32>, %b: memref<8x16xf32>) {
  %src = memref.subview %a[2, 1] [4, 4] [1, 2] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 2], offset: 17>>
  %dst = memref.subview %b[0, 3] [4, 4] [2, 3] : memref<8x16xf32> to memref<4x4xf32, strided<[32, 3], offset: 3>>
  memref.copy %src, %dst : memref<4x4xf32, strided<[8, 2], offset: 17>> to memref<4x4xf32, strided<[32, 3], offset: 3>>
  return
}

// -----

// A copy from a strided view into an identity-layout buffer (the shape
// bufferization gives an extract_slice result) becomes linalg.copy.

// CHECK-LABEL: func.func @copy_from_strided_view_to_identity_layout_becomes_linalg_copy
// CHECK-SAME:    (%[[A:.*]]: memref<8x8xf32>, %[[OUT:.*]]: memref<4x4xf32>)
// CHECK-NEXT:    %[[SRC:.*]] = memref.subview %[[A]][0, 0] [4, 4] [2, 2]
// CHECK-NEXT:    linalg.copy ins(%[[SRC]] : memref<4x4xf32, strided<[16, 2]>>) outs(%[[OUT]] : memref<4x4xf32>)
// CHECK-NEXT:    return
func.func @copy_from_strided_view_to_identity_layout_becomes_linalg_copy(%a: memref<8x8xf32>, %out: memref<4x4xf32>) {
  %src = memref.subview %a[0, 0] [4, 4] [2, 2] : memref<8x8xf32> to memref<4x4xf32, strided<[16, 2]>>
  memref.copy %src, %out : memref<4x4xf32, strided<[16, 2]>> to memref<4x4xf32>
  return
}

// -----

// A copy of 0-d memrefs becomes a 0-d linalg.copy.

// CHECK-LABEL: func.func @copy_of_zero_d_memrefs_becomes_linalg_copy
// CHECK-SAME:    (%[[SRC:.*]]: memref<f32>, %[[DST:.*]]: memref<f32>)
// CHECK-NEXT:    linalg.copy ins(%[[SRC]] : memref<f32>) outs(%[[DST]] : memref<f32>)
// CHECK-NEXT:    return
func.func @copy_of_zero_d_memrefs_becomes_linalg_copy(%src: memref<f32>, %dst: memref<f32>) {
  memref.copy %src, %dst : memref<f32> to memref<f32>
  return
}

// -----

// Copies of other element types (i1, f16) keep their element type.

// CHECK-LABEL: func.func @copy_of_i1_becomes_linalg_copy
// CHECK-SAME:    (%[[SRC:.*]]: memref<3xi1>, %[[DST:.*]]: memref<3xi1>)
// CHECK-NEXT:    linalg.copy ins(%[[SRC]] : memref<3xi1>) outs(%[[DST]] : memref<3xi1>)
// CHECK-NEXT:    return
func.func @copy_of_i1_becomes_linalg_copy(%src: memref<3xi1>, %dst: memref<3xi1>) {
  memref.copy %src, %dst : memref<3xi1> to memref<3xi1>
  return
}

// CHECK-LABEL: func.func @copy_of_f16_becomes_linalg_copy
// CHECK-SAME:    (%[[SRC:.*]]: memref<2x3xf16>, %[[DST:.*]]: memref<2x3xf16>)
// CHECK-NEXT:    linalg.copy ins(%[[SRC]] : memref<2x3xf16>) outs(%[[DST]] : memref<2x3xf16>)
// CHECK-NEXT:    return
func.func @copy_of_f16_becomes_linalg_copy(%src: memref<2x3xf16>, %dst: memref<2x3xf16>) {
  memref.copy %src, %dst : memref<2x3xf16> to memref<2x3xf16>
  return
}

// -----

// Every copy of a function is rewritten, in order, and the ops around them
// (allocations, other linalg ops, deallocations) are left unchanged.

// CHECK-LABEL: func.func @only_copies_change
// CHECK-SAME:    (%[[A:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>)
// CHECK-NEXT:    %[[TMP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
// CHECK-NEXT:    linalg.copy ins(%[[A]] : memref<16xf32>) outs(%[[TMP]] : memref<16xf32>)
// CHECK-NEXT:    linalg.exp ins(%[[TMP]] : memref<16xf32>) outs(%[[TMP]] : memref<16xf32>)
// CHECK-NEXT:    linalg.copy ins(%[[TMP]] : memref<16xf32>) outs(%[[OUT]] : memref<16xf32>)
// CHECK-NEXT:    memref.dealloc %[[TMP]] : memref<16xf32>
// CHECK-NEXT:    return
func.func @only_copies_change(%a: memref<16xf32>, %out: memref<16xf32>) {
  %tmp = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  memref.copy %a, %tmp : memref<16xf32> to memref<16xf32>
  linalg.exp ins(%tmp : memref<16xf32>) outs(%tmp : memref<16xf32>)
  memref.copy %tmp, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %tmp : memref<16xf32>
  return
}

// -----

// A function without copies is left unchanged.

// CHECK-LABEL: func.func @function_without_copies_is_unchanged
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK-NEXT:    linalg.negf ins(%[[A]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK-NEXT:    return
func.func @function_without_copies_is_unchanged(%a: memref<4xf32>, %out: memref<4xf32>) {
  linalg.negf ins(%a : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// -----

// A copy between unranked memrefs cannot become a linalg.copy and is reported.

func.func @copy_of_unranked_memrefs_is_rejected(%src: memref<*xf32>, %dst: memref<*xf32>) {
  // expected-error@+1 {{'memref.copy' op with unranked operands cannot be lowered}}
  memref.copy %src, %dst : memref<*xf32> to memref<*xf32>
  return
}
