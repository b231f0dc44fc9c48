"""Grid builders of the matrix-product cases: qk.matmul (f32 and fp16 MatMul
and Gemm, QDQ products, MatMulInteger), qk.conv2d (f32 and fp16 Conv, QDQ
convolutions, ConvInteger) and qk.conv_transpose (ConvTranspose).

A quantized product is requantized by MATRIX's output stage in fixed point,
which rounds exact ties half away from zero (docs/numerics.md, "Fractional
bits"), where QuantizeLinear rounds half to even. Half of the integer cases
use power-of-two scales: every step is then exact, ties happen, and the
output is compared bit for bit with the ONNX reference rounded as the
documented stage rounds (`Net.ties_away`). The others take arbitrary scales
and are compared within one step.
"""
import numpy as np

from grid_net import Unbuildable

# M x K x N (or spatial sizes) that reach the tiling's edge forms: one tile,
# several, a remainder.
MATMUL_SHAPES = [(5, 7, 9), (70, 130, 33), (64, 64, 64), (17, 200, 96)]
CONV_SIZES = [(4, 6, 12, 13), (8, 16, 20, 23), (3, 5, 33, 12), (16, 8, 14, 14)]


def pick(net, items):
    return items[int(net.rng.integers(len(items)))]


def fp16_mode(net, result):
    """--float fp16: operands rounded to fp16, fp32 accumulation; the result
    is fp16 when another product reads it. The tolerance comes from the
    products' magnitudes (Net.fp16_bound)."""
    net.float_mode = "fp16"
    net.fp16 = True
    return result


def pow2(net, lo, hi):
    return np.float32(2.0 ** int(net.rng.integers(lo, hi + 1)))


def build_matmul(case, net):
    a_t, b_t = case["operands"][:2]
    y_t = case["results"][0]
    props = case["props"]
    m, k, n = pick(net, MATMUL_SHAPES)
    batch = (2,) if props["batch"] else ()
    bbatch = (2,) if props["batched-rhs"] else ()
    if "transA" in props and (props["transA"] or props["transB"] or props["alpha"]
                              or props["c"] != "none" or net.rng.integers(2)):
        # a 2-D float product: Gemm's features, or Gemm without them
        build_gemm(case, net)
        return
    if a_t in ("f32", "f16"):  # qk.matmul's float form
        net.f32_products = True
        x = net.value_in("f32", batch + (m, k))
        w = net.value_in("f32", bbatch + (k, n))
        y = net.node("MatMul", [x, w])
        if a_t == "f16":
            fp16_mode(net, y)
            if y_t == "f16":
                y = net.node("MatMul", [y, net.value_in("f32", (n, 3), const=True)])
        net.value_out("f32", y)
        return
    requant = props["requant"]
    u = lambda t: np.dtype("u1" if t == "ui8" else "i1")  # noqa: E731
    if requant == "none":
        qa = net.graph_input(net.random(u(a_t), batch + (m, k)), "q")
        qb = (net.graph_input if bbatch else net.const)(net.random(u(b_t), bbatch + (k, n)))
        za = net.const(np.asarray(3 if a_t == "ui8" else -4, u(a_t)), "z")
        zb = net.const(np.asarray(2 if b_t == "ui8" else 1, u(b_t)), "z")
        net.value_out("i32", net.node("MatMulInteger", [qa, qb, za, zb]))
        net.exact = True
        return
    ties = bool(net.rng.integers(2))
    if requant == "row":
        # the weights on the left, quantized along their rows
        if batch and not bbatch:
            raise Unbuildable("row requantization has the 2-D weights on the left")
        ws = np.asarray([pow2(net, -8, -5) if ties else np.float32(net.rng.uniform(0.005, 0.02))
                         for _ in range(m)], np.float32)
        w = net.value_in("q" + a_t + "/axis", (m, k), const=True, axis=0,
                         params=(ws, np.full(m, 3 if a_t == "ui8" else -2, u(a_t))))
        x = net.value_in("q" + b_t, bbatch + (k, n), params=(pow2(net, -6, -4), np.asarray(7, u(b_t))) if ties else None)
        y = net.node("MatMul", [w, x])
    else:
        x = net.value_in("q" + a_t, batch + (m, k), params=(pow2(net, -6, -4), np.asarray(5, u(a_t))) if ties else None)
        if requant == "column":
            ws = np.asarray([pow2(net, -8, -5) if ties else np.float32(net.rng.uniform(0.005, 0.02))
                             for _ in range(n)], np.float32)
            zb = np.full(n, 4 if b_t == "ui8" else -3, u(b_t))
            w = net.value_in("q" + b_t + "/axis", bbatch + (k, n), const=True, axis=len(bbatch) + 1, params=(ws, zb))
        else:
            w = net.value_in("q" + b_t, bbatch + (k, n), const=not bbatch,
                             params=(pow2(net, -7, -5), np.asarray(-1 if b_t == "i8" else 2, u(b_t))) if ties else None)
        y = net.node("MatMul", [x, w])
        if props["bias"]:
            xs = float(net.params[x][0])
            wsv = np.asarray(net.params[w][0], np.float32).reshape(-1)
            bscale = (xs * wsv).astype(np.float32)
            bq = net.rng.integers(-500, 500, n).astype(np.int32)
            bias = net.node("DequantizeLinear", [net.const(bq, "b"), net.const(bscale if bscale.size > 1 else bscale[0], "bs"),
                                                 net.const(np.zeros(n if bscale.size > 1 else (), np.int32), "bz")],
                            **({"axis": 0} if bscale.size > 1 else {}))
            y = net.node("Add", [y, bias])
    net.value_out("q" + y_t, y, pow2_scale=ties)
    if ties:
        # every step exact: compared bit for bit, ties included
        net.ties_away = True
        net.exact = True


