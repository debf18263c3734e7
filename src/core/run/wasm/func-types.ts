/**
 * The module's function types, decoded when asked: the host needs only its imports' types and its
 * entry's, and a module may declare a million types (a million objects of arrays, on the run's
 * thread before its deadline starts). Each type's offset is kept; each is read when looked up.
 */
import { I32, I64, Reader, skipValType, WasmFormatError, type FuncType, type Section } from './binary.js';

export class FuncTypes {
  private constructor(
    private readonly bytes: Uint8Array,
    private readonly offsets: Uint32Array,
  ) {}

  /** Walks the type section once, checking every type's shape and keeping where each begins. */
  static read(bytes: Uint8Array, s: Section | undefined): FuncTypes {
    if (s === undefined) return new FuncTypes(bytes, new Uint32Array(0));
    const r = new Reader(bytes, s.start, s.end);
    const n = r.u32();
    // Each type takes three bytes at least: a count past the section's size is malformed, not a reason to allocate.
    if (n > (s.end - r.pos) / 3) throw new WasmFormatError('the type section is shorter than its count');
    const offsets = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      offsets[i] = r.pos;
      if (r.byte() !== 0x60) throw new WasmFormatError('only function types are supported (no GC types)');
      for (let k = 0; k < 2; k++) {
        const count = r.u32();
        for (let j = 0; j < count; j++) skipValType(r);
      }
    }
    return new FuncTypes(bytes, offsets);
  }

  /** Type `index`, or undefined when there is none. */
  get(index: number): FuncType | undefined {
    const at = this.offsets[index];
    if (at === undefined) return undefined;
    const r = new Reader(this.bytes, at + 1);
    const vec = (): number[] => {
      const v: number[] = [];
      for (let j = r.u32(); j > 0; j--) v.push(r.byte());
      return v;
    };
    const params = vec();
    return { params, results: vec() };
  }
}

export function sameType(a: FuncType, b: FuncType): boolean {
  return a.params.length === b.params.length && a.results.length === b.results.length && a.params.every((t, i) => b.params[i] === t) && a.results.every((t, i) => b.results[i] === t);
}

export function typeText(t: FuncType): string {
  const n = (v: number): string => ({ [I32]: 'i32', [I64]: 'i64', 0x7d: 'f32', 0x7c: 'f64', 0x7b: 'v128', 0x70: 'funcref', 0x6f: 'externref' })[v] ?? '?';
  return `(${t.params.map(n).join(', ')}) -> (${t.results.map(n).join(', ')})`;
}
