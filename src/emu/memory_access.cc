// memory_access.cc: address resolution with diagnostics, and access events.
#include "emu/memory_access.h"

#include <cstdio>
#include <cstring>

#include "emu/lanes.h"
#include "emu/special_registers.h"
#include "emu/shared_address.h"

namespace warpscope::emu {
namespace {

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

const char* verb(Intent i) { return i == Intent::Read ? "load" : i == Intent::Write ? "store" : "atomic"; }

bool out_of_bounds(const Op& op, Warp& w, int lane, Where where, std::uint64_t a, int width, Intent intent,
                   BlockContext& ctx) {
  (void)op;
  std::string what;
  if (where == Where::Shared) {
    what = "shared " + std::string(verb(intent)) + " of " + std::to_string(width) + " bytes at offset " + hex(a) +
           " (the block has " + std::to_string(ctx.shared_size) + " bytes of shared memory" +
           (ctx.shared_window > ctx.shared_size
                ? ", its allocation " + std::to_string(ctx.shared_window) + " (rounded up to " +
                      std::to_string(kSharedAllocationUnit) + " bytes)"
                : std::string());
    const Program& p = *ctx.program;
    if (p.uses_dynamic_shared && ctx.shared_size <= p.dynamic_shared_offset && a >= p.dynamic_shared_offset)
      what += ", and none of it dynamic: the kernel's extern __shared__ array gets the bytes the launch gives, so "
              "pass --dyn-smem BYTES as its <<<grid, block, BYTES>>> does";
    what += ")";
  } else if (where == Where::Local) {
    what = "local " + std::string(verb(intent)) + " of " + std::to_string(width) + " bytes at offset " + hex(a) +
           " (each thread has " + std::to_string(ctx.local_size) + " bytes of local memory)";
  } else if (where == Where::Param) {
    what = "parameter " + std::string(verb(intent)) + " at offset " + hex(a);
  } else {
    what = "global " + std::string(verb(intent)) + " of " + std::to_string(width) + " bytes at ";
    const Buffer* near = ctx.memory->nearest(a);
    if (near != nullptr && a >= near->base) {  // as buffer + offset, the way reports show addresses
      what += near->name + "+" + hex(a - near->base) + " (" +
              std::to_string(a + static_cast<std::uint64_t>(width) - near->base - near->size) +
              " bytes past the end of '" + near->name + "', " + std::to_string(near->size) + " bytes)";
    } else if (near != nullptr) {
      what += hex(a) + " (" + std::to_string(near->base - a) + " bytes before '" + near->name + "')";
    } else {
      what += hex(a) + " (no buffer there)";
    }
  }
  ctx.diagnose(Diagnostic::Kind::OutOfBounds, Diagnostic::Severity::Error, w.index, lane,
               "out-of-bounds " + what + " by block " + to_string(ctx.block) + " thread " +
                   to_string(ctx.thread_of(w.index, lane)) + " at " + ctx.where());
  return false;
}

// The common case in one tight loop per step: an explicit shared or global space,
// every lane aligned and inside the shared memory or the last buffer used. False sends
// the access to the general path (generic addresses, lookups, errors).
bool fast_resolve(ptx::Space space, const std::uint64_t* base, std::int64_t offset, std::uint64_t width,
                  Intent intent, std::uint32_t mask, BlockContext& ctx, LaneAccess& out) {
  if (space != ptx::Space::Shared && space != ptx::Space::Global) return false;
  if ((width & (width - 1)) != 0) return false;
  std::uint64_t lo = ~0ull, hi = 0, misaligned = 0;
  const auto off = static_cast<std::uint64_t>(offset);
  for_lanes(mask, [&](int l) {
    std::uint64_t a = base[l] + off;
    out.addr[static_cast<std::size_t>(l)] = a;
    lo = a < lo ? a : lo;
    hi = a > hi ? a : hi;
    misaligned |= a & (width - 1);
  });
  if (misaligned != 0) return false;
  std::uint8_t* bytes;
  if (space == ptx::Space::Shared) {
    if (hi >= ctx.shared_size || hi + width > ctx.shared_size) return false;
    if (ctx.shared_written != nullptr) {
      std::uint8_t* flags = ctx.shared_written;
      // Flags are 0 or 1 per byte: compare whole words of them.
      if (intent == Intent::Read) {
        bool all = true;
        if (width == 4) {
          for_lanes(mask, [&](int l) {
            std::uint32_t f;
            std::memcpy(&f, flags + out.addr[static_cast<std::size_t>(l)], 4);
            all &= f == 0x01010101u;
          });
        } else {
          for_lanes(mask, [&](int l) {
            const std::uint8_t* f = flags + out.addr[static_cast<std::size_t>(l)];
            for (std::uint64_t i = 0; i < width; ++i) all &= f[i] != 0;
          });
        }
        if (!all) return false;  // the general path reports it
      } else if (width == 4) {
        const std::uint32_t ones = 0x01010101u;
        for_lanes(mask, [&](int l) { std::memcpy(flags + out.addr[static_cast<std::size_t>(l)], &ones, 4); });
      } else {
        for_lanes(mask, [&](int l) {
          std::uint8_t* f = flags + out.addr[static_cast<std::size_t>(l)];
          for (std::uint64_t i = 0; i < width; ++i) f[i] = 1;
        });
      }
    }
    bytes = ctx.shared;
    out.shared_lanes = mask;
    out.where.fill(Where::Shared);
  } else {
    const Buffer* b = ctx.last_buffer;
    if (b == nullptr || lo < b->base || hi - b->base + width > b->size) {
      b = ctx.memory->find(lo, width);
      if (b == nullptr || hi - b->base + width > b->size) return false;
      ctx.last_buffer = b;
    }
    std::uint8_t* data = b->bytes.get();
    const std::uint64_t first = b->base;
    for_lanes(mask, [&](int l) { out.ptr[static_cast<std::size_t>(l)] = data + (out.addr[static_cast<std::size_t>(l)] - first); });
    out.buffer = b;
    out.global_lanes = mask;
    out.where.fill(Where::Global);
    return true;
  }
  for_lanes(mask, [&](int l) { out.ptr[static_cast<std::size_t>(l)] = bytes + out.addr[static_cast<std::size_t>(l)]; });
  return true;
}

}  // namespace

bool resolve(const Op& op, ptx::Space space, std::uint32_t row, std::int64_t offset, int width, Intent intent,
             Warp& w, std::uint32_t mask, BlockContext& ctx, LaneAccess& out) {
  return resolve_at(op, space, w.row(row), offset, width, intent, w, mask, ctx, out);
}

bool resolve_at(const Op& op, ptx::Space space, const std::uint64_t* base, std::int64_t offset, int width,
                Intent intent, Warp& w, std::uint32_t mask, BlockContext& ctx, LaneAccess& out) {
  out.mask = mask;
  out.shared_lanes = out.global_lanes = 0;
  auto uwidth = static_cast<std::uint64_t>(width);
  if (fast_resolve(space, base, offset, uwidth, intent, mask, ctx, out)) return true;
  bool ok = true;
  for_lanes(mask, [&](int l) {
    if (!ok) return;
    std::uint64_t a = base[l] + static_cast<std::uint64_t>(offset);
    Where where;
    switch (space) {
      case ptx::Space::Shared: where = Where::Shared; break;
      case ptx::Space::Local: where = Where::Local; break;
      case ptx::Space::Param: where = Where::Param; break;
      case ptx::Space::Global: case ptx::Space::Const: where = Where::Global; break;
      default:
        if (in_shared_window(a)) {
          where = Where::Shared;
          a -= kSharedWindow;
        } else if (in_local_window(a)) {
          where = Where::Local;
          a -= kLocalWindow;
        } else if (in_param_window(a)) {
          where = Where::Param;
          a -= kParamWindow;
        } else {
          where = Where::Global;
        }
    }
    if (width > 1 && (a & (uwidth - 1)) != 0 && (width & (width - 1)) == 0) {
      ctx.diagnose(Diagnostic::Kind::Misaligned, Diagnostic::Severity::Error, w.index, l,
                   "misaligned " + std::string(verb(intent)) + " of " + std::to_string(width) + " bytes at " +
                       hex(a) + " by block " + to_string(ctx.block) + " thread " + to_string(ctx.thread_of(w.index, l)) +
                       " at " + ctx.where());
      ok = false;
      return;
    }
    std::uint8_t* p = nullptr;
    switch (where) {
      case Where::Shared: {
        if (a - kReservedSharedOffset < kReservedSharedBytes && ctx.reserved_shared != nullptr) {
          // The driver's reserved region (special_registers.h): cooperative groups' scratch.
          if (a + uwidth > kReservedSharedOffset + kReservedSharedBytes) {
            ok = out_of_bounds(op, w, l, where, a, width, intent, ctx);
            return;
          }
          p = ctx.reserved_shared + (a - kReservedSharedOffset);
          out.shared_lanes |= 1u << l;
          break;
        }
        if (a > kClusterOffsetMask && ctx.cluster != nullptr) {
          // Another block's shared memory (a .shared::cluster address from mapa): distributed
          // shared memory, not this block's banks, so no shared-memory event.
          std::uint8_t* written = nullptr;
          p = cluster_shared(ctx, a, uwidth, &written);
          if (p == nullptr) {
            ok = out_of_bounds(op, w, l, where, a, width, intent, ctx);
            return;
          }
          if (written != nullptr && intent != Intent::Read)
            for (int i = 0; i < width; ++i) written[i] = 1;
          break;
        }
        if (a + uwidth > ctx.shared_window || a >= ctx.shared_window) {
          ok = out_of_bounds(op, w, l, where, a, width, intent, ctx);
          return;
        }
        const bool past_end = a + uwidth > ctx.shared_size;
        if (past_end)
          ctx.diagnose(Diagnostic::Kind::SharedPastEnd, Diagnostic::Severity::Warning, w.index, l,
                       "shared " + std::string(verb(intent)) + " of " + std::to_string(width) + " bytes at offset " +
                           hex(a) + " is past the end of the block's " + std::to_string(ctx.shared_size) +
                           " bytes of shared memory, inside its " + std::to_string(ctx.shared_window) +
                           "-byte allocation (the GPU does not fault; the bytes belong to no variable), by block " +
                           to_string(ctx.block) + " thread " + to_string(ctx.thread_of(w.index, l)) + " at " +
                           ctx.where());
        p = ctx.shared + a;
        out.shared_lanes |= 1u << l;
        if (ctx.shared_written != nullptr) {
          std::uint8_t* flags = ctx.shared_written + a;
          if (intent == Intent::Read) {
            bool all = true;
            for (int i = 0; i < width; ++i) all &= flags[i] != 0;
            if (!all && !past_end)
              ctx.diagnose(Diagnostic::Kind::UninitializedShared, Diagnostic::Severity::Warning, w.index, l,
                           "shared load at offset " + hex(a) + " reads bytes never written in block " +
                               to_string(ctx.block) + " (thread " + to_string(ctx.thread_of(w.index, l)) + ") at " + ctx.where());
          } else {
            for (int i = 0; i < width; ++i) flags[i] = 1;
          }
        }
        break;
      }
      case Where::Local: {
        if (a + uwidth > ctx.local_size || a >= ctx.local_size) {
          ok = out_of_bounds(op, w, l, where, a, width, intent, ctx);
          return;
        }
        std::size_t thread = static_cast<std::size_t>(w.index) * 32 + static_cast<std::size_t>(l);
        p = ctx.local + thread * ctx.local_size + a;
        break;
      }
      case Where::Param:
        if (a + uwidth > ctx.param_size || intent != Intent::Read) {
          ok = out_of_bounds(op, w, l, where, a, width, intent, ctx);
          return;
        }
        p = const_cast<std::uint8_t*>(ctx.params) + a;
        break;
      case Where::Global: {
        const Buffer* b = ctx.last_buffer;
        if (b == nullptr || a - b->base + uwidth > b->size || a < b->base) {
          b = ctx.memory->find(a, uwidth);
          if (b == nullptr) {
            ok = out_of_bounds(op, w, l, where, a, width, intent, ctx);
            return;
          }
          ctx.last_buffer = b;
        }
        if (out.global_lanes == 0) out.buffer = b;
        p = b->bytes.get() + (a - b->base);
        out.global_lanes |= 1u << l;
        break;
      }
    }
    out.ptr[l] = p;
    out.addr[l] = a;
    out.where[l] = where;
  });
  return ok;
}

void publish(const Op& op, const Warp& w, const LaneAccess& acc, model::MemOp shared_op, model::MemOp global_op,
             int width, BlockContext& ctx, bool async_copy, const model::LdgstsAccess* ldgsts) {
  if (ctx.listener == nullptr) return;
  auto send = [&](std::uint32_t lanes, model::MemOp mem_op, bool shared) {
    if (lanes == 0) return;
    AccessEvent e;
    e.instruction = op.origin;
    e.pc = ctx.pc;
    e.block = ctx.block;
    e.block_index = ctx.block_index;
    e.warp = w.index;
    e.access.op = mem_op;
    e.access.width = width;
    e.access.mask = lanes;
    for_lanes(lanes, [&](int l) { e.access.address[static_cast<std::size_t>(l)] = acc.addr[static_cast<std::size_t>(l)]; });
    e.async_copy = async_copy;
    e.unchanged = acc.unchanged & lanes;
    e.ldgsts = ldgsts;
    int first = std::countr_zero(lanes);
    if (shared) {
      e.region = op.region;
      if (e.region < 0) {
        std::uint64_t a = acc.addr[static_cast<std::size_t>(first)];
        for (std::size_t i = 0; i < ctx.first_buffer_region; ++i) {
          const Region& r = (*ctx.regions)[i];
          if (a >= r.base && a < r.base + r.size) {
            e.region = static_cast<int>(i);
            break;
          }
        }
      }
    } else if (acc.buffer != nullptr) {
      e.region = static_cast<int>(ctx.first_buffer_region) + acc.buffer->index;
    }
    ctx.listener->on_access(e);
  };
  send(acc.shared_lanes & acc.mask, shared_op, true);
  // Constant memory (ld.const) is served by the constant cache, not the LSU's global path.
  if (op.space != ptx::Space::Const) send(acc.global_lanes & acc.mask, global_op, false);
}

}  // namespace warpscope::emu
