// Protocol-buffer wire format, just enough for the few TF messages the file formats hold
// (BundleHeaderProto, BundleEntryProto, TensorShapeProto): varints, length-delimited fields,
// fixed32. Decoding checks every length against the buffer, so a corrupt message is an error,
// never an out-of-bounds read.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace ef::io {

class ProtoWriter {
 public:
  void varint(uint32_t field, uint64_t v);  // int32/int64/enum/bool (negative ints as 10 bytes)
  void fixed32(uint32_t field, uint32_t v);
  void bytes(uint32_t field, std::string_view v);  // strings and embedded messages
  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }

  static void put_varint(std::string& out, uint64_t v);

 private:
  std::string out_;
};

// Reads fields in order. next() returns false at the end and throws std::runtime_error on
// malformed input (callers turn it into the right tf.errors class, naming the file).
class ProtoReader {
 public:
  explicit ProtoReader(std::string_view data) : p_(data) {}
  bool next();
  uint32_t field() const { return field_; }
  uint32_t wire_type() const { return wire_; }
  uint64_t value() const { return value_; }           // varint / fixed32 / fixed64
  std::string_view bytes() const { return bytes_; }   // length-delimited

  // Reads a varint from the front of `in`, advancing it; false when truncated or too long.
  static bool get_varint(std::string_view& in, uint64_t* v);

 private:
  std::string_view p_;
  uint32_t field_ = 0, wire_ = 0;
  uint64_t value_ = 0;
  std::string_view bytes_;
};

}  // namespace ef::io
