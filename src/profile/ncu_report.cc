// ncu_report.cc: reading the raw and Source pages of ncu's CSV exports.
#include "profile/ncu_report.h"

#include <cmath>
#include <set>
#include <utility>

#include "profile/ncu_csv.h"

namespace warpscope::profile {

namespace {

// The text from the first line that starts with one of `starts` (a captured run may have
// the program's own output and ncu's ==PROF== lines before the table); `skipped` counts
// the lines left out, so row numbers stay true.
std::string_view from_first_line(std::string_view text, std::initializer_list<std::string_view> starts, int& skipped) {
  skipped = 0;
  for (std::size_t at = 0; at < text.size();) {
    for (std::string_view s : starts)
      if (text.substr(at, s.size()) == s) return text.substr(at);
    const std::size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) break;
    at = nl + 1;
    ++skipped;
  }
  return {};
}

Error error_at(const std::string& path, int line, std::string message) {
  Error e = make_error(std::move(message));
  e.where = SourcePosition{path, line, 1};
  return e;
}

// "(16, 16, 1)" -> Dim3.
std::optional<emu::Dim3> parse_dims(const std::string& cell) {
  std::vector<std::uint32_t> parts;
  std::string digits;
  for (char c : cell + ",") {
    if (c >= '0' && c <= '9') {
      digits += c;
      if (digits.size() > 10) return std::nullopt;
    } else if (c == ',' || c == ')') {
      if (digits.empty()) continue;
      const unsigned long long v = std::stoull(digits);
      if (v == 0 || v > 0x7fffffffull) return std::nullopt;
      parts.push_back(static_cast<std::uint32_t>(v));
      digits.clear();
    } else if (c != '(' && c != ' ') {
      return std::nullopt;
    }
  }
  if (parts.empty() || parts.size() > 3) return std::nullopt;
  emu::Dim3 d;
  d.x = parts[0];
  if (parts.size() > 1) d.y = parts[1];
  if (parts.size() > 2) d.z = parts[2];
  return d;
}

bool is_line_counter(const std::string& column) {
  return column.rfind("L1 ", 0) == 0 || column.rfind("L2 ", 0) == 0 || column == "Instructions Executed";
}

}  // namespace

Expected<std::vector<MeasuredKernel>> parse_raw_page(std::string_view text, const std::string& path) {
  int skipped = 0;
  const std::string_view table = from_first_line(text, {"\"ID\",", "ID,"}, skipped);
  if (table.empty())
    return error_at(path, 0, "not an ncu raw-page CSV: no header row starting with \"ID\" (export it with "
                             "ncu --import REPORT --page raw --csv --print-units base)");
  auto rows = parse_csv(table, path);
  if (!rows) {
    Error e = rows.error();
    e.where.line += skipped;
    return e;
  }
  const std::vector<std::string>& header = (*rows)[0].cells;
  std::map<std::string, std::size_t> column;
  for (std::size_t i = 0; i < header.size(); ++i) column.emplace(header[i], i);
  for (const char* needed : {"Kernel Name", "Grid Size", "Block Size"})
    if (!column.count(needed))
      return error_at(path, (*rows)[0].line + skipped, std::string("the raw page has no \"") + needed + "\" column");
  std::vector<MeasuredKernel> kernels;
  for (std::size_t r = 1; r < rows->size(); ++r) {
    const CsvRow& row = (*rows)[r];
    const int line = row.line + skipped;
    auto id = row.cells.empty() ? std::nullopt : parse_ncu_number(row.cells[0]);
    if (!id) continue;  // the units row
    if (row.cells.size() != header.size())
      return error_at(path, line, "row has " + std::to_string(row.cells.size()) + " cells, the header " +
                                      std::to_string(header.size()));
    if (!(*id >= 0 && *id < 2147483648.0 && std::floor(*id) == *id))  // NaN too
      return error_at(path, line, "ID '" + row.cells[0] + "' is not a kernel launch number");
    MeasuredKernel k;
    k.id = static_cast<int>(*id);
    k.name = row.cells[column["Kernel Name"]];
    auto grid = parse_dims(row.cells[column["Grid Size"]]);
    auto block = parse_dims(row.cells[column["Block Size"]]);
    if (!grid || !block)
      return error_at(path, line, "kernel '" + k.name + "': unreadable Grid Size '" + row.cells[column["Grid Size"]] +
                                      "' or Block Size '" + row.cells[column["Block Size"]] + "'");
    k.grid = *grid;
    k.block = *block;
    if (auto it = column.find("device__attribute_display_name"); it != column.end()) k.device = row.cells[it->second];
    if (auto it = column.find("launch__shared_mem_per_block_dynamic"); it != column.end())
      if (auto v = parse_ncu_number(row.cells[it->second]); v && *v >= 0 && *v < 4294967296.0)
        k.dynamic_shared_bytes = static_cast<std::uint32_t>(*v);
    for (std::size_t i = 0; i < header.size(); ++i) {
      const std::string& name = header[i];
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".sum") == 0)
        if (auto v = parse_ncu_number(row.cells[i])) k.metrics[name.substr(0, name.size() - 4)] = *v;
    }
    kernels.push_back(std::move(k));
  }
  if (kernels.empty()) return error_at(path, 0, "the raw page lists no profiled kernel");
  return kernels;
}

