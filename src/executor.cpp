#include "executor.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "env.h"
#include "log.h"
#include "memory.h"
#include "operands.h"
#include "plans.h"

namespace tileblas {

namespace {

#define TB_TRY(expr)                            \
  do {                                          \
    cudaError_t tb_err_ = (expr);               \
    if (tb_err_ != cudaSuccess) return tb_err_; \
  } while (0)

// A host operand's device copy (packed, ld = rows), or the operand itself when device-accessible.
struct Staged {
  std::unique_ptr<DeviceBuffer> buffer;
  const void* ptr = nullptr;
  int64_t ld = 0;
};

// The leading dimension of a host operand's device copy. The kernel was chosen on the caller's
// leading dimensions: the copy's columns stay 16-byte aligned, so a row that needs 16-byte-aligned
// columns stays valid on it.
int64_t copy_ld(int64_t rows, size_t elem) {
  const int64_t per_16_bytes = elem < 16 ? int64_t(16 / elem) : 1;
  return (std::max<int64_t>(rows, 1) + per_16_bytes - 1) / per_16_bytes * per_16_bytes;
}

cudaError_t stage_in(const void* host, int64_t ld, int64_t rows, int64_t cols, size_t elem,
                     bool on_device, bool copy, cudaStream_t stream, Staged* out) {
  if (on_device) {
    out->ptr = host;
    out->ld = ld;
    return cudaSuccess;
  }
  const int64_t ld_dev = copy_ld(rows, elem);
  out->buffer = std::make_unique<DeviceBuffer>(size_t(ld_dev) * size_t(cols) * elem, stream);
  TB_TRY(out->buffer->status());
  out->ptr = out->buffer->get();
  out->ld = ld_dev;
  if (copy) TB_TRY(copy_matrix(out->buffer->get(), ld_dev, host, ld, rows, cols, elem, stream));
  return cudaSuccess;
}

// ---- The staging pipeline ----------------------------------------------------------------------

// Pinned slots, each holding one piece of an operand on its way: three inbound (the host threads
// fill one while the copy engine empties the others), two outbound (the host threads empty one
// while the copy engine fills the other).
constexpr size_t kSlotBytes = size_t(8) << 20;
constexpr int kInSlots = 3;
constexpr int kOutSlots = 2;
static_assert(kInSlots >= 2 && kOutSlots >= 2, "a slot fills while another is copied");
// Host threads that copy into and out of the slots, the caller included: about what saturates a
// server's memory bandwidth with memcpy.
constexpr unsigned kMaxCopyThreads = 8;

// A piece of a column-major matrix that fits one slot: whole columns, or part of one column when
// a column alone is larger than a slot.
struct Piece {
  int64_t row, col, rows, cols;
};

std::vector<Piece> pieces_of(int64_t rows, int64_t cols, size_t elem) {
  const int64_t slot_elems = int64_t(kSlotBytes / elem);
  const int64_t piece_rows = std::min(rows, slot_elems);
  const int64_t piece_cols = piece_rows == rows ? std::max<int64_t>(1, slot_elems / rows) : 1;
  std::vector<Piece> pieces;
  for (int64_t c0 = 0; c0 < cols; c0 += piece_cols) {
    for (int64_t r0 = 0; r0 < rows; r0 += piece_rows) {
      pieces.push_back({r0, c0, std::min(piece_rows, rows - r0), std::min(piece_cols, cols - c0)});
    }
  }
  return pieces;
}

// Byte address of element (row, col) of a column-major matrix.
template <class T>
T* at(T* base, int64_t ld, int64_t row, int64_t col, size_t elem) {
  return base + (size_t(row) + size_t(col) * size_t(ld)) * elem;
}

struct Slot {
  std::unique_ptr<PinnedBuffer> host;
  cudaEvent_t copied = nullptr;  // recorded after the last device copy from or to this slot
};

// The pipeline's shared resources, made on first use and kept for the process.
class Stager {
 public:
  // nullptr when they cannot be made (staged calls then use plain copies).
  static Stager* get() {
    static Stager* const stager = make();
    return stager;
  }

  std::mutex mu;  // held by a staged call for its whole length (run_gemm())
  cudaStream_t in = nullptr, out = nullptr;

