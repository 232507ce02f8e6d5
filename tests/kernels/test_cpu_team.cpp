// The host team (src/cpu_team.h) and the GEMM it runs in panels (src/cpu_gemm.h), without a GPU.
// CpuTeam.*: every part of a call that returns true runs exactly once and a call that returns
// false runs nothing (one caller back to back, four callers at once, after idling long enough for
// the workers to sleep), parts and caller see each other's plain writes, the team wakes up when
// calls keep coming, calls that wake sleepers made as the workers fall asleep each run every part
// once, a fork() child has no team. TeamGemm/<f32|f64|c32|c64>.*: gemm_on_cpu_team
// against OpenBLAS's ?gemm_ of the type on fresh random data, panels on our host kernel and as CPU
// BLAS calls, for every transpose pair (conjugate ones too for complex), row and column panels,
// more parts than rows or columns, real and complex alpha and beta, padded leading dimensions
// (padding of A and B holds NaN; padding of C and guard elements before and after it a sentinel
// that must stay), beta == 0 on a NaN C, alpha == 0, exact results on integer data.
// TeamSplit.*: which side a call is cut along. TeamGemmTypes.*: problems it must refuse (16-bit
// data, mixed types) leave C untouched.
// run() may return false whenever the workers sleep, so a test that needs a computed result retries
// (until_true) for a bounded time, checking every refused attempt left everything untouched.
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "cpu_gemm.h"
#include "cpu_team.h"
#include "gemm_host_small.h"
#include "test_support.h"
#include "typed_elements.h"

namespace {

using tileblas::DataType;
using tileblas::Op;
using tileblas::Problem;
using Team = tileblas::CpuTeam;

// How long a test waits for the team to take a call. A woken worker is back within microseconds
// on an idle machine, but on a loaded one (2 CPUs, a parallel build) a run of back-to-back calls
// was seen refused for 260 ms; a team that never wakes still fails.
constexpr double kWakeWithinSeconds = 5.0;

std::chrono::steady_clock::time_point wake_deadline() {
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(kWakeWithinSeconds));
}

// Calls `attempt` (which returns true once the team took the call) until it returns true or
// kWakeWithinSeconds pass. True when it did.
template <class Attempt>
bool until_true(Attempt attempt) {
  const auto deadline = wake_deadline();
  do {
    if (attempt()) return true;
  } while (std::chrono::steady_clock::now() < deadline);
  return false;
}

// A loop of at least `calls` calls, then more until one was taken or kWakeWithinSeconds passed: a
// team asleep at the start may refuse every call of a short burst on a loaded machine (a woken
// worker can spin out its kSpinSeconds on the caller's own CPU, the caller preempted).
class CallLoop {
 public:
  explicit CallLoop(int calls) : calls_(calls), deadline_(wake_deadline()) {}
  bool more(int done, bool any_taken) const {
    return done < calls_ || (!any_taken && std::chrono::steady_clock::now() < deadline_);
  }

 private:
  int calls_;
  std::chrono::steady_clock::time_point deadline_;
};

// One counter per part, bumped by the part itself: after a call that returned true each must
// have grown by one, after one that returned false none may have.
class PartCounts {
 public:
  explicit PartCounts(int parts) : parts_(parts), counts_(new std::atomic<int>[parts]) {
    for (int i = 0; i < parts; ++i) counts_[i].store(0);
  }
  bool run(Team& team, bool wake_if_asleep = false) {
    return team.run(parts_, &PartCounts::count, this, wake_if_asleep);
  }
  // "" when every part ran `times` times, else the first part that did not.
  std::string check(int times) const {
    for (int i = 0; i < parts_; ++i) {
      const int n = counts_[i].load();
      if (n != times) {
        return "part " + std::to_string(i) + " of " + std::to_string(parts_) + " ran " +
               std::to_string(n) + " times, want " + std::to_string(times);
      }
    }
    return "";
  }

 private:
  static void count(const void* ctx, int part) {
    static_cast<const PartCounts*>(ctx)->counts_[part].fetch_add(1, std::memory_order_relaxed);
  }
  int parts_;
  std::unique_ptr<std::atomic<int>[]> counts_;
};

