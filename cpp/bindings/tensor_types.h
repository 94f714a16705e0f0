// The Python classes of a tensor: tf.Tensor is the base, and each tensor is an EagerTensor or a
// SymbolicTensor (TF's concrete classes), chosen when pybind11 wraps a TensorImpl. Every binding
// file includes this (through bindings.h or convert.h) so that all of them pick the same class.
#pragma once
#include <pybind11/pybind11.h>

#include <typeinfo>

#include "core/tensor.h"

namespace ef {

// Never constructed: these only name the Python subclasses (tensor.cc registers them).
struct EagerTensorClass : TensorImpl {};
struct SymbolicTensorClass : TensorImpl {};

}  // namespace ef

namespace pybind11 {

template <>
struct polymorphic_type_hook<ef::TensorImpl> {
  static const void* get(const ef::TensorImpl* src, const std::type_info*& type) {
    if (src) type = src->is_symbolic() ? &typeid(ef::SymbolicTensorClass) : &typeid(ef::EagerTensorClass);
    return src;
  }
};

}  // namespace pybind11
