//===- WorkQueue.cpp - The server's worker thread -------------------------===//

#include "WorkQueue.h"

namespace pblsp {

/// The worker's stack, in bytes.
static constexpr unsigned kStackSize = 64 << 20;

WorkQueue::WorkQueue()
    : thread(std::optional<unsigned>(kStackSize), [this] { loop(); }) {}

WorkQueue::~WorkQueue() { stop(); }

void WorkQueue::post(Job job) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!stopping) {
      jobs.push_back(std::move(job));
      wakeUp.notify_one();
      return;
    }
  }
  job();
}

void WorkQueue::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
    wakeUp.notify_one();
  }
  if (thread.joinable())
    thread.join();
}

void WorkQueue::loop() {
  while (true) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mutex);
      wakeUp.wait(lock, [&] { return stopping || !jobs.empty(); });
      if (jobs.empty())
        return; // stopping, and nothing left to run
      job = std::move(jobs.front());
      jobs.pop_front();
    }
    job();
  }
}

} // namespace pblsp
