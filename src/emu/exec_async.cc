// exec_async.cc: the Async family's dispatch and shared helpers; elect.sync, mapa and
// getctarank (see exec_async.h).
#include "emu/exec_async.h"

#include <bit>
#include <cstdio>
#include <cstring>

#include "emu/lanes.h"
#include "emu/mbarrier.h"
#include "emu/shared_address.h"

namespace warpscope::emu {
namespace {

using ptx::Opcode;

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// elect.sync d|p, membermask: the lowest active lane of membermask leads; every
// participating lane gets its lane id in d, and p is true in the leader only.
bool exec_elect(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  const OperandRow& d = operand(op, ctx, 0);
  const OperandRow& p = operand(op, ctx, 1);
  const OperandRow& m = operand(op, ctx, 2);
  int first = std::countr_zero(mask);
  auto members = static_cast<std::uint32_t>(value(w, m, first)) & mask;
  int leader = members == 0 ? -1 : std::countr_zero(members);
  for_lanes(members, [&](int l) {
    w.row(d.row)[l] = static_cast<std::uint32_t>(leader);
    w.row(p.row)[l] = l == leader ? 1u : 0u;
  });
  return true;
}

// mapa{.shared::cluster}.u32/u64 d, a, rank: a's shared variable in block `rank`;
// getctarank{.shared::cluster}.u32/u64 d, a: the block an address names.
bool exec_mapa(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  const bool generic = op.space == ptx::Space::None;
  const OperandRow& d = operand(op, ctx, 0);
  const OperandRow& a = operand(op, ctx, 1);
  bool ok = true;
  for_lanes(mask, [&](int l) {
    if (!ok) return;
    std::uint64_t addr = value(w, a, l);
    if (generic) {
      if (!in_shared_window(addr)) {
        ok = async_error(w, l, ctx, op.origin->text + " of " + hex(addr) + ", not a shared-memory address, at " + ctx.where());
        return;
      }
      addr -= kSharedWindow;
    }
    std::uint64_t result;
    if (op.opcode == Opcode::Getctarank) {
      result = static_cast<std::uint64_t>(cluster_rank_of(addr, ctx.cluster_rank));
    } else {
      auto rank = static_cast<std::uint32_t>(value(w, operand(op, ctx, 2), l));
      if (rank >= ctx.cluster->size) {
        ok = async_error(w, l, ctx,
                         "mapa to block rank " + std::to_string(rank) + " of a cluster of " +
                             std::to_string(ctx.cluster->size) + " at " + ctx.where());
        return;
      }
      result = cluster_address(addr, static_cast<int>(rank));
      if (generic) result += kSharedWindow;
    }
    w.row(d.row)[l] = ptx::type_bits(op.type) == 32 ? static_cast<std::uint32_t>(result) : result;
  });
  return ok;
}

}  // namespace

bool async_error(Warp& w, int lane, BlockContext& ctx, const std::string& message, Diagnostic::Severity severity) {
  ctx.diagnose(Diagnostic::Kind::AsyncMisuse, severity, w.index, lane,
               message + " (block " + to_string(ctx.block) + " thread " + to_string(ctx.thread_of(w.index, lane)) + ")");
  return severity != Diagnostic::Severity::Error;
}

std::uint8_t* shared_object(const Op& op, Warp& w, int lane, const OperandRow& o, ptx::Space space, bool cluster,
                            std::uint64_t width, std::uint64_t align, const char* what, BlockContext& ctx,
                            std::uint64_t& address) {
  std::uint64_t a = value(w, o, lane);
  if (space == ptx::Space::None) {
    if (!in_shared_window(a)) {
      async_error(w, lane, ctx, std::string(what) + " at " + hex(a) + " is not in shared memory, at " + ctx.where());
      return nullptr;
    }
    a -= kSharedWindow;
    cluster = true;
  } else if (space != ptx::Space::Shared) {
    async_error(w, lane, ctx, std::string(what) + " must be in shared memory, at " + ctx.where());
    return nullptr;
  }
  a &= 0xffffffffull;  // 32-bit shared addresses
  if (!cluster && a > kClusterOffsetMask) a &= kClusterOffsetMask;
  if (align > 1 && (a & (align - 1)) != 0) {
    async_error(w, lane, ctx,
                std::string(what) + " at shared " + hex(a) + " is not " + std::to_string(align) + "-byte aligned, at " +
                    ctx.where());
    return nullptr;
  }
  std::uint8_t* p = cluster_shared(ctx, a, width);
  if (p == nullptr) {
    async_error(w, lane, ctx,
                std::string(what) + " at shared " + hex(a) + " (" + std::to_string(width) +
                    " bytes) is outside the block's " + std::to_string(ctx.shared_size) + " bytes of shared memory, at " +
                    ctx.where());
    return nullptr;
  }
  int rank = cluster_rank_of(a, ctx.cluster_rank);
  address = cluster_address(a, rank);
  return p;
}

bool complete_transaction(Warp& w, int lane, std::uint64_t address, std::uint64_t bytes, BlockContext& ctx) {
  std::uint8_t* written = nullptr;
  std::uint8_t* p = cluster_shared(ctx, address, 8, &written);
  if (p == nullptr) return async_error(w, lane, ctx, "the copy's mbarrier " + hex(address) + " is outside shared memory at " + ctx.where());
  std::uint64_t bits;
  std::memcpy(&bits, p, 8);
  auto u = mbarrier::complete_tx(bits, static_cast<std::uint32_t>(bytes));
  std::memcpy(p, &u.bits, 8);
  if (u.overflow)
    async_error(w, lane, ctx, "the copy's mbarrier tx-count went out of range at " + ctx.where(), Diagnostic::Severity::Warning);
  if (u.completed) ++*ctx.mbarrier_epoch;
  return true;
}

const std::uint8_t* readable_bytes(Warp& w, int lane, std::uint64_t address, std::uint64_t size, const char* what,
                                   BlockContext& ctx) {
  if (in_param_window(address)) {
    std::uint64_t off = address - kParamWindow;
    if (off + size <= ctx.param_size) return ctx.params + off;
  } else if (!in_shared_window(address) && !in_local_window(address)) {
    if (const Buffer* b = ctx.memory->find(address, size)) return b->bytes.get() + (address - b->base);
  }
  async_error(w, lane, ctx,
              std::string(what) + " at " + hex(address) + " (" + std::to_string(size) +
                  " bytes) is not in a global buffer or the kernel's parameters, at " + ctx.where());
  return nullptr;
}

bool exec_async(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  switch (op.opcode) {
    case Opcode::MbarrierInit: case Opcode::MbarrierInval: case Opcode::MbarrierArrive:
    case Opcode::MbarrierArriveDrop: case Opcode::MbarrierExpectTx: case Opcode::MbarrierCompleteTx:
    case Opcode::MbarrierTestWait: case Opcode::MbarrierTryWait: case Opcode::MbarrierPendingCount:
    case Opcode::CpAsyncMbarrierArrive:
      return exec_mbarrier(op, w, mask, ctx);
    case Opcode::CpAsyncBulk: case Opcode::CpReduceAsyncBulk: case Opcode::CpAsyncBulkPrefetch:
      return exec_bulk_copy(op, w, mask, ctx);
    case Opcode::CpAsyncBulkTensor: case Opcode::CpReduceAsyncBulkTensor: case Opcode::CpAsyncBulkPrefetchTensor:
      return exec_tensor_copy(op, w, mask, ctx);
    case Opcode::TensormapReplace: case Opcode::TensormapCpFenceproxy:
      return exec_tensormap(op, w, mask, ctx);
    case Opcode::Elect: return op.noperands >= 3 ? exec_elect(op, w, mask, ctx) : unsupported(op, w, mask, ctx);
    case Opcode::Mapa: case Opcode::Getctarank:
      return op.noperands >= (op.opcode == Opcode::Mapa ? 3 : 2) ? exec_mapa(op, w, mask, ctx)
                                                                 : unsupported(op, w, mask, ctx);
    default: return unsupported(op, w, mask, ctx);
  }
}

}  // namespace warpscope::emu
