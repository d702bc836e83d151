// RUN: pb-opt %s -split-input-file -mlir-print-elementsattrs-with-hex-if-larger=16 -pb-register-tile-contraction="rows=4 lanes=16 row-block-kib=1" | FileCheck %s

// A matmul by a constant global (a layer's weights) takes the convolutions'
// path: the panels packed at compile time into a new global, the whole
// reduction (16 iterations) per register tile, no k blocks. Its rows: 30 in
// 7 whole tiles of 4, then 2; a row of x is 64 bytes, so a 1 KiB row block
// holds 16 rows, 4 tiles: two blocks (a multiple of the machine's 2
// threads), tiles [0, 3) and [3, 7) (b * 7 / 2 to (b + 1) * 7 / 2), the
// loop over tile numbers, rows 4 * t + r; the 2 rows left over computed
// with the last block.
// CHECK-DAG:   #[[LB:.*]] = affine_map<(d0) -> ((d0 * 7) floordiv 2)>
// CHECK-DAG:   #[[UB:.*]] = affine_map<(d0) -> ((d0 * 7 + 7) floordiv 2)>
// CHECK-DAG:   #[[ROW:.*]] = affine_map<(d0) -> (d0 * 4)>
// CHECK-DAG:   #[[LAST:.*]] = affine_set<(d0) : (d0 - 1 == 0)>
// CHECK:       memref.global "private" constant @weights_packed : memref<1x16x16xf32>
// CHECK-LABEL: func @row_blocks
// CHECK:         %[[PACK:.*]] = memref.get_global @weights_packed : memref<1x16x16xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         affine.for %[[IB:.*]] = 0 to 2 {
// CHECK-NEXT:      affine.for %[[JT:.*]] = 0 to 16 step 16 {
// CHECK-NEXT:        affine.for %[[T:.*]] = #[[LB]](%[[IB]]) to #[[UB]](%[[IB]]) {
// CHECK-NEXT:          affine.apply #[[ROW]](%[[T]])
// CHECK-COUNT-4:       affine.vector_load %{{.*}}[%{{.*}}, %[[JT]]] : memref<30x16xf32>, vector<16xf32>
// CHECK:               affine.for %[[K:.*]] = 0 to 16 iter_args(
// CHECK:                 affine.vector_load %[[PACK]][%[[JT]] floordiv 16, %[[K]], 0] : memref<1x16x16xf32>, vector<16xf32>
// CHECK-COUNT-4:         vector.fma
// CHECK:               affine.vector_store
// CHECK:             affine.if #[[LAST]](%[[IB]]) {
// CHECK-COUNT-2:       affine.vector_load %{{.*}}[%c{{28|29}}, %[[JT]]] : memref<30x16xf32>, vector<16xf32>
// CHECK:               affine.for %{{.*}} = 0 to 16 iter_args(
// CHECK:         } {pb.decisions = [{columns = 16 : i64, columns_outside = false, fill_folded = false, k_block = 16 : i64, {{.*}}packed_at_compile_time = true, packed_by_groups = false, pass = "pb-register-tile-contraction", row_blocks = 2 : i64, rows = 4 : i64, rows_packed = false, stores_once = true, summary = "{{.*}}; the 7 row tiles in 2 blocks (a block's rows of the row factor within 1 KiB, a multiple of 2 threads)"
// CHECK-NOT:     memref.dealloc
module attributes {pb.machine = {threads = 2 : i64}} {
memref.global "private" constant @weights : memref<16x16xf32> = dense<"0x000000000000803F0000004000004040000080400000A0400000C0400000E04000000041000010410000204100003041000040410000504100006041000070410000C8420000CA420000CC420000CE420000D0420000D2420000D4420000D6420000D8420000DA420000DC420000DE420000E0420000E2420000E4420000E642000048430000494300004A4300004B4300004C4300004D4300004E4300004F430000504300005143000052430000534300005443000055430000564300005743000096430080964300009743008097430000984300809843000099430080994300009A4300809A4300009B4300809B4300009C4300809C4300009D4300809D430000C8430080C8430000C9430080C9430000CA430080CA430000CB430080CB430000CC430080CC430000CD430080CD430000CE430080CE430000CF430080CF430000FA430080FA430000FB430080FB430000FC430080FC430000FD430080FD430000FE430080FE430000FF430080FF4300000044004000440080004400C0004400001644004016440080164400C0164400001744004017440080174400C0174400001844004018440080184400C0184400001944004019440080194400C0194400002F4400402F4400802F4400C02F4400003044004030440080304400C0304400003144004031440080314400C0314400003244004032440080324400C0324400004844004048440080484400C0484400004944004049440080494400C0494400004A4400404A4400804A4400C04A4400004B4400404B4400804B4400C04B4400006144004061440080614400C0614400006244004062440080624400C0624400006344004063440080634400C0634400006444004064440080644400C0644400007A4400407A4400807A4400C07A4400007B4400407B4400807B4400C07B4400007C4400407C4400807C4400C07C4400007D4400407D4400807D4400C07D440080894400A0894400C0894400E0894400008A4400208A4400408A4400608A4400808A4400A08A4400C08A4400E08A4400008B4400208B4400408B4400608B44000096440020964400409644006096440080964400A0964400C0964400E09644000097440020974400409744006097440080974400A0974400C0974400E097440080A24400A0A24400C0A24400E0A2440000A3440020A3440040A3440060A3440080A34400A0A34400C0A34400E0A3440000A4440020A4440040A4440060A4440000AF440020AF440040AF440060AF440080AF4400A0AF4400C0AF4400E0AF440000B0440020B0440040B0440060B0440080B04400A0B04400C0B04400E0B0440080BB4400A0BB4400C0BB4400E0BB440000BC440020BC440040BC440060BC440080BC4400A0BC4400C0BC4400E0BC440000BD440020BD440040BD440060BD44">
func.func @row_blocks(%x: memref<30x16xf32>, %y: memref<30x16xf32>) {
  %w = memref.get_global @weights : memref<16x16xf32>
  affine.for %i = 0 to 30 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 16 {
        %a = affine.load %x[%i, %k] : memref<30x16xf32>
        %b = affine.load %w[%k, %j] : memref<16x16xf32>
        %c = affine.load %y[%i, %j] : memref<30x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %y[%i, %j] : memref<30x16xf32>
      }
    }
  }
  return
}
}

