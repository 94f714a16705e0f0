// CPU kernels for StringFormat and PrintV2, and the print sink PrintV2 writes through.
#include <fstream>
#include <iostream>
#include <mutex>

#include "kernels/cpu/print_format.h"
#include "kernels/cpu/print_sink.h"
#include "ops/op_util.h"

namespace ef {
namespace {

std::mutex& sink_mutex() {
  static std::mutex m;
  return m;
}

PrintSink& sink() {
  static PrintSink s;
  return s;
}

void string_format_kernel(KernelContext& c) {
  const std::string tmpl = c.attrs.get<std::string>("template", "%s");
  const std::string placeholder = c.attrs.get<std::string>("placeholder", "%s");
  const int64_t summarize = c.attrs.get<int64_t>("summarize", 3);
  const std::vector<std::string> pieces = split_format_template(tmpl, placeholder);
  if (pieces.size() - 1 != c.num_inputs())
    throw_error(Code::kInvalidArgument, "num placeholders in template and num inputs must match: ",
                pieces.size() - 1, " vs. ", c.num_inputs());
  std::string out = pieces[0];
  for (size_t i = 0; i < c.num_inputs(); ++i) {
    out += format_tensor_for_print(*c.input(i), summarize);
    out += pieces[i + 1];
  }
  *c.allocate_output(0, DType::kString, Shape())->data<std::string>() = std::move(out);
}

void print_v2_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  check_same_dtype(c.op, DType::kString, in.dtype(), 0);
  if (in.rank() != 0)
    throw_error(Code::kInvalidArgument, "Input is expected to be scalar, but got ", in.shape().to_list_string());
  const std::string stream = c.attrs.get<std::string>("output_stream", "stderr");
  const std::string text = *in.data<std::string>() + c.attrs.get<std::string>("end", "\n");
  static const std::string kFile = "file://";
  if (stream.compare(0, kFile.size(), kFile) == 0) {
    const std::string path = stream.substr(kFile.size());
    std::lock_guard<std::mutex> lock(sink_mutex());
    std::ofstream f(path, std::ios::app | std::ios::binary);
    if (!f) throw_error(Code::kInvalidArgument, "Could not open file for printing: ", path);
    f << text;
    return;
  }
  if (stream == "stdout") {
    write_print_output(kPrintStdout, text);
  } else if (stream == "stderr" || stream == "log(info)" || stream == "log(warning)" || stream == "log(error)") {
    write_print_output(kPrintStderr, text);  // TF logs to stderr too
  } else {
    throw_error(Code::kInvalidArgument, "Unknown output stream: ", stream,
                ", Valid streams are: stdout stderr log(info) log(warning) log(error)");
  }
}

EF_REGISTER_CPU_KERNEL("StringFormat", string_format_kernel);
EF_REGISTER_CPU_KERNEL("PrintV2", print_v2_kernel);

}  // namespace

void set_print_sink(PrintSink s) {
  std::lock_guard<std::mutex> lock(sink_mutex());
  sink() = std::move(s);
}

void write_print_output(int stream, const std::string& text) {
  PrintSink s;
  {
    std::lock_guard<std::mutex> lock(sink_mutex());
    s = sink();
  }
  if (s) {
    s(stream, text);
    return;
  }
  std::lock_guard<std::mutex> lock(sink_mutex());
  std::ostream& os = stream == kPrintStdout ? std::cout : std::cerr;
  os << text;
  os.flush();
}

}  // namespace ef
