// exec_warp.cc: the lanes of one warp talking to each other: shfl.sync, vote.sync,
// match.sync, redux.sync, activemask. Lanes outside the executing mask read as absent.
#include <array>
#include <bit>

#include "emu/exec.h"
#include "emu/lanes.h"

namespace warpscope::emu {
namespace {

using ptx::Opcode;
using ptx::SubOp;

bool predicate(const Op& op, int k, const std::uint64_t* row, int l) {
  return (row[l] != 0) != (((op.negated_src >> k) & 1u) != 0);
}

bool exec_shfl(const Op& op, Warp& w, std::uint32_t mask) {
  std::array<std::uint64_t, 32> a{};
  const std::uint64_t* src = w.row(op.src[0]);
  for (int l = 0; l < 32; ++l) a[static_cast<std::size_t>(l)] = src[l];  // d may alias a
  const std::uint64_t* b = w.row(op.src[1]);
  const std::uint64_t* c = w.row(op.src[2]);
  std::uint64_t* d = w.row(op.dst[0]);
  std::uint64_t* p = op.dst[1] != kNoRow ? w.row(op.dst[1]) : nullptr;
  for_lanes(mask, [&](int lane) {
    int bval = static_cast<int>(b[lane] & 31u);
    int cval = static_cast<int>(c[lane] & 31u);
    int segmask = static_cast<int>((c[lane] >> 8) & 31u);
    int max_lane = (lane & segmask) | (cval & ~segmask);
    int min_lane = lane & segmask;
    int j = lane;
    bool pval = false;
    switch (op.subop) {
      case SubOp::Up: j = lane - bval; pval = j >= max_lane; break;
      case SubOp::Down: j = lane + bval; pval = j <= max_lane; break;
      case SubOp::Bfly: j = lane ^ bval; pval = j <= max_lane; break;
      default: j = min_lane | (bval & ~segmask); pval = j <= max_lane; break;
    }
    if (!pval || j < 0 || j > 31) j = lane;
    d[lane] = static_cast<std::uint32_t>(a[static_cast<std::size_t>(j)]);
    if (p) p[lane] = pval ? 1u : 0u;
  });
  return true;
}

bool exec_vote(const Op& op, Warp& w, std::uint32_t mask) {
  const std::uint64_t* pr = w.row(op.src[0]);
  std::uint32_t ballot = 0;
  for_lanes(mask, [&](int l) {
    if (predicate(op, 0, pr, l)) ballot |= 1u << l;
  });
  std::uint64_t* d = w.row(op.dst[0]);
  std::uint64_t value;
  switch (op.subop) {
    case SubOp::Ballot: value = ballot; break;
    case SubOp::All: value = ballot == mask ? 1u : 0u; break;
    case SubOp::Any: value = ballot != 0 ? 1u : 0u; break;
    default:  // .uni
      value = (ballot == 0 || ballot == mask) ? 1u : 0u;
      break;
  }
  for_lanes(mask, [&](int l) { d[l] = value; });
  return true;
}

bool exec_match(const Op& op, Warp& w, std::uint32_t mask) {
  const std::uint64_t* a = w.row(op.src[0]);
  std::uint64_t* d = w.row(op.dst[0]);
  std::uint64_t* p = op.dst[1] != kNoRow ? w.row(op.dst[1]) : nullptr;
  bool wide = ptx::type_bits(op.type) == 64;
  auto value = [&](int l) { return wide ? a[l] : static_cast<std::uint32_t>(a[l]); };
  std::array<std::uint32_t, 32> same{};
  for_lanes(mask, [&](int l) {
    std::uint32_t m = 0;
    for_lanes(mask, [&](int k) {
      if (value(k) == value(l)) m |= 1u << k;
    });
    same[static_cast<std::size_t>(l)] = m;
  });
  for_lanes(mask, [&](int l) {
    std::uint32_t m = same[static_cast<std::size_t>(l)];
    if (op.subop == SubOp::All) {
      bool all = m == mask;
      d[l] = all ? mask : 0u;
      if (p) p[l] = all ? 1u : 0u;
    } else {
      d[l] = m;
    }
  });
  return true;
}

bool exec_redux(const Op& op, Warp& w, std::uint32_t mask) {
  const std::uint64_t* a = w.row(op.src[0]);
  bool is_signed = ptx::is_signed(op.type);
  std::int64_t acc = 0;
  bool first = true;
  for_lanes(mask, [&](int l) {
    std::int64_t v = is_signed ? static_cast<std::int32_t>(a[l]) : static_cast<std::int64_t>(static_cast<std::uint32_t>(a[l]));
    if (first) {
      acc = v;
      first = false;
      return;
    }
    switch (op.subop) {
      case SubOp::Add: acc += v; break;
      case SubOp::Min: acc = v < acc ? v : acc; break;
      case SubOp::Max: acc = v > acc ? v : acc; break;
      case SubOp::And: acc &= v; break;
      case SubOp::Or: acc |= v; break;
      case SubOp::Xor: acc ^= v; break;
      default: break;
    }
  });
  std::uint64_t* d = w.row(op.dst[0]);
  for_lanes(mask, [&](int l) { d[l] = static_cast<std::uint32_t>(acc); });
  return true;
}

}  // namespace

bool exec_warp(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  if (mask == 0) return true;
  switch (op.opcode) {
    case Opcode::Shfl:
      if (op.nsrc < 3) break;
      return exec_shfl(op, w, mask);
    case Opcode::Vote: return exec_vote(op, w, mask);
    case Opcode::Match: return exec_match(op, w, mask);
    case Opcode::Redux: return exec_redux(op, w, mask);
    case Opcode::Activemask: {
      std::uint64_t* d = w.row(op.dst[0]);
      for_lanes(mask, [&](int l) { d[l] = mask; });
      return true;
    }
    default: break;
  }
  return unsupported(op, w, mask, ctx);
}

}  // namespace warpscope::emu
