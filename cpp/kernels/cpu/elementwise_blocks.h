// The elementwise ops' per-element functions outside their eager kernels, one entry per op:
// block functions over `n` contiguous elements on one thread (the fused elementwise kernel and the
// scalar loop interpreter run them), and predicates on one element (a < b, a && b, !a: loop
// conditions in the scalar loop interpreter). The kernel files register them from the same
// functors as their eager kernels (unary.cc, binary*.cc).
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "core/dtype.h"

namespace ef {

template <class T>
using UnaryBlockFn = void (*)(const T* a, T* out, int64_t n);
template <class T>
using BinaryBlockFn = void (*)(const T* a, const T* b, T* out, int64_t n);
// fn(a, b) on one element of the input dtype (b is unused by unary predicates such as LogicalNot).
using PredicateFn = bool (*)(const void* a, const void* b);

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
  std::map<DType, PredicateFn> predicates;  // by input dtype
};

// True for the dtypes that have block functions (float32, float64, int32, int64).
bool block_dtype_supported(DType t);

// Registration (static initializers of the kernel files); `T` is one of the supported types.
template <class T>
void register_unary_block(const std::string& op, UnaryBlockFn<T> fn);
template <class T>
void register_binary_block(const std::string& op, BinaryBlockFn<T> fn);
void register_predicate(const std::string& op, int arity, DType t, PredicateFn fn);

// Lookups: an op's id (-1 when it has none), the entry for an id, and whether `op` has a block
// function for dtype `t`. Ids are stable for the life of the process.
int elementwise_block_id(const std::string& op);
const ElementwiseBlock& elementwise_block(int id);
bool has_elementwise_block(const std::string& op, DType t);
PredicateFn find_predicate(const std::string& op, DType t);  // null when none

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
