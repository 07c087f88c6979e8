// Value p of the complex plane ({{padded_rows}} x {{padded_cols}}) into a storage image ({{cols}} texels a
// row, {{rows}} rows a frame): its real part as r, its imaginary part as g (b and a written 0); what
// lies outside the image is dropped.
void store_image(uint p, vec2 v) {
  uint row = p / {{padded_cols}}u;
  uint x = p % {{padded_cols}}u;
  uint y = row % {{padded_rows}}u;
  if (y < {{rows}}u && x < {{cols}}u) imageStore(dst, ivec2(int(x), int((row / {{padded_rows}}u) * {{rows}}u + y)), vec4(v, 0.0, 0.0));
}
