// Attrs: the named, non-tensor parameters of an op call (keep_dims, perm, dtype, ...).
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/dtype.h"
#include "core/errors.h"
#include "core/shape.h"
#include "core/tensor.h"

namespace ef {

struct GraphFunction;  // graph/function.h: a traced function graph (If/While branches, calls)
using FunctionPtr = std::shared_ptr<GraphFunction>;

using AttrValue = std::variant<std::monostate, int64_t, double, bool, DType, std::string,
                               std::vector<int64_t>, std::vector<double>, std::vector<std::string>, Shape,
                               Tensor, FunctionPtr, std::vector<DType>, std::vector<Shape>>;

class Attrs {
 public:
  Attrs() = default;
  // Copies take the attrs, not the kernel cache (derived state is rebuilt on first use).
  Attrs(const Attrs& o) : items_(o.items_) {}
  Attrs(Attrs&& o) noexcept : items_(std::move(o.items_)) {}
  Attrs& operator=(const Attrs& o) {
    if (this != &o) set_items(o.items_);
    return *this;
  }
  Attrs& operator=(Attrs&& o) noexcept {
    set_items(std::move(o.items_));
    return *this;
  }

  void set(const std::string& name, AttrValue v) {
    clear_kernel_cache();  // derived state no longer matches
    for (auto& kv : items_)
      if (kv.first == name) {
        kv.second = std::move(v);
        return;
      }
    items_.emplace_back(name, std::move(v));
  }
  const AttrValue* find(const std::string& name) const {
    for (auto& kv : items_)
      if (kv.first == name) return &kv.second;
    return nullptr;
  }
  bool has(const std::string& name) const { return find(name) != nullptr; }

  // Typed access; ints convert to double/bool where that is lossless in intent.
  template <typename T>
  T get(const std::string& name, const T& def) const {
    const AttrValue* v = find(name);
    if (!v || std::holds_alternative<std::monostate>(*v)) return def;
    return convert<T>(name, *v);
  }
  template <typename T>
  T get(const std::string& name) const {
    const AttrValue* v = find(name);
    if (!v || std::holds_alternative<std::monostate>(*v))
      throw_error(Code::kInvalidArgument, "missing attr '", name, "'");
    return convert<T>(name, *v);
  }
  const std::vector<std::pair<std::string, AttrValue>>& items() const { return items_; }
  bool empty() const { return items_.empty(); }

  // A slot where a kernel keeps state it derives from these attrs once (e.g. a decoded
  // program), so graph nodes run without re-deriving it per call. Thread-safe; reading is one
  // atomic load (no lock: it runs once per kernel call).
  void* kernel_cache() const { return kernel_cache_ptr_.load(std::memory_order_acquire); }
  // Installs `v` unless another thread did first; returns the installed value.
  void* set_kernel_cache(std::shared_ptr<void> v) const {
    static std::mutex mu;
    std::lock_guard<std::mutex> lock(mu);
    if (void* p = kernel_cache_ptr_.load(std::memory_order_relaxed)) return p;
    kernel_cache_owner_ = std::move(v);
    kernel_cache_ptr_.store(kernel_cache_owner_.get(), std::memory_order_release);
    return kernel_cache_owner_.get();
  }

 private:
  template <typename T>
  static T convert(const std::string& name, const AttrValue& v) {
    if (auto* p = std::get_if<T>(&v)) return *p;
    if constexpr (std::is_same_v<T, double>) {
      if (auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
    }
    if constexpr (std::is_same_v<T, bool>) {
      if (auto* i = std::get_if<int64_t>(&v)) return *i != 0;
    }
    if constexpr (std::is_same_v<T, int64_t>) {
      if (auto* b = std::get_if<bool>(&v)) return *b ? 1 : 0;
    }
    if constexpr (std::is_same_v<T, std::vector<DType>>) {  // dtype enums given as ints
      if (auto* ints = std::get_if<std::vector<int64_t>>(&v)) {
        T out;
        for (int64_t i : *ints) out.push_back(static_cast<DType>(i));
        return out;
      }
    }
    if constexpr (std::is_same_v<T, std::vector<Shape>>) {  // an empty list reads as ints
      if (auto* ints = std::get_if<std::vector<int64_t>>(&v))
        if (ints->empty()) return T();
    }
    throw_error(Code::kInvalidArgument, "attr '", name, "' has the wrong type");
  }
  template <typename Items>
  void set_items(Items&& items) {
    clear_kernel_cache();
    items_ = std::forward<Items>(items);
  }
  void clear_kernel_cache() {
    kernel_cache_ptr_.store(nullptr, std::memory_order_relaxed);
    kernel_cache_owner_.reset();
  }
  std::vector<std::pair<std::string, AttrValue>> items_;
  mutable std::shared_ptr<void> kernel_cache_owner_;
  mutable std::atomic<void*> kernel_cache_ptr_{nullptr};
};

}  // namespace ef
