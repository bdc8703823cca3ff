// exec_compare.cc: setp, set, selp, slct, with ordered and unordered float comparisons.
#include <cmath>

#include "emu/exec.h"
#include "emu/lanes.h"

namespace warpscope::emu {
namespace {

using ptx::Cmp;
using ptx::Opcode;
using ptx::Type;

template <class T>
bool compare(Cmp c, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    bool nan = std::isnan(a) || std::isnan(b);
    switch (c) {
      case Cmp::Eq: return !nan && a == b;
      case Cmp::Ne: return !nan && a != b;
      case Cmp::Lt: return !nan && a < b;
      case Cmp::Le: return !nan && a <= b;
      case Cmp::Gt: return !nan && a > b;
      case Cmp::Ge: return !nan && a >= b;
      case Cmp::Equ: return nan || a == b;
      case Cmp::Neu: return nan || a != b;
      case Cmp::Ltu: return nan || a < b;
      case Cmp::Leu: return nan || a <= b;
      case Cmp::Gtu: return nan || a > b;
      case Cmp::Geu: return nan || a >= b;
      case Cmp::Num: return !nan;
      case Cmp::Nan: return nan;
      default: return false;
    }
  } else {
    using U = std::make_unsigned_t<T>;
    switch (c) {
      case Cmp::Eq: return a == b;
      case Cmp::Ne: return a != b;
      case Cmp::Lt: return a < b;
      case Cmp::Le: return a <= b;
      case Cmp::Gt: return a > b;
      case Cmp::Ge: return a >= b;
      case Cmp::Lo: return U(a) < U(b);
      case Cmp::Ls: return U(a) <= U(b);
      case Cmp::Hi: return U(a) > U(b);
      case Cmp::Hs: return U(a) >= U(b);
      default: return false;
    }
  }
}

bool combine(ptx::SubOp op, bool t, bool c) {
  switch (op) {
    case ptx::SubOp::And: return t && c;
    case ptx::SubOp::Or: return t || c;
    case ptx::SubOp::Xor: return t != c;
    default: return t;
  }
}

// The comparison of operands 0 and 1 per lane, as a bit mask.
std::uint32_t compare_lanes(const Op& op, Type t, Warp& w, std::uint32_t mask, bool& ok) {
  const std::uint64_t* a = w.row(op.src[0]);
  const std::uint64_t* b = w.row(op.src[1]);
  std::uint32_t result = 0;
  if (t == Type::F16 || t == Type::BF16) {
    bool bf = t == Type::BF16;
    for_lanes(mask, [&](int l) {
      auto x = static_cast<std::uint16_t>(a[l]), y = static_cast<std::uint16_t>(b[l]);
      float fx = bf ? bf16_to_float(x) : half_to_float(x), fy = bf ? bf16_to_float(y) : half_to_float(y);
      if (compare<float>(op.cmp, fx, fy)) result |= 1u << l;
    });
    ok = true;
    return result;
  }
  ok = with_type(t, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      for_lanes(mask, [&](int l) {
        if (compare<std::uint8_t>(op.cmp, static_cast<std::uint8_t>(a[l] != 0), static_cast<std::uint8_t>(b[l] != 0))) result |= 1u << l;
      });
    } else {
      for_lanes(mask, [&](int l) {
        if (compare<T>(op.cmp, from_bits<T>(a[l]), from_bits<T>(b[l]))) result |= 1u << l;
      });
    }
  });
  return result;
}

// f16x2 / bf16x2: each half compared on its own; bit l of lo and hi per lane.
bool is_half_pair(Type t) { return t == Type::F16x2 || t == Type::BF16x2; }

void compare_half_pairs(const Op& op, Type t, Warp& w, std::uint32_t mask, std::uint32_t& lo, std::uint32_t& hi) {
  const std::uint64_t* a = w.row(op.src[0]);
  const std::uint64_t* b = w.row(op.src[1]);
  const bool bf = t == Type::BF16x2;
  lo = hi = 0;
  for_lanes(mask, [&](int l) {
    for (int h = 0; h < 2; ++h) {
      auto x = static_cast<std::uint16_t>(a[l] >> (16 * h)), y = static_cast<std::uint16_t>(b[l] >> (16 * h));
      float fx = bf ? bf16_to_float(x) : half_to_float(x), fy = bf ? bf16_to_float(y) : half_to_float(y);
      if (compare<float>(op.cmp, fx, fy)) (h == 0 ? lo : hi) |= 1u << l;
    }
  });
}

}  // namespace

