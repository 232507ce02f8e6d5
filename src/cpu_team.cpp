#include "cpu_team.h"

#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "env.h"

namespace tileblas {

namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A plain load loop, with no pause instruction: under KVM a loop of pauses makes the hypervisor
// deschedule the virtual CPU (pause-loop exiting), which turns a hand-over into microseconds.
// Every few microseconds it yields, so that a thread waiting for this CPU (the caller itself, when
// the CPUs are oversubscribed) runs.
bool spin_until_changed(const std::atomic<uint32_t>& word, uint32_t seen, double seconds) {
  const int64_t deadline = now_ns() + int64_t(seconds * 1e9);
  for (uint32_t n = 1;; ++n) {
    if (word.load(std::memory_order_acquire) != seen) return true;
    if ((n & 4095) == 0) {
      if (now_ns() > deadline) return false;
      sched_yield();
    }
  }
}

void futex_wait(std::atomic<uint32_t>* word, uint32_t seen) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT_PRIVATE, seen, nullptr, nullptr,
          0);
}

// Changes the word and wakes a thread waiting on it.
void ring(std::atomic<uint32_t>* bell) {
  bell->fetch_add(1, std::memory_order_seq_cst);
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(bell), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}

int usable_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return CPU_COUNT(&set);
  return int(std::thread::hardware_concurrency());
}

std::atomic<bool> forked_child{false};

}  // namespace

// One worker's mailbox. `ticket` is even while nothing is posted; the caller fills the plain
// fields and makes it odd (posted); whoever moves it from odd to even first runs the parts: the
// worker (then it stores that even value in `finished`) or the caller taking them back. The caller
// fills the fields only while nothing is posted and the last job is finished, so they are never
// written while read.
struct alignas(64) CpuTeam::Worker {
  std::atomic<uint32_t> ticket{0};
  std::atomic<uint32_t> sleeping{0};  // 1 from just before the worker waits on the bell
  std::atomic<uint32_t> bell{0};      // the futex word a sleeping worker waits on
  Job job = nullptr;
  const void* ctx = nullptr;
  int first = 0, last = 0;
  alignas(64) std::atomic<uint32_t> finished{0};
};

void CpuTeam::work(int index) {
  Worker& w = workers_[index];
  for (;;) {
    uint32_t t = w.ticket.load(std::memory_order_acquire);
    if (t & 1) {
      if (w.ticket.compare_exchange_strong(t, t + 1, std::memory_order_acq_rel)) {
        for (int i = w.first; i < w.last; ++i) w.job(w.ctx, i);
        w.finished.store(t + 1, std::memory_order_release);
      }
      continue;
    }
    if (!spin_until_changed(w.ticket, t, kSpinSeconds)) {
      // Asleep until the bell rings: whoever changes the ticket and then sees `sleeping` rings it.
      // The bell is read before `sleeping` is set, so a ring after that makes the wait return at
      // once.
      const uint32_t bell = w.bell.load(std::memory_order_seq_cst);
      w.sleeping.store(1, std::memory_order_seq_cst);
      if (w.ticket.load(std::memory_order_seq_cst) == t) futex_wait(&w.bell, bell);
      w.sleeping.store(0, std::memory_order_seq_cst);
      wake_sleepers();  // rung by a caller: calls are coming (or one wants all), wake the rest
    }
  }
}

void CpuTeam::wake_sleepers() {
  for (int i = 0; i < threads_ - 1; ++i) {
    if (workers_[i].sleeping.load(std::memory_order_seq_cst)) ring(&workers_[i].bell);
  }
}

CpuTeam::CpuTeam(int threads) : threads_(threads), workers_(new Worker[threads - 1]) {
  for (int i = 0; i < threads - 1; ++i) std::thread(&CpuTeam::work, this, i).detach();
}

