// RUN: pb-opt %s -split-input-file -mlir-print-elementsattrs-with-hex-if-larger=-1 -pb-register-tile-contraction="rows=4 lanes=16" | FileCheck %s

// A batched matmul whose column factor moves with the batch (attention's
// K^T and V, one per head): each batch packs its own panels, at the start
// of the batch's iteration, into a buffer on the stack of the thread that
// computes it, then its register tiles read them.
// CHECK-LABEL: func @batched_panels
// CHECK:         affine.for %[[B:.*]] = 0 to 3 {
// CHECK-NEXT:      %[[PACK:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x16x16xf32>
// CHECK-NEXT:      affine.for %[[PJ:.*]] = 0 to 32 step 16 {
// CHECK-NEXT:        affine.for %[[PK:.*]] = 0 to 16 {
// CHECK-NEXT:          %[[ROW:.*]] = affine.vector_load %{{.*}}[%[[B]], %[[PK]], %[[PJ]]] : memref<3x16x32xf32>, vector<16xf32>
// CHECK-NEXT:          affine.vector_store %[[ROW]], %[[PACK]][%[[PJ]] floordiv 16, %[[PK]], 0]
// CHECK:           affine.for %[[JT:.*]] = 0 to 32 step 16 {
// CHECK-NEXT:        affine.for %{{.*}} = 0 to 8 step 4 {
// CHECK:               affine.for %[[K:.*]] = 0 to 16 iter_args(
// CHECK:                 affine.vector_load %[[PACK]][%[[JT]] floordiv 16, %[[K]], 0] : memref<2x16x16xf32>, vector<16xf32>
// CHECK-NOT:     memref.dealloc
// CHECK:         pb.decisions = [{columns = 16 : i64, columns_outside = false, fill_folded = false, k_block = 16 : i64{{.*}}packed_at_compile_time = false
// CHECK-SAME:      per batch, by the thread of the batch
func.func @batched_panels(%x: memref<3x8x16xf32>, %w: memref<3x16x32xf32>, %y: memref<3x8x32xf32>) {
  affine.for %b = 0 to 3 {
    affine.for %i = 0 to 8 {
      affine.for %k = 0 to 16 {
        affine.for %j = 0 to 32 {
          %a = affine.load %x[%b, %i, %k] : memref<3x8x16xf32>
          %v = affine.load %w[%b, %k, %j] : memref<3x16x32xf32>
          %c = affine.load %y[%b, %i, %j] : memref<3x8x32xf32>
          %p = arith.mulf %a, %v : f32
          %s = arith.addf %c, %p : f32
          affine.store %s, %y[%b, %i, %j] : memref<3x8x32xf32>
        }
      }
    }
  }
  return
}

// -----

