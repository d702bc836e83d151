//===- WorkQueue.h - The server's worker thread -----------------*- C++ -*-===//
//
// One thread that runs jobs in the order they are posted, so that pipeline
// runs never block the message loop. It has a large stack: passes recurse
// over nested regions. Jobs are never dropped: each one runs
// (and answers its request, if it has one); a job that is no longer wanted
// sees its cancellation flag set and returns early.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_LSP_WORKQUEUE_H
#define POLYBLOCKS_LSP_WORKQUEUE_H

#include "llvm/ADT/FunctionExtras.h"
#include "llvm/Support/thread.h"

#include <condition_variable>
#include <deque>
#include <mutex>

namespace pblsp {

class WorkQueue {
public:
  using Job = llvm::unique_function<void()>;

  WorkQueue();
  /// Stops the thread (see stop()).
  ~WorkQueue();
  WorkQueue(const WorkQueue &) = delete;
  WorkQueue &operator=(const WorkQueue &) = delete;

  /// Queues `job` behind those already posted.
  void post(Job job);
  /// Runs the jobs already posted, then ends the thread; later posts run
  /// on the caller's thread.
  void stop();

private:
  void loop();

  std::mutex mutex;
  std::condition_variable wakeUp;
  std::deque<Job> jobs;
  bool stopping = false;
  llvm::thread thread;
};

} // namespace pblsp

#endif // POLYBLOCKS_LSP_WORKQUEUE_H
