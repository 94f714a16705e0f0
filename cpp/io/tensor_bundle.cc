// TensorBundle V2 writer and reader.
#include "io/tensor_bundle.h"

#include <cstdio>
#include <cstring>
#include <future>
#include <stdexcept>

#include "core/errors.h"
#include "io/crc32c.h"
#include "io/proto_wire.h"
#include "io/table.h"

namespace ef::io {
namespace {

constexpr int kDtString = 7;
constexpr int kBundleVersion = 1;  // BundleHeaderProto.version.producer as TF writes it

std::string encode_shape(const std::vector<int64_t>& shape) {
  ProtoWriter s;
  for (int64_t d : shape) {
    ProtoWriter dim;
    dim.varint(1, static_cast<uint64_t>(d));
    s.bytes(2, dim.str());
  }
  return s.take();
}

std::string encode_entry(const BundleEntry& e) {
  ProtoWriter w;
  if (e.dtype) w.varint(1, e.dtype);
  w.bytes(2, encode_shape(e.shape));
  if (e.shard_id) w.varint(3, e.shard_id);
  if (e.offset) w.varint(4, e.offset);
  if (e.size) w.varint(5, e.size);
  w.fixed32(6, crc32c_mask(e.crc32c));
  return w.take();
}

std::string encode_header(int num_shards) {
  ProtoWriter version, w;
  version.varint(1, kBundleVersion);
  w.varint(1, num_shards);
  w.bytes(3, version.str());
  return w.take();
}

// TF checksums each string length as a little-endian uint32 (uint64 beyond 4 GiB).
uint32_t extend_length(uint32_t crc, uint64_t n) {
  if (n <= 0xffffffffu) {
    auto n32 = static_cast<uint32_t>(n);
    return crc32c_extend(crc, &n32, sizeof n32);
  }
  return crc32c_extend(crc, &n, sizeof n);
}

std::vector<int64_t> decode_shape(std::string_view bytes) {
  std::vector<int64_t> shape;
  ProtoReader r(bytes);
  while (r.next()) {
    if (r.field() == 2 && r.wire_type() == 2) {
      int64_t size = 0;
      ProtoReader dim(r.bytes());
      while (dim.next())
        if (dim.field() == 1 && dim.wire_type() == 0) size = static_cast<int64_t>(dim.value());
      shape.push_back(size);
    } else if (r.field() == 3 && r.value()) {
      throw std::runtime_error("unknown-rank shape in a checkpoint entry");
    }
  }
  return shape;
}

BundleEntry decode_entry(std::string_view bytes) {
  BundleEntry e;
  ProtoReader r(bytes);
  while (r.next()) {
    switch (r.field()) {
      case 1: e.dtype = static_cast<int>(r.value()); break;
      case 2: e.shape = decode_shape(r.bytes()); break;
      case 3: e.shard_id = static_cast<int32_t>(r.value()); break;
      case 4: e.offset = static_cast<int64_t>(r.value()); break;
      case 5: e.size = static_cast<int64_t>(r.value()); break;
      case 6: e.crc32c = crc32c_unmask(static_cast<uint32_t>(r.value())); break;
      case 7: throw std::runtime_error("sliced (partitioned) variables are not supported");
      default: break;
    }
  }
  if (e.offset < 0 || e.size < 0) throw std::runtime_error("negative offset or size");
  return e;
}

}  // namespace

std::string bundle_data_path(const std::string& prefix, int shard, int num_shards) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ".data-%05d-of-%05d", shard, num_shards);
  return prefix + buf;
}

std::string bundle_index_path(const std::string& prefix) { return prefix + ".index"; }

BundleWriter::BundleWriter(std::string prefix)
    : prefix_(std::move(prefix)), data_(bundle_data_path(prefix_)) {}

