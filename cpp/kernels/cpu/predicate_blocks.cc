// The predicate registry (op name, dtype) -> function.
#include "kernels/cpu/predicate_blocks.h"

#include <map>
#include <utility>

namespace ef {
namespace {

std::map<std::pair<std::string, DType>, PredicateFn>& table() {
  static std::map<std::pair<std::string, DType>, PredicateFn> t;
  return t;
}

}  // namespace

void register_predicate(const std::string& op, DType t, PredicateFn fn) { table()[{op, t}] = fn; }

PredicateFn find_predicate(const std::string& op, DType t) {
  auto it = table().find({op, t});
  return it == table().end() ? nullptr : it->second;
}

}  // namespace ef
