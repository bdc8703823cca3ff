// exec_tensormap.cc: tensor maps built on the device, as Triton's tl.make_tensor_descriptor
// does: zero 128 bytes of shared memory, fill them with tensormap.replace.tile.<field>,
// copy them to global memory with tensormap.cp_fenceproxy (the fence.proxy.tensormap
// that follows is a no-op here), and hand the global copy to cp.async.bulk.tensor.
//
//   tensormap.replace.tile.<field>.<shared::cta|global>.b1024.<b32|b64> [map], {ord,} value
//   tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned
//       [dst], [src], 128
//
// The bytes follow tensor_map.h's layout; the map is checked when a copy uses it.
//
// What runs (H200, corpus/hopper tma_device_map and Triton's descriptors): ptxas writes a
// tensormap.replace as loads and stores of the map's words (LDS/STS, or LDG/STG for a map in
// global memory), and the copy as an LDS of one word a lane and an ATOMG.EXCH of it to
// global memory. Events: a replace publishes one store of 4 bytes at the map for its lanes
// (the analyses price the words the SASS shows: analysis/sass_tensormap.cc); the copy, lane
// l's word l read from shared memory and exchanged into global memory.
#include <cstdio>
#include <cstring>

#include "emu/bulk_data.h"
#include "emu/exec_async.h"
#include "emu/lanes.h"
#include "emu/memory_access.h"
#include "emu/shared_address.h"
#include "emu/tensor_map.h"

namespace warpscope::emu {
namespace {

using ptx::Opcode;
namespace async = ptx::async;

// Lane l's 128 map bytes at operand `o` in `space` (shared or global); nullptr after a
// diagnostic. `at` gets the lane's address for its event.
std::uint8_t* map_bytes(const Op& op, Warp& w, int l, const OperandRow& o, ptx::Space space, BlockContext& ctx,
                        LaneAccess& at) {
  if (space == ptx::Space::Global) {
    std::uint64_t a = value(w, o, l);
    if (a % 64 != 0) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(a));
      async_error(w, l, ctx, std::string("the tensor map at ") + buf + " is not 64-byte aligned, at " + ctx.where());
      return nullptr;
    }
    std::uint8_t* p = global_bytes(w, l, a, kTensorMapBytes, "tensor-map access", ctx);
    if (p != nullptr) {
      if (at.global_lanes == 0) at.buffer = ctx.last_buffer;
      at.global_lanes |= 1u << l;
      at.addr[static_cast<std::size_t>(l)] = a;
    }
    return p;
  }
  std::uint64_t address = 0;
  std::uint8_t* p = shared_object(op, w, l, o, space, false, kTensorMapBytes, 64, "the tensor map", ctx, address);
  if (p != nullptr) {
    if (ctx.shared_written != nullptr) std::memset(ctx.shared_written + (address & kClusterOffsetMask), 1, kTensorMapBytes);
    at.shared_lanes |= 1u << l;
    at.addr[static_cast<std::size_t>(l)] = address & kClusterOffsetMask;
  }
  return p;
}

// Lane l's word l of the map each lane of `at` holds (the copy's LDS and ATOMG.EXCH).
LaneAccess words_of(const LaneAccess& at) {
  LaneAccess w = at;
  for_lanes(at.shared_lanes | at.global_lanes, [&](int l) { w.addr[static_cast<std::size_t>(l)] += 4u * static_cast<unsigned>(l); });
  return w;
}

}  // namespace

bool exec_tensormap(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  bool ok = true;
  LaneAccess at;
  at.mask = mask;
  if (op.opcode == Opcode::TensormapCpFenceproxy) {
    if (op.noperands < 3) return unsupported(op, w, mask, ctx);
    LaneAccess from;
    from.mask = mask;
    for_lanes(mask, [&](int l) {
      if (!ok) return;
      std::uint64_t size = value(w, operand(op, ctx, 2), l);
      if (size != kTensorMapBytes) {
        ok = async_error(w, l, ctx, "tensormap.cp_fenceproxy of " + std::to_string(size) + " bytes (a map is 128), at " + ctx.where());
        return;
      }
      std::uint8_t* dst = map_bytes(op, w, l, operand(op, ctx, 0), ptx::Space::Global, ctx, at);
      std::uint64_t src_address = 0;
      const std::uint8_t* src = dst == nullptr ? nullptr
                                               : shared_object(op, w, l, operand(op, ctx, 1), op.space2, false, kTensorMapBytes,
                                                               64, "the tensor map", ctx, src_address);
      if (src == nullptr) {
        ok = false;
        return;
      }
      from.shared_lanes |= 1u << l;
      from.addr[static_cast<std::size_t>(l)] = src_address & kClusterOffsetMask;
      std::memcpy(dst, src, kTensorMapBytes);
    });
    if (ok) {
      publish(op, w, words_of(from), model::MemOp::SharedLoad, model::MemOp::GlobalLoad, 4, ctx);
      publish(op, w, words_of(at), model::MemOp::SharedStore, model::MemOp::GlobalAtomic, 4, ctx);
    }
    return ok;
  }
  const async::MapField field = async::map_field(op.variant);
  const bool ordinal = field == async::MapField::BoxDim || field == async::MapField::GlobalDim ||
                       field == async::MapField::GlobalStride || field == async::MapField::ElementStride;
  if (field == async::MapField::None || op.noperands < (ordinal ? 3 : 2)) return unsupported(op, w, mask, ctx);
  for_lanes(mask, [&](int l) {
    if (!ok) return;
    std::uint8_t* map = map_bytes(op, w, l, operand(op, ctx, 0), op.space, ctx, at);
    if (map == nullptr) {
      ok = false;
      return;
    }
    auto ord = ordinal ? static_cast<std::uint32_t>(value(w, operand(op, ctx, 1), l)) : 0u;
    std::uint64_t v = value(w, operand(op, ctx, ordinal ? 2 : 1), l);
    if (ptx::type_bits(op.type) == 32) v = static_cast<std::uint32_t>(v);
    std::string why;
    if (!replace_tensor_map_field(map, field, ord, v, why)) ok = async_error(w, l, ctx, op.origin->text + ": " + why + ", at " + ctx.where());
  });
  if (ok) publish(op, w, at, model::MemOp::SharedStore, model::MemOp::GlobalStore, 4, ctx);
  return ok;
}

}  // namespace warpscope::emu
