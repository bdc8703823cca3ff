// exec_mma.cc: the warp-level matrix products mma.sync and wmma.mma, and the Tensor
// family's dispatch (wmma.load/store in exec_wmma.cc; wgmma runs a warpgroup at a time,
// from the block runner, in exec_wgmma.cc).
//
//   mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {d0..d3}, {a0..a3}, {b0,b1}, {c0..c3}
//   -> A (16x16), B (16x8), C (16x8) gathered from the 32 lanes' fragments (mma_fragments.h),
//      D = C + A*B (tensor_values.h), scattered back as D's fragment.
#include <bit>
#include <string>
#include <unordered_map>
#include <vector>

#include "emu/exec.h"
#include "emu/fragment_io.h"
#include "emu/tensor_exec.h"

namespace warpscope::emu {
namespace {

using ptx::Opcode;
using ptx::TensorType;

struct Layouts {
  FragmentLayout a, b, c, d;
};

// A product of one warp: types and layouts known, operands' rows in `t`.
template <class T>
void run_product(const Layouts& l, TensorType ta, TensorType tb, TensorType tc, TensorType td, Warp& w,
                 const TensorOperands& t, bool satfinite) {
  const int M = l.a.rows, K = l.a.cols, N = l.b.cols;
  thread_local std::vector<T> A, B, D;
  A.assign(static_cast<std::size_t>(M * K), T{});
  B.assign(static_cast<std::size_t>(K * N), T{});
  D.assign(static_cast<std::size_t>(M * N), T{});
  gather(l.a, ta, w, t.rows[1], A.data(), K);
  gather(l.b, tb, w, t.rows[2], B.data(), N);
  gather(l.c, tc, w, t.rows[3], D.data(), N);
  if constexpr (std::is_same_v<T, float>) {
    mma_f32(M, N, K, A.data(), K, B.data(), N, D.data(), N);
  } else if constexpr (std::is_same_v<T, double>) {
    mma_f64(M, N, K, A.data(), K, B.data(), N, D.data(), N);
  } else {
    mma_s32(M, N, K, A.data(), K, B.data(), N, D.data(), N, satfinite);
  }
  scatter(l.d, td, w, t.rows[0], D.data(), N);
}

bool fail(const Op& op, Warp& w, BlockContext& ctx, const std::string& message) {
  ctx.diagnose(Diagnostic::Kind::Unsupported, Diagnostic::Severity::Error, w.index, 0,
               "'" + (op.origin != nullptr ? op.origin->text : std::string("mma")) + "' at " + ctx.where() + ": " + message);
  return false;
}

// Checks that each operand has the registers its fragment needs.
bool check_registers(const Op& op, Warp& w, BlockContext& ctx, const TensorOperands& t, const Layouts& l) {
  const FragmentLayout* need[4] = {&l.d, &l.a, &l.b, &l.c};
  static const char* names[4] = {"d", "a", "b", "c"};
  if (t.rows.size() < 4) return fail(op, w, ctx, "expected the operands d, a, b, c");
  for (int i = 0; i < 4; ++i)
    if (static_cast<int>(t.rows[static_cast<std::size_t>(i)].size()) < need[i]->registers())
      return fail(op, w, ctx, std::string("operand ") + names[i] + " has " +
                                  std::to_string(t.rows[static_cast<std::size_t>(i)].size()) + " registers; the fragment needs " +
                                  std::to_string(need[i]->registers()));
  return true;
}

bool run_layouts(const Op& op, Warp& w, BlockContext& ctx, const Layouts& l, TensorType ta, TensorType tb, TensorType tc,
                 TensorType td, bool satfinite) {
  const TensorOperands& t = ctx.program->tensor_operands[op.tensor];
  if (!check_registers(op, w, ctx, t, l)) return false;
  switch (domain_of(ta)) {
    case Domain::Float: run_product<float>(l, ta, tb, tc, td, w, t, satfinite); break;
    case Domain::Double: run_product<double>(l, ta, tb, tc, td, w, t, satfinite); break;
    case Domain::Int: run_product<std::int32_t>(l, ta, tb, tc, td, w, t, satfinite); break;
  }
  return true;
}

// The layouts of one instruction, computed once per worker (an mma runs in every
// iteration of a GEMM's loop).
struct Prepared {
  Layouts l;
  TensorType ta = TensorType::None, tb = TensorType::None, tc = TensorType::None, td = TensorType::None;
  std::string error;
};

Prepared prepare_mma_sync(const ptx::TensorInfo& info) {
  Prepared p;
  if (info.ntypes != 4) {
    p.error = "expected four types (d, a, b, c)";
    return p;
  }
  auto a = mma_layout(info, MatrixOperand::A);
  auto b = mma_layout(info, MatrixOperand::B);
  auto c = mma_layout(info, MatrixOperand::C);
  ptx::TensorInfo dinfo = info;
  dinfo.types[3] = info.types[0];
  auto d = mma_layout(dinfo, MatrixOperand::C);
  for (const auto* e : {&a, &b, &c, &d})
    if (!*e) {
      p.error = e->error().message;
      return p;
    }
  if (domain_of(info.type(1)) != domain_of(info.type(0))) {
    p.error = "an accumulator type unlike the inputs' is not supported";
    return p;
  }
  p.l = {std::move(*a), std::move(*b), std::move(*c), std::move(*d)};
  p.ta = info.type(1);
  p.tb = info.type(2);
  p.tc = info.type(3);
  p.td = info.type(0);
  return p;
}

// wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype (f16 inputs), or
// .dtype.atype.btype.ctype (bf16, tf32, s8/u8, f64). The memory layouts were applied at
// wmma.load: the register fragments do not depend on them.
Prepared prepare_wmma_mma(const ptx::TensorInfo& info) {
  Prepared p;
  p.td = info.type(0);
  p.ta = p.tb = TensorType::F16;
  p.tc = info.type(1);
  if (info.ntypes == 4) {
    p.ta = info.type(1);
    p.tb = info.type(2);
    p.tc = info.type(3);
  } else if (info.ntypes != 2) {
    p.error = "expected the types d, c or d, a, b, c";
    return p;
  }
  auto a = wmma_layout(info.m, info.n, info.k, p.ta, MatrixOperand::A);
  auto b = wmma_layout(info.m, info.n, info.k, p.tb, MatrixOperand::B);
  auto c = wmma_layout(info.m, info.n, info.k, p.tc, MatrixOperand::C);
  auto d = wmma_layout(info.m, info.n, info.k, p.td, MatrixOperand::C);
  for (const auto* e : {&a, &b, &c, &d})
    if (!*e) {
      p.error = e->error().message;
      return p;
    }
  p.l = {std::move(*a), std::move(*b), std::move(*c), std::move(*d)};
  return p;
}

bool exec_product(const Op& op, Warp& w, BlockContext& ctx) {
  const Prepared& p = per_instruction<Prepared>(ctx, [&] {
    return op.opcode == Opcode::Mma ? prepare_mma_sync(op.origin->tensor) : prepare_wmma_mma(op.origin->tensor);
  });
  if (!p.error.empty()) return fail(op, w, ctx, p.error);
  return run_layouts(op, w, ctx, p.l, p.ta, p.tb, p.tc, p.td, op.origin->tensor.satfinite);
}

}  // namespace

bool needs_whole_warp(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  if (mask == 0xffffffffu) return true;
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", mask);
  return fail(op, w, ctx, std::string("needs all 32 lanes of the warp (.aligned); active lanes ") + buf);
}

bool exec_tensor(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  if (op.origin == nullptr || op.tensor == kNoRow) return unsupported(op, w, mask, ctx);
  if (!needs_whole_warp(op, w, mask, ctx)) return false;
  switch (op.opcode) {
    case Opcode::Mma: case Opcode::WmmaMma: return exec_product(op, w, ctx);
    case Opcode::WmmaLoad: case Opcode::WmmaStore: return exec_wmma_memory(op, w, ctx);
    default: return unsupported(op, w, mask, ctx);
  }
}

}  // namespace warpscope::emu
