// TF's print formatting of tensors (what tf.print / tf.strings.format show): "[1 2 3]", nested
// rows, "..." summarization, %g-style floats that round-trip, quoted and escaped strings.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "ops/format_template.h"

namespace ef {

// The whole tensor as tf.print shows it; summarize < 0 prints every element, otherwise each
// dimension longer than 2 * summarize shows its first and last `summarize` entries.
std::string format_tensor_for_print(const TensorImpl& t, int64_t summarize);

// One element: shortest of %.6g / %.9g (floats) or %.15g / %.17g (doubles) that reads back.
std::string format_float_for_print(float v);
std::string format_double_for_print(double v);
// C-style escaping of a string element (quotes, backslashes, control bytes as \ooo; bytes >= 0x80 kept).
std::string escape_string_for_print(const std::string& s);

}  // namespace ef
