//===- WindowKernels.cpp - Window convolutions in LM and depthwise on V_DW -===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The kernels of the convolutions that gather their windows in LM
// (ConvKernels.cpp selects them): a window convolution in the tiles of its
// #qk.tiling ([output rows, output channels, input-channel chunk], rotating
// buffers, stacked kernel rows, resident weights), MATRIX multiplying each
// gathered tile by the weights reordered at compile time; a depthwise
// convolution (and pooling's windows) on V_DW, per tile of channels by
// rows, the sums drained through bias and requantization by MATRIX's output
// stage (docs/architecture.md, "The backend").
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

/// The tiling select-tiling chose for a window convolution (kTilingAttr:
/// tile = [rows, channels, chunk], buffers, stacked, resident), checked
/// against the problem and the target.
FailureOr<ConvTiling> KernelBuilder::windowConvTiling(Operation *op, const ConvProblem &p) {
  FailureOr<qk::TilingAttr> tiling = chosenTiling(op, 3, "rows, channels, chunk");
  if (failed(tiling))
    return failure();
  ArrayRef<int64_t> tile = tiling->getTile();
  ConvTiling tl;
  tl.rows = tile[0], tl.outChannels = tile[1], tl.chunk = tile[2], tl.buffers = tiling->getBuffers();
  tl.stacked = tiling->getStacked();
  tl.resident = tiling->getResident();
  if (std::optional<std::string> why = checkTiling(p, tl, t))
    return op->emitOpError() << kTilingAttr << " [" << tl.rows << ", " << tl.outChannels << ", "
                             << tl.chunk << "] x " << tl.buffers << " cannot run here: " << *why;
  return tl;
}

/// A [1, n] LM row of zeros of `element` (0.0 for floats), from CONST.
Value KernelBuilder::zeroRow(Type element, int64_t n) {
  Value zeros = e.tile(MemorySpace::LM, 1, n, element, t.params.VectorAlign);
  auto zeroType = RankedTensorType::get({n}, element);
  Value row = llvm::isa<FloatType>(element)
                  ? constant(DenseElementsAttr::get(zeroType, b.getFloatAttr(element, 0.0)), zeroType)
                  : constant(DenseElementsAttr::get(RankedTensorType::get({n}, b.getIntegerType(8)),
                                                    ArrayRef<int8_t>(SmallVector<int8_t>(size_t(n), 0))),
                             zeroType);
  int64_t ex = bytesOf(element);
  e.dma(e.view(row, 0, {1, n}, {n * ex, ex}), zeros);
  return zeros;
}