  // Queues the copy of a host matrix to the device on `in`; pageable data goes through the slots
  // (this waits for a free slot, and returns once the last piece is in a slot).
  cudaError_t upload(char* dev, int64_t ld_dev, const char* host, int64_t ld_host, int64_t rows,
                     int64_t cols, size_t elem, bool host_pinned) {
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    if (host_pinned) return copy_matrix(dev, ld_dev, host, ld_host, rows, cols, elem, in);
    for (const Piece& q : pieces_of(rows, cols, elem)) {
      Slot& slot = in_[next_in_];
      next_in_ = (next_in_ + 1) % kInSlots;
      TB_TRY(cudaEventSynchronize(slot.copied));  // the slot's last piece has left it
      const size_t pitch = size_t(q.rows) * elem;
      team_->copy_2d(slot.host->get(), pitch, at(host, ld_host, q.row, q.col, elem),
                     size_t(ld_host) * elem, pitch, size_t(q.cols));
      TB_TRY(cudaMemcpy2DAsync(at(dev, ld_dev, q.row, q.col, elem), size_t(ld_dev) * elem,
                               slot.host->get(), pitch, pitch, size_t(q.cols),
                               cudaMemcpyHostToDevice, in));
      TB_TRY(cudaEventRecord(slot.copied, in));
    }
    return cudaSuccess;
  }

  // Copies a device matrix to the host on `out` (after what `out` waits for). Pageable data goes
  // through the slots and is in place on return (download_pieces()); pinned data is only queued.
  // With `triangle` set, only that triangle (the diagonal included) of the host matrix is written:
  // pinned data then goes through the slots too.
  cudaError_t download(char* host, int64_t ld_host, const char* dev, int64_t ld_dev, int64_t rows,
                       int64_t cols, size_t elem, bool host_pinned,
                       std::optional<Uplo> triangle = std::nullopt) {
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    if (host_pinned && !triangle) {
      return copy_matrix(host, ld_host, dev, ld_dev, rows, cols, elem, out);
    }
    size_t landed = 0;
    return download_pieces(host, ld_host, dev, ld_dev, pieces_of(rows, cols, elem), elem, triangle,
                           &landed);
  }

  // Copies `pieces` of a device matrix to the host through the slots, in their order: piece q's
  // device copy is queued before piece q-1 is copied out of its slot. *landed counts the pieces in
  // place on the host, also on error.
  cudaError_t download_pieces(char* host, int64_t ld_host, const char* dev, int64_t ld_dev,
                              const std::vector<Piece>& pieces, size_t elem,
                              std::optional<Uplo> triangle, size_t* landed) {
    *landed = 0;
    for (size_t q = 0; q <= pieces.size(); ++q) {
      if (q < pieces.size()) {
        const Piece& x = pieces[q];
        Slot& slot = out_[q % kOutSlots];
        const size_t pitch = size_t(x.rows) * elem;
        TB_TRY(cudaMemcpy2DAsync(slot.host->get(), pitch, at(dev, ld_dev, x.row, x.col, elem),
                                 size_t(ld_dev) * elem, pitch, size_t(x.cols),
                                 cudaMemcpyDeviceToHost, out));
        TB_TRY(cudaEventRecord(slot.copied, out));
      }
      if (q > 0) {
        const Piece& x = pieces[q - 1];
        Slot& slot = out_[(q - 1) % kOutSlots];
        const size_t pitch = size_t(x.rows) * elem;
        TB_TRY(cudaEventSynchronize(slot.copied));
        if (triangle) {
          team_->copy_triangle(host, ld_host, static_cast<const char*>(slot.host->get()), x.row,
                               x.col, x.rows, x.cols, elem, triangle == Uplo::kLower);
        } else {
          team_->copy_2d(at(host, ld_host, x.row, x.col, elem), size_t(ld_host) * elem,
                         slot.host->get(), pitch, pitch, size_t(x.cols));
        }
        *landed = q;
      }
    }
    return cudaSuccess;
  }

 private:
  Stager() = default;
  ~Stager() {  // only a Stager that could not be completed is destroyed
    for (Slot* slots : {in_, out_}) {
      for (int i = 0; i < (slots == in_ ? kInSlots : kOutSlots); ++i) {
        if (slots[i].copied) cudaEventDestroy(slots[i].copied);
      }
    }
    if (in) cudaStreamDestroy(in);
    if (out) cudaStreamDestroy(out);
  }

  static Stager* make() {
    Stager* s = new Stager;
    cudaError_t err = cudaStreamCreateWithFlags(&s->in, cudaStreamNonBlocking);
    if (err == cudaSuccess) err = cudaStreamCreateWithFlags(&s->out, cudaStreamNonBlocking);
    for (Slot* slots : {s->in_, s->out_}) {
      for (int i = 0; i < (slots == s->in_ ? kInSlots : kOutSlots); ++i) {
        if (err != cudaSuccess) break;
        slots[i].host = std::make_unique<PinnedBuffer>(kSlotBytes);
        err = slots[i].host->status();
        if (err == cudaSuccess) {
          err = cudaEventCreateWithFlags(&slots[i].copied, cudaEventDisableTiming);
        }
      }
    }
    if (err != cudaSuccess) {
      cudaGetLastError();
      warn_once("staging", std::string("pinned staging buffers could not be made (") +
                               cudaGetErrorString(err) +
                               "); large host-data GEMMs use plain copies");
      delete s;
      return nullptr;
    }
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, kMaxCopyThreads);
    s->team_ = new HostCopyTeam(int(threads) - 1);  // lives as long as the process
    return s;
  }

