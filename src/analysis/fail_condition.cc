// fail_condition.cc: parsing and checking `--fail-on` conditions.
#include "analysis/fail_condition.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>

namespace warpscope::analysis {

namespace {

constexpr const char* kForms =
    "expected bank-conflicts, sector-efficiency<X (X in 0..1, or a percentage like 80%), excess-wavefronts>N or "
    "excess-sectors>N";

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

long long total(const KernelReport& r, const char* name) {
  auto it = r.metrics.find(name);
  return it == r.metrics.end() ? 0 : it->second;
}

std::string percent(double fraction) { return fmt::format("{:.3g}%", fraction * 100.0); }

}  // namespace

Expected<FailCondition> parse_fail_condition(std::string_view text) {
  const std::string_view s = trim(text);
  FailCondition c;
  c.text = std::string(s);
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
  // The Source-page figures are summed into the totals too (see kernel_report.cc).
  const long long excess_wavefronts = total(r, kSourceWavefronts) - total(r, kSourceWavefrontsIdeal);
  const long long sectors = total(r, kSourceSectors), ideal_sectors = total(r, kSourceSectorsIdeal);
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