LogicalResult KernelBuilder::lowerWindowConv(Operation *op, const ConvProblem &p, Value X,
                                              Value Bias, Value Y, const ConvContract &k) {
  int64_t xzp = k.xzp, wzp = k.wzp;
  qk::RequantAttr rq = k.rq;
  FailureOr<ConvTiling> chosen = windowConvTiling(op, p);
  if (failed(chosen))
    return failure();
  const ConvTiling &tl = *chosen;
  const DepthwiseProblem &w = p.window;
  auto xt = cast<BufferType>(X.getType()), yt = cast<BufferType>(Y.getType());
  int64_t Cin = w.C * p.groups, M = p.groups * p.outChannels;
  if (xt.getShape() != ArrayRef<int64_t>{w.N, Cin, w.H, w.W})
    return op->emitOpError("internal error: the convolution problem disagrees with its input");
  int64_t ex = w.inBytes, ey = yt.getElementBytes(), ew = p.weightBytes;
  int64_t Wp = w.paddedWidth(), plane = w.H * w.W * ex, ma = t.params.MatrixAlign;
  bool isFloat = llvm::isa<FloatType>(xt.getElementType());
  Type accType = isFloat ? Type(b.getF32Type()) : Type(b.getIntegerType(32));
  Type wType = storageOf(tensorOf(convOperands(op)->w).getElementType());
  Value params = rq && rq.isPerChannel() ? requantTable(rq, M) : Value();
  int64_t fill = isFloat ? 0 : int64_t(uint8_t(int8_t(xzp)));
  // Gap rows of the weights are the weight zero point (0.0 for floats), so
  // they add (a - a_zp) * 0. The im2col gaps are zeroed first all the same:
  // a float NaN or infinity left there would survive x 0, and LM never
  // written is not read (npu-sim faults).
  Value weights = windowConvWeights(op, p, tl.chunk, isFloat ? 0 : wzp, tl.stacked);
  std::vector<std::pair<int64_t, int64_t>> chunks = convChunks(p, tl.chunk);
  SmallVector<int64_t> chunkRow;
  int64_t depthMax = 0, rowsSoFar = 0;
  bool gaps = false;
  int64_t stack = tl.stacked ? w.KH : 1;  // kernel rows per image row
  for (auto [c0, cc] : chunks) {
    ConvLayout l = convLayout(p, cc, 1, t.params, tl.stacked);
    chunkRow.push_back(rowsSoFar);
    rowsSoFar += l.depth;
    depthMax = std::max(depthMax, l.depth);
    gaps |= l.block != w.KW * stack * cc;
  }
  // Resident weights: every row, every group's output channels, loaded once
  // in their GM layout; a tile's block is read in place.
  Value resident;
  if (tl.resident) {
    resident = e.alloc(MemorySpace::LM, {rowsSoFar, M}, wType, {M * ew, ew});
    e.dma(e.view(weights, 0, {rowsSoFar, M}, {M * ew, ew}), resident);
  }
  Value zeros = gaps ? zeroRow(xt.getElementType(), depthMax) : Value();
  auto body = [&](int64_t nc, const RowGroup &g, Offset n, Offset grp, Offset m0, Offset tileIndex) {
    int64_t m = g.rows * w.OW, rin = w.imageRows(g.rows), real = rin - g.padTop - g.padBottom;
    Offset oh0 = tileIndex * tl.rows;
    Offset firstRow = oh0 * w.sh + (g.padTop - w.padTop);  // the first real input row
    Value acc = e.tile(MemorySpace::ACC, m, nc, accType, ma);
    Offset oc = grp * p.outChannels + m0;
    // A float bias starts the sums (broadcast into ACC before the products),
    // so VECTOR has no epilogue queued between this tile's products and the
    // next tile's gathers. The broadcast is part of the next tile's
    // preparation (emit-pipeline's stage 0), issued while this tile's store
    // reads the accumulators two tiles back: a third slot, so that it does
    // not wait for that store (convExtraAccSlots).
    bool biasFirst = Bias && !rq;
    if (int64_t extra = convExtraAccSlots(p, tl))
      acc.getDefiningOp()->setAttr(AllocOp::kExtraSlots, b.getI64IntegerAttr(extra));
    if (biasFirst) {
      int64_t eb = cast<BufferType>(Bias.getType()).getElementBytes();
      Value row = e.tile(MemorySpace::LM, 1, nc, accType, t.params.VectorAlign);
      e.dma(e.view(Bias, oc * eb, {1, nc}, {0, eb}), row);
      e.cast(e.view(row, 0, {m, nc}, {0, eb}), acc);
    }
    for (auto [j, chunk] : llvm::enumerate(chunks)) {
      auto [c0, cc] = chunk;
      ConvLayout l = convLayout(p, cc, nc, t.params, tl.stacked);
      Offset chunkAt = (n * Cin + grp * w.C + c0) * plane;
      Value image;
      if (!tl.stacked) {
        image = e.alloc(MemorySpace::LM, {rin, Wp, cc}, xt.getElementType(),
                        {l.imagePitch, cc * ex, ex});
        Value to = e.view(image, 0, {cc, rin, Wp}, {ex, l.imagePitch, cc * ex});
        e.dma(e.view(X, chunkAt + firstRow * (w.W * ex), {cc, real, w.W}, {plane, w.W * ex, ex}), to,
              {0, g.padTop, w.padLeft}, {0, g.padBottom, w.padRight}, fill);
      } else {
        // One image row per output row; per pixel the KH rows the window
        // reaches, kernel row kh's by its own DMA (rows sh apart in GM).
        image = e.alloc(MemorySpace::LM, {g.rows, Wp, w.KH * cc}, xt.getElementType(),
                        {l.imagePitch, w.KH * cc * ex, ex});
        for (int64_t kh = 0; kh < w.KH; ++kh) {
          StackedRows sr = stackedRows(w, g, kh);
          Offset first = oh0 * w.sh + (sr.top * w.sh + kh * w.dh - w.padTop);
          Value to = e.view(image, kh * cc * ex, {cc, g.rows, Wp}, {ex, l.imagePitch, w.KH * cc * ex});
          e.dma(e.view(X, chunkAt + first * (w.W * ex), {cc, g.rows - sr.top - sr.bottom, w.W},
                       {plane, w.sh * w.W * ex, ex}),
                to, {0, sr.top, w.padLeft}, {0, sr.bottom, w.padRight}, fill);
        }
      }
      Value aT = e.alloc(MemorySpace::LM, {m, l.depth}, xt.getElementType(), {l.lda, ex});
      // The gaps zeroed first, from the last 32-byte boundary of each run on
      // (the gathers then write the runs).
      for (auto [from, columns] : gapClears(p, cc, tl.stacked, m, t.params)) {
        Value to = e.view(aT, from * ex, {m, columns}, {l.lda, ex});
        e.cast(e.view(zeros, 0, {m, columns}, {0, ex}), to);
      }
      // Per output row, each kernel row's run of KW x cc (stacked: the whole
      // window, one run of KW x KH x cc) for every output pixel.
      int64_t run = w.KW * stack * cc;
      for (int64_t r = 0; r < g.rows; ++r)
        for (int64_t kh = 0; kh < w.KH / stack; ++kh) {
          Value to = e.view(aT, r * w.OW * l.lda + kh * l.block * ex, {w.OW, run}, {l.lda, ex});
          e.cast(e.view(image, (tl.stacked ? r : r * w.sh + kh * w.dh) * l.imagePitch,
                        {w.OW, run}, {w.sw * stack * cc * ex, ex}),
                 to);
        }
      Offset block = (chunkRow[j] * M + grp * p.outChannels + m0) * ew;
      Value bT;
      if (resident) {
        bT = e.view(resident, block, {l.depth, nc}, {M * ew, ew});
      } else {
        bT = e.tile(MemorySpace::LM, l.depth, nc, wType, ma);
        e.dma(e.view(weights, block, {l.depth, nc}, {M * ew, ew}), bT);
      }
      e.matmul(aT, bT, acc, biasFirst || j > 0, xzp, wzp);
    }
    Value dst = e.view(Y, ((n * M + oc) * w.OH + oh0) * (w.OW * ey), {m, nc}, {ey, w.OH * w.OW * ey});
    epilogue(acc, m, nc, dst,
             {biasFirst ? Value() : Bias, rq, params, false, false, false, k.activation}, 0, oc);
  };
  // Loops over [batch, group, channel tiles, row tiles], one per tile shape.
  int64_t full = p.outChannels / tl.outChannels, rest = p.outChannels % tl.outChannels;
  for (auto [nc, count, first] : {std::tuple{tl.outChannels, full, int64_t(0)},
                                  std::tuple{rest, int64_t(rest > 0), full * tl.outChannels}}) {
    if (count == 0 || nc == 0)
      continue;
    for (const RowGroup &g : depthwiseRowGroups(w, tl.rows)) {
      bool rotate = w.N * p.groups * count * g.count > 1 && tl.buffers > 1;
      e.beginLoop({w.N, p.groups, count, g.count}, rotate ? tl.buffers : 1, rotate);
      body(nc, g, e.coordinate(0), e.coordinate(1), first + e.coordinate(2) * nc,
           g.first + e.coordinate(3));
      e.endLoop();
    }
  }
  return success();
}

