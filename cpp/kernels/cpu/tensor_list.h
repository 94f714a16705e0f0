// TensorList: the value inside a variant tensor that backs tf.TensorArray (TF's TensorList ops).
#pragma once
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/tensor.h"
#include "ops/list_shapes.h"

namespace ef {

// The elements of a TensorList: a vector of tensors in shared, copy-on-write chunks. Copying a
// list (an op on a list that other tensors still see) copies one pointer per chunk, and a write
// then clones only the chunk it lands in, so eager writes cost O(n / kChunk), not O(n).
class TensorVec {
 public:
  static constexpr size_t kChunk = 256;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // A null chunk holds only unset elements (a reserved list allocates no chunks).
  const Tensor& operator[](size_t i) const {
    static const Tensor kUnset;
    const std::shared_ptr<Chunk>& c = chunks_[i / kChunk];
    return c ? (*c)[i % kChunk] : kUnset;
  }

  void set(size_t i, Tensor t) {
    std::shared_ptr<Chunk>& c = chunks_[i / kChunk];
    if (!c) {
      if (!t) return;
      c = std::make_shared<Chunk>(kChunk);
    } else if (c.use_count() != 1) {
      c = std::make_shared<Chunk>(*c);  // shared with another list: clone before writing
    }
    (*c)[i % kChunk] = std::move(t);
  }
  void resize(size_t n) {
    if (n < size_) {  // unset the dropped slots of the chunk that stays: a later grow shows them unset
      const size_t end = std::min(size_, (n + kChunk - 1) / kChunk * kChunk);
      for (size_t i = n; i < end; ++i) set(i, nullptr);
    }
    chunks_.resize((n + kChunk - 1) / kChunk);
    size_ = n;
  }
  void push_back(Tensor t) {
    resize(size_ + 1);
    set(size_ - 1, std::move(t));
  }
  void pop_back() { resize(size_ - 1); }

 private:
  using Chunk = std::vector<Tensor>;
  std::vector<std::shared_ptr<Chunk>> chunks_;
  size_t size_ = 0;
};

// A list of tensors of one dtype. Unset elements are null (TensorArray slots not yet written);
// readers materialize them as zeros of the element shape. enable_shared_from_this lets a kernel
// count the owners of a list it only sees through TensorImpl::resource<TensorList>().
struct TensorList : std::enable_shared_from_this<TensorList> {
  TensorVec elements;
  Shape element_shape = Shape::unknown_rank();  // may be partial
  DType element_dtype = DType::kFloat32;
  int64_t max_num_elements = -1;  // EmptyTensorList's bound; -1 = none
};

// AddN of TensorLists (summing gradients of a TensorArray used twice): element-wise sums; unset
// elements count as zeros. Lists must have the same length and element dtype (TF's messages).
Tensor add_tensor_lists(const std::vector<Tensor>& lists);

// ZerosLike of a TensorList: the same length, dtype and element shape, every element unset (zeros).
Tensor zeros_like_tensor_list(const TensorImpl& list);

}  // namespace ef
