// exec_memory.cc: ld/st of every state space and vector width, ldmatrix, stmatrix and
// cp.async (atom/red: exec_atomic.cc); publishes an AccessEvent for each shared or global access.
//
// Each lane's address is resolved to a state space and a host pointer first (generic
// addresses through the windows of memory.h), with bounds and alignment checked; then
// the data moves; then the lanes that touched shared or global memory become events.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>

#include "emu/exec.h"
#include "emu/lanes.h"
#include "emu/memory_access.h"

namespace warpscope::emu {
namespace {

using ptx::Opcode;
using ptx::SubOp;
using ptx::Type;

template <int Elem, bool Signed>
void move_lanes(const Op& op, Warp& w, std::uint32_t mask, const LaneAccess& acc, bool store) {
  using U = std::conditional_t<Elem == 1, std::uint8_t,
            std::conditional_t<Elem == 2, std::uint16_t, std::conditional_t<Elem == 4, std::uint32_t, std::uint64_t>>>;
  using S = std::make_signed_t<U>;
  for (int k = 0; k < op.vec; ++k) {
    std::uint64_t* r = w.row(store ? op.src[static_cast<std::size_t>(k)] : op.dst[static_cast<std::size_t>(k)]);
    const int at = k * Elem;
    if (store) {
      for_lanes(mask, [&](int l) {
        auto v = static_cast<U>(r[l]);
        std::memcpy(acc.ptr[static_cast<std::size_t>(l)] + at, &v, Elem);
      });
    } else {
      for_lanes(mask, [&](int l) {
        U v;
        std::memcpy(&v, acc.ptr[static_cast<std::size_t>(l)] + at, Elem);
        r[l] = Signed ? static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<S>(v))) : v;
      });
    }
  }
}

bool exec_load_store(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  bool store = op.opcode == Opcode::St;
  int elem = ptx::type_bits(op.type) / 8;
  if (elem != 1 && elem != 2 && elem != 4 && elem != 8) return unsupported(op, w, mask, ctx);
  int width = elem * op.vec;
  LaneAccess acc;
  if (!resolve(op, op.space, op.addr, op.offset, width, store ? Intent::Write : Intent::Read, w, mask, ctx, acc))
    return false;
  bool is_signed = ptx::is_signed(op.type);
  switch (elem) {
    case 1: is_signed ? move_lanes<1, true>(op, w, mask, acc, store) : move_lanes<1, false>(op, w, mask, acc, store); break;
    case 2: is_signed ? move_lanes<2, true>(op, w, mask, acc, store) : move_lanes<2, false>(op, w, mask, acc, store); break;
    case 4: is_signed ? move_lanes<4, true>(op, w, mask, acc, store) : move_lanes<4, false>(op, w, mask, acc, store); break;
    default: move_lanes<8, false>(op, w, mask, acc, store); break;
  }
  publish(op, w, acc, store ? model::MemOp::SharedStore : model::MemOp::SharedLoad,
          store ? model::MemOp::GlobalStore : model::MemOp::GlobalLoad, width, ctx);
  return true;
}

// ldmatrix/stmatrix .m8n8 .b16: lanes 8k..8k+7 hold the row addresses of matrix k.
bool exec_matrix(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  int count = op.vec;
  std::uint32_t row_lanes = count == 4 ? 0xffffffffu : ((1u << (8 * count)) - 1);
  std::uint32_t rows_mask = mask & row_lanes;
  bool store = op.opcode == Opcode::StMatrix;
  LaneAccess acc;
  if (!resolve(op, op.space, op.addr, op.offset, 16, store ? Intent::Write : Intent::Read, w, rows_mask, ctx, acc))
    return false;
  bool trans = op.has(ptx::flag::Trans);
  for (int k = 0; k < count; ++k) {
    for_lanes(mask, [&](int l) {
      int quad = l % 4, group = l / 4;
      for (int e = 0; e < 2; ++e) {
        // Element (row, col) of matrix k that half e of lane l's register k holds.
        int row = trans ? 2 * quad + e : group;
        int col = trans ? group : 2 * quad + e;
        int src_lane = 8 * k + row;
        if (!((rows_mask >> src_lane) & 1u)) continue;
        std::uint8_t* p = acc.ptr[src_lane] + 2 * col;
        if (store) {
          auto v = static_cast<std::uint16_t>(w.row(op.src[static_cast<std::size_t>(k)])[l] >> (16 * e));
          std::memcpy(p, &v, 2);
        } else {
          std::uint16_t v;
          std::memcpy(&v, p, 2);
          std::uint64_t& r = w.row(op.dst[static_cast<std::size_t>(k)])[l];
          r = (e == 0 ? 0 : (r & 0xffffu)) | (static_cast<std::uint64_t>(v) << (16 * e));
        }
      }
    });
  }
  acc.mask = rows_mask;
  if (store) {
    publish(op, w, acc, model::MemOp::SharedStore, model::MemOp::GlobalStore, 16, ctx);
  } else {
    publish(op, w, acc, model::MemOp::LdMatrix, model::MemOp::GlobalLoad, count, ctx);
  }
  return true;
}

