// cpp/io's file formats for Python: tensor bundles (checkpoints) and TFRecord files (events).
#include <pybind11/stl.h>

#include "bindings/bindings.h"
#include "io/crc32c.h"
#include "io/record_io.h"
#include "io/summary_file_writer.h"
#include "io/tensor_bundle.h"

namespace ef {

void init_io(py::module_& m) {
  using io::BundleReader;
  using io::BundleWriter;
  using io::RecordWriter;
  py::class_<BundleWriter>(m, "BundleWriter")
      .def(py::init<std::string>(), py::arg("prefix"))
      .def("add", [](BundleWriter& w, const std::string& key, int dtype,
                     const std::vector<int64_t>& shape, py::buffer data) {
        py::buffer_info info = data.request();
        size_t size = static_cast<size_t>(info.size * info.itemsize);
        py::gil_scoped_release release;
        w.add(key, dtype, shape, info.ptr, size);
      }, py::arg("key"), py::arg("dtype"), py::arg("shape"), py::arg("data"))
      .def("add_strings", &BundleWriter::add_strings, py::arg("key"), py::arg("shape"), py::arg("values"))
      .def("finish", &BundleWriter::finish, py::call_guard<py::gil_scoped_release>());
  py::class_<BundleReader>(m, "BundleReader")
      .def(py::init<std::string>(), py::arg("prefix"), py::call_guard<py::gil_scoped_release>())
      .def("keys", &BundleReader::keys)
      .def("__contains__", &BundleReader::contains)
      .def("entry", [](const BundleReader& r, const std::string& key) {
        const io::BundleEntry& e = r.entry(key);
        return py::make_tuple(e.dtype, e.shape);
      })
      .def("read", [](const BundleReader& r, const std::string& key) {
        std::string bytes;
        {
          py::gil_scoped_release release;
          bytes = r.read(key);
        }
        return py::bytes(bytes);
      })
      .def("read_into", [](const BundleReader& r, const std::string& key, py::buffer out) {
        py::buffer_info info = out.request(/*writable=*/true);
        size_t size = static_cast<size_t>(info.size * info.itemsize);
        py::gil_scoped_release release;
        r.read_into(key, info.ptr, size);
      })
      .def("read_strings", [](const BundleReader& r, const std::string& key) {
        py::list out;
        for (const auto& s : r.read_strings(key)) out.append(py::bytes(s));
        return out;
      });
  py::class_<RecordWriter>(m, "RecordWriter")
      .def(py::init<std::string>(), py::arg("path"))
      .def("write", [](RecordWriter& w, py::bytes record) { w.write(std::string_view(record)); })
      .def("flush", &RecordWriter::flush, py::call_guard<py::gil_scoped_release>())
      .def("close", &RecordWriter::close, py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("path", &RecordWriter::path);
  py::class_<io::SummaryFileWriter>(m, "SummaryFileWriter")
      .def(py::init<std::string, int, int>(), py::arg("path"), py::arg("max_queue"), py::arg("flush_millis"))
      .def("write", [](io::SummaryFileWriter& w, py::bytes record) { w.write(std::string(record)); })
      .def("flush", &io::SummaryFileWriter::flush, py::call_guard<py::gil_scoped_release>())
      .def("close", &io::SummaryFileWriter::close, py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("path", &io::SummaryFileWriter::path);
  m.def("read_records", [](const std::string& path) {
    py::list out;
    for (const auto& s : io::read_records(path)) out.append(py::bytes(s));
    return out;
  }, py::arg("path"));
  m.def("crc32c", [](py::bytes b) {
    std::string_view s(b);
    return io::crc32c(s.data(), s.size());
  });
}

}  // namespace ef
