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
#include <cstdio>
#include <cstring>

#include "emu/bulk_data.h"
#include "emu/exec_async.h"
#include "emu/lanes.h"
#include "emu/shared_address.h"
#include "emu/tensor_map.h"

namespace warpscope::emu {
namespace {

using ptx::Opcode;
namespace async = ptx::async;

// Lane l's 128 map bytes at operand `o` in `space` (shared or global); nullptr after a
// diagnostic.
std::uint8_t* map_bytes(const Op& op, Warp& w, int l, const OperandRow& o, ptx::Space space, BlockContext& ctx) {
  if (space == ptx::Space::Global) {
    std::uint64_t a = value(w, o, l);
    if (a % 64 != 0) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(a));
      async_error(w, l, ctx, std::string("the tensor map at ") + buf + " is not 64-byte aligned, at " + ctx.where());
      return nullptr;
    }
    return global_bytes(w, l, a, kTensorMapBytes, "tensor-map access", ctx);
  }
  std::uint64_t address = 0;
  std::uint8_t* p = shared_object(op, w, l, o, space, false, kTensorMapBytes, 64, "the tensor map", ctx, address);
  if (p != nullptr && ctx.shared_written != nullptr) std::memset(ctx.shared_written + (address & kClusterOffsetMask), 1, kTensorMapBytes);
  return p;
}

}  // namespace

bool exec_tensormap(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  bool ok = true;
  if (op.opcode == Opcode::TensormapCpFenceproxy) {
    if (op.noperands < 3) return unsupported(op, w, mask, ctx);
    for_lanes(mask, [&](int l) {
      if (!ok) return;
      std::uint64_t size = value(w, operand(op, ctx, 2), l);
      if (size != kTensorMapBytes) {
        ok = async_error(w, l, ctx, "tensormap.cp_fenceproxy of " + std::to_string(size) + " bytes (a map is 128), at " + ctx.where());
        return;
      }
      std::uint8_t* dst = map_bytes(op, w, l, operand(op, ctx, 0), ptx::Space::Global, ctx);
      std::uint64_t src_address = 0;
      const std::uint8_t* src = dst == nullptr ? nullptr
                                               : shared_object(op, w, l, operand(op, ctx, 1), op.space2, false, kTensorMapBytes,
                                                               64, "the tensor map", ctx, src_address);
      if (src == nullptr) {
        ok = false;
        return;
      }
      std::memcpy(dst, src, kTensorMapBytes);
    });
    return ok;
  }
  const async::MapField field = async::map_field(op.variant);
  const bool ordinal = field == async::MapField::BoxDim || field == async::MapField::GlobalDim ||
                       field == async::MapField::GlobalStride || field == async::MapField::ElementStride;
  if (field == async::MapField::None || op.noperands < (ordinal ? 3 : 2)) return unsupported(op, w, mask, ctx);
  for_lanes(mask, [&](int l) {
    if (!ok) return;
    std::uint8_t* map = map_bytes(op, w, l, operand(op, ctx, 0), op.space, ctx);
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
  return ok;
}

}  // namespace warpscope::emu
