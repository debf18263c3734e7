/**
 * Random YAML documents for differential tests: nested block mappings and sequences, flow
 * collections, and scalars in every style (plain over several lines, quoted with escapes,
 * literal and folded with every chomping and indentation indicator), with comments. A fixed
 * xorshift generator, so a failure reproduces from its seed.
 */
export function yamlGenerator(seed: number): () => string {
  let state = seed | 0 || 1;
  const rand = (n: number): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  const pick = <T>(a: readonly T[]): T => a[rand(a.length)] as T;
  const words = ['a', 'b c', 'x:y', 'x: y', 'é', '#', 'a #b', '-', '- a', '?', ':', '"', "'", '\\', '\\n', '\\x41', '\\u00e9', '\\U0001F600', '\\t', '\\ ', '\\_', '\\N', '\\L', '\\P', '\\0', '\\e', '\\/', '1', '0x1', '1.5', 'true', 'null', '~', '', ' ', '[', ']', '{', '}', ',', '&', '*', '!', '|', '>', '%', '@', '`', 'key'];
  const text = (): string => {
    let s = '';
    for (let i = rand(4); i >= 0; i--) s += pick(words) + (rand(3) === 0 ? ' ' : '');
    return s;
  };
  const bare = (): string => text().trim().replace(/^[-?:,[\]{}#&*!|>'"%@`]+/, '') || 'w';
  const scalar = (ind: number): string => {
    switch (rand(7)) {
      case 0:
        return text().trim() || 'x';
      case 1:
        return `'${text().replace(/'/g, "''")}'`;
      case 2:
        return `"${text().replace(/"/g, '\\"')}"`;
      case 3:
      case 4: {
        const head = pick(['|', '>', '|-', '>-', '|+', '>+', '|2', '>1-']);
        const lines: string[] = [];
        for (let i = rand(4); i >= 0; i--) lines.push(rand(4) === 0 ? '' : ' '.repeat(ind + 2 + (/\d/.test(head) ? 0 : rand(2) * 2)) + text().trim());
        return `${head}${rand(4) === 0 ? ' # c' : ''}\n${lines.join('\n')}`;
      }
      case 5:
        return `${bare()}\n${' '.repeat(ind + 2)}${bare()}`;
      default:
        return `"${pick(words)}\n${' '.repeat(ind + 1)}${pick(words).replace(/"/g, '')}"`;
    }
  };
  const flow = (d: number): string => {
    if (d > 2 || rand(2) === 0) return pick(['a', '"q"', "'s'", '1', 'x y', '~', 'true']);
    const n = rand(3);
    return rand(2) === 0
      ? `[${Array.from({ length: n }, () => flow(d + 1)).join(', ')}]`
      : `{${Array.from({ length: n }, (_, i) => `k${i}: ${flow(d + 1)}`).join(', ')}}`;
  };
  const node = (ind: number, d: number): string => {
    const r = rand(10);
    if (d > 4 || r < 4) return ` ${scalar(ind)}`;
    if (r < 5) return ` ${flow(0)}`;
    let out = '';
    if (r < 8) {
      for (let i = rand(3); i >= 0; i--) {
        const key = pick(['k', 'key', '"q k"', "'s k'", 'a b', `k${i}`, `x-${i}`]);
        out += `\n${' '.repeat(ind + 2)}${key}:${node(ind + 2, d + 1)}${rand(5) === 0 ? ' # comment' : ''}`;
      }
      return out;
    }
    const at = ind + rand(2) * 2;
    for (let i = rand(3); i >= 0; i--) out += `\n${' '.repeat(at)}-${node(at, d + 1)}`;
    return out;
  };
  return () => {
    let doc = '';
    for (let k = rand(4); k >= 0; k--) doc += `${rand(6) === 0 ? '# c\n' : ''}k${k}:${node(0, 0)}\n`;
    return doc;
  };
}
