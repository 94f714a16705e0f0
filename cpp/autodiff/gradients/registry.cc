// The C++ gradient registry: filled at static init, looked up by op type on the backward pass.
#include "autodiff/gradients/registry.h"

#include <atomic>
#include <memory>
#include <unordered_map>

#include "core/errors.h"

namespace ef {

namespace {

struct Registered {
  GradientFn fn;
  std::atomic<bool> enabled{false};
};

// Filled at static init only; `enabled` is the one thing that changes later.
std::unordered_map<std::string, std::unique_ptr<Registered>>& registry() {
  static std::unordered_map<std::string, std::unique_ptr<Registered>> r;
  return r;
}

}  // namespace

GradientRegistrar::GradientRegistrar(const char* op_type, GradientFn fn) {
  auto r = std::make_unique<Registered>();
  r->fn = fn;
  if (!registry().emplace(op_type, std::move(r)).second)
    throw_error(Code::kInternal, "two C++ gradients registered for ", op_type);
}

GradientFn native_gradient(const OpDef& op) {
  auto it = registry().find(op.name);
  if (it == registry().end() || !it->second->enabled.load(std::memory_order_relaxed)) return nullptr;
  return it->second->fn;
}

std::vector<std::string> native_gradient_types() {
  std::vector<std::string> out;
  for (const auto& kv : registry()) out.push_back(kv.first);
  return out;
}

void set_native_gradient_enabled(const std::string& op_type, bool enabled) {
  auto it = registry().find(op_type);
  if (it == registry().end()) throw_error(Code::kNotFound, "no C++ gradient for ", op_type);
  it->second->enabled.store(enabled, std::memory_order_relaxed);
}

}  // namespace ef
