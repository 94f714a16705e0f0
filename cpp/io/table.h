// The immutable sorted key/value table of a tensor bundle's .index file (LevelDB's format, as
// TF's lib/io/table writes it): data blocks of prefix-compressed keys with restart points, an
// empty metaindex block, an index block, and a 48-byte footer ending in the table magic.
// Every block is followed by a compression byte (0: none) and the masked CRC-32C of both.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ef::io {

constexpr uint64_t kTableMagic = 0xdb4775248b80fb57ull;

class TableBuilder {
 public:
  // TF's defaults (table::Options): 256 KiB blocks, a restart point every 16 keys.
  explicit TableBuilder(size_t block_size = 262144, int restart_interval = 16)
      : block_size_(block_size), restart_interval_(restart_interval) {}
  // Keys must be added in strictly increasing byte order.
  void add(std::string_view key, std::string_view value);
  // The whole table file.
  std::string finish();

 private:
  struct Block {
    std::string data;
    std::vector<uint32_t> restarts{0};
    std::string last_key;
    int since_restart = 0;
    size_t entries = 0;
    void add(std::string_view key, std::string_view value, int restart_interval);
    std::string finish();
  };
  void flush_block(const std::string* next_key);
  void write_block(std::string contents, std::string* handle);

  size_t block_size_;
  int restart_interval_;
  std::string out_;
  Block data_, index_;
  std::string last_key_;
  bool any_ = false;
};

// Parses a whole table file into its entries in key order. Corruption (bad magic, bad block
// checksum, truncation, malformed entries) throws OpError(kDataLoss) naming `filename`.
std::vector<std::pair<std::string, std::string>> read_table(std::string_view file,
                                                            const std::string& filename);

}  // namespace ef::io