  Slot in_[kInSlots], out_[kOutSlots];
  int next_in_ = 0;
  HostCopyTeam* team_ = nullptr;
};

// Events for one staged call.
class EventSet {
 public:
  explicit EventSet(size_t count) : events_(count, nullptr) {
    for (cudaEvent_t& e : events_) {
      if (status_ == cudaSuccess) status_ = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    }
  }
  ~EventSet() {
    for (cudaEvent_t e : events_) {
      if (e) cudaEventDestroy(e);
    }
  }
  EventSet(const EventSet&) = delete;
  EventSet& operator=(const EventSet&) = delete;
  cudaError_t status() const { return status_; }
  cudaEvent_t operator[](size_t i) const { return events_[i]; }

 private:
  std::vector<cudaEvent_t> events_;
  cudaError_t status_ = cudaSuccess;
};

// Waits for both copy streams when a staged call ends, however it ends: the device buffers it
// copies to and from are freed after it.
struct CopiesDrained {
  Stager& stager;
  ~CopiesDrained() {
    cudaStreamSynchronize(stager.in);
    cudaStreamSynchronize(stager.out);
  }
};

std::atomic<int> g_fail_copy_back_after{-1};

// The columns of a rows x cols output in place on the host after the first `landed` of `pieces`
// (in copy order: the first columns first, or with `last_first` the last ones) were copied back.
LeftInC columns_landed(const std::vector<Piece>& pieces, size_t landed, int64_t rows, int64_t cols,
                       bool last_first) {
  LeftInC left;
  if (landed == 0) return left;
  const Piece& x = pieces[landed - 1];  // the last piece in place: its column may be in part
  if (last_first) {
    left.final_cols = cols - (x.row == 0 ? x.col : x.col + 1);
    left.maybe_partial = x.row > 0;
  } else {
    const bool whole = x.row + x.rows == rows;
    left.final_cols = whole ? x.col + x.cols : x.col;
    left.maybe_partial = !whole;
  }
  return left;
}

// Copies a host output back whole from its device copy on `stream` and waits for it, once what
// wrote the copy has been waited for (so that an error here is the copy's). A copy that fails may
// have landed in part, and nothing says which part: *left says so. The injected failure
// (fail_staged_copy_back_for_testing(0)) strikes once the copy has landed.
cudaError_t copy_back_whole(void* host, int64_t ld_host, const Staged& from, int64_t rows,
                            int64_t cols, size_t elem, cudaStream_t stream, LeftInC* left) {
  cudaError_t err = copy_matrix(host, ld_host, from.ptr, from.ld, rows, cols, elem, stream);
  if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
  if (err == cudaSuccess && g_fail_copy_back_after.load() == 0) err = cudaErrorLaunchFailure;
  if (left) left->maybe_partial = err != cudaSuccess;
  return err;
}

cudaError_t run_gemm_staged(Stager& st, const Problem& p, const Placement& where,
                            const GemmKernel& kernel, int64_t panel_cols, const DeviceCaps& caps,
                            cudaStream_t stream, LeftInC* left) {
  const size_t ab = size_of(p.type), ce = size_of(p.c_type);
  const bool a_host = !device_accessible(where.a), b_host = !device_accessible(where.b),
             c_host = !device_accessible(where.c);
  Staged a, b, c;
  TB_TRY(stage_in(p.a, p.lda, p.a_rows(), p.a_cols(), ab, !a_host, false, stream, &a));
  TB_TRY(stage_in(p.b, p.ldb, p.b_rows(), p.b_cols(), ab, !b_host, false, stream, &b));
  TB_TRY(stage_in(p.c, p.ldc, p.m, p.n, ce, !c_host, false, stream, &c));
  char* const dev_a = static_cast<char*>(const_cast<void*>(a.ptr));
  char* const dev_b = static_cast<char*>(const_cast<void*>(b.ptr));
  char* const dev_c = static_cast<char*>(const_cast<void*>(c.ptr));
  const char* const host_b = static_cast<const char*>(p.b);
  char* const host_c = static_cast<char*>(p.c);

  const int64_t panels = (p.n + panel_cols - 1) / panel_cols;
  // Buffers allocated, panel copied in, then per panel: computed, copied back (pinned C).
  EventSet events(2 * size_t(panels) + 2);
  TB_TRY(events.status());
  const cudaEvent_t allocated = events[0], copied_in = events[1];
  auto computed = [&](int64_t j) { return events[2 * size_t(j) + 2]; };
  auto copied_back = [&](int64_t j) { return events[2 * size_t(j) + 3]; };
  const bool c_pinned = where.c == MemKind::kHostPinned;
  // Pinned C: panels whose copy back was queued, and of those the leading ones whose copy-back
  // event was recorded (an event never recorded queries as complete).
  int64_t panels_queued_back = 0, panels_recorded = 0;
  // Pageable C goes back through the slots and is in place as the host copies it out of them:
  // what it holds is known exactly, also where a panel's copy back failed after some pieces.
  LeftInC pageable_left;
  const int fail_after = g_fail_copy_back_after.load();
  int64_t pieces_back = 0;  // pieces copied back so far, for the injected failure

  auto run = [&]() -> cudaError_t {
    const CopiesDrained drained{st};  // destroyed before the buffers above
    TB_TRY(cudaEventRecord(allocated, stream));
    TB_TRY(cudaStreamWaitEvent(st.in, allocated, 0));
    TB_TRY(cudaStreamWaitEvent(st.out, allocated, 0));

    if (a_host) {
      TB_TRY(st.upload(dev_a, a.ld, static_cast<const char*>(p.a), p.lda, p.a_rows(), p.a_cols(),
                       ab, where.a == MemKind::kHostPinned));
    }
    auto download = [&](int64_t j) -> cudaError_t {
      const int64_t j0 = j * panel_cols, w = std::min(panel_cols, p.n - j0);
      TB_TRY(cudaStreamWaitEvent(st.out, computed(j), 0));
      if (c_pinned) {  // one piece, queued
        if (fail_after >= 0 && pieces_back >= fail_after) return cudaErrorLaunchFailure;
        ++panels_queued_back;
        TB_TRY(copy_matrix(at(host_c, p.ldc, 0, j0, ce), p.ldc, at(dev_c, c.ld, 0, j0, ce), c.ld,
                           p.m, w, ce, st.out));
        ++pieces_back;
        TB_TRY(cudaEventRecord(copied_back(j), st.out));
        ++panels_recorded;
        return cudaSuccess;
      }
      std::vector<Piece> pieces = pieces_of(p.m, w, ce);
      const bool fail = fail_after >= 0 && pieces_back + int64_t(pieces.size()) > fail_after;
      if (fail) pieces.resize(size_t(fail_after - pieces_back));
      size_t landed = 0;
      cudaError_t err =
          st.download_pieces(at(host_c, p.ldc, 0, j0, ce), p.ldc, at(dev_c, c.ld, 0, j0, ce), c.ld,
                             pieces, ce, std::nullopt, &landed);
      pieces_back += int64_t(landed);
      if (err == cudaSuccess && fail) err = cudaErrorLaunchFailure;
      const LeftInC in_panel =
          err == cudaSuccess ? LeftInC{w, false} : columns_landed(pieces, landed, p.m, w, false);
      pageable_left = {j0 + in_panel.final_cols, in_panel.maybe_partial};
      return err;
    };
    // Kernels for the full-width panels and the narrower last one, picked on first need.
    const GemmKernel* panel_kernel[2] = {nullptr, nullptr};
    for (int64_t j = 0; j < panels; ++j) {
      const int64_t j0 = j * panel_cols, w = std::min(panel_cols, p.n - j0);
      // Columns j0.. of op(B): columns of B, or rows of B transposed.
      const int64_t b_row = p.trans_b == Op::kNoTrans ? 0 : j0;
      const int64_t b_col = p.trans_b == Op::kNoTrans ? j0 : 0;
      if (b_host) {
        TB_TRY(st.upload(at(dev_b, b.ld, b_row, b_col, ab), b.ld,
                         at(host_b, p.ldb, b_row, b_col, ab), p.ldb,
                         p.trans_b == Op::kNoTrans ? p.k : w, p.trans_b == Op::kNoTrans ? w : p.k,
                         ab, where.b == MemKind::kHostPinned));
      }
      if (c_host && p.beta != 0.0) {
        TB_TRY(st.upload(at(dev_c, c.ld, 0, j0, ce), c.ld, at(host_c, p.ldc, 0, j0, ce), p.ldc, p.m,
                         w, ce, where.c == MemKind::kHostPinned));
      }
      TB_TRY(cudaEventRecord(copied_in, st.in));
      TB_TRY(cudaStreamWaitEvent(stream, copied_in, 0));
      Problem d = p;
      d.n = w;
      d.a = dev_a;
      d.lda = a.ld;
      d.b = at(dev_b, b.ld, b_row, b_col, ab);
      d.ldb = b.ld;
      d.c = at(dev_c, c.ld, 0, j0, ce);
      d.ldc = c.ld;
      const GemmKernel* k = &kernel;
      if (w < p.n) {
        const GemmKernel*& picked = panel_kernel[w == panel_cols ? 0 : 1];
        if (!picked) {
          std::string why;
          picked = pick_gemm_kernel(d, caps, config().force_kernel, &why);
          if (!picked) return cudaErrorNotSupported;
        }
        k = picked;
      }
      TB_TRY(k->launch(d, stream));
      TB_TRY(cudaEventRecord(computed(j), stream));
      if (c_host && j > 0) TB_TRY(download(j - 1));
    }
    if (c_host) TB_TRY(download(panels - 1));
    TB_TRY(cudaStreamSynchronize(stream));
    TB_TRY(cudaStreamSynchronize(st.out));
    return cudaStreamSynchronize(st.in);
  };
  const cudaError_t err = run();
  if (err != cudaSuccess && left && c_host) {
    if (!c_pinned) {
      *left = pageable_left;
      return err;
    }
    // The copies back have drained (CopiesDrained): the leading panels whose copy-back event was
    // recorded and completed hold their result; one queued but not confirmed may have landed in
    // part.
    int64_t j = 0;
    while (j < panels_recorded && cudaEventQuery(copied_back(j)) == cudaSuccess) ++j;
    left->final_cols = std::min(p.n, j * panel_cols);
    left->maybe_partial = j < panels_queued_back;
  }
  return err;
}

// ---- Small calls: one pinned bounce buffer ----------------------------------------------------

// Where a call's host operands lie in the bounce buffer (byte offsets; device-accessible operands
// take no room): each at a 256-byte boundary, with copy_ld() columns.
struct BounceLayout {
  size_t a = 0, b = 0, c = 0;
  int64_t lda = 0, ldb = 0, ldc = 0;
  size_t end = 0;
};

BounceLayout bounce_layout(const Problem& p, const Placement& where) {
  const size_t ab = size_of(p.type), ce = size_of(p.c_type);
  BounceLayout l;
  auto place = [&](bool host, int64_t rows, int64_t cols, size_t elem, size_t* at, int64_t* ld) {
    if (!host) return;
    *at = (l.end + 255) / 256 * 256;
    *ld = copy_ld(rows, elem);
    l.end = *at + size_t(*ld) * size_t(std::max<int64_t>(cols, 0)) * elem;
  };
  place(!device_accessible(where.a), p.a_rows(), p.a_cols(), ab, &l.a, &l.lda);
  place(!device_accessible(where.b), p.b_rows(), p.b_cols(), ab, &l.b, &l.ldb);
  place(!device_accessible(where.c), p.m, p.n, ce, &l.c, &l.ldc);
  return l;
}

// fp32 without TF32 only: those rows read operands with cp.async, which works on mapped host
// memory; the tensor-core rows on Hopper load through TMA descriptors, not used on host memory.
bool bounceable(const Problem& p, const BounceLayout& l) {
  return p.type == DataType::kF32 && p.c_type == DataType::kF32 && !p.allow_tf32 &&
         l.end <= kBounceBytes;
}

// A pinned host buffer of kBounceBytes, made on first use and kept (nullptr when it cannot be
// made: such calls then use plain copies), and the mutex a bounced call holds for its length.
struct Bouncer {
  static Bouncer* get() {
    static Bouncer* const bouncer = [] {
      auto* b = new Bouncer;
      if (b->buffer.status() == cudaSuccess) return b;
      cudaGetLastError();
      warn_once("bounce", std::string("the pinned bounce buffer could not be made (") +
                              cudaGetErrorString(b->buffer.status()) +
                              "); small host-data GEMMs use plain copies");
      delete b;
      return static_cast<Bouncer*>(nullptr);
    }();
    return bouncer;
  }
  PinnedBuffer buffer{kBounceBytes};
  std::mutex mu;  // held by a bounced call for its whole length (run_gemm())
};

// Waits for the stream when a bounced call ends, however it ends: the next call reuses the buffer.
struct StreamDrained {
  cudaStream_t stream;
  ~StreamDrained() { cudaStreamSynchronize(stream); }
};

// The calling thread packs the host operands into the pinned buffer; the kernel reads them and
// writes C there in place, across the bus (pinned memory is mapped into the device's address
// space); the thread unpacks C. A small call so costs one launch and one wait: the copy engines'
// transfers, one before and one after the kernel, each cost about as much as the launch.
cudaError_t run_gemm_bounced(Bouncer& bo, const Problem& p, const Placement& where,
                             const BounceLayout& l, const GemmKernel& kernel, cudaStream_t stream) {
  const StreamDrained drained{stream};  // before the lock is released
  const size_t ab = size_of(p.type), ce = size_of(p.c_type);
  char* const buffer = static_cast<char*>(bo.buffer.get());
  Problem d = p;
  auto pack = [&](const void* src, int64_t ld, int64_t rows, int64_t cols, size_t elem, size_t at,
                  int64_t ld_copy) {
    copy_lines(buffer + at, size_t(ld_copy) * elem, src, size_t(ld) * elem, size_t(rows) * elem,
               size_t(cols));
  };
  if (!device_accessible(where.a)) {
    pack(p.a, p.lda, p.a_rows(), p.a_cols(), ab, l.a, l.lda);
    d.a = buffer + l.a, d.lda = l.lda;
  }
  if (!device_accessible(where.b)) {
    pack(p.b, p.ldb, p.b_rows(), p.b_cols(), ab, l.b, l.ldb);
    d.b = buffer + l.b, d.ldb = l.ldb;
  }
  const bool c_host = !device_accessible(where.c);
  if (c_host) {
    if (p.beta != 0.0f) pack(p.c, p.ldc, p.m, p.n, ce, l.c, l.ldc);
    d.c = buffer + l.c, d.ldc = l.ldc;
  }
  TB_TRY(kernel.launch(d, stream));
  TB_TRY(cudaStreamSynchronize(stream));
  if (c_host) {
    copy_lines(p.c, size_t(p.ldc) * ce, buffer + l.c, size_t(l.ldc) * ce, size_t(p.m) * ce,
               size_t(p.n));
  }
  return cudaSuccess;
}

cudaError_t run_gemm_direct(const Problem& p, const Placement& where, const GemmKernel& kernel,
                            cudaStream_t stream, LeftInC* left) {
  const size_t ab = size_of(p.type), ce = size_of(p.c_type);
  Staged a, b, c;
  TB_TRY(stage_in(p.a, p.lda, p.a_rows(), p.a_cols(), ab, device_accessible(where.a), true, stream,
                  &a));
  TB_TRY(stage_in(p.b, p.ldb, p.b_rows(), p.b_cols(), ab, device_accessible(where.b), true, stream,
                  &b));
  TB_TRY(
      stage_in(p.c, p.ldc, p.m, p.n, ce, device_accessible(where.c), p.beta != 0.0f, stream, &c));
  Problem d = p;
  d.a = a.ptr;
  d.lda = a.ld;
  d.b = b.ptr;
  d.ldb = b.ld;
  d.c = const_cast<void*>(c.ptr);
  d.ldc = c.ld;
  if (cudaError_t err = kernel.launch(d, stream); err != cudaSuccess) {
    // The caller's C itself (not a copy of it) may hold part of a row's result that writes it in
    // several launches; every other failure so far leaves it untouched.
    if (left && !c.buffer && kernel.c_in_parts) left->maybe_partial = true;
    return err;
  }
  TB_TRY(cudaStreamSynchronize(stream));
  if (!c.buffer) return cudaSuccess;
  return copy_back_whole(p.c, p.ldc, c, p.m, p.n, ce, stream, left);
}

}  // namespace

