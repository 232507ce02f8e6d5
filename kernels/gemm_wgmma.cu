// gemm_wgmma: wgmma (sm_90a) tensor-core GEMM fed by the copy engine (TMA). The contract
// (formula, storage, tiling, edges, alignment) is at the top of gemm_wgmma.h.
#include "cluster.cuh"
#include "cp_async.cuh"
#include "gemm_device_common.cuh"
#include "gemm_wgmma.h"
#include "realign.h"
#include "splitk_sum.cuh"
#include "transpose.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <climits>
#include <cstdint>

namespace tileblas::gemm_wgmma {

namespace {

using gemm_device::aligned_to;
using gemm_device::Args;
using gemm_device::load_c;
using gemm_device::problem_fits;
using gemm_device::store_c;

// CMake defines TILEBLAS_GEMM_WGMMA_SM90A when it builds this file for sm_90a, the only target
// whose kernel below has a body (wgmma exists on sm_90a alone).
#ifdef TILEBLAS_GEMM_WGMMA_SM90A
constexpr bool kBuiltForSm90a = true;
#else
constexpr bool kBuiltForSm90a = false;
#endif

constexpr int kRowBytes = 128;                     // a k-tile row: the 128-byte swizzle width
constexpr int kAtomRows = 8;                       // rows of one swizzle atom
constexpr int kAtomBytes = kAtomRows * kRowBytes;  // atoms start on 1024-byte boundaries
constexpr int kWgmmaM = 64;                        // rows of C per warpgroup (wgmma's m)
constexpr int kWarpgroupThreads = 128;

// fp32 accumulator registers a thread holds for one m64nN wgmma.
__host__ __device__ constexpr int accumulators(int n) { return kWgmmaM * n / kWarpgroupThreads; }

// How an operand tile lies in global and shared memory: k-contiguous (A transposed, B not) or
// m/n-contiguous (A not transposed, B transposed). wgmma calls these K-major and MN-major.
enum class Layout { kKMajor, kMNMajor };

__host__ __device__ constexpr int transpose_immediate(Layout l) {
  return l == Layout::kMNMajor ? 1 : 0;
}

// The fp32 accumulators of an m64n64 wgmma (registers %0-%31 of the asm template), an m64n128 one
// (%0-%63) or an m64n256 one (%0-%127), in pieces, and the asm statement's in-out operands bound
// to them.
#define TILEBLAS_WGMMA_D_0_31                                                        \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, " \
  "%18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define TILEBLAS_WGMMA_D_32_63                                                         \
  ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define TILEBLAS_WGMMA_D_64_127                                                          \
  ", %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "   \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "     \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, "     \
  "%110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, " \
  "%124, %125, %126, %127"
#define TILEBLAS_WGMMA_D_OPERANDS_0_31(d)                                                         \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),    \
      "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),  \
      "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),  \
      "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
#define TILEBLAS_WGMMA_D_OPERANDS_32_63(d)                                                       \
  , "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]),   \
      "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), \
      "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), \
      "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), \
      "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define TILEBLAS_WGMMA_D_OPERANDS_64_127(d)                                                      \
  , "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]),   \
      "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), \
      "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), \
      "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), \
      "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), \
      "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]),         \
      "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]),        \
      "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]),        \
      "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]),        \
      "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
#define TILEBLAS_WGMMA_D_0_63 TILEBLAS_WGMMA_D_0_31 TILEBLAS_WGMMA_D_32_63
#define TILEBLAS_WGMMA_D_OPERANDS_0_63(d) \
  TILEBLAS_WGMMA_D_OPERANDS_0_31(d) TILEBLAS_WGMMA_D_OPERANDS_32_63(d)

// One wgmma with A and B from shared memory, d = A * B + (accumulate ? d : 0): `instr` names the
// shape and types, `d_regs` / `d_operands` the accumulators; `a_b`, `acc` and `imm_operands` are
// the asm operand numbers of the descriptors, the accumulate flag and the transpose immediates
// (empty where there are none), and the variadic arguments the immediates' asm operands.
#define TILEBLAS_WGMMA(instr, d_regs, d_operands, a_b, acc, imm_operands, ...)              \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " acc ", 0;\n" instr " {" d_regs "}, " a_b \
               ", p, 1, 1" imm_operands ";\n}\n"                                            \
               : d_operands                                                                 \
               : "l"(a), "l"(b), "r"(accumulate)__VA_ARGS__                                 \
               : "memory")

// ---- Element types ------------------------------------------------------------------------------
// Each says how many bytes an element takes, the k-extent of one wgmma, the tensor-map type the
// copy engine loads it as, whether wgmma reads it MN-major, which wgmma widths it has here, and
// issues one m64nN wgmma (N = kN) with A and B from shared memory.

// fp16 and bf16: m64n64k16, m64n128k16 and m64n256k16, with transpose immediates for MN-major
// operands.
template <bool kBF16>
struct Type16 {
  using Storage = uint16_t;
  static constexpr DataType kDataType = kBF16 ? DataType::kBF16 : DataType::kF16;
  static constexpr int kMmaK = 16;
  static constexpr CUtensorMapDataType kMapType =
      kBF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  static constexpr bool kReadsMNMajor = true;
  static constexpr bool has_width(int n) { return n == 64 || n == 128 || n == 256; }
  template <int kN, Layout kA, Layout kB>
  __device__ static void mma(float (&d)[accumulators(kN)], uint64_t a, uint64_t b, int accumulate) {
    constexpr int ta = transpose_immediate(kA), tb = transpose_immediate(kB);
    if constexpr (kN == 256 && kBF16) {
      TILEBLAS_WGMMA("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16",
                     TILEBLAS_WGMMA_D_0_63 TILEBLAS_WGMMA_D_64_127,
                     TILEBLAS_WGMMA_D_OPERANDS_0_63(d) TILEBLAS_WGMMA_D_OPERANDS_64_127(d),
                     "%128, %129", "%130", ", %131, %132", , "n"(ta), "n"(tb));
    } else if constexpr (kN == 256) {
      TILEBLAS_WGMMA("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16",
                     TILEBLAS_WGMMA_D_0_63 TILEBLAS_WGMMA_D_64_127,
                     TILEBLAS_WGMMA_D_OPERANDS_0_63(d) TILEBLAS_WGMMA_D_OPERANDS_64_127(d),
                     "%128, %129", "%130", ", %131, %132", , "n"(ta), "n"(tb));
    } else if constexpr (kN == 64 && kBF16) {
      TILEBLAS_WGMMA("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16", TILEBLAS_WGMMA_D_0_31,
                     TILEBLAS_WGMMA_D_OPERANDS_0_31(d), "%32, %33", "%34", ", %35, %36", , "n"(ta),
                     "n"(tb));
    } else if constexpr (kN == 64) {
      TILEBLAS_WGMMA("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", TILEBLAS_WGMMA_D_0_31,
                     TILEBLAS_WGMMA_D_OPERANDS_0_31(d), "%32, %33", "%34", ", %35, %36", , "n"(ta),
                     "n"(tb));
    } else if constexpr (kBF16) {
      TILEBLAS_WGMMA("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16", TILEBLAS_WGMMA_D_0_63,
                     TILEBLAS_WGMMA_D_OPERANDS_0_63(d), "%64, %65", "%66", ", %67, %68", , "n"(ta),
                     "n"(tb));
    } else {
      TILEBLAS_WGMMA("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", TILEBLAS_WGMMA_D_0_63,
                     TILEBLAS_WGMMA_D_OPERANDS_0_63(d), "%64, %65", "%66", ", %67, %68", , "n"(ta),
                     "n"(tb));
    }
  }
};
using TypeF16 = Type16<false>;
using TypeBF16 = Type16<true>;

