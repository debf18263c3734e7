/**
 * A repository's git configuration, read whole, and the overrides that neutralise every program
 * it names. The configuration is attacker-controlled (DESIGN.md, "Arguments and repositories are
 * input"): a filter, textconv or diff driver, fsmonitor, pager, hook, credential helper, gpg or
 * ssh program named there is run by git. Overrides are passed to git as GIT_CONFIG_COUNT /
 * GIT_CONFIG_KEY_<n> / GIT_CONFIG_VALUE_<n> (git 2.31), never as `-c key=value`: git splits `-c`
 * at the first `=`, so `-c filter.a=b.clean=` overrode the key `filter.a`, and the repository's
 * driver `a=b` ran. Keys come back from `git config --list --null` exactly as git canonicalised
 * them (section and variable names lowercased, subsections kept byte for byte), so an override
 * names the very key git will look up, whatever case, dots, `=` or quotes its name holds.
 */

/** One line of `git config --list --show-scope --show-origin --null`. */
export interface ConfigEntry {
  /** `local`, `worktree`, `command`... (system and global are never read). */
  readonly scope: string;
  /** `file:<path>` (relative paths are relative to git's directory), `command line:`... */
  readonly origin: string;
  /** The key as git printed it, each byte one character (latin1): what rules match against. */
  readonly raw: string;
  /** The key as UTF-8, or undefined when it is not UTF-8 (and so cannot be put in the environment). */
  readonly key: string | undefined;
  readonly value: string | undefined;
}

/** The listing is cut here: a configuration that lists more is refused, never read in part. */
export const CONFIG_MAX = 4 * 1024 * 1024;
/** Bytes of overrides passed in the environment (ARG_MAX holds the environment too). */
const OVERRIDES_MAX = 256 * 1024;

/**
 * Set for every invocation, last, so that they win over the repository's values. Programs:
 * `core.fsmonitor`, hooks, pagers, editors, askpass, ssh, an external diff, credential helpers and
 * gpg (which `log.showSignature` would run on a signed commit); `protocol.allow` and
 * GIT_ALLOW_PROTOCOL (in git.ts) stop every transport, so a lazy fetch of a partial clone never
 * reaches a remote's command. Files the repository could name outside the grant: the attributes
 * and excludes files and the diff order file. And no cache is written, no colour is added.
 */
export const FIXED: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.hookspath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  ['core.askpass', ''],
  ['core.sshcommand', ''],
  ['diff.external', ''],
  // An empty value empties the list of helpers gathered so far.
  ['credential.helper', ''],
  ['gpg.program', ''],
  ['log.showsignature', 'false'],
  ['protocol.allow', 'never'],
  ['status.submodulesummary', 'false'],
  ['core.attributesfile', '/dev/null'],
  ['core.excludesfile', '/dev/null'],
  ['diff.orderfile', '/dev/null'],
  ['core.untrackedcache', 'false'],
  ['color.ui', 'false'],
];

/**
 * Set for every git skillctl runs (the git skills, verify-pins --staged and --rev), over an
 * environment from which GIT_* names other than those locating the repository are dropped.
 */
export const NEUTRAL_ENV: Readonly<Record<string, string>> = {
  GIT_ATTR_NOSYSTEM: '1',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_TERMINAL_PROMPT: '0',
  // A replace ref would show other objects than the repository's own.
  GIT_NO_REPLACE_OBJECTS: '1',
  // Set and empty: no transport is allowed, whatever `protocol.<name>.allow` the repository sets
  // (which outranks `protocol.allow`): a partial clone's lazy fetch would run `ext::` commands,
  // a file:// remote's `uploadpack` or `core.sshCommand`.
  GIT_ALLOW_PROTOCOL: '',
  // git 2.45 and later: a missing object is an error, never a fetch.
  GIT_NO_LAZY_FETCH: '1',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  LC_ALL: 'C',
};

/** Variables never passed to git: programs it would start. */
export const DROPPED_ENV: ReadonlySet<string> = new Set(['PAGER', 'EDITOR', 'VISUAL', 'SSH_ASKPASS']);

