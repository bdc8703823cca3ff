// ncu_csv.cc: reading ncu's CSV exports.
#include "profile/ncu_csv.h"

#include <cmath>
#include <cstdlib>

namespace warpscope::profile {

Expected<std::vector<CsvRow>> parse_csv(std::string_view text, const std::string& path) {
  std::vector<CsvRow> rows;
  CsvRow row;
  std::string cell;
  bool in_quotes = false, cell_started = false, row_started = false;
  int line = 1, column = 0, quote_line = 0, quote_column = 0;
  auto end_cell = [&] {
    row.cells.push_back(std::move(cell));
    cell.clear();
    cell_started = false;
  };
  auto end_row = [&] {
    if (row_started) {
      end_cell();
      rows.push_back(std::move(row));
    }
    row = CsvRow{};
    row_started = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    ++column;
    if (!row_started && !(c == '\n' || c == '\r')) {
      row_started = true;
      row.line = line;
    }
    if (in_quotes) {
      if (c == '"') {
        const char next = i + 1 < text.size() ? text[i + 1] : '\n';
        if (next == '"') {
          cell += '"';
          ++i;
          ++column;
        } else if (next == ',' || next == '\n' || next == '\r') {
          in_quotes = false;
        } else {
          cell += c;  // ncu does not double the quotes in source text: extern "C" stays as is
        }
      } else {
        cell += c;
        if (c == '\n') {
          ++line;
          column = 0;
        }
      }
      continue;
    }
    if (c == '"' && !cell_started) {
      in_quotes = cell_started = true;
      quote_line = line;
      quote_column = column;
    } else if (c == ',') {
      end_cell();
    } else if (c == '\n') {
      end_row();
      ++line;
      column = 0;
    } else if (c == '\r') {
      // CRLF: the \n ends the row
    } else {
      cell += c;
      cell_started = true;
    }
  }
  if (in_quotes) {
    Error e = make_error("unterminated quoted cell");
    e.where = SourcePosition{path, quote_line, quote_column};
    return e;
  }
  end_row();
  return rows;
}

std::optional<double> parse_ncu_number(std::string_view cell) {
  std::string digits;
  for (char c : cell)
    if (c != ',' && c != ' ') digits += c;
  if (digits.empty() || digits.size() > 64) return std::nullopt;
  const char first = digits[0];
  if (!(first == '-' || first == '+' || first == '.' || (first >= '0' && first <= '9'))) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace warpscope::profile
