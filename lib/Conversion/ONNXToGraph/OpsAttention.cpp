//===- OpsAttention.cpp - Attention, RotaryEmbedding (opset 23) as functions -===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Attention is a function in ONNX: scaled products, a bias from the mask, the
// causal frontier and the padding lengths, a softcap, a softmax and a product
// with V. npuc imports it as that body, written out as ONNX nodes (Reshape,
// Transpose, Mul, MatMul, Tanh, Add, Where, Softmax, ...) and imported by the
// same importers as any other node, so every step lowers to the kernels a
// hand-written attention block uses and every diagnostic names the step.
// The order of the steps is the ONNX reference's (onnx.reference op_attention):
// Q and K each scaled by sqrt(scale); the softcap before the bias, so a masked
// score stays -inf; a boolean mask is 0 where true and -inf where false; a
// mask shorter than the keys is padded with -inf; the causal frontier is
// bottom-right: query i sees key j when j <= i + past (past_key's length), or
// j <= i + nonpad_kv_seqlen[b] - q_len when only the padding lengths are given.
//
// RotaryEmbedding is written out the same way, in the ONNX reference's steps:
// the input as [batch, seq, heads, head size], the cos and sin rows of each
// position (a Gather by position_ids, on the indexed DMA when they are
// computed at run time), the rotated part's halves (or its even and odd
// elements when interleaved) turned by (cos, sin), the rest appended.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

#include "npuc/Base/Numerics.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace npuc::onnx_import;

namespace {
/// Builds the function body: ONNX nodes and initializers under names local
/// to this node (a prefix no outer value carries).
struct Body {
  NodeContext &c;
  onnx::GraphProto g;
  std::string prefix;
  int32_t floatType;  // ONNX element type of Q (FLOAT or FLOAT16)
  unsigned counter = 0;

  Body(NodeContext &c, int32_t floatType) : c(c), floatType(floatType) {
    for (unsigned k = 0;; ++k) {
      prefix = "__attention" + std::to_string(k) + ":" + name() + "/";
      bool taken = llvm::any_of(c.imp.values, [&](const auto &kv) { return StringRef(kv.first).starts_with(prefix); });
      if (!taken)
        break;
    }
  }
  std::string name() const { return c.node.name().empty() ? c.node.op_type() : c.node.name(); }
  std::string fresh(StringRef role) { return prefix + role.str() + std::to_string(counter++); }
  std::string input(StringRef role) {
    std::string n = prefix + role.str();
    g.add_input()->set_name(n);
    return n;
  }
  /// Adds node `op` over `ins`; returns its one output.
  std::string node(StringRef op, ArrayRef<std::string> ins, StringRef role,
                   std::function<void(onnx::NodeProto &)> attrs = {}) {
    onnx::NodeProto *n = g.add_node();
    n->set_op_type(op.str());
    n->set_name(name() + "/" + role.str());
    for (const std::string &i : ins)
      n->add_input(i);
    std::string out = fresh(role);
    n->add_output(out);
    if (attrs)
      attrs(*n);
    return out;
  }
  static void intAttr(onnx::NodeProto &n, StringRef name, int64_t v) {
    onnx::AttributeProto *a = n.add_attribute();
    a->set_name(name.str());
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }
  static void intsAttr(onnx::NodeProto &n, StringRef name, ArrayRef<int64_t> v) {
    onnx::AttributeProto *a = n.add_attribute();
    a->set_name(name.str());
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v)
      a->add_ints(x);
  }
  /// An int64 constant of `shape` (a vector when empty).
  std::string ints(ArrayRef<int64_t> v, StringRef role, ArrayRef<int64_t> shape = {}) {
    onnx::TensorProto *t = g.add_initializer();
    t->set_name(fresh(role));
    t->set_data_type(onnx::TensorProto::INT64);
    if (shape.empty())
      t->add_dims(int64_t(v.size()));
    for (int64_t d : shape)
      t->add_dims(d);
    for (int64_t x : v)
      t->add_int64_data(x);
    return t->name();
  }
  /// A constant of Q's float type.
  std::string floats(ArrayRef<int64_t> shape, ArrayRef<float> v, StringRef role) {
    onnx::TensorProto *t = g.add_initializer();
    t->set_name(fresh(role));
    t->set_data_type(floatType);
    for (int64_t d : shape)
      t->add_dims(d);
    std::string raw;
    for (float x : v) {
      if (floatType == onnx::TensorProto::FLOAT16) {
        uint16_t h = npuc::num::floatToHalf(x);
        raw.append(reinterpret_cast<const char *>(&h), 2);
      } else {
        raw.append(reinterpret_cast<const char *>(&x), 4);
      }
    }
    t->set_raw_data(raw);
    return t->name();
  }
  std::string scalar(float v, StringRef role) { return floats({}, {v}, role); }
  std::string reshape(const std::string &x, ArrayRef<int64_t> shape, StringRef role) {
    return node("Reshape", {x, ints(shape, "shape")}, role);
  }
  std::string transpose(const std::string &x, ArrayRef<int64_t> perm, StringRef role) {
    return node("Transpose", {x}, role, [&](onnx::NodeProto &n) { intsAttr(n, "perm", perm); });
  }
  /// -inf where `allowed` is false, 0 where true.
  std::string boolBias(const std::string &allowed, StringRef role) {
    return node("Where", {allowed, scalar(0.0f, "zero"), scalar(-std::numeric_limits<float>::infinity(), "ninf")},
                role);
  }
  /// [B, S, H*D] -> [B, H, S, D].
  std::string heads(const std::string &x, ArrayRef<int64_t> shape, int64_t h, StringRef role) {
    std::string r = reshape(x, {shape[0], shape[1], h, shape[2] / h}, role);
    return transpose(r, {0, 2, 1, 3}, role);
  }
};

