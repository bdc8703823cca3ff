// exec_tensor_copy.cc: TMA: cp.async.bulk.tensor (tile mode) global -> shared with
// mbarrier::complete_tx::bytes (and multicast::cluster), shared -> global (bulk_group),
// cp.reduce.async.bulk.tensor, cp.async.bulk.prefetch.tensor.
//
//   load    [dst], [map, {c0..}], [mbar] {, ctaMask} {, cache-policy}
//   store   [map, {c0..}], [src] {, cache-policy}          (reduce: the same)
//   prefetch [map, {c0..}] {, cache-policy}
//
// Each active lane issues its own copy. The box (tensor_box.h) moves at once; a load's
// transaction bytes are the whole box's, out-of-bounds fill included, as the hardware
// counts them.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>

#include "emu/bulk_data.h"
#include "emu/exec_async.h"
#include "emu/lanes.h"
#include "emu/shared_address.h"
#include "emu/tensor_box.h"
#include "emu/tensor_map.h"

namespace warpscope::emu {
namespace {

using ptx::Opcode;
namespace async = ptx::async;

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// The tensor map at a lane's operand, decoded and checked; false after a diagnostic.
bool read_map(Warp& w, int lane, const OperandRow& o, int dims, BlockContext& ctx, tmap::TensorMapFields& map) {
  std::uint64_t a = value(w, o, lane);
  if (a % 64 != 0)
    return async_error(w, lane, ctx, "the tensor map at " + hex(a) + " is not 64-byte aligned, at " + ctx.where());
  const std::uint8_t* bytes = readable_bytes(w, lane, a, kTensorMapBytes, "the tensor map", ctx);
  if (bytes == nullptr) return false;
  map = decode_tensor_map(bytes);
  std::string why;
  if (!tmap::check_tensor_map(map, why))
    return async_error(w, lane, ctx, "the tensor map at " + hex(a) + " is not valid (" + why + "), at " + ctx.where());
  if (map.rank != dims)
    return async_error(w, lane, ctx,
                       "a " + std::to_string(dims) + "d copy with a rank-" + std::to_string(map.rank) +
                           " tensor map, at " + ctx.where());
  return true;
}

struct Layout {
  int map = 0, coords = 0, shared = -1, mbar = -1, mask = -1;
};

Layout layout_of(const Op& op, int dims, bool load, bool prefetch) {
  Layout l;
  if (prefetch) {
    l.coords = 1;
  } else if (load) {
    l.shared = 0;
    l.map = 1;
    l.coords = 2;
    l.mbar = 2 + dims;
    if (op.variant & async::Multicast) l.mask = 3 + dims;
  } else {
    l.coords = 1;
    l.shared = 1 + dims;
  }
  return l;
}

}  // namespace

bool exec_tensor_copy(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  const int dims = async::dims(op.variant);
  if (dims < 1 || dims > tmap::kMaxRank) return unsupported(op, w, mask, ctx);
  if (op.variant & async::Im2col)
    return async_error(w, std::countr_zero(mask), ctx, "im2col tensor copies are not emulated (tile mode only), at " + ctx.where());
  const bool prefetch = op.opcode == Opcode::CpAsyncBulkPrefetchTensor;
  const bool reduce = op.opcode == Opcode::CpReduceAsyncBulkTensor;
  const bool load = !prefetch && !reduce && op.space == ptx::Space::Shared;
  const Layout at = layout_of(op, dims, load, prefetch);
  const int needed = std::max({at.coords + dims, at.shared + 1, at.mbar + 1, at.mask + 1});
  if (op.noperands < needed) return unsupported(op, w, mask, ctx);
  BulkCopyEvent e;
  e.instruction = op.origin;
  e.pc = ctx.pc;
  e.block = ctx.block;
  e.block_index = ctx.block_index;
  e.warp = w.index;
  e.tensor = true;
  e.kind = prefetch ? BulkCopyEvent::Kind::Prefetch
           : reduce ? BulkCopyEvent::Kind::Reduce
           : load   ? BulkCopyEvent::Kind::Load
                    : BulkCopyEvent::Kind::Store;
  bool ok = true;
  for_lanes(mask, [&](int l) {
    if (!ok) return;
    tmap::TensorMapFields map;
    if (!read_map(w, l, operand(op, ctx, at.map), dims, ctx, map)) {
      ok = false;
      return;
    }
    std::int32_t coords[tmap::kMaxRank] = {0, 0, 0, 0, 0};
    for (int i = 0; i < dims; ++i) coords[i] = static_cast<std::int32_t>(value(w, operand(op, ctx, at.coords + i), l));
    const BoxShape shape = box_shape(map);
    const std::vector<BoxRow> rows = box_rows(map, shape, coords);
    const std::uint32_t esize = shape.element_bytes;
    e.lane = l;
    e.first_of_warp = l == std::countr_zero(mask);
    e.bytes = shape.bytes();
    e.global_sectors = load || prefetch ? box_load_sectors(rows, shape) : box_sectors(rows, esize);
    e.ideal_sectors = box_ideal_sectors(rows, esize) + (load || prefetch ? box_load_sectors(rows, shape) - box_sectors(rows, esize) : 0);
    e.global_bytes = 0;
    for (const BoxRow& r : rows) e.global_bytes += static_cast<std::uint64_t>(r.hi - r.lo) * esize;
    e.row_bytes = shape.row_bytes;
    e.swizzle_bytes = static_cast<std::uint32_t>(tmap::swizzle_bytes(map.swizzle));
    e.destinations = 1;
    ctx.copy_chunks.clear();
    // What the H200 faults on (compute-sanitizer on corpus/hopper tma_layout launches): a box
    // row narrower than its swizzle's span ("Out-of-range shared or local address" at the load:
    // hopper_tma_narrow128, 64-byte rows with the 128B swizzle), and a store or reduction whose
    // box starts at a negative coordinate ("Illegal instruction" at UTMASTG in exactly the
    // blocks whose box does: hopper_tma_oob; loads fill such boxes, and boxes past the far
    // end store fine).
    if (!prefetch && e.swizzle_bytes > 0 && shape.row_bytes < e.swizzle_bytes) {
      ok = async_error(w, l, ctx,
                       "a TMA box of " + std::to_string(shape.row_bytes) + "-byte rows with the " +
                           std::to_string(e.swizzle_bytes) + "B swizzle: the H200 faults on it (an out-of-range shared address); make the "
                           "box's inner dimension " + std::to_string(e.swizzle_bytes) + " bytes or use a smaller swizzle, at " + ctx.where());
      return;
    }
    if (!load && !prefetch)
      for (int i = 0; i < dims; ++i)
        if (coords[i] < 0) {
          ok = async_error(w, l, ctx,
                           std::string("a TMA ") + (reduce ? "reduction" : "store") + " whose box starts at coordinate " +
                               std::to_string(coords[i]) + " of dimension " + std::to_string(i) +
                               ": the H200 stops with an illegal instruction (stores may run past the tensor's end, "
                               "not start before it), at " + ctx.where());
          return;
        }
    if (prefetch) {
      e.shared = 0;
      e.footprint = nullptr;
      if (ctx.listener) ctx.listener->on_bulk_copy(e);
      return;
    }
    // The shared end: 128-byte aligned, the whole box inside the block's shared memory,
    // and so is every chunk the swizzle moves (it may move one past the box's last row).
    std::uint64_t shared_address = 0;
    const ptx::Space space = load ? op.space : op.space2;
    if (shared_object(op, w, l, operand(op, ctx, at.shared), space, load && op.has(ptx::flag::Cluster), e.bytes, 128,
                      "the TMA box's shared memory", ctx, shared_address) == nullptr) {
      ok = false;
      return;
    }
    const auto offset = static_cast<std::uint32_t>(shared_address & kClusterOffsetMask);
    // A swizzle moves chunks within their 128-byte row only: the last row's end bounds them.
    if (map.swizzle != tmap::Swizzle::None) {
      std::uint32_t top = 0;
      for (std::uint64_t c = (e.bytes > 128 ? e.bytes - 128 : 0); c < e.bytes; c += 16)
        top = std::max(top, swizzle_address(offset + static_cast<std::uint32_t>(c), map.swizzle) + 16);
      if (top > ctx.shared_size) {
        ok = async_error(w, l, ctx,
                         "the swizzled TMA box reaches shared byte " + std::to_string(top) + ", past the block's " +
                             std::to_string(ctx.shared_size) + ", at " + ctx.where());
        return;
      }
    }
    e.shared = offset;
    for (const BoxRow& r : rows)
      for (std::uint32_t c = 0; c < shape.row_bytes; c += 16) {
        std::uint32_t linear = offset + static_cast<std::uint32_t>(r.index) * shape.row_bytes + c;
        ctx.copy_chunks.push_back(SharedChunk{swizzle_address(linear, map.swizzle), static_cast<std::uint32_t>(r.index), c});
      }
    // Which blocks a load writes: the one addressed, or every block of the multicast mask.
    std::uint32_t ranks = 1u << cluster_rank_of(shared_address, ctx.cluster_rank);
    if (load && at.mask >= 0)
      ranks = static_cast<std::uint32_t>(value(w, operand(op, ctx, at.mask), l)) & ((1u << ctx.cluster->size) - 1u);
    ctx.copy_row.resize(shape.row_bytes);
    std::uint8_t* row = ctx.copy_row.data();
    const std::uint64_t fill = fill_pattern(map);
    int destinations = 0;
    for (int rank = 0; rank < 32 && ok; ++rank) {
      if (!((ranks >> rank) & 1u)) continue;
      ++destinations;
      std::uint8_t* written = nullptr;
      std::uint8_t* smem = cluster_shared(ctx, cluster_address(0, rank), ctx.shared_size, &written);
      if (smem == nullptr) {
        ok = async_error(w, l, ctx, "a multicast to block rank " + std::to_string(rank) + " outside the cluster, at " + ctx.where());
        return;
      }
      for (const BoxRow& r : rows) {
        const std::uint64_t in_bytes = static_cast<std::uint64_t>(r.hi - r.lo) * esize;
        std::uint8_t* g = nullptr;
        if (in_bytes > 0) {
          g = global_bytes(w, l, r.global, in_bytes, load ? "TMA load" : "TMA store", ctx);
          if (g == nullptr) {
            ok = false;
            return;
          }
        }
        const std::uint32_t base = offset + static_cast<std::uint32_t>(r.index) * shape.row_bytes;
        if (load) {
          for (std::uint32_t b = 0; b < shape.row_bytes; b += esize) std::memcpy(row + b, &fill, esize);
          if (in_bytes > 0) std::memcpy(row + static_cast<std::size_t>(r.lo) * esize, g, in_bytes);
          for (std::uint32_t c = 0; c < shape.row_bytes; c += 16) {
            std::uint32_t s = swizzle_address(base + c, map.swizzle);
            std::memcpy(smem + s, row + c, 16);
            if (written != nullptr) std::memset(written + s, 1, 16);
          }
        } else {
          for (std::uint32_t c = 0; c < shape.row_bytes; c += 16)
            std::memcpy(row + c, smem + swizzle_address(base + c, map.swizzle), 16);
          if (in_bytes == 0) continue;
          const std::uint8_t* src = row + static_cast<std::size_t>(r.lo) * esize;
          if (!reduce) {
            std::memcpy(g, src, in_bytes);
          } else if (!reduce_elements(g, src, in_bytes / esize, map.dtype, op.subop)) {
            ok = async_error(w, l, ctx,
                             std::string("a TMA reduction that does not apply to ") + tmap::dtype_name(map.dtype) +
                                 " elements, at " + ctx.where());
            return;
          }
        }
      }
      if (load && !complete_transaction(w, l, cluster_address(value(w, operand(op, ctx, at.mbar), l) & kClusterOffsetMask, rank),
                                        e.bytes, ctx)) {
        ok = false;
        return;
      }
    }
    e.destinations = destinations;
    e.footprint = &ctx.copy_chunks;
    if (ctx.listener) ctx.listener->on_bulk_copy(e);
  });
  return ok;
}

}  // namespace warpscope::emu
