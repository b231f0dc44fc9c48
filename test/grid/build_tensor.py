"""Grid builders of the data-movement cases: views, Concat, the copies
(Transpose, Slice, Expand, Tile, DepthToSpace, SpaceToDepth), Pad, Resize
and Gather (by constant indices, and by run-time ones on the indexed DMA). Data movement is exact: every output is compared bit for bit."""
import math

import numpy as np

from grid_net import PLAIN, Unbuildable, is_quant, onnx_type, storage


def quant_opset(net, types):
    """16-bit quantized types need QuantizeLinear-21."""
    if any(is_quant(t) and np.dtype(storage(t)).itemsize > 1 for t in types):
        net.opset = max(net.opset, 21)


def build_view(case, net):
    a_t, b_t = case["operands"][0], case["results"][0]
    quant_opset(net, [a_t, b_t])
    net.exact = True
    # qk.view between types of one kind is a reshape, between a quantized
    # and a plain type a storage cast.
    if not is_quant(a_t) and not is_quant(b_t) and a_t != b_t:
        # BitCast (opset 26): the same bits as the other type of a pair.
        x = net.value_in(a_t, (2, 3, 4, 5))
        y = net.node("BitCast", [x], to=onnx_type(PLAIN[b_t]))
        net.opset = max(net.opset, 26)
        net.value_out(b_t, y)
        net.exact = True
        return
    if is_quant(a_t) == is_quant(b_t):
        x = net.value_in(a_t, (2, 3, 4, 5))
        y = net.node("Reshape", [x, net.const(np.asarray([6, 20], np.int64), "shape")])
        net.value_out(b_t, y, like=x if is_quant(a_t) else None)
        return
    # A storage cast connects an integer graph value to a quantized type: an
    # integer input read through DequantizeLinear, or a QuantizeLinear's
    # integer output.
    if is_quant(b_t):
        net.value_out("f32", net.value_in(b_t, (2, 6, 5), axis=1))
        return
    x = net.value_in("f32", (2, 6, 5))
    base = a_t.split("/")[0]
    if a_t.endswith("/axis"):
        scale, zp = net.qparams(base, channels=6)
        attrs = {"axis": 1}
    else:
        scale, zp = net.qparams(base)
        attrs = {}
    y = net.node("QuantizeLinear", [x, net.const(scale, "s"), net.const(zp, "z")], **attrs)
    net.value_out(b_t, y)


def build_concat(case, net):
    types = case["operands"]
    y_t = case["results"][0]
    quant_opset(net, types + [y_t])
    requantize = case["props"]["requantize"]
    n = int(net.rng.integers(1, 5)) if len(types) == 1 else 3
    ins, first = [], None
    for i in range(n):
        t = types[i % len(types)]
        shape = (2, int(net.rng.integers(1, 6)), 5, 7)
        name = net.value_in(t, shape, params=net.params.get(first) if (first and not requantize) else None)
        first = first or name
        ins.append(name)
    y = net.node("Concat", ins, axis=1)
    net.value_out(y_t, y, like=first if (is_quant(y_t) and not requantize) else None)
    net.exact = True


PERMS = {3: [1, 2, 0], 4: [0, 2, 3, 1]}


def build_transpose(case, net):
    t = case["operands"][0]
    quant_opset(net, [t])
    rank = 3 + int(net.rng.integers(2))
    shape = (3, 5, 7) if rank == 3 else (2, 3, 5, 7)
    x = net.value_in(t, shape)
    # a permutation that is not its own inverse
    y = net.node("Transpose", [x], perm=PERMS[rank])
    net.value_out(t, y, like=x if is_quant(t) else None)
    net.exact = True


def build_slice(case, net, reversed_, strided):
    t = case["operands"][0]
    quant_opset(net, [t])
    shape = (2, 6, 9, 11)
    x = net.value_in(t, shape)
    step_h = (-2 if strided else -1) if reversed_ else (2 if strided else 1)
    starts, ends = ([7, 10], [0, -12]) if reversed_ else ([1, 2], [9, 10])
    steps = [step_h, -1 if reversed_ else 1]
    y = net.node("Slice", [x, net.const(np.asarray(starts, np.int64)), net.const(np.asarray(ends, np.int64)),
                           net.const(np.asarray([2, 3], np.int64)), net.const(np.asarray(steps, np.int64))])
    net.value_out(t, y, like=x if is_quant(t) else None)
    net.exact = True