// A job counting the parts that ran on workers; a part on the calling thread busy-waits
// `caller_wait` instead, so that workers have time to take parts.
struct WhoRuns {
  explicit WhoRuns(std::chrono::steady_clock::duration caller_wait) : wait(caller_wait) {}
  static void part(const void* ctx, int) {
    const WhoRuns& w = *static_cast<const WhoRuns*>(ctx);
    if (std::this_thread::get_id() != w.caller) {
      w.on_workers.fetch_add(1);
      return;
    }
    const auto until = std::chrono::steady_clock::now() + w.wait;
    while (std::chrono::steady_clock::now() < until) {
    }
  }
  const std::thread::id caller = std::this_thread::get_id();
  const std::chrono::steady_clock::duration wait;
  mutable std::atomic<int> on_workers{0};
};

// Wakes the team: calls run() until a call is taken. True when one was.
bool wake(Team& team) {
  PartCounts counts(2);
  return until_true([&] { return counts.run(team); });
}

}  // namespace

TEST(CpuTeam, HasAThreadPerCpu) {
  Team* team = Team::get();
  if (!team) GTEST_SKIP() << "a single CPU: no team";
  EXPECT_GE(team->threads(), 2);
  EXPECT_LE(team->threads(), Team::kMaxThreads);
  EXPECT_LE(team->threads(), int(std::thread::hardware_concurrency()));
  EXPECT_EQ(Team::get(), team);
}

TEST(CpuTeam, RunsEveryPartExactlyOnce) {
  Team* team = Team::get();
  if (!team) GTEST_SKIP() << "a single CPU: no team";
  for (int parts : {2, 3, 5, 16, 17, 64, 100}) {
    PartCounts counts(parts);
    int taken = 0;
    const CallLoop loop(2000);
    for (int call = 0; loop.more(call, taken > 0); ++call) {
      if (counts.run(*team)) ++taken;
      ASSERT_EQ(counts.check(taken), "") << "call " << call << " (" << taken << " taken)";
    }
    // Back-to-back calls wake the team, so some must have been taken.
    EXPECT_GT(taken, 0) << parts << " parts";
  }
}

TEST(CpuTeam, RefusesFewerThanTwoParts) {
  Team* team = Team::get();
  if (!team) GTEST_SKIP() << "a single CPU: no team";
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(wake(*team));  // awake workers must not change the answer
    PartCounts one(1);
    EXPECT_FALSE(one.run(*team));
    EXPECT_EQ(one.check(0), "");
    EXPECT_FALSE(team->run(
        0, [](const void*, int) { std::abort(); }, nullptr));
  }
}

// A part runs on a worker now and then (a run() whose caller always took every part back would be
// correct but useless). The caller's own part waits a while for that to be likely.
TEST(CpuTeam, WorkersTakeParts) {
  Team* team = Team::get();
  if (!team) GTEST_SKIP() << "a single CPU: no team";
  const WhoRuns ctx(std::chrono::microseconds(50));
  EXPECT_TRUE(until_true([&] {
    return team->run(team->threads(), WhoRuns::part, &ctx) && ctx.on_workers.load() > 0;
  })) << "no part ever ran on a worker";
}

TEST(CpuTeam, PartsAndCallerSeeEachOthersWrites) {
  Team* team = Team::get();
  if (!team) GTEST_SKIP() << "a single CPU: no team";
  struct Slots {
    const std::vector<uint64_t>* in;
    std::vector<uint64_t>* out;
  };
  auto part = [](const void* ctx, int i) {
    const Slots& s = *static_cast<const Slots*>(ctx);
    (*s.out)[i] = (*s.in)[i] * 3 + uint64_t(i);
  };
  for (int parts : {2, 7, 64}) {
    std::vector<uint64_t> in(parts), out(parts);
    const Slots slots{&in, &out};
    int taken = 0;
    const CallLoop loop(2000);
    for (int call = 0; loop.more(call, taken > 0); ++call) {
      // Fresh plain writes by the caller before each call; the parts must see them.
      for (uint64_t& x : in) x = tbtest::rng()() >> 2;
      for (uint64_t& x : out) x = ~uint64_t(0);
      if (!team->run(parts, part, &slots)) {
        for (int i = 0; i < parts; ++i) ASSERT_EQ(out[i], ~uint64_t(0)) << "refused call wrote";
        continue;
      }
      ++taken;
      for (int i = 0; i < parts; ++i) {
        ASSERT_EQ(out[i], in[i] * 3 + uint64_t(i)) << "slot " << i << " of " << parts;
      }
    }
    EXPECT_GT(taken, 0) << parts << " parts";
  }
}