def build_gemm(case, net):
    a_t = case["operands"][0]
    y_t = case["results"][0]
    props = case["props"]
    m, k, n = pick(net, MATMUL_SHAPES)
    ta, tb = props["transA"], props["transB"]
    net.f32_products = True
    a = net.value_in("f32", (k, m) if ta else (m, k))
    b = net.value_in("f32", (n, k) if tb else (k, n))
    ins = [a, b]
    attrs = {"transA": int(ta), "transB": int(tb), "alpha": 0.75 if props["alpha"] else 1.0}
    if props["c"] != "none":
        cshape = (m, n) if props["c"] == "matrix" else pick(net, [(n,), (1, n), ()])
        ins.append(net.value_in("f32", cshape))
        attrs["beta"] = 1.5 if props["beta"] else 1.0
    y = net.node("Gemm", ins, **attrs)
    if a_t == "f16":
        fp16_mode(net, y)
        if y_t == "f16":
            y = net.node("MatMul", [y, net.value_in("f32", (n, 3), const=True)])
    net.value_out("f32", y)


def conv_geometry(net, props, depthwise_ok=True):
    """Channels, groups, kernel, strides, pads and dilations of the flags."""
    n, c, h, w = pick(net, CONV_SIZES)
    kind = props["kind"]
    window = props.get("window", "kxk")
    kh, kw = (1, 1) if window == "1x1" else pick(net, [(3, 3), (2, 3), (5, 5)])
    if kind == "depthwise":
        group, m, kh, kw = c, c, 3, 3
    elif kind == "grouped":
        c = 2 * max(2, c // 2)
        group, m = 2, 6
    else:
        group, m = 1, int(net.rng.integers(3, 40))
    s = [2, 1] if props["strided"] else [1, 1]
    d = [2, 2] if props.get("dilated") else [1, 1]
    p = [1, 0, 1, 2] if props.get("padded") else [0, 0, 0, 0]
    n = 1
    return n, c, h, w, m, group, kh, kw, s, d, p


def build_conv(case, net):
    props = case["props"]
    x_t, w_t = case["operands"][:2]
    y_t = case["results"][0]
    n, c, h, w_, m, group, kh, kw, s, d, p = conv_geometry(net, props)
    attrs = {"group": group, "strides": s, "dilations": d, "pads": p, "kernel_shape": [kh, kw]}
    wshape = (m, c // group, kh, kw)
    if case["operands"][0] in ("f32", "f16"):  # qk.conv2d's float form
        net.f32_products = True
        x = net.value_in("f32", (n, c, h, w_))
        w = net.value_in("f32", wshape, const=True)
        ins = [x, w] + ([net.value_in("f32", (m,), const=True)] if props["bias"] else [])
        y = net.node("Conv", ins, **attrs)
        act = props["activation"]
        if act == "relu":
            y = net.node("Relu", [y])
        elif act == "clip":
            y = net.node("Clip", [y, net.const(np.float32(-0.5)), net.const(np.float32(2.0))])
        if x_t == "f16":
            fp16_mode(net, y)
            if y_t == "f16":
                w2 = net.value_in("f32", (4, m, 1, 1), const=True)
                y = net.node("Conv", [y, w2])
        net.value_out("f32", y)
        return
    requant = props["requant"]
    u = lambda t: np.dtype("u1" if t == "ui8" else "i1")  # noqa: E731
    if requant == "none" and props["bias"]:
        # QDQ with an int32 result at the accumulator scale: the kernel's
        # accumulator itself, its bias at that scale too
        xs, ws = pow2(net, -6, -4), pow2(net, -7, -5)
        x = net.value_in("q" + x_t, (n, c, h, w_), params=(xs, np.asarray(5 if x_t == "ui8" else -3, u(x_t))))
        w = net.value_in("q" + w_t, wshape, const=True, params=(ws, np.asarray(2 if w_t == "ui8" else 0, u(w_t))))
        acc = np.float32(xs * ws)
        b = net.node("DequantizeLinear", [net.const(net.rng.integers(-300, 300, m).astype(np.int32), "b"),
                                          net.const(acc, "bs"), net.const(np.int32(0), "bz")])
        y = net.node("Conv", [x, w, b], **attrs)
        q = net.node("QuantizeLinear", [y, net.const(acc, "s"), net.const(np.int32(0), "z")])
        net.outputs.append((q, None))
        net.exact = True
        return
    if requant == "none":
        xq = net.graph_input(net.random(u(x_t), (n, c, h, w_)), "q")
        wq = net.const(net.random(u(w_t), wshape), "w")
        zx = net.const(np.asarray(3 if x_t == "ui8" else -4, u(x_t)), "z")
        zw = net.const(np.asarray(2 if w_t == "ui8" else 1, u(w_t)), "z")
        net.value_out("i32", net.node("ConvInteger", [xq, wq, zx, zw], **attrs))
        net.exact = True
        return
    ties = bool(net.rng.integers(2))
    xs = pow2(net, -6, -4) if ties else np.float32(net.rng.uniform(0.01, 0.05))
    x = net.value_in("q" + x_t, (n, c, h, w_), params=(xs, np.asarray(9 if x_t == "ui8" else -7, u(x_t))))
    zw_v = 4 if w_t == "ui8" else -2
    if requant == "channel":
        ws = np.asarray([pow2(net, -8, -5) if ties else net.rng.uniform(0.002, 0.02) for _ in range(m)], np.float32)
        w = net.value_in("q" + w_t + "/axis", wshape, const=True, axis=0, params=(ws, np.full(m, zw_v, u(w_t))))
    else:
        ws = pow2(net, -7, -5) if ties else np.float32(net.rng.uniform(0.002, 0.02))
        w = net.value_in("q" + w_t, wshape, const=True, params=(ws, np.asarray(zw_v, u(w_t))))
    ins = [x, w]
    if props["bias"]:
        wsv = np.asarray(ws, np.float32).reshape(-1)
        bscale = (np.float32(xs) * wsv).astype(np.float32)
        bq = net.rng.integers(-300, 300, m).astype(np.int32)
        attrs_b = {"axis": 0} if bscale.size > 1 else {}
        ins.append(net.node("DequantizeLinear", [net.const(bq, "b"), net.const(bscale if bscale.size > 1 else bscale[0], "bs"),
                                                 net.const(np.zeros(m if bscale.size > 1 else (), np.int32), "bz")],
                            **attrs_b))
    y = net.node("Conv", ins, **attrs)
    net.value_out("q" + y_t, y, pow2_scale=ties)
    if ties:
        # every step exact: compared bit for bit, ties included
        net.ties_away = True
        net.exact = True


def build_conv_transpose(case, net):
    props = case["props"]
    n, c, h, w_ = 1, 4, 5, 6
    kind = props["kind"]
    window = props.get("window", "kxk")
    form = props.get("form", "spread")
    if form == "depth-to-space":
        # the stride is the window: 2x2 by 2, or 1x1 by 1
        kh = kw = 1 if window == "1x1" else 2
        s, d, p, op_ = [kh, kw], [1, 1], [0, 0, 0, 0], [0, 0]
    else:
        kh, kw = (1, 1) if window == "1x1" else (3, 3)
        if kind == "depthwise":
            kh = kw = 3
        s = [2, 2] if props["strided"] else [1, 1]
        d = [2, 2] if props["dilated"] else [1, 1]
        p = [1, 1, 1, 1] if kh > 1 else [0, 0, 0, 0]
        op_ = [1, 1] if props["output-padding"] else [0, 0]
        if props["output-padding"] and not props["strided"] and not props["dilated"]:
            raise Unbuildable("output_padding needs a stride or a dilation larger than it")
    if kind == "depthwise":
        group, m = c, c
    elif kind == "grouped":
        group, m = 2, 6
    else:
        group, m = 1, 5
    net.f32_products = True
    x = net.value_in("f32", (n, c, h, w_))
    w = net.value_in("f32", (c, m // group, kh, kw), const=True)
    ins = [x, w] + ([net.value_in("f32", (m,), const=True)] if props["bias"] else [])
    y = net.node("ConvTranspose", ins, group=group, strides=s, dilations=d, pads=p, output_padding=op_,
                 kernel_shape=[kh, kw])
    net.value_out("f32", y)


BUILDERS = {"qk.matmul": build_matmul,
            "qk.conv2d": build_conv, "qk.conv_transpose": build_conv_transpose}