bool isFloat(Type t) { return t.isF32() || t.isF16(); }

/// What the body is built from: the 4-D view's sizes, and the modes.
struct Geometry {
  size_t rank;
  int64_t batch, hq, hkv, sq, skv, dq, dv, past, total, mode, precision;
};

/// Checks an Attention node (attributes, types, the shapes of its inputs) and
/// reads its geometry; reports at the node and returns nullopt otherwise.
std::optional<Geometry> attentionGeometry(NodeContext &c, const Val &q, const Val &k, const Val &v,
                                          const std::optional<Val> &mask, const std::optional<Val> &pastK,
                                          const std::optional<Val> &pastV, const std::optional<Val> &nonpad) {
  // Attributes beyond opset 24's (opset 25's sliding windows) change which
  // keys a query sees: named, never ignored.
  static constexpr const char *kKnown[] = {"is_causal", "kv_num_heads", "q_num_heads", "qk_matmul_output_mode",
                                           "scale",     "softcap",      "softmax_precision"};
  for (const onnx::AttributeProto &a : c.node.attribute())
    if (!llvm::is_contained(kKnown, StringRef(a.name())))
      return (void)c.fail(code::UnsupportedAttr, "attribute '" + a.name() +
                                               "' is not supported (npuc imports Attention's opset-24 "
                                               "attributes; sliding windows are not built)"), std::nullopt;
  if (c.node.input_size() > 7)
    return (void)c.fail(code::Structure, "Attention has at most 7 inputs, this node " + llvm::Twine(c.node.input_size())), std::nullopt;
  Type el = q.element();
  if (!isFloat(el) || k.element() != el || v.element() != el)
    return (void)c.fail(code::UnsupportedType, "Attention of f32 or f16 Q, K and V of one type only"), std::nullopt;
  size_t rank = q.shape().size();
  if ((rank != 3 && rank != 4) || k.shape().size() != rank || v.shape().size() != rank)
    return (void)c.fail(code::ShapeMismatch, "Q, K and V must all be 3-D or all 4-D (Q is " + llvm::Twine(rank) + "-D)"), std::nullopt;
  if (bool(pastK) != bool(pastV))
    return (void)c.fail(code::Structure, "past_key and past_value come together"), std::nullopt;
  int64_t mode = c.intAttr("qk_matmul_output_mode", 0);
  if (mode < 0 || mode > 3)
    return (void)c.fail(code::UnsupportedAttr, "qk_matmul_output_mode " + llvm::Twine(mode) + " is not 0, 1, 2 or 3"), std::nullopt;
  int64_t precision = c.intAttr("softmax_precision", 0);
  // A double softmax follows the float64 policy: computed in float32 (with
  // the import's warning), unless --float64=refuse.
  if (precision == onnx::TensorProto::DOUBLE && c.imp.options.float64AsFloat32) {
    precision = onnx::TensorProto::FLOAT;
    c.imp.float64At.push_back("node '" + c.node.name() + "' softmax_precision");
  }
  if (precision != 0 && precision != onnx::TensorProto::FLOAT && precision != onnx::TensorProto::FLOAT16)
    return (void)c.fail(code::UnsupportedAttr,
                        "softmax_precision " + llvm::Twine(precision) +
                            (precision == onnx::TensorProto::DOUBLE
                                 ? " (double) is refused by --float64=refuse (without it, computed in float32)"
                                 : " is not supported (float, float16, or double computed in float32; npuc has "
                                   "no bfloat16 softmax)")),
           std::nullopt;
  ArrayRef<int64_t> qs = q.shape(), ks = k.shape(), vs = v.shape();
  int64_t batch = qs[0], hq, hkv, sq = qs[rank - 2], skv = ks[rank - 2];
  if (rank == 3) {
    hq = c.intAttr("q_num_heads", 0);
    hkv = c.intAttr("kv_num_heads", 0);
    if (hq <= 0 || hkv <= 0)
      return (void)c.fail(code::UnsupportedAttr, "3-D Q, K and V need q_num_heads and kv_num_heads (positive)"), std::nullopt;
    if (qs[2] % hq || ks[2] % hkv || vs[2] % hkv)
      return (void)c.fail(code::ShapeMismatch, "hidden sizes " + llvm::Twine(qs[2]) + ", " + llvm::Twine(ks[2]) + ", " +
                                             llvm::Twine(vs[2]) + " are not multiples of the head counts " +
                                             llvm::Twine(hq) + " and " + llvm::Twine(hkv)), std::nullopt;
    sq = qs[1];
    skv = ks[1];
  } else {
    hq = qs[1];
    hkv = ks[1];
  }
  int64_t dq = rank == 3 ? qs[2] / hq : qs[3], dk = rank == 3 ? ks[2] / hkv : ks[3];
  int64_t dv = rank == 3 ? vs[2] / hkv : vs[3];
  int64_t vHeads = rank == 3 ? hkv : vs[1], vLen = rank == 3 ? vs[1] : vs[2];
  if (dq != dk || vHeads != hkv || vLen != skv || ks[0] != batch || vs[0] != batch)
    return (void)c.fail(code::ShapeMismatch, "K must be [batch, kv heads, kv length, head size of Q] and V [batch, kv "
                                       "heads, kv length, v head size] (4-D view)"), std::nullopt;
  if (hq % hkv)
    return (void)c.fail(code::ShapeMismatch, "q heads " + llvm::Twine(hq) + " are not a multiple of kv heads " +
                                           llvm::Twine(hkv) + " (grouped-query attention repeats each kv head)"), std::nullopt;
  int64_t past = 0;
  if (pastK) {
    ArrayRef<int64_t> pk = pastK->shape(), pv = pastV->shape();
    if (pk.size() != 4 || pv.size() != 4 || pk[0] != batch || pk[1] != hkv || pk[3] != dk || pv[0] != batch ||
        pv[1] != hkv || pv[3] != dv || pv[2] != pk[2] || pastK->element() != el || pastV->element() != el)
      return (void)c.fail(code::ShapeMismatch, "past_key must be [batch, kv heads, past, head size] and past_value "
                                         "[batch, kv heads, past, v head size] of Q's type"), std::nullopt;
    past = pk[2];
  }
  int64_t total = past + skv;
  if (nonpad && (nonpad->shape().size() != 1 || nonpad->shape()[0] != batch || !nonpad->element().isInteger(64)))
    return (void)c.fail(code::ShapeMismatch, "nonpad_kv_seqlen must be int64 [batch]"), std::nullopt;
  if (mask && (mask->shape().empty() || mask->shape().size() > 4 || mask->shape().back() > total))
    return (void)c.fail(code::ShapeMismatch, "attn_mask must have rank 1 to 4 and at most " + llvm::Twine(total) +
                                           " keys in its last axis"), std::nullopt;
  if (mask && !mask->element().isInteger(1) && mask->element() != el)
    return (void)c.fail(code::UnsupportedType, "attn_mask must be bool or Q's type"), std::nullopt;
  if (!c.fitsBuiltConstant(sq * total, "the causal mask"))
    return std::nullopt;
  return Geometry{rank, batch, hq, hkv, sq, skv, dq, dv, past, total, mode, precision};
}