TEST(CpuTeam, WakesUpAfterIdling) {
  Team* team = Team::get();
  if (!team) GTEST_SKIP() << "a single CPU: no team";
  const int parts = 2 * team->threads() + 1;
  PartCounts counts(parts);
  int taken = 0;
  std::string error;
  // Every attempt either ran each part once more or nothing.
  auto attempt = [&] {
    const bool ran = counts.run(*team);
    taken += ran ? 1 : 0;
    if (error.empty()) error = counts.check(taken);
    return ran;
  };
  for (int round = 0; round < 10; ++round) {
    // Far longer than kSpinSeconds: the workers are asleep.
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    attempt();
    ASSERT_EQ(error, "") << "round " << round << ", first call after idling";
    EXPECT_TRUE(until_true(attempt)) << "round " << round << ": the team never woke";
    ASSERT_EQ(error, "") << "round " << round;
  }
}

// A call allowed to wake sleeping workers runs even when all of them sleep (every part exactly
// once, whoever runs it), and the woken workers take parts: within a few such calls, a part whose
// caller waits a while for the workers runs on one of them.
TEST(CpuTeam, CallThatWakesSleepersRunsAfterIdling) {
  Team* team = Team::get();
  if (!team) GTEST_SKIP() << "a single CPU: no team";
  const int parts = 2 * team->threads() + 1;
  PartCounts counts(parts);
  for (int round = 0; round < 10; ++round) {
    // Far longer than kSpinSeconds: the workers are asleep.
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_TRUE(counts.run(*team, true)) << "round " << round << ": refused after idling";
    ASSERT_EQ(counts.check(round + 1), "") << "round " << round;
  }
  const WhoRuns ctx(std::chrono::milliseconds(2));  // long enough for a woken worker to arrive
  bool on_a_worker = false;
  for (int round = 0; round < 20 && !on_a_worker; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_TRUE(team->run(team->threads(), WhoRuns::part, &ctx, true)) << "round " << round;
    on_a_worker = ctx.on_workers.load() > 0;
  }
  EXPECT_TRUE(on_a_worker) << "no woken worker ever took a part";
}

// Calls that wake sleepers, each made about when the workers' spin after the last one ends, so
// that workers fall asleep while calls choose them: every part of every call runs once. A call
// that would wait forever (a worker chosen twice, its first posting overwritten) ends the test
// program after 20 s without progress.
TEST(CpuTeam, WakingCallsWhileWorkersFallAsleep) {
  Team* team = Team::get();
  if (!team) GTEST_SKIP() << "a single CPU: no team";
  const int parts = team->threads();
  PartCounts counts(parts);
  std::atomic<int> done{0};
  std::atomic<bool> finished{false};
  std::thread watchdog([&] {
    int seen = -1;
    for (auto last = std::chrono::steady_clock::now(); !finished.load();) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      const auto now = std::chrono::steady_clock::now();
      if (done.load() != seen) {
        seen = done.load(), last = now;
      } else if (now - last > std::chrono::seconds(20)) {
        std::fprintf(stderr, "WakingCallsWhileWorkersFallAsleep: call %d never returned\n", seen);
        std::_Exit(3);
      }
    }
  });
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> pause(0.95 * Team::kSpinSeconds,
                                               1.05 * Team::kSpinSeconds);
  const int rounds = 20000;
  for (int round = 0; round < rounds; ++round) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(pause(rng));
    while (std::chrono::steady_clock::now() < until) {
    }
    EXPECT_TRUE(counts.run(*team, true)) << "round " << round;
    done.fetch_add(1);
  }
  finished.store(true);
  watchdog.join();
  EXPECT_EQ(counts.check(rounds), "");
}

