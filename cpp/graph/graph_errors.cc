// Graph-build inference errors in TF's graph-mode form. Eager kernels and infer functions raise
// InvalidArgument with the eager text; while building a graph TF raises TypeError for dtype
// mismatches (op_def_library) and ValueError for shape errors, naming the node:
//   Dimensions must be equal, but are 3 and 2 for '{{node add}} = AddV2[T=DT_INT32](a, b)'
//   with input shapes: [3], [2].
#include "graph/graph_errors.h"

#include <cstdio>

#include <algorithm>
#include <cctype>

#include "graph/graph.h"

namespace ef {

namespace {

bool starts_with(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }

// "float" -> "float32": the Python dtype name for TF's internal spelling.
std::string py_type(const std::string& tf_name) {
  if (tf_name == "half") return "float16";
  if (tf_name == "float") return "float32";
  if (tf_name == "double") return "float64";
  return tf_name;
}


// "[?,3]" as TF's shape inference prints shapes.
std::string shape_str(const Shape& s) {
  if (!s.rank_known()) return "?";
  std::string out = "[";
  for (int i = 0; i < s.rank(); ++i) {
    if (i) out += ",";
    out += s[i] < 0 ? "?" : std::to_string(s[i]);
  }
  return out + "]";
}

// The name of the op input that position `i` of the flat input list belongs to (one name may
// be a variadic list, marked "name*"), and the flat range [first, last) of that list.
std::string input_arg(const OpDef& op, size_t num_inputs, size_t i, size_t* first = nullptr,
                      size_t* last = nullptr) {
  size_t pos = 0;
  const size_t fixed = op.inputs.empty() ? 0 : op.inputs.size() - 1;
  for (const std::string& n : op.inputs) {
    const bool list = !n.empty() && n.back() == '*';
    const size_t count = list ? (num_inputs > fixed ? num_inputs - fixed : 0) : 1;
    if (i < pos + count) {
      if (first) *first = pos;
      if (last) *last = pos + count;
      return list ? n.substr(0, n.size() - 1) : n;
    }
    pos += count;
  }
  if (first) *first = i;
  if (last) *last = i + 1;
  return str_cat("input_", i);
}

std::string node_text(const InferContext& ic, const std::string& node_name, const std::vector<std::string>& ins) {
  std::string attrs;
  bool has_t = false;
  for (const auto& kv : ic.attrs.items()) {
    std::string v;
    if (auto* d = std::get_if<DType>(&kv.second)) {
      v = dtype_enum_name(*d);
    } else if (auto* b = std::get_if<bool>(&kv.second)) {
      v = *b ? "true" : "false";
    } else if (auto* n = std::get_if<int64_t>(&kv.second)) {
      v = std::to_string(*n);
    } else if (auto* s = std::get_if<std::string>(&kv.second)) {
      v = "\"" + *s + "\"";
    } else {
      continue;  // tensors, lists, shapes: TF prints them too, but they add nothing here
    }
    has_t |= kv.first == "T";
    attrs += (attrs.empty() ? "" : ", ") + kv.first + "=" + v;
  }
  if (!has_t && !ic.dtypes.empty()) attrs = "T=" + dtype_enum_name(ic.dtypes[0]) + (attrs.empty() ? "" : ", ") + attrs;
  std::string inputs;
  for (const std::string& n : ins) inputs += (inputs.empty() ? "" : ", ") + n;
  return str_cat("'{{node ", node_name, "}} = ", ic.op.name, "[", attrs, "](", inputs, ")'");
}

// TF's graph-mode text for a broadcast failure: the first pair of unequal dimensions.
std::string broadcast_text(const Shape& a, const Shape& b) {
  const int r = std::max(a.rank(), b.rank());
  for (int i = 0; i < r; ++i) {
    int ia = a.rank() - r + i, ib = b.rank() - r + i;
    int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da != db && da != 1 && db != 1 && da >= 0 && db >= 0)
      return str_cat("Dimensions must be equal, but are ", da, " and ", db);
  }
  return "Incompatible shapes";
}

// TF's graph-mode text for a matmul whose inner dimensions differ.
std::string matmul_text(const InferContext& ic) {
  const Shape &a = ic.shapes[0], &b = ic.shapes[1];
  if (a.rank() < 2 || b.rank() < 2) return "Shape must be at least rank 2";
  const bool ta = ic.attrs.get<bool>("transpose_a", false) || ic.attrs.get<bool>("adj_x", false);
  const bool tb = ic.attrs.get<bool>("transpose_b", false) || ic.attrs.get<bool>("adj_y", false);
  const int64_t ka = ta ? a[a.rank() - 2] : a[a.rank() - 1], kb = tb ? b[b.rank() - 1] : b[b.rank() - 2];
  return str_cat("Dimensions must be equal, but are ", ka, " and ", kb);
}

}  // namespace