// TF32: m64n256k8 only, K-major operands only.
struct TypeTF32 {
  using Storage = uint32_t;
  static constexpr DataType kDataType = DataType::kF32;
  static constexpr int kMmaK = 8;
  // The copy engine rounds fp32 to TF32 (to nearest, ties to even; checked on an H200) as it
  // loads: the tensor cores alone would truncate, doubling the input error.
  static constexpr CUtensorMapDataType kMapType = CU_TENSOR_MAP_DATA_TYPE_TFLOAT32;
  // TF32 wgmma has no transpose immediates: launch() makes both operands k-contiguous first.
  static constexpr bool kReadsMNMajor = false;
  static constexpr bool has_width(int n) { return n == 256; }
  template <int kN, Layout kA, Layout kB>
  __device__ static void mma(float (&d)[accumulators(kN)], uint64_t a, uint64_t b, int accumulate) {
    static_assert(kN == 256 && kA == Layout::kKMajor && kB == Layout::kKMajor,
                  "TF32 wgmma: m64n256k8, K-major only");
    TILEBLAS_WGMMA("wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32",
                   TILEBLAS_WGMMA_D_0_63 TILEBLAS_WGMMA_D_64_127,
                   TILEBLAS_WGMMA_D_OPERANDS_0_63(d) TILEBLAS_WGMMA_D_OPERANDS_64_127(d),
                   "%128, %129", "%130", "", );
  }
};

// ---- PTX wrappers -------------------------------------------------------------------------------

using ptx::cluster_sync;
using ptx::smem_address;

__device__ void mbarrier_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
// Makes the initialized mbarriers visible to the copy engine (the async proxy).
__device__ void fence_mbarrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
// Arrives on `bar` (its one expected arrival) and announces `bytes` of copies completing on it.
__device__ void mbarrier_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
               : "memory");
}
// Waits until the phase of `bar` with the given parity has completed.
__device__ void mbarrier_wait(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n.reg .pred done;\n"
      "wait:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra wait;\n"
      "}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}
// One box of a 2-D tensor map (coordinates: contiguous dimension first) into shared memory,
// completing on `bar`; elements outside the tensor are zero-filled.
__device__ void tma_load_2d(uint32_t dst, const CUtensorMap* map, int x, int y, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, "
      "%3}], [%4];" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(bar)
      : "memory");
}

