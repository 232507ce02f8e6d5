// Host threads that share one call's independent parts: a small host GEMM split into panels of C
// run side by side (src/cpu_gemm.h), each on our host kernel or as a CPU BLAS call that a threaded
// BLAS runs on a single thread (OpenBLAS does up to 64^3).
//
// The team lives for the rest of the process. After its part, a worker spins for kSpinSeconds
// (back-to-back calls are handed over without a system call), then sleeps on a futex. A call never
// waits for a sleeping worker: run() hands parts to awake workers (and, when asked, to sleeping
// ones it wakes), and takes back any part a worker has not started by the time the caller is done
// with its own. When no worker is awake and none may be woken, run() returns false (the caller
// makes the call itself). Calls coming often wake sleeping workers for the next ones.
#pragma once

#include <cstdint>

namespace tileblas {

class CpuTeam {
 public:
  using Job = void (*)(const void* ctx, int part);

  // The process's team, started on first use: TILEBLAS_CPU_THREADS threads, by default one per CPU
  // this process may run on (the caller included; at most kMaxThreads). nullptr for fewer than
  // two, and in a child process after fork().
  static CpuTeam* get();

  // Threads that can run parts, the calling thread included.
  int threads() const { return threads_; }

  // Runs job(ctx, i) for every i in [0, parts), split in contiguous ranges between the calling
  // thread and up to parts - 1 awake workers, and returns true when all are done. Returns false,
  // having run nothing, when another caller is using the team or no worker is awake. With
  // `wake_if_asleep`, sleeping workers get ranges too (one system call wakes the first, which wakes
  // the rest), so the call runs even when all sleep: for parts long enough that waking pays; the
  // caller still takes back every range not started when its own is done. Parts must not throw and
  // must be independent of each other.
  bool run(int parts, Job job, const void* ctx, bool wake_if_asleep = false);

  // Wakes every sleeping worker without giving it a part: each spins for kSpinSeconds, ready for
  // the calls coming next, then sleeps again.
  void wake() { wake_sleepers(); }

  // How long a worker keeps spinning after its last part before it sleeps.
  static constexpr double kSpinSeconds = 200e-6;
  static constexpr int kMaxThreads = 64;
  // run() finding fewer awake workers than parts wakes the team if its previous call was less than
  // kSpinSeconds ago, at most once per kWakeEverySeconds.
  static constexpr double kWakeEverySeconds = 1e-3;

 private:
  struct Worker;
  explicit CpuTeam(int threads);
  void work(int index);
  void wake_sleepers();
  int threads_;
  Worker* workers_;                             // threads_ - 1 of them
  int64_t last_run_ns_ = 0, last_wake_ns_ = 0;  // written under run()'s lock
};

}  // namespace tileblas