void rethrow_infer_error(const OpError& e, const InferContext& ic, const std::string& node_name,
                         const std::vector<std::string>& input_names) {
  if (e.code() != Code::kInvalidArgument) throw e;
  const std::string msg = e.what();
  const OpDef& op = ic.op;
  const size_t n = ic.dtypes.size();
  // check_same_dtype: "cannot compute AddV2 as input #1(zero-based) was expected to be a int32 ..."
  const std::string exp_tag = "was expected to be a ";
  size_t at = msg.find("as input #");
  size_t ep = msg.find(exp_tag);
  if (starts_with(msg, "cannot compute ") && at != std::string::npos && ep != std::string::npos) {
    const size_t i = std::stoul(msg.substr(at + 10));
    const size_t ee = msg.find(" tensor", ep);
    const std::string expected = msg.substr(ep + exp_tag.size(), ee - ep - exp_tag.size());
    const std::string got = i < n ? dtype_name(ic.dtypes[i]) : "?";
    size_t first = 0, last = 0;
    const std::string arg = input_arg(op, n, i, &first, &last);
    if (last - first > 1 && i > first) {
      std::string types;
      for (size_t k = first; k < last && k < n; ++k) types += (types.empty() ? "" : ", ") + std::string(dtype_name(ic.dtypes[k]));
      throw TypeError(str_cat("Tensors in list passed to '", arg, "' of '", op.name, "' Op have types [", types,
                              "] that don't all match."));
    }
    for (size_t j = 0; j < i && j < n; ++j) {
      if (tf_type_string(ic.dtypes[j]) == expected) {
        throw TypeError(str_cat("Input '", arg, "' of '", op.name, "' Op has type ", got,
                                " that does not match type ", dtype_name(ic.dtypes[j]), " of argument '",
                                input_arg(op, n, j), "'."));
      }
    }
    throw TypeError(str_cat("Value passed to parameter '", arg, "' has DataType ", got,
                            " not in list of allowed values: ", py_type(expected)));
  }
  // check_type: "Value for attr 'T' of string is not in the list of allowed values: half, ..."
  const std::string allowed_tag = "is not in the list of allowed values: ";
  size_t al = msg.find(allowed_tag);
  if (starts_with(msg, "Value for attr ") && al != std::string::npos) {
    std::string rest = msg.substr(al + allowed_tag.size());
    rest = rest.substr(0, rest.find('\n'));
    std::string allowed, item;
    for (size_t k = 0; k <= rest.size(); ++k) {
      if (k == rest.size() || rest[k] == ',') {
        while (!item.empty() && item.front() == ' ') item.erase(0, 1);
        if (!item.empty()) allowed += (allowed.empty() ? "" : ", ") + py_type(item);
        item.clear();
      } else {
        item += rest[k];
      }
    }
    const size_t of = msg.find(" of ");
    const std::string got = msg.substr(of + 4, al - 1 - (of + 4));
    // The parameter: the first input the attr types, else the attr itself (dtype, DstT).
    const std::string attr = msg.substr(16, msg.find('\'', 16) - 16);
    std::string param = attr;
    for (size_t k = 0; k < op.input_types.size(); ++k) {
      if (op.input_types[k] != attr) continue;
      param = op.inputs[k].back() == '*' ? op.inputs[k].substr(0, op.inputs[k].size() - 1) : op.inputs[k];
      break;
    }
    if (op.input_types.empty()) param = input_arg(op, n, 0);
    throw TypeError(str_cat("Value passed to parameter '", param, "' has DataType ", py_type(got),
                            " not in list of allowed values: ", allowed));
  }
  std::string text = msg;
  if (starts_with(msg, "Incompatible shapes:") && n >= 2) text = broadcast_text(ic.shapes[0], ic.shapes[1]);
  if (starts_with(msg, "Matrix size-incompatible") && n >= 2) text = matmul_text(ic);
  std::string shapes;
  for (const Shape& s : ic.shapes) shapes += (shapes.empty() ? "" : ", ") + shape_str(s);
  throw ValueError(str_cat(text, " for ", node_text(ic, node_name, input_names), " with input shapes: ", shapes,
                           "."));
}

std::string out_of_scope_message(const TensorImpl& t) {
  const std::string r = symbolic_repr(t);
  const Graph* g = t.graph();
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(g)));
  const std::string where = g->name.empty() ? str_cat("<eagerflow.Graph object at ", addr, ">")
                                            : str_cat("FuncGraph(name=", g->name, ", id=", reinterpret_cast<uintptr_t>(g), ")");
  return str_cat(r, " is out of scope and cannot be used here. Use return values, explicit Python locals or "
                 "TensorFlow collections to access it.\nPlease see "
                 "https://www.tensorflow.org/guide/function#all_outputs_of_a_tffunction_must_be_return_values for more "
                 "information.\n\nThe tensor ", r, " cannot be accessed from here, because it was defined in ", where,
                 ", which is out of scope.");
}

}  // namespace ef
