// ldgsts_cost.cc: the LDGSTS rules of ldgsts_cost.h.
#include "model/ldgsts_cost.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

namespace warpscope::model {
namespace {

constexpr std::uint64_t kLine = 128, kSector = 32;

struct Edge {
  std::uint64_t line, row, sector, chunk;
  auto key() const { return std::array<std::uint64_t, 4>{line, row, sector, chunk}; }
};

// .cg: edges per (line, row); each group costs its bipartite graph's largest degree, or the
// most slots one 16-byte source piece fills in it.
void price_bypass_data(const LdgstsAccess& a, LdgstsCost& cost) {
  std::vector<Edge> edges;
  edges.reserve(kWarpSize);
  std::vector<std::array<std::uint64_t, 4>> pieces;  // (line, row, source / 16, slot / 16)
  for (int l = 0; l < kWarpSize; ++l) {
    if (!a.reads(l)) continue;
    const auto i = static_cast<std::size_t>(l);
    const std::uint64_t g = a.global[i], s = a.shared[i], n = a.src_bytes[i];
    pieces.push_back({g / kLine, s / kLine, g / 16, s / 16});
    // A lane's piece lies in one sector and one chunk (16-byte aligned, at most 16 bytes);
    // walk it anyway, so that any piece is priced by what it touches.
    for (std::uint64_t b = 0; b < n; ++b) {
      const Edge e{(g + b) / kLine, (s + b) / kLine, (g + b) / kSector, (s + b) / kSector};
      if (edges.empty() || edges.back().key() != e.key()) edges.push_back(e);
    }
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return x.key() < y.key(); });
  edges.erase(std::unique(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return x.key() == y.key(); }),
              edges.end());
  std::sort(pieces.begin(), pieces.end());
  pieces.erase(std::unique(pieces.begin(), pieces.end()), pieces.end());
  for (std::size_t begin = 0; begin < edges.size();) {
    std::size_t end = begin;
    while (end < edges.size() && edges[end].line == edges[begin].line && edges[end].row == edges[begin].row) ++end;
    int degree = 0;
    for (std::size_t i = begin; i < end; ++i) {
      int from_sector = 0, into_chunk = 0;
      for (std::size_t j = begin; j < end; ++j) {
        from_sector += edges[j].sector == edges[i].sector ? 1 : 0;
        into_chunk += edges[j].chunk == edges[i].chunk ? 1 : 0;
      }
      degree = std::max({degree, from_sector, into_chunk});
    }
    for (const auto& p : pieces) {
      if (p[0] != edges[begin].line || p[1] != edges[begin].row) continue;
      int slots = 0;
      for (const auto& q : pieces) slots += q[0] == p[0] && q[1] == p[1] && q[2] == p[2] ? 1 : 0;
      degree = std::max(degree, slots);
    }
    cost.wavefronts += degree;
    begin = end;
  }
}

// The Source page's sectors of a .cg copy: the edges of the bytes its lanes read.
int bypass_sectors(const LdgstsAccess& a) {
  std::vector<Edge> read;
  for (int l = 0; l < kWarpSize; ++l) {
    if (!a.reads(l)) continue;
    const auto i = static_cast<std::size_t>(l);
    for (std::uint64_t b = 0; b < a.src_bytes[i]; ++b)
      read.push_back({(a.global[i] + b) / kLine, (a.shared[i] + b) / kLine, (a.global[i] + b) / kSector, (a.shared[i] + b) / kSector});
  }
  std::sort(read.begin(), read.end(), [](const Edge& x, const Edge& y) { return x.key() < y.key(); });
  return static_cast<int>(std::unique(read.begin(), read.end(), [](const Edge& x, const Edge& y) { return x.key() == y.key(); }) -
                          read.begin());
}

// .cg zero fill: per quarter-warp with an active lane, the runs of adjacent zero-filled
// chunks (at least one); the ideal: 1 a quarter for data a lane of it reads, 1 for the pass.
void price_bypass_zero(const LdgstsAccess& a, LdgstsCost& cost) {
  bool pass = false;
  for (int l = 0; l < kWarpSize; ++l) pass = pass || a.zero_fills(l);
  for (int q = 0; q < 4; ++q) {
    bool active = false, reads = false;
    std::vector<std::uint64_t> zeroed;
    for (int l = 8 * q; l < 8 * q + 8; ++l) {
      if (!a.active(l)) continue;
      active = true;
      reads = reads || a.reads(l);
      if (a.zero_fills(l)) zeroed.push_back(a.shared[static_cast<std::size_t>(l)]);
    }
    if (!active) continue;
    cost.ideal_wavefronts += (reads ? 1 : 0) + (pass ? 1 : 0);
    if (!pass) continue;
    std::sort(zeroed.begin(), zeroed.end());
    zeroed.erase(std::unique(zeroed.begin(), zeroed.end()), zeroed.end());
    int runs = 0;
    for (std::size_t i = 0; i < zeroed.size(); ++i)
      runs += i == 0 || zeroed[i] != zeroed[i - 1] + static_cast<std::uint64_t>(a.size) ? 1 : 0;
    cost.wavefronts += std::max(1, runs);
  }
}

