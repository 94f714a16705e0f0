// Background-thread event file writer.
#include "io/summary_file_writer.h"

#include "core/errors.h"

namespace ef::io {

SummaryFileWriter::SummaryFileWriter(const std::string& path, int max_queue, int flush_millis)
    : writer_(path),
      max_queue_(max_queue > 0 ? static_cast<size_t>(max_queue) : 1),
      flush_every_(flush_millis > 0 ? flush_millis : 1) {
  thread_ = std::thread([this] { run(); });
}

SummaryFileWriter::~SummaryFileWriter() {
  try {
    close();
  } catch (...) {  // a destructor must not throw; close() reported nothing to anyone listening
  }
}

void SummaryFileWriter::rethrow_locked() {
  if (error_) std::rethrow_exception(error_);
}

void SummaryFileWriter::write(std::string record) {
  std::lock_guard<std::mutex> lock(mu_);
  rethrow_locked();
  EF_REQUIRE(!closing_, Code::kFailedPrecondition, "The summary writer for ", writer_.path(), " is closed");
  queue_.push_back(std::move(record));
  ++enqueued_;
  wake_.notify_one();
}

void SummaryFileWriter::flush() {
  std::unique_lock<std::mutex> lock(mu_);
  if (closed_) return;
  uint64_t target = enqueued_;
  flush_requested_ = std::max(flush_requested_, target);
  wake_.notify_one();
  done_.wait(lock, [&] { return flushed_ >= target || error_ != nullptr || closed_; });
  rethrow_locked();
}

void SummaryFileWriter::close() {
  std::lock_guard<std::mutex> joining(close_mu_);  // one joiner at a time
  {
    std::lock_guard<std::mutex> lock(mu_);
    closing_ = true;
    wake_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mu_);
  rethrow_locked();
}

void SummaryFileWriter::run() {
  auto last_flush = std::chrono::steady_clock::now();
  uint64_t written = 0, since_flush = 0;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait_until(lock, last_flush + flush_every_, [&] {
      return !queue_.empty() || closing_ || flush_requested_ > flushed_;
    });
    std::deque<std::string> batch;
    batch.swap(queue_);
    bool stop = closing_;
    uint64_t requested = flush_requested_;
    lock.unlock();
    try {
      for (auto& r : batch) writer_.write(r);
      written += batch.size();
      since_flush += batch.size();
      auto now = std::chrono::steady_clock::now();
      if (stop || requested > flushed_ || since_flush >= max_queue_ || now - last_flush >= flush_every_) {
        if (since_flush) writer_.flush();
        since_flush = 0;
        last_flush = now;
      }
      if (stop) writer_.close();
    } catch (...) {
      lock.lock();
      error_ = std::current_exception();
      closed_ = true;
      done_.notify_all();
      return;
    }
    lock.lock();
    if (since_flush == 0) flushed_ = written;
    done_.notify_all();
    if (stop && queue_.empty()) {
      closed_ = true;
      done_.notify_all();
      return;
    }
  }
}

}  // namespace ef::io
