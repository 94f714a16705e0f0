// Where PrintV2 writes stdout/stderr text: a plain C++ callback, so kernels need no Python.
// The bindings install one that writes to Python's sys.stdout / sys.stderr (cpp/bindings/logging.cc).
#pragma once
#include <functional>
#include <string>

namespace ef {

enum PrintStream : int { kPrintStdout = 1, kPrintStderr = 2 };

// stream is kPrintStdout or kPrintStderr; text already holds the `end` string.
using PrintSink = std::function<void(int stream, const std::string& text)>;

// Installs the sink (an empty one restores the default: std::cout / std::cerr).
void set_print_sink(PrintSink sink);
// Writes through the current sink (calls are serialized).
void write_print_output(int stream, const std::string& text);

}  // namespace ef