/// Depthwise (one input and one output channel per group) on VECTOR, by the
/// tiling select-tiling chose (DepthwiseTiling.h): per tile, a chunk of
/// channels by a run of whole output rows. The image (the input rows the
/// window reaches, padded on the way in with the input zero point) is one
/// DMA of contiguous rows per channel; the chunk's taps, biases and table
/// follow; one V_DW computes every sum of the tile, and the MATRIX output
/// stage drains them through bias and requantization (per channel: per row).
/// Row tiles of one shape (the same rows and padding) form one tile loop.
FailureOr<DepthwiseTiling> KernelBuilder::windowTiling(Operation *op, const DepthwiseProblem &p,
                                                        Value X) {
  FailureOr<qk::TilingAttr> tiling = chosenTiling(op, 2, "channels, rows");
  if (failed(tiling))
    return failure();
  if (cast<BufferType>(X.getType()).getShape() != ArrayRef<int64_t>{p.N, p.C, p.H, p.W})
    return op->emitOpError("internal error: the window problem disagrees with its input");
  DepthwiseTiling tl;
  tl.channels = tiling->getTile()[0], tl.rows = tiling->getTile()[1];
  tl.buffers = tiling->getBuffers();
  tl.resident = tiling->getResident();
  tl.matrix = tiling->getMatrix();
  if (std::optional<std::string> why = checkTiling(p, tl, t))
    return op->emitOpError() << kTilingAttr << " [" << tl.channels << ", " << tl.rows << "] x "
                             << tl.buffers << " cannot run here: " << *why;
  return tl;
}

