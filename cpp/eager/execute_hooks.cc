// The execute() hooks (see execute_hooks.h).
#include "eager/execute_hooks.h"

namespace ef {

ExecuteHooks& execute_hooks() {
  static ExecuteHooks hooks;
  return hooks;
}

}  // namespace ef
