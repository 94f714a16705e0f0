// Op bindings: execute(op, inputs, attrs) for Python wrappers, and registry introspection.
#include <pybind11/stl.h>

#include "bindings/bindings.h"
#include "bindings/convert.h"
#include "core/errors.h"
#include "eager/context.h"
#include "eager/execute.h"
#include "graph/function.h"
#include "graph/graph.h"

namespace ef {

namespace {

constexpr int64_t kReleaseGilElements = int64_t(1) << 15;

// Python ints, floats and strings as attr values; values a C++ attr cannot hold are ValueError
// (TF: "int too big to convert"), not pybind11 cast errors.
int64_t attr_int(py::handle v) {
  int overflow = 0;
  long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (overflow) throw ValueError("int too big to convert");
  if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
  return x;
}

double attr_float(py::handle v) {
  double d = PyFloat_AsDouble(v.ptr());
  if (d == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    throw ValueError("int too big to convert");
  }
  return d;
}

std::string attr_string(py::handle v) {
  char* buf;
  Py_ssize_t n;
  if (PyBytes_Check(v.ptr())) {
    PyBytes_AsStringAndSize(v.ptr(), &buf, &n);
    return std::string(buf, n);
  }
  const char* utf8 = PyUnicode_AsUTF8AndSize(v.ptr(), &n);
  if (!utf8) {
    PyErr_Clear();
    throw ValueError("Error converting unicode string while converting Python sequence to Tensor.");
  }
  return std::string(utf8, n);
}

// NumPy scalars and arrays are attr values by value (tolist gives native Python numbers, whatever
// the array's byte order).
bool is_numpy_value(py::handle v) {
  PyObject* o = v.ptr();
  if (o == Py_None || PyLong_CheckExact(o) || PyFloat_CheckExact(o) || PyUnicode_Check(o) || PyList_Check(o) ||
      PyTuple_Check(o))
    return false;
  return py::isinstance<py::array>(v) || (!PyType_Check(v.ptr()) && PyObject_HasAttrString(v.ptr(), "dtype") &&
                                          PyObject_HasAttrString(v.ptr(), "item") && !py::hasattr(v, "_type_enum") &&
                                          !PyObject_TypeCheck(v.ptr(), g_tensor_type));
}

AttrValue attr_from_python(py::handle v) {
  if (v.is_none()) return std::monostate();
  if (PyBool_Check(v.ptr())) return v.ptr() == Py_True;
  if (PyLong_Check(v.ptr())) return attr_int(v);
  if (PyFloat_Check(v.ptr())) return attr_float(v);
  if (PyUnicode_Check(v.ptr()) || PyBytes_Check(v.ptr())) return attr_string(v);
  if (py::hasattr(v, "_type_enum")) return static_cast<DType>(v.attr("_type_enum").cast<int>());
  if (PyObject_TypeCheck(v.ptr(), g_tensor_type)) return v.cast<Tensor>();
  if (py::isinstance<GraphFunction>(v)) return v.cast<FunctionPtr>();
  if (is_numpy_value(v)) {
    py::object native = v.attr("tolist")();
    // longdouble and other scalars without a Python equivalent stay NumPy values: refuse them.
    if (is_numpy_value(native))
      throw TypeError(str_cat("Unsupported attribute value: ", py::repr(v).cast<std::string>()));
    return attr_from_python(native);
  }
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    py::list seq;
    for (py::handle x : py::reinterpret_borrow<py::sequence>(v)) seq.append(is_numpy_value(x) ? x.attr("tolist")() : x);
    // Lists of dtypes (Tout) and of shapes (output_shapes: dims lists or None for unknown rank).
    bool all_dtype = seq.size() > 0, all_shape = seq.size() > 0;
    for (py::handle x : seq) {
      all_dtype &= py::hasattr(x, "_type_enum");
      all_shape &= x.is_none() || py::isinstance<py::list>(x) || py::isinstance<py::tuple>(x);
    }
    if (all_dtype) {
      std::vector<DType> out;
      for (py::handle x : seq) out.push_back(static_cast<DType>(x.attr("_type_enum").cast<int>()));
      return out;
    }
    if (all_shape) {
      std::vector<Shape> out;
      for (py::handle x : seq) {
        if (x.is_none()) {
          out.push_back(Shape::unknown_rank());
          continue;
        }
        std::vector<int64_t> dims;
        for (py::handle d : py::reinterpret_borrow<py::sequence>(x)) dims.push_back(d.is_none() ? -1 : attr_int(d));
        out.push_back(Shape(dims));
      }
      return out;
    }
    bool all_int = true, all_num = true, all_str = true;
    for (py::handle x : seq) {
      bool is_int = PyLong_Check(x.ptr()) || x.is_none();
      all_int &= is_int;
      all_num &= is_int || PyFloat_Check(x.ptr());
      all_str &= PyUnicode_Check(x.ptr()) || PyBytes_Check(x.ptr());
    }
    if (all_int) {
      std::vector<int64_t> out;
      for (py::handle x : seq) out.push_back(x.is_none() ? -1 : attr_int(x));
      return out;
    }
    if (all_num) {
      std::vector<double> out;
      for (py::handle x : seq) out.push_back(attr_float(x));
      return out;
    }
    if (all_str) {
      std::vector<std::string> out;
      for (py::handle x : seq) out.push_back(attr_string(x));
      return out;
    }
  }
  throw TypeError(str_cat("Unsupported attribute value: ", py::repr(v).cast<std::string>()));
}


std::vector<Tensor> inputs_from_python(py::handle inputs) {
  if (!PyList_Check(inputs.ptr()) && !PyTuple_Check(inputs.ptr()))
    throw TypeError(str_cat("An op's inputs must be a list or tuple, got ",
                            py::type::handle_of(inputs).attr("__name__").cast<std::string>()));
  std::vector<Tensor> out;
  for (py::handle x : py::reinterpret_borrow<py::sequence>(inputs)) out.push_back(to_tensor(x));
  return out;
}

// An op's `name`: eager ops have none (TF ignores the argument); graph nodes take a str or bytes
// that is a valid scope name, as TF's name_scope requires.
std::string graph_node_name(py::handle name) {
  if (name.is_none() || !thread_context().graph) return std::string();
  if (!PyUnicode_Check(name.ptr()) && !PyBytes_Check(name.ptr()))
    throw TypeError(str_cat("expected string or bytes-like object, got '",
                            py::type::handle_of(name).attr("__name__").cast<std::string>(), "'"));
  std::string s = attr_string(name);
  check_node_name(s);
  return s;
}

std::vector<Tensor> execute_maybe_released(const OpDef& op, const std::vector<Tensor>& in, const Attrs& attrs,
                                           py::handle name) {
  std::string node_name = graph_node_name(name);
  int64_t total = 0;
  for (const Tensor& t : in) total += t->num_elements() > 0 ? t->num_elements() : 0;
  if (total >= kReleaseGilElements) {
    py::gil_scoped_release release;
    return execute(op, in, attrs, node_name);
  }
  return execute(op, in, attrs, node_name);
}

}  // namespace

