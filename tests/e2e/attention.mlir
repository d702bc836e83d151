// RUN: %pbtool crosscheck %s | FileCheck %s
// CHECK: PASS @attention
// Covers: single-head attention: Q*K^T via a batch_matmul on a linalg.transpose'd K, scaling, causal mask built with linalg.index, softmax over the last axis, then P*V batch_matmul.
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#red3 = affine_map<(b, i, j) -> (b, i)>
module {
  func.func @attention(%q: tensor<2x33x16xf32>, %k: tensor<2x33x16xf32>, %v: tensor<2x33x24xf32>) -> tensor<2x33x24xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %ekt = tensor.empty() : tensor<2x16x33xf32>
    %kt = linalg.transpose ins(%k : tensor<2x33x16xf32>) outs(%ekt : tensor<2x16x33xf32>) permutation = [0, 2, 1]
    %es = tensor.empty() : tensor<2x33x33xf32>
    %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x33x33xf32>) -> tensor<2x33x33xf32>
    %s = linalg.batch_matmul ins(%q, %kt : tensor<2x33x16xf32>, tensor<2x16x33xf32>) outs(%zs : tensor<2x33x33xf32>) -> tensor<2x33x33xf32>
    %em = tensor.empty() : tensor<2x33x33xf32>
    %masked = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%s : tensor<2x33x33xf32>) outs(%em : tensor<2x33x33xf32>) {
    ^bb0(%x: f32, %o: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %scale = arith.constant 0.25 : f32
      %big = arith.constant -1.0e9 : f32
      %sc = arith.mulf %x, %scale : f32
      %future = arith.cmpi ugt, %j, %i : index
      %r = arith.select %future, %big, %sc : f32
      linalg.yield %r : f32
    } -> tensor<2x33x33xf32>
    %emx = tensor.empty() : tensor<2x33xf32>
    %mx0 = linalg.fill ins(%ninf : f32) outs(%emx : tensor<2x33xf32>) -> tensor<2x33xf32>
    %mx = linalg.reduce ins(%masked : tensor<2x33x33xf32>) outs(%mx0 : tensor<2x33xf32>) dimensions = [2]
      (%in: f32, %acc: f32) {
        %m = arith.maximumf %in, %acc : f32
        linalg.yield %m : f32
      }
    %eex = tensor.empty() : tensor<2x33x33xf32>
    %ex = linalg.generic {indexing_maps = [#id3, #red3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%masked, %mx : tensor<2x33x33xf32>, tensor<2x33xf32>) outs(%eex : tensor<2x33x33xf32>) {
    ^bb0(%x: f32, %m: f32, %o: f32):
      %d = arith.subf %x, %m : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
    } -> tensor<2x33x33xf32>
    %esum = tensor.empty() : tensor<2x33xf32>
    %sum0 = linalg.fill ins(%zero : f32) outs(%esum : tensor<2x33xf32>) -> tensor<2x33xf32>
    %sum = linalg.reduce ins(%ex : tensor<2x33x33xf32>) outs(%sum0 : tensor<2x33xf32>) dimensions = [2]
      (%in: f32, %acc: f32) {
        %a = arith.addf %in, %acc : f32
        linalg.yield %a : f32
      }
    %ep = tensor.empty() : tensor<2x33x33xf32>
    %p = linalg.generic {indexing_maps = [#id3, #red3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%ex, %sum : tensor<2x33x33xf32>, tensor<2x33xf32>) outs(%ep : tensor<2x33x33xf32>) {
    ^bb0(%x: f32, %s2: f32, %o: f32):
      %d = arith.divf %x, %s2 : f32
      linalg.yield %d : f32
    } -> tensor<2x33x33xf32>
    %eo = tensor.empty() : tensor<2x33x24xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x33x24xf32>) -> tensor<2x33x24xf32>
    %out = linalg.batch_matmul ins(%p, %v : tensor<2x33x33xf32>, tensor<2x33x24xf32>) outs(%zo : tensor<2x33x24xf32>) -> tensor<2x33x24xf32>
    return %out : tensor<2x33x24xf32>
  }
}