__device__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int kPending>
__device__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(kPending) : "memory");
}
// Pins the accumulators in their registers across the asynchronous wgmmas: without it the
// compiler may copy them between a wgmma and its wait, and ptxas then serializes the wgmmas.
template <int kCount>
__device__ void fence_accumulators(float (&d)[kCount]) {
#pragma unroll
  for (int i = 0; i < kCount; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// A shared-memory matrix descriptor: start address, leading and stride byte offsets (all encoded
// >> 4), base offset 0 (atoms are 1024-byte aligned), 128-byte swizzle (mode 1, bits 62-63).
__device__ uint64_t descriptor(uint32_t address, uint32_t leading_bytes, uint32_t stride_bytes) {
  return uint64_t((address & 0x3FFFF) >> 4) | (uint64_t(leading_bytes >> 4) << 16) |
         (uint64_t(stride_bytes >> 4) << 32) | (uint64_t(1) << 62);
}

// ---- Shared-memory tile layouts -----------------------------------------------------------------
// The tensor maps use the 128-byte swizzle, which writes wgmma's canonical 128-byte-swizzled
// layouts: rows of 128 bytes, 8-row atoms of 1024 bytes, 16-byte chunk c of row r at c ^ (r % 8).
//
// K-major tile (kRows m or n rows, one 128-byte row of k each): one box of kBlockK x kRows. Stride
// byte offset 1024 (8 rows to the next 8); the leading byte offset is unused with swizzling. A
// k-step (32 bytes) starts 32 bytes further into the unswizzled row: the hardware applies the
// swizzle to the address it computes.
//
// MN-major tile (16-bit only): columns of 64 m or n elements (128 bytes), each kBlockK k-rows long
// and loaded as one box. Leading byte offset: one column to the next (kBlockK * 128 bytes); stride
// byte offset 1024 (8 k-rows to the next 8). A k-step of 16 k-rows is two atoms, 2048 bytes.

// ---- The kernel ---------------------------------------------------------------------------------

// A row's tile: kWarpgroups warpgroups of m64 x kBlockN (one wgmma.m64n<kBlockN> a k-step each),
// kStages stages, kBlocksPerSm blocks resident on an SM (their shared memory and registers must
// fit).
template <class T, int kBlockN_, int kStages_, int kBlocksPerSm_, int kWarpgroups_ = 2>
struct Config {
  static constexpr int kWarpgroups = kWarpgroups_;
  static constexpr int kThreads = kWarpgroupThreads * kWarpgroups;
  static constexpr int kBlockM = kWgmmaM * kWarpgroups;
  static constexpr int kBlockN = kBlockN_;
  static constexpr int kBlocksPerSm = kBlocksPerSm_;
  static constexpr int kAccumulators = accumulators(kBlockN);
  static constexpr int kBytes = int(sizeof(typename T::Storage));
  static constexpr int kBlockK = kRowBytes / kBytes;
  static constexpr int kStages = kStages_;
  // k-tiles loading while one is multiplied and the wgmma group before it drains.
  static constexpr int kLoadAhead = kStages - 2;
  static constexpr int kATileBytes = kBlockM * kRowBytes;
  static constexpr int kBTileBytes = kBlockN * kRowBytes;
  static constexpr int kStageBytes = kATileBytes + kBTileBytes;
  static constexpr int kMNColumnElems = kRowBytes / kBytes;   // m/n elements of an MN-major column
  static constexpr int kMNColumnBytes = kBlockK * kRowBytes;  // one MN-major column of a k-tile
  static constexpr int kBarrierBytes = 8 * kStages;           // one mbarrier per stage
  // Plus one atom: the dynamic shared memory base is rounded up to a 1024-byte boundary.
  static constexpr int kSmemBytes = kStages * kStageBytes + kBarrierBytes + kAtomBytes;
  static constexpr int kRasterGroup = 8;  // tile rows per rasterization group (L2 reuse of B)
  // The epilogue's fp32 tile in shared memory: columns of the block's rows and 4 floats of padding
  // (store_tile()).
  static constexpr int kTileLd = kBlockM + 4;

  static_assert(kBlockK % T::kMmaK == 0, "a k-tile is a whole number of wgmma k-steps");
  static_assert(T::kMmaK * kBytes == 32, "a wgmma k-step spans two 16-byte chunks of a row");
  static_assert(!T::kReadsMNMajor || kBlockK % (2 * kAtomRows) == 0,
                "an MN-major k-step is 16 k-rows: two whole atoms");
  static_assert(kWgmmaM % kMNColumnElems == 0,
                "an MN-major warpgroup slice of A starts on a 64-element column");
  static_assert(kBlockM <= 256 && kBlockN <= 256, "a K-major tile is one box (at most 256 rows)");
  static_assert(kATileBytes % kAtomBytes == 0 && kBTileBytes % kAtomBytes == 0,
                "tiles are whole atoms, so every tile starts 1024-byte aligned");
  static_assert(kLoadAhead >= 1, "at least one k-tile loads while another is multiplied");
  static_assert(T::has_width(kBlockN), "a wgmma of this width exists for this type");
  static_assert(kBlockN * kTileLd * 4 <= kStages * kStageBytes,
                "the ring holds the fp32 tile for the epilogue");
  // Hopper: 228 KiB of shared memory per SM, of which each block's runtime takes 1 KiB.
  static_assert(kBlocksPerSm * (kSmemBytes + 1024) <= 228 * 1024,
                "kBlocksPerSm blocks fit an SM's shared memory");
};

// How the kernel's blocks take their tiles: one tile and k slice a block (the epilogue through the
// ring: store_tile()); persistent, at most one wave of blocks (store_direct()); one tile a block
// with a tile's k slices one cluster, which sums them (store_tile_cluster()); or one tile and k
// slice a block, the grid launched cooperatively, which writes the partials and then sums them
// itself (sum_in_grid()).
enum class Schedule { kOneTile, kPersistent, kClusterSlices, kGridSlices };

// The kernel's arguments: the problem, and the k-tiles of each blockIdx.y slice (all of them
// without split-K). Split-K through a workspace (partial not null): slice s writes its unscaled
// partial tile to partial + s * m_pad * n (splitk.h); with kGridSlices the grid then sums the
// `slices` slices itself. Split-K in clusters (cluster_slices > 1): the grid's blockIdx.y slices
// of a tile are one cluster, which sums them (store_tile_cluster()). Else the epilogue writes C.
struct SliceArgs {
  Args g;
  int k_tiles_per_slice;
  float* partial;
  int64_t m_pad;
  int cluster_slices;
  int slices;
};

// Where a thread's accumulators lie in the block's tile (wgmma's m64nN D layout: warp w of a
// warpgroup has rows 16w..16w+15, laid out per 8 columns as mma.sync's m16n8 tiles): accumulator i
// holds (row, column) accumulator_at(accumulator_origin(), i), as (x, y).
__device__ inline int2 accumulator_origin() {
  const int lane = int(threadIdx.x) % 32;
  const int warp = int(threadIdx.x) / 32;
  return make_int2((warp / 4) * kWgmmaM + (warp % 4) * 16 + lane / 4, (lane % 4) * 2);
}
__device__ inline int2 accumulator_at(int2 origin, int i) {
  return make_int2(origin.x + ((i >> 1) & 1) * 8, origin.y + (i >> 2) * 8 + (i & 1));
}

// The block's accumulators into its kBlockM x N fp32 tile in shared memory (`tile`, the ring's
// memory once every warpgroup is done with it), column-major with columns of kTileLd floats, each
// accumulator where accumulator_at() says: the padding puts one store's 8 rows x 4 columns in 32
// different banks. With no k-tiles acc was never written and counts as zero. Ends at a block
// barrier, the tile complete.
template <class Cfg>
__device__ void stage_tile(const float (&acc)[Cfg::kAccumulators], float* tile, bool have_acc) {
  const int2 at0 = accumulator_origin();
#pragma unroll
  for (int i = 0; i < Cfg::kAccumulators; ++i) {
    const int2 at = accumulator_at(at0, i);
    tile[at.y * Cfg::kTileLd + at.x] = have_acc ? acc[i] : 0.0f;
  }
  __syncthreads();
}

// Writes the block's tile at (m0, n0) from its elements, element(col, row) in the tile: C = alpha *
// element + beta * C, or (split-K through the workspace) the element into this slice's partial
// tile. Warp w of the block writes columns first_col, first_col + col_step, ... whole, a lane every
// 32nd row: 128 contiguous bytes a store, whatever C's alignment (per-accumulator stores wrote 32
// bytes a column, each sector of an unaligned C in two pieces at different times).
template <class Cfg, class Element>
__device__ __forceinline__ void write_tile(const SliceArgs& sa, int m0, int n0, int first_col,
                                           int col_step, Element element) {
  const Args& args = sa.g;
  const int lane = int(threadIdx.x) % 32;
  float* const slice =
      sa.partial != nullptr ? sa.partial + int64_t(blockIdx.y) * sa.m_pad * args.n : nullptr;
  for (int col = first_col; col < Cfg::kBlockN && n0 + col < args.n; col += col_step) {
    const int64_t c_col = int64_t(n0 + col) * (slice != nullptr ? sa.m_pad : args.ldc);
#pragma unroll
    for (int r = lane; r < Cfg::kBlockM; r += 32) {
      if (m0 + r >= args.m) break;
      const float x = element(col, r);
      const int64_t at = m0 + r + c_col;
      if (slice != nullptr) {
        slice[at] = x;
      } else {
        float v = args.alpha * x;
        if (args.beta != 0.0f) v = fmaf(args.beta, load_c(args.c, at, args.c_type), v);
        store_c(args.c, at, args.c_type, v);
      }
    }
  }
}

// Epilogue of the block's tile at (m0, n0) through shared memory (stage_tile(), then
// write_tile(), warp w taking columns w, w + W, ... of W warps).
template <class Cfg>
__device__ void store_tile(const float (&acc)[Cfg::kAccumulators], const SliceArgs& sa, float* tile,
                           int m0, int n0, bool have_acc) {
  constexpr int kWarps = Cfg::kThreads / 32;
  stage_tile<Cfg>(acc, tile, have_acc);
  write_tile<Cfg>(sa, m0, n0, int(threadIdx.x) / 32, kWarps,
                  [&](int col, int r) { return tile[col * Cfg::kTileLd + r]; });
}

// Epilogue of split-K in a cluster of S = sa.cluster_slices slices (the grid's blockIdx.y slices
// of a tile): once every block of the cluster has staged its tile (a cluster barrier), the block of
// cluster rank r writes columns r * W + w, (r + S) * W + w, ... (W warps, warp w; write_tile()):
// C = alpha * (the S tiles' elements summed in slice order, read through distributed shared
// memory, each element's S loads issued before the adds) + beta * C, the reduce's order and
// arithmetic (splitk.h), so the result is the workspace path's to the bit. A second barrier keeps
// every block's tile in place until all have read it.
template <class Cfg>
__device__ void store_tile_cluster(const float (&acc)[Cfg::kAccumulators], const SliceArgs& sa,
                                   float* tile, int m0, int n0, bool have_acc) {
  constexpr int kWarps = Cfg::kThreads / 32;
  const int slices = sa.cluster_slices;
  stage_tile<Cfg>(acc, tile, have_acc);
  cluster_sync();
  const uint32_t rank = ptx::cluster_rank();
  const ptx::ClusterTiles<kMaxClusterSlices> slice_tiles(smem_address(tile), slices);
  write_tile<Cfg>(
      sa, m0, n0, int(rank) * kWarps + int(threadIdx.x) / 32, slices * kWarps,
      [&](int col, int r) { return slice_tiles.sum(uint32_t(col * Cfg::kTileLd + r) * 4); });
  cluster_sync();
}

// Split-K summed by the grid that computed the partials (kGridSlices), once every block has
// written its partial tile and passed the grid's barrier: thread t of the grid takes elements t, t
// + (the grid's threads), ... of C and sums their slices as splitk::reduce does (the same runs in
// the same order, kernels/splitk_sum.cuh), then C = alpha * sum + beta * C as the epilogue and the
// reduce compute it: the workspace path's result to the bit, without the reduce's launch.
__device__ void sum_in_grid(const SliceArgs& sa) {
  const Args& args = sa.g;
  const int64_t total = int64_t(args.m) * args.n, stride = sa.m_pad * args.n;
  const int run = splitk::run_length(sa.slices);
  const int64_t threads = int64_t(gridDim.x) * gridDim.y * blockDim.x;
  for (int64_t e = (int64_t(blockIdx.y) * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
       e < total; e += threads) {
    const int64_t row = e % args.m, col = e / args.m;
    const float* src = sa.partial + row + col * sa.m_pad;
    float sum = splitk::sum_run(src, stride, 0, min(sa.slices, run));
    for (int s = run; s < sa.slices; s += run)
      splitk::add(sum, splitk::sum_run(src, stride, s, min(sa.slices, s + run)));
    const int64_t at = row + col * args.ldc;
    float v = args.alpha * sum;
    if (args.beta != 0.0f) v = fmaf(args.beta, load_c(args.c, at, args.c_type), v);
    store_c(args.c, at, args.c_type, v);
  }
}

// Issues the copies of one operand tile (kRows m or n rows of k-tile k0) into shared memory at
// `tile`, completing on `bar`: one box for a K-major tile, one per 64-element column of an
// MN-major one.
template <class Cfg, Layout kLayout, int kRows>
__device__ void load_tile(uint32_t tile, const CUtensorMap* map, int mn0, int k0, uint32_t bar) {
  if constexpr (kLayout == Layout::kKMajor) {
    tma_load_2d(tile, map, k0, mn0, bar);
  } else {
#pragma unroll
    for (int col = 0; col < kRows / Cfg::kMNColumnElems; ++col)
      tma_load_2d(tile + col * Cfg::kMNColumnBytes, map, mn0 + col * Cfg::kMNColumnElems, k0, bar);
  }
}

// The persistent rows' epilogue, straight from the accumulators to an fp32 C whose columns start
// on 32-byte boundaries (supports() checks): C = alpha * acc + beta * C. Accumulator i of a thread
// holds C(row, col) at accumulator_at(); for each i a warp writes 8 consecutive rows of 4
// columns, whole 32-byte sectors. The ring is not touched, so the copies of the block's next tile
// already in flight land while these stores drain. With no k-tiles acc counts as zero.
template <class Cfg>
__device__ void store_direct(const float (&acc)[Cfg::kAccumulators], const Args& args, int m0,
                             int n0, bool have_acc) {
  const int2 at0 = accumulator_origin();
  float* const c = static_cast<float*>(args.c);
#pragma unroll
  for (int i = 0; i < Cfg::kAccumulators; ++i) {
    const int2 in_tile = accumulator_at(at0, i);
    const int row = m0 + in_tile.x, col = n0 + in_tile.y;
    if (row >= args.m || col >= args.n) continue;
    const int64_t at = row + int64_t(col) * args.ldc;
    float v = args.alpha * (have_acc ? acc[i] : 0.0f);
    if (args.beta != 0.0f) v = fmaf(args.beta, c[at], v);
    c[at] = v;
  }
}

// Thread 0 issues the copies of a k-tile kLoadAhead ahead into a ring of kStages stages, each
// with an mbarrier that completes when its bytes have landed; every warpgroup waits on it, issues
// its wgmmas, and keeps one wgmma group in flight. The barrier at the top of each k-step tells
// thread 0 that every warpgroup is done with the stage it refills. blockIdx.y is the k slice.
// Tiles (kSchedule): with kOneTile or kClusterSlices, blockIdx.x is the block's one output tile and
// the epilogue passes it through the ring (store_tile(), store_tile_cluster()). With kPersistent
// (no k slices, an fp32 C of 32-byte aligned columns), the grid is at most one wave and block b
// computes tiles b, b + gridDim.x, ...: the ring runs on through the block's k-tiles of every tile
// in one sequence, so the next tile's first copies are issued during this tile's last k-steps, and
// the epilogue stores from the accumulators (store_direct()) while they land.
template <class T, class Cfg, Layout kALayout, Layout kBLayout, Schedule kSchedule>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kBlocksPerSm)
    gemm_wgmma_kernel(const __grid_constant__ CUtensorMap map_a,
                      const __grid_constant__ CUtensorMap map_b, const SliceArgs sa) {
  // Only the sm_90a pass has wgmma; other targets compile an empty kernel that supports() never
  // lets run.
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char smem[];
  constexpr bool kPersistent = kSchedule == Schedule::kPersistent;
  constexpr int kBlockM = Cfg::kBlockM, kBlockN = Cfg::kBlockN, kBlockK = Cfg::kBlockK;
  constexpr int kStages = Cfg::kStages;
  const Args& args = sa.g;

  const int tiles = ((args.m + kBlockM - 1) / kBlockM) * ((args.n + kBlockN - 1) / kBlockN);
  auto origin_of = [&](int tile) {
    return gemm_device::grouped_tile_origin(args.m, args.n, kBlockM, kBlockN, Cfg::kRasterGroup,
                                            tile);
  };
  // This block's tiles: blockIdx.x + t * gridDim.x for t < my_tiles (one without kPersistent).
  const int my_tiles =
      kPersistent ? (tiles - int(blockIdx.x) + int(gridDim.x) - 1) / int(gridDim.x) : 1;

  const int warpgroup = int(threadIdx.x) / kWarpgroupThreads;
  const uint32_t smem0 = (smem_address(smem) + kAtomBytes - 1) & ~uint32_t(kAtomBytes - 1);
  auto stage = [&](int64_t g) { return smem0 + uint32_t((g % kStages) * Cfg::kStageBytes); };
  const uint32_t barriers = smem0 + uint32_t(kStages * Cfg::kStageBytes);
  auto full = [&](int64_t g) { return barriers + uint32_t(g % kStages) * 8; };
  // This slice's k-tiles [kt0, kt0 + k_tiles) of each tile. alpha == 0 (or k == 0): none, A and B
  // are never read.
  const int all_k_tiles = args.alpha == 0.0f ? 0 : (args.k + kBlockK - 1) / kBlockK;
  const int kt0 = int(blockIdx.y) * sa.k_tiles_per_slice;
  const int k_tiles = max(0, min(all_k_tiles - kt0, sa.k_tiles_per_slice));
  // The block's k-steps of all its tiles, g = t * k_tiles + kt, in one sequence through the ring.
  const int64_t steps = int64_t(my_tiles) * k_tiles;

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) mbarrier_init(barriers + uint32_t(s) * 8, 1);
    fence_mbarrier_init();
  }
  __syncthreads();
  // Thread 0's next copy: step `next`, k-tile next_kt of the tile at next_origin.
  int64_t next = 0;
  int next_kt = 0;
  int2 next_origin = origin_of(int(blockIdx.x));
  auto load_next = [&] {
    const uint32_t bar = full(next);
    mbarrier_arrive_expect_tx(bar, Cfg::kStageBytes);
    const int k0 = (kt0 + next_kt) * kBlockK;
    load_tile<Cfg, kALayout, kBlockM>(stage(next), &map_a, next_origin.x, k0, bar);
    load_tile<Cfg, kBLayout, kBlockN>(stage(next) + Cfg::kATileBytes, &map_b, next_origin.y, k0,
                                      bar);
    ++next;
    if (++next_kt == k_tiles && next < steps) {
      next_kt = 0;
      next_origin = origin_of(int(blockIdx.x) + int(next / k_tiles) * int(gridDim.x));
    }
  };
  if (threadIdx.x == 0) {
    while (next < Cfg::kLoadAhead && next < steps) load_next();
  }

  // This warpgroup's A slice and B relative to a stage, at k-step 0; a k-step moves both start
  // addresses by a constant.
  const uint32_t a_offset =
      kALayout == Layout::kKMajor
          ? uint32_t(warpgroup * kWgmmaM * kRowBytes)
          : uint32_t(warpgroup * kWgmmaM / Cfg::kMNColumnElems) * Cfg::kMNColumnBytes;
  constexpr uint32_t kAStep = kALayout == Layout::kKMajor ? 32 : 2 * kAtomBytes;
  constexpr uint32_t kBStep = kBLayout == Layout::kKMajor ? 32 : 2 * kAtomBytes;
  constexpr uint32_t kALeading = kALayout == Layout::kKMajor ? 16 : Cfg::kMNColumnBytes;
  constexpr uint32_t kBLeading = kBLayout == Layout::kKMajor ? 16 : Cfg::kMNColumnBytes;

  // The first wgmma of a tile overwrites the accumulators, so no instruction but wgmmas defines
  // them (an initialization would make ptxas serialize the wgmmas); with no k-tiles they are never
  // read.
  float acc[Cfg::kAccumulators];
  int64_t g = 0;
  for (int t = 0; t < my_tiles; ++t) {
    const int2 origin = origin_of(int(blockIdx.x) + t * int(gridDim.x));
    for (int kt = 0; kt < k_tiles; ++kt, ++g) {
      // Every warpgroup's wgmmas of step g - 2 have completed (each waited for all but its latest
      // group): that stage can be refilled.
      __syncthreads();
      if (threadIdx.x == 0 && next < steps) load_next();
      mbarrier_wait(full(g), uint32_t(g / kStages) & 1);

      const uint32_t a_tile = stage(g) + a_offset;
      const uint32_t b_tile = stage(g) + Cfg::kATileBytes;
      fence_accumulators(acc);
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < kBlockK / T::kMmaK; ++kk) {
        T::template mma<kBlockN, kALayout, kBLayout>(
            acc, descriptor(a_tile + kk * kAStep, kALeading, kAtomBytes),
            descriptor(b_tile + kk * kBStep, kBLeading, kAtomBytes), kt > 0 || kk > 0);
      }
      wgmma_commit();
      wgmma_wait<1>();
      fence_accumulators(acc);
    }
    wgmma_wait<0>();
    fence_accumulators(acc);
    if constexpr (kPersistent) {
      store_direct<Cfg>(acc, args, origin.x, origin.y, k_tiles > 0);
    } else {
      __syncthreads();  // every warpgroup is done with the ring: it holds the tile from here on
      float* const tile = reinterpret_cast<float*>(smem + (smem0 - smem_address(smem)));
      if constexpr (kSchedule == Schedule::kClusterSlices) {
        store_tile_cluster<Cfg>(acc, sa, tile, origin.x, origin.y, k_tiles > 0);
      } else {
        store_tile<Cfg>(acc, sa, tile, origin.x, origin.y, k_tiles > 0);
        if constexpr (kSchedule == Schedule::kGridSlices) {
          cooperative_groups::this_grid().sync();  // every partial written, and visible
          sum_in_grid(sa);
        }
      }
    }
  }
