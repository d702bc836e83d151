// An embedding lookup as torch-mlir exports nn.Embedding: every id is
// checked against the table's rows with cf.assert before it is read.
#ids = affine_map<(d0, d1) -> (d0)>
#out = affine_map<(d0, d1) -> (d0, d1)>
func.func @embed(%ids: tensor<3xi64>, %table: tensor<10x4xf32>) -> tensor<3x4xf32> {
  %c10 = arith.constant 10 : index
  %c0_i64 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<3xi64>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %below = arith.cmpi slt, %i, %c10 : index
    cf.assert %below, "index must be smaller than dim size"
    %nonneg = arith.cmpi sge, %id, %c0_i64 : i64
    cf.assert %nonneg, "index must be larger or equal to 0"
    %v = tensor.extract %table[%i, %j] : tensor<10x4xf32>
    linalg.yield %v : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
