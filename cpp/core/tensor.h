// TensorImpl: dtype + shape + data. Small numeric tensors keep their bytes inline (one allocation).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>

#include "core/buffer.h"
#include "core/dtype.h"
#include "core/shape.h"

namespace ef {

class TensorImpl;
using Tensor = std::shared_ptr<TensorImpl>;
class Graph;
struct Node;

class TensorImpl {
 public:
  static constexpr size_t kInlineBytes = 64;

  // Allocates an uninitialized (strings: empty) tensor. Shape must be fully defined.
  static Tensor empty(DType dtype, const Shape& shape);
  static Tensor zeros(DType dtype, const Shape& shape);
  // A tensor that shares `buffer` (no copy) from `byte_offset` on; the caller guarantees the size
  // fits. With an offset it is a view (a row of a larger tensor): writers check the buffer's
  // use count, so a shared buffer is never written in place.
  static Tensor from_buffer(DType dtype, const Shape& shape, std::shared_ptr<Buffer> buffer,
                            size_t byte_offset = 0);
  // `shape`'s worth of t's elements from element `offset` on, sharing t's buffer (no copy, as TF
  // shares a dim-0 slice's): null where a copy is better or needed (strings own their bytes, inline
  // storage has no buffer, and a slice within the inline size is cheaper copied than keeping a
  // large buffer alive).
  static Tensor view_of(const TensorImpl& t, int64_t offset, const Shape& shape);
  template <typename T>
  static Tensor scalar(T value) {
    Tensor t = empty(DTypeOf<T>::value, Shape());
    *t->data<T>() = value;
    return t;
  }

  TensorImpl(DType dtype, Shape shape) : dtype_(dtype), shape_(std::move(shape)) {}

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int rank() const { return shape_.rank(); }
  int64_t num_elements() const { return num_elements_; }
  size_t nbytes() const { return static_cast<size_t>(num_elements_) * dtype_size(dtype_); }

  void* raw_data() const { return data_; }
  template <typename T>
  T* data() const { return static_cast<T*>(data_); }
  // The owning buffer, or null when the data lives inline in this object.
  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }

  // Same data, new shape (reshape / expand_dims / squeeze are free).
  Tensor with_shape(const Shape& shape) const;

  // Symbolic tensors (graph mode) carry no data: output `index` of `node` in `graph`. The shape
  // may be partially known. The tensor keeps its graph alive.
  static Tensor symbolic(std::shared_ptr<Graph> graph, Node* node, int index, DType dtype, const Shape& shape);
  bool is_symbolic() const { return node_ != nullptr; }

  // Resource handles (dtype resource, scalar): a reference to mutable state such as a
  // variable. The handle is immutable; the state it points to is not.
  template <typename T>
  static Tensor resource_handle(std::shared_ptr<T> state) {
    return handle(DType::kResource, std::move(state), typeid(T));
  }
  // Variant scalars (dtype variant): an immutable opaque value, e.g. a TensorList or a Dataset.
  template <typename T>
  static Tensor variant(std::shared_ptr<T> value) {
    return handle(DType::kVariant, std::move(value), typeid(T));
  }
  // The handle's state as a T, or null when it holds another type (a Dataset variant given to a
  // TensorList op, an iterator given to ReadVariableOp): kernels check instead of trusting the
  // dtype. resource<void>() is the state's address whatever its type (an identity key).
  template <typename T>
  T* resource() const {
    if constexpr (std::is_void_v<T>) {
      return resource_.get();
    } else {
      return resource_type_ && *resource_type_ == typeid(T) ? static_cast<T*>(resource_.get()) : nullptr;
    }
  }
  Node* node() const { return node_; }
  int output_index() const { return index_; }
  Graph* graph() const { return graph_.get(); }
  const std::shared_ptr<Graph>& graph_ptr() const { return graph_; }

 private:
  static Tensor handle(DType dtype, std::shared_ptr<void> state, const std::type_info& type);

  DType dtype_;
  Shape shape_;
  int64_t num_elements_ = 0;
  void* data_ = nullptr;
  std::shared_ptr<Buffer> buffer_;
  std::shared_ptr<Graph> graph_;
  std::shared_ptr<void> resource_;
  const std::type_info* resource_type_ = nullptr;
  Node* node_ = nullptr;
  int index_ = 0;
  alignas(64) unsigned char inline_[kInlineBytes];
};

// Reads element i of a numeric tensor as double / int64 (for small host-side attribute
// tensors like axes and shapes). Throws InvalidArgument for non-numeric dtypes.
int64_t tensor_int_at(const TensorImpl& t, int64_t i);
double tensor_double_at(const TensorImpl& t, int64_t i);
std::vector<int64_t> tensor_to_int_vector(const TensorImpl& t);

}  // namespace ef
