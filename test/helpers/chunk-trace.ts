/**
 * A preload script that records which bundle chunks (dist/cmd/*.cjs; with `entries`, dist/*.cjs too) a skillctl process reads,
 * and, with `streams`, whether it touched process.stdout or process.stderr (building either
 * stream costs start-up time). The names are written, sorted, as a JSON array to the file named by
 * SKILLCTL_TRACE_FILE when the process exits.
 */
export function chunkTracePreload(opts: { streams?: boolean; entries?: boolean } = {}): string {
  // With `entries`, the bundles boot.cjs loads by name too (dist/skillctl.cjs), each named by its path below dist/.
  const record = opts.entries === true
    ? `if (typeof file === 'string' && /[\\\\/]dist[\\\\/](cmd[\\\\/])?[^\\\\/]+\\.cjs$/.test(file)) seen.add(file.split(/[\\\\/]dist[\\\\/]/).pop());`
    : `if (typeof file === 'string' && /[\\\\/]cmd[\\\\/][^\\\\/]+\\.cjs$/.test(file)) seen.add(file.split(/[\\\\/]/).pop());`;
  const streams = `for (const name of ['stdout', 'stderr']) {
  const d = Object.getOwnPropertyDescriptor(process, name);
  Object.defineProperty(process, name, { configurable: true, enumerable: true, get() { seen.add(name); Object.defineProperty(process, name, d); return process[name]; } });
}
`;
  return `const fs = require('node:fs');
const seen = new Set();
const read = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  ${record}
  return read.call(this, file, ...rest);
};
${opts.streams === true ? streams : ''}process.on('exit', () => fs.writeFileSync(process.env.SKILLCTL_TRACE_FILE, JSON.stringify([...seen].sort())));
`;
}
