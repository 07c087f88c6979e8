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

const BYTES = { complex64: 8, float32: 4, uint32: 4 };
const PAIRS = { complex64: 1, float32: 2 };  // elements per pair of floats (the stride's unit)
const MAX_GROUPS = 65535;  // maxComputeWorkgroupsPerDimension, WebGPU's default limit

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

  createBuffer(direction, role, batch, usage = 0) {
    return this.device.createBuffer({
      size: this.bytes(direction, role, batch),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST | usage,
    });
  }

  // Records every pass of `direction` over `batch` transforms. `buffers` maps roles to GPUBuffers:
  // input, output, and where the passes bind them scratch, scratch2, filter (the twiddle table is
  // the kernel's own). Scratch buffers the caller leaves out are made here.
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
        if (b.resource === 'storage_image')
          throw new Error(`${this.info.name}: image kernels (io "image") bind storage textures, which this module does not record yet`);
        const buffer = bound[b.role];
        if (!buffer) throw new Error(`${this.info.name} ${pass.name}: no buffer for role ${b.role} (binding ${b.binding})`);
        // A pass that reads the buffer it writes declares it once in WGSL (wgsl_binding 1 for both).
        if (!entries.some((e) => e.binding === b.wgsl_binding)) entries.push({ binding: b.wgsl_binding, resource: { buffer } });
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
