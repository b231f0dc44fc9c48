"""onnx_reference: numpy implementations of ONNX operators (their ONNX
definitions) and a whole-model evaluator built on them.

One reference library for scripts/npuc-layer-check.py (every node of a model
judged on a compiled program's dumped values) and the test generators (the
expected outputs of generated models). Import it with scripts/ on sys.path:

    sys.path.insert(0, os.path.join(REPO, "scripts"))
    import onnx_reference
    outs = onnx_reference.evaluate(model, {"x": x})  # {output name: array}

Each op is a function fn(node, *inputs) in OPS under (domain, op type), the
default domain spelled ""; `node` is a core.Node (its attributes, and the
opset of its domain that decides the semantics), an absent optional input is
None, and the result is one array or one per output. Floats are computed in
float64 and rounded once to the ONNX output type; integer results are exact.
The modules: core (element types, Node, helpers, the exceptions),
elementwise, quant, nn, reduce, tensor, registry (the op table) and
evaluator (the graph walk, evaluate()).

Where the ONNX text leaves a definition open, the references follow the ONNX
test data (onnx 1.12) and otherwise onnxruntime: integer Div truncates toward
zero; pooling with ceil_mode drops a last window that would start in the end
padding; Resize takes the resized length as scale * input length (a float) in
align_corners / pytorch_half_pixel / tf_crop_and_resize, and floor(in * scale)
as the output size; Upsample and Resize-10 use asymmetric coordinates with
floor rounding; ConvTranspose with output_shape extends the end when the
output is larger than the natural size; QLinear* ops requantize in float64.
Ops without a reference (and modes such as Resize antialias or blocked
quantization) raise NotEvaluated, never a silent wrong value.

scripts/layer_check_selftest.py checks the references against ONNX's own
node tests and the zoo's models, and evaluate() end to end (--evaluator).
"""

from .core import (NotEvaluated, UsageError, ONNX_TO_NP, Node, np_dtype, tensor_to_array,
                   is_int, is_float, f64, ints, scalar, as_type, norm_axis)
from .quant import dequantize, quantize, quantize_f64
from .registry import OPS, QUANTIZING_OPS, supported_ops
from .evaluator import (DEFAULT_OPSET, GraphEvaluator, ModelEvaluator, evaluate,
                        evaluate_outputs, model_opsets, node_opset, op_label, subgraph_inputs,
                        topo_order)

__all__ = [
    "NotEvaluated", "UsageError", "ONNX_TO_NP", "Node", "np_dtype", "tensor_to_array",
    "is_int", "is_float", "f64", "ints", "scalar", "as_type", "norm_axis",
    "dequantize", "quantize", "quantize_f64",
    "OPS", "QUANTIZING_OPS", "supported_ops",
    "DEFAULT_OPSET", "GraphEvaluator", "ModelEvaluator", "evaluate", "evaluate_outputs",
    "model_opsets", "node_opset", "op_label", "subgraph_inputs", "topo_order",
]
