// Value p of the zero-padded complex planes this pass transforms ({{padded_rows}} x {{padded_cols}},
// shifted by ({{offset_y}}, {{offset_x}})): one pixel of a [{{rows}}, {{cols}}, {{channels}}] image per
// group of {{planes}} planes, plane k holding channel 2k as real part and channel 2k+1 (zero past the
// last channel) as imaginary part; the padding is zero and never read.
vec2 load_image(uint p) {
  uint row = p / {{padded_cols}}u;
  uint x = (p % {{padded_cols}}u + {{offset_x}}u) % {{padded_cols}}u;
  uint y = (row % {{padded_rows}}u + {{offset_y}}u) % {{padded_rows}}u;
  uint plane = row / {{padded_rows}}u;
  uint channel = (plane % {{planes}}u) * 2u;
  uint at = ((plane / {{planes}}u) * {{rows}}u + y) * {{row_floats}}u + x * {{channels}}u + channel;
  vec2 v = vec2(0.0);
  if (y < {{rows}}u && x < {{cols}}u) {
{{#even}}    v = src.data[at / 2u];  // an even channel count: the pair is one aligned vec2
{{/even}}{{^even}}    v.x = src.data[at];
    if (channel + 1u < {{channels}}u) v.y = src.data[at + 1u];
{{/even}}  }
  return v;
}
