// Optionals (tf.experimental.Optional): a variant holding an element or nothing;
// IteratorGetNextAsOptional gives an empty one at the end instead of OutOfRange.
#include "core/errors.h"
#include "kernels/data/dataset.h"

namespace ef {
namespace {

struct OptionalValue {
  bool has_value = false;
  Element values;
};

const OptionalValue& optional_input(const KernelContext& c) {
  const Tensor& t = c.input(0);
  const OptionalValue* o = t->dtype() == DType::kVariant && t->rank() == 0 ? t->resource<OptionalValue>() : nullptr;
  if (!o) throw_error(Code::kInvalidArgument, "Input tensor must be a scalar variant tensor holding an optional");
  return *o;
}

Tensor make_optional(bool has, Element values) {
  auto o = std::make_shared<OptionalValue>();
  o->has_value = has;
  o->values = std::move(values);
  return TensorImpl::variant(std::move(o));
}

void from_value_kernel(KernelContext& c) { c.set_output(0, make_optional(true, c.inputs)); }
void none_kernel(KernelContext& c) { c.set_output(0, make_optional(false, {})); }
void has_value_kernel(KernelContext& c) { c.set_output(0, TensorImpl::scalar<bool>(optional_input(c).has_value)); }

void get_value_kernel(KernelContext& c) {
  const OptionalValue& o = optional_input(c);
  if (!o.has_value) throw_error(Code::kInvalidArgument, "The given optional does not have a value.");
  const std::vector<DType> types = output_types(c);
  if (types.size() != o.values.size())
    throw_error(Code::kInvalidArgument, "The expected number of components (", types.size(),
                ") does not match the optional's (", o.values.size(), ")");
  for (size_t k = 0; k < types.size(); ++k) {
    if (types[k] != o.values[k]->dtype())
      throw_error(Code::kInvalidArgument, "Input optional has type ", tf_type_string(o.values[k]->dtype()),
                  " in component ", k, " but expected ", tf_type_string(types[k]), ".");
    c.set_output(k, o.values[k]);
  }
}

void get_next_as_optional_kernel(KernelContext& c) {
  const Tensor& h = c.input(0);
  IteratorResource* r = h->dtype() == DType::kResource && h->rank() == 0 ? h->resource<IteratorResource>() : nullptr;
  if (!r) throw_error(Code::kInvalidArgument, c.op.name, " expects an iterator resource handle as input 0");
  Element e;
  bool got = false, made = true;
  blocking_region([&] {
    std::lock_guard<std::mutex> l(r->mu);
    if (!r->iterator) {
      made = false;
      return;
    }
    got = r->iterator->get_next(e);
  });
  if (!made) throw_error(Code::kFailedPrecondition, "GetNext() failed because the iterator has not been initialized.");
  c.set_output(0, make_optional(got, std::move(e)));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("OptionalFromValue", from_value_kernel);
EF_REGISTER_CPU_KERNEL("OptionalNone", none_kernel);
EF_REGISTER_CPU_KERNEL("OptionalHasValue", has_value_kernel);
EF_REGISTER_CPU_KERNEL("OptionalGetValue", get_value_kernel);
EF_REGISTER_CPU_KERNEL("IteratorGetNextAsOptional", get_next_as_optional_kernel);

}  // namespace ef
