// findings.cc: from per-line figures to findings (see findings.h).
#include "report/findings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <tuple>

namespace warpscope::report {

namespace {

// The kinds of access a line is judged by, in the order its findings come.
struct AccessKind {
  const char* suffix;     // model::ncu_op_suffix
  Finding::Kind kind;
  const char* operation;
};
constexpr AccessKind kKinds[] = {
    {"shared_op_ld", Finding::Kind::SharedBankConflict, "load"},
    {"shared_op_st", Finding::Kind::SharedBankConflict, "store"},
    {"shared_op_atom", Finding::Kind::SharedBankConflict, "atomic"},
    {"shared_op_gmma", Finding::Kind::SharedBankConflict, "wgmma"},
    {"global_op_ld", Finding::Kind::UncoalescedGlobal, "load"},
    {"global_op_st", Finding::Kind::UncoalescedGlobal, "store"},
    {"global_op_atom", Finding::Kind::UncoalescedGlobal, "atomic"},
    {"global_op_red", Finding::Kind::UncoalescedGlobal, "reduction"},
};

long long scaled(std::uint64_t v, double scale) {
  return static_cast<long long>(std::llround(static_cast<double>(v) * scale));
}

bool all_digits(const std::string& s, std::size_t from, std::size_t to) {
  if (from >= to) return false;
  for (std::size_t i = from; i < to; ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

// What may follow a local name: nothing, or a discriminator "_N" / "__N_".
bool is_discriminator(const std::string& s, std::size_t at) {
  if (at == s.size()) return true;
  if (s.compare(at, 2, "__") == 0) return s.back() == '_' && all_digits(s, at + 2, s.size() - 1);
  return s[at] == '_' && all_digits(s, at + 1, s.size());
}

// One finding for the instructions of `kind` on line `l`, or none when they cost no excess.
std::optional<Finding> judge(const analysis::KernelReport& r, const analysis::LineReport& l, const AccessKind& kind) {
  Finding f;
  f.kind = kind.kind;
  f.operation = kind.operation;
  std::uint64_t total = 0, ideal = 0;
  const analysis::InstructionCost* worst = nullptr;
  for (const auto& i : l.instructions) {
    const auto& c = i.cost;
    if (c.async_copy || model::ncu_op_suffix(c.op) != kind.suffix) continue;
    const bool shared = kind.kind == Finding::Kind::SharedBankConflict;
    total += shared ? c.wavefronts : c.sectors;
    ideal += shared ? c.ideal_wavefronts : c.ideal_sectors;
    if (shared && c.worst_cost.shared) f.conflict_degree = std::max(f.conflict_degree, c.worst_cost.shared->worst_degree);
    if (worst == nullptr || c.worst_excess > worst->worst_excess) worst = &c;
  }
  if (worst == nullptr || total <= ideal) return std::nullopt;
  if (f.kind == Finding::Kind::SharedBankConflict) {
    f.wavefronts = scaled(total, r.scale);
    f.ideal_wavefronts = scaled(ideal, r.scale);
  } else {
    f.sectors = scaled(total, r.scale);
    f.ideal_sectors = scaled(ideal, r.scale);
    if (worst->worst_cost.global && worst->worst_cost.global->cause != model::Coalescing::Coalesced)
      f.cause = std::string(model::coalescing_name(worst->worst_cost.global->cause));
  }
  if (worst->region >= 0 && static_cast<std::size_t>(worst->region) < r.regions.size())
    f.array = source_name(r.regions[static_cast<std::size_t>(worst->region)].name);
  f.file = l.file;
  f.line = l.line;
  f.column = l.column;
  f.source = l.source;
  return f;
}

}  // namespace

std::string source_name(const std::string& ptx_name) {
  // A function-local static is _ZZ <function> E <length> <name> [discriminator]; take the
  // last E after which a length and a name end the string.
  if (ptx_name.rfind("_ZZ", 0) != 0) return ptx_name;
  for (std::size_t e = ptx_name.rfind('E'); e != std::string::npos && e > 2; e = ptx_name.rfind('E', e - 1)) {
    std::size_t at = e + 1, length = 0;
    while (at < ptx_name.size() && std::isdigit(static_cast<unsigned char>(ptx_name[at])) && length < 10000)
      length = length * 10 + static_cast<std::size_t>(ptx_name[at++] - '0');
    if (at == e + 1 || length == 0 || at + length > ptx_name.size()) continue;
    if (is_discriminator(ptx_name, at + length)) return ptx_name.substr(at, length);
  }
  return ptx_name;
}

std::vector<Finding> find_flagged_lines(const analysis::KernelReport& report) {
  std::vector<Finding> out;
  for (const analysis::LineReport& l : report.lines) {
    if (l.excess_wavefronts == 0 && l.excess_sectors == 0) continue;
    // A toolkit header's line is counted at the user's call site too: the finding is there.
    if (!l.also_counted_at.empty()) continue;
    for (const AccessKind& kind : kKinds)
      if (auto f = judge(report, l, kind)) out.push_back(std::move(*f));
  }
  // Stable: findings of one line keep kKinds' order.
  std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.file, a.line, a.column) < std::tie(b.file, b.line, b.column);
  });
  return out;
}

std::string finding_message(const Finding& f) {
  if (f.kind == Finding::Kind::SharedBankConflict) {
    const std::string degree = f.conflict_degree > 1 ? fmt::format("{}-way ", f.conflict_degree) : "";
    std::string what;
    if (f.array.empty()) what = f.operation == "atomic" ? "on an atomic" : "on a " + f.operation;
    else if (f.operation == "load") what = "loading '" + f.array + "'";
    else if (f.operation == "wgmma") what = "in wgmma's reads of '" + f.array + "'";
    else if (f.operation == "store") what = "storing '" + f.array + "'";
    else what = "in atomics on '" + f.array + "'";
    return fmt::format("{}shared-memory bank conflict {} ({} wavefronts, ideal {})", degree, what, f.wavefronts,
                       f.ideal_wavefronts);
  }
  const int percent = static_cast<int>(std::floor(f.sector_efficiency() * 100.0));
  return fmt::format("uncoalesced global {}: {} sectors, ideal {} ({}% efficiency{})", f.operation, f.sectors,
                     f.ideal_sectors, percent, f.cause.empty() ? "" : ", " + f.cause);
}

}  // namespace warpscope::report
