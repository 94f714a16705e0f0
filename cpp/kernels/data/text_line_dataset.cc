// TextLineDataset: the lines of text files (plain, GZIP or ZLIB), in file order, without their
// "\n" (or "\r\n"; a trailing "\r" at the end of a file goes too, as TF's reader drops it). A
// file is opened when the iterator reaches it, so a missing file is an error of iteration.
#include <algorithm>
#include <cstring>
#include <memory>

#include "core/errors.h"
#include "kernels/data/dataset.h"
#include "kernels/data/file_io.h"

namespace ef {
namespace {

constexpr size_t kDefaultBufferSize = 256 << 10;

class TextLineDataset final : public DatasetBase {
 public:
  TextLineDataset(std::vector<std::string> filenames, std::string compression, size_t buffer_size)
      : DatasetBase({DType::kString}, {Shape()}), filenames_(std::move(filenames)),
        compression_(std::move(compression)), buffer_size_(buffer_size) {}
  int64_t cardinality() const override { return kUnknownCardinality; }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    return std::make_unique<Iterator>(self<TextLineDataset>());
  }

 private:
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const TextLineDataset> ds) : ds_(std::move(ds)), buf_(ds_->buffer_size_) {}
    bool get_next(Element& out) override {
      std::string line;
      for (;;) {
        if (!file_) {
          if (next_file_ >= ds_->filenames_.size()) return false;
          file_ = open_input(ds_->filenames_[next_file_++], ds_->compression_, ds_->buffer_size_);
          pos_ = end_ = 0;
        }
        if (read_line(line)) break;
        file_.reset();
      }
      out.assign(1, TensorImpl::scalar<std::string>(std::move(line)));
      return true;
    }

   private:
    // The next line of the current file; false at its end (with no characters left).
    bool read_line(std::string& line) {
      bool any = false;
      for (;;) {
        if (pos_ == end_) {
          pos_ = 0;
          end_ = file_->read(buf_.data(), buf_.size());
          if (end_ == 0) break;
        }
        any = true;
        const char* start = buf_.data() + pos_;
        const void* nl = std::memchr(start, '\n', end_ - pos_);
        if (nl) {
          const size_t n = static_cast<const char*>(nl) - start;
          line.append(start, n);
          pos_ += n + 1;
          break;
        }
        line.append(start, end_ - pos_);
        pos_ = end_;
      }
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return any;
    }
    std::shared_ptr<const TextLineDataset> ds_;
    std::vector<char> buf_;
    size_t pos_ = 0, end_ = 0, next_file_ = 0;
    std::unique_ptr<InputStream> file_;
  };
  std::vector<std::string> filenames_;
  std::string compression_;
  size_t buffer_size_;
};

void text_line_kernel(KernelContext& c) {
  const Tensor& names = c.input(0);
  if (names->dtype() != DType::kString || names->rank() > 1)
    throw_error(Code::kInvalidArgument, "`filenames` must be a scalar or a vector.");
  const Tensor& compression = c.input(1);
  if (compression->dtype() != DType::kString || compression->rank() != 0)
    throw_error(Code::kInvalidArgument, "`compression_type` must be a scalar string.");
  const std::string kind = *compression->data<std::string>();
  check_compression_type(kind);
  const int64_t buffer_size = scalar_int_input(c, 2, "buffer_size");
  if (buffer_size < 0) throw_error(Code::kInvalidArgument, "`buffer_size` must be >= 0 (0 == default)");
  const std::string* p = names->data<std::string>();
  std::vector<std::string> filenames(p, p + names->num_elements());
  set_dataset_output(c, std::make_shared<TextLineDataset>(std::move(filenames), kind,
                                                          buffer_size ? buffer_size : kDefaultBufferSize));
}

void matching_files_kernel(KernelContext& c) {
  const Tensor& patterns = c.input(0);
  if (patterns->rank() > 1)
    throw_error(Code::kInvalidArgument, "Input patterns tensor must be scalar or vector, but had shape: ",
                patterns->shape().to_list_string());
  const std::string* p = patterns->data<std::string>();
  std::vector<std::string> all;
  for (int64_t i = 0; i < patterns->num_elements(); ++i) {
    std::vector<std::string> m = matching_files(p[i]);
    all.insert(all.end(), m.begin(), m.end());
  }
  std::sort(all.begin(), all.end());
  Tensor out = TensorImpl::empty(DType::kString, Shape({static_cast<int64_t>(all.size())}));
  std::string* o = out->data<std::string>();
  for (size_t i = 0; i < all.size(); ++i) o[i] = std::move(all[i]);
  c.set_output(0, std::move(out));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("TextLineDataset", text_line_kernel);
EF_REGISTER_CPU_KERNEL("MatchingFiles", matching_files_kernel);

}  // namespace ef
