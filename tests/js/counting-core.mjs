// A test-only wrapper around the embind core that counts every call JS makes into wasm: module
// functions (tokenize, settleSchemeOptions, _malloc …) and the methods of every embind object the
// core hands out or JS constructs (Comparison, WordVectors, Vocabulary, Analysis …). Heap views
// (HEAPF32 …) are not calls and are not counted. Installed with setCoreLoader before load().
import { readFile } from 'node:fs/promises';

const DIST = new URL('../../dist/', import.meta.url);

/** → { core loader for setCoreLoader, calls: { total, byName }, reset() } */
export function countingCoreLoader() {
  const counter = { total: 0, byName: new Map() };
  const count = (name) => {
    counter.total++;
    counter.byName.set(name, (counter.byName.get(name) ?? 0) + 1);
  };
  const wrapObject = (object, className) => new Proxy(object, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (...args) => {
        count(`${className}.${prop}`);
        return wrapResult(value.apply(target, args));
      };
    },
  });
  // An embind object returned by a call (it has the embind handle $$) is counted too.
  const wrapResult = (value) => (value && typeof value === 'object' && '$$' in value
    ? wrapObject(value, value.constructor?.name ?? 'object') : value);
  const wrapClass = (Class, name) => new Proxy(Class, {
    construct(target, args) {
      count(`new ${name}`);
      return wrapObject(Reflect.construct(target, args), name);
    },
  });
  const wrapModule = (core) => new Proxy(core, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      if (typeof value.prototype?.delete === 'function') return wrapClass(value, prop);
      return (...args) => {
        count(prop);
        return wrapResult(value.apply(target, args));
      };
    },
  });
  const loader = async (flavour) => {
    const { default: createCore } = await import(new URL(`posenc-core-${flavour}.mjs`, DIST));
    return wrapModule(await createCore({ wasmBinary: await readFile(new URL(`posenc-core-${flavour}.wasm`, DIST)) }));
  };
  return {
    loader,
    calls: counter,
    reset() {
      counter.total = 0;
      counter.byName.clear();
    },
  };
}
