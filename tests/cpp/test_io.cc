// C++ unit tests of cpp/io: CRC-32C, the wire format, tables, tensor bundles, TFRecords.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <filesystem>
#include <string>

#include "core/errors.h"
#include "io/crc32c.h"
#include "io/file_util.h"
#include "io/proto_wire.h"
#include "io/record_io.h"
#include "io/summary_file_writer.h"
#include "io/table.h"
#include "io/tensor_bundle.h"

namespace ef::io {
namespace {

namespace fs = std::filesystem;

std::string unhex(const std::string& h) {
  std::string out;
  for (size_t i = 0; i + 1 < h.size(); i += 2) out.push_back(static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16)));
  return out;
}

std::string temp_dir() {
  auto dir = fs::temp_directory_path() / ("ef_io_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir.string();
}

void write_file(const std::string& path, const std::string& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

Code code_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const OpError& e) {
    return e.code();
  }
  return Code(0);
}

TEST(Crc32c, KnownValuesAndMask) {
  EXPECT_EQ(crc32c("123456789", 9), 0xe3069283u);
  EXPECT_EQ(crc32c("", 0), 0u);
  std::string zeros(32, '\0');
  EXPECT_EQ(crc32c(zeros.data(), zeros.size()), 0x8a9136aau);  // RFC 3720 B.4
  std::string s = "hello, world: a string longer than eight bytes";
  EXPECT_EQ(crc32c_extend(crc32c(s.data(), 5), s.data() + 5, s.size() - 5), crc32c(s.data(), s.size()));
  EXPECT_EQ(crc32c_unmask(crc32c_mask(0x12345678u)), 0x12345678u);
}

TEST(ProtoWire, RoundTrip) {
  ProtoWriter w;
  w.varint(1, 300);
  w.bytes(2, "abc");
  w.fixed32(6, 0xdeadbeef);
  w.varint(4, static_cast<uint64_t>(-1));
  ProtoReader r(w.str());
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.field(), 1u);
  EXPECT_EQ(r.value(), 300u);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.bytes(), "abc");
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.value(), 0xdeadbeefu);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(static_cast<int64_t>(r.value()), -1);
  EXPECT_FALSE(r.next());
  std::string cut = w.str().substr(0, 4);
  ProtoReader bad(cut);
  EXPECT_TRUE(bad.next());
  EXPECT_THROW(bad.next(), std::runtime_error);
}

TEST(Table, ManyBlocksRoundTripAndCorruption) {
  TableBuilder b(/*block_size=*/256, /*restart_interval=*/4);
  std::vector<std::pair<std::string, std::string>> want;
  for (int i = 0; i < 500; ++i) {
    char key[32];
    std::snprintf(key, sizeof key, "layer/%05d/kernel", i);
    want.emplace_back(key, std::string(i % 37, static_cast<char>('a' + i % 26)));
  }
  for (auto& [k, v] : want) b.add(k, v);
  std::string file = b.finish();
  EXPECT_EQ(read_table(file, "t"), want);
  std::string flipped = file;
  flipped[100] ^= 0x10;
  EXPECT_EQ(code_of([&] { read_table(flipped, "t"); }), Code::kDataLoss);
  EXPECT_EQ(code_of([&] { read_table(file.substr(0, file.size() - 3), "t"); }), Code::kDataLoss);
  EXPECT_THROW(b.add("a", "b"), std::logic_error);
}

// The checkpoint TF 2.21 writes for tf.train.Checkpoint(x=tf.Variable(2.)).save(): same entries
// in the same order give the same bytes.
const char* kTfData =
    "000000400100000000000000ae019fea52720a1d0a0508011201780a100802120c736176655f636f756e7465722a"
    "0208010a3e12380a0e5641524941424c455f56414c554512085661726961626c651a1c782f2e4154545249425554"
    "45532f5641524941424c455f56414c55452a0208010a4d12470a0e5641524941424c455f56414c5545120c736176"
    "655f636f756e7465721a27736176655f636f756e7465722f2e415454524942555445532f5641524941424c455f56"
    "414c55452a020801";
const char* kTfIndex =
    "00000608011a020801001c0e5f434845434b504f494e5441424c455f4f424a4543545f475241504808071200200c"
    "28b4013569e8f1a800270d736176655f636f756e7465722f2e415454524942555445532f5641524941424c455f56"
    "414c55450809120020042808350175de41001c0b782f2e415454524942555445532f5641524941424c455f56414c"
    "55450801120028043510fd784f000000000100000000c074867a000000000100000000c0f2a1b000010379009f01"
    "000000000100000000a9c48f44a40108b1010f000000000000000000000000000000000000000000000000000000"
    "0000000000000057fb808b247547db";