// -----

// Weights whose bytes the pass cannot read (a splat) are packed at run time,
// once, before the nest; 8 rows take one block: no loop over blocks.
// CHECK-LABEL: func @splat_weights
// CHECK:         %[[PACK:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x16x16xf32>
// CHECK:         affine.for %[[JT:.*]] = 0 to 16 step 16 {
// CHECK:           affine.vector_store %{{.*}}, %[[PACK]]
// CHECK:         affine.for %[[JT:.*]] = 0 to 16 step 16 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 8 step 4 {
// CHECK-NOT:     affine.if
// CHECK:         packed_at_compile_time = false
// CHECK:         memref.dealloc %[[PACK]]
memref.global "private" constant @ones : memref<16x16xf32> = dense<1.0>
func.func @splat_weights(%x: memref<8x16xf32>, %y: memref<8x16xf32>) {
  %w = memref.get_global @ones : memref<16x16xf32>
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 16 {
        %a = affine.load %x[%i, %k] : memref<8x16xf32>
        %b = affine.load %w[%k, %j] : memref<16x16xf32>
        %c = affine.load %y[%i, %j] : memref<8x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %y[%i, %j] : memref<8x16xf32>
      }
    }
  }
  return
}

// -----

// Weights passed as an argument keep the k-blocked nest, each panel packed
// per k block on the stack of the thread that uses it.
// CHECK-LABEL: func @argument_weights
// CHECK:         affine.for %{{.*}} = 0 to 16 step 16 {
// CHECK:           memref.alloca() {alignment = 64 : i64} : memref<16x16xf32>
// CHECK-NOT:     packed_at_compile_time
func.func @argument_weights(%x: memref<8x16xf32>, %w: memref<16x16xf32>, %y: memref<8x16xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 16 {
        %a = affine.load %x[%i, %k] : memref<8x16xf32>
        %b = affine.load %w[%k, %j] : memref<16x16xf32>
        %c = affine.load %y[%i, %j] : memref<8x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %y[%i, %j] : memref<8x16xf32>
      }
    }
  }
  return
}

