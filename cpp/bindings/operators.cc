// Tensor's Python operators (+, *, ==, &, ...), bound straight to C++ so `a + b` runs without
// Python frames, with TF's operand conversion: the other operand converts to self's dtype
// exactly (TypeError where a Python value does not fit), except that forward `+` and `/` only
// hint it.
#include "bindings/bindings.h"
#include "bindings/convert.h"
#include "core/errors.h"
#include "eager/execute.h"

namespace ef {

Tensor cast_to(const Tensor& x, DType dtype);

namespace {

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

// A binary operator: the other operand is converted to self's dtype, exactly (a value that does
// not fit raises TypeError) as TF's operators do, except that `+` (forward) only hints it.
template <const char* Name, const char* NodeName = Name, bool ExactForward = true>
struct BinaryOp {
  static const OpDef& op() {
    static const OpDef& d = get_op(Name);
    return d;
  }
  static Tensor forward(const Tensor& self, py::handle other) {
    return run(op(), self, to_operand(other, self->dtype(), ExactForward, op(), NodeName, 1), NodeName);
  }
  static Tensor reflected(const Tensor& self, py::handle other) {
    return run(op(), to_operand(other, self->dtype(), true, op(), NodeName, 0), self, NodeName);
  }
};

Tensor exact(py::handle other, const Tensor& self) { return to_tensor(other, self->dtype(), true); }

template <const char* Name>
const OpDef& op_named() {
  static const OpDef& d = get_op(Name);
  return d;
}

constexpr char kAdd[] = "AddV2", kSub[] = "Sub", kFloorDiv[] = "FloorDiv", kFloorMod[] = "FloorMod",
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
  if (!dtype_is_numeric(t))
    throw TypeError(str_cat("Invalid dtype tf.", dtype_name(t), " in __truediv__. Expected one of {tf.uint8, ",
                            "tf.int8, tf.int16, tf.int32, tf.int64, tf.float16, tf.float32, tf.float64, ",
                            "tf.complex64}."));
  if (dtype_is_integer(t)) {
    DType f = (dtype_size(t) >= 4) ? DType::kFloat64 : DType::kFloat32;  // as TF: int32, uint32, int64, uint64 -> float64
    return run(op_named<kRealDiv>(), cast_to(x, f), cast_to(y, f), nTrueDiv);
  }
  return run(op_named<kRealDiv>(), x, y, nTrueDiv);
}

// `*`: where either operand is a bool tensor TF multiplies both cast to int32 and casts the
// product back to bool (so `mask * 2.5` is `mask`); a reflected operand first converts exactly.
Tensor multiply(const Tensor& self, py::handle other, bool reflected) {
  static const OpDef& mul = get_op("Mul");
  Tensor y;
  if (reflected) {
    y = to_operand(other, self->dtype(), true, mul, nMul, 0);
  } else {
    const bool other_bool = PyObject_TypeCheck(other.ptr(), g_tensor_type) &&
                            other.cast<Tensor>()->dtype() == DType::kBool;
    y = self->dtype() == DType::kBool || other_bool ? to_tensor(other)
                                                    : to_operand(other, self->dtype(), true, mul, nMul, 1);
  }
  if (self->dtype() != DType::kBool && y->dtype() != DType::kBool)
    return reflected ? run(mul, y, self, nMul) : run(mul, self, y, nMul);
  Tensor x = cast_to(self, DType::kInt32);
  y = cast_to(y, DType::kInt32);
  return cast_to(reflected ? run(mul, y, x, nMul) : run(mul, x, y, nMul), DType::kBool);
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

// `==` / `!=`: elementwise; None and operands that cannot be broadcast compare unequal (TF's
// incompatible_shape_error=False behaviour); a value that does not convert raises, as in TF.
py::object equality(const Tensor& self, py::handle other, bool equal) {
  if (other.is_none()) return py::bool_(!equal);
  const OpDef& op = equal ? op_named<kEqual>() : op_named<kNotEqual>();
  Tensor y = to_operand(other, self->dtype(), true, op, "", 1);
  try {
    return py::cast(run(op, self, y));
  } catch (const OpError& e) {
    if (e.code() != Code::kInvalidArgument) throw;
    if (self->dtype() != y->dtype()) throw;
    return py::cast(TensorImpl::scalar<bool>(!equal));
  }
}

Tensor mul_forward(const Tensor& s, py::handle o) { return multiply(s, o, false); }
Tensor truediv_forward(const Tensor& s, py::handle o) { return truediv(s, to_tensor(o, s->dtype())); }
Tensor and_forward(const Tensor& s, py::handle o) {
  return logic_or_bitwise<kLogicalAnd, kBitwiseAnd, nAnd>(s, exact(o, s));
}
Tensor or_forward(const Tensor& s, py::handle o) { return logic_or_bitwise<kLogicalOr, kBitwiseOr, nOr>(s, exact(o, s)); }
Tensor xor_forward(const Tensor& s, py::handle o) { return xor_op(s, exact(o, s)); }

// The reflected operator of `other` applied to `self`, or null where `other` has none, returns
// NotImplemented or raises TypeError/ValueError. (TF asks hasattr(type(other), ...), which the
// metaclass answers for `type.__ror__`, and leaks an AttributeError for `t | 2.5`.)
py::object try_reflected(const Tensor& self, py::handle other, const char* name) {
  // A tensor's reflected operator would fail the same way (and take another node name).
  if (PyObject_TypeCheck(other.ptr(), g_tensor_type)) return py::object();
  py::object method = py::reinterpret_steal<py::object>(PyObject_GetAttrString(other.ptr(), name));
  if (!method) {
    PyErr_Clear();
    return py::object();
  }
  try {
    py::object r = method(py::cast(self));
    return r.ptr() == Py_NotImplemented ? py::object() : r;
  } catch (py::error_already_set& e) {
    if (e.matches(PyExc_TypeError) || e.matches(PyExc_ValueError)) return py::object();
    throw;
  } catch (const TypeError&) {
    return py::object();
  } catch (const ValueError&) {
    return py::object();
  }
}

// A forward operator as TF's binary_op_wrapper: when the other operand cannot take part
// (TypeError or ValueError) and its type defines the reflected operator, that answers instead
// (a tensor-aware object; `t * [1, 2.5]` repeats the list); otherwise the first error stands.
template <const char* Reflected, Tensor (*Op)(const Tensor&, py::handle)>
struct Forward {
  static py::object call(const Tensor& self, py::handle other) {
    try {
      return py::cast(Op(self, other));
    } catch (py::error_already_set& e) {
      if (!e.matches(PyExc_TypeError) && !e.matches(PyExc_ValueError)) throw;
      if (py::object r = try_reflected(self, other, Reflected)) return r;
      throw;
    } catch (const TypeError&) {
      if (py::object r = try_reflected(self, other, Reflected)) return r;
      throw;
    } catch (const ValueError&) {
      if (py::object r = try_reflected(self, other, Reflected)) return r;
      throw;
    }
  }
};

constexpr char kRAdd[] = "__radd__", kRSub[] = "__rsub__", kRMul[] = "__rmul__", kRFloorDiv[] = "__rfloordiv__",
               kRMod[] = "__rmod__", kRPow[] = "__rpow__", kRTrueDiv[] = "__rtruediv__", kRAnd[] = "__rand__",
               kROr[] = "__ror__", kRXor[] = "__rxor__";

}  // namespace

Tensor cast_to(const Tensor& x, DType dtype) {  // through execute(): works in graphs too
  static const OpDef& cast = get_op("Cast");
  if (x->dtype() == dtype) return x;
  Attrs a;
  a.set("DstT", dtype);
  return execute1(cast, {x}, a, "Cast");
}

void bind_operators(py::module_& m, py::class_<TensorImpl, std::shared_ptr<TensorImpl>>& cls) {
  m.def("cast", [](const Tensor& x, int dtype) { return cast_to(x, static_cast<DType>(dtype)); });
  m.def("truediv", [](const Tensor& x, py::handle y) { return truediv(x, to_tensor(y, x->dtype())); });
  cls.def("__add__", &Forward<kRAdd, BinaryOp<kAdd, nAdd, false>::forward>::call, py::is_operator())
      .def("__radd__", &BinaryOp<kAdd, nAdd, false>::reflected, py::is_operator())
      .def("__sub__", &Forward<kRSub, BinaryOp<kSub, nSub>::forward>::call, py::is_operator())
      .def("__rsub__", &BinaryOp<kSub, nSub>::reflected, py::is_operator())
      .def("__mul__", &Forward<kRMul, mul_forward>::call, py::is_operator())
      .def("__rmul__", [](const Tensor& s, py::handle o) { return multiply(s, o, true); }, py::is_operator())
      .def("__floordiv__", &Forward<kRFloorDiv, BinaryOp<kFloorDiv, nFloorDiv>::forward>::call, py::is_operator())
      .def("__rfloordiv__", &BinaryOp<kFloorDiv, nFloorDiv>::reflected, py::is_operator())
      .def("__mod__", &Forward<kRMod, BinaryOp<kFloorMod, nMod>::forward>::call, py::is_operator())
      .def("__rmod__", &BinaryOp<kFloorMod, nMod>::reflected, py::is_operator())
      .def("__pow__", [](const Tensor& s, py::handle o) { return Forward<kRPow, BinaryOp<kPow, nPow>::forward>::call(s, o); },
           py::is_operator())
      .def("__rpow__", [](const Tensor& s, py::handle o) { return BinaryOp<kPow, nPow>::reflected(s, o); }, py::is_operator())
      .def("__lt__", &BinaryOp<kLess>::forward, py::is_operator())
      .def("__le__", &BinaryOp<kLessEqual>::forward, py::is_operator())
      .def("__gt__", &BinaryOp<kGreater>::forward, py::is_operator())
      .def("__ge__", &BinaryOp<kGreaterEqual>::forward, py::is_operator())
      .def("__eq__", [](const Tensor& s, py::handle o) { return equality(s, o, true); }, py::is_operator())
      .def("__ne__", [](const Tensor& s, py::handle o) { return equality(s, o, false); }, py::is_operator())
      .def("__truediv__", &Forward<kRTrueDiv, truediv_forward>::call, py::is_operator())
      .def("__rtruediv__", [](const Tensor& s, py::handle o) { return truediv(exact(o, s), s); },
           py::is_operator())
      .def("__and__", &Forward<kRAnd, and_forward>::call, py::is_operator())
      .def("__rand__", [](const Tensor& s, py::handle o) {
        return logic_or_bitwise<kLogicalAnd, kBitwiseAnd, nAnd>(exact(o, s), s);
      }, py::is_operator())
      .def("__or__", &Forward<kROr, or_forward>::call, py::is_operator())
      .def("__ror__", [](const Tensor& s, py::handle o) {
        return logic_or_bitwise<kLogicalOr, kBitwiseOr, nOr>(exact(o, s), s);
      }, py::is_operator())
      .def("__xor__", &Forward<kRXor, xor_forward>::call, py::is_operator())
      .def("__rxor__", [](const Tensor& s, py::handle o) { return xor_op(exact(o, s), s); },
           py::is_operator())
      .def("__neg__", [](const Tensor& s) { return run1(op_named<kNeg>(), s); })
      .def("__abs__", [](const Tensor& s) {  // complex: the float magnitude, as tf.abs
        return run1(dtype_is_complex(s->dtype()) ? op_named<kComplexAbs>() : op_named<kAbs>(), s);
      })
      .def("__invert__", [](const Tensor& s) {
        return run1(s->dtype() == DType::kBool ? op_named<kLogicalNot>() : op_named<kInvert>(), s);
      });;
  cls.attr("__array_priority__") = 100;
}

}  // namespace ef
