//===- CaseProperties.h - The properties lowering cases record --*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Every property a lowering case records (LoweringCase.h), declared once: a
// Flag is two-way, a Choice takes the values of an enum. The case space
// declares a property (`declare`), its rules test it (`kX()`, `kX({...})`),
// the selector records it (LoweringCase::flag, choose) and the lowering reads
// it back (is, get) through the same object, so a misspelled property or
// value does not compile. The spellings are the words of the case key and of
// the evidence table (docs/supported-ops.md): changing one changes keys.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_CONVERSION_QKTOEMIT_CASEPROPERTIES_H
#define NPUC_LIB_CONVERSION_QKTOEMIT_CASEPROPERTIES_H

#include "npuc/Dialect/QK/IR/QKOps.h"
#include "npuc/Support/CaseSpace.h"

#include "llvm/ADT/StringRef.h"

#include <array>
#include <initializer_list>
#include <optional>

namespace npuc::emit::lowering {

/// A two-way property, recorded both ways ("padded" or "!padded").
struct Flag {
  llvm::StringLiteral name;
  /// The case space's declaration: recorded where `when` holds.
  support::PropertySpec declare(support::CaseCond when = {}) const {
    return support::flagProperty(name.str(), std::move(when));
  }
  /// The rule condition "recorded as `value`".
  support::CaseCond operator()(bool value = true) const {
    return support::cond::flag(name.str(), value);
  }
};

/// One value of a Choice and its spelling in the key.
template <typename E>
struct Alternative {
  E value;
  llvm::StringLiteral spelling;
};

/// A many-way property whose values are E's, spelled in the key as listed
/// (the order is the case space's enumeration order).
template <typename E, size_t N>
struct Choice {
  llvm::StringLiteral name;
  std::array<Alternative<E>, N> values;

