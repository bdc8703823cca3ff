// exec_mbarrier.cc: mbarrier.init/inval/arrive/arrive_drop/expect_tx/complete_tx/
// test_wait/try_wait/pending_count on the 64-bit state in shared memory (mbarrier.h).
//
// Each active thread performs its own operation, in lane order (128 threads arriving
// are 128 arrivals). A wait whose phase has not completed does not return false: its
// lanes stay at the wait and sleep until some phase completes (ctx.wait_lanes, see
// block.cc), then try again. That is one schedule the hardware allows (try_wait may
// suspend until the phase completes; a test_wait may run later), and a kernel spinning
// on try_wait costs no steps while it waits.
#include <cstdio>
#include <cstring>

#include "emu/exec_async.h"
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

// The mbarrier operand's position: after the destination, if the opcode has one.
int address_operand(Opcode op) {
  switch (op) {
    case Opcode::MbarrierInit: case Opcode::MbarrierInval: case Opcode::MbarrierExpectTx:
    case Opcode::MbarrierCompleteTx: case Opcode::CpAsyncMbarrierArrive:
      return 0;
    default: return 1;
  }
}

}  // namespace

bool exec_mbarrier(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  if (op.opcode == Opcode::MbarrierPendingCount) {
    if (op.noperands < 2) return unsupported(op, w, mask, ctx);
    const OperandRow& d = operand(op, ctx, 0);
    const OperandRow& s = operand(op, ctx, 1);
    for_lanes(mask, [&](int l) { w.row(d.row)[l] = mbarrier::pending_count(value(w, s, l)); });
    return true;
  }
  const int at = address_operand(op.opcode);
  if (op.noperands <= at) return unsupported(op, w, mask, ctx);
  const OperandRow& bar = operand(op, ctx, at);
  const bool cluster = op.has(ptx::flag::Cluster);
  const OperandRow* extra = op.noperands > at + 1 ? &operand(op, ctx, at + 1) : nullptr;
  const OperandRow* dst = at == 1 ? &operand(op, ctx, 0) : nullptr;
  bool ok = true;
  for_lanes(mask, [&](int l) {
    if (!ok) return;
    std::uint64_t address = 0;
    std::uint8_t* p = shared_object(op, w, l, bar, op.space, cluster, 8, 8, "the mbarrier", ctx, address);
    if (p == nullptr) {
      ok = false;
      return;
    }
    std::uint8_t* written = nullptr;
    cluster_shared(ctx, address, 8, &written);
    std::uint64_t bits;
    std::memcpy(&bits, p, 8);
    if (op.opcode == Opcode::MbarrierInit) {
      std::uint64_t count = extra != nullptr ? value(w, *extra, l) : 0;
      if (count < 1 || count > mbarrier::kMaxCount) {
        ok = async_error(w, l, ctx, "mbarrier.init with count " + std::to_string(count) + " (1 to 1048575) at " + ctx.where());
        return;
      }
      bits = mbarrier::init(static_cast<std::uint32_t>(count));
      std::memcpy(p, &bits, 8);
      if (written != nullptr) std::memset(written, 1, 8);
      return;
    }
    if (op.opcode == Opcode::MbarrierInval) return;
    // cp.async.mbarrier.arrive: an arrival once the thread's cp.async copies are done (they
    // are, here). Without .noinc it first adds one to the pending count, so it nets out.
    if (op.opcode == Opcode::CpAsyncMbarrierArrive && (op.variant & ptx::async::NoInc) == 0) return;
    if (written != nullptr && std::memchr(written, 0, 8) != nullptr) {
      ok = async_error(w, l, ctx, "mbarrier at shared " + hex(address & kClusterOffsetMask) +
                                      " used before mbarrier.init at " + ctx.where());
      return;
    }
    if (op.opcode == Opcode::MbarrierTestWait || op.opcode == Opcode::MbarrierTryWait) {
      std::uint64_t arg = extra != nullptr ? value(w, *extra, l) : 0;
      bool parity = (op.variant & ptx::async::Parity) != 0;
      bool complete = parity ? mbarrier::phase_complete_parity(bits, static_cast<std::uint32_t>(arg))
                             : mbarrier::phase_complete_token(bits, arg);
      if (complete) {
        w.row(dst->row)[l] = 1;
      } else {
        ctx.wait_lanes |= 1u << l;
        ctx.wait_address = address;
        ctx.wait_parity = parity ? static_cast<int>(arg & 1u) : -1;
      }
      return;
    }
    mbarrier::Update u;
    switch (op.opcode) {
      case Opcode::CpAsyncMbarrierArrive:
        u = mbarrier::arrive(bits, 1, 0, false);
        break;
      case Opcode::MbarrierArrive: case Opcode::MbarrierArriveDrop: {
        bool expect = (op.variant & ptx::async::ExpectTx) != 0;
        std::uint64_t arg = extra != nullptr ? value(w, *extra, l) : 1;
        std::uint32_t count = expect ? 1u : static_cast<std::uint32_t>(arg);
        std::uint32_t tx = expect ? static_cast<std::uint32_t>(arg) : 0u;
        u = mbarrier::arrive(bits, count, tx, op.opcode == Opcode::MbarrierArriveDrop);
        if (dst != nullptr) w.row(dst->row)[l] = bits;  // the state before: its phase is the token's
        break;
      }
      case Opcode::MbarrierExpectTx:
        u = mbarrier::expect_tx(bits, static_cast<std::uint32_t>(extra != nullptr ? value(w, *extra, l) : 0));
        break;
      default:
        u = mbarrier::complete_tx(bits, static_cast<std::uint32_t>(extra != nullptr ? value(w, *extra, l) : 0));
        break;
    }
    std::memcpy(p, &u.bits, 8);
    if (u.completed) ++*ctx.mbarrier_epoch;
    if (u.overflow) {
      mbarrier::State s = mbarrier::decode(bits);
      async_error(w, l, ctx,
                  "mbarrier at shared " + hex(address & kClusterOffsetMask) + " got more arrivals than pending (" +
                      std::to_string(s.pending) + " of " + std::to_string(s.expected) +
                      "), or its tx-count left -(2^20-1)..2^20-1, at " + ctx.where(),
                  Diagnostic::Severity::Warning);
    }
  });
  return ok;
}

}  // namespace warpscope::emu