void KernelBuilder::windowTiles(const DepthwiseProblem &p, const DepthwiseTiling &tl, Value X,
                                 int64_t fill, const std::function<void(const WindowTile &)> &tile) {
  auto xt = cast<BufferType>(X.getType());
  int64_t ex = p.inBytes, Wp = p.paddedWidth(), plane = p.H * p.W * ex;
  // One tile: `chans` channels from c0, the row group's tile `tileIndex`.
  auto body = [&](int64_t chans, const RowGroup &g, Offset n, Offset chunk, Offset tileIndex) {
    Offset c0 = chunk * tl.channels;
    WindowTile w{chans, g.rows, p.imageRows(g.rows), n, c0, tileIndex * tl.rows, chunk, Value(),
                 depthwisePitches(p, g.rows, t.params)};
    int64_t real = w.rin - g.padTop - g.padBottom;
    Offset firstRow = w.oh0 * p.sh + (g.padTop - p.padTop);  // the first real input row
    auto from = [&] {
      return e.view(X, (n * p.C + c0) * plane + firstRow * (p.W * ex), {chans, real, p.W},
                    {plane, p.W * ex, ex});
    };
    if (feederPads(p)) {
      // The feeder pads: the real rows alone, each channel's contiguous (one
      // run per channel, as in the input).
      w.padTop = g.padTop;
      w.image = e.alloc(MemorySpace::LM, {chans, real, p.W}, xt.getElementType(),
                        {w.pitch.plain, p.W * ex, ex});
      e.dma(from(), w.image);
    } else {
      w.image = e.alloc(MemorySpace::LM, {chans, w.rin, Wp}, xt.getElementType(),
                        {w.pitch.image, Wp * ex, ex});
      e.dma(from(), w.image, {0, g.padTop, p.padLeft}, {0, g.padBottom, p.padRight}, fill);
    }
    tile(w);
  };
  int64_t full = p.C / tl.channels, rest = p.C % tl.channels;
  for (auto [chans, count, first] : {std::tuple{tl.channels, full, int64_t(0)},
                                     std::tuple{rest, int64_t(rest > 0), full}}) {
    if (count == 0 || chans == 0)
      continue;
    for (const RowGroup &g : depthwiseRowGroups(p, tl.rows)) {
      e.beginLoop({p.N, count, g.count}, tl.buffers, tl.buffers > 1);
      body(chans, g, e.coordinate(0), first + e.coordinate(1), g.first + e.coordinate(2));
      e.endLoop();
    }
  }
}

