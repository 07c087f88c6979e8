// Value p of the complex planes ({{padded_rows}} x {{padded_cols}}) into a [{{rows}}, {{cols}}, {{channels}}]
// image per group of {{planes}} planes: plane k's real part is channel 2k, its imaginary part
// channel 2k+1 (dropped past the last channel); what lies outside the image is dropped.
void store_image(uint p, vec2 v) {
  uint row = p / {{padded_cols}}u;
  uint x = p % {{padded_cols}}u;
  uint y = row % {{padded_rows}}u;
  uint plane = row / {{padded_rows}}u;
  uint channel = (plane % {{planes}}u) * 2u;
  uint at = ((plane / {{planes}}u) * {{rows}}u + y) * {{row_floats}}u + x * {{channels}}u + channel;
  if (y < {{rows}}u && x < {{cols}}u) {
{{#even}}    dst.data[at / 2u] = v;  // an even channel count: the pair is one aligned vec2
{{/even}}{{^even}}    dst.data[at] = v.x;
    if (channel + 1u < {{channels}}u) dst.data[at + 1u] = v.y;
{{/even}}  }
}
