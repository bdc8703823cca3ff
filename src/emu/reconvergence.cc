// reconvergence.cc: immediate post-dominators of branch blocks (iterative bit sets).
//
// A block that cannot reach the exit (an endless loop) keeps every block as a
// post-dominator; its branches then get no sync point unless one is found on the chain.
#include "emu/reconvergence.h"

#include <algorithm>
#include <bit>
#include <vector>

namespace warpscope::emu {
namespace {

using Bits = std::vector<std::uint64_t>;

bool test(const Bits& b, std::size_t i) { return (b[i / 64] >> (i % 64)) & 1u; }
void set(Bits& b, std::size_t i) { b[i / 64] |= 1ull << (i % 64); }

bool ends_block(const Op& op) {
  return op.opcode == ptx::Opcode::Bra || op.opcode == ptx::Opcode::Ret || op.opcode == ptx::Opcode::Exit ||
         op.opcode == ptx::Opcode::Trap;
}

}  // namespace

void set_reconvergence_points(Program& program, std::uint32_t begin, std::uint32_t end) {
  if (end <= begin) return;
  std::uint32_t n = end - begin;
  // Leaders: the first instruction, branch targets, and what follows a block's end.
  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  for (std::uint32_t pc = begin; pc < end; ++pc) {
    const Op& op = program.code[pc];
    if (op.opcode == ptx::Opcode::Bra && op.target >= begin && op.target < end) leader[op.target - begin] = true;
    if (ends_block(op) && pc + 1 < end) leader[pc + 1 - begin] = true;
  }
  std::vector<std::uint32_t> block_of(n), first;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (leader[i]) first.push_back(i);
    block_of[i] = static_cast<std::uint32_t>(first.size() - 1);
  }
  const std::size_t blocks = first.size(), exit = blocks, nodes = blocks + 1;
  std::vector<std::vector<std::size_t>> succ(blocks);
  for (std::size_t b = 0; b < blocks; ++b) {
    std::uint32_t last = (b + 1 < blocks ? first[b + 1] : n) - 1;
    const Op& op = program.code[begin + last];
    bool guarded = op.guard != kNoRow;
    auto fallthrough = [&] { succ[b].push_back(last + 1 < n ? block_of[last + 1] : exit); };
    if (op.opcode == ptx::Opcode::Bra) {
      succ[b].push_back(op.target >= begin && op.target < end ? block_of[op.target - begin] : exit);
      if (guarded) fallthrough();
    } else if (ends_block(op)) {
      succ[b].push_back(exit);
      if (guarded) fallthrough();
    } else {
      fallthrough();
    }
  }
  // pdom(exit) = {exit}; pdom(b) = {b} + intersection of pdom(successors).
  const std::size_t words = (nodes + 63) / 64;
  std::vector<Bits> pdom(nodes, Bits(words, ~0ull));
  pdom[exit].assign(words, 0);
  set(pdom[exit], exit);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t b = blocks; b-- > 0;) {
      Bits next(words, ~0ull);
      for (std::size_t s : succ[b])
        for (std::size_t k = 0; k < words; ++k) next[k] &= pdom[s][k];
      set(next, b);
      if (next != pdom[b]) {
        pdom[b] = std::move(next);
        changed = true;
      }
    }
  }
  // The strict post-dominators of b form a chain; the immediate one is the closest to b,
  // the one with the most post-dominators of its own.
  std::vector<int> depth(nodes, 0);
  for (std::size_t d = 0; d < nodes; ++d)
    for (std::uint64_t word : pdom[d]) depth[d] += std::popcount(word);
  for (std::size_t b = 0; b < blocks; ++b) {
    std::uint32_t last = (b + 1 < blocks ? first[b + 1] : n) - 1;
    Op& op = program.code[begin + last];
    op.reconverge = kNoRow;
    if (op.opcode != ptx::Opcode::Bra || op.guard == kNoRow) continue;
    std::size_t best = exit;
    for (std::size_t d = 0; d < blocks; ++d)
      if (d != b && test(pdom[b], d) && (best == exit || depth[d] > depth[best])) best = d;
    if (best == exit) continue;
    // Lanes that only meet to return or exit do not wait for each other.
    ptx::Opcode at = program.code[begin + first[best]].opcode;
    if (at != ptx::Opcode::Ret && at != ptx::Opcode::Exit) op.reconverge = begin + first[best];
  }
}

}  // namespace warpscope::emu