// Panels larger than 256 KiB a batch (here 512 x 160 f32, 320 KiB) go on
// the heap, freed at the end of the batch's iteration; the loop inside the
// batch that the panels do not move with (a second batch dimension the
// column factor broadcasts along) stays inside the packing.
// CHECK-LABEL: func @heap_panels
// CHECK:         affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT:      %[[PACK:.*]] = memref.alloc() {alignment = 64 : i64} : memref<10x512x16xf32>
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 160 step 16 {
// CHECK:           affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT:        affine.for %{{.*}} = 0 to 160 step 16 {
// CHECK:           memref.dealloc %[[PACK]]
// CHECK-NEXT:    }
func.func @heap_panels(%x: memref<2x3x4x512xf32>, %w: memref<2x512x160xf32>, %y: memref<2x3x4x160xf32>) {
  affine.for %b = 0 to 2 {
    affine.for %h = 0 to 3 {
      affine.for %i = 0 to 4 {
        affine.for %k = 0 to 512 {
          affine.for %j = 0 to 160 {
            %a = affine.load %x[%b, %h, %i, %k] : memref<2x3x4x512xf32>
            %v = affine.load %w[%b, %k, %j] : memref<2x512x160xf32>
            %c = affine.load %y[%b, %h, %i, %j] : memref<2x3x4x160xf32>
            %p = arith.mulf %a, %v : f32
            %s = arith.addf %c, %p : f32
            affine.store %s, %y[%b, %h, %i, %j] : memref<2x3x4x160xf32>
          }
        }
      }
    }
  }
  return
}

// -----

// A column factor that moves with an outer loop inside one it does not
// move with is no batch: the nest is left alone.
// CHECK-LABEL: func @inner_batch
// CHECK-NOT:     vector.fma
// CHECK-NOT:     pb.decisions
func.func @inner_batch(%x: memref<2x3x4x16xf32>, %w: memref<3x16x16xf32>, %y: memref<2x3x4x16xf32>) {
  affine.for %b = 0 to 2 {
    affine.for %h = 0 to 3 {
      affine.for %i = 0 to 4 {
        affine.for %k = 0 to 16 {
          affine.for %j = 0 to 16 {
            %a = affine.load %x[%b, %h, %i, %k] : memref<2x3x4x16xf32>
            %v = affine.load %w[%h, %k, %j] : memref<3x16x16xf32>
            %c = affine.load %y[%b, %h, %i, %j] : memref<2x3x4x16xf32>
            %p = arith.mulf %a, %v : f32
            %s = arith.addf %c, %p : f32
            affine.store %s, %y[%b, %h, %i, %j] : memref<2x3x4x16xf32>
          }
        }
      }
    }
  }
  return
}

// -----

// A batch of constant panels (a Winograd filter transform, one per point of
// the tile) is packed at compile time, the batch first: pack[b, jt / 16, k,
// lane] = u[b, k, jt + lane]; two nests reading the same constant the same
// way share one packed global.
// CHECK-LABEL: memref.global "private" constant @u_packed : memref<2x2x4x16xf32> = dense<
// CHECK-SAME:    1.500000e+01], [1.000000e+02, 1.010000e+02
// CHECK-NOT:   memref.global "private" constant @u_packed_1
// CHECK-LABEL: func @constant_batched_panels
// CHECK:         %[[P:.*]] = memref.get_global @u_packed : memref<2x2x4x16xf32>
// CHECK:         affine.for %[[B:.*]] = 0 to 2 {
// CHECK-NOT:       memref.alloca
// CHECK:           affine.for %[[JT:.*]] = 0 to 32 step 16 {
// CHECK:               affine.for %[[K:.*]] = 0 to 4 iter_args(
// CHECK:                 affine.vector_load %[[P]][%[[B]], %[[JT]] floordiv 16, %[[K]], 0] : memref<2x2x4x16xf32>, vector<16xf32>
// CHECK:         packed_at_compile_time = true
// CHECK-SAME:      at compile time (a constant)
// CHECK-LABEL: func @same_panels_again
// CHECK:         memref.get_global @u_packed : memref<2x2x4x16xf32>
module {
  memref.global "private" constant @u : memref<2x4x32xf32> = dense<[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0], [200.0, 201.0, 202.0, 203.0, 204.0, 205.0, 206.0, 207.0, 208.0, 209.0, 210.0, 211.0, 212.0, 213.0, 214.0, 215.0, 216.0, 217.0, 218.0, 219.0, 220.0, 221.0, 222.0, 223.0, 224.0, 225.0, 226.0, 227.0, 228.0, 229.0, 230.0, 231.0], [300.0, 301.0, 302.0, 303.0, 304.0, 305.0, 306.0, 307.0, 308.0, 309.0, 310.0, 311.0, 312.0, 313.0, 314.0, 315.0, 316.0, 317.0, 318.0, 319.0, 320.0, 321.0, 322.0, 323.0, 324.0, 325.0, 326.0, 327.0, 328.0, 329.0, 330.0, 331.0]], [[1000.0, 1001.0, 1002.0, 1003.0, 1004.0, 1005.0, 1006.0, 1007.0, 1008.0, 1009.0, 1010.0, 1011.0, 1012.0, 1013.0, 1014.0, 1015.0, 1016.0, 1017.0, 1018.0, 1019.0, 1020.0, 1021.0, 1022.0, 1023.0, 1024.0, 1025.0, 1026.0, 1027.0, 1028.0, 1029.0, 1030.0, 1031.0], [1100.0, 1101.0, 1102.0, 1103.0, 1104.0, 1105.0, 1106.0, 1107.0, 1108.0, 1109.0, 1110.0, 1111.0, 1112.0, 1113.0, 1114.0, 1115.0, 1116.0, 1117.0, 1118.0, 1119.0, 1120.0, 1121.0, 1122.0, 1123.0, 1124.0, 1125.0, 1126.0, 1127.0, 1128.0, 1129.0, 1130.0, 1131.0], [1200.0, 1201.0, 1202.0, 1203.0, 1204.0, 1205.0, 1206.0, 1207.0, 1208.0, 1209.0, 1210.0, 1211.0, 1212.0, 1213.0, 1214.0, 1215.0, 1216.0, 1217.0, 1218.0, 1219.0, 1220.0, 1221.0, 1222.0, 1223.0, 1224.0, 1225.0, 1226.0, 1227.0, 1228.0, 1229.0, 1230.0, 1231.0], [1300.0, 1301.0, 1302.0, 1303.0, 1304.0, 1305.0, 1306.0, 1307.0, 1308.0, 1309.0, 1310.0, 1311.0, 1312.0, 1313.0, 1314.0, 1315.0, 1316.0, 1317.0, 1318.0, 1319.0, 1320.0, 1321.0, 1322.0, 1323.0, 1324.0, 1325.0, 1326.0, 1327.0, 1328.0, 1329.0, 1330.0, 1331.0]]]>
  func.func @constant_batched_panels(%x: memref<2x8x4xf32>, %y: memref<2x8x32xf32>) {
    %u = memref.get_global @u : memref<2x4x32xf32>
    affine.for %b = 0 to 2 {
      affine.for %i = 0 to 8 {
        affine.for %k = 0 to 4 {
          affine.for %j = 0 to 32 {
            %a = affine.load %x[%b, %i, %k] : memref<2x8x4xf32>
            %v = affine.load %u[%b, %k, %j] : memref<2x4x32xf32>
            %c = affine.load %y[%b, %i, %j] : memref<2x8x32xf32>
            %p = arith.mulf %a, %v : f32
            %s = arith.addf %c, %p : f32
            affine.store %s, %y[%b, %i, %j] : memref<2x8x32xf32>
          }
        }
      }
    }
    return
  }
  func.func @same_panels_again(%x: memref<2x8x4xf32>, %y: memref<2x8x32xf32>) {
    %u = memref.get_global @u : memref<2x4x32xf32>
    affine.for %b = 0 to 2 {
      affine.for %i = 0 to 8 {
        affine.for %k = 0 to 4 {
          affine.for %j = 0 to 32 {
            %a = affine.load %x[%b, %i, %k] : memref<2x8x4xf32>
            %v = affine.load %u[%b, %k, %j] : memref<2x4x32xf32>
            %c = affine.load %y[%b, %i, %j] : memref<2x8x32xf32>
            %p = arith.mulf %a, %v : f32
            %s = arith.addf %c, %p : f32
            affine.store %s, %y[%b, %i, %j] : memref<2x8x32xf32>
          }
        }
      }
    }
    return
  }
}
