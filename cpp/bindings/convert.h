// Conversions between Python values (scalars, NumPy arrays, tensors) and C++ tensors.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "bindings/tensor_types.h"
#include "core/tensor.h"
#include "ops/attrs.h"

namespace ef {
namespace py = pybind11;
struct OpDef;

// The Python Tensor type objects (set when the classes are bound): tf.Tensor, the base, and
// EagerTensor, the class of every eager tensor (exact-type checks on hot paths).
extern PyTypeObject* g_tensor_type;
extern PyTypeObject* g_eager_tensor_type;

// The tensor held by a Python tensor object (any of the three classes, which share one layout:
// reads the holder without pybind11's type lookup, which a subclass instance would take).
inline const Tensor& tensor_of(PyObject* o) {
  py::detail::value_and_holder vh = reinterpret_cast<py::detail::instance*>(o)->get_value_and_holder();
  if (!vh.holder_constructed())  // a Python subclass whose __init__ made no tensor
    throw py::type_error("Tensor.__init__() must be called when overriding __init__");
  return vh.holder<Tensor>();
}

// Converts `value` to a tensor; tensors pass unchanged. `dtype` (kInvalid for none) is a hint
// (TF's convert_to_tensor(dtype_hint=...)): values adopt it where they fit, else keep their own
// dtype; with `exact` a value that does not fit raises TypeError, as TF's op input conversion
// does once an input of the same type attr fixed the dtype. Values the fast path does not
// handle (lists, NumPy scalars, Variables, ...) go to the Python fallback.
Tensor to_tensor(py::handle value, DType dtype = DType::kInvalid, bool exact = false);
// A flat list or tuple of Python ints (index-like op inputs: shapes, axes, perms) as `dtype`, or
// for kInvalid as to_tensor converts it without a hint: int32, or int64 where a value needs it;
// null for any other value, or values that `dtype` cannot hold.
Tensor int_list_to_tensor(py::handle value, DType dtype = DType::kInvalid);

// Tensor -> NumPy array sharing the tensor's memory (read-only); strings become an object
// array of bytes.
py::object to_numpy(const Tensor& t);
// NumPy array -> new tensor (copy); `dtype` kInvalid keeps the array's dtype.
Tensor from_numpy(py::handle array);

DType dtype_from_numpy(py::handle np_dtype);  // throws TypeError for unsupported dtypes
py::dtype numpy_dtype(DType t);

// An op call's attrs from a Python dict (ops.cc): ints, floats, bools, strs, DTypes, lists,
// tensors, GraphFunctions.
Attrs attrs_from_python(py::handle attrs);

// An attr value as Python sees it: numbers, strings, lists, shapes as lists of dims (None for an
// unknown rank); dtypes as their enum ints, which attr_kind tells apart from other ints.
py::object attr_to_python(const AttrValue& v);
enum class AttrKind { kOther = 0, kDType = 1, kDTypeList = 2 };
AttrKind attr_kind(const AttrValue& v);
// An operand of op `node_name` (op.name when empty) converted as to_tensor does; while building a graph a
// Python value becomes a Const named after the node and the op's input, as TF names them ("Greater/y").
Tensor to_operand(py::handle v, DType dtype, bool exact, const OpDef& op, const char* node_name, size_t input);
// The AttrValue field an attr fills, as GraphDef text names it: "type", "shape", "list.type", "tensor", "func", ...
const char* attr_field(const AttrValue& v);

// Registers the Python fallback: fn(value, dtype_enum_or_None, exact) -> Tensor.
void set_convert_fallback(py::object fn);

}  // namespace ef
