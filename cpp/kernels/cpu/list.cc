// CPU kernels of the TensorList ops. A list tensor is a variant scalar holding a TensorList.
// Lists are values: an op that "modifies" a list returns a new list tensor. When the kernel holds
// the only reference to both the input tensor and its list (the graph executor moved the slot into
// its last reader) it updates the list in place, so a loop writing n elements costs O(n), not
// O(n^2); otherwise it copies the element pointers (never the element data).
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/errors.h"
#include "kernels/cpu/tensor_list.h"
#include "ops/registry.h"
#include "ops/run_kernel.h"

namespace ef {

Tensor zeros_like_tensor_list(const TensorImpl& t) {
  const TensorList* l = t.dtype() == DType::kVariant && t.rank() == 0 ? t.resource<TensorList>() : nullptr;
  if (!l) throw_error(Code::kInvalidArgument, "ZerosLike of a variant needs a TensorList");
  auto out = std::make_shared<TensorList>();
  out->element_dtype = l->element_dtype;
  out->element_shape = l->element_shape;
  out->max_num_elements = l->max_num_elements;
  out->elements.resize(l->elements.size());
  return TensorImpl::variant(std::move(out));
}

Tensor add_tensor_lists(const std::vector<Tensor>& lists) {
  std::vector<const TensorList*> ls;
  for (const Tensor& t : lists) {
    const TensorList* l = t->dtype() == DType::kVariant && t->rank() == 0 ? t->resource<TensorList>() : nullptr;
    if (!l) throw_error(Code::kInvalidArgument, "AddN of variants needs TensorList inputs");
    ls.push_back(l);
  }
  const TensorList& first = *ls[0];
  for (const TensorList* l : ls) {
    if (l->element_dtype != first.element_dtype)
      throw_error(Code::kInvalidArgument, "Trying to add two lists of tensors of different dtypes. One is ",
                  tf_type_string(first.element_dtype), " and the other is ", tf_type_string(l->element_dtype));
    if (l->elements.size() != first.elements.size())
      throw_error(Code::kInvalidArgument, "Trying to add two lists of tensors with different lengths. One is ",
                  first.elements.size(), " and the other is ", l->elements.size());
  }
  auto out = std::make_shared<TensorList>();
  out->element_dtype = first.element_dtype;
  out->element_shape = first.element_shape;
  out->elements.resize(first.elements.size());
  const OpDef& add = get_op("AddN");
  std::vector<Tensor> set;
  for (size_t i = 0; i < first.elements.size(); ++i) {
    set.clear();
    for (const TensorList* l : ls)
      if (l->elements[i]) set.push_back(l->elements[i]);
    if (set.size() == 1) out->elements.set(i, set[0]);
    if (set.size() > 1) out->elements.set(i, run_kernel(add, select_kernel(add), set, Attrs())[0]);
  }
  return TensorImpl::variant(std::move(out));
}

namespace {

const TensorList& input_list(const KernelContext& c, size_t i) {
  const Tensor& t = c.input(i);
  const TensorList* l = t->dtype() == DType::kVariant && t->rank() == 0 ? t->resource<TensorList>() : nullptr;
  if (!l)
    throw_error(Code::kInvalidArgument, "Input handle is not a list. Saw: '", dtype_name(t->dtype()), " tensor of shape ",
                t->shape().to_list_string(), "'");
  return *l;
}

// The list a kernel may update and the tensor that carries it out: the input itself when nothing
// else can see it, else a fresh copy. A borrowed input (use_count 0) counts as shared.
std::pair<TensorList*, Tensor> writable_list(const KernelContext& c, size_t i) {
  input_list(c, i);
  const Tensor& t = c.input(i);
  TensorList* l = t->resource<TensorList>();
  if (t.use_count() == 1 && l->weak_from_this().use_count() == 1) return {l, t};
  auto copy = std::make_shared<TensorList>(*l);
  TensorList* raw = copy.get();
  return {raw, TensorImpl::variant(std::move(copy))};
}

Tensor new_list_tensor(std::shared_ptr<TensorList> l) { return TensorImpl::variant(std::move(l)); }

void check_list_dtype(const TensorList& l, DType op_dtype) {
  if (l.element_dtype != op_dtype)
    throw_error(Code::kInvalidArgument, "Invalid data types; op elements ", tf_type_string(op_dtype),
                " but list elements ", tf_type_string(l.element_dtype));
}

void check_element_type(DType t) {
  if (t != DType::kString && dtype_size(t) == 0)
    throw_error(Code::kUnimplemented, "TensorList elements of dtype ", dtype_name(t), " are not supported");
}

int64_t scalar_index(const KernelContext& c, size_t i, const char* what) {
  const TensorImpl& t = *c.input(i);
  if (t.dtype() != DType::kInt32 && t.dtype() != DType::kInt64)
    throw_error(Code::kInvalidArgument, what, " must be an int32 tensor, got ", dtype_name(t.dtype()));
  if (t.num_elements() != 1)
    throw_error(Code::kInvalidArgument, what, " must be a scalar, got shape ", t.shape().to_list_string());
  const int64_t v = tensor_int_at(t, 0);
  // TF's list indices and sizes are int32: larger ones could only exhaust memory.
  if (v > INT32_MAX) throw_error(Code::kInvalidArgument, what, " ", v, " is out of the int32 range");
  return v;
}

Shape merged(const Shape& a, const Shape& b) {
  Shape m;
  if (!merge_shapes(a, b, &m)) {
    if (a.rank() != b.rank())
      throw_error(Code::kInvalidArgument, "Incompatible ranks during merge: ", a.rank(), " vs. ", b.rank());
    throw_error(Code::kInvalidArgument, "Incompatible shapes during merge: ", partial_shape_string(a), " vs. ",
                partial_shape_string(b));
  }
  return m;
}

// The element shape a reader materializes unset elements with: the list's and the op's shapes
// merged, completed from the set elements when still partial.
Shape resolve_element_shape(const TensorList& l, const Shape& requested) {
  Shape s = merged(l.element_shape, requested);
  if (s.fully_defined()) return s;
  for (size_t i = 0; i < l.elements.size(); ++i)
    if (const Tensor& e = l.elements[i]) s = merged(s, e->shape());
  return s;
}

bool any_set(const TensorList& l) {
  for (size_t i = 0; i < l.elements.size(); ++i)
    if (l.elements[i]) return true;
  return false;
}

// Copies n elements of src (from src_off) into dst (at dst_off); strings copy their objects.
void copy_elements(const TensorImpl& src, int64_t src_off, TensorImpl& dst, int64_t dst_off, int64_t n) {
  if (n <= 0) return;
  if (src.dtype() == DType::kString) {
    std::copy_n(src.data<std::string>() + src_off, n, dst.data<std::string>() + dst_off);
    return;
  }
  const size_t w = dtype_size(src.dtype());
  std::memcpy(static_cast<char*>(dst.raw_data()) + dst_off * w, static_cast<const char*>(src.raw_data()) + src_off * w,
              static_cast<size_t>(n) * w);
}

void zero_elements(TensorImpl& dst, int64_t off, int64_t n) {
  if (n <= 0) return;
  if (dst.dtype() == DType::kString) {
    std::fill_n(dst.data<std::string>() + off, n, std::string());
    return;
  }
  const size_t w = dtype_size(dst.dtype());
  std::memset(static_cast<char*>(dst.raw_data()) + off * w, 0, static_cast<size_t>(n) * w);
}

// Row `r` of `t` (leading dim) as its own tensor.
Tensor row_of(const TensorImpl& t, int64_t r, const Shape& row_shape) {
  const int64_t n = row_shape.num_elements();
  Tensor out = TensorImpl::empty(t.dtype(), row_shape);
  copy_elements(t, r * n, *out, 0, n);
  return out;
}

Shape rows_shape(const Shape& s) {
  Shape e = s;
  e.erase(0);
  return e;
}

void check_item_shape(const TensorList& l, const Shape& item, const char* prefix) {
  Shape m;
  if (!merge_shapes(l.element_shape, item, &m))
    throw_error(Code::kInvalidArgument, prefix, partial_shape_string(item), " list shape: ",
                partial_shape_string(l.element_shape));
}

// Stacks the elements at `indices` into one [len(indices)] + element_shape tensor.
void stack_elements(KernelContext& c, const TensorList& l, const std::vector<int64_t>& indices, const Shape& requested,
                    bool gather) {
  check_element_type(l.element_dtype);
  Shape es = merged(l.element_shape, requested);
  for (int64_t i : indices)
    if (l.elements[i]) es = merged(es, l.elements[i]->shape());
  if (!es.fully_defined()) {
    if (l.elements.empty())
      throw_error(Code::kInvalidArgument, "Tried to ", gather ? "gather" : "stack",
                  " elements of an empty list with non-fully-defined element_shape: ", partial_shape_string(es));
    throw_error(Code::kInvalidArgument, "Tried to ", gather ? "gather" : "stack",
                " list which only contains uninitialized tensors and has a non-fully-defined element_shape: ",
                partial_shape_string(es));
  }
  Shape out_shape = es;
  out_shape.insert(0, static_cast<int64_t>(indices.size()));
  TensorImpl* out = c.allocate_output(0, l.element_dtype, out_shape);
  const int64_t n = es.num_elements();
  for (size_t k = 0; k < indices.size(); ++k) {
    const Tensor& e = l.elements[indices[k]];
    if (e) copy_elements(*e, 0, *out, static_cast<int64_t>(k) * n, n);
    else zero_elements(*out, static_cast<int64_t>(k) * n, n);
  }
}

Tensor element_or_zeros(const TensorList& l, int64_t i, const Shape& requested) {
  if (l.elements[i]) return l.elements[i];
  Shape s = resolve_element_shape(l, requested);
  if (!s.fully_defined())
    throw_error(Code::kInvalidArgument, "Trying to read an uninitialized tensor but element_shape is not fully defined: ",
                partial_shape_string(s), any_set(l) ? "" : " and no list element is set.");
  check_element_type(l.element_dtype);
  return TensorImpl::zeros(l.element_dtype, s);
}

// ---- construction ----

std::shared_ptr<TensorList> make_list(const KernelContext& c, size_t shape_input) {
  auto l = std::make_shared<TensorList>();
  l->element_dtype = c.attrs.get<DType>("element_dtype");
  l->element_shape = shape_from_tensor(*c.input(shape_input));
  return l;
}

void empty_tensor_list(KernelContext& c) {
  auto l = make_list(c, 0);
  l->max_num_elements = scalar_index(c, 1, "max_num_elements");
  c.set_output(0, new_list_tensor(std::move(l)));
}

void reserve(KernelContext& c) {
  auto l = make_list(c, 0);
  const int64_t n = scalar_index(c, 1, "num_elements");
  if (n < 0) throw_error(Code::kInvalidArgument, "The num_elements to reserve must be a non negative number, but got ", n);
  l->elements.resize(static_cast<size_t>(n));
  c.set_output(0, new_list_tensor(std::move(l)));
}

void from_tensor(KernelContext& c) {
  const TensorImpl& t = *c.input(0);
  auto l = make_list(c, 1);
  check_list_dtype(*l, t.dtype());
  if (t.rank() < 1)
    throw_error(Code::kInvalidArgument, "Tensor must be at least a vector, but saw shape: ", t.shape().to_list_string());
  const Shape rs = rows_shape(t.shape());
  Shape m;
  if (!merge_shapes(l->element_shape, rs, &m))
    throw_error(Code::kInvalidArgument, "Specified a list with shape ", partial_shape_string(l->element_shape),
                " from a tensor with shape ", rs.to_list_string());
  l->element_shape = m;
  check_element_type(t.dtype());
  for (int64_t r = 0; r < t.shape()[0]; ++r) l->elements.push_back(row_of(t, r, rs));
  c.set_output(0, new_list_tensor(std::move(l)));
}

// ---- element access ----

void set_item(KernelContext& c) {
  const TensorList& in = input_list(c, 0);
  const Tensor& item = c.input(2);
  check_list_dtype(in, item->dtype());
  const int64_t i = scalar_index(c, 1, "index");
  const int64_t size = static_cast<int64_t>(in.elements.size());
  const bool resize = c.attrs.get<bool>("resize_if_index_out_of_bounds", false);
  if (i < 0 || (i >= size && !resize))
    throw_error(Code::kInvalidArgument, "Trying to modify element ", i, " in a list with ", size, " elements.");
  check_item_shape(in, item->shape(), "Tried to set a tensor with incompatible shape at a list index. Item element shape: ");
  auto [l, out] = writable_list(c, 0);
  if (i >= size) l->elements.resize(static_cast<size_t>(i) + 1);
  l->elements.set(static_cast<size_t>(i), item);
  c.set_output(0, std::move(out));
}

void get_item(KernelContext& c) {
  const TensorList& l = input_list(c, 0);
  check_list_dtype(l, c.attrs.get<DType>("element_dtype"));
  const int64_t i = scalar_index(c, 1, "index");
  const int64_t size = static_cast<int64_t>(l.elements.size());
  if (i < 0 || i >= size)
    throw_error(Code::kInvalidArgument, "Trying to access element ", i, " in a list with ", size, " elements.");
  c.set_output(0, element_or_zeros(l, i, shape_from_tensor(*c.input(2))));
}

void stack(KernelContext& c) {
  const TensorList& l = input_list(c, 0);
  check_list_dtype(l, c.attrs.get<DType>("element_dtype"));
  const int64_t want = c.attrs.get<int64_t>("num_elements", -1);
  const int64_t size = static_cast<int64_t>(l.elements.size());
  if (want >= 0 && want != size)
    throw_error(Code::kInvalidArgument, "Operation expected a list with ", want, " elements but got a list with ", size,
                " elements.");
  std::vector<int64_t> idx(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i) idx[i] = i;
  stack_elements(c, l, idx, shape_from_tensor(*c.input(1)), false);
}

void gather(KernelContext& c) {
  const TensorList& l = input_list(c, 0);
  check_list_dtype(l, c.attrs.get<DType>("element_dtype"));
  const TensorImpl& indices = *c.input(1);
  if (indices.rank() != 1)
    throw_error(Code::kInvalidArgument, "indices must be a vector, got shape ", indices.shape().to_list_string());
  std::vector<int64_t> idx = tensor_to_int_vector(indices);
  const int64_t size = static_cast<int64_t>(l.elements.size());
  for (int64_t i : idx)
    if (i < 0 || i >= size)
      throw_error(Code::kInvalidArgument, "Trying to gather element ", i, " in a list with ", size, " elements.");
  stack_elements(c, l, idx, shape_from_tensor(*c.input(2)), true);
}

// Writes rows of `t` at `indices` into l (growing it), after the TF checks.
void scatter_rows(TensorList& l, const TensorImpl& t, const std::vector<int64_t>& idx) {
  check_list_dtype(l, t.dtype());
  if (t.rank() < 1)
    throw_error(Code::kInvalidArgument, "Tensor must be at least a vector, but saw shape: ", t.shape().to_list_string());
  if (t.shape()[0] != static_cast<int64_t>(idx.size()))
    throw_error(Code::kInvalidArgument, "Invalid number of rows in input tensor. Expected: ", idx.size(),
                " Actual: ", t.shape()[0]);
  const Shape rs = rows_shape(t.shape());
  check_item_shape(l, rs, "Tried to scatter a tensor with incompatible shape into a list. Item element shape: ");
  check_element_type(t.dtype());
  for (size_t k = 0; k < idx.size(); ++k) {
    const int64_t i = idx[k];
    if (i < 0) throw_error(Code::kInvalidArgument, "Indices in TensorListScatter must all be non-negative.");
    if (i > INT32_MAX) throw_error(Code::kInvalidArgument, "index ", i, " is out of the int32 range");
    if (i >= static_cast<int64_t>(l.elements.size())) l.elements.resize(static_cast<size_t>(i) + 1);
    l.elements.set(static_cast<size_t>(i), row_of(t, static_cast<int64_t>(k), rs));
  }
}

std::vector<int64_t> index_vector(const KernelContext& c, size_t i) {
  const TensorImpl& t = *c.input(i);
  if (t.dtype() != DType::kInt32 && t.dtype() != DType::kInt64)
    throw_error(Code::kInvalidArgument, "indices must be int32, got ", dtype_name(t.dtype()));
  if (t.rank() != 1) throw_error(Code::kInvalidArgument, "indices must be a vector, got shape ", t.shape().to_list_string());
  return tensor_to_int_vector(t);
}

void scatter_v2(KernelContext& c) {
  auto l = make_list(c, 2);
  const int64_t n = scalar_index(c, 3, "num_elements");
  if (n > 0) l->elements.resize(static_cast<size_t>(n));
  scatter_rows(*l, *c.input(0), index_vector(c, 1));
  c.set_output(0, new_list_tensor(std::move(l)));
}

void scatter_into_existing(KernelContext& c) {
  input_list(c, 0);
  std::vector<int64_t> idx = index_vector(c, 2);
  auto [l, out] = writable_list(c, 0);
  scatter_rows(*l, *c.input(1), idx);
  c.set_output(0, std::move(out));
}

// ---- size and shape ----

void length(KernelContext& c) {
  const TensorList& l = input_list(c, 0);
  *c.allocate_output(0, DType::kInt32, Shape())->data<int32_t>() = static_cast<int32_t>(l.elements.size());
}

void element_shape(KernelContext& c) {
  const TensorList& l = input_list(c, 0);
  const DType t = c.attrs.get<DType>("shape_type", DType::kInt32);
  if (t != DType::kInt32 && t != DType::kInt64)
    throw_error(Code::kInvalidArgument, "shape_type must be int32 or int64, got ", dtype_name(t));
  const Shape& s = l.element_shape;
  const int64_t n = s.rank_known() ? s.rank() : 0;
  TensorImpl* out = c.allocate_output(0, t, s.rank_known() ? Shape({n}) : Shape());
  for (int64_t i = 0; i < (s.rank_known() ? n : 1); ++i) {
    const int64_t d = s.rank_known() ? s[static_cast<int>(i)] : -1;
    if (t == DType::kInt32) out->data<int32_t>()[i] = static_cast<int32_t>(d);
    else out->data<int64_t>()[i] = d;
  }
}

void push_back(KernelContext& c) {
  const TensorList& in = input_list(c, 0);
  const Tensor& item = c.input(1);
  check_list_dtype(in, item->dtype());
  check_item_shape(in, item->shape(), "Tried to append a tensor with incompatible shape to a list. Op element shape: ");
  if (in.max_num_elements >= 0 && static_cast<int64_t>(in.elements.size()) >= in.max_num_elements)
    throw_error(Code::kInvalidArgument, "Tried to push item into a full list list size: ", in.elements.size(),
                " max_num_elements: ", in.max_num_elements);
  auto [l, out] = writable_list(c, 0);
  l->elements.push_back(item);
  c.set_output(0, std::move(out));
}

void pop_back(KernelContext& c) {
  const TensorList& in = input_list(c, 0);
  check_list_dtype(in, c.attrs.get<DType>("element_dtype"));
  if (in.elements.empty()) throw_error(Code::kInvalidArgument, "Trying to pop from an empty list.");
  Tensor item = element_or_zeros(in, static_cast<int64_t>(in.elements.size()) - 1, shape_from_tensor(*c.input(1)));
  auto [l, out] = writable_list(c, 0);
  l->elements.pop_back();
  c.set_output(0, std::move(out));
  c.set_output(1, std::move(item));
}

void resize(KernelContext& c) {
  input_list(c, 0);
  const int64_t n = scalar_index(c, 1, "size");
  if (n < 0) throw_error(Code::kInvalidArgument, "TensorListSlice expects size to be non-negative. Got: ", n);
  auto [l, out] = writable_list(c, 0);
  l->elements.resize(static_cast<size_t>(n));
  c.set_output(0, std::move(out));
}

// ---- concat and split (along the elements' first dimension) ----

void concat(KernelContext& c) {
  const TensorList& l = input_list(c, 0);
  check_list_dtype(l, c.attrs.get<DType>("element_dtype"));
  check_element_type(l.element_dtype);
  Shape es = merged(l.element_shape, shape_from_tensor(*c.input(1)));
  if (es.rank_known() && es.rank() == 0)
    throw_error(Code::kInvalidArgument, "Concat requires elements to be at least vectors, found scalars instead.");
  // The shape of an element without its first dim: known from the op, the list or set elements.
  Shape inner = es.rank_known() ? rows_shape(es) : Shape::unknown_rank();
  for (size_t i = 0; i < l.elements.size(); ++i) {
    const Tensor& e = l.elements[i];
    if (!e) continue;
    if (e->rank() == 0)
      throw_error(Code::kInvalidArgument, "Concat saw a scalar shape at index ", i, " but requires at least vectors.");
    inner = merged(inner, rows_shape(e->shape()));
  }
  const int64_t lead0 = es.rank_known() ? es[0] : -1;
  // leading_dims: the first dims of unset elements when the element shape does not fix it.
  std::vector<int64_t> leading;
  if (c.num_inputs() > 2 && c.input(2)->num_elements() > 0) leading = tensor_to_int_vector(*c.input(2));
  if (!leading.empty() && leading.size() != l.elements.size())
    throw_error(Code::kInvalidArgument, "leading_dims has ", leading.size(), " entries for a list of ",
                l.elements.size(), " elements");
  std::vector<int64_t> lengths;
  for (size_t i = 0; i < l.elements.size(); ++i) {
    if (const Tensor& e = l.elements[i]) lengths.push_back(e->shape()[0]);
    else if (lead0 >= 0 && inner.fully_defined()) lengths.push_back(lead0);
    else if (!leading.empty() && leading[i] >= 0 && inner.fully_defined()) lengths.push_back(leading[i]);
    else
      throw_error(Code::kInvalidArgument,
                  "All except the first dimension must be fully defined when concating uninitialized elements, and the "
                  "first dimension must be known. element_shape: ", partial_shape_string(es));
  }
  if (!inner.fully_defined())
    throw_error(Code::kInvalidArgument, "Tried to concat elements of an empty list with non-fully-defined element_shape: ",
                partial_shape_string(es));
  int64_t total = 0;  // leading_dims are user-given: check the sums before using them
  for (int64_t n : lengths)
    if (__builtin_add_overflow(total, n, &total))
      throw_error(Code::kInvalidArgument, "TensorListConcat result of ", total, " rows is too large");
  Shape out_shape = inner;
  out_shape.insert(0, total);
  TensorImpl* out = c.allocate_output(0, l.element_dtype, out_shape);
  const int64_t row = inner.num_elements();
  int64_t at = 0;  // every offset below is within `out`, whose allocation checked the total size
  for (size_t i = 0; i < l.elements.size(); ++i) {
    const int64_t n = lengths[i] * row;
    if (l.elements[i]) copy_elements(*l.elements[i], 0, *out, at, n);
    else zero_elements(*out, at, n);
    at += n;
  }
  TensorImpl* lens = c.allocate_output(1, DType::kInt64, Shape({static_cast<int64_t>(lengths.size())}));
  std::copy(lengths.begin(), lengths.end(), lens->data<int64_t>());
}

void split(KernelContext& c) {
  const TensorImpl& t = *c.input(0);
  auto l = make_list(c, 1);
  check_list_dtype(*l, t.dtype());
  check_element_type(t.dtype());
  if (t.rank() < 1)
    throw_error(Code::kInvalidArgument, "Tensor must be at least a vector, but saw shape: ", t.shape().to_list_string());
  const TensorImpl& lt = *c.input(2);
  if (lt.rank() != 1) throw_error(Code::kInvalidArgument, "Expected lengths to be a vector, received shape: ",
                                  lt.shape().to_list_string());
  std::vector<int64_t> lengths = tensor_to_int_vector(lt);
  const Shape inner = rows_shape(t.shape());
  const int64_t row = inner.num_elements();
  const int64_t dim0 = t.shape()[0];
  int64_t at = 0;
  for (int64_t n : lengths) {
    if (n < 0) throw_error(Code::kInvalidArgument, "Invalid value in lengths: ", n);
    if (n > dim0 - at)
      throw_error(Code::kInvalidArgument, "Attempting to slice [", at, ", ", at + n, "] from tensor with length ", dim0);
    Shape es = inner;
    es.insert(0, n);
    Tensor e = TensorImpl::empty(t.dtype(), es);
    copy_elements(t, at * row, *e, 0, n * row);
    l->elements.push_back(std::move(e));
    at += n;
  }
  if (at != dim0)
    throw_error(Code::kInvalidArgument, "Unused values in tensor. Length of tensor: ", dim0, " Values used: ", at);
  Shape ls = inner;
  ls.insert(0, -1);
  Shape m;
  if (!merge_shapes(l->element_shape, ls, &m))
    throw_error(Code::kInvalidArgument, "Specified a list with shape ", partial_shape_string(l->element_shape),
                " from a tensor with shape ", t.shape().to_list_string());
  l->element_shape = m;
  c.set_output(0, new_list_tensor(std::move(l)));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("EmptyTensorList", empty_tensor_list);
EF_REGISTER_CPU_KERNEL("TensorListReserve", reserve);
EF_REGISTER_CPU_KERNEL("TensorListFromTensor", from_tensor);
EF_REGISTER_CPU_KERNEL("TensorListSetItem", set_item);
EF_REGISTER_CPU_KERNEL("TensorListGetItem", get_item);
EF_REGISTER_CPU_KERNEL("TensorListStack", stack);
EF_REGISTER_CPU_KERNEL("TensorListGather", gather);
EF_REGISTER_CPU_KERNEL("TensorListScatterV2", scatter_v2);
EF_REGISTER_CPU_KERNEL("TensorListScatterIntoExistingList", scatter_into_existing);
EF_REGISTER_CPU_KERNEL("TensorListLength", length);
EF_REGISTER_CPU_KERNEL("TensorListElementShape", element_shape);
EF_REGISTER_CPU_KERNEL("TensorListPushBack", push_back);
EF_REGISTER_CPU_KERNEL("TensorListPopBack", pop_back);
EF_REGISTER_CPU_KERNEL("TensorListResize", resize);
EF_REGISTER_CPU_KERNEL("TensorListConcatV2", concat);
EF_REGISTER_CPU_KERNEL("TensorListSplit", split);

}  // namespace ef
