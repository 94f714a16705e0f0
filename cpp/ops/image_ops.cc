// Op definitions: ResizeBilinear / ResizeNearestNeighbor (NHWC) and their gradient ops.
#include "ops/array_shapes.h"
#include "ops/op_util.h"

namespace ef {
namespace {

constexpr const char* kListResize = "int8, uint8, int16, uint16, int32, int64, bfloat16, half, float, double, bfloat16";
constexpr const char* kListResizeNearest = "int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16";
constexpr const char* kListBilinearGrad = "float, bfloat16, half, double";
constexpr const char* kListNearestGrad = "uint8, int8, int32, half, float, double, bfloat16";

// Static [batch, size[0], size[1], channels]; the kernels repeat the checks with the values.
Shape resized_shape(const InferContext& c, size_t size_input) {
  const Shape& in = c.shapes[0];
  int64_t b = -1, ch = -1;
  if (in.rank_known()) {
    if (in.rank() != 4) throw_error(Code::kInvalidArgument, "Shape must be rank 4 but is rank ", in.rank());
    b = in.dim(0), ch = in.dim(3);
  }
  int64_t h = -1, w = -1;
  if (const TensorImpl* v = input_value(c, size_input)) {
    if (v->rank() == 1 && v->num_elements() == 2) {
      const std::vector<int64_t> s = tensor_to_int_vector(*v);
      h = s[0], w = s[1];
    }
  }
  return Shape({b, h, w, ch});
}

void infer_resize_bilinear(InferContext& c) { c.set_output(0, DType::kFloat32, resized_shape(c, 1)); }
void infer_resize_nearest(InferContext& c) { c.set_output(0, c.dtypes[0], resized_shape(c, 1)); }

void infer_resize_bilinear_grad(InferContext& c) {
  const Shape& g = c.shapes[0];
  const Shape& orig = c.shapes[1];
  const bool gk = g.rank_known() && g.rank() == 4, ok = orig.rank_known() && orig.rank() == 4;
  c.set_output(0, c.dtypes[1], Shape({gk ? g.dim(0) : -1, ok ? orig.dim(1) : -1, ok ? orig.dim(2) : -1,
                                      gk ? g.dim(3) : -1}));
}

const std::vector<std::string> kResizeAttrs = {"T", "align_corners", "half_pixel_centers"};

EF_REGISTER_OP(make_op("ResizeBilinear", {"images", "size"}, kResizeAttrs, infer_resize_bilinear)
                   .with_types({"T", "int32"}, {{"T", kListResize, kTypesReal}}));
EF_REGISTER_OP(make_op("ResizeNearestNeighbor", {"images", "size"}, kResizeAttrs, infer_resize_nearest)
                   .with_types({"T", "int32"}, {{"T", kListResizeNearest, kTypesReal}}));
EF_REGISTER_OP(make_op("ResizeBilinearGrad", {"grads", "original_image"}, kResizeAttrs, infer_resize_bilinear_grad)
                   .with_types({"float", "T"}, {{"T", kListBilinearGrad, kTypesFloat}}));
EF_REGISTER_OP(make_op("ResizeNearestNeighborGrad", {"grads", "size"}, kResizeAttrs, infer_resize_nearest)
                   .with_types({"T", "int32"}, {{"T", kListNearestGrad, kTypesReal}}));

}  // namespace
}  // namespace ef
