"""The op table: (domain, op type) -> the reference, called as
fn(node, *inputs) with None for an absent optional input; it returns one
array or a list / tuple of arrays, one per output."""

from .elementwise import (UNARY_FLOAT, op_arith, op_bitcast, op_bitshift, op_bitwise, op_cast, op_clip, op_compare,
                          op_identity, op_logical, op_mod, op_pow, op_prelu, op_unary_exact, op_unary_float,
                          op_variadic, op_where)
from .quant import (op_conv_integer, op_dequantize_linear, op_dynamic_quantize_linear,
                    op_matmul_integer, op_qlinear_binary, op_qlinear_concat, op_qlinear_conv,
                    op_qlinear_matmul, op_qlinear_pool, op_qlinear_unary, op_quantize_linear)
from .nn import (op_average_pool, op_batchnorm, op_conv, op_conv_transpose, op_det, op_einsum,
                 op_gemm, op_global_pool, op_instancenorm, op_layernorm, op_lp_pool, op_lrn,
                 op_matmul, op_max_pool, op_mvn, op_softmax)
from .reduce import op_argminmax, op_cumsum, op_reduce, op_topk
from .newer import (op_affine_grid, op_center_crop_pad, op_col2im, op_cumprod, op_deform_conv, op_group_norm,
                    op_lp_normalization, op_roi_align, op_rotary_embedding, op_tensor_scatter)
from .tensor import (op_compress, op_concat, op_constant, op_constant_of_shape, op_depth_to_space,
                     op_expand, op_eye_like, op_flatten, op_gather, op_gather_elements, op_gather_nd,
                     op_if, op_nonzero, op_onehot, op_pad, op_range, op_reshape, op_resize,
                     op_reverse_sequence, op_scatter_elements, op_scatter_nd, op_shape, op_size,
                     op_slice, op_space_to_depth, op_split, op_squeeze, op_tile, op_transpose,
                     op_trilu, op_unsqueeze)


OPS = {}


def _register(fn, *names, domain=""):
    for name in names:
        OPS[(domain, name)] = fn


_register(op_arith, "Add", "Sub", "Mul", "Div")
_register(op_pow, "Pow")
_register(op_mod, "Mod")
_register(op_bitshift, "BitShift")
_register(op_variadic, "Max", "Min", "Sum", "Mean")
_register(op_compare, "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual")
_register(op_logical, "And", "Or", "Xor", "Not")
_register(op_bitwise, "BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot")
_register(op_where, "Where")
_register(op_unary_float, *UNARY_FLOAT)
_register(op_unary_exact, "Relu", "LeakyRelu", "Neg", "Abs", "Sign", "Floor", "Ceil", "Round",
          "IsNaN", "IsInf", "Shrink")
_register(op_identity, "Identity", "Dropout")
_register(op_prelu, "PRelu")
_register(op_clip, "Clip")
_register(op_cast, "Cast", "CastLike")
_register(op_bitcast, "BitCast")
_register(op_quantize_linear, "QuantizeLinear")
_register(op_dequantize_linear, "DequantizeLinear")
_register(op_quantize_linear, "QuantizeLinear", domain="com.microsoft")
_register(op_dequantize_linear, "DequantizeLinear", domain="com.microsoft")
_register(op_dynamic_quantize_linear, "DynamicQuantizeLinear")
_register(op_qlinear_matmul, "QLinearMatMul")
_register(op_matmul_integer, "MatMulInteger")
_register(op_qlinear_conv, "QLinearConv")
_register(op_conv_integer, "ConvInteger")
_register(op_qlinear_binary, "QLinearAdd", "QLinearMul", domain="com.microsoft")
_register(op_qlinear_unary, "QLinearSigmoid", "QLinearLeakyRelu", domain="com.microsoft")
_register(op_qlinear_concat, "QLinearConcat", domain="com.microsoft")
_register(op_qlinear_pool, "QLinearAveragePool", "QLinearGlobalAveragePool", domain="com.microsoft")
_register(op_conv, "Conv")
_register(op_conv_transpose, "ConvTranspose")
_register(op_matmul, "MatMul")
_register(op_gemm, "Gemm")
_register(op_einsum, "Einsum")
_register(op_det, "Det")
_register(op_softmax, "Softmax", "LogSoftmax", "Hardmax")
_register(op_reduce, "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
          "ReduceL2", "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp")
_register(op_argminmax, "ArgMax", "ArgMin")
_register(op_cumsum, "CumSum")
_register(op_topk, "TopK")
_register(op_max_pool, "MaxPool")
_register(op_average_pool, "AveragePool")
_register(op_lp_pool, "LpPool")
_register(op_global_pool, "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool")
_register(op_batchnorm, "BatchNormalization")
_register(op_instancenorm, "InstanceNormalization")
_register(op_layernorm, "LayerNormalization")
_register(op_lrn, "LRN")
_register(op_mvn, "MeanVarianceNormalization")
_register(op_reshape, "Reshape")
_register(op_flatten, "Flatten")
_register(op_transpose, "Transpose")
_register(op_squeeze, "Squeeze")
_register(op_unsqueeze, "Unsqueeze")
_register(op_concat, "Concat")
_register(op_split, "Split")
_register(op_slice, "Slice")
_register(op_gather, "Gather")
_register(op_gather_elements, "GatherElements")
_register(op_gather_nd, "GatherND")
_register(op_scatter_elements, "ScatterElements", "Scatter")
_register(op_scatter_nd, "ScatterND")
_register(op_expand, "Expand")
_register(op_tile, "Tile")
_register(op_pad, "Pad")
_register(op_resize, "Resize", "Upsample")
_register(op_depth_to_space, "DepthToSpace")
_register(op_space_to_depth, "SpaceToDepth")
_register(op_shape, "Shape")
_register(op_size, "Size")
_register(op_constant, "Constant")
_register(op_constant_of_shape, "ConstantOfShape")
_register(op_range, "Range")
_register(op_eye_like, "EyeLike")
_register(op_trilu, "Trilu")
_register(op_onehot, "OneHot")
_register(op_nonzero, "NonZero")
_register(op_compress, "Compress")
_register(op_reverse_sequence, "ReverseSequence")
_register(op_if, "If")
_register(op_cumprod, "CumProd")
_register(op_lp_normalization, "LpNormalization")
_register(op_group_norm, "GroupNormalization")
_register(op_center_crop_pad, "CenterCropPad")
_register(op_col2im, "Col2Im")
_register(op_affine_grid, "AffineGrid")
_register(op_rotary_embedding, "RotaryEmbedding")
_register(op_tensor_scatter, "TensorScatter")
_register(op_roi_align, "RoiAlign")
_register(op_deform_conv, "DeformConv")

# Outputs of these ops are quantized values: integer steps of tolerance.
QUANTIZING_OPS = {("", "QuantizeLinear"), ("", "QLinearConv"), ("", "QLinearMatMul"),
                  ("", "DynamicQuantizeLinear"), ("com.microsoft", "QuantizeLinear")} | {
    k for k in OPS if k[0] == "com.microsoft" and k[1].startswith("QLinear")}


def supported_ops():
    """The (domain, op type) pairs that have a reference."""
    return sorted(OPS)