/// The bias added to the scores: the mask (bool to 0/-inf, padded with -inf
/// to the keys), the causal frontier, the padding lengths; "" when none.
std::string buildBias(NodeContext &c, Body &b, const Geometry &g, const std::optional<Val> &mask,
                      const std::string &M, const std::string &NP) {
  int64_t sq = g.sq, total = g.total, past = g.past, batch = g.batch;
  std::string bias;
  float ninf = -std::numeric_limits<float>::infinity();
  if (mask) {
    bias = mask->element().isInteger(1) ? b.boolBias(M, "mask_bias") : M;
    if (int64_t pad = total - mask->shape().back(); pad > 0) {
      std::vector<int64_t> pads(2 * mask->shape().size(), 0);
      pads[mask->shape().size() * 2 - 1] = pad;
      bias = b.node("Pad", {bias, b.ints(pads, "pads"), b.scalar(ninf, "ninf")}, "mask_pad");
    }
  }
  auto addBias = [&](const std::string &term, StringRef role) {
    bias = bias.empty() ? term : b.node("Add", {bias, term}, role);
  };
  if (c.intAttr("is_causal", 0)) {
    if (!past && !NP.empty()) {
      // j <= i + nonpad[b] - sq, i.e. j - i + sq <= nonpad[b], per batch.
      std::vector<int64_t> reach(size_t(sq * total));
      for (int64_t i = 0; i < sq; ++i)
        for (int64_t j = 0; j < total; ++j)
          reach[size_t(i * total + j)] = j - i + sq;
      std::string lens = b.reshape(NP, {batch, 1, 1, 1}, "nonpad_4d");
      std::string allowed = b.node("LessOrEqual", {b.ints(reach, "reach", {1, 1, sq, total}), lens}, "causal_allowed");
      addBias(b.boolBias(allowed, "causal_bias"), "causal");
    } else {
      std::vector<float> tri(size_t(sq * total), 0.0f);
      for (int64_t i = 0; i < sq; ++i)
        for (int64_t j = i + past + 1; j < total; ++j)
          tri[size_t(i * total + j)] = ninf;
      addBias(b.floats({sq, total}, tri, "causal_mask"), "causal");
    }
  }
  if (!NP.empty()) {
    std::vector<int64_t> keys(static_cast<size_t>(total));
    for (int64_t j = 0; j < total; ++j)
      keys[size_t(j)] = j;
    std::string lens = b.reshape(NP, {batch, 1, 1, 1}, "nonpad_lens");
    std::string iota = b.reshape(b.ints(keys, "keys"), {1, 1, 1, total}, "keys_4d");
    addBias(b.boolBias(b.node("Less", {iota, lens}, "key_present"), "padding_bias"), "padding");
  }
  return bias;
}

