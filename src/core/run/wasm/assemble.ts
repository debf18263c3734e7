/**
 * The rewritten module put together: the original's bytes where nothing changed (custom sections
 * included, copied as ranges), the new payloads where the rewrite replaced a section, and new
 * sections in their place in the order. Written once into a buffer of the exact size.
 */
import { MAGIC, sectionOrder, u32Bytes, type Section } from './binary.js';
import { u32Length } from './byte-writer.js';

/** A section's new payload; null drops the section. */
export type Payload = Uint8Array | readonly number[] | null;

/** One array of the parts, in order. */
export function concatBytes(parts: readonly (Uint8Array | readonly number[])[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** `list`: the module's known sections (binary.ts sections), in the module's order. */
export function assemble(bytes: Uint8Array, list: readonly Section[], replaced: ReadonlyMap<number, Payload>): Uint8Array {
  const present = new Set(list.map((s) => s.id));
  const added = [...replaced].filter(([id]) => !present.has(id)).sort((a, b) => (sectionOrder(a[0]) ?? 0) - (sectionOrder(b[0]) ?? 0));
  /** Pieces of the output: a range of the original, or a section (id and payload) to encode. */
  const pieces: ({ from: number; to: number } | { id: number; payload: Uint8Array | readonly number[] })[] = [];
  let cursor = MAGIC.length;
  let next = 0;
  const addBefore = (order: number): void => {
    for (; next < added.length && (sectionOrder((added[next] as [number, Payload])[0]) ?? 0) < order; next++) {
      const [id, payload] = added[next] as [number, Payload];
      if (payload !== null) pieces.push({ id, payload });
    }
  };
  for (const s of list) {
    // Custom sections before this one stay before it; a new section goes just before the first known section after it.
    pieces.push({ from: cursor, to: s.header });
    addBefore(sectionOrder(s.id) ?? 0);
    const payload = replaced.get(s.id);
    if (payload === undefined) pieces.push({ from: s.header, to: s.end });
    else if (payload !== null) pieces.push({ id: s.id, payload });
    cursor = s.end;
  }
  pieces.push({ from: cursor, to: bytes.length });
  addBefore(Number.MAX_SAFE_INTEGER);
  const size = pieces.reduce((n, p) => n + ('id' in p ? 1 + u32Length(p.payload.length) + p.payload.length : p.to - p.from), MAGIC.length);
  const out = new Uint8Array(size);
  out.set(MAGIC);
  let at = MAGIC.length;
  for (const p of pieces) {
    if ('id' in p) {
      out[at++] = p.id;
      const len = u32Bytes(p.payload.length);
      out.set(len, at);
      out.set(p.payload, at + len.length);
      at += len.length + p.payload.length;
    } else {
      out.set(bytes.subarray(p.from, p.to), at);
      at += p.to - p.from;
    }
  }
  return out;
}
