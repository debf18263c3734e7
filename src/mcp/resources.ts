/**
 * The server's resources: each capability's skill_doc as `capability://<capability_id>/skill.md`
 * (so a client that browses resources sees what `capability_skill_load` would return as
 * instructions), and with `--skills` every file of every served Agent Skill (skills.ts). Reading a
 * skill_doc does not load the capability: the session's tools are unchanged.
 */
import { ListResourcesRequestSchema, ReadResourceRequestSchema, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { SnapshotPages } from './paging.js';
import type { Handle } from './handle.js';
import type { Session } from './session.js';
import { MAX_SNAPSHOTS, readSkillResource, serveSkills, skillResources, type SkillCatalogue } from './skills.js';
import { RPC, RpcError } from './wire/errors.js';

/** Resources a page of `resources/list` carries. */
export const RESOURCES_PAGE_SIZE = 500;

export function skillDocUri(capabilityId: string): string {
  return `capability://${encodeURIComponent(capabilityId)}/skill.md`;
}

async function docResources(session: Session): Promise<Resource[]> {
  const r = await session.list();
  if (!r.ok) return [];
  return r.capabilities.map((c) => ({ uri: skillDocUri(c.capability_id), name: `${c.capability_id} skill_doc`, title: c.name, description: c.description, mimeType: 'text/markdown' }));
}

/**
 * `resources/read` of a `skill://` URI, answered past the SDK's dispatch (wire/gate.ts): only
 * params of the URI alone, which the SDK's schema accepts as they are; anything else (another
 * scheme, `_meta`, a URI that is not a string) goes the SDK's way and gets its answer there.
 */
export function directSkillRead(skills: SkillCatalogue): (method: string, params: Record<string, unknown> | undefined) => Promise<object> | undefined {
  return (method, params) => {
    if (method !== 'resources/read' || params === undefined) return undefined;
    const uri = params.uri;
    if (typeof uri !== 'string' || !uri.startsWith('skill://') || Object.keys(params).length !== 1) return undefined;
    return readSkillResource(skills, uri);
  };
}

export function serveResources(handle: Handle, session: Session, skills: SkillCatalogue | undefined): void {
  // The pages of one listing are cut from one snapshot of it, as skills/list's are (paging.ts):
  // cut from a fresh listing each, a tree changed between pages gave an entry twice or never.
  const listings = new SnapshotPages<Resource>(MAX_SNAPSHOTS);
  handle(ListResourcesRequestSchema, async (req) => {
    const take = async (): Promise<Resource[]> => [...(await docResources(session)), ...(skills !== undefined ? await skillResources(skills) : [])];
    const { items, nextCursor } = await listings.page(req.params?.cursor, RESOURCES_PAGE_SIZE, take);
    return { resources: items, ...(nextCursor !== undefined ? { nextCursor } : {}) };
  });
  handle(ReadResourceRequestSchema, async (req) => {
    const { uri } = req.params;
    const doc = /^capability:\/\/([^/?#]+)\/skill\.md$/.exec(uri);
    if (doc !== null) {
      let id: string;
      try {
        id = decodeURIComponent(doc[1] as string);
      } catch {
        throw new RpcError(RPC.RESOURCE_NOT_FOUND, `Resource not found: ${uri}`);
      }
      const r = await session.skillDoc(id);
      if (!r.ok) throw new RpcError(RPC.RESOURCE_NOT_FOUND, `Resource not found: ${uri}: ${r.error.message}`);
      return { contents: [{ uri, mimeType: 'text/markdown', text: r.text }] };
    }
    if (skills !== undefined && uri.startsWith('skill://')) return readSkillResource(skills, uri);
    throw new RpcError(RPC.RESOURCE_NOT_FOUND, `Resource not found: ${uri} is not a resource this server serves`);
  });
  if (skills !== undefined) serveSkills(handle, skills);
}
