// TF's TensorBundle V2 checkpoint format: `<prefix>.index` (a table: key "" holds the
// BundleHeaderProto, every other key a BundleEntryProto with dtype, shape, shard, offset, size
// and masked CRC-32C) and `<prefix>.data-00000-of-00001` (the tensors' little-endian bytes;
// strings as varint lengths, the masked CRC of the lengths, then the bytes).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/file_util.h"

namespace ef::io {

// dtype is TF's DataType enum value (1 float, 9 int64, 7 string, ...).
struct BundleEntry {
  int dtype = 0;
  std::vector<int64_t> shape;
  int32_t shard_id = 0;
  int64_t offset = 0;
  int64_t size = 0;
  uint32_t crc32c = 0;  // unmasked
};

std::string bundle_data_path(const std::string& prefix, int shard = 0, int num_shards = 1);
std::string bundle_index_path(const std::string& prefix);

// Writes one bundle: data and index go to temporary files; finish() renames them into place
// (data first, so an index never names bytes that are not there). Without finish() nothing
// under the real names changes.
class BundleWriter {
 public:
  explicit BundleWriter(std::string prefix);
  void add(const std::string& key, int dtype, const std::vector<int64_t>& shape, const void* data,
           size_t size);
  void add_strings(const std::string& key, const std::vector<int64_t>& shape,
                   const std::vector<std::string>& values);
  void finish();

 private:
  BundleEntry& start(const std::string& key, int dtype, const std::vector<int64_t>& shape);
  std::string prefix_;
  AtomicFile data_;
  std::map<std::string, BundleEntry> entries_;
  bool finished_ = false;
};

// Reads a bundle's index at construction (NotFound when missing, DataLoss when corrupt) and
// tensors on demand, verifying each one's checksum.
class BundleReader {
 public:
  explicit BundleReader(std::string prefix);
  const std::string& prefix() const { return prefix_; }
  std::vector<std::string> keys() const;
  bool contains(const std::string& key) const { return entries_.count(key) > 0; }
  const BundleEntry& entry(const std::string& key) const;  // NotFound for a missing key
  std::string read(const std::string& key) const;          // numeric dtypes: raw bytes
  // Reads a numeric entry straight into `dst` (exactly entry(key).size bytes), checksum verified.
  void read_into(const std::string& key, void* dst, size_t size) const;
  std::vector<std::string> read_strings(const std::string& key) const;

 private:
  std::string read_raw(const BundleEntry& e) const;
  void read_raw_into(const BundleEntry& e, char* dst) const;
  [[noreturn]] void checksum_error(const BundleEntry& e, uint32_t got) const;
  std::string prefix_;
  int num_shards_ = 1;
  std::map<std::string, BundleEntry> entries_;
};

}  // namespace ef::io
