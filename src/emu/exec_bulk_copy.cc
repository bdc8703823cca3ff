// exec_bulk_copy.cc: the non-tensor bulk copies: cp.async.bulk global -> shared::cluster
// (mbarrier::complete_tx::bytes, multicast::cluster), shared::cta -> shared::cluster,
// shared::cta -> global (bulk_group), cp.reduce.async.bulk, cp.async.bulk.prefetch.L2.
//
//   [dst], [src], size {, [mbar]} {, ctaMask} {, cache-policy} {, byteMask}
//   prefetch: [src], size {, cache-policy}
//
// Sizes and both addresses are multiples of 16 bytes. Each active lane copies its range.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>

#include "emu/bulk_data.h"
#include "emu/exec_async.h"
#include "emu/lanes.h"
#include "emu/shared_address.h"

namespace warpscope::emu {
namespace {

using ptx::Opcode;
namespace async = ptx::async;

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::uint64_t sectors_of(std::uint64_t address, std::uint64_t bytes) {
  return bytes == 0 ? 0 : (address + bytes - 1) / 32 - address / 32 + 1;
}

// The TMA unit moves a bulk copy's range in 128-byte pieces from its first byte, each piece
// reading (or writing) the sectors it touches: H200, corpus/hopper bulk_copy, 4096 bytes from
// 16 bytes past a 128-byte line read 160 sectors (5 a piece) where the range touches 129.
std::uint64_t piece_sectors(std::uint64_t address, std::uint64_t bytes) {
  std::uint64_t n = 0;
  for (std::uint64_t off = 0; off < bytes; off += 128) n += sectors_of(address + off, std::min<std::uint64_t>(128, bytes - off));
  return n;
}

}  // namespace

bool exec_bulk_copy(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  const bool prefetch = op.opcode == Opcode::CpAsyncBulkPrefetch;
  const bool reduce = op.opcode == Opcode::CpReduceAsyncBulk;
  const bool to_shared = !prefetch && op.space == ptx::Space::Shared;
  const bool from_shared = !prefetch && op.space2 == ptx::Space::Shared;
  const bool with_mbar = (op.variant & async::CompleteTx) != 0;
  const int src = prefetch ? 0 : 1, size_at = prefetch ? 1 : 2;
  if (op.noperands < size_at + 1 + (with_mbar ? 1 : 0)) return unsupported(op, w, mask, ctx);
  tmap::DataType type = tmap::DataType::U8;
  if (reduce && !data_type_of(op.type, type)) return unsupported(op, w, mask, ctx);
  BulkCopyEvent e;
  e.instruction = op.origin;
  e.pc = ctx.pc;
  e.block = ctx.block;
  e.block_index = ctx.block_index;
  e.warp = w.index;
  e.tensor = false;
  e.kind = prefetch ? BulkCopyEvent::Kind::Prefetch
           : reduce ? BulkCopyEvent::Kind::Reduce
           : to_shared ? BulkCopyEvent::Kind::Load
                       : BulkCopyEvent::Kind::Store;
  bool ok = true;
  for_lanes(mask, [&](int l) {
    if (!ok) return;
    const std::uint64_t size = value(w, operand(op, ctx, size_at), l);
    e.lane = l;
    e.first_of_warp = l == std::countr_zero(mask);
    e.bytes = size;
    e.row_bytes = static_cast<std::uint32_t>(size);
    e.swizzle_bytes = 0;
    e.destinations = 1;
    e.footprint = nullptr;
    ctx.copy_chunks.clear();
    if (size % 16 != 0) {
      ok = async_error(w, l, ctx, "a bulk copy of " + std::to_string(size) + " bytes, not a multiple of 16, at " + ctx.where());
      return;
    }
    if (prefetch) {
      std::uint64_t a = value(w, operand(op, ctx, src), l);
      e.global_bytes = size;
      e.global_sectors = sectors_of(a, size);
      e.ideal_sectors = (size + 31) / 32;
      if (ctx.listener) ctx.listener->on_bulk_copy(e);
      return;
    }
    // The source.
    const std::uint8_t* from = nullptr;
    std::uint64_t global = 0;
    std::uint64_t src_shared = 0;
    if (from_shared) {
      std::uint8_t* p = shared_object(op, w, l, operand(op, ctx, src), op.space2, false, size, 16, "the bulk copy's source", ctx,
                                      src_shared);
      if (p == nullptr) {
        ok = false;
        return;
      }
      from = p;
    } else {
      global = value(w, operand(op, ctx, src), l);
      if (global % 16 != 0) {
        ok = async_error(w, l, ctx, "the bulk copy's source " + hex(global) + " is not 16-byte aligned, at " + ctx.where());
        return;
      }
      from = global_bytes(w, l, global, size, "bulk copy read", ctx);
      if (from == nullptr) {
        ok = false;
        return;
      }
    }
    if (to_shared) {
      std::uint64_t dst_address = 0;
      if (shared_object(op, w, l, operand(op, ctx, 0), op.space, op.has(ptx::flag::Cluster), size, 16,
                        "the bulk copy's destination", ctx, dst_address) == nullptr) {
        ok = false;
        return;
      }
      std::uint32_t ranks = 1u << cluster_rank_of(dst_address, ctx.cluster_rank);
      const int mask_at = size_at + 2;
      if ((op.variant & async::Multicast) && op.noperands > mask_at)
        ranks = static_cast<std::uint32_t>(value(w, operand(op, ctx, mask_at), l)) & ((1u << ctx.cluster->size) - 1u);
      const std::uint64_t offset = dst_address & kClusterOffsetMask;
      e.shared = static_cast<std::uint32_t>(offset);
      e.destinations = 0;
      for (int rank = 0; rank < 32; ++rank) {
        if (!((ranks >> rank) & 1u)) continue;
        std::uint8_t* written = nullptr;
        std::uint8_t* to = cluster_shared(ctx, cluster_address(offset, rank), size, &written);
        if (to == nullptr) {
          ok = async_error(w, l, ctx, "a bulk copy to block rank " + std::to_string(rank) + " outside the cluster, at " + ctx.where());
          return;
        }
        if (reduce) {
          if (!reduce_elements(to, from, size / static_cast<std::uint64_t>(tmap::element_bytes(type)), type, op.subop)) {
            ok = unsupported(op, w, mask, ctx);
            return;
          }
        } else {
          std::memmove(to, from, size);
        }
        if (written != nullptr) std::memset(written, 1, size);
        if (with_mbar) {
          std::uint64_t bar = value(w, operand(op, ctx, size_at + 1), l) & kClusterOffsetMask;
          if (!complete_transaction(w, l, cluster_address(bar, rank), size, ctx)) {
            ok = false;
            return;
          }
        }
        ++e.destinations;
      }
      for (std::uint32_t c = 0; c < size; c += 16)
        ctx.copy_chunks.push_back(SharedChunk{static_cast<std::uint32_t>(offset) + c, 0, c});
      e.footprint = &ctx.copy_chunks;
    } else {
      global = value(w, operand(op, ctx, 0), l);
      if (global % 16 != 0) {
        ok = async_error(w, l, ctx, "the bulk copy's destination " + hex(global) + " is not 16-byte aligned, at " + ctx.where());
        return;
      }
      std::uint8_t* to = global_bytes(w, l, global, size, reduce ? "bulk reduction" : "bulk copy write", ctx);
      if (to == nullptr) {
        ok = false;
        return;
      }
      if (reduce) {
        if (!reduce_elements(to, from, size / static_cast<std::uint64_t>(tmap::element_bytes(type)), type, op.subop)) {
          ok = unsupported(op, w, mask, ctx);
          return;
        }
      } else {
        std::memcpy(to, from, size);
      }
      e.shared = static_cast<std::uint32_t>(src_shared & kClusterOffsetMask);
      for (std::uint32_t c = 0; c < size; c += 16) ctx.copy_chunks.push_back(SharedChunk{e.shared + c, 0, c});
      e.footprint = &ctx.copy_chunks;
    }
    e.global_bytes = from_shared && to_shared ? 0 : size;
    e.global_sectors = from_shared && to_shared ? 0 : piece_sectors(global, size);
    e.ideal_sectors = from_shared && to_shared ? 0 : (size + 31) / 32;
    if (ctx.listener) ctx.listener->on_bulk_copy(e);
  });
  return ok;
}

}  // namespace warpscope::emu
