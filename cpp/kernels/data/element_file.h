// Elements written to and read back from a file (Dataset.cache(filename)): each component as its
// dtype, shape and bytes (strings length-prefixed). eagerflow's own format, not TF's tensor bundle.
#pragma once
#include <cstdio>
#include <string>

#include "kernels/data/dataset.h"

namespace ef {

class ElementWriter {
 public:
  explicit ElementWriter(const std::string& filename);  // creates or truncates
  ~ElementWriter();
  void write(const Element& e);
  void close();  // flushes; errors are thrown here

 private:
  void put(const void* p, size_t n);
  std::string name_;
  std::FILE* f_ = nullptr;
};

class ElementReader {
 public:
  explicit ElementReader(const std::string& filename);
  ~ElementReader();
  // The next element (checked against the dataset's dtypes); false at the end of the file.
  bool read(Element& e, const std::vector<DType>& dtypes);

 private:
  bool get(void* p, size_t n);  // false at a clean end of file before any byte
  std::string name_;
  std::FILE* f_ = nullptr;
};

}  // namespace ef
