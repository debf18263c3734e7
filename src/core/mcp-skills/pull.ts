/**
 * `pull skill://…` in fixed steps, every one of which must pass before anything is kept: the
 * entries (skills/get for each URI, or skills/list for all), the checks on each entry, the files
 * the server shows under each skill, then every file read and verified. Nothing is written here;
 * place.ts writes the verified skills.
 */
import { skillNameKey } from '../agent-skills/index.js';
import { pushAll } from '../findings.js';
import { mapLimited } from '../map-limited.js';
import { diag, hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { toGetResult, type SkillEntry } from './answers.js';
import { checkEntry, type PlannedSkill } from './check-entry.js';
import { connectSkillServer, serverLabel, ServerFailure, withoutToken, type ServerAddress, type SkillServer } from './connection.js';
import { fetchSkill, unlistedFiles, type PulledSkill, type PullTally } from './fetch-skill.js';
import { maxMessageBytes, PULL_FEWER, type PullLimits } from './limits.js';
import { listResources, listSkills, walkDirectory } from './listing.js';

/** Which skills: the SKILL.md URIs given, or every skill the server lists. */
export type PullRequest = { readonly uris: readonly string[] } | { readonly all: true };

export interface PullResult {
  /** True when every skill asked for was verified. */
  readonly ok: boolean;
  /** The verified skills, only when `ok`. */
  readonly skills: readonly PulledSkill[];
  readonly diagnostics: readonly Diagnostic[];
}

const INVALID_PARAMS = -32602;

/** Skills whose directories are walked at once (each walk keeps its own reads in flight). */
const WALKS_AT_ONCE = 4;

async function entriesOf(server: SkillServer, request: PullRequest, limits: PullLimits, listed: PullTally): Promise<{ entry: SkillEntry; asked?: string }[]> {
  if ('all' in request) return (await listSkills(server, limits, listed)).map((entry) => ({ entry }));
  const out: { entry: SkillEntry; asked: string }[] = [];
  for (const uri of request.uris) {
    let result: unknown;
    try {
      result = await server.request('skills/get', { uri });
    } catch (err) {
      if (err instanceof ServerFailure && err.rpcCode === INVALID_PARAMS) {
        throw new ServerFailure(diag('MCP_PULL_SKILL_NOT_FOUND', `the server serves no skill ${uri}: ${err.diagnostic.message}`, { file: uri }));
      }
      throw err;
    }
    const entry = toGetResult(result);
    if ('problem' in entry) throw new ServerFailure(diag('MCP_PULL_RESPONSE_INVALID', `skills/get ${uri}: ${entry.problem}`, { file: uri }));
    out.push({ entry: entry.value, asked: uri });
  }
  return out;
}

/**
 * Two skills of one name would land in one folder: the SEP forbids discarding or preferring one
 * silently, so both are refused and the user picks one by URI.
 */
function sameNames(plans: readonly PlannedSkill[]): Diagnostic[] {
  const byName = new Map<string, string[]>();
  for (const p of plans) {
    // One name to an agent (skillNameKey), though two folders: `hello` and `ｈｅｌｌｏ`.
    const key = skillNameKey(p.skill.name);
    byName.set(key, [...(byName.get(key) ?? []), p.entry.uri]);
  }
  return [...byName.values()]
    .filter((uris) => uris.length > 1)
    .flatMap((uris) =>
      uris.map((u) =>
        diag('MCP_PULL_NAME_COLLISION', `${u} has the name of ${uris.filter((o) => o !== u).join(', ')}; an agent takes both for one skill (or one folder would hold both)`, {
          file: u,
          hint: 'pull one of them by its URI',
        }),
      ),
    );
}

/** The sizes the entries declare, every skill together: past the pull's bound, refused before any file is read. */
function declaredTooLarge(plans: readonly PlannedSkill[], limits: PullLimits): Diagnostic[] {
  const declared = plans.reduce((n, p) => n + p.files.reduce((m, f) => m + (f.size ?? 0), 0), 0);
  if (declared <= limits.pullBytes) return [];
  return [diag('MCP_PULL_TOO_LARGE', `the entries' files hold ${declared} bytes in all; a pull reads at most ${limits.pullBytes}`, { hint: PULL_FEWER })];
}

/** The steps on a connected server. Throws `ServerFailure` when the server cannot be used. */
export async function pullFrom(server: SkillServer, request: PullRequest, limits: PullLimits): Promise<PullResult> {
  const found: Diagnostic[] = [];
  const plans: PlannedSkill[] = [];
  // The listings' bytes, every listing of the pull together (bounded apart from the files').
  const listed: PullTally = { bytes: 0 };
  for (const { entry, asked } of await entriesOf(server, request, limits, listed)) {
    const checked = checkEntry(entry, limits, asked);
    pushAll(found, checked.diagnostics);
    if (checked.plan !== undefined) plans.push(checked.plan);
  }
  pushAll(found, sameNames(plans));
  pushAll(found, declaredTooLarge(plans, limits));
  if (hasErrors(found) || plans.length === 0) return { ok: !hasErrors(found), skills: [], diagnostics: sortDiagnostics(found) };
  // What the server shows besides the entries, asked for at once (independent requests, a few
  // skills' walks at a time); a failure is reported in a fixed order (the listing, then each
  // skill's walk), not by which answer came first.
  const settle = <T>(p: Promise<T>): Promise<{ value: T } | { error: unknown }> => p.then((value) => ({ value }), (error: unknown) => ({ error }));
  const [listing, walks] = await Promise.all([
    settle(listResources(server, limits, listed)),
    mapLimited(plans, WALKS_AT_ONCE, (p) => settle(server.directoryRead ? walkDirectory(server, p.skill.root, limits, listed) : Promise.resolve([]))),
  ]);
  for (const r of [listing, ...walks]) if ('error' in r) throw r.error;
  const shown = (listing as { value: string[] }).value;
  for (const [i, plan] of plans.entries()) pushAll(found, unlistedFiles(plan, [...shown, ...(walks[i] as { value: string[] }).value]));
  if (hasErrors(found)) return { ok: false, skills: [], diagnostics: sortDiagnostics(found) };
  const skills: PulledSkill[] = [];
  // Every verified skill is held until all are placed: the pull as a whole is bounded too.
  const tally: PullTally = { bytes: 0 };
  for (const plan of plans) {
    const r = await fetchSkill(server, plan, limits, tally);
    pushAll(found, r.diagnostics);
    if (r.skill !== undefined) skills.push(r.skill);
    if (tally.bytes > limits.pullBytes) break;
  }
  const ok = !hasErrors(found);
  return { ok, skills: ok ? skills : [], diagnostics: sortDiagnostics(found) };
}

export interface PullOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly limits: PullLimits;
  /** A stdio server's stderr (ConnectOptions.onStderr). */
  readonly onStderr?: (text: string) => void;
  /** A Streamable HTTP server's bearer token (ConnectOptions.bearerToken); default none. */
  readonly bearerToken?: string;
}

