// The registered FunctionRuntime (see function_runtime.h).
#include "kernels/cpu/function_runtime.h"

#include "core/errors.h"

namespace ef {
namespace {

const FunctionRuntime*& registered() {
  static const FunctionRuntime* runtime = nullptr;
  return runtime;
}

}  // namespace

void register_function_runtime(const FunctionRuntime* runtime) { registered() = runtime; }

const FunctionRuntime& function_runtime() {
  const FunctionRuntime* runtime = registered();
  if (!runtime) throw_error(Code::kInternal, "No function runtime registered (graph/ is not linked in)");
  return *runtime;
}

}  // namespace ef
