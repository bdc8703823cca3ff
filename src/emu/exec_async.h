// exec_async.h: the executors of the Async family (ptx/opcodes.def) and what they share.
// Internal.
//
//   exec_async.cc        dispatch; elect.sync, mapa, getctarank
//   exec_mbarrier.cc     mbarrier.* (state: mbarrier.h)
//   exec_bulk_copy.cc    cp.async.bulk, cp.reduce.async.bulk, cp.async.bulk.prefetch
//   exec_tensor_copy.cc  cp.async.bulk.tensor (TMA), its reduce and prefetch forms
//   exec_tensormap.cc    tensormap.replace, tensormap.cp_fenceproxy
//
// Asynchronous copies complete when they are issued (a valid order of events: the
// hardware may finish a copy at any time before the wait that observes it), so their
// bytes move at once and their mbarrier's transaction count drops at once.
#pragma once

#include <cstdint>
#include <string>

#include "emu/exec.h"
#include "emu/memory_access.h"
#include "ptx/async_variant.h"

namespace warpscope::emu {

bool exec_mbarrier(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_bulk_copy(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_tensor_copy(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_tensormap(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);

// Operand k of an Async op (Program::operand_rows), and lane l's value of it.
inline const OperandRow& operand(const Op& op, const BlockContext& ctx, int k) {
  return ctx.program->operand_rows[op.operands + static_cast<std::uint32_t>(k)];
}
inline std::uint64_t value(const Warp& w, const OperandRow& o, int lane) {
  return const_cast<Warp&>(w).row(o.row)[lane] + static_cast<std::uint64_t>(o.offset);
}

// An error (or warning) of kind AsyncMisuse at the current operation, naming the
// block and thread; returns false for errors.
bool async_error(Warp& w, int lane, BlockContext& ctx, const std::string& message,
                 Diagnostic::Severity severity = Diagnostic::Severity::Error);

// Lane l's shared-memory object at operand `o` (an mbarrier, a bulk copy's shared end):
// a .shared::cta or .shared::cluster address (op.space Shared, flag Cluster) or a
// generic one. Fills `address` with its shared::cluster form; nullptr after an error
// diagnostic (out of bounds, misaligned, not shared memory).
std::uint8_t* shared_object(const Op& op, Warp& w, int lane, const OperandRow& o, ptx::Space space, bool cluster,
                            std::uint64_t width, std::uint64_t align, const char* what, BlockContext& ctx,
                            std::uint64_t& address);

// complete_tx(bytes) on the mbarrier at shared::cluster address `address` (a copy's
// completion); false after an error diagnostic.
bool complete_transaction(Warp& w, int lane, std::uint64_t address, std::uint64_t bytes, BlockContext& ctx);

// A 64-bit generic or global address's bytes for reading (a tensor map, a bulk copy's
// global end): global buffers, or the parameter window (a __grid_constant__ argument).
// nullptr after an error diagnostic.
const std::uint8_t* readable_bytes(Warp& w, int lane, std::uint64_t address, std::uint64_t size, const char* what,
                                   BlockContext& ctx);

}  // namespace warpscope::emu