  llvm::StringRef spell(E v) const {
    for (const Alternative<E> &a : values)
      if (a.value == v)
        return a.spelling;
    return {};
  }
  std::optional<E> parse(llvm::StringRef s) const {
    for (const Alternative<E> &a : values)
      if (a.spelling == s)
        return a.value;
    return std::nullopt;
  }
  support::PropertySpec declare(support::CaseCond when = {}) const {
    std::vector<std::string> spellings;
    for (const Alternative<E> &a : values)
      spellings.push_back(a.spelling.str());
    return support::choiceProperty(name.str(), std::move(spellings), std::move(when));
  }
  /// The rule condition "recorded as one of `any`".
  support::CaseCond operator()(std::initializer_list<E> any) const {
    std::vector<std::string> spellings;
    for (E v : any)
      spellings.push_back(spell(v).str());
    return support::cond::choice(name.str(), std::move(spellings));
  }
};

template <typename E, typename... A>
constexpr Choice<E, sizeof...(A)> choice(llvm::StringLiteral name, A... values) {
  return {name, {values...}};
}

//===----------------------------------------------------------------------===//
// Flags
//===----------------------------------------------------------------------===//

/// An operand is read with broadcasting (a zero stride somewhere).
inline constexpr Flag kBroadcast{"broadcast"};
/// The bias operand is present.
inline constexpr Flag kBias{"bias"};
/// Spatial properties of windows: a pad, a stride, a dilation other than the
/// neutral one.
inline constexpr Flag kPadded{"padded"};
inline constexpr Flag kStrided{"strided"};
inline constexpr Flag kDilated{"dilated"};
inline constexpr Flag kOutputPadding{"output-padding"};
/// Computed on the integers instead of through f32.
inline constexpr Flag kInteger{"integer"};
/// Clip's bounds ONNX gives.
inline constexpr Flag kMin{"min"};
inline constexpr Flag kMax{"max"};
/// Per-channel parameters constant along a tile row (one value per row).
inline constexpr Flag kParamsPerRow{"params-per-row"};
/// ArgMax/ArgMin's select_last_index.
inline constexpr Flag kLast{"last"};
/// A matmul with leading batch dimensions, on the left or on the right.
inline constexpr Flag kBatch{"batch"};
inline constexpr Flag kBatchedRhs{"batched-rhs"};
/// Gemm's attributes other than their defaults.
inline constexpr Flag kTransA{"transA"};
inline constexpr Flag kTransB{"transB"};
inline constexpr Flag kAlpha{"alpha"};
inline constexpr Flag kBeta{"beta"};
/// LayerNormalization's optional outputs.
inline constexpr Flag kMean{"mean"};
inline constexpr Flag kInvStdDev{"inv-std-dev"};
/// Pow with an integer exponent tensor.
inline constexpr Flag kIntegerExponent{"integer-exponent"};
/// qk.softmax's log (LogSoftmax).
inline constexpr Flag kLog{"log"};
/// A reduction over rows in two passes (a running value, then the result).
inline constexpr Flag kTwoPass{"two-pass"};
/// Pooling: output windows past the padded input (ceil_mode), and
/// AveragePool's count_include_pad.
inline constexpr Flag kCeilExtra{"ceil-extra"};
inline constexpr Flag kCountIncludePad{"count-include-pad"};
/// qk.concat's inputs requantized to the result's quantization.
inline constexpr Flag kRequantize{"requantize"};
/// qk.copy of more than one strided copy (a Slice with a negative step, a
/// Resize, Gather or Pad copied in runs).
inline constexpr Flag kPieces{"pieces"};

//===----------------------------------------------------------------------===//
// Choices
//===----------------------------------------------------------------------===//

/// qk.scatter's reduction (DMA_OUT_SCATTER's function).
enum class ScatterReduction { None, Add, Max, Min };
inline constexpr auto kScatterReduction = choice<ScatterReduction>(
    "reduction", Alternative<ScatterReduction>{ScatterReduction::None, "none"},
    Alternative<ScatterReduction>{ScatterReduction::Add, "add"},
    Alternative<ScatterReduction>{ScatterReduction::Max, "max"},
    Alternative<ScatterReduction>{ScatterReduction::Min, "min"});

/// A convolution's grouping.
enum class ConvKind { Dense, Grouped, Depthwise };
inline constexpr auto kConvKind = choice<ConvKind>(
    "kind", Alternative<ConvKind>{ConvKind::Dense, "dense"},
    Alternative<ConvKind>{ConvKind::Grouped, "grouped"},
    Alternative<ConvKind>{ConvKind::Depthwise, "depthwise"});

/// A convolution window of one tap or more.
enum class Window { OneByOne, KByK };
inline constexpr auto kWindow = choice<Window>("window", Alternative<Window>{Window::OneByOne, "1x1"},
                                               Alternative<Window>{Window::KByK, "kxk"});

/// How a kernel's int32 accumulator is requantized: not at all (the int32
/// result), one multiplier, or one per channel, row or column.
enum class Requant { None, Tensor, Channel, Row, Column };
inline constexpr auto kConvRequant = choice<Requant>(
    "requant", Alternative<Requant>{Requant::None, "none"},
    Alternative<Requant>{Requant::Tensor, "tensor"}, Alternative<Requant>{Requant::Channel, "channel"});
inline constexpr auto kMatmulRequant = choice<Requant>(
    "requant", Alternative<Requant>{Requant::None, "none"},
    Alternative<Requant>{Requant::Tensor, "tensor"}, Alternative<Requant>{Requant::Row, "row"},
    Alternative<Requant>{Requant::Column, "column"});

/// A float convolution's fused activation (graph-fuse-activation).
enum class Activation { None, Relu, Clip };
inline constexpr auto kActivation = choice<Activation>(
    "activation", Alternative<Activation>{Activation::None, "none"},
    Alternative<Activation>{Activation::Relu, "relu"},
    Alternative<Activation>{Activation::Clip, "clip"});

/// How a ConvTranspose is computed.
enum class TransposedForm { DepthToSpace, Spread };
inline constexpr auto kTransposedForm = choice<TransposedForm>(
    "form", Alternative<TransposedForm>{TransposedForm::DepthToSpace, "depth-to-space"},
    Alternative<TransposedForm>{TransposedForm::Spread, "spread"});

/// GELU's approximation.
enum class GeluForm { Erf, Tanh };
inline constexpr auto kGeluForm = choice<GeluForm>("form", Alternative<GeluForm>{GeluForm::Erf, "erf"},
                                                   Alternative<GeluForm>{GeluForm::Tanh, "tanh"});

/// Pow by a constant exponent: the form it is computed in.
enum class PowForm { Identity, Square, Cube, Sqrt, Reciprocal, One, ExpLog };
inline constexpr auto kPowForm = choice<PowForm>(
    "form", Alternative<PowForm>{PowForm::Identity, "identity"},
    Alternative<PowForm>{PowForm::Square, "square"}, Alternative<PowForm>{PowForm::Cube, "cube"},
    Alternative<PowForm>{PowForm::Sqrt, "sqrt"},
    Alternative<PowForm>{PowForm::Reciprocal, "reciprocal"}, Alternative<PowForm>{PowForm::One, "one"},
    Alternative<PowForm>{PowForm::ExpLog, "exp-log"});

/// Pow's exponent: a constant or a tensor.
enum class Exponent { Constant, Tensor };
inline constexpr auto kExponent = choice<Exponent>(
    "exponent", Alternative<Exponent>{Exponent::Constant, "constant"},
    Alternative<Exponent>{Exponent::Tensor, "tensor"});

/// A requantization between 8-bit types: flipping the top bit (same scale,
/// zero points 128 apart) or through f32.
enum class RequantForm { TopBit, F32 };
inline constexpr auto kRequantForm = choice<RequantForm>(
    "form", Alternative<RequantForm>{RequantForm::TopBit, "top-bit"},
    Alternative<RequantForm>{RequantForm::F32, "f32"});

/// LeakyRelu as the max or the min of x and alpha x.
enum class Select { Max, Min };
inline constexpr auto kSelect = choice<Select>("select", Alternative<Select>{Select::Max, "max"},
                                               Alternative<Select>{Select::Min, "min"});

/// Cast: a copy, a test against zero, an integer truncation or a conversion.
enum class Conversion { Copy, ToBool, Truncate, Convert };
inline constexpr auto kConversion = choice<Conversion>(
    "conversion", Alternative<Conversion>{Conversion::Copy, "copy"},
    Alternative<Conversion>{Conversion::ToBool, "to-bool"},
    Alternative<Conversion>{Conversion::Truncate, "truncate"},
    Alternative<Conversion>{Conversion::Convert, "convert"});

/// Whether a reduced axis is innermost (rows) or not (columns).
enum class Layout { Rows, Columns };
inline constexpr auto kLayout = choice<Layout>("layout", Alternative<Layout>{Layout::Rows, "rows"},
                                               Alternative<Layout>{Layout::Columns, "columns"});

/// Gemm's C: absent, a full matrix, or broadcast.
enum class Addend { None, Matrix, Broadcast };
inline constexpr auto kAddend = choice<Addend>("c", Alternative<Addend>{Addend::None, "none"},
                                               Alternative<Addend>{Addend::Matrix, "matrix"},
                                               Alternative<Addend>{Addend::Broadcast, "broadcast"});

/// Quantization parameters per tensor or per axis.
enum class Params { Tensor, Axis };
inline constexpr auto kParams = choice<Params>("params", Alternative<Params>{Params::Tensor, "tensor"},
                                               Alternative<Params>{Params::Axis, "axis"});

/// Pooling over one or two spatial dimensions.
enum class PoolRank { OneD, TwoD };
inline constexpr auto kPoolRank = choice<PoolRank>("rank", Alternative<PoolRank>{PoolRank::OneD, "1d"},
                                                   Alternative<PoolRank>{PoolRank::TwoD, "2d"});

/// qk.pool's function.
inline constexpr auto kPoolFn = choice<qk::PoolFn>("fn", Alternative<qk::PoolFn>{qk::PoolFn::MAX, "max"},
                                                   Alternative<qk::PoolFn>{qk::PoolFn::AVERAGE, "average"});

/// qk.binary's function, spelled as the ISA names it (AND, OR and XOR of
/// bools, the others of numbers).
inline constexpr auto kBinaryFn = choice<qk::BinaryFn>(
    "fn", Alternative<qk::BinaryFn>{qk::BinaryFn::ADD, "ADD"},
    Alternative<qk::BinaryFn>{qk::BinaryFn::SUB, "SUB"},
    Alternative<qk::BinaryFn>{qk::BinaryFn::MUL, "MUL"},
    Alternative<qk::BinaryFn>{qk::BinaryFn::DIV, "DIV"},
    Alternative<qk::BinaryFn>{qk::BinaryFn::MAX, "MAX"},
    Alternative<qk::BinaryFn>{qk::BinaryFn::MIN, "MIN"},
    Alternative<qk::BinaryFn>{qk::BinaryFn::AND, "AND"},
    Alternative<qk::BinaryFn>{qk::BinaryFn::OR, "OR"},
    Alternative<qk::BinaryFn>{qk::BinaryFn::XOR, "XOR"},
    Alternative<qk::BinaryFn>{qk::BinaryFn::SHL, "SHL"},
    Alternative<qk::BinaryFn>{qk::BinaryFn::SRA, "SRA"});

/// qk.compare's predicate, spelled as the ISA names it (the five ONNX's
/// comparisons are; NE, LTU and GEU are no graph op's).
inline constexpr auto kCompareFn = choice<qk::CompareFn>(
    "fn", Alternative<qk::CompareFn>{qk::CompareFn::EQ, "EQ"},
    Alternative<qk::CompareFn>{qk::CompareFn::LT, "LT"},
    Alternative<qk::CompareFn>{qk::CompareFn::LE, "LE"},
    Alternative<qk::CompareFn>{qk::CompareFn::GT, "GT"},
    Alternative<qk::CompareFn>{qk::CompareFn::GE, "GE"});

/// qk.arg_reduce's function (SUM selects no element).
inline constexpr auto kArgFn = choice<qk::ReduceFn>("fn",
                                                    Alternative<qk::ReduceFn>{qk::ReduceFn::MAX, "MAX"},
                                                    Alternative<qk::ReduceFn>{qk::ReduceFn::MIN, "MIN"});

/// qk.reduce's function, spelled as the ISA names it, and the steps before
/// and after a SUM.
inline constexpr auto kReduceFn = choice<qk::ReduceFn>(
    "fn", Alternative<qk::ReduceFn>{qk::ReduceFn::SUM, "SUM"},
    Alternative<qk::ReduceFn>{qk::ReduceFn::MAX, "MAX"},
    Alternative<qk::ReduceFn>{qk::ReduceFn::MIN, "MIN"});
inline constexpr auto kReducePre = choice<qk::ReducePre>(
    "pre", Alternative<qk::ReducePre>{qk::ReducePre::None, "none"},
    Alternative<qk::ReducePre>{qk::ReducePre::Abs, "abs"},
    Alternative<qk::ReducePre>{qk::ReducePre::Square, "square"},
    Alternative<qk::ReducePre>{qk::ReducePre::ShiftedExp, "shifted-exp"});
inline constexpr auto kReducePost = choice<qk::ReducePost>(
    "post", Alternative<qk::ReducePost>{qk::ReducePost::None, "none"},
    Alternative<qk::ReducePost>{qk::ReducePost::Mean, "mean"},
    Alternative<qk::ReducePost>{qk::ReducePost::Sqrt, "sqrt"},
    Alternative<qk::ReducePost>{qk::ReducePost::Log, "log"},
    Alternative<qk::ReducePost>{qk::ReducePost::LogPlusMax, "log-plus-max"});

/// qk.map's function, spelled as the ISA names it (RSQRT is no graph op's).
inline constexpr auto kUnaryFn = choice<qk::UnaryFn>(
    "fn", Alternative<qk::UnaryFn>{qk::UnaryFn::COPY, "COPY"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::NEG, "NEG"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::ABS, "ABS"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::SIGN, "SIGN"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::RELU, "RELU"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::FLOOR, "FLOOR"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::CEIL, "CEIL"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::ROUND, "ROUND"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::SQRT, "SQRT"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::RECIP, "RECIP"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::EXP, "EXP"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::LOG, "LOG"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::TANH, "TANH"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::SIGMOID, "SIGMOID"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::ERF, "ERF"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::SIN, "SIN"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::COS, "COS"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::TAN, "TAN"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::ASIN, "ASIN"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::ACOS, "ACOS"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::ATAN, "ATAN"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::ASINH, "ASINH"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::ACOSH, "ACOSH"},
    Alternative<qk::UnaryFn>{qk::UnaryFn::ATANH, "ATANH"});

} // namespace npuc::emit::lowering

#endif
