// Iterator kernels: AnonymousIteratorV3 makes an empty iterator resource, MakeIterator points it
// at a dataset, IteratorGetNext advances it (OutOfRange "End of sequence" at the end), and
// DatasetCardinality reads a dataset's size.
#include "core/errors.h"
#include "kernels/data/dataset.h"
#include "ops/shape_merge.h"

namespace ef {
namespace {

IteratorResource& iterator_input(const KernelContext& c, size_t i) {
  const Tensor& t = c.input(i);
  IteratorResource* r = t->dtype() == DType::kResource && t->rank() == 0 ? t->resource<IteratorResource>() : nullptr;
  if (!r) throw_error(Code::kInvalidArgument, c.op.name, " expects an iterator resource handle as input ", i);
  return *r;
}

void anonymous_iterator_kernel(KernelContext& c) {
  auto r = std::make_shared<IteratorResource>();
  r->dtypes = output_types(c);
  r->shapes = output_shapes(c);
  c.set_output(0, TensorImpl::resource_handle(std::move(r)));
}

template <typename T>
const std::vector<T>& list_attr(const KernelContext& c, const char* name) {
  static const std::vector<T> kNone;
  const AttrValue* v = c.attrs.find(name);
  const std::vector<T>* p = v ? std::get_if<std::vector<T>>(v) : nullptr;
  return p ? *p : kNone;
}

// Checks each element against the op's attrs (read in place: this runs per element).
void check_element(const KernelContext& c, const Element& e) {
  const std::vector<DType>& types = list_attr<DType>(c, "output_types");
  const std::vector<Shape>& shapes = list_attr<Shape>(c, "output_shapes");
  if (e.size() != types.size())
    throw_error(Code::kInvalidArgument, "The iterator produced ", e.size(), " components, expected ", types.size());
  for (size_t k = 0; k < e.size(); ++k) {
    if (e[k]->dtype() != types[k])
      throw_error(Code::kInvalidArgument, "Data type mismatch at component ", k, ": expected ",
                  tf_type_string(types[k]), " but got ", tf_type_string(e[k]->dtype()), ".");
    if (k < shapes.size() && !shape_fits(e[k]->shape(), shapes[k]))
      throw_error(Code::kInvalidArgument, "Incompatible shapes at component ", k, ": expected ",
                  shapes[k].to_list_string(), " but got ", e[k]->shape().to_list_string(), ".");
  }
}

void make_iterator_kernel(KernelContext& c) {
  DatasetPtr ds = dataset_input_ptr(c, 0);
  IteratorResource& r = iterator_input(c, 1);
  std::unique_ptr<IteratorBase> it = ds->make_iterator();
  // The lock may be held by a get_next waiting on pipeline threads that need the GIL, and the old
  // iterator's destruction may join them: both happen with the GIL released.
  blocking_region([&] {
    std::unique_ptr<IteratorBase> old;
    {
      std::lock_guard<std::mutex> l(r.mu);
      old = std::move(r.iterator);
      r.iterator = std::move(it);
    }
  });
}

void get_next_kernel(KernelContext& c) {
  IteratorResource& r = iterator_input(c, 0);
  Element e;
  bool got = false, made = true;
  // The lock is taken with the GIL released: another Python thread may be waiting for it.
  blocking_region([&] {
    std::lock_guard<std::mutex> l(r.mu);
    if (!r.iterator) {
      made = false;
      return;
    }
    got = r.iterator->get_next(e);
  });
  if (!made)
    throw_error(Code::kFailedPrecondition, "GetNext() failed because the iterator has not been initialized. Ensure "
                "that you have run the initializer operation for this iterator before getting the next element.");
  if (!got) throw_error(Code::kOutOfRange, "End of sequence");
  check_element(c, e);
  for (size_t k = 0; k < e.size(); ++k) c.set_output(k, std::move(e[k]));
}

void cardinality_kernel(KernelContext& c) {
  c.set_output(0, TensorImpl::scalar<int64_t>(dataset_input(c, 0).cardinality()));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("AnonymousIteratorV3", anonymous_iterator_kernel);
EF_REGISTER_CPU_KERNEL("MakeIterator", make_iterator_kernel);
EF_REGISTER_CPU_KERNEL("IteratorGetNext", get_next_kernel);
EF_REGISTER_CPU_KERNEL("DatasetCardinality", cardinality_kernel);

}  // namespace ef