TEST(TensorBundle, MatchesTensorFlowByteForByte) {
  std::string dir = temp_dir(), prefix = dir + "/ckpt-1";
  std::string tf_data = unhex(kTfData);
  std::string graph = tf_data.substr(18);  // after x, save_counter, the varint length, the length crc
  BundleWriter w(prefix);
  float x = 2.0f;
  int64_t counter = 1;
  w.add("x/.ATTRIBUTES/VARIABLE_VALUE", 1, {}, &x, 4);
  w.add("save_counter/.ATTRIBUTES/VARIABLE_VALUE", 9, {}, &counter, 8);
  w.add_strings("_CHECKPOINTABLE_OBJECT_GRAPH", {}, {graph});
  w.finish();
  EXPECT_EQ(read_file(prefix + ".data-00000-of-00001"), tf_data);
  EXPECT_EQ(read_file(prefix + ".index"), unhex(kTfIndex));
  for (auto& entry : fs::directory_iterator(dir))
    EXPECT_EQ(entry.path().string().find("tempstate"), std::string::npos) << entry.path();

  BundleReader r(prefix);
  EXPECT_EQ(r.keys().size(), 3u);
  EXPECT_EQ(r.read_strings("_CHECKPOINTABLE_OBJECT_GRAPH"), std::vector<std::string>{graph});
  std::string xb = r.read("x/.ATTRIBUTES/VARIABLE_VALUE");
  float got;
  std::memcpy(&got, xb.data(), 4);
  EXPECT_EQ(got, 2.0f);
  EXPECT_EQ(code_of([&] { r.read("nope"); }), Code::kNotFound);
  fs::remove_all(dir);
}

TEST(TensorBundle, ShapesCorruptionAndMissingFiles) {
  std::string dir = temp_dir(), prefix = dir + "/m";
  std::vector<double> big(100000);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<double>(i) * 0.5;
  {
    BundleWriter w(prefix);
    w.add("b", 2, {200, 500}, big.data(), big.size() * 8);
    w.add_strings("a", {2, 2}, {"", "x", std::string(300, 'y'), "z"});
    EXPECT_EQ(code_of([&] { w.add("a", 1, {}, big.data(), 4); }), Code::kInvalidArgument);
    w.finish();
  }
  {
    BundleReader r(prefix);
    EXPECT_EQ(r.entry("b").shape, (std::vector<int64_t>{200, 500}));
    EXPECT_EQ(r.entry("b").dtype, 2);
    EXPECT_EQ(r.read("b"), std::string(reinterpret_cast<char*>(big.data()), big.size() * 8));
    EXPECT_EQ(r.read_strings("a")[2], std::string(300, 'y'));
  }
  std::string data_path = prefix + ".data-00000-of-00001";
  std::string data = read_file(data_path);
  data[data.size() / 2] ^= 1;
  write_file(data_path, data);
  EXPECT_EQ(code_of([&] { BundleReader(prefix).read("b"); }), Code::kDataLoss);
  write_file(data_path, data.substr(0, 100));
  EXPECT_EQ(code_of([&] { BundleReader(prefix).read("b"); }), Code::kDataLoss);
  std::string index = read_file(prefix + ".index");
  write_file(prefix + ".index", index.substr(0, index.size() - 10));
  EXPECT_EQ(code_of([&] { BundleReader r(prefix); }), Code::kDataLoss);
  EXPECT_EQ(code_of([&] { BundleReader r(dir + "/missing"); }), Code::kNotFound);
  {
    BundleWriter abandoned(dir + "/never");
    abandoned.add("k", 1, {}, big.data(), 4);
  }
  EXPECT_FALSE(fs::exists(dir + "/never.index"));
  EXPECT_FALSE(fs::exists(dir + "/never.data-00000-of-00001"));
  fs::remove_all(dir);
}

TEST(RecordIO, RoundTripTruncatedTailAndCorruption) {
  std::string dir = temp_dir(), path = dir + "/events";
  {
    RecordWriter w(path);
    w.write("first");
    w.write(std::string(1000, 'q'));
    w.write("");
    w.close();
  }
  auto records = read_records(path);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0], "first");
  EXPECT_EQ(records[1], std::string(1000, 'q'));
  std::string file = read_file(path);
  write_file(path, file.substr(0, file.size() - 2));
  EXPECT_EQ(read_records(path).size(), 2u);
  EXPECT_EQ(code_of([&] { read_records(path, false); }), Code::kDataLoss);
  file[14] ^= 1;
  write_file(path, file);
  EXPECT_EQ(code_of([&] { read_records(path); }), Code::kDataLoss);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ef::io

namespace ef::io {
namespace {

TEST(SummaryFileWriter, BackgroundWritesFlushAndClose) {
  std::string dir = temp_dir(), path = dir + "/events.v2";
  SummaryFileWriter w(path, /*max_queue=*/1000, /*flush_millis=*/100000);
  for (int i = 0; i < 100; ++i) w.write("record " + std::to_string(i));
  w.flush();
  auto records = read_records(path);
  ASSERT_EQ(records.size(), 100u);
  EXPECT_EQ(records[99], "record 99");
  w.write("last");
  w.close();
  EXPECT_EQ(read_records(path).size(), 101u);
  EXPECT_THROW(w.write("after close"), OpError);
  w.close();  // twice is fine
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ef::io
