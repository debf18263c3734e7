/**
 * The behaviour packs as MCP prompts, for clients that browse prompts rather than call tools:
 * `prompts/list` names each profile, `prompts/get` gives the pack's BM-L1 text as one user
 * message, byte-identical to the `skill` tool's text for the same profile and budget.
 */
import { GetPromptRequestSchema, ListPromptsRequestSchema, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import { renderRequest, type Pack } from '../core/behaviour-packs/index.js';
import type { Handle } from './handle.js';
import { RPC, RpcError } from './wire/errors.js';

export function servePackPrompts(handle: Handle, packs: readonly Pack[]): void {
  handle(ListPromptsRequestSchema, () => ({
    prompts: packs.map(
      (p): Prompt => ({
        name: p.profile,
        title: `skillctl behaviour pack: ${p.profile}`,
        description: p.description,
        arguments: [{ name: 'max_chars', description: 'the text budget in characters (an integer; none: the whole pack)', required: false }],
      }),
    ),
  }));
  handle(GetPromptRequestSchema, (req) => {
    const { name, arguments: args } = req.params;
    if (!packs.some((p) => p.profile === name)) {
      throw new RpcError(RPC.INVALID_PARAMS, `Invalid params: no prompt ${JSON.stringify(name)}; the prompts are ${packs.map((p) => p.profile).join(', ')}`);
    }
    const budget = args?.max_chars;
    // Prompt arguments are strings (MCP); the pack's budget is an integer.
    if (budget !== undefined && !/^\d{1,9}$/.test(budget)) {
      throw new RpcError(RPC.INVALID_PARAMS, `Invalid params: max_chars must be an integer, not ${JSON.stringify(budget)}`);
    }
    const r = renderRequest({ profile: name, ...(budget !== undefined ? { max_chars: Number(budget) } : {}) }, packs);
    if (r.value === undefined) throw new RpcError(RPC.INVALID_PARAMS, `Invalid params: ${r.diagnostics.map((d) => d.message).join('; ')}`);
    return {
      description: `behaviour pack ${r.value.profile} ${r.value.skill_pack_version}${r.value.truncated ? ' (truncated to the budget)' : ''}`,
      messages: [{ role: 'user', content: { type: 'text', text: r.value.text } }],
    };
  });
}