Attrs attrs_from_python(py::handle attrs) {
  Attrs a;
  if (attrs.is_none()) return a;
  if (py::isinstance<Attrs>(attrs)) return attrs.cast<const Attrs&>();
  for (auto kv : py::reinterpret_borrow<py::dict>(attrs)) a.set(attr_string(kv.first), attr_from_python(kv.second));
  return a;
}

void init_ops(py::module_& m) {
  py::class_<OpDef>(m, "OpDef")
      .def_readonly("name", &OpDef::name)
      .def_readonly("inputs", &OpDef::inputs)
      .def_readonly("attrs", &OpDef::attrs)
      .def_readonly("stateful", &OpDef::stateful)
      .def_readonly("elementwise", &OpDef::elementwise)
      .def_readonly("input_types", &OpDef::input_types)
      .def_property_readonly("type_attr_names", [](const OpDef& d) {
        std::vector<std::string> names;
        for (const TypeAttr& t : d.type_attrs) names.push_back(t.name);
        return names;
      })
      .def_readonly("has_signature", &OpDef::has_signature)
      .def_readonly("signature_error", &OpDef::signature_error)
      .def_property_readonly("has_infer", [](const OpDef& d) { return d.infer != nullptr; })
      .def_property_readonly("has_cpu_kernel", [](const OpDef& d) { return d.kernels[0] != nullptr; })
      // {type attr: [DataType enum values its kernels take]}, for tests that iterate dtypes.
      .def_property_readonly("kernel_dtypes",
                             [](const OpDef& d) {
                               py::dict out;
                               for (const TypeAttr& a : d.type_attrs) {
                                 py::list l;
                                 for (int v = 1; v < 32; ++v)
                                   if (a.kernels & (uint32_t(1) << v)) l.append(v);
                                 out[py::str(a.name)] = l;
                               }
                               return out;
                             })
      .def("__repr__", [](const OpDef& d) { return "<OpDef " + d.name + ">"; });

  // Attrs converted once, for a call made many times (IteratorGetNext per element): execute takes
  // it in place of a dict and skips the conversion.
  py::class_<Attrs>(m, "Attrs").def(py::init([](py::handle d) { return attrs_from_python(d); }));

  m.def("get_op", &get_op, py::return_value_policy::reference);
  m.def("list_ops", &all_ops, py::return_value_policy::reference);

  // The generic entry used by every Python op wrapper: returns the list of outputs.
  m.def("execute", [](const OpDef& op, py::handle inputs, py::handle attrs, py::handle name) {
    std::vector<Tensor> in = inputs_from_python(inputs);
    if (py::isinstance<Attrs>(attrs)) return execute_maybe_released(op, in, attrs.cast<const Attrs&>(), name);
    return execute_maybe_released(op, in, attrs_from_python(attrs), name);
  }, py::arg("op"), py::arg("inputs"), py::arg("attrs") = py::none(), py::arg("name") = py::none());
  // Single-output form (most ops): returns the tensor itself.
  m.def("execute1", [](const OpDef& op, py::handle inputs, py::handle attrs, py::handle name) {
    std::vector<Tensor> in = inputs_from_python(inputs);
    std::vector<Tensor> out = execute_maybe_released(op, in, attrs_from_python(attrs), name);
    if (out.size() != 1) throw_error(Code::kInternal, op.name, " returned ", out.size(), " outputs");
    return out[0];
  }, py::arg("op"), py::arg("inputs"), py::arg("attrs") = py::none(), py::arg("name") = py::none());
  // Shape/dtype inference on concrete inputs: [(dtype_enum, dims-or-None), ...].
  m.def("infer", [](const OpDef& op, py::handle inputs, py::handle attrs) {
    InferContext ic = infer(op, inputs_from_python(inputs), attrs_from_python(attrs));
    py::list out;
    for (size_t i = 0; i < ic.out_dtypes.size(); ++i) {
      py::object dims = ic.out_shapes[i].rank_known() ? py::object(py::cast(ic.out_shapes[i].to_vector()))
                                                      : py::object(py::none());
      out.append(py::make_tuple(static_cast<int>(ic.out_dtypes[i]), dims));
    }
    return out;
  });
}

}  // namespace ef