// cp.async.ca/cg.shared.global [dst], [src], cp-size{, src-size | , ignore-src}: a copy,
// published as a global read and a shared write. A lane reads src-size bytes (the rest
// of cp-size is zero-filled), none when src-size is 0 or ignore-src is true: such a
// lane's source is neither checked nor counted (Triton points masked-off lanes past the
// end). A lane that reads part of its chunk counts as the whole chunk: an aligned chunk
// of 4, 8 or 16 bytes lies in one sector either way.
bool exec_cp_async(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  if (op.nsrc < 1 || op.addr2 == kNoRow) return unsupported(op, w, mask, ctx);
  int first = std::countr_zero(mask == 0 ? 1u : mask);
  auto size = static_cast<int>(w.row(op.src[0])[first]);
  if (size != 4 && size != 8 && size != 16) return unsupported(op, w, mask, ctx);
  const std::uint64_t* fourth = op.nsrc > 1 ? w.row(op.src[1]) : nullptr;
  const bool negated = ((op.negated_src >> 1) & 1u) != 0;  // ignore-src written as !%p
  std::array<int, 32> bytes{};
  std::uint32_t reading = 0;
  for_lanes(mask, [&](int l) {
    std::uint64_t n = static_cast<std::uint64_t>(size);
    if (fourth != nullptr) n = op.cp_async_ignore_src ? ((fourth[l] != 0) != negated ? 0 : n) : std::min(fourth[l], n);
    bytes[static_cast<std::size_t>(l)] = static_cast<int>(n);
    if (n > 0) reading |= 1u << l;
  });
  LaneAccess src, dst;
  src.mask = reading;
  src.shared_lanes = src.global_lanes = 0;
  // The reading lanes, resolved in groups of one byte count (bounds are checked for the
  // bytes read): one group unless src-size differs between lanes.
  for (std::uint32_t left = reading; left != 0;) {
    const int n = bytes[static_cast<std::size_t>(std::countr_zero(left))];
    std::uint32_t group = 0;
    for_lanes(left, [&](int l) {
      if (bytes[static_cast<std::size_t>(l)] == n) group |= 1u << l;
    });
    LaneAccess part;
    if (!resolve(op, ptx::Space::Global, op.addr2, op.offset2, n, Intent::Read, w, group, ctx, part)) return false;
    for_lanes(group, [&](int l) {
      src.ptr[static_cast<std::size_t>(l)] = part.ptr[static_cast<std::size_t>(l)];
      src.addr[static_cast<std::size_t>(l)] = part.addr[static_cast<std::size_t>(l)];
      src.where[static_cast<std::size_t>(l)] = part.where[static_cast<std::size_t>(l)];
    });
    if (src.global_lanes == 0) src.buffer = part.buffer;
    src.global_lanes |= part.global_lanes;
    left &= ~group;
  }
  if (!resolve(op, ptx::Space::Shared, op.addr, op.offset, size, Intent::Write, w, mask, ctx, dst)) return false;
  for_lanes(mask, [&](int l) {
    const int n = bytes[static_cast<std::size_t>(l)];
    if (n > 0) std::memcpy(dst.ptr[static_cast<std::size_t>(l)], src.ptr[static_cast<std::size_t>(l)], static_cast<std::size_t>(n));
    if (n < size) std::memset(dst.ptr[static_cast<std::size_t>(l)] + n, 0, static_cast<std::size_t>(size - n));
  });
  // The whole copy for pricing: the shared lanes that write, and what each reads.
  model::LdgstsAccess copy;
  copy.bypass = op.cp_async_bypass;
  copy.size = size;
  copy.mask = dst.shared_lanes & dst.mask;
  for_lanes(copy.mask, [&](int l) {
    const auto i = static_cast<std::size_t>(l);
    copy.shared[i] = dst.addr[i];
    const bool global = ((src.global_lanes & src.mask) >> l) & 1u;
    copy.src_bytes[i] = static_cast<std::uint8_t>(global ? bytes[i] : 0);
    copy.global[i] = global ? src.addr[i] : 0;
    // The source the lane names, read or not (model::SeenPredicate::AllRead prices it).
    copy.named[i] = global ? src.addr[i] : w.row(op.addr2)[l] + static_cast<std::uint64_t>(op.offset2);
  });
  publish(op, w, src, model::MemOp::SharedLoad, model::MemOp::GlobalLoad, size, ctx, true, &copy);
  publish(op, w, dst, model::MemOp::SharedStore, model::MemOp::GlobalStore, size, ctx, true, &copy);
  return true;
}

}  // namespace

bool exec_memory(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  if (mask == 0) return true;
  switch (op.opcode) {
    case Opcode::Ld: case Opcode::Ldu: case Opcode::St: return exec_load_store(op, w, mask, ctx);
    case Opcode::Atom: case Opcode::Red: return exec_atomic(op, w, mask, ctx);
    case Opcode::LdMatrix: case Opcode::StMatrix: return exec_matrix(op, w, mask, ctx);
    case Opcode::CpAsync: return exec_cp_async(op, w, mask, ctx);
    default: return unsupported(op, w, mask, ctx);
  }
}

}  // namespace warpscope::emu
