// Value e of the view at binding {{binding}} ({{format}} storage image, rows of {{width}} {{what}}):
// texel (e mod {{width}}, e div {{width}}){{#real}}; one real per texel, so a pair of reals is two texels{{/real}}.
ivec2 {{name}}_texel(uint e) { return ivec2(int({{{x}}}), int({{{y}}})); }
{{#load}}
{{#real}}
vec2 load_{{name}}(uint e) {
  ivec2 p = {{name}}_texel(2u * e);
  return vec2(imageLoad({{name}}, p).x, imageLoad({{name}}, p + ivec2(1, 0)).x);
}
{{/real}}
{{^real}}
vec2 load_{{name}}(uint e) { return imageLoad({{name}}, {{name}}_texel(e)).xy; }
{{/real}}
{{/load}}
{{^load}}
{{#real}}
void store_{{name}}(uint e, vec2 v) {
  ivec2 p = {{name}}_texel(2u * e);
  imageStore({{name}}, p, vec4(v.x, 0.0, 0.0, 0.0));
  imageStore({{name}}, p + ivec2(1, 0), vec4(v.y, 0.0, 0.0, 0.0));
}
{{/real}}
{{^real}}
void store_{{name}}(uint e, vec2 v) { imageStore({{name}}, {{name}}_texel(e), vec4(v, 0.0, 0.0)); }
{{/real}}
{{/load}}
