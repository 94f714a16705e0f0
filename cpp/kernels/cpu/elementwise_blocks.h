// The elementwise ops' per-element functions outside their eager kernels, one entry per op:
// block functions over `n` contiguous elements on one thread (the fused elementwise kernel runs
// them), and scalar steps on one element (scalar_step.h: the scalar loop interpreter's
// instructions, arithmetic and predicates such as a < b, a && b, !a). The kernel files register
// them from the same functors as their eager kernels (unary.cc, binary*.cc).
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "core/dtype.h"
#include "kernels/cpu/scalar_step.h"

namespace ef {

template <class T>
using UnaryBlockFn = void (*)(const T* a, T* out, int64_t n);
template <class T>
using BinaryBlockFn = void (*)(const T* a, const T* b, T* out, int64_t n);

// The dtypes fused kernels support (a small fixed set keeps the fused kernel's code size down).
template <class T>
struct BlockFns {
  UnaryBlockFn<T> unary = nullptr;
  BinaryBlockFn<T> binary = nullptr;
};

struct ElementwiseBlock {
  std::string op;
  int arity = 0;  // 1 or 2
  BlockFns<float> f32;
  BlockFns<double> f64;
  BlockFns<int32_t> i32;
  BlockFns<int64_t> i64;
  std::map<DType, ScalarSteps> scalar;  // by input dtype
};

// True for the dtypes that have block functions (float32, float64, int32, int64).
bool block_dtype_supported(DType t);

// Registration (static initializers of the kernel files); `T` is one of the supported types.
template <class T>
void register_unary_block(const std::string& op, UnaryBlockFn<T> fn);
template <class T>
void register_binary_block(const std::string& op, BinaryBlockFn<T> fn);
void register_scalar_steps(const std::string& op, int arity, DType t, ScalarSteps steps);

// Lookups: an op's id (-1 when it has none), the entry for an id, and whether `op` has a block
// function for dtype `t`. Ids are stable for the life of the process.
int elementwise_block_id(const std::string& op);
const ElementwiseBlock& elementwise_block(int id);
int elementwise_block_count();
bool has_elementwise_block(const std::string& op, DType t);
// The scalar steps of `op` for input dtype `t`; null when none.
const ScalarSteps* find_scalar_steps(const std::string& op, DType t);

template <class T>
const BlockFns<T>& block_fns(const ElementwiseBlock& e);
template <>
inline const BlockFns<float>& block_fns<float>(const ElementwiseBlock& e) { return e.f32; }
template <>
inline const BlockFns<double>& block_fns<double>(const ElementwiseBlock& e) { return e.f64; }
template <>
inline const BlockFns<int32_t>& block_fns<int32_t>(const ElementwiseBlock& e) { return e.i32; }
template <>
inline const BlockFns<int64_t>& block_fns<int64_t>(const ElementwiseBlock& e) { return e.i64; }

}  // namespace ef
