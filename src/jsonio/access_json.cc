// access_json.cc: reading warp accesses from JSON and writing their costs.
#include "jsonio/access_json.h"

#include <cstdint>
#include <limits>

namespace warpscope::jsonio {

using nlohmann::json;

namespace {

Expected<std::uint32_t> parse_mask(const json& v) {
  if (v.is_number_unsigned()) {
    const auto m = v.get<std::uint64_t>();
    if (m > 0xffffffffull) return make_error("field 'mask' does not fit in 32 bits");
    return static_cast<std::uint32_t>(m);
  }
  if (v.is_number_integer()) return make_error("field 'mask' must not be negative");
  if (!v.is_string()) return make_error("field 'mask' must be a hex string such as \"0xffffffff\" or an integer");
  const std::string& s = v.get_ref<const std::string&>();
  std::string_view digits = s;
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    digits.remove_prefix(2);
    base = 16;
  }
  if (digits.empty() || digits.size() > 10) return make_error("field 'mask' is not a 32-bit number: \"" + s + "\"");
  std::uint64_t m = 0;
  for (char c : digits) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return make_error("field 'mask' is not a number: \"" + s + "\"");
    m = m * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
  }
  if (m > 0xffffffffull) return make_error("field 'mask' does not fit in 32 bits: \"" + s + "\"");
  return static_cast<std::uint32_t>(m);
}

}  // namespace

Expected<model::WarpAccess> access_from_json(const json& v) {
  if (!v.is_object()) return make_error("expected a JSON object");
  model::WarpAccess a;
  const auto op = v.find("op");
  if (op == v.end() || !op->is_string()) return make_error("missing string field 'op'");
  const auto parsed_op = model::op_from_name(op->get_ref<const std::string&>());
  if (!parsed_op || *parsed_op == model::MemOp::GlobalReduction || *parsed_op == model::MemOp::GlobalAtomic)
    return make_error("unknown op '" + op->get<std::string>() + "' (expected lds, sts, ldsm, atoms, atoms_agg, ldg or stg)");
  a.op = *parsed_op;
  const auto width = v.find("width");
  if (width == v.end() || !width->is_number_integer()) return make_error("missing integer field 'width'");
  const auto w = width->get<long long>();
  if (w < 0 || w > 64) return make_error("unknown width " + std::to_string(w));
  a.width = static_cast<int>(w);
  if (const auto mask = v.find("mask"); mask != v.end()) {
    auto m = parse_mask(*mask);
    if (!m) return m.error();
    a.mask = *m;
  }
  const auto offsets = v.find("offsets");
  if (offsets == v.end() || !offsets->is_array()) return make_error("missing array field 'offsets'");
  if (offsets->size() != model::kWarpSize)
    return make_error("field 'offsets' must hold 32 numbers, found " + std::to_string(offsets->size()));
  for (std::size_t lane = 0; lane < offsets->size(); ++lane) {
    const json& o = (*offsets)[lane];
    if (!o.is_number_unsigned())
      return make_error("offsets[" + std::to_string(lane) + "] must be a non-negative integer");
    a.address[lane] = o.get<std::uint64_t>();
  }
  if (Status s = model::validate(a); !s) return s.error();
  return a;
}

Expected<model::WarpAccess> parse_access(std::string_view text) {
  json v = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (v.is_discarded()) return make_error("not valid JSON");
  return access_from_json(v);
}

json cost_to_json(const model::WarpAccess& access, const model::AccessCost& cost) {
  json out;
  out["op"] = std::string(model::op_name(access.op));
  out["width"] = access.width;
  json metrics = json::object();
  for (const auto& [name, value] : model::ncu_metrics(cost)) metrics[name] = value;
  out["metrics"] = std::move(metrics);
  if (cost.shared) {
    const model::SharedCost& s = *cost.shared;
    out["wavefronts"] = s.wavefronts;
    out["ideal_wavefronts"] = s.ideal_wavefronts;
    out["bank_conflicts"] = s.bank_conflicts();
    out["lane_groups"] = s.groups;
    out["worst_bank"] = s.worst_bank;
    out["conflict_degree"] = s.worst_degree;
    json lanes = json::array();
    for (int lane = 0; lane < model::kWarpSize; ++lane)
      if ((s.colliding_lanes >> lane) & 1u) lanes.push_back(lane);
    out["worst_bank_lanes"] = std::move(lanes);
  }
  if (cost.global) {
    const model::GlobalCost& g = *cost.global;
    out["requests"] = g.requests;
    out["sectors"] = g.sectors;
    out["ideal_sectors"] = g.ideal_sectors;
    out["lines"] = g.lines;
    out["bytes_requested"] = g.bytes_requested;
    out["bytes_moved"] = g.bytes_moved;
    out["efficiency"] = g.efficiency();
    out["cause"] = std::string(model::coalescing_name(g.cause));
  }
  return out;
}

}  // namespace warpscope::jsonio
