// exec_wgmma.cc: wgmma.mma_async, one warpgroup (4 warps, 128 threads) at a time.
//
//   wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {d0..d127}, a-desc, b-desc, p, 1, 1, 0, 0;
//   -> A (64x16) and B (16x256) read from shared memory through their descriptors
//      (smem_descriptor.h), D = (p ? D : 0) + A*B (tensor_values.h), written back to the
//      four warps' accumulators: warp w holds rows 16w..16w+15 as mma.m16n8 tiles, one per
//      8 columns (register 4j+e: row 16w + g + 8(e/2), column 8j + 2q + e%2; f16 accumulators
//      pack two to a register).
//
// Operands: d, a (a descriptor, or 4 registers per thread), b (descriptor), scale-d, then
// for float types imm-scale-a, imm-scale-b (1 or -1), then for f16/bf16 imm-trans-a (with
// a descriptor) and imm-trans-b: 1 is MN-major. The product is synchronous here (complete
// when the instruction issues, a legal order of the asynchronous one), so wgmma.fence,
// commit_group and wait_group have nothing left to wait for.
//
// The shared-memory reads are published as access events of op Gmma on the first warp of
// the group: 8 lanes per core matrix (8 rows of 16 bytes), up to 4 core matrices an event,
// A's (when it comes from a descriptor) then B's.
#include <array>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "emu/exec.h"
#include "emu/fragment_io.h"
#include "emu/lanes.h"
#include "emu/smem_descriptor.h"
#include "emu/tensor_exec.h"

