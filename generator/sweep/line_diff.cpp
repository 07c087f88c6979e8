#include "fftgen/sweep.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>

namespace fftgen {
namespace {

// One line of an edit script: ' ' kept, '-' only in a, '+' only in b.
struct Edit {
  char kind;
  size_t a_line, b_line;  // 0-based positions the line has (or would have) in a and b
};

// The shortest edit script from a to b: common prefix and suffix, then a longest common
// subsequence of the middle by dynamic programming (the middle of two twins' disassembly is a
// few thousand lines at most).
std::vector<Edit> edit_script(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  const size_t n = a.size() - prefix - suffix, m = b.size() - prefix - suffix;
  if (n * m > 64u * 1024 * 1024) throw std::length_error(fmt::format("diff of {} and {} differing lines: too large", n, m));
  // lcs[i][j]: the longest common subsequence of a's middle from i and b's middle from j.
  std::vector<uint32_t> lcs((n + 1) * (m + 1), 0);
  auto at = [&](size_t i, size_t j) -> uint32_t& { return lcs[i * (m + 1) + j]; };
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      at(i, j) = a[prefix + i] == b[prefix + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
  std::vector<Edit> edits;
  for (size_t k = 0; k < prefix; ++k) edits.push_back({' ', k, k});
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[prefix + i] == b[prefix + j]) edits.push_back({' ', prefix + i++, prefix + j++});
    else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) edits.push_back({'-', prefix + i++, prefix + j});
    else edits.push_back({'+', prefix + i, prefix + j++});
  }
  for (size_t k = 0; k < suffix; ++k) edits.push_back({' ', prefix + n + k, prefix + m + k});
  return edits;
}

// "@@ -start,count +start,count @@" of edits[first, last), as diff -u spells it.
std::string hunk_header(const std::vector<Edit>& edits, size_t first, size_t last) {
  size_t a_count = 0, b_count = 0;
  for (size_t k = first; k < last; ++k) {
    a_count += edits[k].kind != '+';
    b_count += edits[k].kind != '-';
  }
  auto range = [](size_t start, size_t count) {
    if (count == 1) return fmt::format("{}", start + 1);
    return count == 0 ? fmt::format("{},0", start) : fmt::format("{},{}", start + 1, count);
  };
  return fmt::format("@@ -{} +{} @@\n", range(edits[first].a_line, a_count), range(edits[first].b_line, b_count));
}

}  // namespace

std::string unified_diff(const std::vector<std::string>& a, const std::vector<std::string>& b, const std::string& a_name,
                         const std::string& b_name) {
  constexpr size_t kContext = 3;
  const std::vector<Edit> edits = edit_script(a, b);
  std::string out;
  for (size_t k = 0; k < edits.size();) {
    if (edits[k].kind == ' ') { ++k; continue; }
    // A hunk: this change with kContext lines around it, merged with changes closer than 2 x kContext.
    const size_t first = k >= kContext ? k - kContext : 0;
    size_t last = k, unchanged = 0;
    for (; last < edits.size() && unchanged <= 2 * kContext; ++last) unchanged = edits[last].kind == ' ' ? unchanged + 1 : 0;
    last -= unchanged > kContext ? unchanged - kContext : 0;
    if (out.empty()) out = fmt::format("--- {}\n+++ {}\n", a_name, b_name);
    out += hunk_header(edits, first, last);
    for (size_t e = first; e < last; ++e) {
      const Edit& edit = edits[e];
      out += edit.kind;
      out += edit.kind == '+' ? b[edit.b_line] : a[edit.a_line];
      out += '\n';
    }
    k = last;
  }
  return out;
}

}  // namespace fftgen
