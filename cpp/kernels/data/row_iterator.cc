// RowIterator's element: the source's rows at the row number the iterator names.
#include "kernels/data/row_iterator.h"

#include "kernels/data/tensor_copy.h"

namespace ef {

bool RowIterator::get_next(Element& out) {
  int64_t row = 0;
  if (!next_row(row)) return false;
  out.clear();
  for (const Tensor& t : *source_) out.push_back(slice_row(*t, row));
  return true;
}

}  // namespace ef
