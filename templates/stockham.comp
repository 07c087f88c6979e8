#version 450
{{{extensions}}}// {{{header}}}
// {{{summary}}}
layout(local_size_x = {{workgroup_size}}, local_size_y = 1, local_size_z = 1) in;

{{{interface}}}
{{#shared_elements}}

shared {{shared_type}} sh[{{shared_elements}}];
{{/shared_elements}}

vec2 cmul(vec2 a, vec2 b) { return vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
// Twiddles are stored for the forward transform, exp(-2*pi*i*m/L); the inverse conjugates them.
vec2 twiddle_mul(vec2 a, vec2 w) { return cmul(a, {{{twiddle_operand}}}); }
{{#computed_twiddles}}
vec2 twiddle(uint m, float angle_per_step) {
  float a = float(m) * angle_per_step;
  return vec2(cos(a), -sin(a));
}
{{/computed_twiddles}}

{{{codelets}}}
void main() {
{{{body}}}
}
