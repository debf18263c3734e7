/**
 * What a server shows besides the entry: the skills of `skills/list` (for `--all`), and the files
 * it serves under a skill's root through `resources/list` and, when it declares `directoryRead`,
 * `resources/directory/read`. Every listing is paginated by the server and bounded here in pages
 * and in entries, so a cursor that never ends or a listing of millions ends the pull instead; and
 * in bytes, every page counted as it arrives against the pull's bound: an entry is as long as the
 * server makes it (a description, a URI), and 1,000 pages of the largest message each, all kept
 * until the pull ends, would be 32 GiB.
 */
import { pushAll } from '../findings.js';
import { diag } from '../diagnostics.js';
import { mapLimited } from '../map-limited.js';
import { toResourcePage, toSkillPage, type SkillEntry } from './answers.js';
import { ServerFailure, type SkillServer } from './connection.js';
import type { PullTally } from './fetch-skill.js';
import { PULL_FEWER, type PullLimits } from './limits.js';

const invalid = (method: string, problem: string): ServerFailure =>
  new ServerFailure(diag('MCP_PULL_RESPONSE_INVALID', `${method}: ${problem}`, { hint: 'the server does not answer as the Skills extension (SEP-2640) defines' }));

/**
 * One page of a listing, counted into `tally` (the listings of one pull together) by its length
 * as JSON; past `limits.pullBytes` the pull ends, no further page asked for.
 */
function count(tally: PullTally, limits: PullLimits, method: string, result: unknown): void {
  tally.bytes += JSON.stringify(result).length;
  if (tally.bytes > limits.pullBytes) {
    throw new ServerFailure(diag('MCP_PULL_TOO_LARGE', `${method}: the server's listings hold more than ${limits.pullBytes} bytes (${tally.bytes} read when the pull stopped); a pull reads at most ${limits.pullBytes}`, { hint: PULL_FEWER }));
  }
}

/** Pages through `method`; `take` gets each page's result and returns its next cursor. */
async function paginate(server: SkillServer, method: string, params: Record<string, unknown>, limits: PullLimits, tally: PullTally, take: (result: unknown) => string | undefined): Promise<void> {
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let page = 0; ; page++) {
    if (page >= limits.pages) {
      throw new ServerFailure(diag('MCP_PULL_TOO_MANY_SKILLS', `${method} goes on for more than ${limits.pages} pages`, { hint: 'a listing that never ends is refused' }));
    }
    const result = await server.request(method, cursor === undefined ? params : { ...params, cursor });
    count(tally, limits, method, result);
    cursor = take(result);
    if (cursor === undefined) return;
    // A cursor seen before would loop forever.
    if (seen.has(cursor)) throw invalid(method, `nextCursor ${JSON.stringify(cursor.slice(0, 80))} repeats an earlier one`);
    seen.add(cursor);
  }
}

/** Every entry of `skills/list`, at most `limits.skills`. */
export async function listSkills(server: SkillServer, limits: PullLimits, tally: PullTally): Promise<SkillEntry[]> {
  const entries: SkillEntry[] = [];
  await paginate(server, 'skills/list', {}, limits, tally, (result) => {
    const page = toSkillPage(result);
    if ('problem' in page) throw invalid('skills/list', page.problem);
    pushAll(entries, page.value.skills);
    if (entries.length > limits.skills) {
      throw new ServerFailure(diag('MCP_PULL_TOO_MANY_SKILLS', `skills/list holds more than ${limits.skills} skills; pull --all takes at most that many`, {
        hint: 'pull the skills you need by URI',
      }));
    }
    return page.value.nextCursor;
  });
  return entries;
}

/** The URIs `resources/list` gives, every page, at most `limits.listed`. */
export async function listResources(server: SkillServer, limits: PullLimits, tally: PullTally): Promise<string[]> {
  const uris: string[] = [];
  await paginate(server, 'resources/list', {}, limits, tally, (result) => {
    const page = toResourcePage(result);
    if ('problem' in page) throw invalid('resources/list', page.problem);
    for (const r of page.value.resources) uris.push(r.uri);
    if (uris.length > limits.listed) throw invalid('resources/list', `more than ${limits.listed} resources`);
    return page.value.nextCursor;
  });
  return uris;
}

/** Directory reads in flight at once during a walk: its round trips overlap, a level at a time. */
const WALK_IN_FLIGHT = 16;

/**
 * Every file URI under the directory `root`, walking `resources/directory/read` down its
 * subdirectories (only those under `root`: a child elsewhere is returned as a file URI for the
 * caller to refuse, never walked). The directories of one level are read concurrently (each
 * one's pages in turn); the bounds count every page and entry whatever the order.
 */
export async function walkDirectory(server: SkillServer, root: string, limits: PullLimits, tally: PullTally): Promise<string[]> {
  const files: string[] = [];
  const visited = new Set<string>([root]);
  let pages = 0;
  let level = [root];
  while (level.length > 0) {
    const next: string[] = [];
    await mapLimited(level, WALK_IN_FLIGHT, async (dir) => {
      let cursor: string | undefined;
      do {
        if (++pages > limits.pages) throw invalid('resources/directory/read', `more than ${limits.pages} pages under ${root}`);
        const result = await server.request('resources/directory/read', cursor === undefined ? { uri: dir } : { uri: dir, cursor });
        count(tally, limits, 'resources/directory/read', result);
        const page = toResourcePage(result);
        if ('problem' in page) throw invalid('resources/directory/read', page.problem);
        for (const r of page.value.resources) {
          if (files.length + visited.size > limits.listed) throw invalid('resources/directory/read', `more than ${limits.listed} entries under ${root}`);
          if (r.isDirectory && r.uri.startsWith(`${root}/`) && !visited.has(r.uri)) {
            visited.add(r.uri);
            next.push(r.uri);
          } else if (!r.isDirectory) files.push(r.uri);
        }
        cursor = page.value.nextCursor;
      } while (cursor !== undefined);
    });
    level = next;
  }
  return files;
}
