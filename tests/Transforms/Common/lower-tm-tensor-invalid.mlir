// RUN: pb-opt %s -verify-diagnostics -pb-lower-tm-tensor

// pb-lower-tm-tensor lowers ops on memrefs: on tensors they must be
// bufferized first.
func.func @tensor_form_is_an_error(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'tm_tensor.sort' op expects memref operands: pb-lower-tm-tensor runs after bufferization}}
  %r = tm_tensor.sort dimension(0) outs(%x : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %le = arith.cmpf ole, %a, %b : f32
    tm_tensor.yield %le : i1
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
