// C++ tests of tf.print's formatting (print_format.h) and PrintV2's sink (print_sink.h).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/tensor.h"
#include "eager/execute.h"
#include "kernels/cpu/print_format.h"
#include "kernels/cpu/print_sink.h"
#include "ops/registry.h"

namespace ef {
namespace {

Tensor iota(const Shape& shape) {
  Tensor t = TensorImpl::empty(DType::kInt32, shape);
  for (int64_t i = 0; i < t->num_elements(); ++i) t->data<int32_t>()[i] = static_cast<int32_t>(i);
  return t;
}

TEST(PrintFormat, Floats) {
  EXPECT_EQ(format_float_for_print(1.1f), "1.1");
  EXPECT_EQ(format_float_for_print(1.0f / 3), "0.333333343");
  EXPECT_EQ(format_float_for_print(1e10f), "1e+10");
  EXPECT_EQ(format_float_for_print(1e-40f), "0");  // denormals flushed, as in TF's kernels
  EXPECT_EQ(format_double_for_print(1.0 / 3), "0.33333333333333331");
  EXPECT_EQ(format_double_for_print(0.1), "0.1");
}

TEST(PrintFormat, ShapesAndSummaries) {
  EXPECT_EQ(format_tensor_for_print(*iota(Shape{10}), 3), "[0 1 2 ... 7 8 9]");
  EXPECT_EQ(format_tensor_for_print(*iota(Shape{10}), -1), "[0 1 2 3 4 5 6 7 8 9]");
  EXPECT_EQ(format_tensor_for_print(*iota(Shape{10}), 0), "[ ...]");
  EXPECT_EQ(format_tensor_for_print(*iota(Shape{2, 2}), 3), "[[0 1]\n [2 3]]");
  EXPECT_EQ(format_tensor_for_print(*iota(Shape{2, 0}), 3), "[\n ...]");
  EXPECT_EQ(format_tensor_for_print(*iota(Shape{0, 2}), 3), "[]");
  EXPECT_EQ(format_tensor_for_print(*iota(Shape{}), 0), "...");
}

TEST(PrintFormat, Strings) {
  EXPECT_EQ(escape_string_for_print("a\"b\n\x01\xff"), "a\\\"b\\n\\001\xff");
  EXPECT_EQ(split_format_template("a{}b{}", "{}"), (std::vector<std::string>{"a", "b", ""}));
  EXPECT_EQ(split_format_template("ab", ""), (std::vector<std::string>{"a", "b"}));
}

TEST(PrintV2, WritesThroughTheSink) {
  std::vector<std::pair<int, std::string>> got;
  set_print_sink([&](int stream, const std::string& text) { got.emplace_back(stream, text); });
  Attrs fa;
  fa.set("template", std::string("x={}"));
  fa.set("placeholder", std::string("{}"));
  Tensor s = execute1(get_op("StringFormat"), {iota(Shape{3})}, fa);
  Attrs pa;
  pa.set("output_stream", std::string("stdout"));
  pa.set("end", std::string("!\n"));
  EXPECT_TRUE(execute(get_op("PrintV2"), {s}, pa).empty());
  pa.set("output_stream", std::string("stderr"));
  execute(get_op("PrintV2"), {s}, pa);
  set_print_sink(PrintSink());
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], std::make_pair(int(kPrintStdout), std::string("x=[0 1 2]!\n")));
  EXPECT_EQ(got[1].first, kPrintStderr);
  pa.set("output_stream", std::string("bogus"));
  EXPECT_THROW(execute(get_op("PrintV2"), {s}, pa), OpError);
}

}  // namespace
}  // namespace ef
