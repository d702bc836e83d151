// RUN: pb-opt %s -split-input-file -pb-map-contraction-to-tensor-cores | FileCheck %s

// 64x32 * 32x48, f16 in, f32 accumulated: a 3 x 4 grid of one-warp blocks,
// each loading its C tile, adding the A and B tile products along K in
// steps of 16 and storing the tile.
// CHECK-LABEL: func @f16_matmul
// CHECK-SAME:    (%[[A:.*]]: memref<64x32xf16>, %[[B:.*]]: memref<32x48xf16>, %[[C:.*]]: memref<64x48xf32>)
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK:         gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in (%{{.*}} = %[[C3]], %{{.*}} = %[[C4]], %{{.*}}) threads({{.*}}) in (%{{.*}} = %[[C32]],
// CHECK:           %[[ROW:.*]] = arith.muli %[[BY]], %{{.*}}
// CHECK:           %[[COL:.*]] = arith.muli %[[BX]], %{{.*}}
// CHECK:           %[[ACC:.*]] = gpu.subgroup_mma_load_matrix %[[C]][%[[ROW]], %[[COL]]] {leadDimension = 48 : index} : memref<64x48xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK:           %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[X:.*]] = %[[ACC]])
// CHECK:             %[[TA:.*]] = gpu.subgroup_mma_load_matrix %[[A]][%[[ROW]], %[[K]]] {leadDimension = 32 : index} {{.*}} -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK:             %[[TB:.*]] = gpu.subgroup_mma_load_matrix %[[B]][%[[K]], %[[COL]]] {leadDimension = 48 : index} {{.*}} -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK:             %[[D:.*]] = gpu.subgroup_mma_compute %[[TA]], %[[TB]], %[[X]]
// CHECK:             scf.yield %[[D]]
// CHECK:           gpu.subgroup_mma_store_matrix %[[SUM]], %[[C]][%[[ROW]], %[[COL]]] {leadDimension = 48 : index}
// CHECK-NOT:     affine.for
func.func @f16_matmul(%a: memref<64x32xf16>, %b: memref<32x48xf16>, %c: memref<64x48xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<64x32xf16>
        %y = affine.load %b[%k, %j] : memref<32x48xf16>
        %s = affine.load %c[%i, %j] : memref<64x48xf32>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %r = arith.addf %s, %p : f32
        affine.store %r, %c[%i, %j] : memref<64x48xf32>
      }
    }
  }
  return
}

// -----

// Sizes that are not multiples of 16 (17 rows) stay loops.
// CHECK-LABEL: func @ragged
// CHECK-NOT:     gpu.launch
// CHECK:         affine.for
func.func @ragged(%a: memref<17x32xf16>, %b: memref<32x48xf16>, %c: memref<17x48xf32>) {
  affine.for %i = 0 to 17 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<17x32xf16>
        %y = affine.load %b[%k, %j] : memref<32x48xf16>
        %s = affine.load %c[%i, %j] : memref<17x48xf32>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %r = arith.addf %s, %p : f32
        affine.store %r, %c[%i, %j] : memref<17x48xf32>
      }
    }
  }
  return
}

// -----

// A transposed operand (B read as B[j, k]) is not the row-major product
// the tiles load.
// CHECK-LABEL: func @transposed_b
// CHECK-NOT:     gpu.launch
func.func @transposed_b(%a: memref<64x32xf16>, %b: memref<48x32xf16>, %c: memref<64x48xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<64x32xf16>
        %y = affine.load %b[%j, %k] : memref<48x32xf16>
        %s = affine.load %c[%i, %j] : memref<64x48xf32>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %r = arith.addf %s, %p : f32
        affine.store %r, %c[%i, %j] : memref<64x48xf32>
      }
    }
  }
  return
}
