// Reals 2p and 2p+1 of the padded planes ({{padded_rows}} x {{padded_cols}}) into a storage image of
// one real per texel ({{cols}} texels a row, {{rows}} rows a frame): what lies outside the image is dropped.
void store_image(uint p, vec2 v) {
  uint row = p / {{half_cols}}u;
  uint x0 = (p % {{half_cols}}u) * 2u;
  uint y = row % {{padded_rows}}u;
  int texel_row = int((row / {{padded_rows}}u) * {{rows}}u + y);
  if (y < {{rows}}u) {
    if (x0 < {{cols}}u) imageStore(dst, ivec2(int(x0), texel_row), vec4(v.x, 0.0, 0.0, 0.0));
    if (x0 + 1u < {{cols}}u) imageStore(dst, ivec2(int(x0) + 1, texel_row), vec4(v.y, 0.0, 0.0, 0.0));
  }
}