bool exec_compare(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  switch (op.opcode) {
    case Opcode::Setp: {
      if (is_half_pair(op.type)) {  // setp.lt.f16x2 p|q, a, b: p from the low halves, q the high
        std::uint32_t lo = 0, hi = 0;
        compare_half_pairs(op, op.type, w, mask, lo, hi);
        std::uint64_t* p = w.row(op.dst[0]);
        std::uint64_t* q = op.dst[1] != kNoRow ? w.row(op.dst[1]) : nullptr;
        const std::uint64_t* c = op.nsrc > 2 ? w.row(op.src[2]) : nullptr;
        for_lanes(mask, [&](int l) {
          bool cv = c ? ((c[l] != 0) != ((op.negated_src >> 2) & 1u)) : true;
          p[l] = combine(op.subop, (lo >> l) & 1u, cv) ? 1u : 0u;
          if (q) q[l] = combine(op.subop, (hi >> l) & 1u, cv) ? 1u : 0u;
        });
        return true;
      }
      bool ok = false;
      std::uint32_t t = compare_lanes(op, op.type, w, mask, ok);
      if (!ok) break;
      std::uint64_t* p = w.row(op.dst[0]);
      std::uint64_t* q = op.dst[1] != kNoRow ? w.row(op.dst[1]) : nullptr;
      const std::uint64_t* c = op.nsrc > 2 ? w.row(op.src[2]) : nullptr;
      for_lanes(mask, [&](int l) {
        bool v = (t >> l) & 1u;
        bool cv = c ? ((c[l] != 0) != ((op.negated_src >> 2) & 1u)) : true;
        p[l] = combine(op.subop, v, cv) ? 1u : 0u;
        if (q) q[l] = combine(op.subop, !v, cv) ? 1u : 0u;
      });
      return true;
    }
    case Opcode::Set: {
      if (is_half_pair(op.type2)) {  // set.lt.f16x2.f16x2: 1.0 or 0 per half; .u32.f16x2: 0xffff or 0
        std::uint32_t lo = 0, hi = 0;
        compare_half_pairs(op, op.type2, w, mask, lo, hi);
        std::uint64_t* d = w.row(op.dst[0]);
        const std::uint64_t* c = op.nsrc > 2 ? w.row(op.src[2]) : nullptr;
        const std::uint64_t one = op.type == Type::F16x2 ? 0x3c00u : op.type == Type::BF16x2 ? 0x3f80u : 0xffffu;
        for_lanes(mask, [&](int l) {
          const bool cv = c ? c[l] != 0 : true;
          d[l] = (combine(op.subop, (lo >> l) & 1u, cv) ? one : 0u) | (combine(op.subop, (hi >> l) & 1u, cv) ? one << 16 : 0u);
        });
        return true;
      }
      bool ok = false;
      std::uint32_t t = compare_lanes(op, op.type2, w, mask, ok);
      if (!ok) break;
      std::uint64_t* d = w.row(op.dst[0]);
      const std::uint64_t* c = op.nsrc > 2 ? w.row(op.src[2]) : nullptr;
      std::uint64_t true_value = op.type == Type::F32 ? 0x3f800000u : 0xffffffffu;
      for_lanes(mask, [&](int l) {
        bool v = combine(op.subop, (t >> l) & 1u, c ? c[l] != 0 : true);
        d[l] = v ? true_value : 0u;
      });
      return true;
    }
    case Opcode::Selp: {
      std::uint64_t* d = w.row(op.dst[0]);
      const std::uint64_t* a = w.row(op.src[0]);
      const std::uint64_t* b = w.row(op.src[1]);
      const std::uint64_t* c = w.row(op.src[2]);
      bool negate = (op.negated_src >> 2) & 1u;
      for_lanes(mask, [&](int l) { d[l] = ((c[l] != 0) != negate) ? a[l] : b[l]; });
      return true;
    }
    case Opcode::Slct: {
      std::uint64_t* d = w.row(op.dst[0]);
      const std::uint64_t* a = w.row(op.src[0]);
      const std::uint64_t* b = w.row(op.src[1]);
      const std::uint64_t* c = w.row(op.src[2]);
      bool f = op.type2 == Type::F32;
      for_lanes(mask, [&](int l) {
        bool pick_a = f ? from_bits<float>(c[l]) >= 0.f : from_bits<std::int32_t>(c[l]) >= 0;
        d[l] = pick_a ? a[l] : b[l];
      });
      return true;
    }
    default: break;
  }
  return unsupported(op, w, mask, ctx);
}

}  // namespace warpscope::emu
