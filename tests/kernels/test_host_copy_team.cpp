// The staging pipeline's host copy team (src/memory.h HostCopyTeam), without a GPU: 2D copies of
// every shape it cuts differently (one long line cut across its width, many lines cut into line
// ranges, blocks below one part), padding outside the block untouched, back-to-back copies with
// and without pauses long enough for the helpers to sleep, two callers at once, and one triangle
// of a packed block. Also the
// address ranges that classify() takes as host memory without asking the driver.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include <sys/mman.h>

#include "memory.h"
#include "test_support.h"

namespace {

using tileblas::HostCopyTeam;

struct Shape {
  size_t width, height, src_pad, dst_pad;
};

// Copies a block of random bytes with `team`; true when every byte of the destination is right,
// its padding untouched.
bool copy_is_right(HostCopyTeam& team, const Shape& s, uint64_t seed) {
  const size_t src_pitch = s.width + s.src_pad, dst_pitch = s.width + s.dst_pad;
  std::vector<unsigned char> src(src_pitch * s.height), dst(dst_pitch * s.height, 0xA5);
  std::mt19937_64 gen(seed);
  for (size_t i = 0; i < src.size(); i += 8) {
    const uint64_t r = gen();
    std::memcpy(&src[i], &r, std::min<size_t>(8, src.size() - i));
  }
  team.copy_2d(dst.data(), dst_pitch, src.data(), src_pitch, s.width, s.height);
  for (size_t i = 0; i < s.height; ++i) {
    if (std::memcmp(&dst[i * dst_pitch], &src[i * src_pitch], s.width) != 0) return false;
    for (size_t b = s.width; b < dst_pitch; ++b) {
      if (dst[i * dst_pitch + b] != 0xA5) return false;
    }
  }
  return true;
}

const Shape kShapes[] = {
    {size_t(3) << 20, 1, 0, 0},  // one line longer than a part: cut across its width
    {1000, 4096, 24, 0},         // many short lines: line ranges
    {8192, 512, 0, 64},          // a slot-sized block
    {100, 7, 3, 5},              // below one part: copied by the caller alone
    {(size_t(1) << 20) + 3, 5, 1, 2},
};

TEST(HostCopyTeamTest, CopiesEveryShape) {
  for (int helpers : {0, 1, 3}) {
    HostCopyTeam* team = new HostCopyTeam(helpers);  // never destroyed, as in the library
    for (const Shape& s : kShapes) {
      EXPECT_TRUE(copy_is_right(*team, s, tbtest::rng()()))
          << helpers << " helpers, " << s.width << "x" << s.height;
    }
  }
}

// The triangle of a packed block (a staged syrk's C coming back): pieces of whole columns and
// pieces cut inside a column, crossing the diagonal anywhere, with groups of columns crossing it
// or wholly on one side, in both triangles and element sizes; every element on the triangle's
// side copied, everything else of the destination (the other triangle, rows outside the piece,
// padding) untouched.
TEST(HostCopyTeamTest, CopiesOneTriangleOfAPiece) {
  HostCopyTeam* team = new HostCopyTeam(3);
  std::mt19937_64 gen(tbtest::rng()());
  struct Piece {
    int64_t row0, col0, rows, cols;
  };
  const int64_t n = 300, ld = n + 5;
  const Piece pieces[] = {{0, 0, n, n},      {0, 70, n, 130},  {40, 100, 200, 1},
                          {150, 140, 10, 1}, {0, 250, 64, 50}, {260, 0, 40, 300}};
  for (size_t elem : {size_t(4), size_t(16)}) {
    for (bool lower : {true, false}) {
      for (const Piece& x : pieces) {
        std::vector<unsigned char> src(size_t(x.rows * x.cols) * elem);
        for (auto& b : src) b = static_cast<unsigned char>(gen());
        std::vector<unsigned char> dst(size_t(ld * n) * elem, 0xA5);
        team->copy_triangle(reinterpret_cast<char*>(dst.data()), ld,
                            reinterpret_cast<const char*>(src.data()), x.row0, x.col0, x.rows,
                            x.cols, elem, lower);
        int wrong = 0;
        for (int64_t j = 0; j < n; ++j) {
          for (int64_t i = 0; i < ld; ++i) {
            const bool in_piece =
                i >= x.row0 && i < x.row0 + x.rows && j >= x.col0 && j < x.col0 + x.cols;
            const bool copied = in_piece && (lower ? i >= j : i <= j);
            const unsigned char* got = &dst[size_t(i + j * ld) * elem];
            for (size_t b = 0; b < elem; ++b) {
              const unsigned char want =
                  copied ? src[size_t((i - x.row0) + (j - x.col0) * x.rows) * elem + b] : 0xA5;
              if (got[b] != want) ++wrong;
            }
          }
        }
        EXPECT_EQ(wrong, 0) << "elem " << elem << (lower ? " lower" : " upper") << " piece "
                            << x.row0 << "," << x.col0 << " " << x.rows << "x" << x.cols;
      }
    }
  }
}

TEST(HostCopyTeamTest, BackToBackAndAfterSleeping) {
  HostCopyTeam* team = new HostCopyTeam(3);
  for (int i = 0; i < 60; ++i) {
    ASSERT_TRUE(copy_is_right(*team, kShapes[i % 3], tbtest::rng()())) << "copy " << i;
    // Now and then a pause longer than the helpers spin: they sleep and must be woken.
    if (i % 10 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(3));
  }
}

TEST(HostCopyTeamTest, TwoCallersAtOnce) {
  HostCopyTeam* team = new HostCopyTeam(2);
  const uint64_t seed = tbtest::rng()();
  int wrong[2] = {0, 0};
  auto caller = [&](int id) {
    for (int i = 0; i < 20; ++i) {
      wrong[id] += copy_is_right(*team, kShapes[(i + id) % 3], seed + 2 * i + id) ? 0 : 1;
    }
  };
  std::thread other(caller, 1);
  caller(0);
  other.join();
  EXPECT_EQ(wrong[0] + wrong[1], 0);
}

}  // namespace

// Pointers into the brk heap and the calling thread's stack are host memory without a driver
// query; an anonymous mapping (where the driver could also map device memory) is not taken so.
TEST(HostOnlyRange, HeapAndStackButNotMappings) {
  float on_stack[16] = {};
  EXPECT_TRUE(tileblas::in_host_only_range(on_stack));
  // A small block from the main thread's arena comes from the brk heap with glibc.
  std::vector<float> small(64);
  EXPECT_TRUE(tileblas::in_host_only_range(small.data()));
  void* mapped = mmap(nullptr, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  EXPECT_FALSE(tileblas::in_host_only_range(mapped));
  munmap(mapped, 1 << 20);
  EXPECT_FALSE(tileblas::in_host_only_range(nullptr));
  // Another thread's stack is its own range.
  bool other_sees_own_stack = false, other_sees_main_stack = true;
  std::thread([&] {
    int local = 0;
    other_sees_own_stack = tileblas::in_host_only_range(&local);
    other_sees_main_stack = tileblas::in_host_only_range(on_stack);
  }).join();
  EXPECT_TRUE(other_sees_own_stack);
  EXPECT_FALSE(other_sees_main_stack);
}
