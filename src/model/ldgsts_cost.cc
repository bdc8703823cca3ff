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

// The edges of the bytes [g, g + n) copied to s: one per run of bytes in one global line and
// sector and one shared row and chunk (a valid lane's piece is one run: it lies in one 16-byte
// slot on both sides; any other is priced by what it touches).
template <class F>
void for_each_edge(std::uint64_t g, std::uint64_t s, std::uint64_t n, F&& f) {
  for (std::uint64_t b = 0; b < n;) {
    f(Edge{(g + b) / kLine, (s + b) / kLine, (g + b) / kSector, (s + b) / kSector});
    b += std::min({n - b, kSector - (g + b) % kSector, kSector - (s + b) % kSector});
  }
}

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
    for_each_edge(g, s, n, [&](const Edge& e) { edges.push_back(e); });
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
    // Pieces are sorted and unique: a run of one (line, row, source) is the slots it fills.
    const std::array<std::uint64_t, 4> from{edges[begin].line, edges[begin].row, 0, 0};
    for (auto p = std::lower_bound(pieces.begin(), pieces.end(), from);
         p != pieces.end() && (*p)[0] == from[0] && (*p)[1] == from[1];) {
      auto q = p;
      while (q != pieces.end() && (*q)[0] == (*p)[0] && (*q)[1] == (*p)[1] && (*q)[2] == (*p)[2]) ++q;
      degree = std::max(degree, static_cast<int>(q - p));
      p = q;
    }
    cost.wavefronts += degree;
    begin = end;
  }
}

// The Source page's sectors of a .cg copy: the edges of the bytes its lanes read.
int bypass_sectors(const LdgstsAccess& a) {
  std::vector<Edge> read;
  read.reserve(kWarpSize);
  for (int l = 0; l < kWarpSize; ++l) {
    if (!a.reads(l)) continue;
    const auto i = static_cast<std::size_t>(l);
    for_each_edge(a.global[i], a.shared[i], a.src_bytes[i], [&](const Edge& e) { read.push_back(e); });
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
// At most 32 words a phase (32 lanes of 4 bytes, 16 of 8, 8 of 16): fixed arrays, no allocation.
struct Words {
  std::array<std::uint64_t, kWarpSize> v{};
  int n = 0;
  void add(std::uint64_t w) { v[static_cast<std::size_t>(n++)] = w; }
  std::uint64_t* begin() { return v.data(); }
  std::uint64_t* end() { return v.data() + n; }
};

// (bank, key) packed for sorting: the bank in the top bits.
std::uint64_t by_bank(std::uint64_t word, std::uint64_t key) { return (word % kWarpSize) << 58 | key; }

// The phase's last write: writes (shared word, the read wavefront that brings its data: 1 for
// zeros), each bank writing one distinct word a wavefront, each once its data is there.
int cached_phase(const std::array<std::pair<std::uint64_t, int>, kWarpSize>& writes, int count) {
  std::array<std::pair<std::uint64_t, int>, kWarpSize> w{};
  for (int i = 0; i < count; ++i) {
    const auto& [word, ready] = writes[static_cast<std::size_t>(i)];
    w[static_cast<std::size_t>(i)] = {by_bank(word, word / kWarpSize), ready};
  }
  std::sort(w.begin(), w.begin() + count);
  int last = 0;
  for (int i = 0; i < count;) {
    const std::uint64_t bank = w[static_cast<std::size_t>(i)].first >> 58;
    // The bank's distinct words, each ready when its last copy's data is.
    std::array<int, kWarpSize> ready{};
    int words = 0;
    for (; i < count && (w[static_cast<std::size_t>(i)].first >> 58) == bank; ++i) {
      if (i > 0 && w[static_cast<std::size_t>(i)].first == w[static_cast<std::size_t>(i - 1)].first)
        ready[static_cast<std::size_t>(words - 1)] = std::max(ready[static_cast<std::size_t>(words - 1)], w[static_cast<std::size_t>(i)].second);
      else
        ready[static_cast<std::size_t>(words++)] = w[static_cast<std::size_t>(i)].second;
    }
    std::sort(ready.begin(), ready.begin() + words);
    int t = 0;
    for (int k = 0; k < words; ++k) t = std::max(t + 1, ready[static_cast<std::size_t>(k)]);
    last = std::max(last, t);
  }
  return last;
}

void price_cached(const LdgstsAccess& a, LdgstsCost& cost) {
  const int lanes = a.size == 16 ? 8 : a.size == 8 ? 16 : 32;
  std::array<std::uint64_t, 2 * kWarpSize> sectors{};  // a lane's bytes lie in one sector
  int nsectors = 0;
  auto read_bytes = [&](int l) {
    return a.reads(l) ? std::min<std::uint64_t>(a.src_bytes[static_cast<std::size_t>(l)], static_cast<std::uint64_t>(a.size)) : 0u;
  };
  for (int first = 0; first < kWarpSize; first += lanes) {
    // The words read as (bank, line), sorted: a word's read wavefront is its line's place among
    // its bank's lines, in address order (no order of the lanes in a phase can matter).
    Words lines;
    for (int l = first; l < first + lanes; ++l)
      for (std::uint64_t b = 0; b < read_bytes(l); b += 4) {
        const std::uint64_t word = (a.global[static_cast<std::size_t>(l)] + b) / 4;
        lines.add(by_bank(word, word / kWarpSize));
      }
    std::sort(lines.begin(), lines.end());
    lines.n = static_cast<int>(std::unique(lines.begin(), lines.end()) - lines.begin());
    std::array<std::pair<std::uint64_t, int>, kWarpSize> writes{};
    int nwrites = 0;
    Words written;
    for (int l = first; l < first + lanes; ++l) {
      if (!a.active(l)) continue;
      const auto i = static_cast<std::size_t>(l);
      const std::uint64_t s = a.shared[i], g = a.global[i], n = read_bytes(l);
      for (std::uint64_t b = 0; b < static_cast<std::uint64_t>(a.size); b += 4) {
        int ready = 1;
        if (b < n) {
          const std::uint64_t word = (g + b) / 4;
          std::uint64_t* bank = std::lower_bound(lines.begin(), lines.end(), by_bank(word, 0));
          ready = static_cast<int>(std::lower_bound(bank, lines.end(), by_bank(word, word / kWarpSize)) - bank) + 1;
        }
        writes[static_cast<std::size_t>(nwrites++)] = {(s + b) / 4, ready};
        written.add((s + b) / 4);
      }
      if (n > 0) {
        sectors[static_cast<std::size_t>(nsectors++)] = g / kSector;
        if ((g + n - 1) / kSector != g / kSector) sectors[static_cast<std::size_t>(nsectors++)] = (g + n - 1) / kSector;
      }
    }
    if (written.n == 0) continue;
    cost.wavefronts += cached_phase(writes, nwrites);
    std::sort(written.begin(), written.end());
    const auto distinct = std::unique(written.begin(), written.end()) - written.begin();
    cost.ideal_wavefronts += static_cast<int>((distinct + kWarpSize - 1) / kWarpSize);
  }
  std::sort(sectors.begin(), sectors.begin() + nsectors);
  cost.sectors = static_cast<int>(std::unique(sectors.begin(), sectors.begin() + nsectors) - sectors.begin());
}

}  // namespace

LdgstsCost price_ldgsts(const LdgstsAccess& access) {
  LdgstsCost cost;
  // cp-size is 4, 8 or 16 (the emulator refuses any other); anything else costs nothing here.
  if (access.mask == 0 || (access.size != 4 && access.size != 8 && access.size != 16)) return cost;
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
