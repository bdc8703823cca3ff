// exec_wmma.cc: wmma.load and wmma.store: a fragment to or from a matrix in memory.
//
//   wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r1..%r8}, [%r9], %r10;
//   -> the 16x16 tile at [%r9] with a leading dimension of %r10 elements, read by the
//      instructions ptxas makes of it (wmma_plan.h: here one LDSM.16.M88.4), each published
//      as an access event; the tile's elements then go to the fragment (mma_fragments.h).
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "emu/exec.h"
#include "emu/fragment_io.h"
#include "emu/lanes.h"
#include "emu/memory_access.h"
#include "emu/tensor_exec.h"
#include "emu/wmma_plan.h"

namespace warpscope::emu {
namespace {

bool fail(const Op& op, Warp& w, BlockContext& ctx, const std::string& message) {
  ctx.diagnose(Diagnostic::Kind::Unsupported, Diagnostic::Severity::Error, w.index, 0,
               "'" + op.origin->text + "' at " + ctx.where() + ": " + message);
  return false;
}

// Copies of 1 to 16 bytes with the size known to the compiler (a memcpy call per element
// of a fragment costs more than the rest of the move).
inline void copy_bytes(std::uint8_t* to, const std::uint8_t* from, int n) {
  switch (n) {
    case 1: *to = *from; break;
    case 2: std::memcpy(to, from, 2); break;
    case 4: std::memcpy(to, from, 4); break;
    case 8: std::memcpy(to, from, 8); break;
    case 16: std::memcpy(to, from, 16); break;
    default: std::memcpy(to, from, static_cast<std::size_t>(n)); break;
  }
}

}  // namespace

bool exec_wmma_memory(const Op& op, Warp& w, BlockContext& ctx) {
  const ptx::TensorInfo& info = op.origin->tensor;
  const bool store = op.opcode == ptx::Opcode::WmmaStore;
  const TensorOperands& t = ctx.program->tensor_operands[op.tensor];
  if (info.fragment == ptx::Fragment::None || info.ntypes < 1 || t.rows.size() < 2 || op.addr == kNoRow)
    return fail(op, w, ctx, "expected a fragment (a, b, c, d), a type, registers and an address");
  if (store != (info.fragment == ptx::Fragment::D)) return fail(op, w, ctx, "wmma.load reads a, b or c; wmma.store writes d");
  const MatrixOperand which = info.fragment == ptx::Fragment::A   ? MatrixOperand::A
                              : info.fragment == ptx::Fragment::B ? MatrixOperand::B
                                                                  : MatrixOperand::C;
  // The fragment's layout and the SASS's accesses, once per instruction and worker.
  struct Prepared {
    FragmentLayout f;
    WmmaPlan plan;
    std::string error;
  };
  const Prepared& prepared = per_instruction<Prepared>(ctx, [&] {
    Prepared p;
    auto layout = wmma_layout(info.m, info.n, info.k, info.type(0), which);
    if (layout) {
      p.f = std::move(*layout);
      p.plan = plan_wmma(p.f, which, info.layout_a != ptx::MatrixLayout::Col, op.space == ptx::Space::Shared);
    } else {
      p.error = layout.error().message;
    }
    return p;
  });
  if (!prepared.error.empty()) return fail(op, w, ctx, prepared.error);
  const FragmentLayout& f = prepared.f;
  const WmmaPlan& plan = prepared.plan;
  const std::vector<std::uint32_t>& regs = t.rows[store ? 1 : 0];
  if (static_cast<int>(regs.size()) < f.registers())
    return fail(op, w, ctx, "the fragment needs " + std::to_string(f.registers()) + " registers, not " +
                                std::to_string(regs.size()));
  const bool row_major = info.layout_a != ptx::MatrixLayout::Col;
  // The leading dimension in elements (uniform over the warp); by default the tile's width.
  std::uint64_t ldm = static_cast<std::uint64_t>(plan.mem_cols);
  if (t.rows.size() > 2 && !t.rows[2].empty()) ldm = static_cast<std::uint32_t>(w.row(t.rows[2][0])[0]);
  const int bytes = plan.element_bytes;

  // The tile, memory-row-major: element (row, col) at [(row * mem_cols + col) * bytes].
  thread_local std::vector<std::uint8_t> tile;
  tile.assign(static_cast<std::size_t>(plan.mem_rows * plan.mem_cols * bytes), 0);
  auto tile_at = [&](const FragmentLayout::Coord& c) {
    return tile.data() + static_cast<std::size_t>((c.row * plan.mem_cols + c.col) * bytes);
  };
  auto memory_coord = [&](const FragmentLayout::Coord& c) {
    return row_major ? c : FragmentLayout::Coord{c.col, c.row};
  };
  if (store)
    for (int lane = 0; lane < 32; ++lane)
      for (int e = 0; e < f.elements; ++e) {
        const std::uint64_t v = read_element(f, w, regs, lane, e);
        copy_bytes(tile_at(memory_coord(f.at(lane, e))), reinterpret_cast<const std::uint8_t*>(&v), bytes);
      }

  const std::uint64_t* base = w.row(op.addr);
  for (const WmmaAccess& a : plan.accesses) {
    std::array<std::uint64_t, 32> address{};
    for_lanes(a.mask, [&](int l) {
      const auto& c = a.at[static_cast<std::size_t>(l)];
      address[static_cast<std::size_t>(l)] = base[l] + (c.row * ldm + c.col) * static_cast<std::uint64_t>(bytes);
    });
    LaneAccess acc;
    const int lane_bytes = a.lane_bytes();
    if (!resolve_at(op, op.space, address.data(), op.offset, lane_bytes, store ? Intent::Write : Intent::Read, w, a.mask,
                    ctx, acc))
      return false;
    for_lanes(a.mask, [&](int l) {
      std::uint8_t* p = tile_at(a.at[static_cast<std::size_t>(l)]);
      if (store) {
        copy_bytes(acc.ptr[static_cast<std::size_t>(l)], p, lane_bytes);
      } else {
        copy_bytes(p, acc.ptr[static_cast<std::size_t>(l)], lane_bytes);
      }
    });
    if (a.ldmatrix) {
      publish(op, w, acc, model::MemOp::LdMatrix, model::MemOp::GlobalLoad, a.width, ctx);
    } else if (store) {
      publish(op, w, acc, model::MemOp::SharedStore, model::MemOp::GlobalStore, a.width, ctx);
    } else {
      publish(op, w, acc, model::MemOp::SharedLoad, model::MemOp::GlobalLoad, a.width, ctx);
    }
  }

  if (!store) {
    const int per = f.per_register(), nregs = f.registers();
    for (int lane = 0; lane < 32; ++lane) {
      std::uint64_t packed[16] = {};
      for (int e = 0; e < f.elements; ++e) {
        std::uint64_t v = 0;
        copy_bytes(reinterpret_cast<std::uint8_t*>(&v), tile_at(memory_coord(f.at(lane, e))), bytes);
        packed[e / per] |= f.bits == 64 ? v : v << ((e % per) * f.bits);
      }
      for (std::size_t r = 0; r < regs.size(); ++r)
        w.rows[static_cast<std::size_t>(regs[r]) * 32 + static_cast<std::size_t>(lane)] =
            packed[r % static_cast<std::size_t>(nregs)];
    }
  }
  return true;
}

}  // namespace warpscope::emu