Expected<std::vector<MeasuredSource>> parse_source_page(std::string_view text, const std::string& path) {
  int skipped = 0;
  const std::string_view table = from_first_line(text, {"\"File Path\"", "\"Function Name\"", "\"Kernel Name\""}, skipped);
  if (table.empty())
    return error_at(path, 0, "not an ncu Source-page CSV: no \"File Path\" or \"Function Name\" row (export it with "
                             "ncu --import REPORT --page source --csv --print-source cuda,sass)");
  auto rows = parse_csv(table, path);
  if (!rows) {
    Error e = rows.error();
    e.where.line += skipped;
    return e;
  }
  std::vector<MeasuredSource> results;
  std::set<std::pair<std::string, std::string>> seen;  // (file, function) in the current result
  std::string file, function;
  std::vector<std::string> header;
  std::map<std::string, std::size_t> column;
  bool pending_block = false;
  MeasuredLine* current = nullptr;
  std::map<std::string, double> sass_sum;  // the current line's SASS rows, summed
  auto finish_line = [&] {
    if (current != nullptr) {
      bool any = false;
      for (const auto& [k, v] : current->metrics) any = any || (v != 0 && k != "Instructions Executed");
      if (!any) current->metrics = sass_sum;  // this ncu left the CUDA row empty
    }
    current = nullptr;
    sass_sum.clear();
  };
  for (const CsvRow& row : *rows) {
    const std::string first = row.cells.empty() ? "" : row.cells[0];
    if (first == "File Path" || first == "Function Name" || first == "Kernel Name") {
      finish_line();
      if (first == "File Path") file = row.cells.size() > 1 ? row.cells[1] : "";
      else function = row.cells.size() > 1 ? row.cells[1] : "";
      pending_block = true;
      header.clear();
      continue;
    }
    if (first == "Line No" || first == "Address") {
      finish_line();
      if (pending_block) {
        if (results.empty() || !seen.insert({file, function}).second) {
          results.push_back(MeasuredSource{function, {}});
          seen = {{file, function}};
        } else if (results.back().function != function) {
          results.push_back(MeasuredSource{function, {}});  // another kernel's result
          seen = {{file, function}};
        }
        pending_block = false;
      }
      header = row.cells;
      column.clear();
      for (std::size_t i = 0; i < header.size(); ++i) column.emplace(header[i], i);  // first "Source": CUDA text
      continue;
    }
    if (header.empty() || results.empty() || first == "Address") continue;
    std::vector<std::string> cells = row.cells;
    auto line_no = column.count("Line No") && column["Line No"] < cells.size() ? parse_ncu_number(cells[column["Line No"]])
                                                                                : std::nullopt;
    if (cells.size() > header.size()) {
      // Source text with `", "` in it (printf("%d", x)) split its cell: join the pieces
      // back into the CUDA text (a line's row) or the SASS text (an instruction's row).
      std::vector<std::size_t> texts;
      for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == "Source") texts.push_back(i);
      if (texts.empty())
        return error_at(path, row.line + skipped, "row has " + std::to_string(cells.size()) + " cells, the header " +
                                                      std::to_string(header.size()));
      const std::size_t at = line_no ? texts.front() : texts.back(), extra = cells.size() - header.size();
      // The quote before each split comma was the text's, the last piece's trailing one the cell's.
      for (std::size_t i = 1; i <= extra; ++i) cells[at] += "\"," + cells[at + i];
      if (!cells[at].empty() && cells[at].back() == '"') cells[at].pop_back();
      cells.erase(cells.begin() + static_cast<std::ptrdiff_t>(at) + 1, cells.begin() + static_cast<std::ptrdiff_t>(at + extra) + 1);
    }
    std::map<std::string, double> counters;
    for (std::size_t i = 0; i < cells.size(); ++i)
      if (is_line_counter(header[i]))
        if (auto v = parse_ncu_number(cells[i])) counters[header[i]] += *v;
    if (line_no && *line_no >= 1 && *line_no < 1e9 && std::floor(*line_no) == *line_no) {
      finish_line();
      MeasuredLine l;
      l.file = file;
      l.line = static_cast<int>(*line_no);
      if (auto s = column.find("Source"); s != column.end() && s->second < cells.size()) l.source = cells[s->second];
      l.metrics = std::move(counters);
      results.back().lines.push_back(std::move(l));
      current = &results.back().lines.back();
    } else if (current != nullptr) {
      auto address = column.find("Address");
      const std::string a = address != column.end() && address->second < cells.size() ? cells[address->second] : "";
      if (a.empty() || a == "-" || a == "...") continue;
      for (const auto& [k, v] : counters) sass_sum[k] += v;
    }
  }
  finish_line();
  return results;
}

