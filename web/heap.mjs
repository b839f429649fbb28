// The lab's scratch space in the core's heap: one allocation, grown when a call needs more and
// reused by every call after, so a keystroke allocates nothing. Addresses are byte offsets;
// arrays in it are float32 unless a caller aligns a float64 one (align8, options.mjs).
export class Heap {
  #core;
  #buffer = 0;      // heap address of the scratch buffer
  #capacity = 0;    // in floats

  constructor(core) {
    this.#core = core;
  }

  // Heap addresses for consecutive float arrays of the given lengths, in one reused allocation.
  reserve(...lengths) {
    const total = lengths.reduce((a, b) => a + b, 0);
    if (total > this.#capacity) {
      if (this.#buffer) this.#core._free(this.#buffer);
      this.#buffer = 0;
      this.#capacity = 0;
      const address = this.#core._malloc(total * 4);
      if (!address) throw new RangeError(`not enough wasm memory for ${total} floats; use smaller n or d`);
      this.#buffer = address;
      this.#capacity = total;
    }
    const addresses = [];
    let next = this.#buffer;
    for (const length of lengths) {
      addresses.push(next);
      next += length * 4;
    }
    return addresses;
  }

  // Views are re-made on every use: memory growth replaces HEAPF32's buffer.
  view(address, length) {
    return this.#core.HEAPF32.subarray(address / 4, address / 4 + length);
  }

  write(address, values) {
    this.view(address, values.length).set(values);
  }

  read(address, length) {
    return this.view(address, length).slice();
  }

  // A core call's answer: '' (or nothing) when it succeeded, else its message.
  call(error) {
    if (error) throw new RangeError(error);
  }
}
