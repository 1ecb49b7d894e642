// A plain table of strings and its text and Markdown renderings, used by every report.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace shardplan {

/// A table: a header row and body rows of already formatted cells. Columns flagged in `numeric`
/// are right-aligned in text and Markdown.
struct table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> numeric;
};

namespace detail {

inline std::vector<std::size_t> column_widths(const table& t) {
  std::vector<std::size_t> widths(t.header.size(), 0);
  auto widen = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i)
      widths[i] = std::max(widths[i], row[i].size());
  };
  widen(t.header);
  for (const auto& row : t.rows) widen(row);
  return widths;
}

inline bool is_numeric(const table& t, std::size_t column) {
  return column < t.numeric.size() && t.numeric[column];
}

inline std::string pad(const std::string& s, std::size_t width, bool right) {
  const std::string fill(width > s.size() ? width - s.size() : 0, ' ');
  return right ? fill + s : s + fill;
}

}  // namespace detail

/// The table as aligned plain text: columns two spaces apart, a dashed rule under the header.
inline std::string render_text(const table& t) {
  const auto widths = detail::column_widths(t);
  std::string out;
  auto line = [&](const std::vector<std::string>& row) {
    std::string l;
    for (std::size_t i = 0; i < widths.size(); ++i) {
      if (i > 0) l += "  ";
      l += detail::pad(i < row.size() ? row[i] : "", widths[i], detail::is_numeric(t, i));
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  };
  line(t.header);
  std::vector<std::string> rule;
  for (auto w : widths) rule.emplace_back(w, '-');
  line(rule);
  for (const auto& row : t.rows) line(row);
  return out;
}

/// The table as a GitHub-flavoured Markdown table.
inline std::string render_markdown(const table& t) {
  const auto widths = detail::column_widths(t);
  std::string out;
  auto line = [&](const std::vector<std::string>& row) {
    out += "|";
    for (std::size_t i = 0; i < widths.size(); ++i)
      out.append(" ").append(detail::pad(i < row.size() ? row[i] : "", widths[i],
                                         detail::is_numeric(t, i))).append(" |");
    out += "\n";
  };
  line(t.header);
  out += "|";
  for (std::size_t i = 0; i < widths.size(); ++i) {
    const std::size_t dashes = std::max<std::size_t>(widths[i], 3);
    out.append(" ").append(detail::is_numeric(t, i) ? dashes - 1 : dashes, '-');
    out += detail::is_numeric(t, i) ? ": |" : " |";
  }
  out += "\n";
  for (const auto& row : t.rows) line(row);
  return out;
}

/// A table as Markdown or as plain text.
inline std::string render(const table& t, bool markdown) {
  return markdown ? render_markdown(t) : render_text(t);
}

}  // namespace shardplan
