// Protocol-buffer wire format: varint, fixed32/64 and length-delimited fields.
#include "io/proto_wire.h"

#include <cstring>
#include <stdexcept>

namespace ef::io {

void ProtoWriter::put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void ProtoWriter::varint(uint32_t field, uint64_t v) {
  put_varint(out_, uint64_t{field} << 3);
  put_varint(out_, v);
}

void ProtoWriter::fixed32(uint32_t field, uint32_t v) {
  put_varint(out_, (uint64_t{field} << 3) | 5);
  char b[4];
  std::memcpy(b, &v, 4);  // little-endian hosts only (x86-64, aarch64)
  out_.append(b, 4);
}

void ProtoWriter::bytes(uint32_t field, std::string_view v) {
  put_varint(out_, (uint64_t{field} << 3) | 2);
  put_varint(out_, v.size());
  out_.append(v.data(), v.size());
}

bool ProtoReader::get_varint(std::string_view& in, uint64_t* v) {
  uint64_t r = 0;
  for (int shift = 0; shift < 64 && !in.empty(); shift += 7) {
    auto b = static_cast<uint8_t>(in.front());
    in.remove_prefix(1);
    r |= uint64_t{b & 0x7fu} << shift;
    if (!(b & 0x80)) {
      *v = r;
      return true;
    }
  }
  return false;
}

bool ProtoReader::next() {
  if (p_.empty()) return false;
  uint64_t tag;
  if (!get_varint(p_, &tag)) throw std::runtime_error("truncated field tag");
  field_ = static_cast<uint32_t>(tag >> 3);
  wire_ = static_cast<uint32_t>(tag & 7);
  bytes_ = {};
  switch (wire_) {
    case 0:
      if (!get_varint(p_, &value_)) throw std::runtime_error("truncated varint");
      break;
    case 1:
    case 5: {
      size_t n = wire_ == 1 ? 8 : 4;
      if (p_.size() < n) throw std::runtime_error("truncated fixed-width field");
      value_ = 0;
      std::memcpy(&value_, p_.data(), n);
      p_.remove_prefix(n);
      break;
    }
    case 2: {
      uint64_t n;
      if (!get_varint(p_, &n) || n > p_.size()) throw std::runtime_error("truncated bytes field");
      bytes_ = p_.substr(0, n);
      p_.remove_prefix(n);
      break;
    }
    default:
      throw std::runtime_error("unsupported wire type " + std::to_string(wire_));
  }
  return true;
}

}  // namespace ef::io
