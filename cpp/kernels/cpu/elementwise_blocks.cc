// The registry of elementwise ops' block functions and predicates.
#include "kernels/cpu/elementwise_blocks.h"

#include <deque>
#include <unordered_map>

#include "core/errors.h"

namespace ef {
namespace {

// A deque keeps entries at stable addresses while registration appends.
struct Table {
  std::deque<ElementwiseBlock> entries;
  std::unordered_map<std::string, int> ids;
};

Table& table() {
  static Table t;
  return t;
}

ElementwiseBlock& entry(const std::string& op, int arity) {
  Table& t = table();
  auto it = t.ids.find(op);
  if (it == t.ids.end()) {
    it = t.ids.emplace(op, static_cast<int>(t.entries.size())).first;
    t.entries.emplace_back();
    t.entries.back().op = op;
    t.entries.back().arity = arity;
  }
  ElementwiseBlock& e = t.entries[it->second];
  if (e.arity != arity) throw_error(Code::kInternal, "elementwise block ", op, " registered with two arities");
  return e;
}

template <class T>
BlockFns<T>& mutable_fns(ElementwiseBlock& e) {
  return const_cast<BlockFns<T>&>(block_fns<T>(e));
}

}  // namespace

bool block_dtype_supported(DType t) {
  return t == DType::kFloat32 || t == DType::kFloat64 || t == DType::kInt32 || t == DType::kInt64;
}

template <class T>
void register_unary_block(const std::string& op, UnaryBlockFn<T> fn) {
  mutable_fns<T>(entry(op, 1)).unary = fn;
}
template <class T>
void register_binary_block(const std::string& op, BinaryBlockFn<T> fn) {
  mutable_fns<T>(entry(op, 2)).binary = fn;
}

void register_scalar_steps(const std::string& op, int arity, DType t, ScalarSteps steps) {
  entry(op, arity).scalar[t] = steps;
}

template void register_unary_block<float>(const std::string&, UnaryBlockFn<float>);
template void register_unary_block<double>(const std::string&, UnaryBlockFn<double>);
template void register_unary_block<int32_t>(const std::string&, UnaryBlockFn<int32_t>);
template void register_unary_block<int64_t>(const std::string&, UnaryBlockFn<int64_t>);
template void register_binary_block<float>(const std::string&, BinaryBlockFn<float>);
template void register_binary_block<double>(const std::string&, BinaryBlockFn<double>);
template void register_binary_block<int32_t>(const std::string&, BinaryBlockFn<int32_t>);
template void register_binary_block<int64_t>(const std::string&, BinaryBlockFn<int64_t>);

int elementwise_block_id(const std::string& op) {
  const Table& t = table();
  auto it = t.ids.find(op);
  return it == t.ids.end() ? -1 : it->second;
}

const ElementwiseBlock& elementwise_block(int id) { return table().entries.at(static_cast<size_t>(id)); }

int elementwise_block_count() { return static_cast<int>(table().entries.size()); }

namespace {
template <class T>
bool has_fn(const ElementwiseBlock& e) {
  const BlockFns<T>& f = block_fns<T>(e);
  return e.arity == 1 ? f.unary != nullptr : f.binary != nullptr;
}
}  // namespace

bool has_elementwise_block(const std::string& op, DType t) {
  int id = elementwise_block_id(op);
  if (id < 0) return false;
  const ElementwiseBlock& e = elementwise_block(id);
  switch (t) {
    case DType::kFloat32: return has_fn<float>(e);
    case DType::kFloat64: return has_fn<double>(e);
    case DType::kInt32: return has_fn<int32_t>(e);
    case DType::kInt64: return has_fn<int64_t>(e);
    default: return false;
  }
}

const ScalarSteps* find_scalar_steps(const std::string& op, DType t) {
  const int id = elementwise_block_id(op);
  if (id < 0) return nullptr;
  const auto& s = elementwise_block(id).scalar;
  auto it = s.find(t);
  return it == s.end() ? nullptr : &it->second;
}

}  // namespace ef