LogicalResult importAttention(NodeContext &c) {
  std::optional<Val> q = c.required(0), k = c.required(1), v = c.required(2);
  if (!q || !k || !v)
    return failure();
  std::optional<Val> mask = c.input(3), pastK = c.input(4), pastV = c.input(5), nonpad = c.input(6);
  std::optional<Geometry> geom = attentionGeometry(c, *q, *k, *v, mask, pastK, pastV, nonpad);
  if (!geom)
    return failure();
  const Geometry &g = *geom;
  int64_t batch = g.batch, hq = g.hq, hkv = g.hkv, total = g.total, dv = g.dv, dk = g.dq;
  Type el = q->element();
  int32_t onnxFloat = el.isF16() ? onnx::TensorProto::FLOAT16 : onnx::TensorProto::FLOAT;
  Body b(c, onnxFloat);
  std::vector<BodyValue> bound;
  auto bind = [&](const std::optional<Val> &x, StringRef role) {
    bound.push_back({*x, {}});
    return b.input(role);
  };
  std::string Q = bind(q, "Q"), K = bind(k, "K"), V = bind(v, "V");
  std::string M = mask ? bind(mask, "mask") : "", PK = pastK ? bind(pastK, "past_key") : "",
              PV = pastV ? bind(pastV, "past_value") : "", NP = nonpad ? bind(nonpad, "nonpad") : "";
  if (g.rank == 3) {
    Q = b.heads(Q, q->shape(), hq, "q_heads");
    K = b.heads(K, k->shape(), hkv, "k_heads");
    V = b.heads(V, v->shape(), hkv, "v_heads");
  }
  // The scale, applied as sqrt(scale) to each of Q and K (double, rounded once).
  double scale = c.attr("scale") ? double(c.floatAttr("scale", 0.0f)) : 1.0 / std::sqrt(double(g.dq));
  std::string root = b.scalar(float(std::sqrt(scale)), "sqrt_scale");
  auto concat = [](auto &n) { Body::intAttr(n, "axis", 2); };
  std::string presentK = pastK ? b.node("Concat", {PK, K}, "present_key", concat) : K;
  std::string presentV = pastV ? b.node("Concat", {PV, V}, "present_value", concat) : V;
  std::string bias = buildBias(c, b, g, mask, M, NP);

  // Grouped-query attention: each kv head repeated q/kv times, interleaved.
  std::string Kq = presentK, Vq = presentV;
  if (int64_t group = hq / hkv; group > 1) {
    auto repeat = [&](const std::string &x, int64_t d, StringRef role) {
      std::string e = b.reshape(x, {batch, hkv, 1, total, d}, role);
      e = b.node("Expand", {e, b.ints({batch, hkv, group, total, d}, "repeat")}, role);
      return b.reshape(e, {batch, hq, total, d}, role);
    };
    Kq = repeat(Kq, dk, "k_repeat");
    Vq = repeat(Vq, dv, "v_repeat");
  }
  std::string qk = b.node("MatMul",
                          {b.node("Mul", {Q, root}, "q_scaled"),
                           b.transpose(b.node("Mul", {Kq, root}, "k_scaled"), {0, 1, 3, 2}, "k_transposed")},
                          "qk");
  if (float cap = c.floatAttr("softcap", 0.0f); cap > 0) {
    std::string capped = b.node("Tanh", {b.node("Div", {qk, b.scalar(cap, "softcap")}, "softcap_div")}, "softcap_tanh");
    qk = b.node("Mul", {capped, b.scalar(cap, "softcap")}, "softcap");
  }
  std::string scores = bias.empty() ? qk : b.node("Add", {qk, bias}, "qk_bias");
  std::string probs = scores;
  // softmax_precision float on f16 data: the softmax and the product with V
  // in f32, the result rounded to f16 once (the reference's order).
  bool widen = g.precision == onnx::TensorProto::FLOAT && el.isF16();
  auto cast = [&](const std::string &x, int64_t to, StringRef role) {
    return b.node("Cast", {x}, role, [to](auto &n) { Body::intAttr(n, "to", to); });
  };
  if (widen) {
    probs = cast(probs, onnx::TensorProto::FLOAT, "softmax_widen");
    Vq = cast(Vq, onnx::TensorProto::FLOAT, "v_widen");
  }
  probs = b.node("Softmax", {probs}, "softmax", [](auto &n) { Body::intAttr(n, "axis", -1); });
  std::string y = b.node("MatMul", {probs, Vq}, "y");
  if (widen) {
    y = cast(y, onnxFloat, "y_narrow");
    probs = cast(probs, onnxFloat, "softmax_narrow");
  }
  if (g.rank == 3)
    y = b.reshape(b.transpose(y, {0, 2, 1, 3}, "y_heads"), {batch, g.sq, hq * dv}, "y");
  // qk_matmul_output: the reference's order (0 and 1 the softcapped product,
  // 2 with the bias, 3 the softmax).
  std::string qkOut = g.mode == 3 ? probs : g.mode == 2 ? scores : qk;
  for (const std::string &o : {y, presentK, presentV, qkOut})
    b.g.add_output()->set_name(o);

  FailureOr<std::vector<BodyValue>> outs = importBody(c, b.g, bound);
  if (failed(outs))
    return failure();
  for (int i = 0; i < c.node.output_size() && i < 4; ++i)
    if (!c.node.output(i).empty())
      c.setOutput(size_t(i), *(*outs)[size_t(i)].tensor);
  return success();
}