TEST(CpuTeam, ConcurrentCallers) {
  Team* team = Team::get();
  if (!team) GTEST_SKIP() << "a single CPU: no team";
  constexpr int kCallers = 4, kCalls = 500;
  std::string error[kCallers];
  int taken[kCallers] = {};
  std::atomic<int> total{0};
  const CallLoop loop(kCalls);
  auto caller = [&](int id) {
    PartCounts counts(2 + 5 * id);  // 2, 7, 12, 17 parts
    for (int call = 0; loop.more(call, total.load() > 0) && error[id].empty(); ++call) {
      if (counts.run(*team)) {
        ++taken[id];
        ++total;
      }
      error[id] = counts.check(taken[id]);
      if (!error[id].empty()) error[id] += ", call " + std::to_string(call);
    }
  };
  std::vector<std::thread> threads;
  for (int id = 0; id < kCallers; ++id) threads.emplace_back(caller, id);
  for (std::thread& t : threads) t.join();
  for (int id = 0; id < kCallers; ++id) EXPECT_EQ(error[id], "") << "caller " << id;
  EXPECT_GT(total.load(), 0) << "no caller's call was ever taken";
}

// A fork() child must not hand parts to workers that do not exist in it: get() returns nullptr
// there, and gemm_on_cpu_team refuses, computing nothing. The parent's team goes on.
TEST(CpuTeam, ForkChildHasNoTeam) {
  Team* team = Team::get();  // before the fork, as the contract requires
  if (!team) GTEST_SKIP() << "a single CPU: no team";
  ASSERT_TRUE(wake(*team));  // workers running at the time of the fork
  Problem p;
  p.m = p.n = p.k = 8;
  p.lda = p.ldb = p.ldc = 8;
  const std::vector<float> a = tbtest::random_floats(64), b = tbtest::random_floats(64);
  std::vector<float> c(64, 5.0f);
  p.a = a.data(), p.b = b.data(), p.c = c.data();
  const pid_t pid = fork();
  ASSERT_NE(pid, -1);
  if (pid == 0) {
    int code = 0;
    if (Team::get() != nullptr) {
      code = 1;
    } else if (tileblas::gemm_on_cpu_team(p, 2, false)) {
      code = 2;
    } else {
      for (float x : c) code = x == 5.0f ? code : 3;
    }
    _exit(code);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child did not exit normally, status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0)
      << "1: child got a team; 2: gemm_on_cpu_team took a call in the child; 3: it wrote C";
  EXPECT_EQ(Team::get(), team);
  EXPECT_TRUE(wake(*team)) << "the parent's team stopped taking calls after fork()";
}

namespace {

template <class T>
constexpr DataType kTypeOf = std::is_same_v<T, float>                 ? DataType::kF32
                             : std::is_same_v<T, double>              ? DataType::kF64
                             : std::is_same_v<T, std::complex<float>> ? DataType::kC32
                                                                      : DataType::kC64;

template <class T>
struct GemmCase {
  Op ta = Op::kNoTrans, tb = Op::kNoTrans;
  int64_t m = 1, n = 1, k = 1;
  T alpha = T(1), beta = T(0);
  int parts = 2;
  bool integers = false;  // integer data and scalars: the result must equal OpenBLAS's exactly
  bool on_host_kernel = false;  // panels on our host kernel, else CPU BLAS calls

