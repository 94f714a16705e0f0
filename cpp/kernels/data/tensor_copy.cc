// Row copies for the dataset kernels: numeric rows by memcpy, strings element by element.
#include "kernels/data/tensor_copy.h"

#include <cstring>
#include <string>

#include "core/errors.h"

namespace ef {
namespace {

Shape row_shape(const Shape& s) {
  Shape r = s;
  r.erase(0);
  return r;
}

void check_copyable(DType d) {
  if (d == DType::kResource || d == DType::kVariant)
    throw_error(Code::kUnimplemented, "tf.data cannot slice or batch ", dtype_name(d), " tensors");
}

}  // namespace

Tensor slice_row(const TensorImpl& t, int64_t i) {
  check_copyable(t.dtype());
  Shape shape = row_shape(t.shape());
  // Rows above the inline size are views of the source's buffer: slicing costs no allocation or
  // copy (the batch that follows copies each row once). Strings are copied (they own their bytes).
  const int64_t n = shape.num_elements();
  if (Tensor view = TensorImpl::view_of(t, i * n, shape)) return view;
  Tensor out = TensorImpl::empty(t.dtype(), shape);
  if (t.dtype() == DType::kString) {
    const std::string* src = t.data<std::string>() + i * n;
    std::string* dst = out->data<std::string>();
    for (int64_t k = 0; k < n; ++k) dst[k] = src[k];
  } else if (n > 0) {
    std::memcpy(out->raw_data(), static_cast<const char*>(t.raw_data()) + i * out->nbytes(), out->nbytes());
  }
  return out;
}

void copy_row(TensorImpl& dst, int64_t i, const TensorImpl& row) {
  check_copyable(row.dtype());
  const int64_t n = row.num_elements();
  if (row.dtype() == DType::kString) {
    const std::string* src = row.data<std::string>();
    std::string* out = dst.data<std::string>() + i * n;
    for (int64_t k = 0; k < n; ++k) out[k] = src[k];
  } else if (n > 0) {
    std::memcpy(static_cast<char*>(dst.raw_data()) + i * row.nbytes(), row.raw_data(), row.nbytes());
  }
}

Tensor gather_rows(const TensorImpl& src, const int64_t* rows, int64_t n) {
  check_copyable(src.dtype());
  Shape shape = src.shape();
  shape.set_dim(0, n);
  const int64_t row_elems = n > 0 ? src.num_elements() / src.shape()[0] : 0;
  if (row_elems == 0) return TensorImpl::empty(src.dtype(), shape);
  if (src.dtype() == DType::kString) {
    Tensor out = TensorImpl::empty(src.dtype(), shape);
    const std::string* from = src.data<std::string>();
    std::string* to = out->data<std::string>();
    for (int64_t i = 0; i < n; ++i)
      for (int64_t k = 0; k < row_elems; ++k) to[i * row_elems + k] = from[rows[i] * row_elems + k];
    return out;
  }
  const size_t row_bytes = static_cast<size_t>(row_elems) * dtype_size(src.dtype());
  const char* from = static_cast<const char*>(src.raw_data());
  bool consecutive = true;
  for (int64_t i = 1; i < n && consecutive; ++i) consecutive = rows[i] == rows[0] + i;
  // An unshuffled batch is a view, like a row (see slice_row).
  if (consecutive)
    if (Tensor view = TensorImpl::view_of(src, rows[0] * row_elems, shape)) return view;
  Tensor out = TensorImpl::empty(src.dtype(), shape);
  char* to = static_cast<char*>(out->raw_data());
  for (int64_t i = 0; i < n;) {
    int64_t run = 1;  // consecutive rows (a small shuffle buffer lets some through) are one block
    while (i + run < n && rows[i + run] == rows[i] + run) ++run;
    std::memcpy(to + static_cast<size_t>(i) * row_bytes, from + static_cast<size_t>(rows[i]) * row_bytes,
                static_cast<size_t>(run) * row_bytes);
    i += run;
  }
  return out;
}

}  // namespace ef
