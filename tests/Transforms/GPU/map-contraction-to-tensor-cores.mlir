// RUN: pb-opt %s -split-input-file -pb-map-contraction-to-tensor-cores | FileCheck %s
// RUN: pb-opt %s -split-input-file -pb-map-contraction-to-tensor-cores=chip=gfx90a | FileCheck %s --check-prefixes=AMD,MFMA
// RUN: pb-opt %s -split-input-file -pb-map-contraction-to-tensor-cores=chip=gfx942 | FileCheck %s --check-prefixes=AMD,MFMA
// RUN: pb-opt %s -split-input-file -pb-map-contraction-to-tensor-cores=chip=gfx1100 | FileCheck %s --check-prefixes=AMD,WMMA
// RUN: not pb-opt %s -split-input-file -pb-map-contraction-to-tensor-cores=chip=gfx803 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// UNKNOWN: error: pb-map-contraction-to-tensor-cores: chip 'gfx803' has no known matrix instructions

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
//
// On AMD chips, one wavefront per tile (64 lanes for MFMA on CDNA, 32 for
// WMMA on RDNA3); lane l works on column r = l % 16 of C and row r of A.
// With MFMA each lane holds 4 elements of each tile (k and C's rows from
// 4 * (l / 16)); with WMMA all 16 k of A's row and B's column, and C's rows
// 2e + l / 16.
// AMD-LABEL: func @f16_matmul
// AMD-SAME:    (%[[A:.*]]: memref<64x32xf16>, %[[B:.*]]: memref<32x48xf16>, %[[C:.*]]: memref<64x48xf32>)
// MFMA-DAG:    %[[LANES:.*]] = arith.constant 64 : index
// WMMA-DAG:    %[[LANES:.*]] = arith.constant 32 : index
// AMD:         gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in ({{.*}}) threads(%[[LANE:[^,]*]], {{.*}}) in (%{{.*}} = %[[LANES]],
// AMD:           %[[ROW:.*]] = arith.muli %[[BY]], %{{.*}}
// AMD:           %[[COL:.*]] = arith.muli %[[BX]], %{{.*}}
// AMD:           %[[R:.*]] = arith.remui %[[LANE]], %{{.*}}
// AMD:           %[[G:.*]] = arith.divui %[[LANE]], %{{.*}}
// AMD:           %[[MYROW:.*]] = arith.addi %[[ROW]], %[[R]]
// AMD:           %[[MYCOL:.*]] = arith.addi %[[COL]], %[[R]]
// MFMA:          %[[KBASE:.*]] = arith.muli %[[G]], %{{.*}}
// MFMA-COUNT-4:  memref.load %[[C]][%{{.*}}, %[[MYCOL]]] : memref<64x48xf32>
// WMMA-COUNT-8:  memref.load %[[C]][%{{.*}}, %[[MYCOL]]] : memref<64x48xf32>
// MFMA:          %[[ACC:.*]] = vector.from_elements {{.*}} : vector<4xf32>
// WMMA:          %[[ACC:.*]] = vector.from_elements {{.*}} : vector<8xf32>
// AMD:           %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[X:.*]] = %[[ACC]])
// MFMA:            %[[KL:.*]] = arith.addi %[[K]], %[[KBASE]]
// WMMA:            %[[KL:.*]] = arith.addi %[[K]], %{{.*}}
// MFMA:            %[[TA:.*]] = vector.load %[[A]][%[[MYROW]], %[[KL]]] : memref<64x32xf16>, vector<4xf16>
// WMMA:            %[[TA:.*]] = vector.load %[[A]][%[[MYROW]], %[[KL]]] : memref<64x32xf16>, vector<16xf16>
// MFMA-COUNT-4:    memref.load %[[B]][%{{.*}}, %[[MYCOL]]] : memref<32x48xf16>
// WMMA-COUNT-16:   memref.load %[[B]][%{{.*}}, %[[MYCOL]]] : memref<32x48xf16>
// AMD:             %[[TB:.*]] = vector.from_elements
// MFMA:            %[[D:.*]] = amdgpu.mfma 16x16x16 %[[TA]] * %[[TB]] + %[[X]] {{.*}} : vector<4xf16>, vector<4xf16>, vector<4xf32>
// WMMA:            %[[D:.*]] = amdgpu.wmma 16x16x16 %[[TA]] * %[[TB]] + %[[X]] : vector<16xf16>, vector<16xf16>, vector<8xf32>
// AMD:             scf.yield %[[D]]
// MFMA-COUNT-4:  memref.store %{{.*}}, %[[C]][%{{.*}}, %[[MYCOL]]] : memref<64x48xf32>
// WMMA-COUNT-8:  memref.store %{{.*}}, %[[C]][%{{.*}}, %[[MYCOL]]] : memref<64x48xf32>
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

// -----

// bf16 operands: AMD matrix cores take them (the gpu.subgroup_mma_* path
// used for NVIDIA is f16 only, so there the nest stays loops).
// CHECK-LABEL: func @bf16_matmul
// CHECK-NOT:     gpu.launch
// CHECK:         affine.for
// AMD-LABEL:   func @bf16_matmul
// MFMA:          amdgpu.mfma 16x16x16 {{.*}} : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// WMMA:          amdgpu.wmma 16x16x16 {{.*}} : vector<16xbf16>, vector<16xbf16>, vector<8xf32>
func.func @bf16_matmul(%a: memref<32x32xbf16>, %b: memref<32x16xbf16>, %c: memref<32x16xf32>) {
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<32x32xbf16>
        %y = affine.load %b[%k, %j] : memref<32x16xbf16>
        %s = affine.load %c[%i, %j] : memref<32x16xf32>
        %xe = arith.extf %x : bf16 to f32
        %ye = arith.extf %y : bf16 to f32
        %p = arith.mulf %xe, %ye : f32
        %r = arith.addf %s, %p : f32
        affine.store %r, %c[%i, %j] : memref<32x16xf32>
      }
    }
  }
  return
}