#endif
}

// ---- Host side ----------------------------------------------------------------------------------

using EncodeTiled = PFN_cuTensorMapEncodeTiled_v12000;

// cuTensorMapEncodeTiled from the driver, through the runtime (the library does not link libcuda).
EncodeTiled encode_tiled() {
  static const EncodeTiled fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
      return EncodeTiled(nullptr);
    return reinterpret_cast<EncodeTiled>(f);
  }();
  return fn;
}

// The tensor map of one stored operand (column-major, leading dimension ld) read as kLayout tiles
// of kRows m or n rows: K-major boxes are kBlockK x kRows, MN-major ones one 64-element column by
// kBlockK. Elements outside mn x k read as zero.
template <class T, class Cfg, Layout kLayout, int kRows>
cudaError_t encode_operand(CUtensorMap* map, const void* base, int64_t mn, int64_t k, int64_t ld) {
  const EncodeTiled encode = encode_tiled();
  if (encode == nullptr) return cudaErrorNotSupported;
  const bool k_major = kLayout == Layout::kKMajor;
  const cuuint64_t dims[2] = {cuuint64_t(k_major ? k : mn), cuuint64_t(k_major ? mn : k)};
  const cuuint64_t strides[1] = {cuuint64_t(ld) * Cfg::kBytes};
  const cuuint32_t box[2] = {cuuint32_t(k_major ? Cfg::kBlockK : Cfg::kMNColumnElems),
                             cuuint32_t(k_major ? kRows : Cfg::kBlockK)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r =
      encode(map, T::kMapType, 2, const_cast<void*>(base), dims, strides, box, element_strides,
             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

// The grid: one block per output tile and k slice (kClusterSlices: a tile's slices one cluster);
// persistent, at most one wave of blocks (each SM's kBlocksPerSm) over the tiles.
template <class T, class Cfg, Layout kALayout, Layout kBLayout, Schedule kSchedule>
cudaError_t launch_layouts(const SliceArgs& sa, int64_t slices, cudaStream_t stream) {
  const Args& args = sa.g;
  CUtensorMap map_a{}, map_b{};
  if (args.k > 0 && args.alpha != 0.0f) {  // else A and B are not read (and may be null)
    cudaError_t err =
        encode_operand<T, Cfg, kALayout, Cfg::kBlockM>(&map_a, args.a, args.m, args.k, args.lda);
    if (err == cudaSuccess)
      err =
          encode_operand<T, Cfg, kBLayout, Cfg::kBlockN>(&map_b, args.b, args.n, args.k, args.ldb);
    if (err != cudaSuccess) return err;
  }
  auto kernel = gemm_wgmma_kernel<T, Cfg, kALayout, kBLayout, kSchedule>;
  cudaError_t err =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmemBytes);
  if (err != cudaSuccess) return err;
  int64_t blocks = ((args.m + Cfg::kBlockM - 1) / Cfg::kBlockM) *
                   int64_t((args.n + Cfg::kBlockN - 1) / Cfg::kBlockN);
  if constexpr (kSchedule == Schedule::kPersistent) {
    int sms = 0;
    err = gemm_device::current_sm_count(&sms);
    if (err != cudaSuccess) return err;
    blocks = std::min<int64_t>(blocks, int64_t(sms) * Cfg::kBlocksPerSm);
  }
  if constexpr (kSchedule == Schedule::kOneTile || kSchedule == Schedule::kPersistent) {
    kernel<<<dim3(unsigned(blocks), unsigned(slices)), Cfg::kThreads, Cfg::kSmemBytes, stream>>>(
        map_a, map_b, sa);
    return cudaGetLastError();
  } else {
    // kClusterSlices: a tile's slices one cluster. kGridSlices: a cooperative launch, whose blocks
    // are all resident at once (else it fails with cudaErrorCooperativeLaunchTooLarge), so that
    // its grid barrier is safe.
    cudaLaunchAttribute attribute{};
    if constexpr (kSchedule == Schedule::kClusterSlices) {
      attribute = gemm_device::clusters_along_y(unsigned(slices));
    } else {
      attribute.id = cudaLaunchAttributeCooperative;
      attribute.val.cooperative = 1;
    }
    return gemm_device::launch_with(attribute, kernel, dim3(unsigned(blocks), unsigned(slices)),
                                    Cfg::kThreads, Cfg::kSmemBytes, stream, map_a, map_b, sa);
  }
}

// Launches sa over `slices` k slices, A and B read k-contiguous (K-major) or not.
template <class T, class Cfg, Schedule kSchedule>
cudaError_t launch_read_as(const SliceArgs& sa, bool a_k, bool b_k, int64_t slices,
                           cudaStream_t stream) {
  constexpr Layout kK = Layout::kKMajor, kMN = Layout::kMNMajor;
  if constexpr (T::kReadsMNMajor) {
    if (a_k && b_k) return launch_layouts<T, Cfg, kK, kK, kSchedule>(sa, slices, stream);
    if (a_k) return launch_layouts<T, Cfg, kK, kMN, kSchedule>(sa, slices, stream);
    if (b_k) return launch_layouts<T, Cfg, kMN, kK, kSchedule>(sa, slices, stream);
    return launch_layouts<T, Cfg, kMN, kMN, kSchedule>(sa, slices, stream);
  } else {
    // stage_operands() made both k-contiguous (or they are not read).
    return launch_layouts<T, Cfg, kK, kK, kSchedule>(sa, slices, stream);
  }
}

// An operand as stored (rows x cols, column-major, leading dimension ld; k_major: its rows run
// along k) and, once staged, as the copy engine reads it.
struct Operand {
  const void* data;
  int64_t ld, rows, cols;
  bool k_major;
};

// What an operand needs before the copy engine can read it: nothing (16-byte aligned base and
// leading dimension, a layout wgmma reads), a copy as it lies into a workspace with 16-byte rows,
// or (TF32, which wgmma reads K-major only) a transpose into k-contiguous rows.
enum class Staging { kInPlace, kCopy, kTranspose };

template <class T>
Staging staging_of(const Operand& op) {
  constexpr int64_t kAlignElems = 16 / int64_t(sizeof(typename T::Storage));
  if (!T::kReadsMNMajor && !op.k_major) return Staging::kTranspose;
  if (!aligned_to(op.data, 16) || op.ld % kAlignElems != 0) return Staging::kCopy;
  return Staging::kInPlace;
}

// Stages A and B as staging_of() says into one workspace from the device's pool (stream-ordered;
// *workspace stays null when neither needs it, else the caller frees it after the launch).
template <class T>
cudaError_t stage_operands(Operand* a, Operand* b, void** workspace, cudaStream_t stream) {
  using Storage = typename T::Storage;
  constexpr int64_t kAlignElems = 16 / int64_t(sizeof(Storage));
  constexpr size_t kOffsetAlign = 256;
  Operand* const ops[2] = {a, b};
  Staging staging[2];
  Operand staged[2];
  size_t offsets[2] = {0, 0};
  size_t bytes = 0;
  for (int i = 0; i < 2; ++i) {
    staging[i] = staging_of<T>(*ops[i]);
    if (staging[i] == Staging::kInPlace) continue;
    const bool t = staging[i] == Staging::kTranspose;
    staged[i].rows = t ? ops[i]->cols : ops[i]->rows;
    staged[i].cols = t ? ops[i]->rows : ops[i]->cols;
    staged[i].ld =
        (std::max<int64_t>(1, staged[i].rows) + kAlignElems - 1) / kAlignElems * kAlignElems;
    staged[i].k_major = t || ops[i]->k_major;
    offsets[i] = bytes;
    bytes += (size_t(staged[i].ld * staged[i].cols) * sizeof(Storage) + kOffsetAlign - 1) /
             kOffsetAlign * kOffsetAlign;
  }
  if (bytes == 0) return cudaSuccess;
  cudaError_t err = gemm_device::allocate_workspace(bytes, workspace, stream);
  realign::Matrix copies[2];  // the kCopy operands, copied in one launch
  int copy_count = 0;
  for (int i = 0; i < 2 && err == cudaSuccess; ++i) {
    if (staging[i] == Staging::kInPlace) continue;
    Storage* const dst =
        reinterpret_cast<Storage*>(static_cast<unsigned char*>(*workspace) + offsets[i]);
    const Operand& src = *ops[i];
    if (staging[i] == Staging::kCopy) {
      copies[copy_count++] = {src.data, src.ld, dst, staged[i].ld, src.rows, src.cols};
    } else if constexpr (!T::kReadsMNMajor) {
      TransposeProblem t;
      t.trans = Op::kTrans;
      t.rows = src.rows, t.cols = src.cols;
      t.a = static_cast<const float*>(src.data), t.lda = src.ld;
      t.b = reinterpret_cast<float*>(dst), t.ldb = staged[i].ld;
      err = transpose::launch_sheared_64x64(t, stream);
    }
    staged[i].data = dst;
    *ops[i] = staged[i];
  }
  if (err == cudaSuccess && copy_count > 0)
    err = realign::copy(copies, copy_count, int(sizeof(Storage)), stream);
  return err;
}

// How a row runs its tiles: one block per tile (and k slice: split-K, with the geometry kSplitK
// or kNarrowSplitK), or persistent blocks.
enum class Mode { kTiles, kSplitK, kNarrowSplitK, kPersistent };

template <class T, class Cfg, Mode kMode>
cudaError_t launch_problem(const Problem& p, cudaStream_t stream) {
  SliceArgs sa{{int(p.m), int(p.n), int(p.k), float(p.alpha.re), float(p.beta.re), p.a, p.lda, p.b,
                p.ldb, p.c, p.ldc, p.c_type},
               0,
               nullptr,
               0,
               0,
               0};
  // A as stored is m-contiguous unless transposed; B is k-contiguous unless transposed.
  Operand a{p.a, p.lda, p.a_rows(), p.a_cols(), p.trans_a == Op::kTrans};
  Operand b{p.b, p.ldb, p.b_rows(), p.b_cols(), p.trans_b == Op::kNoTrans};
  void* workspace = nullptr;
  cudaError_t err = cudaSuccess;
  // k == 0 or alpha == 0: A and B are not read, so neither is staged.
  if (p.k > 0 && sa.g.alpha != 0.0f) {
    err = stage_operands<T>(&a, &b, &workspace, stream);
    sa.g.a = a.data, sa.g.lda = a.ld;
    sa.g.b = b.data, sa.g.ldb = b.ld;
  }
  // The split-K rows' slices; where their rule gives one slice (or none: alpha == 0 or k == 0),
  // the kernel writes C itself; up to kMaxClusterSlices, a tile's slices sum in their cluster;
  // more go through the partials' workspace, summed by the grid itself where all of its blocks can
  // be resident at once (kGridSlices), else by the reduce.
  constexpr bool kSplit = kMode == Mode::kSplitK || kMode == Mode::kNarrowSplitK;
  splitk::Slices slices;
  if (err == cudaSuccess && kSplit)
    err = splitk::slices_of(kMode == Mode::kSplitK ? kSplitK : kNarrowSplitK, p, &slices);
  if (err == cudaSuccess && slices.count <= 1) {
    sa.k_tiles_per_slice = int((p.k + Cfg::kBlockK - 1) / Cfg::kBlockK);
    constexpr Schedule kOne =
        kMode == Mode::kPersistent ? Schedule::kPersistent : Schedule::kOneTile;
    err = launch_read_as<T, Cfg, kOne>(sa, a.k_major, b.k_major, 1, stream);
  } else if (err == cudaSuccess && slices.count <= kMaxClusterSlices) {
    if constexpr (kSplit) {
      sa.k_tiles_per_slice = int(slices.k_steps);
      sa.cluster_slices = int(slices.count);
      err = launch_read_as<T, Cfg, Schedule::kClusterSlices>(sa, a.k_major, b.k_major, slices.count,
                                                             stream);
    }
  } else if (err == cudaSuccess) {
    const int64_t m_pad = (p.m + 3) / 4 * 4;  // 16-byte partial columns
    err = splitk::run(
        p, splitk::partial_type(p.c_type), slices, m_pad,
        [&](void* partial, bool* summed) {
          sa.k_tiles_per_slice = int(slices.k_steps);
          sa.partial = static_cast<float*>(partial);
          sa.m_pad = m_pad;
          sa.slices = int(slices.count);
          cudaError_t e = launch_read_as<T, Cfg, Schedule::kGridSlices>(sa, a.k_major, b.k_major,
                                                                        slices.count, stream);
          *summed = e == cudaSuccess;
          if (e != cudaErrorCooperativeLaunchTooLarge) return e;
          (void)cudaGetLastError();  // not sticky: the workspace path instead
          return launch_read_as<T, Cfg, Schedule::kOneTile>(sa, a.k_major, b.k_major, slices.count,
                                                            stream);
        },
        stream);
  }
  if (workspace != nullptr) {
    const cudaError_t free_err = cudaFreeAsync(workspace, stream);
    if (err == cudaSuccess) err = free_err;
  }
  return err;
}

// Any alignment of A and B (launch() stages what the copy engine cannot read in place); C needs
// its element alignment.
template <class T, class Cfg>
bool supports_problem(const Problem& p, const DeviceCaps& caps) {
  if (p.type != T::kDataType) return false;
  if (!problem_fits(p, Cfg::kBlockM, Cfg::kBlockN)) return false;
  // An sm_90a image runs on compute capability 9.0 exactly.
  if (!kBuiltForSm90a || caps.sm_version != 90 ||
      caps.smem_per_block_optin < size_t(Cfg::kSmemBytes))
    return false;
  return aligned_to(p.c, size_of(p.c_type));
}
// The persistent rows' epilogue writes whole 32-byte sectors of an fp32 C (store_direct()).
template <class T, class Cfg>
bool supports_persistent(const Problem& p, const DeviceCaps& caps) {
  return supports_problem<T, Cfg>(p, caps) && p.c_type == DataType::kF32 && aligned_to(p.c, 32) &&
         p.ldc % 8 == 0;
}

// 128 x 256 tiles, 4 stages of 48 KiB: one block per SM, 128 accumulators a thread.
using ConfigF16 = Config<TypeF16, 256, 4, 1>;
using ConfigBF16 = Config<TypeBF16, 256, 4, 1>;
using ConfigTF32 = Config<TypeTF32, 256, 4, 1>;
// 128 x 128 tiles, 3 stages of 32 KiB: two blocks per SM, 64 accumulators a thread.
using ConfigF16N128 = Config<TypeF16, 128, 3, 2>;
using ConfigBF16N128 = Config<TypeBF16, 128, 3, 2>;
// 128 x 64 tiles, 4 stages of 24 KiB: two blocks per SM, 32 accumulators a thread.
using ConfigF16N64 = Config<TypeF16, 64, 4, 2>;
using ConfigBF16N64 = Config<TypeBF16, 64, 4, 2>;
// 64 x 64 tiles, one warpgroup, 12 stages of 16 KiB: one block per SM, 32 accumulators a thread.
using ConfigF16M64 = Config<TypeF16, 64, 12, 1, 1>;
using ConfigBF16M64 = Config<TypeBF16, 64, 12, 1, 1>;
// 256 x 128 tiles, four warpgroups, 4 stages of 48 KiB: one block per SM, 64 accumulators a
// thread; a tile's columns are 1 KiB of an fp32 C.
using ConfigF16M256 = Config<TypeF16, 128, 4, 1, 4>;
using ConfigBF16M256 = Config<TypeBF16, 128, 4, 1, 4>;

// The split-K geometries of the header, which the router and the tests read, are the kernels'.
static_assert(splitk::describes<ConfigF16N128>(kSplitK) &&
                  splitk::describes<ConfigBF16N128>(kSplitK),
              "kSplitK describes the split-K rows' tile");
static_assert(splitk::describes<ConfigF16M64>(kNarrowSplitK) &&
                  splitk::describes<ConfigBF16M64>(kNarrowSplitK),
              "kNarrowSplitK describes the narrow split-K rows' tile");

}  // namespace

bool built_for_sm90a() { return kBuiltForSm90a; }

#define TILEBLAS_WGMMA_ROW(name, T, Cfg, mode, supports)             \
  bool supports_##name(const Problem& p, const DeviceCaps& caps) {   \
    return supports<T, Cfg>(p, caps);                                \
  }                                                                  \
  cudaError_t launch_##name(const Problem& p, cudaStream_t stream) { \
    return launch_problem<T, Cfg, Mode::mode>(p, stream);            \
  }
