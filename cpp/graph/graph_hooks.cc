// graph/'s entries into execute() (eager/execute_hooks.h), registered at static init.
#include "eager/execute_hooks.h"
#include "graph/graph.h"
#include "graph/graph_errors.h"

namespace ef {
namespace {

[[maybe_unused]] const bool registered = [] {
  ExecuteHooks& hooks = execute_hooks();
  hooks.graph_execute = &graph_execute;
  hooks.out_of_scope_message = &out_of_scope_message;
  return true;
}();

}  // namespace
}  // namespace ef
