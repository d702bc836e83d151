// RUN: pb-opt %s -split-input-file -mlir-print-elementsattrs-with-hex-if-larger=1000 -pb-register-tile-contraction="rows=4 lanes=16" | FileCheck %s
// RUN: pb-opt %s -split-input-file -mlir-print-elementsattrs-with-hex-if-larger=1000 -pb-register-tile-contraction="rows=4 lanes=16 columns-outside-kib=1" | FileCheck %s --check-prefix=OUTSIDE

// A convolution whose filter is a constant global: its panels are packed at
// compile time into a new global, pack[f / 16, (kh * 2 + kw) * 2 + c, lane]
// = w[kh, kw, c, f], and nothing is packed at run time. The filter holds
// f + 100 * (kh * 4 + kw * 2 + c), so the packed data can be read off.
// CHECK:       memref.global "private" constant @filter : memref<2x2x2x32xf32>
// CHECK:       memref.global "private" constant @filter_packed : memref<2x8x16xf32> = dense<{{\[}}{{\[}}[0.000000e+00, 1.000000e+00, {{.*}}, 1.500000e+01], [1.000000e+02, 1.010000e+02, {{.*}}], {{.*}}{{\]}}], {{\[}}[1.600000e+01, 1.700000e+01, {{.*}}, 3.100000e+01], [1.160000e+02, {{.*}}
// CHECK-LABEL: func @constant_filter
// CHECK:         %[[PACK:.*]] = memref.get_global @filter_packed : memref<2x8x16xf32>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     affine.vector_store %{{.*}}, %[[PACK]]
// CHECK:         affine.for %{{.*}} = 0 to 4 {
// CHECK:           affine.for %[[JT:.*]] = 0 to 32 step 16 {
// CHECK:               affine.vector_load %[[PACK]][%[[JT]] floordiv 16, {{.*}}] : memref<2x8x16xf32>, vector<16xf32>
// CHECK:         } {pb.decisions = [{columns = 16 : i64, columns_outside = false, {{.*}}packed_at_compile_time = true
// CHECK-NOT:     memref.dealloc
memref.global "private" constant @filter : memref<2x2x2x32xf32> = dense<[[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0]], [[200.0, 201.0, 202.0, 203.0, 204.0, 205.0, 206.0, 207.0, 208.0, 209.0, 210.0, 211.0, 212.0, 213.0, 214.0, 215.0, 216.0, 217.0, 218.0, 219.0, 220.0, 221.0, 222.0, 223.0, 224.0, 225.0, 226.0, 227.0, 228.0, 229.0, 230.0, 231.0], [300.0, 301.0, 302.0, 303.0, 304.0, 305.0, 306.0, 307.0, 308.0, 309.0, 310.0, 311.0, 312.0, 313.0, 314.0, 315.0, 316.0, 317.0, 318.0, 319.0, 320.0, 321.0, 322.0, 323.0, 324.0, 325.0, 326.0, 327.0, 328.0, 329.0, 330.0, 331.0]]], [[[400.0, 401.0, 402.0, 403.0, 404.0, 405.0, 406.0, 407.0, 408.0, 409.0, 410.0, 411.0, 412.0, 413.0, 414.0, 415.0, 416.0, 417.0, 418.0, 419.0, 420.0, 421.0, 422.0, 423.0, 424.0, 425.0, 426.0, 427.0, 428.0, 429.0, 430.0, 431.0], [500.0, 501.0, 502.0, 503.0, 504.0, 505.0, 506.0, 507.0, 508.0, 509.0, 510.0, 511.0, 512.0, 513.0, 514.0, 515.0, 516.0, 517.0, 518.0, 519.0, 520.0, 521.0, 522.0, 523.0, 524.0, 525.0, 526.0, 527.0, 528.0, 529.0, 530.0, 531.0]], [[600.0, 601.0, 602.0, 603.0, 604.0, 605.0, 606.0, 607.0, 608.0, 609.0, 610.0, 611.0, 612.0, 613.0, 614.0, 615.0, 616.0, 617.0, 618.0, 619.0, 620.0, 621.0, 622.0, 623.0, 624.0, 625.0, 626.0, 627.0, 628.0, 629.0, 630.0, 631.0], [700.0, 701.0, 702.0, 703.0, 704.0, 705.0, 706.0, 707.0, 708.0, 709.0, 710.0, 711.0, 712.0, 713.0, 714.0, 715.0, 716.0, 717.0, 718.0, 719.0, 720.0, 721.0, 722.0, 723.0, 724.0, 725.0, 726.0, 727.0, 728.0, 729.0, 730.0, 731.0]]]]>
func.func @constant_filter(%in: memref<1x5x5x2xf32>, %out: memref<1x4x4x32xf32>) {
  %w = memref.get_global @filter : memref<2x2x2x32xf32>
  affine.for %n = 0 to 1 {
    affine.for %oh = 0 to 4 {
      affine.for %ow = 0 to 4 {
        affine.for %kh = 0 to 2 {
          affine.for %kw = 0 to 2 {
            affine.for %c = 0 to 2 {
              affine.for %f = 0 to 32 {
                %x = affine.load %in[%n, %oh + %kh, %ow + %kw, %c] : memref<1x5x5x2xf32>
                %y = affine.load %w[%kh, %kw, %c, %f] : memref<2x2x2x32xf32>
                %z = affine.load %out[%n, %oh, %ow, %f] : memref<1x4x4x32xf32>
                %m = arith.mulf %x, %y : f32
                %s = arith.addf %z, %m : f32
                affine.store %s, %out[%n, %oh, %ow, %f] : memref<1x4x4x32xf32>
              }
            }
          }
        }
      }
    }
  }
  return
}

