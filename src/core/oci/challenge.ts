/**
 * `WWW-Authenticate` challenges (RFC 7235): the scheme and its parameters. A registry answers 401
 * with `Bearer realm="…",service="…",scope="…"` (the token flow) or `Basic realm="…"`.
 */
export interface Challenge {
  readonly scheme: string;
  readonly params: ReadonlyMap<string, string>;
}

/** The first challenge of the header; parameters are `name=token` or `name="quoted"`. */
export function parseChallenge(header: string | null): Challenge | undefined {
  if (header === null) return undefined;
  const m = /^\s*([A-Za-z][A-Za-z0-9._~+/-]*)\s*(.*)$/s.exec(header);
  if (m === null) return undefined;
  const params = new Map<string, string>();
  const re = /([A-Za-z][A-Za-z0-9_-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*,?\s*/gy;
  const rest = m[2] as string;
  re.lastIndex = 0;
  for (let p = re.exec(rest); p !== null; p = re.exec(rest)) {
    params.set((p[1] as string).toLowerCase(), p[2] !== undefined ? p[2].replace(/\\(.)/g, '$1') : (p[3] ?? ''));
    if (re.lastIndex >= rest.length) break;
  }
  return { scheme: (m[1] as string).toLowerCase(), params };
}
