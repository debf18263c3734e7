/** RFC 6901 JSON pointers. */

export function escapeSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => '/' + escapeSegment(s)).join('');
}

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function childPointer(pointer: string, segment: string | number): string {
  return `${pointer}/${escapeSegment(segment)}`;
}
