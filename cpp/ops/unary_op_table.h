// The unary elementwise ops, one line each: X(Name, TF input name, dtype set in unary_types).
// From this table math_unary_ops.cc makes each op's definition and kernels/cpu/unary.cc its CPU
// kernel and fusion block functions; the per-element math is the functor struct `Name` in
// kernels/cpu/unary_functors.h. Adding an op: a line here, its functor, its gradient, its
// Python export, its test sample.
#pragma once

#define EF_UNARY_OPS(X)                \
  X(Neg, "x", kNeg)                    \
  X(Abs, "x", kAbs)                    \
  X(Sign, "x", kNeg)                   \
  X(Exp, "x", kFloatComplex)           \
  X(Expm1, "x", kFloatComplex)         \
  X(Log, "x", kFloatComplex)           \
  X(Log1p, "x", kFloatComplex)         \
  X(Sqrt, "x", kFloatComplex)          \
  X(Rsqrt, "x", kFloatComplex)         \
  X(Square, "x", kSquare)              \
  X(Reciprocal, "x", kReciprocal)      \
  X(Tanh, "x", kFloatComplex)          \
  X(Sigmoid, "x", kFloatComplex)       \
  X(Sin, "x", kFloatComplex)           \
  X(Cos, "x", kFloatComplex)           \
  X(Tan, "x", kFloatComplex)           \
  X(Asin, "x", kFloatComplex)          \
  X(Acos, "x", kFloatComplex)          \
  X(Atan, "x", kFloatComplex)          \
  X(Sinh, "x", kFloatComplex)          \
  X(Cosh, "x", kFloatComplex)          \
  X(Asinh, "x", kFloatComplex)         \
  X(Acosh, "x", kFloatComplex)         \
  X(Atanh, "x", kFloatComplex)         \
  X(Erf, "x", kFloat)                  \
  X(Erfc, "x", kFloat)                 \
  X(Erfinv, "x", kFloatNoBFloat16)     \
  X(Lgamma, "x", kFloatNoBFloat16)     \
  X(Digamma, "x", kFloatNoBFloat16)    \
  X(Floor, "x", kFloat)                \
  X(Ceil, "x", kFloat)                 \
  X(Round, "x", kRound)                \
  X(Relu, "features", kRelu)           \
  X(Relu6, "features", kRelu6)         \
  X(Elu, "features", kEluFamily)       \
  X(Selu, "features", kEluFamily)      \
  X(Softplus, "features", kEluFamily)  \
  X(Softsign, "features", kEluFamily)  \
  X(Invert, "x", kInvert)             \
  X(Conj, "input", kConj)
