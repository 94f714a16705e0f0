// The begin/end/strides (or begin/size) inputs of a slice kernel, in the form the shared slice
// rules (ops/slice_spec.h) take: N inputs starting at `first`.
#pragma once
#include "ops/registry.h"

namespace ef {

template <int N>
struct SliceArgs {
  DType dtypes[N];
  Shape shapes[N];
  const TensorImpl* values[N];
};

template <int N>
SliceArgs<N> slice_args(KernelContext& c, int first = 1) {
  SliceArgs<N> a;
  for (int i = 0; i < N; ++i) {
    a.dtypes[i] = c.input(first + i)->dtype();
    a.shapes[i] = c.input(first + i)->shape();
    a.values[i] = c.input(first + i).get();
  }
  return a;
}

}  // namespace ef