/** Connects to `address`, pulls, and closes; a server that cannot be used is a finding, not a throw. */
export async function pullSkills(address: ServerAddress, request: PullRequest, opts: PullOptions): Promise<PullResult> {
  const r = await pullOnce(address, request, opts);
  return opts.bearerToken === undefined ? r : { ...r, diagnostics: withoutToken(r.diagnostics, opts.bearerToken) };
}

async function pullOnce(address: ServerAddress, request: PullRequest, opts: PullOptions): Promise<PullResult> {
  const label = serverLabel(address);
  const failed = (err: unknown): PullResult => {
    if (!(err instanceof ServerFailure)) throw err;
    const d = err.diagnostic;
    return { ok: false, skills: [], diagnostics: [d.file === undefined ? { ...d, file: label } : d] };
  };
  let server: SkillServer;
  try {
    server = await connectSkillServer(address, {
      cwd: opts.cwd,
      timeoutMs: opts.timeoutMs,
      maxMessageBytes: maxMessageBytes(opts.limits),
      ...(opts.onStderr !== undefined ? { onStderr: opts.onStderr } : {}),
      ...(opts.bearerToken !== undefined ? { bearerToken: opts.bearerToken } : {}),
    });
  } catch (err) {
    return failed(err);
  }
  try {
    return await pullFrom(server, request, opts.limits);
  } catch (err) {
    return failed(err);
  } finally {
    await server.close().catch(() => undefined);
  }
}