cudaError_t copy_matrix(void* dst, int64_t ld_dst, const void* src, int64_t ld_src, int64_t rows,
                        int64_t cols, size_t elem, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return cudaSuccess;
  return cudaMemcpy2DAsync(dst, size_t(ld_dst) * elem, src, size_t(ld_src) * elem,
                           size_t(rows) * elem, size_t(cols), cudaMemcpyDefault, stream);
}

bool bounce_fits(const Problem& p, const Placement& where) {
  return bounceable(p, bounce_layout(p, where));
}

void fail_staged_copy_back_for_testing(int after) { g_fail_copy_back_after.store(after); }

cudaError_t run_gemm(const Problem& p, const Placement& where, const GemmKernel& kernel,
                     HostCopies copies, int64_t panel_cols, const DeviceCaps& caps,
                     cudaStream_t stream, LeftInC* left) {
  if (left) *left = LeftInC{};
  if (!where.any_host()) return run_gemm_direct(p, where, kernel, stream, left);
  // The staging pipeline and the bounce buffer serve one call at a time: a call that finds them
  // busy takes plain copies rather than waiting for another thread's call to end.
  if (copies == HostCopies::kStaged && panel_cols > 0) {
    if (Stager* stager = Stager::get()) {
      std::unique_lock<std::mutex> lock(stager->mu, std::try_to_lock);
      if (lock.owns_lock()) {
        return run_gemm_staged(*stager, p, where, kernel, panel_cols, caps, stream, left);
      }
    }
  }
  if (copies == HostCopies::kBounced) {
    const BounceLayout layout = bounce_layout(p, where);
    if (Bouncer* bouncer = bounceable(p, layout) ? Bouncer::get() : nullptr) {
      std::unique_lock<std::mutex> lock(bouncer->mu, std::try_to_lock);
      if (lock.owns_lock()) return run_gemm_bounced(*bouncer, p, where, layout, kernel, stream);
    }
  }
  return run_gemm_direct(p, where, kernel, stream, left);
}

