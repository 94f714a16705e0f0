// An event file writer whose disk writes happen on a background thread, so a training loop only
// pays for handing over the bytes. Records reach the file in the order given; the file is flushed
// every `max_queue` records, every `flush_millis`, on flush() and on close().
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

#include "io/record_io.h"

namespace ef::io {

class SummaryFileWriter {
 public:
  SummaryFileWriter(const std::string& path, int max_queue, int flush_millis);
  ~SummaryFileWriter();
  SummaryFileWriter(const SummaryFileWriter&) = delete;
  SummaryFileWriter& operator=(const SummaryFileWriter&) = delete;

  void write(std::string record);
  void flush();  // returns once everything written so far is in the file (rethrows a write error)
  void close();  // flushes and stops the thread; later writes are FailedPrecondition
  const std::string& path() const { return writer_.path(); }

 private:
  void run();
  void rethrow_locked();

  RecordWriter writer_;
  const size_t max_queue_;
  const std::chrono::milliseconds flush_every_;
  std::mutex mu_, close_mu_;
  std::condition_variable wake_, done_;
  std::deque<std::string> queue_;
  uint64_t enqueued_ = 0, flushed_ = 0, flush_requested_ = 0;
  bool closing_ = false, closed_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace ef::io
