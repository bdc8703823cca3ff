// mbarrier.cc: the mbarrier state's encoding and phase logic (see mbarrier.h).
#include "emu/mbarrier.h"

namespace warpscope::emu::mbarrier {
namespace {

constexpr std::uint64_t kField = 0xfffffu;     // 20 bits
constexpr std::uint64_t kTxField = 0x1fffffu;  // 21 bits

// A phase with nothing pending completes: flip the parity, reload the arrivals.
Update settle(State s, bool overflow) {
  Update u;
  u.overflow = overflow;
  if (s.pending == 0 && s.tx == 0) {
    s.phase = !s.phase;
    s.pending = s.expected;
    u.completed = true;
  }
  u.bits = encode(s);
  return u;
}

bool add_tx(State& s, std::int64_t delta) {
  std::int64_t tx = static_cast<std::int64_t>(s.tx) + delta;
  bool overflow = tx > static_cast<std::int64_t>(kMaxCount) || tx < -static_cast<std::int64_t>(kMaxCount);
  if (tx > static_cast<std::int64_t>(kMaxCount)) tx = kMaxCount;
  if (tx < -static_cast<std::int64_t>(kMaxCount)) tx = -static_cast<std::int64_t>(kMaxCount);
  s.tx = static_cast<std::int32_t>(tx);
  return overflow;
}

}  // namespace

std::uint64_t encode(const State& s) {
  std::uint64_t pending = ((1u << 20) - (s.pending & kField)) & kField;
  std::uint64_t expected = ((1u << 20) - (s.expected & kField)) & kField;
  std::uint64_t tx = static_cast<std::uint64_t>(static_cast<std::int64_t>(s.tx)) & kTxField;
  return (static_cast<std::uint64_t>(s.phase) << 63) | (pending << 43) | (tx << 21) | (expected << 1);
}

State decode(std::uint64_t bits) {
  State s;
  s.phase = (bits >> 63) != 0;
  s.pending = static_cast<std::uint32_t>(((1u << 20) - ((bits >> 43) & kField)) & kField);
  s.expected = static_cast<std::uint32_t>(((1u << 20) - ((bits >> 1) & kField)) & kField);
  std::uint64_t tx = (bits >> 21) & kTxField;
  s.tx = static_cast<std::int32_t>(tx & (1u << 20) ? static_cast<std::int64_t>(tx) - (1 << 21) : static_cast<std::int64_t>(tx));
  return s;
}

std::uint64_t init(std::uint32_t count) {
  State s;
  s.expected = s.pending = count & kField;
  return encode(s);
}

Update arrive(std::uint64_t bits, std::uint32_t count, std::uint32_t tx, bool drop) {
  State s = decode(bits);
  bool overflow = add_tx(s, tx);
  if (count > s.pending) {
    overflow = true;
    count = s.pending;
  }
  s.pending -= count;
  if (drop) s.expected = count > s.expected ? 0 : s.expected - count;
  return settle(s, overflow);
}

Update expect_tx(std::uint64_t bits, std::uint32_t tx) {
  State s = decode(bits);
  bool overflow = add_tx(s, tx);
  return settle(s, overflow);
}

Update complete_tx(std::uint64_t bits, std::uint32_t tx) {
  State s = decode(bits);
  bool overflow = add_tx(s, -static_cast<std::int64_t>(tx));
  return settle(s, overflow);
}

std::uint32_t pending_count(std::uint64_t token) {
  return static_cast<std::uint32_t>((1u << 20) - ((token >> 43) & kField));
}

}  // namespace warpscope::emu::mbarrier
