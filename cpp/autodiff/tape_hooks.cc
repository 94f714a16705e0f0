// autodiff/'s entry into execute() (eager/execute_hooks.h), registered at static init.
#include "autodiff/tape.h"
#include "eager/execute_hooks.h"

namespace ef {
namespace {

[[maybe_unused]] const bool registered = (execute_hooks().record_operation = &record_operation, true);

}  // namespace
}  // namespace ef
