/**
 * CLI golden files: the case model, the name a case's file gets, and the rendering and
 * normalisation of what a run printed. test/cli/golden.test.ts drives it; the cases are in
 * test/cli/golden-cases.ts.
 */
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { CliRun } from './cli.js';

/** A case-specific rewrite of output that legitimately differs between runs (random keys). */
export interface Redaction {
  readonly pattern: RegExp;
  readonly replacement: string;
}

/** What a case's setup may use: its directory, and skillctl run there. */
export interface GoldenContext {
  readonly dir: string;
  /** Runs skillctl in `dir`; rejects unless it exits with `expect` (default 0). */
  readonly cli: (args: readonly string[], opts?: { readonly input?: string; readonly expect?: number }) => Promise<CliRun>;
}

export interface GoldenCase {
  /** The arguments; `<ROOT>` stands for the repository root, `<TMP>` for the case's temp dir. */
  readonly args: readonly string[];
  /** Tells apart cases with the same arguments (another cwd, stdin or setup); part of the name. */
  readonly label?: string;
  /** The working directory, relative to the repository root (read-only). Default: the root. */
  readonly cwd?: string;
  /**
   * Run in a fresh temp dir instead, removed afterwards: each entry copies a repository path
   * (value) to a path inside it (key; `.` is the dir itself). `{}` is an empty dir.
   */
  readonly temp?: Readonly<Record<string, string>>;
  /** stdin: text (placeholders substituted), or a repository file. Default: empty. */
  readonly stdin?: string | { readonly file: string };
  /** Extra environment (placeholders substituted). */
  readonly env?: Readonly<Record<string, string>>;
  /** Prepares the temp dir before the run (temp cases only). */
  readonly setup?: (ctx: GoldenContext) => Promise<void>;
  /** Paths inside the temp dir to list after the run (recursively, with mode, size and sha256). */
  readonly list?: readonly string[];
  /** false: list without size and sha256 (random key material, an audit log's timings). */
  readonly listHashes?: boolean;
  /** Text files inside the temp dir to print after the run (a lock pin wrote, a manifest --fix rewrote). */
  readonly show?: readonly string[];
  readonly redact?: readonly Redaction[];
}

