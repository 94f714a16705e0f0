// Context bindings: device scopes, threads, the CPU allocator, the GEMM's BLAS and conv kernel, random seeds.
#include <pybind11/stl.h>

#include "bindings/bindings.h"
#include "core/cpu_allocator.h"
#include "core/device.h"
#include "core/threadpool.h"
#include "eager/context.h"
#include "kernels/cpu/blas.h"
#include "kernels/cpu/conv_direct.h"
#include "kernels/cpu/random_state.h"
#include "kernels/cpu/scalar_fused_steps.h"
#include "kernels/cpu/elementwise_isa.h"

namespace ef {

void init_context(py::module_& m) {
  m.def("current_device", [] { return thread_context().device.name(); });
  // Sets the thread's device from a spec string; returns the previous spec string.
  m.def("set_device", [](const std::string& spec) {
    std::string prev = thread_context().device.name();
    thread_context().device = spec.empty() ? DeviceSpec() : parse_device(spec);
    return prev;
  });
  m.def("canonical_device", [](const std::string& spec) { return parse_device(spec).name(); });
  m.def("list_physical_devices", [](const std::string& type) {
    return list_physical_devices(type == "GPU" ? DeviceType::kCUDA : DeviceType::kCPU);
  });
  // The large-block allocator (cpu_allocator.h): get_memory_info's figures, the cache, a trim.
  m.def("cpu_allocator_stats", [] {
    AllocatorStats s = cpu_allocator_stats();
    py::dict d;
    d["num_allocs"] = s.num_allocs;
    d["num_cache_hits"] = s.num_cache_hits;
    d["bytes_in_use"] = s.bytes_in_use;
    d["peak_bytes_in_use"] = s.peak_bytes_in_use;
    d["bytes_cached"] = s.bytes_cached;
    d["cache_limit"] = s.cache_limit;
    return d;
  });
  m.def("reset_cpu_allocator_peak", &reset_peak_bytes_in_use);
  m.def("trim_cpu_allocator", &trim_cpu_allocator, py::call_guard<py::gil_scoped_release>());
  m.def("set_cpu_allocator_cache_limit", [](int64_t bytes) {
    if (bytes < 0) throw py::value_error("cache limit must be >= 0, got " + std::to_string(bytes));
    return set_cpu_allocator_cache_limit(static_cast<size_t>(bytes));
  }, py::call_guard<py::gil_scoped_release>());
  m.def("num_threads", &num_threads);
  m.def("set_num_threads", &set_num_threads);
  // The float/double GEMM's BLAS (blas.h): tests and benchmarks compare it with Eigen's GEMM.
  m.def("blas_available", &blas_available);
  m.def("blas_enabled", &blas_enabled);
  m.def("set_blas_enabled", &set_blas_enabled);
  // The float32 convolution kernel ("avx512", "avx2", "generic", "im2col"; set "auto" for the best
  // the CPU has): tests run every variant the CPU supports, benchmarks compare them.
  m.def("conv_kernel", &conv_kernel);
  m.def("set_conv_kernel", [](const std::string& name) {
    std::string prev = conv_kernel();
    set_conv_kernel(name);
    return prev;
  });
  // The elementwise ops' float/double block functions ("avx512", "avx2", "baseline"; "auto" for the
  // best the CPU has): tests run every variant the CPU and build have, benchmarks compare them.
  m.def("elementwise_isa", &elementwise_isa);
  m.def("set_elementwise_isa", [](const std::string& name) {
    std::string prev = elementwise_isa();
    set_elementwise_isa(name);
    return prev;
  });
  // The scalar loop interpreter's superinstructions (for loops traced from now on): tests compare
  // the results with and without them.
  m.def("set_scalar_loop_fusion", [](bool on) {
    const bool prev = fused_steps_enabled();
    set_fused_steps_enabled(on);
    return prev;
  });
  m.def("set_global_seed", [](py::object seed) {
    SeedState& s = seed_state();
    s.has_global = !seed.is_none();
    s.global_seed = s.has_global ? seed.cast<int64_t>() : 0;
    s.op_counter = 0;
    reset_random_streams();  // TF clears its kernel cache (and so the Philox states) here
  });
  m.def("get_global_seed", []() -> py::object {
    SeedState& s = seed_state();
    return s.has_global ? py::object(py::int_(s.global_seed)) : py::object(py::none());
  });
  // TF's get_seed rule: (global, op) seeds for an op; a counter makes repeated ops differ.
  m.def("next_op_seed", [] { return seed_state().op_counter++; });
}

}  // namespace ef