std::vector<const MeasuredSource*> pair_sources(const std::vector<MeasuredKernel>& kernels,
                                                const std::vector<MeasuredSource>& sources) {
  std::map<std::string, std::vector<const MeasuredSource*>> by_function;
  for (const MeasuredSource& s : sources) by_function[s.function].push_back(&s);
  std::map<std::string, std::size_t> used;
  std::vector<const MeasuredSource*> paired;
  for (const MeasuredKernel& k : kernels) {
    auto& list = by_function[k.name];
    std::size_t& n = used[k.name];
    paired.push_back(n < list.size() ? list[n] : nullptr);
    ++n;
  }
  return paired;
}

std::optional<std::string> diagnose_ncu_output(std::string_view output) {
  auto has = [&](std::string_view s) { return output.find(s) != std::string_view::npos; };
  if (has("ERR_NVGPUCTRPERM"))
    return "ncu has no permission to read this GPU's performance counters (ERR_NVGPUCTRPERM): run as root, or let "
           "users read them (the NVreg_RestrictProfilingToAdminUsers=0 driver option)";
  if (has("LibraryNotLoaded") || has("Failed to load") || has("libcuda"))
    if (has("==ERROR==")) return "ncu could not load the CUDA driver or its own libraries (is there a GPU and driver here?)";
  if (has("not supported") && has("==PROF==") && !has("==PROF== Profiling"))
    return "ncu says this device or kernel is not supported for profiling";
  if (has("No kernels were profiled")) return "ncu profiled no kernel: did the program launch one (and did it exit 0)?";
  if (has("Failed to find metric") || has("invalid metric") || has("Invalid metric"))
    return "this ncu does not know one of the metrics asked for";
  if (has("==ERROR==")) {
    const std::size_t at = output.find("==ERROR==");
    const std::size_t end = output.find('\n', at);
    return std::string(output.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
  }
  return std::nullopt;
}

}  // namespace warpscope::profile
