/**
 * The `skill` tool of seed 000, served next to the registry's tools: a behaviour pack as raw
 * BM-L1 text, marked `line_protocol`. The same request check and bytes as `skillctl skill`.
 */
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { packCatalogue, PACK_MAX_CHARS, PACK_MIN_CHARS, renderRequest, type Pack } from '../core/behaviour-packs/index.js';
import type { ExtraTool } from './server.js';

/** The tool over the built-in packs plus `extra` (operator packs, already validated by loadPackDir). */
export function packTool(extra: readonly Pack[] = []): ExtraTool {
  const catalogue = packCatalogue(extra);
  const packs = catalogue.value ?? [];
  const profiles = packs.map((p) => p.profile);
  const definition: McpTool = {
    name: 'skill',
    description:
      'A behaviour pack: compact guidance (BM-L1 text) for discovering, loading, running and verifying skills with skillctl. ' +
      `profile is one of ${profiles.join(', ')} (default daily); max_chars is the text budget in characters (clamped to ${PACK_MIN_CHARS}..${PACK_MAX_CHARS}; none: the whole pack; every budget keeps the identity line and the next loop).`,
    inputSchema: {
      type: 'object',
      properties: { profile: { type: 'string', enum: profiles }, max_chars: { type: 'integer' } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  };
  return {
    definition,
    // The seed makes every bad request, arguments that are not an object included, INVALID_INPUT.
    ownArgumentCheck: true,
    call(args) {
      const r = renderRequest(args, packs);
      if (r.value === undefined) {
        const error = { code: 'INVALID_INPUT', message: r.diagnostics.map((d) => d.message).join('; '), diagnostics: r.diagnostics };
        return Promise.resolve({ isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] });
      }
      const v = r.value;
      return Promise.resolve({
        content: [{ type: 'text', text: v.text }],
        _meta: { line_protocol: true, profile: v.profile, skill_pack_version: v.skill_pack_version, max_chars: v.max_chars, truncated: v.truncated, clamped: v.clamped },
      });
    },
  };
}
