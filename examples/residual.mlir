// A small residual block in the graph dialect: what the ONNX importer will
// produce for Conv -> Add(skip) -> Relu, with an exported "x - 0" left over.
// `npuc-opt residual.mlir --npuc-pipeline` folds the subtraction of zero and
// keeps everything else.
func.func @main(%x: tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32> {
  %w = graph.constant dense<0.125> : tensor<8x8x3x3xf32>
  %b = graph.constant dense<0.5> : tensor<8xf32>
  %zero = graph.constant dense<0.0> : tensor<1xf32>
  %c = graph.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>,
                              dilations = array<i64: 1, 1>, group = 1 : i64}
       : (tensor<1x8x16x16xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
  %s = graph.sub %c, %zero : (tensor<1x8x16x16xf32>, tensor<1xf32>) -> tensor<1x8x16x16xf32>
  %a = graph.add %s, %x : (tensor<1x8x16x16xf32>, tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  %r = graph.relu %a : (tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  return %r : tensor<1x8x16x16xf32>
}
