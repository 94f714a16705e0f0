// The Python Tensor type: core properties and the hot operators, bound straight to C++ so
// `a + b` runs without Python frames. Printing, indexing and the rest live in Python
// (python/eagerflow/framework/tensor.py) and are attached to this class at import.
#include <pybind11/stl.h>

#include <vector>

#include "bindings/bindings.h"
#include "bindings/convert.h"
#include "core/errors.h"
#include "eager/execute.h"
#include "graph/graph.h"

namespace ef {

Tensor cast_tensor(const Tensor& x, DType dst);  // kernels/cpu/cast.cc

namespace {

std::vector<py::object>& dtype_objects() {
  static auto* v = new std::vector<py::object>(32);
  return *v;
}

const Attrs& no_attrs() {
  static const Attrs a;
  return a;
}

// `name` is the graph node name TF gives the operator ("add" for +); eager mode ignores it.
Tensor run(const OpDef& op, const Tensor& x, const Tensor& y, const char* name = "") {
  std::vector<Tensor> in{x, y};
  if (x->num_elements() + y->num_elements() >= (int64_t(1) << 15)) {
    py::gil_scoped_release release;
    return execute1(op, in, no_attrs(), name);
  }
  return execute1(op, in, no_attrs(), name);
}

Tensor run1(const OpDef& op, const Tensor& x) {
  std::vector<Tensor> in{x};
  if (x->num_elements() >= (int64_t(1) << 15)) {
    py::gil_scoped_release release;
    return execute1(op, in, no_attrs());
  }
  return execute1(op, in, no_attrs());
}

// A binary operator: the other operand adopts self's dtype where it is a Python scalar.
template <const char* Name, const char* NodeName = Name>
struct BinaryOp {
  static const OpDef& op() {
    static const OpDef& d = get_op(Name);
    return d;
  }
  static Tensor forward(const Tensor& self, py::handle other) {
    return run(op(), self, to_tensor(other, self->dtype()), NodeName);
  }
  static Tensor reflected(const Tensor& self, py::handle other) {
    return run(op(), to_tensor(other, self->dtype()), self, NodeName);
  }
};

template <const char* Name>
const OpDef& op_named() {
  static const OpDef& d = get_op(Name);
  return d;
}

constexpr char kAdd[] = "AddV2", kSub[] = "Sub", kMul[] = "Mul", kFloorDiv[] = "FloorDiv", kFloorMod[] = "FloorMod",
               kPow[] = "Pow", kLess[] = "Less", kLessEqual[] = "LessEqual", kGreater[] = "Greater",
               kGreaterEqual[] = "GreaterEqual", kEqual[] = "Equal", kNotEqual[] = "NotEqual",
               kRealDiv[] = "RealDiv", kNeg[] = "Neg", kAbs[] = "Abs", kComplexAbs[] = "ComplexAbs", kLogicalNot[] = "LogicalNot",
               kInvert[] = "Invert", kLogicalAnd[] = "LogicalAnd", kLogicalOr[] = "LogicalOr",
               kBitwiseAnd[] = "BitwiseAnd", kBitwiseOr[] = "BitwiseOr", kBitwiseXor[] = "BitwiseXor";
// TF's node names for Python operators.
constexpr char nAdd[] = "add", nSub[] = "sub", nMul[] = "mul", nFloorDiv[] = "floordiv", nMod[] = "mod",
               nPow[] = "pow", nTrueDiv[] = "truediv", nAnd[] = "and", nOr[] = "or", nXor[] = "xor";

// Python's `/`: integers are first cast to float (int8/16, uint8 -> float32; int32/64 -> float64).
Tensor truediv(const Tensor& x, const Tensor& y) {
  if (x->dtype() != y->dtype())
    throw TypeError(str_cat("`x` and `y` must have the same dtype, got tf.", dtype_name(x->dtype()), " != tf.",
                            dtype_name(y->dtype()), "."));
  DType t = x->dtype();
  if (dtype_is_integer(t)) {
    DType f = (t == DType::kInt32 || t == DType::kInt64) ? DType::kFloat64 : DType::kFloat32;
    static const OpDef& cast = get_op("Cast");
    Attrs a;
    a.set("DstT", f);
    return run(op_named<kRealDiv>(), execute1(cast, {x}, a, "Cast"), execute1(cast, {y}, a, "Cast"), nTrueDiv);
  }
  return run(op_named<kRealDiv>(), x, y, nTrueDiv);
}

// `&`, `|`, `^` mean logical ops on bools and bitwise ops on integers, as in TF.
template <const char* Logical, const char* Bitwise, const char* NodeName>
Tensor logic_or_bitwise(const Tensor& x, const Tensor& y) {
  if (x->dtype() == DType::kBool) return run(op_named<Logical>(), x, y, NodeName);
  return run(op_named<Bitwise>(), x, y, NodeName);
}

Tensor xor_op(const Tensor& x, const Tensor& y) {
  if (x->dtype() == DType::kBool) {  // TF: (x | y) & !(x & y)
    Tensor both = run(op_named<kLogicalAnd>(), x, y);
    return run(op_named<kLogicalAnd>(), run(op_named<kLogicalOr>(), x, y), run1(op_named<kLogicalNot>(), both));
  }
  return run(op_named<kBitwiseXor>(), x, y);
}

// `==` / `!=`: elementwise; operands that cannot be converted or broadcast compare unequal
// (TF's incompatible_shape_error=False behaviour).
py::object equality(const Tensor& self, py::handle other, bool equal) {
  if (other.is_none()) return py::bool_(!equal);
  Tensor y;
  try {
    y = to_tensor(other, self->dtype());
  } catch (const std::exception&) {  // includes py::error_already_set
    return py::bool_(!equal);
  }
  try {
    return py::cast(run(equal ? op_named<kEqual>() : op_named<kNotEqual>(), self, y));
  } catch (const OpError& e) {
    if (e.code() != Code::kInvalidArgument) throw;
    if (self->dtype() != y->dtype()) throw;
    return py::cast(TensorImpl::scalar<bool>(!equal));
  }
}

}  // namespace

void init_tensor(py::module_& m) {
  py::class_<TensorImpl, std::shared_ptr<TensorImpl>> cls(m, "Tensor");
  g_tensor_type = reinterpret_cast<PyTypeObject*>(cls.ptr());

  m.def("set_dtype_objects", [](py::dict d) {
    for (auto kv : d) dtype_objects()[kv.first.cast<int>()] = py::reinterpret_borrow<py::object>(kv.second);
  });
  m.def("set_convert_fallback", &set_convert_fallback);
  m.def("convert_to_tensor", [](py::handle v, py::object dtype_hint) {
    return to_tensor(v, dtype_hint.is_none() ? DType::kInvalid : static_cast<DType>(dtype_hint.cast<int>()));
  }, py::arg("value"), py::arg("dtype_hint") = py::none());
  m.def("from_numpy", [](py::handle a) { return from_numpy(a); });
  m.def("cast", [](const Tensor& x, int dtype) {  // through execute(): works in graphs too
    static const OpDef& cast = get_op("Cast");
    if (x->dtype() == static_cast<DType>(dtype)) return x;
    Attrs a;
    a.set("DstT", static_cast<DType>(dtype));
    return execute1(cast, {x}, a, "Cast");
  });
  m.def("truediv", [](const Tensor& x, py::handle y) { return truediv(x, to_tensor(y, x->dtype())); });
  m.def("dtype_is_valid", &dtype_is_valid);
  m.def("dtype_name", [](int t) { return dtype_name(static_cast<DType>(t)); });
  m.def("dtype_size", [](int t) { return dtype_size(static_cast<DType>(t)); });

  cls.def_property_readonly("_dtype_enum", [](const TensorImpl& t) { return static_cast<int>(t.dtype()); })
      .def_property_readonly("dtype", [](const TensorImpl& t) { return dtype_objects()[static_cast<int>(t.dtype())]; })
      .def_property_readonly("_shape_tuple", [](const TensorImpl& t) -> py::object {
        if (!t.shape().rank_known()) return py::none();
        py::tuple out(t.rank());
        for (int i = 0; i < t.rank(); ++i) {
          int64_t d = t.shape()[i];
          out[i] = d < 0 ? py::object(py::none()) : py::object(py::int_(d));
        }
        return std::move(out);
      })
      .def_property_readonly("ndim", &TensorImpl::rank)
      .def("_rank", &TensorImpl::rank)
      .def("_num_elements", &TensorImpl::num_elements)
      .def("_numpy", [](const Tensor& t) {
        if (t->is_symbolic()) throw py::attribute_error("'SymbolicTensor' object has no attribute 'numpy'");
        return to_numpy(t);
      })
      .def_property_readonly("_is_symbolic", &TensorImpl::is_symbolic)
      .def_property_readonly("_node_name", [](const TensorImpl& t) -> py::object {
        return t.is_symbolic() ? py::cast(t.node()->name) : py::none();
      })
      .def_property_readonly("_graph", [](const TensorImpl& t) -> py::object {
        return t.is_symbolic() ? py::cast(t.graph_ptr()) : py::none();
      })
      .def_property_readonly("value_index", &TensorImpl::output_index)
      .def("_data_ptr", [](const TensorImpl& t) { return reinterpret_cast<uintptr_t>(t.raw_data()); })
      .def("__hash__", [](const TensorImpl&) -> py::int_ {
        throw TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.");
      })
      .def("__add__", &BinaryOp<kAdd, nAdd>::forward, py::is_operator())
      .def("__radd__", &BinaryOp<kAdd, nAdd>::reflected, py::is_operator())
      .def("__sub__", &BinaryOp<kSub, nSub>::forward, py::is_operator())
      .def("__rsub__", &BinaryOp<kSub, nSub>::reflected, py::is_operator())
      .def("__mul__", &BinaryOp<kMul, nMul>::forward, py::is_operator())
      .def("__rmul__", &BinaryOp<kMul, nMul>::reflected, py::is_operator())
      .def("__floordiv__", &BinaryOp<kFloorDiv, nFloorDiv>::forward, py::is_operator())
      .def("__rfloordiv__", &BinaryOp<kFloorDiv, nFloorDiv>::reflected, py::is_operator())
      .def("__mod__", &BinaryOp<kFloorMod, nMod>::forward, py::is_operator())
      .def("__rmod__", &BinaryOp<kFloorMod, nMod>::reflected, py::is_operator())
      .def("__pow__", [](const Tensor& s, py::handle o) { return BinaryOp<kPow, nPow>::forward(s, o); }, py::is_operator())
      .def("__rpow__", [](const Tensor& s, py::handle o) { return BinaryOp<kPow, nPow>::reflected(s, o); }, py::is_operator())
      .def("__lt__", &BinaryOp<kLess>::forward, py::is_operator())
      .def("__le__", &BinaryOp<kLessEqual>::forward, py::is_operator())
      .def("__gt__", &BinaryOp<kGreater>::forward, py::is_operator())
      .def("__ge__", &BinaryOp<kGreaterEqual>::forward, py::is_operator())
      .def("__eq__", [](const Tensor& s, py::handle o) { return equality(s, o, true); }, py::is_operator())
      .def("__ne__", [](const Tensor& s, py::handle o) { return equality(s, o, false); }, py::is_operator())
      .def("__truediv__", [](const Tensor& s, py::handle o) { return truediv(s, to_tensor(o, s->dtype())); },
           py::is_operator())
      .def("__rtruediv__", [](const Tensor& s, py::handle o) { return truediv(to_tensor(o, s->dtype()), s); },
           py::is_operator())
      .def("__and__", [](const Tensor& s, py::handle o) {
        return logic_or_bitwise<kLogicalAnd, kBitwiseAnd, nAnd>(s, to_tensor(o, s->dtype()));
      }, py::is_operator())
      .def("__rand__", [](const Tensor& s, py::handle o) {
        return logic_or_bitwise<kLogicalAnd, kBitwiseAnd, nAnd>(to_tensor(o, s->dtype()), s);
      }, py::is_operator())
      .def("__or__", [](const Tensor& s, py::handle o) {
        return logic_or_bitwise<kLogicalOr, kBitwiseOr, nOr>(s, to_tensor(o, s->dtype()));
      }, py::is_operator())
      .def("__ror__", [](const Tensor& s, py::handle o) {
        return logic_or_bitwise<kLogicalOr, kBitwiseOr, nOr>(to_tensor(o, s->dtype()), s);
      }, py::is_operator())
      .def("__xor__", [](const Tensor& s, py::handle o) { return xor_op(s, to_tensor(o, s->dtype())); },
           py::is_operator())
      .def("__rxor__", [](const Tensor& s, py::handle o) { return xor_op(to_tensor(o, s->dtype()), s); },
           py::is_operator())
      .def("__neg__", [](const Tensor& s) { return run1(op_named<kNeg>(), s); })
      .def("__abs__", [](const Tensor& s) {  // complex: the float magnitude, as tf.abs
        return run1(dtype_is_complex(s->dtype()) ? op_named<kComplexAbs>() : op_named<kAbs>(), s);
      })
      .def("__invert__", [](const Tensor& s) {
        return run1(s->dtype() == DType::kBool ? op_named<kLogicalNot>() : op_named<kInvert>(), s);
      });
  cls.attr("__array_priority__") = 100;
}

}  // namespace ef
