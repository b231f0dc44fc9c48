"""The shared pieces of the references: ONNX element types and their numpy
equivalents, the Node wrapper (a NodeProto's decoded attributes and the opset
it runs under), the exceptions, and small numpy helpers."""

import numpy as np
from onnx import numpy_helper, helper, AttributeProto, TensorProto


class NotEvaluated(Exception):
    """There is no reference for this node (or this use of it)."""


class UsageError(Exception):
    """Bad command line or unreadable input: exit status 2."""


# ----------------------------------------------------------------------------
# ONNX element types
# ----------------------------------------------------------------------------

ONNX_TO_NP = {
    TensorProto.FLOAT: np.float32, TensorProto.UINT8: np.uint8, TensorProto.INT8: np.int8,
    TensorProto.UINT16: np.uint16, TensorProto.INT16: np.int16, TensorProto.INT32: np.int32,
    TensorProto.INT64: np.int64, TensorProto.BOOL: np.bool_, TensorProto.FLOAT16: np.float16,
    TensorProto.DOUBLE: np.float64, TensorProto.UINT32: np.uint32, TensorProto.UINT64: np.uint64,
}


def np_dtype(elem_type):
    """numpy dtype of an ONNX element type; NotEvaluated for types numpy cannot hold."""
    if elem_type in ONNX_TO_NP:
        return np.dtype(ONNX_TO_NP[elem_type])
    name = TensorProto.DataType.Name(elem_type) if elem_type in TensorProto.DataType.values() \
        else str(elem_type)
    raise NotEvaluated("element type %s has no numpy equivalent" % name)


def is_int(a):
    return a.dtype.kind in "iub"


def is_float(a):
    return a.dtype.kind == "f"


def f64(a):
    return np.asarray(a, dtype=np.float64)


def ints(a):
    """A 1-D int64 tensor (shape, axes, pads ...) as a Python list."""
    return [int(v) for v in np.asarray(a).reshape(-1)]


def scalar(a):
    return np.asarray(a).reshape(-1)[0].item()


def as_type(y, dtype):
    """Cast a float64 result to the ONNX output type (ints by rounding half to even)."""
    dtype = np.dtype(dtype)
    y = np.asarray(y)
    if dtype.kind in "iu" and y.dtype.kind == "f":
        info = np.iinfo(dtype)
        return np.clip(np.rint(y), info.min, info.max).astype(dtype)
    return y.astype(dtype)


def norm_axis(axis, rank):
    if axis < -rank or axis >= max(rank, 1):
        raise ValueError("axis %d out of range for rank %d" % (axis, rank))
    return axis + rank if axis < 0 else axis


# ----------------------------------------------------------------------------
# Node context: attributes and opset of the node being evaluated
# ----------------------------------------------------------------------------

class Node:
    """One NodeProto with its decoded attributes and the opset it runs under."""

    def __init__(self, proto, opset, evaluator=None, lookup=None):
        self.proto = proto
        self.op = proto.op_type
        self.domain = proto.domain if proto.domain not in ("ai.onnx",) else ""
        self.opset = opset
        self.name = proto.name or (proto.output[0] if proto.output else proto.op_type)
        self.outputs = list(proto.output)
        self._attrs = {a.name: a for a in proto.attribute}
        self.evaluator = evaluator
        self.lookup = lookup

    def has(self, name):
        return name in self._attrs

    def attr(self, name, default=None):
        a = self._attrs.get(name)
        if a is None:
            return default
        if a.ref_attr_name:
            raise NotEvaluated("attribute %s refers to a function attribute" % name)
        if a.type == AttributeProto.TENSOR:
            return tensor_to_array(a.t)
        if a.type == AttributeProto.GRAPH:
            return a.g
        v = helper.get_attribute_value(a)
        if isinstance(v, bytes):
            return v.decode("utf-8")
        if isinstance(v, list) and v and isinstance(v[0], bytes):
            return [s.decode("utf-8") for s in v]
        return v

    def wants(self, k):
        """Whether output k exists (optional outputs may be absent or named "")."""
        return k < len(self.outputs) and self.outputs[k] != ""


def tensor_to_array(t):
    np_dtype(t.data_type)  # raises NotEvaluated for bfloat16, float8, string ...
    return numpy_helper.to_array(t)