/** The environment that hands `pairs` to git as configuration of the `command` scope. */
export function configEnv(pairs: readonly (readonly [string, string])[]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
function utf8(bytes: Buffer): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Parses the listing (bytes: names need not be UTF-8); undefined when it is not in git's format. */
export function parseListing(out: Buffer): ConfigEntry[] | undefined {
  const fields: Buffer[] = [];
  let start = 0;
  for (let i = out.indexOf(0); i !== -1; i = out.indexOf(0, start)) {
    fields.push(out.subarray(start, i));
    start = i + 1;
  }
  if (start !== out.length || fields.length % 3 !== 0) return undefined;
  const entries: ConfigEntry[] = [];
  for (let i = 0; i < fields.length; i += 3) {
    const [scope, origin, item] = [fields[i], fields[i + 1], fields[i + 2]] as [Buffer, Buffer, Buffer];
    const nl = item.indexOf(0x0a);
    const keyBytes = nl === -1 ? item : item.subarray(0, nl);
    entries.push({
      scope: scope.toString('latin1'),
      origin: utf8(origin) ?? '',
      raw: keyBytes.toString('latin1'),
      key: utf8(keyBytes),
      value: nl === -1 ? undefined : item.subarray(nl + 1).toString('utf8'),
    });
  }
  return entries;
}

/** A key cut into git's three parts; `sub` is undefined for two-part keys (`core.pager`). */
interface KeyParts {
  readonly section: string;
  readonly sub: string | undefined;
  readonly name: string;
}

function partsOf(key: string): KeyParts {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  return { section: key.slice(0, first), sub: first === last ? undefined : key.slice(first + 1, last), name: key.slice(last + 1) };
}

/** The canonical form git uses: section and variable name lowercased, the subsection kept. */
export function canonicalKey(key: string): string {
  const k = partsOf(key);
  return [k.section.toLowerCase(), ...(k.sub === undefined ? [] : [k.sub]), k.name.toLowerCase()].join('.');
}

/**
 * Variable names that hold a program (or, for `*hook`, a program's name) in any section, known or
 * future: `diff.<driver>.command`, `core.sshCommand`, `core.alternateRefsCommand`,
 * `gpg.<format>.program`, `credential.<url>.helper`, `merge.<driver>.driver`, `difftool.<tool>.cmd`,
 * `remote.<name>.uploadpack`, `core.gitProxy`... Each gets the empty value, which git reads as
 * "none" (and as false for the booleans among them, such as `diff.<driver>.cachetextconv`).
 */
const PROGRAM_NAME = /(?:command|cmd|program|helper|driver|textconv|editor|askpass|hook|external|uploadpack|receivepack|proxy)$/;

const TOOL_SECTIONS = new Set(['difftool', 'mergetool', 'browser', 'man']);

/** The overrides for one key of the repository's configuration (none when it names no program). */
function overridesOf(k: KeyParts, key: string): (readonly [string, string])[] {
  if (k.section === 'filter' && k.sub !== undefined && (k.name === 'clean' || k.name === 'smudge' || k.name === 'process')) {
    // A required filter with no command fails the command instead of passing content through.
    return [[key, ''], [`filter.${k.sub}.required`, 'false']];
  }
  if (k.section === 'pager') return [[key, 'false']];
  if (k.section === 'core' && k.sub === undefined && k.name === 'fsmonitor') return [[key, 'false']];
  if (k.section === 'remote' && k.sub !== undefined && k.name === 'vcs') return [[key, '']];
  if (k.section === 'submodule' && k.sub !== undefined && k.name === 'update') return [[key, 'none']];
  // `difftool.<tool>.path`, `mergetool.<tool>.path`, `browser.<tool>.path`, `man.<tool>.path`: a program's path.
  if (k.sub !== undefined && k.name === 'path' && TOOL_SECTIONS.has(k.section)) return [[key, '']];
  if (PROGRAM_NAME.test(k.name)) return [[key, '']];
  return [];
}

export type Neutralised =
  | { readonly ok: true; readonly overrides: readonly (readonly [string, string])[] }
  | { readonly ok: false; readonly reason: string };

/**
 * The overrides for every key of the repository's own configuration that names a program, followed
 * by FIXED. Refused when a key to override is not UTF-8 (the environment git gets is UTF-8 text,
 * so the override would name another key) or when there are too many to pass.
 */
export function neutralise(entries: readonly ConfigEntry[]): Neutralised {
  const fixed = new Set(FIXED.map(([k]) => k));
  const found = new Map<string, string>();
  for (const e of entries) {
    if (e.scope === 'command') continue;
    const wanted = overridesOf(partsOf(e.raw), e.raw);
    if (wanted.length === 0) continue;
    if (e.key === undefined) return { ok: false, reason: `a configuration key that names a program is not UTF-8 (${JSON.stringify(e.raw)})` };
    for (const [k, v] of overridesOf(partsOf(e.key), e.key)) if (!fixed.has(k)) found.set(k, v);
  }
  const overrides = [...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const bytes = overrides.reduce((n, [k, v]) => n + Buffer.byteLength(k) + v.length + 40, 0);
  if (bytes > OVERRIDES_MAX) return { ok: false, reason: `the configuration names ${overrides.length} programs, more than can be overridden` };
  return { ok: true, overrides: [...overrides, ...FIXED] };
}

/**
 * Whether git took the overrides from the environment: the `command` scope of the listing is
 * exactly FIXED. A git older than 2.31 ignores GIT_CONFIG_COUNT, and its listing has none of them.
 */
export function tookOverrides(entries: readonly ConfigEntry[]): boolean {
  const seen = entries.filter((e) => e.scope === 'command').map((e) => `${e.key ?? ''}=${e.value ?? ''}`);
  const sent = FIXED.map(([k, v]) => `${canonicalKey(k)}=${v}`);
  return seen.length === sent.length && seen.every((s, i) => s === sent[i]);
}

/** The configuration files git read (`file:` origins, as printed), or a reason to refuse. */
export function configFiles(entries: readonly ConfigEntry[]): { readonly files: readonly string[] } | { readonly reason: string } {
  const files = new Set<string>();
  for (const e of entries) {
    if (e.scope === 'command') continue;
    if (!e.origin.startsWith('file:') || e.origin.length === 5) return { reason: `git read configuration from ${JSON.stringify(e.origin || 'a path that is not UTF-8')}` };
    files.add(e.origin.slice(5));
  }
  return { files: [...files].sort() };
}

/** `git version 2.39.5` -> true when older than 2.31 (or unreadable). */
export function olderThan231(version: string): boolean {
  const m = /^git version (\d+)\.(\d+)/.exec(version.trim());
  if (m === null) return true;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major < 2 || (major === 2 && minor < 31);
}