// The copy as the Source page sees it (SeenPredicate).
LdgstsAccess as_seen(const LdgstsAccess& access) {
  LdgstsAccess a = access;
  for (int l = 0; l < kWarpSize; ++l) {
    if (!a.active(l)) continue;
    const auto i = static_cast<std::size_t>(l);
    if (a.seen == SeenPredicate::AllZero) {
      a.src_bytes[i] = 0;
    } else if (a.seen == SeenPredicate::AllRead && a.src_bytes[i] < a.size) {
      a.src_bytes[i] = static_cast<std::uint8_t>(a.size);
      a.global[i] = a.named[i];
    }
  }
  return a;
}

// .ca: per phase, the L1 read and the shared write as a pipeline. The read takes one
// wavefront per line a bank holds (a bank's lines in address order); a word is
// written once its read wavefront has brought it (zeros at once), each bank writing one of its
// rows a wavefront. The phase costs the last write: read + write - 1 where one bank both takes
// the last read and conflicts in writing (mode 3 of cp_async_pipeline: 8 + 4 - 1), the write's
// degree alone where a bank's writes come over the reads (Triton's tf32 B tile: 4 reads, 16-way
// writes, 16).
int cached_phase(const std::vector<std::pair<std::uint64_t, int>>& writes) {
  // writes: (shared word, the read wavefront that brings its data: 1 for zeros)
  std::array<std::vector<std::pair<std::uint64_t, int>>, kWarpSize> banks;
  for (const auto& [word, ready] : writes) {
    auto& b = banks[static_cast<std::size_t>(word % kWarpSize)];
    auto it = std::find_if(b.begin(), b.end(), [&](const auto& w) { return w.first == word; });
    if (it == b.end()) b.emplace_back(word, ready);
    else it->second = std::max(it->second, ready);
  }
  int last = 0;
  for (auto& b : banks) {
    std::vector<int> ready;
    for (const auto& w : b) ready.push_back(w.second);
    std::sort(ready.begin(), ready.end());
    int t = 0;
    for (int r : ready) t = std::max(t + 1, r);
    last = std::max(last, t);
  }
  return last;
}

void price_cached(const LdgstsAccess& a, LdgstsCost& cost) {
  const int lanes = a.size == 16 ? 8 : a.size == 8 ? 16 : 32;
  std::vector<std::uint64_t> sectors;
  for (int first = 0; first < kWarpSize; first += lanes) {
    // The words read, then per bank its lines in address order: a word's read wavefront is
    // its line's place there (no order of the lanes in a phase can matter).
    auto read_bytes = [&](int l) { return a.reads(l) ? static_cast<std::uint64_t>(a.src_bytes[static_cast<std::size_t>(l)]) : 0u; };
    std::array<std::vector<std::uint64_t>, kWarpSize> lines;
    for (int l = first; l < first + lanes; ++l)
      for (std::uint64_t b = 0; b < read_bytes(l); b += 4) {
        const std::uint64_t word = (a.global[static_cast<std::size_t>(l)] + b) / 4;
        lines[static_cast<std::size_t>(word % kWarpSize)].push_back(word / kWarpSize);
      }
    for (auto& in_bank : lines) {
      std::sort(in_bank.begin(), in_bank.end());
      in_bank.erase(std::unique(in_bank.begin(), in_bank.end()), in_bank.end());
    }
    std::vector<std::pair<std::uint64_t, int>> writes;
    std::vector<std::uint64_t> written;
    for (int l = first; l < first + lanes; ++l) {
      if (!a.active(l)) continue;
      const auto i = static_cast<std::size_t>(l);
      const std::uint64_t s = a.shared[i], g = a.global[i], n = read_bytes(l);
      for (std::uint64_t b = 0; b < static_cast<std::uint64_t>(a.size); b += 4) {
        int ready = 1;
        if (b < n) {
          const std::uint64_t word = (g + b) / 4;
          const auto& in_bank = lines[static_cast<std::size_t>(word % kWarpSize)];
          ready = static_cast<int>(std::lower_bound(in_bank.begin(), in_bank.end(), word / kWarpSize) - in_bank.begin()) + 1;
        }
        writes.emplace_back((s + b) / 4, ready);
        written.push_back((s + b) / 4);
      }
      for (std::uint64_t b = 0; b < n; ++b) sectors.push_back((g + b) / kSector);
    }
    if (written.empty()) continue;
    cost.wavefronts += cached_phase(writes);
    std::sort(written.begin(), written.end());
    written.erase(std::unique(written.begin(), written.end()), written.end());
    cost.ideal_wavefronts += static_cast<int>((written.size() + kWarpSize - 1) / kWarpSize);
  }
  std::sort(sectors.begin(), sectors.end());
  cost.sectors = static_cast<int>(std::unique(sectors.begin(), sectors.end()) - sectors.begin());
}

}  // namespace

LdgstsCost price_ldgsts(const LdgstsAccess& access) {
  LdgstsCost cost;
  if (access.mask == 0) return cost;
  const bool as_held = access.seen == SeenPredicate::Lanes;
  const LdgstsAccess seen = as_held ? LdgstsAccess{} : as_seen(access);
  const LdgstsAccess& priced = as_held ? access : seen;
  if (access.bypass && access.size == 16) {
    price_bypass_data(priced, cost);
    price_bypass_zero(priced, cost);
    cost.sectors = bypass_sectors(access);  // the bytes read, however the predicate is seen
  } else {
    price_cached(priced, cost);
    if (!as_held) {
      LdgstsCost real;
      price_cached(access, real);
      cost.sectors = real.sectors;
    }
  }
  return cost;
}

}  // namespace warpscope::model
