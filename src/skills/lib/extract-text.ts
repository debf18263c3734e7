/** Shared by the extract.text extractors: the hints shape and the final text normalisation. */

export interface Hints {
  readonly title?: string;
  readonly sections: readonly string[];
}

/**
 * Normalised text: NUL and other C0 controls (but tab and newline) removed, CRLF and CR to LF,
 * runs of spaces and tabs to one space, lines trimmed, at most one blank line in a row, no
 * blank lines at either end.
 */
export function normalizeText(s: string): string {
  const lines = s
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .split('\n')
    .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim());
  const out: string[] = [];
  for (const l of lines) {
    if (l === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(l);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}
