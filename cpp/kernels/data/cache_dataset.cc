// CacheDataset. Empty filename: the first iteration that reaches the end stores the elements in
// memory, and later iterators read them instead of the input. A filename: TF's file protocol —
// an iterator that finds "<filename>.index" reads "<filename>.data-00000-of-00001"; otherwise it
// takes "<filename>_0.lockfile" (a second writer meanwhile is AlreadyExists), writes a temporary
// file and, only when its pass is complete, renames it into place and writes the index. A partial
// pass leaves nothing behind, so a later pass never reads a truncated cache as complete.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <random>

#include "core/errors.h"
#include "kernels/data/dataset.h"
#include "kernels/data/element_file.h"
#include "kernels/data/file_io.h"

namespace ef {
namespace {

class MemoryCacheDataset final : public DatasetBase {
 public:
  explicit MemoryCacheDataset(DatasetPtr input) : DatasetBase(input->dtypes(), input->shapes()), input_(std::move(input)) {}
  int64_t cardinality() const override { return input_->cardinality(); }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    return std::make_unique<Iterator>(self<MemoryCacheDataset>());
  }

 private:
  using Elements = std::vector<Element>;
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const MemoryCacheDataset> ds) : ds_(std::move(ds)) {
      std::lock_guard<std::mutex> l(ds_->mu_);
      cache_ = ds_->cache_;
      if (!cache_) input_ = ds_->input_->make_iterator();
    }
    bool get_next(Element& out) override {
      if (cache_) {
        if (i_ >= cache_->size()) return false;
        out = (*cache_)[i_++];
        return true;
      }
      if (!input_) return false;
      if (input_->get_next(out)) {
        written_.push_back(out);
        return true;
      }
      input_.reset();
      std::lock_guard<std::mutex> l(ds_->mu_);
      if (!ds_->cache_) ds_->cache_ = std::make_shared<const Elements>(std::move(written_));
      return false;
    }

   private:
    std::shared_ptr<const MemoryCacheDataset> ds_;
    std::shared_ptr<const Elements> cache_;
    size_t i_ = 0;
    std::unique_ptr<IteratorBase> input_;
    Elements written_;
  };
  DatasetPtr input_;
  mutable std::mutex mu_;
  mutable std::shared_ptr<const Elements> cache_;  // set once, by the first complete pass
};

class FileCacheDataset final : public DatasetBase {
 public:
  FileCacheDataset(DatasetPtr input, std::string filename)
      : DatasetBase(input->dtypes(), input->shapes()), input_(std::move(input)), filename_(std::move(filename)) {}
  int64_t cardinality() const override { return input_->cardinality(); }
  std::unique_ptr<IteratorBase> make_iterator() const override { return std::make_unique<Iterator>(self<FileCacheDataset>()); }

 private:
  std::string index_file() const { return filename_ + ".index"; }
  std::string data_file() const { return filename_ + ".data-00000-of-00001"; }
  std::string lock_file() const { return filename_ + "_0.lockfile"; }

  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const FileCacheDataset> ds) : ds_(std::move(ds)) {}
    ~Iterator() override { abandon(); }
    bool get_next(Element& out) override {
      if (done_) return false;
      if (!reader_ && !input_) start();
      if (reader_) {
        if (reader_->read(out, ds_->dtypes())) return true;
        reader_.reset();
        done_ = true;
        return false;
      }
      if (input_->get_next(out)) {
        writer_->write(out);
        return true;
      }
      finish();
      return false;
    }

   private:
    void start() {
      if (file_exists(ds_->index_file())) {
        reader_ = std::make_unique<ElementReader>(ds_->data_file());
        return;
      }
      const std::string lock = ds_->lock_file();
      const int fd = ::open(lock.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd < 0) {
        if (errno != EEXIST) throw_file_error(lock, errno);
        throw_error(Code::kAlreadyExists, "There appears to be a concurrent caching iterator running - cache lockfile "
                    "already exists ('", lock, "'). If you are sure no other running TF computations are using this "
                    "cache prefix, delete the lockfile and re-initialize the iterator. Lockfile contents: ",
                    read_all(lock));
      }
      const std::string contents = "Created at: " + std::to_string(std::time(nullptr));
      const bool wrote = ::write(fd, contents.data(), contents.size()) == static_cast<ssize_t>(contents.size());
      ::close(fd);
      locked_ = true;
      if (!wrote) throw_file_error(lock, errno);
      std::random_device rd;
      temp_ = ds_->filename_ + "_0.data-00000-of-00001.tempstate" +
              std::to_string((static_cast<uint64_t>(rd()) << 32) | rd());
      writer_ = std::make_unique<ElementWriter>(temp_);
      input_ = ds_->input_->make_iterator();
    }
    void finish() {
      input_.reset();
      writer_->close();
      writer_.reset();
      if (std::rename(temp_.c_str(), ds_->data_file().c_str()) != 0) throw_file_error(ds_->data_file(), errno);
      temp_.clear();
      const std::string index = ds_->index_file();
      std::FILE* f = std::fopen((index + ".tmp").c_str(), "wb");
      if (!f) throw_file_error(index, errno);
      std::fputs("eagerflow cache index\n", f);
      if (std::fclose(f) != 0 || std::rename((index + ".tmp").c_str(), index.c_str()) != 0)
        throw_file_error(index, errno);
      std::remove(ds_->lock_file().c_str());
      locked_ = false;
      done_ = true;
    }
    // An unfinished pass (destroyed early, or an error) discards what it wrote.
    void abandon() {
      writer_.reset();
      if (!temp_.empty()) std::remove(temp_.c_str());
      if (locked_) std::remove(ds_->lock_file().c_str());
    }
    static std::string read_all(const std::string& name) {
      std::string s;
      if (std::FILE* f = std::fopen(name.c_str(), "rb")) {
        char buf[256];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) s.append(buf, n);
        std::fclose(f);
      }
      return s;
    }
    std::shared_ptr<const FileCacheDataset> ds_;
    std::unique_ptr<ElementReader> reader_;
    std::unique_ptr<ElementWriter> writer_;
    std::unique_ptr<IteratorBase> input_;
    std::string temp_;
    bool locked_ = false, done_ = false;
  };
  DatasetPtr input_;
  std::string filename_;
};

void cache_kernel(KernelContext& c) {
  const Tensor& filename = c.input(1);
  if (filename->dtype() != DType::kString || filename->rank() != 0)
    throw_error(Code::kInvalidArgument, "filename must be a scalar string");
  const std::string& name = *filename->data<std::string>();
  if (name.empty()) {
    set_dataset_output(c, std::make_shared<MemoryCacheDataset>(dataset_input_ptr(c, 0)));
  } else {
    set_dataset_output(c, std::make_shared<FileCacheDataset>(dataset_input_ptr(c, 0), name));
  }
}

}  // namespace

EF_REGISTER_CPU_KERNEL("CacheDataset", cache_kernel);

}  // namespace ef