def build_pad(case, net, mode="constant"):
    """qk.pad: a constant Pad; qk.copy's pieces: a reflect, edge or wrap one."""
    t = case["operands"][0]
    quant_opset(net, [t])
    shape = (1, 3, 6, 7)
    x = net.value_in(t, shape)
    pads = np.asarray([0, 0, 2, 1, 0, 0, 1, 3], np.int64)
    ins = [x, net.const(pads, "pads")]
    if mode == "constant":
        if t == "i1":
            value = np.asarray(True)
        elif is_quant(t) or t == "f32":
            value = np.asarray(1.5, np.float32)
        else:
            value = np.asarray(3, np.dtype(net.feeds[-1].dtype)) if t != "f16" else np.asarray(1.5, np.float16)
        ins.append(net.const(value, "value"))
    if mode == "wrap":
        net.opset = max(net.opset, 19)
    y = net.node("Pad", ins, mode=mode)
    net.value_out(t, y, like=x if is_quant(t) else None)
    net.exact = True


def nearest_source(o, n_in, n_out, scale, ctm, nm):
    """The input index a nearest resize reads for output index `o` (the ONNX
    definition, as the reference computes it)."""
    if ctm == "asymmetric":
        x = o / scale
    elif ctm == "half_pixel":
        x = (o + 0.5) / scale - 0.5
    elif ctm == "pytorch_half_pixel":
        x = (o + 0.5) / scale - 0.5 if n_out > 1 else 0.0
    elif ctm == "tf_half_pixel_for_nn":
        x = (o + 0.5) / scale
    else:  # align_corners
        x = o * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    if nm == "floor":
        r = math.floor(x)
    elif nm == "ceil":
        r = math.ceil(x)
    elif nm == "round_prefer_floor":
        r = math.floor(x) if x - math.floor(x) == 0.5 else math.floor(x + 0.5)
    else:
        r = math.floor(x + 0.5)
    return min(max(int(r), 0), n_in - 1)