// -----

// A filter passed as an argument is packed at run time, as before.
// CHECK-LABEL: func @argument_filter
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK:         packed_at_compile_time = false
func.func @argument_filter(%in: memref<1x5x5x2xf32>, %w: memref<2x2x2x32xf32>, %out: memref<1x4x4x32xf32>) {
  affine.for %n = 0 to 1 {
    affine.for %oh = 0 to 4 {
      affine.for %ow = 0 to 4 {
        affine.for %kh = 0 to 2 {
          affine.for %kw = 0 to 2 {
            affine.for %c = 0 to 2 {
              affine.for %f = 0 to 32 {
                %x = affine.load %in[%n, %oh + %kh, %ow + %kw, %c] : memref<1x5x5x2xf32>
                %y = affine.load %w[%kh, %kw, %c, %f] : memref<2x2x2x32xf32>
                %z = affine.load %out[%n, %oh, %ow, %f] : memref<1x4x4x32xf32>
                %m = arith.mulf %x, %y : f32
                %s = arith.addf %z, %m : f32
                affine.store %s, %out[%n, %oh, %ow, %f] : memref<1x4x4x32xf32>
              }
            }
          }
        }
      }
    }
  }
  return
}

// -----

// With panels (2 KiB) larger than the cache named, the column tiles go
// outside the output rows.
// OUTSIDE-LABEL: func @large_panels
// OUTSIDE:         affine.vector_store
// OUTSIDE:         affine.for %[[JT:.*]] = 0 to 32 step 16 {
// OUTSIDE-NEXT:      affine.for %{{.*}} = 0 to 1 {
// OUTSIDE-NEXT:        affine.for %{{.*}} = 0 to 4 {
// OUTSIDE-NEXT:          affine.for %{{.*}} = 0 to 4 step 4 {
// OUTSIDE:         } {pb.decisions = [{columns = 16 : i64, columns_outside = true
// CHECK-LABEL: func @large_panels
// CHECK:         columns_outside = false
func.func @large_panels(%in: memref<1x5x5x4xf32>, %w: memref<2x2x4x32xf32>, %out: memref<1x4x4x32xf32>) {
  affine.for %n = 0 to 1 {
    affine.for %oh = 0 to 4 {
      affine.for %ow = 0 to 4 {
        affine.for %kh = 0 to 2 {
          affine.for %kw = 0 to 2 {
            affine.for %c = 0 to 4 {
              affine.for %f = 0 to 32 {
                %x = affine.load %in[%n, %oh + %kh, %ow + %kw, %c] : memref<1x5x5x4xf32>
                %y = affine.load %w[%kh, %kw, %c, %f] : memref<2x2x4x32xf32>
                %z = affine.load %out[%n, %oh, %ow, %f] : memref<1x4x4x32xf32>
                %m = arith.mulf %x, %y : f32
                %s = arith.addf %z, %m : f32
                affine.store %s, %out[%n, %oh, %ow, %f] : memref<1x4x4x32xf32>
              }
            }
          }
        }
      }
    }
  }
  return
}

// -----

// A 1 x 1 convolution: its window loops run once and do not move C, so they
// are reductions; the batch loop runs once and moves C, so it is parallel.
// CHECK-LABEL: func @pointwise
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<2x4x16xf32>
// CHECK:         affine.vector_store
// CHECK:         affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT:        affine.for %[[JT:.*]] = 0 to 32 step 16 {
// CHECK-NEXT:          affine.for %{{.*}} = 0 to 4 step 4 {
// CHECK:                 affine.for %{{.*}} = 0 to 1 iter_args
// CHECK-NEXT:              affine.for %{{.*}} = 0 to 1 iter_args
// CHECK-NEXT:                affine.for %{{.*}} = 0 to 4 iter_args
// CHECK-COUNT-4:               vector.fma
// CHECK:         } {pb.decisions = [{columns = 16 : i64, {{.*}}k_block = 4 : i64
func.func @pointwise(%in: memref<1x3x4x4xf32>, %w: memref<1x1x4x32xf32>, %out: memref<1x3x4x32xf32>) {
  affine.for %n = 0 to 1 {
    affine.for %oh = 0 to 3 {
      affine.for %ow = 0 to 4 {
        affine.for %kh = 0 to 1 {
          affine.for %kw = 0 to 1 {
            affine.for %c = 0 to 4 {
              affine.for %f = 0 to 32 {
                %x = affine.load %in[%n, %oh + %kh, %ow + %kw, %c] : memref<1x3x4x4xf32>
                %y = affine.load %w[%kh, %kw, %c, %f] : memref<1x1x4x32xf32>
                %z = affine.load %out[%n, %oh, %ow, %f] : memref<1x3x4x32xf32>
                %m = arith.mulf %x, %y : f32
                %s = arith.addf %z, %m : f32
                affine.store %s, %out[%n, %oh, %ow, %f] : memref<1x3x4x32xf32>
              }
            }
          }
        }
      }
    }
  }
  return
}