BundleEntry& BundleWriter::start(const std::string& key, int dtype, const std::vector<int64_t>& shape) {
  EF_INVALID(!finished_, "BundleWriter for ", prefix_, " is already finished");
  EF_INVALID(!key.empty(), "The empty key is reserved for the bundle header");
  auto [it, fresh] = entries_.try_emplace(key);
  EF_INVALID(fresh, "Adding duplicate key: ", key);
  BundleEntry& e = it->second;
  e.dtype = dtype;
  e.shape = shape;
  e.offset = static_cast<int64_t>(data_.size());
  return e;
}

void BundleWriter::add(const std::string& key, int dtype, const std::vector<int64_t>& shape,
                       const void* data, size_t size) {
  BundleEntry& e = start(key, dtype, shape);
  e.size = static_cast<int64_t>(size);
  if (size >= (size_t{8} << 20)) {  // large: checksum on another core while the bytes are written
    auto crc = std::async(std::launch::async, [data, size] { return crc32c(data, size); });
    data_.append(data, size);
    e.crc32c = crc.get();
  } else {
    data_.append(data, size);
    e.crc32c = crc32c(data, size);
  }
}

void BundleWriter::add_strings(const std::string& key, const std::vector<int64_t>& shape,
                               const std::vector<std::string>& values) {
  BundleEntry& e = start(key, kDtString, shape);
  // The checksum covers the lengths, then the masked length checksum, then the bytes.
  std::string lengths;
  uint32_t crc = 0;
  for (const auto& v : values) {
    ProtoWriter::put_varint(lengths, v.size());
    crc = extend_length(crc, v.size());
  }
  uint32_t length_crc = crc32c_mask(crc);
  crc = crc32c_extend(crc, &length_crc, sizeof length_crc);
  data_.append(lengths);
  data_.append(&length_crc, sizeof length_crc);
  for (const auto& v : values) {
    data_.append(v);
    crc = crc32c_extend(crc, v.data(), v.size());
  }
  e.size = static_cast<int64_t>(data_.size()) - e.offset;
  e.crc32c = crc;
}

void BundleWriter::finish() {
  EF_INVALID(!finished_, "BundleWriter for ", prefix_, " is already finished");
  finished_ = true;
  TableBuilder table;
  table.add("", encode_header(1));
  for (const auto& [key, e] : entries_) table.add(key, encode_entry(e));
  AtomicFile index(bundle_index_path(prefix_));
  index.append(table.finish());
  data_.close();
  index.close();
  data_.rename();
  index.rename();
}

BundleReader::BundleReader(std::string prefix) : prefix_(std::move(prefix)) {
  std::string path = bundle_index_path(prefix_);
  if (!file_exists(path))
    throw_error(Code::kNotFound,
                "Unsuccessful TensorSliceReader constructor: Failed to find any matching files for ",
                prefix_);
  std::string file = read_file(path);
  auto rows = read_table(file, path);
  try {
    bool header = false;
    for (auto& [key, value] : rows) {
      if (key.empty()) {
        header = true;
        ProtoReader r(value);
        while (r.next()) {
          if (r.field() == 1) num_shards_ = static_cast<int>(r.value());
          if (r.field() == 2 && r.value() != 0) throw std::runtime_error("big-endian bundles are not supported");
        }
        if (num_shards_ < 1) throw std::runtime_error("bad shard count");
        continue;
      }
      BundleEntry e = decode_entry(value);
      if (e.shard_id < 0 || e.shard_id >= num_shards_) throw std::runtime_error("bad shard id");
      entries_.emplace(key, std::move(e));
    }
    if (!header) throw std::runtime_error("no bundle header");
  } catch (const std::runtime_error& err) {
    if (dynamic_cast<const OpError*>(&err)) throw;
    throw_error(Code::kDataLoss, "Unable to read checkpoint index file ", path, ": ", err.what());
  }
}

std::vector<std::string> BundleReader::keys() const {
  std::vector<std::string> out;
  out.reserve(entries_.size());
  for (const auto& kv : entries_) out.push_back(kv.first);
  return out;
}

