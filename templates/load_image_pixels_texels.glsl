// Value p of the zero-padded complex plane this pass transforms ({{padded_rows}} x {{padded_cols}}): one
// pixel of a storage image ({{cols}} texels a row, {{rows}} rows a frame, frames one below the other),
// its r as real part and its g as imaginary part; the padding is zero and never read.
vec2 load_image(uint p) {
  uint row = p / {{padded_cols}}u;
  uint x = p % {{padded_cols}}u;
  uint y = row % {{padded_rows}}u;
  vec2 v = vec2(0.0);
  if (y < {{rows}}u && x < {{cols}}u) v = imageLoad(src, ivec2(int(x), int((row / {{padded_rows}}u) * {{rows}}u + y))).xy;
  return v;
}
