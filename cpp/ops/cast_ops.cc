// Op definition: Cast (attr DstT).
#include "ops/op_util.h"

namespace ef {
namespace {

void infer_cast(InferContext& c) { c.set_output(0, c.attrs.get<DType>("DstT"), c.shapes[0]); }

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "Cast";
  d.inputs = {"x"};
  d.attrs = {"DstT"};
  d.infer = infer_cast;
  d.elementwise = true;
  // Every pair is declared (TF's SrcT/DstT take any dtype); the kernel raises Unimplemented for
  // pairs it cannot convert, as TF's does.
  return std::move(d).with_types({"SrcT"}, {{"SrcT", nullptr, kTypesAll | kBitsHandle},
                                            {"DstT", nullptr, kTypesAll | kBitsHandle}});
}());

}  // namespace
}  // namespace ef