// -----

// Weights passed as an argument to a matmul of 512 rows or more with more
// than one row block: all the panels are packed once, before the nest, into
// a heap buffer, then the row blocks read them as they read a constant's.
// CHECK-LABEL: func @argument_weights_many_rows
// CHECK:         %[[PACK:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x16x16xf32>
// CHECK:         affine.for %[[PJ:.*]] = 0 to 16 step 16 {
// CHECK:           affine.vector_store %{{.*}}, %[[PACK]]
// CHECK:         affine.for %[[IB:.*]] = 0 to 32 {
// CHECK-NEXT:      affine.for %[[JT:.*]] = 0 to 16 step 16 {
// CHECK-NEXT:        affine.for %{{.*}} = #{{.*}}(%[[IB]]) to #{{.*}}(%[[IB]]) {
// CHECK:         packed_at_compile_time = false
// CHECK:         memref.dealloc %[[PACK]]
func.func @argument_weights_many_rows(%x: memref<512x16xf32>, %w: memref<16x16xf32>, %y: memref<512x16xf32>) {
  affine.for %i = 0 to 512 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 16 {
        %a = affine.load %x[%i, %k] : memref<512x16xf32>
        %b = affine.load %w[%k, %j] : memref<16x16xf32>
        %c = affine.load %y[%i, %j] : memref<512x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %y[%i, %j] : memref<512x16xf32>
      }
    }
  }
  return
}

// -----

// With 4 panels or more per thread (128 columns: 8 panels of 16, 2 threads),
// the weights passed as an argument are packed by column groups: one group
// of 4 column tiles per thread, outermost; the group's thread packs each
// panel as its first row block reaches it (no pass over the weights of its
// own before the nest), the other row blocks read the packed panels.
// CHECK-DAG:   #[[GLB:.*]] = affine_map<(d0) -> (d0 * 4)>
// CHECK-DAG:   #[[GUB:.*]] = affine_map<(d0) -> (d0 * 4 + 4)>
// CHECK-DAG:   #[[FIRST:.*]] = affine_set<(d0) : (d0 == 0)>
// CHECK-LABEL: func @argument_weights_by_groups
// CHECK:         %[[PACK:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x16x16xf32>
// CHECK-NEXT:    affine.for %[[G:.*]] = 0 to 2 {
// CHECK-NEXT:      affine.for %[[IB:.*]] = 0 to 32 {
// CHECK-NEXT:        affine.for %[[P:.*]] = #[[GLB]](%[[G]]) to #[[GUB]](%[[G]]) {
// CHECK:               affine.if #[[FIRST]](%[[IB]]) {
// CHECK-NEXT:            affine.for %[[K:.*]] = 0 to 16 {
// CHECK-NEXT:              %[[ROW:.*]] = affine.vector_load %{{.*}}[%[[K]], %[[P]] * 16] : memref<16x128xf32>, vector<16xf32>
// CHECK-NEXT:              affine.vector_store %[[ROW]], %[[PACK]][%[[P]], %[[K]], 0]
// CHECK:               affine.for %{{.*}} = #{{.*}}(%[[IB]]) to #{{.*}}(%[[IB]]) {
// CHECK:                 affine.vector_load %[[PACK]][%[[P]], %{{.*}}, 0]
// CHECK:                 affine.vector_store %{{.*}}, %{{.*}}[%{{.*}}, %[[P]] * 16] : memref<512x128xf32>, vector<16xf32>
// CHECK:         packed_at_compile_time = false, packed_by_groups = true
// CHECK-SAME:    packed by the thread of each group of 4 column tiles
// CHECK:         memref.dealloc %[[PACK]]
module attributes {pb.machine = {threads = 2 : i64}} {
func.func @argument_weights_by_groups(%x: memref<512x16xf32>, %w: memref<16x128xf32>, %y: memref<512x128xf32>) {
  affine.for %i = 0 to 512 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 128 {
        %a = affine.load %x[%i, %k] : memref<512x16xf32>
        %b = affine.load %w[%k, %j] : memref<16x128xf32>
        %c = affine.load %y[%i, %j] : memref<512x128xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %y[%i, %j] : memref<512x128xf32>
      }
    }
  }
  return
}
}
