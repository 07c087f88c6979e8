#include "fftgen/digest.hpp"

#include <stdexcept>

#include <openssl/evp.h>

#include <fmt/format.h>

namespace fftgen {

std::string sha256_hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (!EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr))
    throw std::runtime_error("SHA-256 failed (OpenSSL EVP_Digest)");
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

}  // namespace fftgen