  std::string str() const {
    std::ostringstream s;
    s << tileblas::name_of(kTypeOf<T>) << " " << tileblas::name_of(ta) << tileblas::name_of(tb)
      << " m=" << m << " n=" << n << " k=" << k << " alpha=" << alpha << " beta=" << beta
      << " parts=" << parts << (integers ? " integers" : "")
      << (on_host_kernel ? " host kernel" : " cpu BLAS");
    return s.str();
  }
};

// The oracle: OpenBLAS's ?gemm_ of T.
template <class T>
void openblas_gemm(const Problem& p, T alpha, const T* a, const T* b, T beta, T* c) {
  const tbtest::OpenBlas& blas = tbtest::OpenBlas::get();
  const char ta = tileblas::name_of(p.trans_a)[0], tb = tileblas::name_of(p.trans_b)[0];
  const int m = int(p.m), n = int(p.n), k = int(p.k), lda = int(p.lda), ldb = int(p.ldb),
            ldc = int(p.ldc);
  if constexpr (std::is_same_v<T, float>) {
    blas.sgemm(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
  } else if constexpr (std::is_same_v<T, double>) {
    blas.dgemm(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
  } else {
    using R = tbtest::Real<T>;
    auto f = [](const T* x) { return reinterpret_cast<const R*>(x); };
    if constexpr (std::is_same_v<R, float>) {
      blas.cgemm(&ta, &tb, &m, &n, &k, f(&alpha), f(a), &lda, f(b), &ldb, f(&beta),
                 reinterpret_cast<R*>(c), &ldc, 1, 1);
    } else {
      blas.zgemm(&ta, &tb, &m, &n, &k, f(&alpha), f(a), &lda, f(b), &ldb, f(&beta),
                 reinterpret_cast<R*>(c), &ldc, 1, 1);
    }
  }
}

// |re| + |im|: an upper bound of the modulus that needs no square root.
template <class T>
double norm1(const T& x) {
  if constexpr (tbtest::kComplex<T>) {
    return std::fabs(double(x.real())) + std::fabs(double(x.imag()));
  } else {
    return std::fabs(double(x));
  }
}

template <class T>
bool same_bits(const T& x, const T& y) {
  return std::memcmp(&x, &y, sizeof(T)) == 0;
}

// Elements before and after C's storage, and C's padding rows, hold this; they must keep it.
template <class T>
T guard_value() {
  if constexpr (tbtest::kComplex<T>) {
    return T(-8888.5, 7777.25);
  } else {
    return T(-8888.5);
  }
}
constexpr size_t kGuardElements = 7;

// Runs one case through gemm_on_cpu_team (retrying while it refuses) and checks it against OpenBLAS
// on the same data; returns "" or what went wrong.
template <class T>
std::string run_team_case(const GemmCase<T>& gc) {
  const tbtest::OpenBlas& blas = tbtest::OpenBlas::get();
  if (!blas.error.empty()) return blas.error;
  Problem p;
  p.type = p.c_type = kTypeOf<T>;
  p.trans_a = gc.ta, p.trans_b = gc.tb;
  p.m = gc.m, p.n = gc.n, p.k = gc.k;
  const tbtest::Wide alpha = tbtest::widen(gc.alpha), beta = tbtest::widen(gc.beta);
  p.alpha = tileblas::Scalar(double(alpha.real()), double(alpha.imag()));
  p.beta = tileblas::Scalar(double(beta.real()), double(beta.imag()));
  const std::vector<int64_t> pads = {1, 2, 3, 5};
  p.lda = std::max<int64_t>(1, p.a_rows()) + tbtest::pick(pads);
  p.ldb = std::max<int64_t>(1, p.b_rows()) + tbtest::pick(pads);
  p.ldc = p.m + tbtest::pick(pads);
  const size_t a_size = size_t(p.lda) * std::max<int64_t>(1, p.a_cols());
  const size_t b_size = size_t(p.ldb) * std::max<int64_t>(1, p.b_cols());
  const size_t c_size = size_t(p.ldc) * p.n;
  auto data = [&](size_t n) { return tbtest::test_elements<T>(n, gc.integers); };
  // A panel reaching outside op(A) or op(B) reads NaN; one writing outside C's m x n changes a
  // guard.
  const T nan = tbtest::nan_element<T>();
  std::vector<T> a = data(a_size), b = data(b_size);
  for (std::vector<T>* v : {&a, &b}) {
    const int64_t rows = v == &a ? p.a_rows() : p.b_rows(), ld = v == &a ? p.lda : p.ldb;
    for (size_t j = 0; j < v->size() / size_t(ld); ++j) {
      for (int64_t i = rows; i < ld; ++i) (*v)[i + j * ld] = nan;
    }
  }
  const bool beta_zero = p.beta.is_zero();
  std::vector<T> c_before(kGuardElements + c_size + kGuardElements, guard_value<T>());
  const std::vector<T> c_values = data(c_size);
  for (int64_t j = 0; j < p.n; ++j) {
    for (int64_t i = 0; i < p.m; ++i) {
      // beta == 0: C is poisoned and must not leak.
      c_before[kGuardElements + i + j * p.ldc] = beta_zero ? nan : c_values[i + j * p.ldc];
    }
  }
  const T* c0 = c_before.data() + kGuardElements;

  // OpenBLAS's result (its C zeroed where beta == 0, so that NaN cannot reach the reference), and
  // per element the scale of the rounding error: |alpha| sum |op(A)||op(B)| + |beta C|.
  std::vector<T> ref(c0, c0 + c_size);
  if (beta_zero) std::fill(ref.begin(), ref.end(), T(0));
  openblas_gemm<T>(p, gc.alpha, a.data(), b.data(), gc.beta, ref.data());
  std::vector<double> na(size_t(p.m) * p.k), nb(size_t(p.k) * p.n);  // |op(A)|, |op(B)|
  for (int64_t l = 0; l < p.k; ++l) {
    for (int64_t i = 0; i < p.m; ++i) {
      na[i + l * p.m] = norm1(p.trans_a == Op::kNoTrans ? a[i + l * p.lda] : a[l + i * p.lda]);
    }
    for (int64_t j = 0; j < p.n; ++j) {
      nb[l + j * p.k] = norm1(p.trans_b == Op::kNoTrans ? b[l + j * p.ldb] : b[j + l * p.ldb]);
    }
  }
  std::vector<double> scale(size_t(p.m) * p.n, 0.0);
  for (int64_t j = 0; j < p.n; ++j) {
    for (int64_t i = 0; i < p.m; ++i) {
      double sum = 0;
      for (int64_t l = 0; l < p.k; ++l) sum += na[i + l * p.m] * nb[l + j * p.k];
      scale[i + j * p.m] =
          norm1(gc.alpha) * sum + (beta_zero ? 0.0 : norm1(gc.beta) * norm1(c0[i + j * p.ldc]));
    }
  }

  std::vector<T> c(c_before.size());
  p.a = a.data(), p.b = b.data(), p.c = c.data() + kGuardElements;
  std::string refused_but_wrote;
  const bool taken = until_true([&] {
    c = c_before;
    if (tileblas::gemm_on_cpu_team(p, gc.parts, gc.on_host_kernel)) return true;
    if (std::memcmp(c.data(), c_before.data(), c.size() * sizeof(T)) != 0) {
      refused_but_wrote = "returned false but wrote C";
    }
    return false;
  });
  if (!refused_but_wrote.empty()) return refused_but_wrote;
  if (!taken) return "never taken by the team";

  for (size_t e = 0; e < c.size(); ++e) {
    const int64_t at = int64_t(e) - int64_t(kGuardElements);
    const bool inside = at >= 0 && at % p.ldc < p.m && at / p.ldc < p.n;
    if (!inside && !same_bits(c[e], c_before[e])) {
      return "wrote element " + std::to_string(at) + " outside C's m x n";
    }
  }
  // The team's error and OpenBLAS's are each at most ~(k + 2) eps scale for real data (one
  // rounding per multiply-add, and alpha's and beta's), twice that for complex data (each part of a
  // complex product is a sum of two rounded products). NaN never passes.
  const double eps = std::numeric_limits<tbtest::Real<T>>::epsilon();
  const double factor = tbtest::kComplex<T> ? 4.0 : 2.0;
  for (int64_t j = 0; j < p.n; ++j) {
    for (int64_t i = 0; i < p.m; ++i) {
      const tbtest::Wide got = tbtest::widen(c[kGuardElements + i + j * p.ldc]);
      const tbtest::Wide want = tbtest::widen(ref[i + j * p.ldc]);
      const double tol = gc.integers ? 0.0 : factor * eps * double(p.k + 2) * scale[i + j * p.m];
      const double err = double(std::abs(got - want));
      if (!(err <= tol)) {
        std::ostringstream s;
        s << "C(" << i << "," << j << ") = " << c[kGuardElements + i + j * p.ldc] << ", OpenBLAS "
          << ref[i + j * p.ldc] << ": off by " << err << ", allowed " << tol;
        return s.str();
      }
    }
  }
  return "";
}

struct Shape {
  int64_t m, n, k;
};

// Row panels (m > n), column panels (n >= m), a single row or column, k == 1 and k == 0; every
// one with at least as many rows (row panels) or columns (column panels) as the most parts below.
const std::vector<Shape> kShapes = {{48, 48, 48}, {64, 17, 33}, {17, 64, 5},
                                    {100, 3, 70}, {3, 100, 1},  {65, 64, 129},
                                    {1, 50, 10},  {50, 1, 10},  {20, 30, 0}};
// Fewer rows (row panels) or columns (column panels) than some of the parts asked for.
const std::vector<Shape> kFewPanelShapes = {{5, 4, 9}, {4, 5, 9}, {3, 2, 30}, {2, 3, 30}};
const int kParts[] = {2, 3, 7, 16};

// (alpha, beta) pairs: 0 and 1, real and (for complex) complex ones, beta real and not (the host
// kernel applies a complex beta in a pass of its own).
template <class T>
std::vector<std::pair<T, T>> scalars() {
  if constexpr (tbtest::kComplex<T>) {
    return {{T(1, 0), T(0, 0)},     {T(-0.7, 0.3), T(0, 0)}, {T(0.5, 0.25), T(1.5, 0)},
            {T(1, -1), T(-1, 0.5)}, {T(0, 0), T(0.7, -0.4)}, {T(0, 0), T(0, 0)},
            {T(1, 0), T(1, 0)}};
  } else {
    return {{T(1), T(0)},  {T(-0.7), T(0)}, {T(0.5), T(1.5)},
            {T(1), T(-1)}, {T(0), T(0.7)},  {T(0), T(0)}};
  }
}
template <class T>
std::vector<std::pair<T, T>> integer_scalars() {
  if constexpr (tbtest::kComplex<T>) {
    return {{T(1, 0), T(0, 0)}, {T(2, 1), T(-1, 0)}, {T(-1, 0), T(3, -2)}, {T(0, 0), T(2, 1)}};
  } else {
    return {{T(1), T(0)}, {T(2), T(-1)}, {T(-1), T(3)}, {T(0), T(2)}};
  }
}

// Every transpose pair (N, T, and C for complex data) x shape x parts with each (alpha, beta),
// panels as CPU BLAS calls and, where this CPU has a variant, on our host kernel.
template <class T>
void run_grid(const std::vector<Shape>& shapes, const std::vector<std::pair<T, T>>& scalars,
              bool integers) {
  std::vector<bool> panel_kinds = {false};
  if (tileblas::gemm_host_small::best_isa() != tileblas::gemm_host_small::Isa::kNone) {
    panel_kinds.push_back(true);
  }
  std::vector<Op> ops = {Op::kNoTrans, Op::kTrans};
  if (tbtest::kComplex<T>) ops.push_back(Op::kConjTrans);
  for (bool on_host_kernel : panel_kinds) {
    for (Op ta : ops) {
      for (Op tb : ops) {
        for (const Shape& s : shapes) {
          for (int parts : kParts) {
            for (const auto& [alpha, beta] : scalars) {
              GemmCase<T> gc;
              gc.ta = ta, gc.tb = tb, gc.m = s.m, gc.n = s.n, gc.k = s.k;
              gc.alpha = alpha, gc.beta = beta, gc.parts = parts, gc.integers = integers;
              // k == 0: the kernel supports no such problem, and the team refuses it on the kernel.
              gc.on_host_kernel = on_host_kernel && s.k > 0;
              const std::string msg = run_team_case(gc);
              ASSERT_EQ(msg, "") << gc.str();
            }
          }
        }
      }
    }
  }
}

template <class T>
class TeamGemm : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Team::get()) GTEST_SKIP() << "a single CPU: no team";
  }
};

