// fail_condition.cc: parsing and checking `--fail-on` conditions.
#include "analysis/fail_condition.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>

#include "ptx/source_position.h"

namespace warpscope::analysis {

namespace {

constexpr const char* kForms =
    "expected bank-conflicts, sector-efficiency<X (X in 0..1, or a percentage like 80%), excess-wavefronts>N or "
    "excess-sectors>N, optionally after 'line FILE:N ' or 'array NAME '";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

Error bad(std::string_view text, const std::string& why) {
  return make_error(fmt::format("--fail-on '{}': {}", text, why));
}

std::optional<double> parse_number(std::string_view s) {
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string percent(double fraction) { return fmt::format("{:.3g}%", fraction * 100.0); }

// "transpose_tiled.cu" names "examples/transpose_tiled.cu" and "/abs/examples/transpose_tiled.cu".
bool same_file(const std::string& wanted, const std::string& file) {
  if (wanted == file) return true;
  return file.size() > wanted.size() && file.compare(file.size() - wanted.size(), wanted.size(), wanted) == 0 &&
         file[file.size() - wanted.size() - 1] == '/';
}

// The figures a condition looks at.
struct Figures {
  long long wavefronts = 0, ideal_wavefronts = 0, sectors = 0, ideal_sectors = 0;
};

std::vector<const LineReport*> lines_of(const FailCondition& c, const KernelReport& r) {
  std::vector<const LineReport*> out;
  for (const LineReport& l : r.lines)
    if (l.line == c.line && (same_file(c.target, l.file) || same_file(c.target, ptx::display_file(l.file))))
      out.push_back(&l);
  return out;
}

std::vector<const ArrayTotals*> arrays_of(const FailCondition& c, const KernelReport& r) {
  std::vector<const ArrayTotals*> out;
  for (const ArrayTotals& a : r.arrays) {
    const emu::Region& region = r.regions[static_cast<std::size_t>(a.region)];
    if (c.target == region.name || c.target == r.region_display_name(a.region)) out.push_back(&a);
  }
  return out;
}

std::string known_arrays(const KernelReport& r) {
  std::string names;
  for (const ArrayTotals& a : r.arrays) names += (names.empty() ? "" : ", ") + r.region_display_name(a.region);
  return names.empty() ? "none" : names;
}

std::optional<Figures> figures_of(const FailCondition& c, const KernelReport& r) {
  Figures f;
  auto metric = [](const Metrics& m, const char* name) {
    auto it = m.find(name);
    return it == m.end() ? 0LL : it->second;
  };
  switch (c.scope) {
    case FailCondition::Scope::Kernel:
      // The Source-page figures are summed into the totals too (see kernel_report.cc).
      return Figures{metric(r.metrics, kSourceWavefronts), metric(r.metrics, kSourceWavefrontsIdeal),
                     metric(r.metrics, kSourceSectors), metric(r.metrics, kSourceSectorsIdeal)};
    case FailCondition::Scope::Line: {
      const auto lines = lines_of(c, r);
      if (lines.empty()) return std::nullopt;
      for (const LineReport* l : lines) {
        f.wavefronts += metric(l->metrics, kSourceWavefronts);
        f.ideal_wavefronts += metric(l->metrics, kSourceWavefrontsIdeal);
        f.sectors += metric(l->metrics, kSourceSectors);
        f.ideal_sectors += metric(l->metrics, kSourceSectorsIdeal);
      }
      return f;
    }
    case FailCondition::Scope::Array: {
      const auto arrays = arrays_of(c, r);
      if (arrays.empty()) return std::nullopt;
      for (const ArrayTotals* a : arrays) {
        f.wavefronts += a->wavefronts;
        f.ideal_wavefronts += a->ideal_wavefronts;
        f.sectors += a->sectors;
        f.ideal_sectors += a->ideal_sectors;
      }
      return f;
    }
  }
  return std::nullopt;
}

}  // namespace

Expected<std::vector<FailCondition>> parse_fail_conditions(const std::vector<std::string>& texts) {
  std::vector<FailCondition> conditions;
  for (const std::string& t : texts) {
    auto c = parse_fail_condition(t);
    if (!c) return as_usage(c.error());
    conditions.push_back(std::move(*c));
  }
  return conditions;
}

bool fail_condition_applies(const FailCondition& c, const KernelReport& r) { return figures_of(c, r).has_value(); }

Expected<FailCondition> parse_fail_condition(std::string_view text) {
  std::string_view s = trim(text);
  FailCondition c;
  c.text = std::string(s);
  // An optional scope: "line FILE:N " or "array NAME ".
  for (const char* scope : {"line ", "array "}) {
    if (s.rfind(scope, 0) != 0) continue;
    std::string_view rest = trim(s.substr(std::string_view(scope).size()));
    const std::size_t space = rest.find_first_of(" \t");
    if (space == std::string_view::npos)
      return bad(text, std::string("expected '") + scope + (scope[0] == 'l' ? "FILE:N" : "NAME") + " CONDITION'");
    const std::string_view target = rest.substr(0, space);
    if (scope[0] == 'l') {
      const std::size_t colon = target.rfind(':');
      int n = 0;
      auto [end, ec] = colon == std::string_view::npos
                           ? std::from_chars_result{target.data(), std::errc::invalid_argument}
                           : std::from_chars(target.data() + colon + 1, target.data() + target.size(), n);
      if (colon == std::string_view::npos || colon == 0 || ec != std::errc() || end != target.data() + target.size() || n < 1)
        return bad(text, "'" + std::string(target) + "' is not FILE:LINE (e.g. transpose_tiled.cu:27)");
      c.scope = FailCondition::Scope::Line;
      c.target = std::string(target.substr(0, colon));
      c.line = n;
    } else {
      c.scope = FailCondition::Scope::Array;
      c.target = std::string(target);
    }
    s = trim(rest.substr(space));
  }
  if (s == "bank-conflicts") return c;
  const std::size_t op = s.find_first_of("<>");
  if (op == std::string_view::npos) return bad(text, kForms);
  const std::string_view name = trim(s.substr(0, op));
  std::string_view value = trim(s.substr(op + 1));
  const char relation = s[op];
  if (name == "sector-efficiency") {
    if (relation != '<') return bad(text, "sector-efficiency takes '<' (fail when the efficiency is below X)");
    const bool is_percent = !value.empty() && value.back() == '%';
    if (is_percent) value = trim(value.substr(0, value.size() - 1));
    auto v = parse_number(value);
    if (!v) return bad(text, "'" + std::string(value) + "' is not a number");
    const double fraction = is_percent ? *v / 100.0 : *v;
    if (fraction < 0 || fraction > 1)
      return bad(text, is_percent ? "a percentage is 0% to 100%" : "an efficiency is 0 to 1 (or write a percentage, like 80%)");
    c.kind = FailCondition::Kind::SectorEfficiencyBelow;
    c.threshold = fraction;
    return c;
  }
  if (name == "excess-wavefronts" || name == "excess-sectors") {
    if (relation != '>') return bad(text, std::string(name) + " takes '>' (fail when the excess is above N)");
    long long n = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size() || n < 0)
      return bad(text, "'" + std::string(value) + "' is not a count (a whole number, 0 or more)");
    c.kind = name == "excess-wavefronts" ? FailCondition::Kind::ExcessWavefrontsAbove
                                         : FailCondition::Kind::ExcessSectorsAbove;
    c.threshold = static_cast<double>(n);
    return c;
  }
  return bad(text, kForms);
}

std::optional<std::string> check_fail_condition(const FailCondition& c, const KernelReport& r) {
  const auto f = figures_of(c, r);
  if (!f) {
    if (c.scope == FailCondition::Scope::Line)
      return fmt::format("no memory access of kernel '{}' is on {}:{}", r.kernel, c.target, c.line);
    return fmt::format("kernel '{}' has no array '{}' (it has: {})", r.kernel, c.target, known_arrays(r));
  }
  const long long excess_wavefronts = f->wavefronts - f->ideal_wavefronts;
  const long long sectors = f->sectors, ideal_sectors = f->ideal_sectors;
  switch (c.kind) {
    case FailCondition::Kind::BankConflicts:
      if (excess_wavefronts > 0) return fmt::format("{} shared wavefronts beyond the ideal", excess_wavefronts);
      return std::nullopt;
    case FailCondition::Kind::SectorEfficiencyBelow: {
      if (sectors <= 0) return std::nullopt;
      const double efficiency = static_cast<double>(ideal_sectors) / static_cast<double>(sectors);
      if (efficiency < c.threshold)
        return fmt::format("global sector efficiency {} ({} sectors, ideal {}), below {}", percent(efficiency), sectors,
                           ideal_sectors, percent(c.threshold));
      return std::nullopt;
    }
    case FailCondition::Kind::ExcessWavefrontsAbove:
      if (static_cast<double>(excess_wavefronts) > c.threshold)
        return fmt::format("{} excess shared wavefronts, above {}", excess_wavefronts, static_cast<long long>(c.threshold));
      return std::nullopt;
    case FailCondition::Kind::ExcessSectorsAbove:
      if (static_cast<double>(sectors - ideal_sectors) > c.threshold)
        return fmt::format("{} excess global sectors, above {}", sectors - ideal_sectors,
                           static_cast<long long>(c.threshold));
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace warpscope::analysis