LogicalResult KernelBuilder::lowerDepthwise(Operation *op, const ConvBuffers &buf,
                                             const ConvContract &k) {
  Value X = buf.x, W = buf.w, Bias = buf.bias, Y = buf.y;
  int64_t xzp = k.xzp, wzp = k.wzp;
  qk::RequantAttr rq = k.rq;
  std::optional<DepthwiseProblem> problem = depthwiseProblem(op);
  if (!problem)
    return op->emitOpError("internal error: not a depthwise convolution");
  const DepthwiseProblem &p = *problem;
  FailureOr<DepthwiseTiling> tl = windowTiling(op, p, X);
  if (failed(tl))
    return failure();
  auto xt = cast<BufferType>(X.getType()), wt = cast<BufferType>(W.getType()),
       yt = cast<BufferType>(Y.getType());
  int64_t ex = p.inBytes, ey = yt.getElementBytes(), taps = p.KH * p.KW, Wp = p.paddedWidth();
  Type accType = llvm::isa<FloatType>(xt.getElementType()) ? Type(b.getF32Type()) : Type(b.getIntegerType(32));
  Value params = rq && rq.isPerChannel() ? requantTable(rq, p.C) : Value();
  int64_t fill = llvm::isa<FloatType>(xt.getElementType()) ? 0 : int64_t(uint8_t(int8_t(xzp)));
  // Resident parameters (DepthwiseTiling::resident): every chunk's taps,
  // bias and table in LM, loaded once before the tile loops, a chunk
  // starting on a VECTOR boundary; a tile reads its chunk's.
  ResidentPitches pitch = residentPitches(p, tl->channels, t.params);
  Value residentTaps, residentBias, residentParams;
  if (tl->resident) {
    int64_t c = tl->channels, full = p.C / c, rest = p.C % c, chunks = full + (rest > 0);
    // [C][n] elements of `bytes`, `gm` bytes apart per channel in GM and
    // `lm` bytes in LM, as [chunks][c][n] at `chunkPitch`.
    auto load = [&](Value src, int64_t n, int64_t bytes, int64_t gm, int64_t lm,
                    int64_t chunkPitch) {
      Type elem = cast<BufferType>(src.getType()).getElementType();
      Value all = e.alloc(MemorySpace::LM, {chunks, c, n}, elem, {chunkPitch, lm, bytes});
      if (full) {
        Value to = e.view(all, 0, {full, c, n}, {chunkPitch, lm, bytes});
        e.dma(e.view(src, 0, {full, c, n}, {c * gm, gm, bytes}), to);
      }
      if (rest) {
        Value to = e.view(all, full * chunkPitch, {rest, n}, {lm, bytes});
        e.dma(e.view(src, full * c * gm, {rest, n}, {gm, bytes}), to);
      }
      return all;
    };
    residentTaps = load(W, taps, ex, taps * ex, taps * ex, pitch.taps);
    if (Bias) {
      int64_t eb = cast<BufferType>(Bias.getType()).getElementBytes();
      residentBias = load(Bias, 1, eb, eb, rq ? eb : t.params.VectorAlign, pitch.bias);
    }
    if (params)
      residentParams = load(params, tiling::kParamBytes, 1, tiling::kParamBytes, tiling::kParamBytes, pitch.params);
  }
  windowTiles(p, *tl, X, fill, [&](const WindowTile &w) {
    int64_t chans = w.chans;
    Value acc = e.alloc(MemorySpace::ACC, {chans, w.rows * p.OW}, accType, {w.pitch.acc, 4});
    Value sums = e.view(acc, 0, {chans, w.rows, p.OW}, {w.pitch.acc, p.OW * 4, 4});
    // A float result's bias and Relu ride on the last block's V_DW: the
    // chunk's bias in LM (resident, or loaded for the tile), one per channel.
    bool fuse = depthwiseFusesBias(p);
    Value biasTile;
    if (fuse && Bias) {
      int64_t eb = cast<BufferType>(Bias.getType()).getElementBytes();
      if (residentBias) {
        auto bt = cast<BufferType>(residentBias.getType());
        biasTile = e.view(residentBias, w.chunk * pitch.bias, {chans, 1}, {bt.getStrides()[1], eb});
      } else {
        biasTile = e.alloc(MemorySpace::LM, {chans, 1}, accType, {t.params.VectorAlign, eb});
        e.dma(e.view(Bias, w.c0 * eb, {chans, 1}, {eb, eb}), biasTile);
      }
    }
    bool relu = fuse && k.activation.kind == Activation::Relu;
    // The window in blocks V_DW's fields hold (one, unless it is wider than
    // 15), each from its own corner of the image, the later ones accumulating.
    bool first = true;
    std::vector<WindowBlock> blocks = depthwiseWindowBlocks(p);
    for (const WindowBlock &wb : blocks) {
      bool last = &wb == &blocks.back();
      int64_t n = wb.kh * wb.kw;
      Value tapsT;
      if (residentTaps) {
        tapsT = e.view(residentTaps, w.chunk * pitch.taps, {chans, n}, {n * ex, ex});
      } else {
        tapsT = e.alloc(MemorySpace::LM, {chans, n}, wt.getElementType(), {n * ex, ex});
        Value to = e.view(tapsT, 0, {chans, wb.kh, wb.kw}, {n * ex, wb.kw * ex, ex});
        e.dma(e.view(W, w.c0 * (taps * ex) + (wb.i0 * p.KW + wb.j0) * ex, {chans, wb.kh, wb.kw},
                     {taps * ex, p.KW * ex, ex}),
              to);
      }
      int64_t r0 = wb.i0 * p.dh, q0 = wb.j0 * p.dw;
      // Padded by the feeder, the window is one block and the image unpadded.
      bool feeder = feederPads(p);
      Value corner = feeder ? w.image
                            : e.view(w.image, (r0 * Wp + q0) * ex, {chans, w.rin - r0, Wp - q0},
                                     {w.pitch.image, Wp * ex, ex});
      DepthwiseOp::create(b, e.loc, corner, tapsT, sums, last ? biasTile : Value(),
                          b.getDenseI64ArrayAttr({wb.kh, wb.kw}), b.getDenseI64ArrayAttr({p.sh, p.sw}),
                          b.getDenseI64ArrayAttr({p.dh, p.dw}), !first, xzp, wzp, WindowFunc::MAC,
                          last && relu, tl->matrix,
                          feeder ? b.getDenseI64ArrayAttr({w.padTop, p.padLeft})
                                 : DenseI64ArrayAttr());
      first = false;
    }
    Value dst = e.view(Y, ((w.n * p.C + w.c0) * p.OH + w.oh0) * (p.OW * ey),
                       {chans, w.rows * p.OW}, {p.OH * p.OW * ey, ey});
    if (fuse) {
      // What is left of the epilogue: a clip's bounds, then the store.
      epilogue(acc, chans, w.rows * p.OW, dst, {Value(), rq, Value(), true, false, true, k.activation},
               w.c0);
      return;
    }
    if (!tl->resident) {
      epilogue(acc, chans, w.rows * p.OW, dst,
               {Bias, rq, params, true, bool(Bias), false, k.activation}, w.c0);
      return;
    }
    // The chunk's resident bias and table: views the epilogue reads in LM.
    Value bias, table;
    if (residentBias) {
      auto bt = cast<BufferType>(residentBias.getType());
      bias = e.view(residentBias, w.chunk * pitch.bias, {chans, 1},
                    {bt.getStrides()[1], bt.getElementBytes()});
    }
    if (residentParams)
      table = e.view(residentParams, w.chunk * pitch.params, {chans, tiling::kParamBytes}, {tiling::kParamBytes, 1});
    epilogue(acc, chans, w.rows * p.OW, dst,
             {bias, rq, table, true, bool(Bias), false, k.activation});
  });
  return success();
}
