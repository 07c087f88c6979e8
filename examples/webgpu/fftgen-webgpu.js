// fftgen's kernels on WebGPU: loads a manifest written with the "wgsl" target and its .wgsl files,
// and records a direction's passes into a GPUCommandEncoder. An ES module without build tools:
//
//   import { loadManifest } from './fftgen-webgpu.js';
//   const fft = await loadManifest(device, 'out/manifest.json');
//   const kernel = await fft.kernel('fft1k');              // compiles its pipelines
//   const input = kernel.createBuffer('forward', 'input', batch);
//   const output = kernel.createBuffer('forward', 'output', batch);
//   const encoder = device.createCommandEncoder();
//   kernel.record(encoder, 'forward', { input, output }, batch);
//   device.queue.submit([encoder.finish()]);
//
// Everything it does is read from the manifest (docs/manifest.md, docs/targets.md "WebGPU"):
// each pass's bindings by role (@group(0) @binding(n)), its uniform buffer of push constants
// (binding 3: batch, group_offset, src_stride, dst_stride, u32 each), its dispatch.
//
// Image kernels ("io": "image") read and write storage textures instead: make them with
// kernel.createTexture(direction, role, batch), fill one with writeTexture(device, texture, values),
// pass them (or views of them) by role to record() as the buffers above, and read one back with
// readTexture(device, texture).

const BYTES = { complex64: 8, float32: 4, uint32: 4 };
const PAIRS = { complex64: 1, float32: 2 };  // elements per pair of floats (the stride's unit)
const MAX_GROUPS = 65535;  // maxComputeWorkgroupsPerDimension, WebGPU's default limit
// The storage-texture formats of image kernels (a binding's wgsl_format): float32 channels per texel.
export const TEXEL_CHANNELS = { r32float: 1, rg32float: 2, rgba32float: 4, rgba16float: 4 };

// Writes `values` (every channel of every texel, row by row, as numbers) into the whole of `texture`;
// rgba16float values are rounded to half floats (Float16Array).
export function writeTexture(device, texture, values) {
  const channels = TEXEL_CHANNELS[texture.format];
  if (!channels) throw new Error(`writeTexture: format ${texture.format} is not an fftgen image format`);
  const half = texture.format === 'rgba16float';
  if (half && typeof Float16Array === 'undefined') throw new Error('writeTexture: rgba16float needs Float16Array');
  const data = half ? new Float16Array(values) : new Float32Array(values);
  if (data.length !== texture.width * texture.height * channels)
    throw new Error(`writeTexture: ${data.length} values for a ${texture.width} x ${texture.height} ${texture.format} texture`);
  device.queue.writeTexture({ texture }, data, { bytesPerRow: texture.width * channels * data.BYTES_PER_ELEMENT },
                            [texture.width, texture.height]);
}

