// A dataset's function attr applied to elements: the element's components then the captured
// tensors (other_arguments), run through the FunctionRuntime with one Runner (reused scratch).
#pragma once
#include <memory>
#include <vector>

#include "kernels/cpu/function_runtime.h"
#include "kernels/data/dataset.h"

namespace ef {

// The function attr `name`; InvalidArgument when missing.
FunctionPtr dataset_function_attr(const KernelContext& c, const char* name);

class FunctionCall {
 public:
  // `captured` must outlive the call (the dataset that owns both keeps them).
  FunctionCall(FunctionPtr f, const std::vector<Tensor>& captured)
      : f_(std::move(f)), captured_(captured), runner_(function_runtime().runner(*f_)) {}
  void run(Element element, Element& out) {
    for (const Tensor& t : captured_) element.push_back(t);
    out.clear();
    runner_->run(element, out);
  }

 private:
  FunctionPtr f_;  // keeps the plan the runner points into alive
  const std::vector<Tensor>& captured_;
  std::unique_ptr<FunctionRuntime::Runner> runner_;
};

// The dataset a function returned (flat_map, interleave): one variant output holding a dataset.
DatasetPtr returned_dataset(const Element& out, const char* op);

}  // namespace ef
