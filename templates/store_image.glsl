// Reals 2p and 2p+1 of the padded planes ({{padded_rows}} x {{padded_cols}}) into a
// [{{rows}}, {{cols}}, {{channels}}] image per plane group: what lies outside the image is dropped.
void store_image(uint p, vec2 v) {
  uint row = p / {{half_cols}}u;
  uint x0 = (p % {{half_cols}}u) * 2u;
  uint y = row % {{padded_rows}}u;
  uint plane = row / {{padded_rows}}u;
  uint base = ((plane / {{channels}}u) * {{rows}}u + y) * {{row_floats}}u + plane % {{channels}}u;
  if (y < {{rows}}u) {
    if (x0 < {{cols}}u) dst.data[base + x0 * {{channels}}u] = v.x;
    if (x0 + 1u < {{cols}}u) dst.data[base + (x0 + 1u) * {{channels}}u] = v.y;
  }
}
