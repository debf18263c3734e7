/**
 * `skillctl mcp --skills`: the project's Agent Skills served through the MCP Skills extension
 * (SEP-2640, `io.modelcontextprotocol/skills`): `skills/list` and `skills/get` give each skill's
 * frontmatter and every file with its sha256 digest; `resources/read` gives a file's bytes, as
 * `skill://<name>/<path>`. Every request reads the folders afresh, so a listing's digests are
 * those of the files as they are, and a host that reads a file changed since sees the mismatch
 * the extension tells it to act on. Only a file the skill's listing names is ever read: a URI is
 * looked up in the listing, never joined onto a path.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListResourcesRequestSchema, McpError, ReadResourceRequestSchema, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SERVED_SKILL_MD, type ServedSkill, type ServedSkills } from '../core/agent-skills/index.js';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** MCP's "resource not found" (the specification's -32002). */
const RESOURCE_NOT_FOUND = -32002;

/** The largest file `resources/read` returns, whole, in one message. */
export const MAX_SERVED_FILE_BYTES = 16 * 1024 * 1024;

/** The skills a server offers, read afresh on each call. */
export interface SkillCatalogue {
  /** The skills, and why any folder is not served. */
  list(): Promise<ServedSkills>;
  /** The skill named `name`, or undefined. */
  get(name: string): Promise<ServedSkill | undefined>;
}

const SkillsListRequestSchema = z.object({ method: z.literal('skills/list'), params: z.optional(z.looseObject({ cursor: z.optional(z.string()) })) });
const SkillsGetRequestSchema = z.object({ method: z.literal('skills/get'), params: z.looseObject({ uri: z.string() }) });

/** `skill://<name>/<path>`, each segment percent-encoded. */
export function skillUri(name: string, path?: string): string {
  const rest = path === undefined ? '' : `/${path.split('/').map(encodeURIComponent).join('/')}`;
  return `skill://${encodeURIComponent(name)}${rest}`;
}

/** The skill name and file path a URI names (path undefined for the skill's root), or undefined. */
function parseUri(uri: string): { name: string; path?: string } | undefined {
  const m = /^skill:\/\/([^/?#]+)(?:\/([^?#]*))?$/.exec(uri);
  if (m === null) return undefined;
  try {
    const name = decodeURIComponent(m[1] as string);
    const path = m[2] === undefined || m[2] === '' ? undefined : m[2].split('/').map(decodeURIComponent).join('/');
    return path === undefined ? { name } : { name, path };
  } catch {
    return undefined;
  }
}

function entryOf(s: ServedSkill): Record<string, unknown> {
  return {
    uri: skillUri(s.name, SERVED_SKILL_MD),
    frontmatter: s.frontmatter,
    resources: s.files.map((f) => ({ uri: skillUri(s.name, f.path), digest: f.digest, size: f.size })),
  };
}

function mimeOf(path: string): string {
  return path.endsWith('.md') ? 'text/markdown' : 'text/plain';
}

async function readFileOf(skill: ServedSkill, path: string, uri: string): Promise<ReadResourceResult> {
  const file = skill.files.find((f) => f.path === path);
  if (file === undefined) throw new McpError(RESOURCE_NOT_FOUND, `${uri}: skill ${skill.name} has no file ${path}`);
  if (file.size > MAX_SERVED_FILE_BYTES) throw new McpError(ErrorCode.InvalidRequest, `${uri}: ${file.size} bytes is more than the ${MAX_SERVED_FILE_BYTES} a read returns`);
  const bytes = await skill.source.read(path);
  let text: string | undefined;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = undefined;
  }
  const content = text !== undefined ? { uri, mimeType: mimeOf(path), text } : { uri, mimeType: 'application/octet-stream', blob: bytes.toString('base64') };
  return { contents: [content] };
}

/** Registers the extension's methods and the resource reads on `server` (declared with `resources` and the extension). */
export function serveSkills(server: Server, catalogue: SkillCatalogue): void {
  const named = async (uri: string): Promise<{ skill: ServedSkill; path?: string }> => {
    const parsed = parseUri(uri);
    const skill = parsed !== undefined ? await catalogue.get(parsed.name) : undefined;
    if (parsed === undefined || skill === undefined) throw new McpError(ErrorCode.InvalidParams, `${uri} is not a skill this server serves`);
    return parsed.path === undefined ? { skill } : { skill, path: parsed.path };
  };
  server.setRequestHandler(SkillsListRequestSchema, async () => ({ skills: (await catalogue.list()).skills.map(entryOf) }));
  server.setRequestHandler(SkillsGetRequestSchema, async (req) => {
    const { skill, path } = await named(req.params.uri);
    if (path !== undefined && path !== SERVED_SKILL_MD) throw new McpError(ErrorCode.InvalidParams, `${req.params.uri} is a file, not a skill; skills/get takes the skill's SKILL.md URI`);
    return { skill: entryOf(skill) };
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: (await catalogue.list()).skills.map(
      (s): Resource => ({
        uri: skillUri(s.name, SERVED_SKILL_MD),
        name: s.name,
        mimeType: 'text/markdown',
        ...(typeof s.frontmatter.description === 'string' ? { description: s.frontmatter.description } : {}),
      }),
    ),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const uri = req.params.uri;
    const parsed = parseUri(uri);
    const skill = parsed !== undefined ? await catalogue.get(parsed.name) : undefined;
    if (parsed?.path === undefined || skill === undefined) throw new McpError(RESOURCE_NOT_FOUND, `${uri} is not a file of a skill this server serves`);
    return readFileOf(skill, parsed.path, uri);
  });
}