/// RotaryEmbedding (opset 23): X [batch, heads, seq, head] or [batch, seq,
/// heads * head] (num_heads given), cos_cache and sin_cache [max position,
/// >= rotary / 2] indexed by position_ids [batch, seq], or [batch, seq, >=
/// rotary / 2] without them.
LogicalResult importRotaryEmbedding(NodeContext &c) {
  std::optional<Val> x = c.required(0), cosC = c.required(1), sinC = c.required(2);
  if (!x || !cosC || !sinC)
    return failure();
  std::optional<Val> pos = c.input(3);
  Type el = x->element();
  if (!isFloat(el) || cosC->element() != el || sinC->element() != el)
    return c.fail(code::UnsupportedType, "RotaryEmbedding of f32 or f16 X, cos_cache and sin_cache of one type only");
  ArrayRef<int64_t> xs = x->shape();
  size_t rank = xs.size();
  int64_t heads = c.intAttr("num_heads", 0);
  if (rank != 3 && rank != 4)
    return c.fail(code::ShapeMismatch, "X must be 3-D or 4-D, got " + llvm::Twine(rank) + "-D");
  if (rank == 3 && (heads <= 0 || xs[2] % heads))
    return c.fail(code::UnsupportedAttr, "a 3-D X needs num_heads (positive, dividing its hidden size " +
                                             llvm::Twine(xs[2]) + "), got " + llvm::Twine(heads));
  int64_t batch = xs[0], seq = rank == 4 ? xs[2] : xs[1], h = rank == 4 ? xs[1] : heads;
  int64_t d = rank == 4 ? xs[3] : xs[2] / heads;
  int64_t rd = c.intAttr("rotary_embedding_dim", 0);
  rd = rd == 0 ? d : rd;
  if (rd < 2 || rd > d || rd % 2)
    return c.fail(code::UnsupportedAttr, "rotary_embedding_dim " + llvm::Twine(rd) +
                                             " must be even and in [2, head size " + llvm::Twine(d) + "]");
  int64_t half = rd / 2;
  bool interleaved = c.intAttr("interleaved", 0) != 0;
  ArrayRef<int64_t> cs = cosC->shape();
  if (cs != sinC->shape())
    return c.fail(code::ShapeMismatch, "cos_cache " + sh::str(cs) + " and sin_cache " + sh::str(sinC->shape()) +
                                           " differ");
  if (pos) {
    if (!pos->element().isInteger(64) || pos->shape() != ArrayRef<int64_t>{batch, seq} || cs.size() != 2 ||
        cs[1] < half)
      return c.fail(code::ShapeMismatch, "with position_ids (int64 [" + llvm::Twine(batch) + ", " +
                                             llvm::Twine(seq) + "]) the caches must be [max position, >= " +
                                             llvm::Twine(half) + "], got " + sh::str(cs));
  } else if (cs.size() != 3 || cs[0] != batch || cs[1] != seq || cs[2] < half) {
    return c.fail(code::ShapeMismatch, "without position_ids the caches must be [" + llvm::Twine(batch) + ", " +
                                           llvm::Twine(seq) + ", >= " + llvm::Twine(half) + "], got " + sh::str(cs));
  }
  int32_t onnxFloat = el.isF16() ? onnx::TensorProto::FLOAT16 : onnx::TensorProto::FLOAT;
  Body b(c, onnxFloat);
  std::vector<BodyValue> bound;
  auto bind = [&](const Val &v, StringRef role) {
    bound.push_back({v, {}});
    return b.input(role);
  };
  auto slice = [&](const std::string &v, int64_t axis, int64_t from, int64_t to, int64_t step, StringRef role) {
    return b.node("Slice", {v, b.ints({from}, "starts"), b.ints({to}, "ends"), b.ints({axis}, "axes"),
                            b.ints({step}, "steps")},
                  role);
  };
  auto concat = [&](ArrayRef<std::string> parts, int64_t axis, StringRef role) {
    return b.node("Concat", parts, role, [axis](auto &n) { Body::intAttr(n, "axis", axis); });
  };
  std::string X = bind(*x, "X"), COS = bind(*cosC, "cos_cache"), SIN = bind(*sinC, "sin_cache");
  std::string P = pos ? bind(*pos, "position_ids") : "";
  // [batch, seq, heads, head].
  X = rank == 4 ? b.transpose(X, {0, 2, 1, 3}, "x_bshd") : b.reshape(X, {batch, seq, h, d}, "x_bshd");
  std::string rotated = rd < d ? slice(X, 3, 0, rd, 1, "x_rotate") : X;
  auto rows = [&](std::string cache, StringRef role) {
    if (!P.empty())
      cache = b.node("Gather", {cache, P}, role, [](auto &n) { Body::intAttr(n, "axis", 0); });
    if ((pos ? cs[1] : cs[2]) > half)
      cache = slice(cache, 2, 0, half, 1, role);
    return b.reshape(cache, {batch, seq, 1, half}, role);
  };
  std::string cosR = rows(COS, "cos"), sinR = rows(SIN, "sin");
  std::string x1 = interleaved ? slice(rotated, 3, 0, rd, 2, "x1") : slice(rotated, 3, 0, half, 1, "x1");
  std::string x2 = interleaved ? slice(rotated, 3, 1, rd, 2, "x2") : slice(rotated, 3, half, rd, 1, "x2");
  std::string real = b.node("Sub", {b.node("Mul", {cosR, x1}, "cos_x1"), b.node("Mul", {sinR, x2}, "sin_x2")}, "real");
  std::string imag = b.node("Add", {b.node("Mul", {sinR, x1}, "sin_x1"), b.node("Mul", {cosR, x2}, "cos_x2")}, "imag");
  std::string turned;
  if (interleaved) {
    std::string re = b.reshape(real, {batch, seq, h, half, 1}, "real_pairs");
    std::string im = b.reshape(imag, {batch, seq, h, half, 1}, "imag_pairs");
    turned = b.reshape(concat({re, im}, 4, "pairs"), {batch, seq, h, rd}, "turned");
  } else {
    turned = concat({real, imag}, 3, "turned");
  }
  std::string y = rd < d ? concat({turned, slice(X, 3, rd, d, 1, "x_pass")}, 3, "y_bshd") : turned;
  y = rank == 4 ? b.transpose(y, {0, 2, 1, 3}, "y") : b.reshape(y, {batch, seq, h * d}, "y");
  b.g.add_output()->set_name(y);
  FailureOr<std::vector<BodyValue>> outs = importBody(c, b.g, bound);
  if (failed(outs))
    return failure();
  c.setOutput(0, *(*outs)[0].tensor);
  return success();
}
} // namespace

void npuc::onnx_import::registerAttentionOps(llvm::StringMap<OpImporter> &t) {
  t["Attention"] = importAttention;
  t["RotaryEmbedding"] = importRotaryEmbedding;
}