const BundleEntry& BundleReader::entry(const std::string& key) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) throw_error(Code::kNotFound, "Key ", key, " not found in checkpoint");
  return it->second;
}

void BundleReader::read_raw_into(const BundleEntry& e, char* dst) const {
  std::string path = bundle_data_path(prefix_, e.shard_id, num_shards_);
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw_error(Code::kNotFound, path, "; No such file or directory");
  size_t n = static_cast<size_t>(e.size);
  bool ok = std::fseek(f, static_cast<long>(e.offset), SEEK_SET) == 0 && std::fread(dst, 1, n, f) == n;
  std::fclose(f);
  if (!ok)
    throw_error(Code::kDataLoss, "TensorBundle at ", prefix_, " shard ", e.shard_id,
                ": truncated data file ", path, " (wanted ", e.size, " bytes at offset ", e.offset, ")");
}

std::string BundleReader::read_raw(const BundleEntry& e) const {
  std::string out(static_cast<size_t>(e.size), '\0');
  read_raw_into(e, out.data());
  return out;
}

void BundleReader::checksum_error(const BundleEntry& e, uint32_t got) const {
  throw_error(Code::kDataLoss, "TensorBundle at ", prefix_, " shard ", e.shard_id, " (", e.size,
              " bytes): Checksum does not match: stored ", e.crc32c,
              " vs. calculated on the restored bytes ", got);
}

std::string BundleReader::read(const std::string& key) const {
  const BundleEntry& e = entry(key);
  EF_INVALID(e.dtype != kDtString, "Key ", key, " holds strings");
  std::string out = read_raw(e);
  uint32_t got = crc32c(out.data(), out.size());
  if (got != e.crc32c) checksum_error(e, got);
  return out;
}

void BundleReader::read_into(const std::string& key, void* dst, size_t size) const {
  const BundleEntry& e = entry(key);
  EF_INVALID(e.dtype != kDtString, "Key ", key, " holds strings");
  EF_INVALID(static_cast<int64_t>(size) == e.size, "Key ", key, " holds ", e.size, " bytes, not ", size);
  read_raw_into(e, static_cast<char*>(dst));
  uint32_t got = crc32c(dst, size);
  if (got != e.crc32c) checksum_error(e, got);
}

std::vector<std::string> BundleReader::read_strings(const std::string& key) const {
  const BundleEntry& e = entry(key);
  EF_INVALID(e.dtype == kDtString, "Key ", key, " does not hold strings");
  std::string raw = read_raw(e);
  int64_t n = 1;
  for (int64_t d : e.shape) n *= d;
  std::string_view p(raw);
  std::vector<uint64_t> lengths;
  uint32_t crc = 0;
  auto bad = [&](const char* what) {
    throw_error(Code::kDataLoss, "TensorBundle at ", prefix_, ": string tensor ", key, ": ", what);
  };
  if (n < 0 || static_cast<uint64_t>(n) > raw.size()) bad("bad element count");
  for (int64_t i = 0; i < n; ++i) {
    uint64_t len;
    if (!ProtoReader::get_varint(p, &len)) bad("truncated lengths");
    lengths.push_back(len);
    crc = extend_length(crc, len);
  }
  if (p.size() < 4) bad("truncated length checksum");
  uint32_t stored_len_crc;
  std::memcpy(&stored_len_crc, p.data(), 4);
  if (stored_len_crc != crc32c_mask(crc)) checksum_error(e, crc);
  crc = crc32c_extend(crc, p.data(), 4);
  p.remove_prefix(4);
  std::vector<std::string> out;
  out.reserve(lengths.size());
  for (uint64_t len : lengths) {
    if (len > p.size()) bad("truncated bytes");
    out.emplace_back(p.substr(0, len));
    crc = crc32c_extend(crc, p.data(), len);
    p.remove_prefix(len);
  }
  if (crc != e.crc32c) checksum_error(e, crc);
  return out;
}

}  // namespace ef::io
