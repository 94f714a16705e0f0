// Row iterators: a pass over a dataset whose elements are rows of in-memory tensors
// (from_tensor_slices, and shuffles, takes, skips and repeats of it) names each element by its
// row number, so a shuffle buffer holds integers and a batch copies each row straight from the
// source (one memcpy per row and component) instead of making a tensor per row.
#pragma once
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "kernels/data/dataset.h"

namespace ef {

class RowIterator : public IteratorBase {
 public:
  // The source row of the next element; false at the end of the sequence (then again on every call).
  virtual bool next_row(int64_t& row) = 0;
  // The element itself: the source's rows (views above the inline size).
  bool get_next(Element& out) final;

 protected:
  // `source`: the tensors whose rows are the elements (the dataset's, alive as long as this).
  explicit RowIterator(const std::vector<Tensor>& source) : source_(&source) {}

 private:
  const std::vector<Tensor>* source_;
};

// The input iterator of a dataset whose input yields_rows(), as a RowIterator.
inline RowIterator& as_rows(IteratorBase& it) { return static_cast<RowIterator&>(it); }

// The next item of an input: an element, or a row number from a row iterator. Transformations
// that only pass items along (shuffle, take, skip, repeat) are written once over both.
inline bool next_item(IteratorBase& in, Element& out) { return in.get_next(out); }
inline bool next_item(IteratorBase& in, int64_t& row) { return as_rows(in).next_row(row); }

// An iterator over items of type Item built on `Pass`, a class with a `bool next(Item&)`
// member that reads its input with next_item: for Item = Element it is a plain iterator, for
// int64_t a RowIterator over `source`.
template <typename Pass, typename Item>
class ItemIterator;

template <typename Pass>
class ItemIterator<Pass, Element> final : public IteratorBase {
 public:
  template <typename... Args>
  explicit ItemIterator(const std::vector<Tensor>*, Args&&... args) : pass_(std::forward<Args>(args)...) {}
  bool get_next(Element& out) override { return pass_.next(out); }

 private:
  Pass pass_;
};

template <typename Pass>
class ItemIterator<Pass, int64_t> final : public RowIterator {
 public:
  template <typename... Args>
  explicit ItemIterator(const std::vector<Tensor>* source, Args&&... args)
      : RowIterator(*source), pass_(std::forward<Args>(args)...) {}
  bool next_row(int64_t& row) override { return pass_.next(row); }

 private:
  Pass pass_;
};

// make_iterator() of a transformation whose iterator is `Pass<Item>`: a RowIterator when the
// input yields rows. `source` is the input's row source (null otherwise).
template <template <typename> class Pass, typename... Args>
std::unique_ptr<IteratorBase> make_item_iterator(const std::vector<Tensor>* source, Args&&... args) {
  if (source) return std::make_unique<ItemIterator<Pass<int64_t>, int64_t>>(source, std::forward<Args>(args)...);
  return std::make_unique<ItemIterator<Pass<Element>, Element>>(nullptr, std::forward<Args>(args)...);
}

}  // namespace ef