def replicates(n_in, scale, ctm, nm):
    n_out = int(math.floor(n_in * scale))
    k = n_out // n_in
    return k >= 1 and k * n_in == n_out and all(
        nearest_source(o, n_in, n_out, scale, ctm, nm) == o // k for o in range(n_out))


def build_resize(case, net, runs):
    """A nearest Resize of a random coordinate mode and rounding: a
    whole-number replication (one piece), or a sampling that copies runs
    (more than one piece)."""
    t = case["operands"][0]
    quant_opset(net, [t])
    modes = [(ctm, nm) for ctm in ["half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                                   "tf_half_pixel_for_nn"]
             for nm in ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"]]
    start = int(net.rng.integers(len(modes)))
    # The first (H, W, scale), for the first modes from a random one, whose
    # sampling is (not) a replication, as `runs` asks.
    found = None
    for ctm, nm in modes[start:] + modes[:start]:
        for h, w, scale in [(4, 5, 2.0), (4, 5, 3.0), (1, 5, 2.0), (6, 8, 1.5), (8, 6, 0.5),
                            (5, 7, 2.5), (1, 1, 3.0), (6, 9, 0.75)]:
            if (replicates(h, scale, ctm, nm) and replicates(w, scale, ctm, nm)) != runs:
                found = (ctm, nm, h, w, scale)
                break
        if found:
            break
    if not found:
        raise Unbuildable("no nearest resize gives runs=%s" % runs)
    ctm, nm, h, w, scale = found
    x = net.value_in(t, (1, 2, h, w))
    scales = net.const(np.asarray([1, 1, scale, scale], np.float32), "scales")
    y = net.node("Resize", [x, "", scales], mode="nearest", coordinate_transformation_mode=ctm,
                 nearest_mode=nm)
    net.value_out(t, y, like=x if is_quant(t) else None)
    net.exact = True


def build_gather(case, net, runs):
    """A Gather by constant indices (int32 or int64): several runs, or one."""
    t = case["operands"][0]
    quant_opset(net, [t])
    x = net.value_in(t, (3, 8, 5))
    if runs:
        ids = [5, -8, 2, 2, 7, 0]
    else:
        ids = [1, 2, 3, 4] if net.rng.integers(2) else [6]
    idx = net.const(np.asarray(ids, np.int32 if net.rng.integers(2) else np.int64), "ids")
    y = net.node("Gather", [x, idx], axis=1)
    net.value_out(t, y, like=x if is_quant(t) else None)
    net.exact = True


def build_indexed_gather(case, net):
    """qk.gather: a Gather by indices that are a graph input (int32 or
    int64, negative ones included), along axis 0 or 1."""
    t, i_t = case["operands"]
    quant_opset(net, [t])
    x = net.value_in(t, (3, 8, 5))
    axis = int(net.rng.integers(2))
    n = (3, 8)[axis]
    ids = net.graph_input(np.asarray([n - 1, -n, 1, -1], np.int32 if i_t == "i32" else np.int64), "ids")
    y = net.node("Gather", [x, ids], axis=axis)
    net.value_out(t, y, like=x if is_quant(t) else None)
    net.exact = True


def build_indexed_scatter(case, net):
    """qk.scatter: ScatterND of one index per row, the indices a graph input
    (a repeated one and a negative one), with the case's reduction."""
    t = case["operands"][0]
    red = case["props"]["reduction"]
    net.opset = max(net.opset, 18)
    x = net.value_in(t, (5, 3), domain="small")
    u = net.value_in(t, (4, 3), domain="small")
    ids = net.graph_input(np.asarray([[1], [-1], [1], [0]], np.int64), "ids")
    y = net.node("ScatterND", [x, ids, u], reduction=red)
    net.value_out(t, y)
    net.exact = True


def build_copy_view(case, net, op):
    t = case["operands"][0]
    quant_opset(net, [t])
    if op == "Expand":
        x = net.value_in(t, (3, 1, 5))
        y = net.node("Expand", [x, net.const(np.asarray([2, 3, 4, 5], np.int64), "shape")])
    elif op == "Tile":
        x = net.value_in(t, (2, 3, 5))
        y = net.node("Tile", [x, net.const(np.asarray([2, 1, 3], np.int64), "repeats")])
    elif op == "DepthToSpace":
        x = net.value_in(t, (1, 8, 3, 5))
        y = net.node("DepthToSpace", [x], blocksize=2, mode="CRD" if net.rng.integers(2) else "DCR")
    else:
        x = net.value_in(t, (1, 2, 6, 10))
        y = net.node("SpaceToDepth", [x], blocksize=2)
    net.value_out(t, y, like=x if is_quant(t) else None)
    net.exact = True


def build_copy(case, net):
    """qk.copy: for `pieces` (more than one strided copy) a Slice reversed
    along its last axis, a Resize or Gather copying runs, or a reflect,
    edge or wrap Pad; else one of the copies of one piece. A quantized copy
    comes from an op graph-fuse-qdq quantizes (not Expand or Tile)."""
    strided = bool(net.rng.integers(2))
    pieces = case["props"]["pieces"]
    builds = {"Slice": lambda: build_slice(case, net, pieces, strided),
              "Resize": lambda: build_resize(case, net, pieces),
              "Gather": lambda: build_gather(case, net, pieces)}
    if pieces:
        builds.update({m: (lambda m=m: build_pad(case, net, m)) for m in ("reflect", "edge", "wrap")})
    else:
        builds["Transpose"] = lambda: build_transpose(case, net)
        ops = ["DepthToSpace", "SpaceToDepth"] + ([] if is_quant(case["operands"][0]) else ["Expand", "Tile"])
        builds.update({o: (lambda o=o: build_copy_view(case, net, o)) for o in ops})
    names = sorted(builds)
    builds[names[int(net.rng.integers(len(names)))]]()


BUILDERS = {"qk.view": build_view, "qk.concat": build_concat, "qk.copy": build_copy,
            "qk.pad": build_pad, "qk.gather": build_indexed_gather,
            "qk.scatter": build_indexed_scatter}
