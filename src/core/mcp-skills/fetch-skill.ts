/**
 * Reads every file an entry lists and verifies it (SEP-2640 "Integrity and verification"): the
 * bytes against the entry's size and `sha256:` digest, the SKILL.md frontmatter field by field
 * against the entry's, no file under the skill that the entry leaves out, and then the folder as
 * an Agent Skill (the checks `validate` runs). Content that fails is never kept: the result holds
 * files only when every check passed.
 */
import { memorySource } from '../bundle/index.js';
import { parseSkillMd, validateAgentSkillSource } from '../agent-skills/index.js';
import { pushAll } from '../findings.js';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { sha256, type Sha256Digest } from '../digest/index.js';
import { mapLimited } from '../map-limited.js';
import { toReadResult } from './answers.js';
import type { PlannedSkill } from './check-entry.js';
import { ServerFailure, type SkillServer } from './connection.js';
import { compareFrontmatter } from './frontmatter-compare.js';
import { PULL_FEWER, type PullLimits } from './limits.js';
import { SKILL_MD } from './uri.js';

/** Requests in flight at once: the round trips overlap, the server still sees a bounded load. */
const READS_IN_FLIGHT = 16;

export interface PulledFile {
  readonly path: string;
  readonly digest: Sha256Digest;
  readonly size: number;
  readonly bytes: Buffer;
}

export interface PulledSkill {
  /** The skill's SKILL.md URI. */
  readonly uri: string;
  readonly name: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** In the entry's order. */
  readonly files: readonly PulledFile[];
}

/**
 * Files the server shows under the skill's root (from `resources/list` and the directory walk)
 * that the entry does not list. `shown` may hold URIs of other skills; only those under the root
 * count.
 */
export function unlistedFiles(plan: PlannedSkill, shown: readonly string[]): Diagnostic[] {
  const listed = new Set(plan.files.map((f) => f.uri));
  const under = `${plan.skill.root}/`;
  const extra = [...new Set(shown.filter((u) => u.startsWith(under) && !listed.has(u)))].sort();
  return extra.map((u) =>
    diag('MCP_PULL_FILE_UNLISTED', `the server serves ${u}, which the entry's resources leave out`, {
      file: plan.entry.uri,
      pointer: '/resources',
      hint: "an entry's resources must list every file of the skill; an unlisted file is a changed skill",
    }),
  );
}

/** What one pull has read so far, every skill together: the measure of `limits.pullBytes`. */
export interface PullTally {
  bytes: number;
}

/**
 * Reads and verifies every listed file, then the skill as a whole. Each answer is counted as it
 * arrives, against the skill's bound and the pull's (`tally`): a server that leaves sizes out, or
 * lies about them, is stopped there (no further request; answers already in flight are dropped),
 * not after it has sent everything. The bytes of a file that fails its size or digest are dropped
 * too: only the finding is kept.
 */
export async function fetchSkill(server: SkillServer, plan: PlannedSkill, limits: PullLimits, tally: PullTally): Promise<{ readonly skill?: PulledSkill; readonly diagnostics: readonly Diagnostic[] }> {
  const file = plan.entry.uri;
  const found: Diagnostic[] = [];
  let total = 0;
  let stopped: Diagnostic | undefined;
  const read = await mapLimited(plan.files, READS_IN_FLIGHT, async (f, i): Promise<PulledFile | undefined> => {
    if (stopped !== undefined) return undefined;
    let answer: unknown;
    try {
      answer = await server.request('resources/read', { uri: f.uri });
    } catch (err) {
      // Past a bound the rest of the skill no longer matters, nor does how a late request failed.
      if (stopped !== undefined) return undefined;
      throw err;
    }
    if (stopped !== undefined) return undefined;
    const result = toReadResult(answer, f.uri);
    if ('problem' in result) {
      throw new ServerFailure(diag('MCP_PULL_RESPONSE_INVALID', `resources/read ${f.uri}: ${result.problem}`, { file }));
    }
    const bytes = result.value.bytes;
    const pointer = `/resources/${i}`;
    total += bytes.length;
    tally.bytes += bytes.length;
    if (total > limits.totalBytes) {
      stopped = diag('MCP_PULL_SKILL_TOO_LARGE', `the skill's files hold more than ${limits.totalBytes} bytes (${total} read when the pull stopped); a pull takes at most ${limits.totalBytes} a skill`, { file });
      return undefined;
    }
    if (tally.bytes > limits.pullBytes) {
      stopped = diag('MCP_PULL_TOO_LARGE', `the pull's skills hold more than ${limits.pullBytes} bytes in all (${tally.bytes} read when it stopped); a pull reads at most ${limits.pullBytes}`, {
        file,
        hint: PULL_FEWER,
      });
      return undefined;
    }
    if (bytes.length > limits.fileBytes) {
      found.push(diag('MCP_PULL_FILE_TOO_LARGE', `${f.uri} is ${bytes.length} bytes; a pull reads at most ${limits.fileBytes} per file`, { file, pointer }));
      return undefined;
    }
    let kept = true;
    if (f.size !== undefined && bytes.length !== f.size) {
      found.push(diag('MCP_PULL_SIZE_MISMATCH', `${f.uri} is ${bytes.length} bytes; the entry says ${f.size}`, { file, pointer: `${pointer}/size` }));
      kept = false;
    }
    const digest = sha256(bytes);
    if (digest !== f.digest) {
      found.push(diag('MCP_PULL_DIGEST_MISMATCH', `${f.uri} has digest ${digest}; the entry says ${f.digest}`, {
        file,
        pointer: `${pointer}/digest`,
        hint: 'the content is not what the entry promised (tampered with, or changed since): it is not used',
      }));
      kept = false;
    }
    return kept ? { path: f.path, digest, size: bytes.length, bytes } : undefined;
  });
  if (stopped !== undefined) found.push(stopped);
  if (hasErrors(found)) return { diagnostics: found };
  const files = read.filter((f): f is PulledFile => f !== undefined);
  const skillMd = files.find((f) => f.path === SKILL_MD) as PulledFile;
  const doc = parseSkillMd(skillMd.bytes);
  if (doc.frontmatter !== undefined) pushAll(found, compareFrontmatter(plan.entry.frontmatter, doc.frontmatter, file));
  // The folder as `validate` sees it, named after the URI's last segment (the extension's rule).
  const validation = await validateAgentSkillSource(memorySource(files.map((f) => ({ path: f.path, data: f.bytes, mode: '0644' as const })), plan.skill.name), {
    label: plan.skill.name,
    dirName: plan.skill.name,
  });
  pushAll(found, validation.diagnostics);
  if (hasErrors(found)) return { diagnostics: found };
  return { skill: { uri: plan.entry.uri, name: plan.skill.name, frontmatter: plan.entry.frontmatter, files }, diagnostics: found };
}
