// Reals 2p and 2p+1 of the zero-padded planes this pass transforms ({{padded_rows}} x {{padded_cols}},
// shifted by ({{offset_y}}, {{offset_x}})), from a [{{rows}}, {{cols}}, {{channels}}] image per plane group;
// the padding is zero and never read.
vec2 load_image(uint p) {
  uint row = p / {{half_cols}}u;
  uint x0 = ((p % {{half_cols}}u) * 2u + {{offset_x}}u) % {{padded_cols}}u;
  uint x1 = (x0 + 1u) % {{padded_cols}}u;
  uint y = (row % {{padded_rows}}u + {{offset_y}}u) % {{padded_rows}}u;
  uint plane = row / {{padded_rows}}u;
  uint base = ((plane / {{channels}}u) * {{rows}}u + y) * {{row_floats}}u + plane % {{channels}}u;
  vec2 v = vec2(0.0);
  if (y < {{rows}}u) {
    if (x0 < {{cols}}u) v.x = src.data[base + x0 * {{channels}}u];
    if (x1 < {{cols}}u) v.y = src.data[base + x1 * {{channels}}u];
  }
  return v;
}