namespace warpscope::emu {
namespace {

using ptx::TensorType;

bool fail(const Op& op, const Warp& w, BlockContext& ctx, const std::string& message) {
  ctx.diagnose(Diagnostic::Kind::Unsupported, Diagnostic::Severity::Error, w.index, 0,
               "'" + op.origin->text + "' at " + ctx.where() + ": " + message);
  return false;
}

// Decodes the 16 bytes of a chunk into `count` elements.
template <class T, int kBytes>
void decode_chunk(TensorType type, const std::uint8_t* p, T* out, std::ptrdiff_t step) {
  [[maybe_unused]] const FloatDecoder fdec = type == TensorType::F16 ? nullptr : float_decoder(type);
  [[maybe_unused]] const IntDecoder idec = int_decoder(type);
  for (int i = 0; i < 16 / kBytes; ++i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, p + i * kBytes, kBytes);
    if constexpr (std::is_same_v<T, float>) {
      out[i * step] = fdec == nullptr ? half_bits_to_float(bits) : fdec(bits);
    } else {
      out[i * step] = idec(bits);
    }
  }
}

struct Operand {
  SmemDescriptor desc;
  bool mn_major = false;
};

// Reads an MN x K operand through its descriptor into out[mn * ld_mn + k * ld_k]; publishes
// nothing, returns the chunk addresses by core matrix (8 each) in `chunks`.
template <class T>
bool read_operand(const Op& op, const Warp& w, BlockContext& ctx, const Operand& o, TensorType type, int MN, int K,
                  T* out, std::ptrdiff_t ld_mn, std::ptrdiff_t ld_k, std::vector<std::uint32_t>& chunks) {
  const int bytes = ptx::tensor_type_bits(type) / 8;
  const int T_ = 16 / bytes;
  auto read = [&](int mn, int k, std::ptrdiff_t step) {
    const std::uint32_t a = chunk_address(o.desc, o.mn_major, bytes, mn, k);
    chunks.push_back(a);
    if (a + 16 > ctx.shared_size) return false;
    if (ctx.shared_written != nullptr) {
      const std::uint8_t* f = ctx.shared_written + a;
      bool all = true;
      for (int i = 0; i < 16; ++i) all &= f[i] != 0;
      if (!all)
        ctx.diagnose(Diagnostic::Kind::UninitializedShared, Diagnostic::Severity::Warning, w.index, 0,
                     "wgmma reads shared bytes at offset " + std::to_string(a) + " never written in block " +
                         to_string(ctx.block) + " at " + ctx.where());
    }
    T* dst = out + mn * ld_mn + k * ld_k;
    if (bytes == 1) decode_chunk<T, 1>(type, ctx.shared + a, dst, step);
    else if (bytes == 2) decode_chunk<T, 2>(type, ctx.shared + a, dst, step);
    else decode_chunk<T, 4>(type, ctx.shared + a, dst, step);
    return true;
  };
  bool ok = true;
  if (!o.mn_major) {  // core matrix (8-row group, k chunk): rows mn = 8g + r, k = c*T .. c*T+T-1
    for (int g = 0; g < MN / 8 && ok; ++g)
      for (int c = 0; c < K / T_ && ok; ++c)
        for (int r = 0; r < 8 && ok; ++r) ok = read(8 * g + r, c * T_, ld_k);
  } else {  // core matrix (mn chunk c, k group j): rows k = 8j + r, mn = c*T .. c*T+T-1
    for (int c = 0; c < MN / T_ && ok; ++c)
      for (int j = 0; j < K / 8 && ok; ++j)
        for (int r = 0; r < 8 && ok; ++r) ok = read(c * T_, 8 * j + r, ld_mn);
  }
  if (!ok)
    ctx.diagnose(Diagnostic::Kind::OutOfBounds, Diagnostic::Severity::Error, w.index, 0,
                 "out-of-bounds wgmma read at shared offset " + std::to_string(chunks.back()) + " (the block has " +
                     std::to_string(ctx.shared_size) + " bytes of shared memory; descriptor start " +
                     std::to_string(o.desc.start) + ") by block " + to_string(ctx.block) + " at " + ctx.where());
  (void)op;
  return ok;
}

void publish_chunks(const Op& op, const Warp& w, BlockContext& ctx, const std::vector<std::uint32_t>& chunks) {
  if (ctx.listener == nullptr) return;
  const std::size_t matrices = chunks.size() / 8;
  for (std::size_t m = 0; m < matrices; m += 4) {
    const int n = static_cast<int>(std::min<std::size_t>(4, matrices - m));
    AccessEvent e;
    e.instruction = op.origin;
    e.pc = ctx.pc;
    e.block = ctx.block;
    e.block_index = ctx.block_index;
    e.warp = w.index;
    e.access.op = model::MemOp::Gmma;
    e.access.width = n;
    e.access.mask = n == 4 ? 0xffffffffu : (1u << (8 * n)) - 1;
    for (int l = 0; l < 8 * n; ++l) e.access.address[static_cast<std::size_t>(l)] = chunks[8 * m + static_cast<std::size_t>(l)];
    const std::uint64_t a = e.access.address[0];
    for (std::size_t i = 0; i < ctx.first_buffer_region; ++i) {
      const Region& r = (*ctx.regions)[i];
      if (a >= r.base && a < r.base + r.size) {
        e.region = static_cast<int>(i);
        break;
      }
    }
    ctx.listener->on_access(e);
  }
}

std::int64_t immediate(const Warp& w, const TensorOperands& t, std::size_t i, std::int64_t fallback) {
  if (t.rows.size() <= i || t.rows[i].empty()) return fallback;
  return static_cast<std::int64_t>(w.rows[static_cast<std::size_t>(t.rows[i][0]) * 32]);
}

template <class T>
bool run(const Op& op, const std::array<Warp*, 4>& warps, BlockContext& ctx) {
  const ptx::TensorInfo& info = op.origin->tensor;
  const TensorOperands& t = ctx.program->tensor_operands[op.tensor];
  const Warp& w0 = *warps[0];
  const TensorType td = info.type(0), ta = info.type(1), tb = info.type(2);
  const int M = 64, N = info.n, K = info.k;
  const bool a_desc = t.rows[1].size() == 1;
  const bool floats = domain_of(ta) == Domain::Float;
  const bool sixteen = ta == TensorType::F16 || ta == TensorType::BF16;
  // Immediates after scale-d: imm-scale-a, imm-scale-b (float types), imm-trans-a (with a
  // descriptor) and imm-trans-b (f16/bf16).
  std::size_t next = 4;
  const std::int64_t scale_a = floats ? immediate(w0, t, next++, 1) : 1;
  const std::int64_t scale_b = floats ? immediate(w0, t, next++, 1) : 1;
  const bool trans_a = sixteen && a_desc ? immediate(w0, t, next++, 0) != 0 : false;
  const bool trans_b = sixteen ? immediate(w0, t, next++, 0) != 0 : false;
  bool accumulate = true;
  if (t.rows.size() > 3 && !t.rows[3].empty()) {
    accumulate = w0.rows[static_cast<std::size_t>(t.rows[3][0]) * 32] != 0;
    if ((op.negated_src >> 3) & 1u) accumulate = !accumulate;
  }

  thread_local std::vector<T> A, B, D;
  A.assign(static_cast<std::size_t>(M * K), T{});
  B.assign(static_cast<std::size_t>(K * N), T{});
  D.assign(static_cast<std::size_t>(M * N), T{});
  thread_local std::vector<std::uint32_t> chunks;
  chunks.clear();
  // A: M x K, A[m * K + k]; B: K x N stored B[k * N + n] (read as the N x K operand).
  if (a_desc) {
    Operand a{SmemDescriptor::decode(w0.rows[static_cast<std::size_t>(t.rows[1][0]) * 32]), trans_a};
    if (!read_operand(op, w0, ctx, a, ta, M, K, A.data(), K, 1, chunks)) return false;
  } else {
    ptx::TensorInfo tile;
    tile.m = 16;
    tile.n = 8;
    tile.k = static_cast<std::uint16_t>(K);
    tile.types = {td, ta, tb, td};
    tile.ntypes = 4;
    auto layout = mma_layout(tile, MatrixOperand::A);
    if (!layout) return fail(op, w0, ctx, layout.error().message);
    if (static_cast<int>(t.rows[1].size()) < layout->registers()) return fail(op, w0, ctx, "too few A registers");
    for (int wi = 0; wi < 4; ++wi) gather(*layout, ta, *warps[static_cast<std::size_t>(wi)], t.rows[1], A.data(), K, 16 * wi);
  }
  Operand b{SmemDescriptor::decode(w0.rows[static_cast<std::size_t>(t.rows[2][0]) * 32]), trans_b};
  if (!read_operand(op, w0, ctx, b, tb, N, K, B.data(), 1, N, chunks)) return false;
  if constexpr (std::is_same_v<T, float>) {
    if (scale_a < 0)
      for (T& x : A) x = -x;
    if (scale_b < 0)
      for (T& x : B) x = -x;
  }

  // The accumulators: warp w, lane l, register i.
  const std::vector<std::uint32_t>& d_rows = t.rows[0];
  const bool half_acc = td == TensorType::F16;
  const int regs = half_acc ? N / 4 : N / 2;
  if (static_cast<int>(d_rows.size()) < regs)
    return fail(op, w0, ctx, "the accumulator needs " + std::to_string(regs) + " registers, not " + std::to_string(d_rows.size()));
  auto coord = [&](int wi, int lane, int i, int h, int& row, int& col) {
    const int g = lane / 4, q = lane % 4;
    if (half_acc) {
      row = 16 * wi + g + 8 * (i & 1);
      col = 8 * (i / 2) + 2 * q + h;
    } else {
      row = 16 * wi + g + 8 * ((i % 4) >> 1);
      col = 8 * (i / 4) + 2 * q + (i & 1);
    }
  };
  if (accumulate)
    for (int wi = 0; wi < 4; ++wi) {
      const Warp& w = *warps[static_cast<std::size_t>(wi)];
      for (int i = 0; i < regs; ++i) {
        const std::uint64_t* r = w.rows + static_cast<std::size_t>(d_rows[static_cast<std::size_t>(i)]) * 32;
        for (int lane = 0; lane < 32; ++lane)
          for (int h = 0; h < (half_acc ? 2 : 1); ++h) {
            int row = 0, col = 0;
            coord(wi, lane, i, h, row, col);
            const auto bits = static_cast<std::uint32_t>(half_acc ? (r[lane] >> (16 * h)) & 0xffffu : r[lane]);
            T& dst = D[static_cast<std::size_t>(row * N + col)];
            if constexpr (std::is_same_v<T, float>) {
              dst = half_acc ? half_bits_to_float(bits) : std::bit_cast<float>(bits);
            } else {
              dst = static_cast<std::int32_t>(bits);
            }
          }
      }
    }
  if constexpr (std::is_same_v<T, float>) {
    mma_f32(M, N, K, A.data(), K, B.data(), N, D.data(), N);
  } else {
    mma_s32(M, N, K, A.data(), K, B.data(), N, D.data(), N, info.satfinite);
  }
  for (int wi = 0; wi < 4; ++wi) {
    Warp& w = *warps[static_cast<std::size_t>(wi)];
    for (int i = 0; i < regs; ++i) {
      std::uint64_t* r = w.rows + static_cast<std::size_t>(d_rows[static_cast<std::size_t>(i)]) * 32;
      for (int lane = 0; lane < 32; ++lane) {
        std::uint64_t v = 0;
        for (int h = 0; h < (half_acc ? 2 : 1); ++h) {
          int row = 0, col = 0;
          coord(wi, lane, i, h, row, col);
          v |= encode(td, D[static_cast<std::size_t>(row * N + col)]) << (16 * h);
        }
        r[lane] = v;
      }
    }
  }
  publish_chunks(op, w0, ctx, chunks);
  return true;
}

}  // namespace

