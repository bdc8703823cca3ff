// tensor_exec.h: the Tensor family's executors (opcodes.def: mma, wmma.*, wgmma.mma_async).
// Internal to the emulator.
//
// mma.sync and wmma.* are warp instructions: exec_tensor runs them for one warp, like the
// other families' executors (they need all 32 lanes). wgmma.mma_async belongs to a
// warpgroup, four consecutive warps (warps 4g..4g+3): the block runner lets each warp wait
// at it, like at a barrier, until all four have arrived, then calls exec_wgmma once for
// the four (block.cc, BlockRunner::warpgroup).
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>

#include "emu/exec.h"

namespace warpscope::emu {

bool exec_tensor(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_wmma_memory(const Op& op, Warp& w, BlockContext& ctx);
// The four warps of the warpgroup, in order; each arrived with all its lanes.
bool exec_wgmma(const Op& op, const std::array<Warp*, 4>& warps, BlockContext& ctx);

// Data of the current instruction (ctx.pc) that `make` computes on its first run by this
// worker (fragment layouts, access plans): a GEMM runs the same mma in every iteration.
// Each call site keeps its own cache, emptied when the worker moves to another program.
template <class T, class Make>
const T& per_instruction(const BlockContext& ctx, Make&& make) {
  thread_local std::uint64_t program = 0;
  thread_local std::unordered_map<std::uint32_t, T> cache;
  if (program != ctx.program->id) {
    cache.clear();
    program = ctx.program->id;
  }
  auto it = cache.find(ctx.pc);
  if (it == cache.end()) it = cache.emplace(ctx.pc, make()).first;
  return it->second;
}

// False (with an error diagnostic) unless all 32 lanes run the instruction.
bool needs_whole_warp(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);

}  // namespace warpscope::emu