struct TypeNames {
  template <class T>
  static std::string GetName(int) {
    return tileblas::name_of(kTypeOf<T>);
  }
};

using TeamTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(TeamGemm, TeamTypes, TypeNames);

}  // namespace

TYPED_TEST(TeamGemm, MatchesOpenBlas) { run_grid(kShapes, scalars<TypeParam>(), false); }

TYPED_TEST(TeamGemm, ExactOnIntegerData) { run_grid(kShapes, integer_scalars<TypeParam>(), true); }

// More parts asked for than C has rows or columns to cut: still all of C, in fewer panels.
TYPED_TEST(TeamGemm, MorePartsThanRowsOrColumns) {
  run_grid(kFewPanelShapes, scalars<TypeParam>(), false);
  run_grid(kFewPanelShapes, integer_scalars<TypeParam>(), true);
}

// The cut: the side with room for the parts; where both have, on our host kernel the side whose
// panels pack less (a transposed op(A) alone by rows, a transposed complex op(B) alone by columns),
// else rows when m > n.
TEST(TeamSplit, PacksLessWhereBothSidesHaveRoom) {
  auto problem = [](DataType t, Op ta, Op tb, int64_t m, int64_t n) {
    Problem p;
    p.type = p.c_type = t;
    p.trans_a = ta, p.trans_b = tb;
    p.m = m, p.n = n, p.k = 64;
    return p;
  };
  auto by_rows = [](const Problem& p, int parts, bool on_host_kernel) {
    return tileblas::team_split(p, parts, on_host_kernel).by_rows;
  };
  const Op N = Op::kNoTrans, T = Op::kTrans, C = Op::kConjTrans;
  EXPECT_FALSE(by_rows(problem(DataType::kF64, N, N, 128, 128), 16, true));
  EXPECT_TRUE(by_rows(problem(DataType::kF64, N, N, 129, 128), 16, true));
  EXPECT_TRUE(by_rows(problem(DataType::kF64, T, N, 128, 128), 16, true));
  EXPECT_FALSE(by_rows(problem(DataType::kF64, T, N, 128, 128), 16, false));
  EXPECT_TRUE(by_rows(problem(DataType::kC64, N, N, 128, 128), 16, true));  // 8 columns of room
  EXPECT_FALSE(by_rows(problem(DataType::kC64, N, N, 128, 128), 4, true));
  EXPECT_TRUE(by_rows(problem(DataType::kC64, C, N, 128, 128), 4, true));
  EXPECT_FALSE(by_rows(problem(DataType::kC64, N, C, 128, 128), 4, true));
  EXPECT_TRUE(by_rows(problem(DataType::kC32, C, T, 256, 255), 8, true));
  EXPECT_FALSE(by_rows(problem(DataType::kC32, C, T, 255, 256), 8, true));
  EXPECT_FALSE(by_rows(problem(DataType::kC64, N, N, 128, 128), 8, false));
  // Room: complex rows of at least 8 on the host kernel, complex columns of at least 16.
  EXPECT_EQ(tileblas::team_split(problem(DataType::kC64, N, N, 128, 128), 16, true).room, 16);
  EXPECT_EQ(tileblas::team_split(problem(DataType::kC64, N, N, 128, 128), 16, false).room, 8);
  EXPECT_FALSE(by_rows(problem(DataType::kC64, N, N, 24, 512), 16, true));  // 3 rows of room
  EXPECT_TRUE(by_rows(problem(DataType::kF32, N, N, 4096, 3), 16, true));
  EXPECT_FALSE(by_rows(problem(DataType::kF32, T, N, 3, 4096), 16, true));
}

