// Serialization of dataset elements for the file cache.
#include "kernels/data/element_file.h"

#include <cerrno>

#include "core/errors.h"
#include "kernels/data/file_io.h"

namespace ef {

namespace {
constexpr char kMagic[8] = {'E', 'F', 'C', 'A', 'C', 'H', 'E', '1'};
}

ElementWriter::ElementWriter(const std::string& filename) : name_(filename) {
  f_ = std::fopen(filename.c_str(), "wb");
  if (!f_) throw_file_error(filename, errno);
  put(kMagic, sizeof(kMagic));
}

ElementWriter::~ElementWriter() {
  if (f_) std::fclose(f_);
}

void ElementWriter::put(const void* p, size_t n) {
  if (n && std::fwrite(p, 1, n, f_) != n) throw_file_error(name_, errno);
}

void ElementWriter::write(const Element& e) {
  for (const Tensor& t : e) {
    if (t->dtype() == DType::kVariant || t->dtype() == DType::kResource)
      throw_error(Code::kUnimplemented, "Dataset.cache(filename) cannot store ", dtype_name(t->dtype()), " tensors");
    const int32_t dtype = static_cast<int32_t>(t->dtype()), rank = t->rank();
    put(&dtype, sizeof(dtype));
    put(&rank, sizeof(rank));
    for (int i = 0; i < rank; ++i) {
      const int64_t d = t->shape()[i];
      put(&d, sizeof(d));
    }
    if (t->dtype() == DType::kString) {
      const std::string* s = t->data<std::string>();
      for (int64_t i = 0; i < t->num_elements(); ++i) {
        const uint64_t n = s[i].size();
        put(&n, sizeof(n));
        put(s[i].data(), n);
      }
    } else {
      put(t->raw_data(), t->nbytes());
    }
  }
}

void ElementWriter::close() {
  if (!f_) return;
  const bool ok = std::fflush(f_) == 0;
  const int err = errno;
  std::fclose(f_);
  f_ = nullptr;
  if (!ok) throw_file_error(name_, err);
}

ElementReader::ElementReader(const std::string& filename) : name_(filename) {
  f_ = std::fopen(filename.c_str(), "rb");
  if (!f_) throw_file_error(filename, errno);
  char magic[sizeof(kMagic)];
  if (!get(magic, sizeof(magic)) || std::string(magic, sizeof(magic)) != std::string(kMagic, sizeof(kMagic)))
    throw_error(Code::kDataLoss, name_, " is not a cache file written by Dataset.cache");
}

ElementReader::~ElementReader() {
  if (f_) std::fclose(f_);
}

bool ElementReader::get(void* p, size_t n) {
  const size_t got = n ? std::fread(p, 1, n, f_) : 0;
  if (got == n) return true;
  if (got == 0 && std::feof(f_)) return false;
  throw_error(Code::kDataLoss, name_, " is truncated");
}

bool ElementReader::read(Element& e, const std::vector<DType>& dtypes) {
  e.clear();
  for (size_t k = 0; k < dtypes.size(); ++k) {
    int32_t dtype = 0, rank = 0;
    if (!get(&dtype, sizeof(dtype))) {
      if (k == 0) return false;
      throw_error(Code::kDataLoss, name_, " is truncated");
    }
    if (!get(&rank, sizeof(rank)) || rank < 0 || rank > 64) throw_error(Code::kDataLoss, name_, " is corrupt");
    if (static_cast<DType>(dtype) != dtypes[k])
      throw_error(Code::kInvalidArgument, "The cache file ", name_, " holds ", dtype_name(static_cast<DType>(dtype)),
                  " tensors where the dataset has ", dtype_name(dtypes[k]), " at component ", k);
    std::vector<int64_t> dims(static_cast<size_t>(rank));
    for (int64_t& d : dims)
      if (!get(&d, sizeof(d)) || d < 0) throw_error(Code::kDataLoss, name_, " is corrupt");
    Tensor t = TensorImpl::empty(dtypes[k], Shape(dims));
    if (dtypes[k] == DType::kString) {
      std::string* s = t->data<std::string>();
      for (int64_t i = 0; i < t->num_elements(); ++i) {
        uint64_t n = 0;
        if (!get(&n, sizeof(n))) throw_error(Code::kDataLoss, name_, " is truncated");
        s[i].resize(n);
        if (!get(s[i].data(), n)) throw_error(Code::kDataLoss, name_, " is truncated");
      }
    } else if (!get(t->raw_data(), t->nbytes())) {
      throw_error(Code::kDataLoss, name_, " is truncated");
    }
    e.push_back(std::move(t));
  }
  return true;
}

}  // namespace ef