CpuTeam* CpuTeam::get() {
  static CpuTeam* const team = [] {
    pthread_atfork(nullptr, nullptr, [] { forked_child.store(true); });
    const int wanted = config().cpu_threads < 0 ? usable_cpus() : config().cpu_threads;
    // Lives as long as the process; more threads than kMaxThreads would not pay on small calls.
    return wanted > 1 ? new CpuTeam(std::min(wanted, kMaxThreads)) : nullptr;
  }();
  return forked_child.load(std::memory_order_relaxed) ? nullptr : team;
}

bool CpuTeam::run(int parts, Job job, const void* ctx, bool wake_if_asleep) {
  static std::mutex busy;
  std::unique_lock<std::mutex> lock(busy, std::try_to_lock);
  if (parts < 2 || !lock.owns_lock()) return false;
  // The awake workers, up to one per part beyond the caller's; then, if asked, the others (asleep
  // when looked at first; a worker may fall asleep or wake meanwhile, and is chosen once).
  const int wanted = std::min(parts, threads_) - 1;
  int chosen[kMaxThreads];
  bool taken[kMaxThreads] = {};
  int used = 0;
  for (int i = 0; i < threads_ - 1 && used < wanted; ++i) {
    if (!workers_[i].sleeping.load(std::memory_order_relaxed)) chosen[used++] = i, taken[i] = true;
  }
  const int awake = used;
  for (int i = 0; i < threads_ - 1 && used < wanted && wake_if_asleep; ++i) {
    if (!taken[i]) chosen[used++] = i;
  }
  const int64_t now = now_ns();
  if (awake < wanted && used == awake && now - last_run_ns_ < int64_t(kSpinSeconds * 1e9) &&
      now - last_wake_ns_ > int64_t(kWakeEverySeconds * 1e9)) {
    // Calls are coming often and some workers sleep: one system call, and that worker wakes the
    // others (at most once per kWakeEverySeconds).
    for (int i = 0; i < threads_ - 1; ++i) {
      if (workers_[i].sleeping.load(std::memory_order_seq_cst)) {
        ring(&workers_[i].bell);
        last_wake_ns_ = now;
        break;
      }
    }
  }
  last_run_ns_ = now;
  if (used == 0) return false;
  // Share s of used + 1 (share 0 the caller's) covers [parts * s / (used + 1), ...).
  auto begin = [&](int s) { return int(int64_t(parts) * s / (used + 1)); };
  uint32_t posted[kMaxThreads];
  bool rang_sleeper = false;
  for (int s = 1; s <= used; ++s) {
    Worker& w = workers_[chosen[s - 1]];
    w.job = job;
    w.ctx = ctx;
    w.first = begin(s);
    w.last = begin(s + 1);
    posted[s - 1] = w.ticket.load(std::memory_order_relaxed) + 1;
    w.ticket.store(posted[s - 1], std::memory_order_seq_cst);
    // A worker asleep since it was chosen is rung. Of the sleeping ones chosen (s > awake), only
    // the first still asleep: it wakes the others, and a range none has started by the end is
    // taken back.
    if ((s <= awake || !rang_sleeper) && w.sleeping.load(std::memory_order_seq_cst)) {
      ring(&w.bell);
      rang_sleeper = s > awake;
    }
  }
  for (int i = 0; i < begin(1); ++i) job(ctx, i);
  for (int s = 1; s <= used; ++s) {
    Worker& w = workers_[chosen[s - 1]];
    uint32_t t = posted[s - 1];
    if (w.ticket.compare_exchange_strong(t, t + 1, std::memory_order_acq_rel)) {
      for (int i = w.first; i < w.last; ++i) job(ctx, i);  // not started: the caller runs it
    } else {
      // Started by the worker: wait for it, yielding every few microseconds, so that a worker
      // descheduled mid-part runs where the CPUs are oversubscribed (several processes with a
      // team each, MPI ranks on fewer cores), instead of this loop spinning out whole timeslices.
      for (uint32_t n = 1; w.finished.load(std::memory_order_acquire) != posted[s - 1] + 1; ++n) {
        if ((n & 4095) == 0) sched_yield();
      }
    }
  }
  return true;
}

}  // namespace tileblas
