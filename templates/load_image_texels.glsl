// Reals 2p and 2p+1 of the zero-padded planes this pass transforms ({{padded_rows}} x {{padded_cols}}),
// from a storage image of one real per texel ({{cols}} texels a row, {{rows}} rows a frame, frames one
// below the other); the padding is zero and never read.
vec2 load_image(uint p) {
  uint row = p / {{half_cols}}u;
  uint x0 = (p % {{half_cols}}u) * 2u;
  uint y = row % {{padded_rows}}u;
  int texel_row = int((row / {{padded_rows}}u) * {{rows}}u + y);
  vec2 v = vec2(0.0);
  if (y < {{rows}}u) {
    if (x0 < {{cols}}u) v.x = imageLoad(src, ivec2(int(x0), texel_row)).x;
    if (x0 + 1u < {{cols}}u) v.y = imageLoad(src, ivec2(int(x0) + 1, texel_row)).x;
  }
  return v;
}
