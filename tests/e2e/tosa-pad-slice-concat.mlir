// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @tosa_pad_const
// CHECK: PASS @tosa_slice_concat
// CHECK: PASS @tosa_greater_select_cast
// Covers: tosa.pad with a nonzero pad constant, tosa.slice + tosa.concat, and tosa.greater (i1) feeding tosa.select plus tosa.cast f32 -> i32.
module {
  func.func @tosa_pad_const(%x: tensor<17x33xf32>) -> tensor<20x36xf32> {
    %pads = tosa.const_shape {values = dense<[1, 2, 3, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %pv = "tosa.const"() <{values = dense<-1.5> : tensor<1xf32>}> : () -> tensor<1xf32>
    %r = tosa.pad %x, %pads, %pv : (tensor<17x33xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<20x36xf32>
    return %r : tensor<20x36xf32>
  }

  func.func @tosa_slice_concat(%x: tensor<9x33x5xf32>, %y: tensor<9x7x5xf32>) -> tensor<9x24x5xf32> {
    %start = tosa.const_shape {values = dense<[0, 3, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %size = tosa.const_shape {values = dense<[9, 17, 5]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %s = tosa.slice %x, %start, %size : (tensor<9x33x5xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<9x17x5xf32>
    %r = tosa.concat %s, %y {axis = 1 : i32} : (tensor<9x17x5xf32>, tensor<9x7x5xf32>) -> tensor<9x24x5xf32>
    return %r : tensor<9x24x5xf32>
  }

  func.func @tosa_greater_select_cast(%a: tensor<17x65xf32>, %b: tensor<17x65xf32>) -> (tensor<17x65xf32>, tensor<17x65xi32>) {
    %g = tosa.greater %a, %b : (tensor<17x65xf32>, tensor<17x65xf32>) -> tensor<17x65xi1>
    %sel = tosa.select %g, %a, %b : (tensor<17x65xi1>, tensor<17x65xf32>, tensor<17x65xf32>) -> tensor<17x65xf32>
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %k = "tosa.const"() <{values = dense<10.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %scaled = tosa.mul %sel, %k, %shift : (tensor<17x65xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<17x65xf32>
    %fl = tosa.floor %scaled : (tensor<17x65xf32>) -> tensor<17x65xf32>
    %c = tosa.cast %fl : (tensor<17x65xf32>) -> tensor<17x65xi32>
    return %sel, %c : tensor<17x65xf32>, tensor<17x65xi32>
  }
}
