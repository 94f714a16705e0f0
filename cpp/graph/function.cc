// GraphFunction: lazy compilation of a function graph, and the predicate rule of If/While.
#include "graph/function.h"

#include "core/errors.h"

namespace ef {

const Plan& GraphFunction::plan() const {
  std::call_once(once_, [this] {
    std::vector<Node*> targets(graph->stateful_nodes().begin(), graph->stateful_nodes().end());
    plan_ = std::make_shared<Plan>(*graph, inputs, outputs, targets);
  });
  return *plan_;
}

bool tensor_truth(const Tensor& t) {
  if (t->rank() != 0) return t->num_elements() > 0;
  switch (t->dtype()) {
    case DType::kBool: return *t->data<bool>();
    case DType::kString: return !t->data<std::string>()->empty();
    case DType::kFloat32: return *t->data<float>() != 0;
    case DType::kFloat64: return *t->data<double>() != 0;
    case DType::kInt32: return *t->data<int32_t>() != 0;
    case DType::kInt64: return *t->data<int64_t>() != 0;
    case DType::kInt16: return *t->data<int16_t>() != 0;
    case DType::kInt8: return *t->data<int8_t>() != 0;
    case DType::kUInt8: return *t->data<uint8_t>() != 0;
    case DType::kFloat16: return static_cast<float>(*t->data<half>()) != 0;
    default:
      throw_error(Code::kInvalidArgument, "The predicate must be a numeric or bool scalar, got ",
                  dtype_name(t->dtype()));
  }
}

}  // namespace ef