/** Characters a golden file name keeps; anything else becomes `_` (globs, quotes, braces). */
const NAME_CHAR = /[^A-Za-z0-9 ._,=@+#-]/g;

/**
 * The case's name and golden file stem, from its arguments: `/` becomes `-` so a path reads as
 * one word (`validate --json fixtures-manifests-valid-hello`), `<ROOT>` becomes `ROOT`, an empty
 * argument `EMPTY`.
 */
export function caseName(c: GoldenCase): string {
  const args = c.args.length === 0 ? 'NO-ARGUMENTS' : c.args.map((a) => (a === '' ? 'EMPTY' : a)).join(' ');
  const base = args.replaceAll('<ROOT>', 'ROOT').replaceAll('<TMP>', 'TMP').replaceAll('/', '-').replace(NAME_CHAR, '_');
  return c.label === undefined ? base : `${base} #${c.label}`;
}

/** Substitutes `<ROOT>` and `<TMP>` in an argument, stdin or environment value. */
export function substitute(text: string, root: string, tmp: string | undefined): string {
  const withRoot = text.replaceAll('<ROOT>', root);
  return tmp === undefined ? withRoot : withRoot.replaceAll('<TMP>', tmp);
}

/** Quotes an argument as a POSIX shell would need it, so the command line in a golden can be pasted. */
function shellQuote(arg: string): string {
  // The placeholders stay readable (`<ROOT>/fixtures/...`); they are not shell syntax here.
  const bare = arg.replaceAll('<ROOT>', '').replaceAll('<TMP>', '');
  if (arg !== '' && /^[A-Za-z0-9_./:=@%+,-]*$/.test(bare)) return arg;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

function describeCwd(c: GoldenCase): string {
  if (c.temp === undefined) return c.cwd === undefined ? '<ROOT>' : `<ROOT>/${c.cwd}`;
  const entries = Object.entries(c.temp);
  if (entries.length === 0) return '<TMP> (empty)';
  return `<TMP> (${entries.map(([to, from]) => (to === '.' ? `a copy of ${from}` : `${to}: a copy of ${from}`)).join('; ')})`;
}

export interface Normaliser {
  /** Exact strings to replace, e.g. a temp dir (both as created and as resolved). */
  readonly paths: readonly (readonly [string, string])[];
  readonly version: string;
  readonly redact: readonly Redaction[];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Makes output byte-stable across machines and runs:
 * - temp dirs become `<TMP>` and the repository root `<ROOT>` (longest first, since a temp dir
 *   may sit inside the root);
 * - skillctl's own version becomes `<VERSION>`, but only where it names skillctl (`--version`, the
 *   SARIF driver and its rules' links to docs/codes.md, MCP serverInfo, audit records, the HTTP
 *   user agent): the fixtures' skills are
 *   at 0.1.0 too, and their versions must stay as they are;
 * - then the case's own redactions.
 */
export function normalise(text: string, n: Normaliser): string {
  let out = text;
  // A path is replaced only where it ends (not `/work/repo` inside `/work/repo-2`).
  for (const [from, to] of [...n.paths].sort((a, b) => b[0].length - a[0].length)) out = out.replace(new RegExp(`${escapeRegExp(from)}(?![\\w.-])`, 'g'), to);
  const v = escapeRegExp(n.version);
  out = out.replace(new RegExp(`^${v}\\n$`), '<VERSION>\n');
  out = out.replace(new RegExp(`("name":\\s*"skillctl",\\s*"version":\\s*")${v}"`, 'g'), '$1<VERSION>"');
  out = out.replace(new RegExp(`("skillctl_version":\\s*")${v}"`, 'g'), '$1<VERSION>"');
  out = out.replace(new RegExp(`\\bskillctl/${v}\\b`, 'g'), 'skillctl/<VERSION>');
  out = out.replace(new RegExp(`(/skillctl/blob/v)${v}/`, 'g'), '$1<VERSION>/');
  for (const r of n.redact) out = out.replace(r.pattern, r.replacement);
  return out;
}

/** A section's body, ending in a newline; a missing final newline is marked as diff marks it. */
function body(text: string): string {
  if (text === '') return '';
  return text.endsWith('\n') ? text : `${text}\n\\ no newline at end\n`;
}

/** Every file and directory under `path` (or `path` itself), with mode, size and sha256. */
export async function listing(dir: string, paths: readonly string[], hashes: boolean): Promise<string> {
  const lines: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const abs = join(dir, rel);
    let st;
    try {
      st = await lstat(abs);
    } catch {
      lines.push(`absent ${rel}`);
      return;
    }
    const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
    if (st.isSymbolicLink()) lines.push(`${mode} link ${rel} -> ${await readlink(abs)}`);
    else if (st.isDirectory()) {
      lines.push(`${mode} dir ${rel}/`);
      for (const name of (await readdir(abs)).sort()) await walk(rel === '.' ? name : `${rel}/${name}`);
    } else {
      // Without hashes the size goes too: an audit log's size follows its durations.
      const content = hashes ? `${st.size} sha256:${createHash('sha256').update(await readFile(abs)).digest('hex')}` : '<content not compared>';
      lines.push(`${mode} ${content} ${rel}`);
    }
  };
  for (const p of paths) await walk(p);
  return lines.join('\n') + '\n';
}

export interface Observed {
  readonly run: CliRun;
  /** Already normalised, as `--- files` and `--- file <path>` sections. */
  readonly files: string;
}

/** The golden file's text for a case and what its run printed (stdout and stderr not yet normalised). */
export function render(c: GoldenCase, observed: Observed, n: Normaliser): string {
  const head = [`$ skillctl ${c.args.map(shellQuote).join(' ')}`.trimEnd(), `# cwd: ${describeCwd(c)}`];
  for (const [k, v] of Object.entries(c.env ?? {})) head.push(`# env: ${k}=${v}`);
  if (c.setup !== undefined) head.push(`# setup: ${c.label ?? 'yes'} (see test/cli/golden-cases)`);
  let out = head.join('\n') + '\n';
  if (c.stdin !== undefined) out += `--- stdin${typeof c.stdin === 'string' ? '' : ` < ${c.stdin.file}`}\n${typeof c.stdin === 'string' ? body(c.stdin) : ''}`;
  out += `--- stdout\n${body(normalise(observed.run.stdout, n))}`;
  out += `--- stderr\n${body(normalise(observed.run.stderr, n))}`;
  out += observed.files;
  out += `--- exit ${observed.run.code}\n`;
  return out;
}

/** The `--- files` and `--- file` sections of a case, normalised. */
export async function fileSections(c: GoldenCase, dir: string | undefined, n: Normaliser): Promise<string> {
  if (dir === undefined) return '';
  let out = '';
  if (c.list !== undefined) out += `--- files\n${normalise(await listing(dir, c.list, c.listHashes !== false), n)}`;
  for (const file of c.show ?? []) {
    let text: string;
    try {
      text = await readFile(join(dir, file), 'utf8');
    } catch {
      out += `--- file ${file} (absent)\n`;
      continue;
    }
    out += `--- file ${file}\n${body(normalise(text, n))}`;
  }
  return out;
}