cudaError_t staged_copy_to_device(void* dev, int64_t ld_dev, const void* host, int64_t ld_host,
                                  int64_t rows, int64_t cols, size_t elem, bool host_pinned) {
  Stager* st = Stager::get();
  if (!st) return cudaErrorNotSupported;
  std::lock_guard<std::mutex> lock(st->mu);
  TB_TRY(st->upload(static_cast<char*>(dev), ld_dev, static_cast<const char*>(host), ld_host, rows,
                    cols, elem, host_pinned));
  return cudaStreamSynchronize(st->in);
}

cudaError_t staged_copy_to_host(void* host, int64_t ld_host, const void* dev, int64_t ld_dev,
                                int64_t rows, int64_t cols, size_t elem, bool host_pinned) {
  Stager* st = Stager::get();
  if (!st) return cudaErrorNotSupported;
  std::lock_guard<std::mutex> lock(st->mu);
  TB_TRY(st->download(static_cast<char*>(host), ld_host, static_cast<const char*>(dev), ld_dev,
                      rows, cols, elem, host_pinned));
  return cudaStreamSynchronize(st->out);
}

namespace {

// Where a Level-3 plan finds p's operands: host operands in new device buffers, the others in
// place; d is p on them.
struct Level3Staging {
  Staged a, b, c;
  Problem d;
};

// `copy_in`: host operands are copied into their buffers here, where the output is copied back
// whole (Operand::in_when_copied_back_whole()); else the buffers are left for the caller.
cudaError_t stage_level3(const Problem& p, const Operands& ops, const Placement& where,
                         bool copy_in, cudaStream_t stream, Level3Staging* on) {
  Operands at = ops;  // where the plan finds them
  auto stage = [&](Operand& x, MemKind kind, Staged* out) {
    if (!x.ptr) return cudaSuccess;
    TB_TRY(stage_in(x.ptr, x.ld, x.rows, x.cols, x.elem, device_accessible(kind),
                    copy_in && x.in_when_copied_back_whole(), stream, out));
    x.ptr = out->ptr, x.ld = out->ld;
    return cudaSuccess;
  };
  TB_TRY(stage(at.a, where.a, &on->a));
  TB_TRY(stage(at.b, where.b, &on->b));
  TB_TRY(stage(at.c, where.c, &on->c));
  on->d = on_operands(p, at);
  return cudaSuccess;
}

// Copies a Level-3 output back from its device buffer. Through the slots, its pieces come back in
// the order level3_copy_back_last_first() gives, so that what a failure leaves to compute is a
// problem of the routine's own (level3_columns_left()); *left says which columns are in place.
// Pinned data copied whole leaves nothing known to be in place.
cudaError_t copy_level3_back(Stager& st, const Problem& p, const Operand& c, const Staged& from,
                             bool host_pinned, LeftInC* left) {
  const std::optional<Uplo> triangle = c.triangle ? std::optional<Uplo>(c.uplo) : std::nullopt;
  char* const host = static_cast<char*>(const_cast<void*>(c.ptr));
  const char* const dev = static_cast<const char*>(from.ptr);
  if (host_pinned && !triangle) {
    return copy_back_whole(host, c.ld, from, c.rows, c.cols, c.elem, st.out, left);
  }
  std::vector<Piece> pieces = pieces_of(c.rows, c.cols, c.elem);
  const bool last_first = level3_copy_back_last_first(p);
  if (last_first) std::reverse(pieces.begin(), pieces.end());
  const int fail_after = g_fail_copy_back_after.load();
  const bool fail = fail_after >= 0 && size_t(fail_after) < pieces.size();
  if (fail) pieces.resize(size_t(fail_after));
  size_t landed = 0;
  cudaError_t err = st.download_pieces(host, c.ld, dev, from.ld, pieces, c.elem, triangle, &landed);
  if (err == cudaSuccess && fail) err = cudaErrorLaunchFailure;
  if (err != cudaSuccess) *left = columns_landed(pieces, landed, c.rows, c.cols, last_first);
  return err;
}

// A Level-3 call with host operands through the staging pipeline: what it reads copied in, the
// plan, the output copied back (a triangle-written C only its triangle, so C is copied in only
// where the routine reads it).
cudaError_t run_level3_staged(Stager& st, const Problem& p, const Operands& ops,
                              const Placement& where, const DeviceCaps& caps, cudaStream_t stream,
                              LeftInC* left) {
  Level3Staging on;
  TB_TRY(stage_level3(p, ops, where, false, stream, &on));
  EventSet events(2);  // buffers allocated; operands copied in
  TB_TRY(events.status());
  const CopiesDrained drained{st};  // destroyed before the buffers above
  TB_TRY(cudaEventRecord(events[0], stream));
  TB_TRY(cudaStreamWaitEvent(st.in, events[0], 0));
  auto upload = [&](const Operand& x, MemKind kind, const Staged& to) {
    if (!to.buffer || !x.in) return cudaSuccess;
    return st.upload(static_cast<char*>(to.buffer->get()), to.ld, static_cast<const char*>(x.ptr),
                     x.ld, x.rows, x.cols, x.elem, kind == MemKind::kHostPinned);
  };
  TB_TRY(upload(ops.a, where.a, on.a));
  TB_TRY(upload(ops.b, where.b, on.b));
  TB_TRY(upload(ops.c, where.c, on.c));
  TB_TRY(cudaEventRecord(events[1], st.in));
  TB_TRY(cudaStreamWaitEvent(stream, events[1], 0));
  TB_TRY(run_level3_on_device(on.d, caps, stream));  // waits for the plan
  if (!on.c.buffer) return cudaSuccess;
  return copy_level3_back(st, p, ops.c, on.c, where.c == MemKind::kHostPinned, left);
}

}  // namespace