// Every channel of every texel of `texture`, row by row, as a Float32Array (rgba16float widened): copies
// it into a buffer of 256-byte rows (copyTextureToBuffer's alignment) and maps that.
export async function readTexture(device, texture) {
  const channels = TEXEL_CHANNELS[texture.format], half = texture.format === 'rgba16float';
  if (!channels) throw new Error(`readTexture: format ${texture.format} is not an fftgen image format`);
  const rowValues = texture.width * channels, rowBytes = Math.ceil((rowValues * (half ? 2 : 4)) / 256) * 256;
  const readback = device.createBuffer({ size: rowBytes * texture.height, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyTextureToBuffer({ texture }, { buffer: readback, bytesPerRow: rowBytes }, [texture.width, texture.height]);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const bytes = readback.getMappedRange(), values = new Float32Array(rowValues * texture.height);
  for (let y = 0; y < texture.height; ++y)
    values.set(half ? new Float16Array(bytes, y * rowBytes, rowValues) : new Float32Array(bytes, y * rowBytes, rowValues),
               y * rowValues);
  readback.destroy();
  return values;
}

export class FftKernel {
  constructor(device, base, info) {
    this.device = device;
    this.base = base;
    this.info = info;
    this.passes = {};
    this.twiddles = null;
  }

  // Fetches the kernel's WGSL and twiddle table and makes a pipeline per pass. Throws with the
  // compiler's messages (line:column) if a shader does not compile.
  async init() {
    const { device, info } = this;
    if (info.twiddles) {
      const bytes = await (await fetch(new URL(info.twiddles.file, this.base))).arrayBuffer();
      this.twiddles = device.createBuffer({ size: bytes.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(this.twiddles, 0, bytes);
    }
    for (const direction of info.directions) {
      this.passes[direction] = [];
      for (const pass of info[direction]) {
        if (!pass.files.wgsl) throw new Error(`${info.name} ${pass.name}: the manifest has no wgsl file (add "wgsl" to the plan's targets)`);
        const code = await (await fetch(new URL(pass.files.wgsl, this.base))).text();
        const module = device.createShaderModule({ code, label: pass.files.wgsl });
        const compiled = await module.getCompilationInfo();
        const errors = compiled.messages.filter((m) => m.type === 'error');
        if (errors.length)
          throw new Error(`${pass.files.wgsl}: ` + errors.map((m) => `${m.lineNum}:${m.linePos}: ${m.message}`).join('\n'));
        const pipeline = await device.createComputePipelineAsync({
          layout: 'auto', compute: { module, entryPoint: pass.entry_point.wgsl },
        });
        this.passes[direction].push({ pass, pipeline });
      }
    }
    return this;
  }

  // Bytes a buffer of `role` needs for `batch` transforms of `direction`: the kernel's input and
  // output (buffers), scratch (scratch_elements), the filter spectra of a convolution (filter).
  bytes(direction, role, batch) {
    const { info } = this;
    if (role === 'input' || role === 'output') {
      const b = info.buffers[direction][role];
      return Math.max(16, batch * b.elements * BYTES[b.element]);
    }
    if (role === 'scratch' || role === 'scratch2') return Math.max(16, batch * info.scratch_elements * 8);
    throw new Error(`no size rule for role ${role}`);
  }

  // The storage-texture binding of `role` among `direction`'s passes (io "image"), or undefined.
  textureBinding(direction, role) {
    for (const pass of this.info[direction]) {
      const b = pass.bindings.find((x) => x.role === role && x.resource === 'storage_image');
      if (b) return b;
    }
    return undefined;
  }

  // A storage texture for `role` (input or output) of an image kernel's `direction`: the binding's
  // format (wgsl_format), `width` texels a row and rows_per_transform rows per transform, the batch's
  // transforms one below the other.
  createTexture(direction, role, batch, usage = 0) {
    const b = this.textureBinding(direction, role);
    if (!b) throw new Error(`${this.info.name}: the ${direction} passes bind no storage texture as ${role}`);
    const height = batch * b.rows_per_transform, max = this.device.limits.maxTextureDimension2D;
    if (b.width > max || height > max)
      throw new Error(`${this.info.name}: a ${b.width} x ${height} texture is larger than this device's ` +
                      `maxTextureDimension2D (${max}); record fewer transforms at once`);
    return this.device.createTexture({
      size: [b.width, height], format: b.wgsl_format,
      usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC | GPUTextureUsage.COPY_DST | usage,
    });
  }

  createBuffer(direction, role, batch, usage = 0) {
    return this.device.createBuffer({
      size: this.bytes(direction, role, batch),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST | usage,
    });
  }

  // Records every pass of `direction` over `batch` transforms. `buffers` maps roles to GPUBuffers:
  // input, output, and where the passes bind them scratch, scratch2, filter (the twiddle table is
  // the kernel's own). Scratch buffers the caller leaves out are made here. Where a pass binds a
  // storage texture (io "image"), its role maps to a GPUTexture (createTexture) or a view of one.
  record(encoder, direction, buffers, batch) {
    const { device } = this;
    const bound = { ...buffers, twiddles: this.twiddles };
    for (const role of ['scratch', 'scratch2'])
      if (!bound[role] && this.info[direction].some((p) => p.bindings.some((b) => b.role === role)))
        bound[role] = this.createBuffer(direction, role, batch);
    for (const { pass, pipeline } of this.passes[direction]) {
      const strides = [0, 0];
      const entries = [];
      for (const b of pass.bindings) {
        const resource = this.resource(pass, b, bound[b.role]);
        // A pass that reads the buffer it writes declares it once in WGSL (wgsl_binding 1 for both).
        if (!entries.some((e) => e.binding === b.wgsl_binding)) entries.push({ binding: b.wgsl_binding, resource });
        if (b.binding <= 1 && b.stride !== undefined) strides[b.binding] = b.stride / (PAIRS[b.element] || 1);
      }
      const d = pass.dispatch;
      const entriesOfBatch = batch * d.batch_scale;
      const total = Math.ceil((entriesOfBatch * d.columns_per_transform) / d.columns_per_workgroup);
      // More workgroups than one dispatch holds: dispatch in chunks, each with its group_offset.
      for (let first = 0; first < total; first += MAX_GROUPS) {
        const params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
        device.queue.writeBuffer(params, 0, new Uint32Array([entriesOfBatch, first, strides[0], strides[1]]));
        const binding = pass.push_constant_binding.wgsl.binding;
        const group = device.createBindGroup({
          layout: pipeline.getBindGroupLayout(0),
          entries: [...entries, { binding, resource: { buffer: params } }],
        });
        const compute = encoder.beginComputePass({ label: `${this.info.name} ${pass.name}` });
        compute.setPipeline(pipeline);
        compute.setBindGroup(0, group);
        compute.dispatchWorkgroups(Math.min(MAX_GROUPS, total - first));
        compute.end();
      }
    }
  }

  // The bind group resource of binding `b` of `pass`: a buffer, or a view of a storage texture.
  resource(pass, b, bound) {
    const where = `${this.info.name} ${pass.name}: role ${b.role} (binding ${b.wgsl_binding}, ${b.wgsl_type})`;
    if (!bound) throw new Error(`${where}: nothing given for it`);
    const texture = bound instanceof GPUTexture || bound instanceof GPUTextureView;
    if (b.resource !== 'storage_image') {
      if (texture) throw new Error(`${where}: a buffer binding, given a texture`);
      return { buffer: bound };
    }
    if (!texture) throw new Error(`${where}: a storage texture binding, given a buffer (make one with createTexture)`);
    if (bound instanceof GPUTexture && bound.format !== b.wgsl_format)
      throw new Error(`${where}: the texture is ${bound.format}, the kernel's is ${b.wgsl_format}`);
    return bound instanceof GPUTexture ? bound.createView() : bound;
  }
}

export class FftManifest {
  constructor(device, url, manifest) {
    this.device = device;
    this.base = new URL(url, location.href);
    this.manifest = manifest;
  }
  names() { return this.manifest.kernels.map((k) => k.name); }
  info(name) {
    const k = this.manifest.kernels.find((x) => x.name === name);
    if (!k) throw new Error(`no kernel '${name}' in the manifest (it has ${this.names().join(', ')})`);
    return k;
  }
  async kernel(name) { return new FftKernel(this.device, this.base, this.info(name)).init(); }
}

export async function loadManifest(device, url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  const manifest = await response.json();
  if (!manifest.targets.includes('wgsl')) throw new Error(`${url}: generated without the wgsl target`);
  return new FftManifest(device, url, manifest);
}
