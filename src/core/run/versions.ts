/** Choosing the newest pin of a skill id. */

function semverParts(v: string): [number, number, number, string] {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([^+]*))?/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ?? ''] : [0, 0, 0, v];
}

/** Semver precedence, enough to choose the newest pin: a pre-release sorts before its release. */
export function compareVersions(a: string, b: string): number {
  const x = semverParts(a);
  const y = semverParts(b);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  if (x[3] === y[3]) return 0;
  if (x[3] === '') return 1;
  if (y[3] === '') return -1;
  return x[3] < y[3] ? -1 : 1;
}
