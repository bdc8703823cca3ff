// ldgsts_cost.cc: the LDGSTS rules of ldgsts_cost.h.
#include "model/ldgsts_cost.h"

#include <algorithm>
#include <array>
#include <vector>

namespace warpscope::model {
namespace {

constexpr std::uint64_t kLine = 128, kSector = 32;

struct Edge {
  std::uint64_t line, row, sector, chunk;
  auto key() const { return std::array<std::uint64_t, 4>{line, row, sector, chunk}; }
};

// .cg: edges per (line, row); each group costs its bipartite graph's largest degree.
void price_bypass_data(const LdgstsAccess& a, LdgstsCost& cost) {
  std::vector<Edge> edges;
  edges.reserve(kWarpSize);
  // Per (line, row): each 16-byte source piece and the 16-byte slots it fills (one source
  // feeding several slots takes a wavefront per slot).
  std::vector<std::array<std::uint64_t, 4>> pieces;
  int sectors = 0;
  for (int l = 0; l < kWarpSize; ++l) {
    const auto i = static_cast<std::size_t>(l);
    const bool unread = !a.reads(l) && a.active(l) && ((a.unread_mapped >> l) & 1u);
    if (!a.reads(l) && !unread) continue;
    const std::uint64_t g = unread ? a.unread[i] : a.global[i], s = a.shared[i];
    const std::uint64_t n = unread ? static_cast<std::uint64_t>(a.size) : a.src_bytes[i];
    if (unread) pieces.push_back({g / kLine, s / kLine, g / 16, s / 16});  // (measured for unread sources only)
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
  // The Source page's sectors: the edges of the bytes read.
  {
    std::vector<Edge> read;
    for (int l = 0; l < kWarpSize; ++l) {
      if (!a.reads(l)) continue;
      const auto i = static_cast<std::size_t>(l);
      for (std::uint64_t b = 0; b < a.src_bytes[i]; ++b)
        read.push_back({(a.global[i] + b) / kLine, (a.shared[i] + b) / kLine, (a.global[i] + b) / kSector, (a.shared[i] + b) / kSector});
    }
    std::sort(read.begin(), read.end(), [](const Edge& x, const Edge& y) { return x.key() < y.key(); });
    sectors = static_cast<int>(std::unique(read.begin(), read.end(), [](const Edge& x, const Edge& y) { return x.key() == y.key(); }) -
                               read.begin());
  }
  cost.sectors = sectors;
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

// .cg zero fill: per quarter-warp with an active lane, the runs of adjacent zero-filled
// chunks (at least one).
void price_bypass_zero(const LdgstsAccess& a, LdgstsCost& cost) {
  bool pass = false;
  for (int l = 0; l < kWarpSize; ++l) pass = pass || a.zero_pass(l);
  for (int q = 0; q < 4; ++q) {
    bool active = false, reads = false, reads_nothing = false;
    std::vector<std::uint64_t> zeroed;
    for (int l = 8 * q; l < 8 * q + 8; ++l) {
      if (!a.active(l)) continue;
      active = true;
      // A lane moved as a read of its unread source counts as reading (H200, cp_async_zfill_sources:
      // ideal 4 an LDGSTS with lanes 16-31 zero-filled from such sources, 6 from outside every buffer).
      const bool moved = a.reads(l) || !a.zero_pass(l);
      reads = reads || moved;
      reads_nothing = reads_nothing || !moved;
      if (a.zero_pass(l)) zeroed.push_back(a.shared[static_cast<std::size_t>(l)]);
    }
    if (!active) continue;
    cost.ideal_wavefronts += reads && reads_nothing ? 1 : (reads ? 1 : 0) + (pass ? 1 : 0);
    if (!pass) continue;
    std::sort(zeroed.begin(), zeroed.end());
    zeroed.erase(std::unique(zeroed.begin(), zeroed.end()), zeroed.end());
    int runs = 0;
    for (std::size_t i = 0; i < zeroed.size(); ++i)
      runs += i == 0 || zeroed[i] != zeroed[i - 1] + static_cast<std::uint64_t>(a.size) ? 1 : 0;
    cost.wavefronts += std::max(1, runs);
  }
}

// The most distinct keys any bank holds: words (address / 4) in bank word % 32, keyed by
// their 128-byte line (global) or row (shared).
int bank_degree(const std::vector<std::uint64_t>& words) {
  std::array<std::vector<std::uint64_t>, kWarpSize> rows;
  for (std::uint64_t w : words) {
    auto& r = rows[static_cast<std::size_t>(w % kWarpSize)];
    if (std::find(r.begin(), r.end(), w / kWarpSize) == r.end()) r.push_back(w / kWarpSize);
  }
  std::size_t most = 0;
  for (const auto& r : rows) most = std::max(most, r.size());
  return static_cast<int>(most);
}

// .ca: per phase, the L1 read's bank conflicts plus the shared write's, overlapped by one.
void price_cached(const LdgstsAccess& a, LdgstsCost& cost) {
  const int lanes = a.size == 16 ? 8 : a.size == 8 ? 16 : 32;
  std::vector<std::uint64_t> sectors;
  for (int first = 0; first < kWarpSize; first += lanes) {
    std::vector<std::uint64_t> read, written;
    for (int l = first; l < first + lanes; ++l) {
      if (!a.active(l)) continue;
      const std::uint64_t s = a.shared[static_cast<std::size_t>(l)];
      for (std::uint64_t b = 0; b < static_cast<std::uint64_t>(a.size); b += 4) written.push_back((s + b) / 4);
      if (!a.reads(l)) continue;
      const std::uint64_t g = a.global[static_cast<std::size_t>(l)], n = a.src_bytes[static_cast<std::size_t>(l)];
      for (std::uint64_t b = 0; b < n; b += 4) read.push_back((g + b) / 4);
      for (std::uint64_t b = 0; b < n; ++b) sectors.push_back((g + b) / kSector);
    }
    if (written.empty()) continue;
    const int r = read.empty() ? 0 : bank_degree(read), w = bank_degree(written);
    cost.wavefronts += r > 0 ? r + w - 1 : w;
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
  if (access.bypass && access.size == 16) {
    // Zeros move as reads of their named sources only when every zero-filling lane names one
    // inside a buffer: with any other zero fill in the warp, all its zeros take the zero pass
    // (H200: Triton's pipelined loads past the last k step, whose last rows point past the
    // buffer, cost the zero pass alone; corpus/triton matmul, matmul_persistent).
    LdgstsAccess a = access;
    for (int l = 0; l < kWarpSize; ++l)
      if (a.zero_pass(l)) {
        a.unread_mapped = 0;
        break;
      }
    price_bypass_data(a, cost);
    price_bypass_zero(a, cost);
  } else {
    price_cached(access, cost);
  }
  return cost;
}

}  // namespace warpscope::model
