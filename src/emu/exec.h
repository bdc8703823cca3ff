// exec.h: what the per-family executors see of the running block. Internal.
//
// The block runner (block.cc) picks a warp's next operation and its lanes, applies the
// guard predicate, and calls the executor of the operation's family (the Family column of
// ptx/opcodes.def): exec_arith.cc, exec_bits.cc, exec_move.cc, exec_memory.cc,
// exec_warp.cc. Control flow and barriers stay in the runner.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "emu/events.h"
#include "emu/memory.h"
#include "emu/program.h"
#include "emu/warp.h"

namespace warpscope::emu {

struct BlockContext {
  const Program* program = nullptr;
  GlobalMemory* memory = nullptr;
  Listener* listener = nullptr;
  const std::vector<Region>* regions = nullptr;  // shared regions first, then buffers
  std::size_t first_buffer_region = 0;
  Dim3 grid, block_dim, block;
  std::uint64_t block_index = 0;
  std::uint8_t* shared = nullptr;
  std::uint32_t shared_size = 0;
  std::uint8_t* shared_written = nullptr;  // one flag per byte; nullptr: not checked
  std::uint8_t* local = nullptr;           // thread t's local memory at t * local_size
  std::uint32_t local_size = 0;
  const std::uint8_t* params = nullptr;
  std::uint32_t param_size = 0;
  const Buffer* last_buffer = nullptr;  // lookup cache
  std::uint32_t pc = 0;                 // of the operation being executed
  bool failed = false;                  // a fatal diagnostic was raised

  // Records a diagnostic for the current operation (deduplicated per pc and kind).
  void diagnose(Diagnostic::Kind kind, Diagnostic::Severity severity, int warp, int lane,
                std::string message);
  std::vector<Diagnostic> diagnostics;
  std::vector<std::int32_t> warned;  // per (pc, kind): 1 + index into diagnostics, or 0

  Dim3 thread_of(int warp, int lane) const;
  // "transpose.cu:15:5" for the current operation: its user position (ptx/source_position.h;
  // a toolkit header's code at the user's call site). Diagnostic::instruction has the PTX line.
  std::string where() const;
};

// Each returns false when it raised a fatal diagnostic (ctx.failed).
bool exec_arith(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_special(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_bits(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_compare(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_move(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_memory(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_warp(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);

// "unsupported instruction 'X' at file:line" as an error diagnostic; returns false.
bool unsupported(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);

}  // namespace warpscope::emu
