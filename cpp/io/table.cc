// Table writer and reader (LevelDB block format without compression).
#include "io/table.h"

#include <cstring>
#include <stdexcept>

#include "core/errors.h"
#include "io/crc32c.h"
#include "io/proto_wire.h"

namespace ef::io {
namespace {

constexpr size_t kFooterSize = 48;  // two block handles padded to 40 bytes, then the magic
constexpr size_t kTrailerSize = 5;  // compression type + masked crc

void put_fixed32(std::string& out, uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);
  out.append(b, 4);
}

uint32_t get_fixed32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// LevelDB's BytewiseComparator: a short key in [start, limit) to index a block by.
std::string shortest_separator(std::string start, std::string_view limit) {
  size_t n = std::min(start.size(), limit.size()), i = 0;
  while (i < n && start[i] == limit[i]) ++i;
  if (i < n) {
    auto b = static_cast<uint8_t>(start[i]);
    if (b < 0xff && b + 1 < static_cast<uint8_t>(limit[i])) {
      start[i] = static_cast<char>(b + 1);
      start.resize(i + 1);
    }
  }
  return start;
}

std::string short_successor(std::string key) {
  for (size_t i = 0; i < key.size(); ++i) {
    if (static_cast<uint8_t>(key[i]) != 0xff) {
      key[i] = static_cast<char>(static_cast<uint8_t>(key[i]) + 1);
      key.resize(i + 1);
      return key;
    }
  }
  return key;
}

}  // namespace

void TableBuilder::Block::add(std::string_view key, std::string_view value, int restart_interval) {
  size_t shared = 0;
  if (since_restart < restart_interval) {
    size_t n = std::min(last_key.size(), key.size());
    while (shared < n && last_key[shared] == key[shared]) ++shared;
  } else {
    restarts.push_back(static_cast<uint32_t>(data.size()));
    since_restart = 0;
  }
  ProtoWriter::put_varint(data, shared);
  ProtoWriter::put_varint(data, key.size() - shared);
  ProtoWriter::put_varint(data, value.size());
  data.append(key.substr(shared));
  data.append(value);
  last_key.assign(key);
  ++since_restart;
  ++entries;
}

std::string TableBuilder::Block::finish() {
  std::string out = std::move(data);
  for (uint32_t r : restarts) put_fixed32(out, r);
  put_fixed32(out, static_cast<uint32_t>(restarts.size()));
  *this = Block();
  return out;
}

void TableBuilder::write_block(std::string contents, std::string* handle) {
  handle->clear();
  ProtoWriter::put_varint(*handle, out_.size());
  ProtoWriter::put_varint(*handle, contents.size());
  contents.push_back('\0');  // kNoCompression
  uint32_t crc = crc32c_mask(crc32c(contents.data(), contents.size()));
  out_.append(contents);
  put_fixed32(out_, crc);
}

void TableBuilder::flush_block(const std::string* next_key) {
  if (data_.entries == 0) return;
  std::string index_key =
      next_key ? shortest_separator(data_.last_key, *next_key) : short_successor(data_.last_key);
  std::string handle;
  write_block(data_.finish(), &handle);
  index_.add(index_key, handle, 1);
}

void TableBuilder::add(std::string_view key, std::string_view value) {
  if (any_ && key <= std::string_view(last_key_))
    throw std::logic_error("table keys must be added in increasing order");
  if (data_.data.size() >= block_size_) {
    std::string k(key);
    flush_block(&k);
  }
  data_.add(key, value, restart_interval_);
  last_key_.assign(key);
  any_ = true;
}

std::string TableBuilder::finish() {
  flush_block(nullptr);
  std::string meta_handle, index_handle;
  write_block(Block().finish(), &meta_handle);
  write_block(index_.finish(), &index_handle);
  std::string footer = meta_handle + index_handle;
  footer.resize(kFooterSize - 8, '\0');
  put_fixed32(footer, static_cast<uint32_t>(kTableMagic));
  put_fixed32(footer, static_cast<uint32_t>(kTableMagic >> 32));
  out_.append(footer);
  return std::move(out_);
}

namespace {

struct Parser {
  std::string_view file;
  const std::string& name;

  [[noreturn]] void corrupt(const std::string& what) const {
    throw_error(Code::kDataLoss, "Unable to read checkpoint index file ", name, ": ", what);
  }

  std::string_view block(std::string_view& handle) const {
    uint64_t off, size;
    if (!ProtoReader::get_varint(handle, &off) || !ProtoReader::get_varint(handle, &size))
      corrupt("bad block handle");
    if (off > file.size() || size + kTrailerSize > file.size() - off) corrupt("truncated block");
    const char* p = file.data() + off;
    uint32_t stored = crc32c_unmask(get_fixed32(p + size + 1));
    if (crc32c(p, size + 1) != stored) corrupt("block checksum mismatch");
    if (p[size] != 0) corrupt("unsupported block compression type " + std::to_string(p[size]));
    return {p, size};
  }

  template <typename F>
  void entries(std::string_view b, F&& f) const {
    if (b.size() < 4) corrupt("block too short");
    uint32_t restarts = get_fixed32(b.data() + b.size() - 4);
    if (restarts > (b.size() - 4) / 4) corrupt("bad restart count");
    std::string_view p = b.substr(0, b.size() - 4 - 4 * size_t{restarts});
    std::string key;
    while (!p.empty()) {
      uint64_t shared, non_shared, vlen;
      if (!ProtoReader::get_varint(p, &shared) || !ProtoReader::get_varint(p, &non_shared) ||
          !ProtoReader::get_varint(p, &vlen) || shared > key.size() || non_shared > p.size() ||
          vlen > p.size() - non_shared)
        corrupt("bad block entry");
      key.resize(shared);
      key.append(p.substr(0, non_shared));
      f(key, p.substr(non_shared, vlen));
      p.remove_prefix(non_shared + vlen);
    }
  }
};

}  // namespace

std::vector<std::pair<std::string, std::string>> read_table(std::string_view file,
                                                            const std::string& filename) {
  Parser parser{file, filename};
  if (file.size() < kFooterSize) parser.corrupt("file too short to be a table");
  std::string_view footer = file.substr(file.size() - kFooterSize);
  uint64_t magic = get_fixed32(footer.data() + 40) | uint64_t{get_fixed32(footer.data() + 44)} << 32;
  if (magic != kTableMagic) parser.corrupt("not an sstable (bad magic number)");
  std::string_view handles = footer.substr(0, 40);
  parser.block(handles);  // metaindex: checked, unused
  std::string_view index = parser.block(handles);
  std::vector<std::pair<std::string, std::string>> out;
  parser.entries(index, [&](const std::string&, std::string_view handle) {
    std::string_view data = parser.block(handle);
    parser.entries(data, [&](const std::string& k, std::string_view v) {
      if (!out.empty() && k <= out.back().first) parser.corrupt("keys out of order");
      out.emplace_back(k, std::string(v));
    });
  });
  return out;
}

}  // namespace ef::io
