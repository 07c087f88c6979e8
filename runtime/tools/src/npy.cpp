#include "fftgen/vktools/npy.hpp"

#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <system_error>

namespace fftgen::vk {

namespace {

std::string header_value(const std::string& header, const std::string& key) {
  // The header is a Python dict literal: {'descr': '<c8', 'fortran_order': False, 'shape': (3,), }
  const std::string quoted = "'" + key + "'";
  auto pos = header.find(quoted);
  if (pos == std::string::npos) return {};
  pos = header.find(':', pos + quoted.size());
  if (pos == std::string::npos) return {};
  ++pos;
  while (pos < header.size() && header[pos] == ' ') ++pos;
  if (pos >= header.size()) return {};
  char open = header[pos];
  if (open == '\'' || open == '"') {
    auto end = header.find(open, pos + 1);
    return end == std::string::npos ? std::string{} : header.substr(pos + 1, end - pos - 1);
  }
  if (open == '(') {
    auto end = header.find(')', pos);
    return end == std::string::npos ? std::string{} : header.substr(pos, end - pos + 1);
  }
  auto end = header.find_first_of(",}", pos);
  return header.substr(pos, end - pos);
}

std::string describe_dtype(const std::string& descr) {
  static const std::pair<const char*, const char*> names[] = {
      {"<c16", "complex128"}, {"<c8", "complex64"}, {"<f4", "float32"}, {"<f8", "float64"},
      {"<f2", "float16"},     {"<i4", "int32"},     {"<i8", "int64"},   {"|u1", "uint8"},
      {">c8", "big-endian complex64"}};
  for (const auto& [d, n] : names)
    if (descr == d) return "'" + descr + "' (" + n + ")";
  return "'" + descr + "'";
}

}  // namespace

const char* describe(NpyType type) { return type == NpyType::complex64 ? "complex64 ('<c8')" : "float32 ('<f4')"; }

NpyArray read_npy(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw NpyError(name + ": no such file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw NpyError(name + ": cannot open");
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    throw NpyError(name + ": not a .npy file (missing the \\x93NUMPY magic)");
  const int major = static_cast<unsigned char>(magic[6]);
  uint32_t header_len = 0;
  if (major == 1) {
    unsigned char b[2];
    if (!in.read(reinterpret_cast<char*>(b), 2)) throw NpyError(name + ": truncated header");
    header_len = b[0] | (b[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4)) throw NpyError(name + ": truncated header");
    header_len = b[0] | (b[1] << 8) | (b[2] << 16) | (uint32_t{b[3]} << 24);
  } else {
    throw NpyError(name + ": unsupported .npy version " + std::to_string(major));
  }
  std::string header(header_len, '\0');
  if (!in.read(header.data(), header_len)) throw NpyError(name + ": truncated header");

  const std::string descr = header_value(header, "descr");
  if (descr.empty()) throw NpyError(name + ": header has no 'descr'");
  if (descr != "<c8" && descr != "<f4")
    throw NpyError(name + ": dtype " + describe_dtype(descr) +
                   " is not supported; '<c8' (complex64) or '<f4' (float32), little-endian, is required "
                   "(numpy: x.astype(np.complex64) or x.astype(np.float32))");
  const std::string fortran = header_value(header, "fortran_order");
  const std::string shape_text = header_value(header, "shape");
  if (shape_text.empty()) throw NpyError(name + ": header has no 'shape'");

  NpyArray a;
  a.type = descr == "<c8" ? NpyType::complex64 : NpyType::float32;
  static const std::regex number("[0-9]+");
  for (std::sregex_iterator it(shape_text.begin(), shape_text.end(), number), end; it != end; ++it)
    a.shape.push_back(std::stoull(it->str()));
  if (a.shape.empty() || a.shape.size() > 4)
    throw NpyError(name + ": shape " + shape_text + " is not supported; 1 to 4 dimensions are");
  size_t non_trivial = 0;
  for (auto d : a.shape) non_trivial += d > 1;
  if (non_trivial > 1 && fortran.find("True") != std::string::npos)
    throw NpyError(name + ": Fortran-ordered arrays are not supported (numpy: np.ascontiguousarray)");
  uint64_t count = 1;
  for (auto d : a.shape) count *= d;
  if (count == 0) throw NpyError(name + ": shape " + shape_text + " holds no elements");

  const auto data_start = static_cast<uint64_t>(in.tellg());
  in.seekg(0, std::ios::end);
  const auto file_size = static_cast<uint64_t>(in.tellg());
  const uint64_t floats = count * (a.type == NpyType::complex64 ? 2 : 1);
  const uint64_t expected = floats * 4;
  if (file_size - data_start < expected)
    throw NpyError(name + ": truncated: shape " + shape_text + " needs " +
                   std::to_string(expected) + " bytes of data, the file holds " +
                   std::to_string(file_size - data_start));
  a.values.resize(floats);
  in.seekg(static_cast<std::streamoff>(data_start));
  if (!in.read(reinterpret_cast<char*>(a.values.data()), static_cast<std::streamsize>(expected)))
    throw NpyError(name + ": read failed");
  return a;
}

ComplexArray read_npy_complex64(const std::filesystem::path& path) {
  NpyArray a = read_npy(path);
  if (a.type != NpyType::complex64)
    throw NpyError(path.string() + ": dtype float32 ('<f4') is not supported here; '<c8' (complex64) is required "
                   "(numpy: x.astype(np.complex64))");
  if (a.shape.size() > 2)
    throw NpyError(path.string() + ": " + std::to_string(a.shape.size()) +
                   " dimensions are not supported here; [N] or [batch, N] is required");
  ComplexArray c;
  c.shape = a.shape;
  c.data.resize(a.values.size() / 2);
  std::memcpy(c.data.data(), a.values.data(), a.values.size() * 4);
  return c;
}

std::vector<char> encode_npy_complex64(const ComplexArray& a) {
  NpyArray n{NpyType::complex64, a.shape, std::vector<float>(a.data.size() * 2)};
  std::memcpy(n.values.data(), a.data.data(), a.data.size() * 8);
  return encode_npy(n);
}

void write_npy_complex64(const std::filesystem::path& path, const ComplexArray& a) {
  write_npy(path, {NpyType::complex64, a.shape,
                   std::vector<float>(reinterpret_cast<const float*>(a.data.data()),
                                      reinterpret_cast<const float*>(a.data.data()) + 2 * a.data.size())});
}

std::vector<char> encode_npy(const NpyArray& a) {
  std::string shape = "(";
  for (size_t i = 0; i < a.shape.size(); ++i) shape += std::to_string(a.shape[i]) + ", ";
  if (a.shape.size() > 1) shape.erase(shape.size() - 2);  // "(3, 4)"; a 1-tuple keeps "(3,)"
  else shape.erase(shape.size() - 1);
  shape += ")";
  const std::string descr = a.type == NpyType::complex64 ? "<c8" : "<f4";
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces so the data start at a multiple of 64 bytes, ending with a newline.
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::vector<char> out;
  out.reserve(10 + header.size() + a.values.size() * 4);
  const char magic[] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0};
  out.insert(out.end(), magic, magic + 8);
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  const char* p = reinterpret_cast<const char*>(a.values.data());
  out.insert(out.end(), p, p + a.values.size() * 4);
  return out;
}

void write_npy(const std::filesystem::path& path, const NpyArray& a) {
  const auto bytes = encode_npy(a);
  auto tmp = path;
  tmp += ".tmp-fftgen";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw NpyError(path.string() + ": cannot create (is the directory writable?)");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      throw NpyError(path.string() + ": write failed (disk full?)");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw NpyError(path.string() + ": cannot rename the temporary file into place");
  }
}

}  // namespace fftgen::vk