TILEBLAS_WGMMA_ROW(f16_128x256x64, TypeF16, ConfigF16, kTiles, supports_problem)
TILEBLAS_WGMMA_ROW(bf16_128x256x64, TypeBF16, ConfigBF16, kTiles, supports_problem)
TILEBLAS_WGMMA_ROW(tf32_128x256x32, TypeTF32, ConfigTF32, kTiles, supports_problem)
TILEBLAS_WGMMA_ROW(f16_128x128x64, TypeF16, ConfigF16N128, kTiles, supports_problem)
TILEBLAS_WGMMA_ROW(bf16_128x128x64, TypeBF16, ConfigBF16N128, kTiles, supports_problem)
TILEBLAS_WGMMA_ROW(f16_128x64x64, TypeF16, ConfigF16N64, kTiles, supports_problem)
TILEBLAS_WGMMA_ROW(bf16_128x64x64, TypeBF16, ConfigBF16N64, kTiles, supports_problem)
TILEBLAS_WGMMA_ROW(f16_splitk_128x128x64, TypeF16, ConfigF16N128, kSplitK, supports_problem)
TILEBLAS_WGMMA_ROW(bf16_splitk_128x128x64, TypeBF16, ConfigBF16N128, kSplitK, supports_problem)
TILEBLAS_WGMMA_ROW(f16_narrow_splitk_64x64x64, TypeF16, ConfigF16M64, kNarrowSplitK,
                   supports_problem)
TILEBLAS_WGMMA_ROW(bf16_narrow_splitk_64x64x64, TypeBF16, ConfigBF16M64, kNarrowSplitK,
                   supports_problem)
TILEBLAS_WGMMA_ROW(f16_persistent_128x256x64, TypeF16, ConfigF16, kPersistent, supports_persistent)
TILEBLAS_WGMMA_ROW(bf16_persistent_128x256x64, TypeBF16, ConfigBF16, kPersistent,
                   supports_persistent)
TILEBLAS_WGMMA_ROW(f16_persistent_128x128x64, TypeF16, ConfigF16N128, kPersistent,
                   supports_persistent)
TILEBLAS_WGMMA_ROW(bf16_persistent_128x128x64, TypeBF16, ConfigBF16N128, kPersistent,
                   supports_persistent)
TILEBLAS_WGMMA_ROW(f16_persistent_256x128x64, TypeF16, ConfigF16M256, kPersistent,
                   supports_persistent)
TILEBLAS_WGMMA_ROW(bf16_persistent_256x128x64, TypeBF16, ConfigBF16M256, kPersistent,
                   supports_persistent)
#undef TILEBLAS_WGMMA_ROW

}  // namespace tileblas::gemm_wgmma