cudaError_t run_level3(const Problem& p, const Placement& where, const DeviceCaps& caps,
                       cudaStream_t stream, LeftInC* left) {
  LeftInC unused;
  if (!left) left = &unused;
  *left = LeftInC{};
  const Operands ops = operands_of(p);
  // The staging pipeline serves one call at a time: a call that finds it busy takes plain copies
  // rather than waiting for another thread's call to end.
  if (where.any_host()) {
    if (Stager* stager = Stager::get()) {
      std::unique_lock<std::mutex> lock(stager->mu, std::try_to_lock);
      if (lock.owns_lock()) return run_level3_staged(*stager, p, ops, where, caps, stream, left);
    }
  }
  Level3Staging on;
  TB_TRY(stage_level3(p, ops, where, true, stream, &on));
  TB_TRY(run_level3_on_device(on.d, caps, stream));
  if (!on.c.buffer) return cudaStreamSynchronize(stream);
  return copy_back_whole(p.c, p.ldc, on.c, ops.c.rows, ops.c.cols, ops.c.elem, stream, left);
}

cudaError_t run_axpy(const AxpyProblem& p, bool x_on_device, bool y_on_device,
                     const AxpyKernel& kernel, cudaStream_t stream, LeftInC* left) {
  if (left) *left = LeftInC{};
  // A strided vector spans (n - 1) * |inc| + 1 elements from its first stored element.
  auto span = [&](int64_t inc) { return (p.n - 1) * std::llabs(inc) + 1; };
  Staged x, y;
  TB_TRY(
      stage_in(p.x, span(p.incx), span(p.incx), 1, sizeof(float), x_on_device, true, stream, &x));
  TB_TRY(
      stage_in(p.y, span(p.incy), span(p.incy), 1, sizeof(float), y_on_device, true, stream, &y));
  AxpyProblem d = p;
  d.x = static_cast<const float*>(x.ptr);
  d.y = static_cast<float*>(const_cast<void*>(y.ptr));
  TB_TRY(kernel.launch(d, stream));
  TB_TRY(cudaStreamSynchronize(stream));  // a failure so far leaves the caller's y untouched
  if (!y.buffer) return cudaSuccess;
  return copy_back_whole(p.y, span(p.incy), y, span(p.incy), 1, sizeof(float), stream, left);
}

cudaError_t run_transpose(const TransposeProblem& p, bool a_on_device, bool b_on_device,
                          const TransposeKernel& kernel, bool copy_a_first, cudaStream_t stream,
                          LeftInC* left) {
  if (left) *left = LeftInC{};
  const int64_t b_rows = p.b_rows(), b_cols = p.b_cols();
  Staged a, b;
  TB_TRY(stage_in(p.a, p.lda, p.rows, p.cols, sizeof(float), a_on_device && !copy_a_first, true,
                  stream, &a));
  TB_TRY(stage_in(p.b, p.ldb, b_rows, b_cols, sizeof(float), b_on_device, false, stream, &b));
  TransposeProblem d = p;
  d.a = static_cast<const float*>(a.ptr);
  d.lda = a.ld;
  d.b = static_cast<float*>(const_cast<void*>(b.ptr));
  d.ldb = b.ld;
  TB_TRY(kernel.launch(d, stream));
  TB_TRY(cudaStreamSynchronize(stream));  // a failure so far leaves the caller's B untouched
  if (!b.buffer) return cudaSuccess;
  return copy_back_whole(p.b, p.ldb, b, b_rows, b_cols, sizeof(float), stream, left);
}

}  // namespace tileblas