bool exec_wgmma(const Op& op, const std::array<Warp*, 4>& warps, BlockContext& ctx) {
  const ptx::TensorInfo& info = op.origin->tensor;
  const TensorOperands& t = ctx.program->tensor_operands[op.tensor];
  const Warp& w0 = *warps[0];
  if (info.sparse) return fail(op, w0, ctx, "sparse wgmma (.sp) is not supported");
  if (info.m != 64 || info.n % 8 != 0 || info.n == 0 || info.n > 256 || info.ntypes != 3 || t.rows.size() < 3)
    return fail(op, w0, ctx, "expected .m64nNk* with N a multiple of 8 up to 256, and the types d, a, b");
  const TensorType ta = info.type(1);
  const int bits = ptx::tensor_type_bits(ta);
  if (bits < 8 || info.k * bits != 256)
    return fail(op, w0, ctx, "K must span 32 bytes (k16 f16/bf16, k8 tf32, k32 e4m3/e5m2/s8/u8), not k" +
                                 std::to_string(info.k) + " of ." + std::string(ptx::tensor_type_name(ta)));
  if (t.rows[2].size() != 1) return fail(op, w0, ctx, "B must be a shared-memory descriptor");
  return domain_of(ta) == Domain::Int ? run<std::int32_t>(op, warps, ctx) : run<float>(op, warps, ctx);
}

}  // namespace warpscope::emu