// 16-bit data, or A and B of another type than C: refused (the caller uses gemm_on_cpu), C
// untouched, even with the team awake.
TEST(TeamGemmTypes, RefusesWhatItDoesNotServe) {
  Team* team = Team::get();
  if (!team) GTEST_SKIP() << "a single CPU: no team";
  const std::pair<DataType, DataType> types[] = {
      {DataType::kF16, DataType::kF16},  {DataType::kF16, DataType::kF32},
      {DataType::kBF16, DataType::kF32}, {DataType::kBF16, DataType::kBF16},
      {DataType::kF32, DataType::kF16},  {DataType::kF32, DataType::kF64},
      {DataType::kC32, DataType::kC64}};
  for (const auto& [type, c_type] : types) {
    Problem p;
    p.m = 33, p.n = 40, p.k = 17;
    p.alpha = 1.0f, p.beta = 0.5f;
    p.type = type, p.c_type = c_type;
    p.lda = p.m, p.ldb = p.k, p.ldc = p.m;
    // Sized for 16-byte elements either way; 16-bit elements of value 1.0 (0x3C00 / 0x3F80) in A
    // and B.
    std::vector<uint16_t> a(size_t(p.m * p.k) * 8, 0x3C00), b(size_t(p.k * p.n) * 8, 0x3C00);
    std::vector<uint16_t> c(size_t(p.m * p.n) * 8);
    for (size_t i = 0; i < c.size(); ++i) c[i] = uint16_t(0x3C00 + i % 97);
    const std::vector<uint16_t> c_before = c;
    p.a = a.data(), p.b = b.data(), p.c = c.data();
    for (int parts : kParts) {
      for (int i = 0; i < 20; ++i) {
        ASSERT_TRUE(wake(*team));
        for (bool on_host_kernel : {false, true}) {
          EXPECT_FALSE(tileblas::gemm_on_cpu_team(p, parts, on_host_kernel))
              << tileblas::name_of(type) << " x " << tileblas::name_of(c_type);
        }
        ASSERT_EQ(c, c_before) << "C written";
      }
    }
  }
}
