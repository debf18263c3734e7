/**
 * `skillctl mcp`: the skill loading protocol served to agents over the Model Context Protocol,
 * with the official TypeScript SDK. The session starts with the protocol's meta-tools; loading a
 * capability adds its tools under namespaced names and tells the client with
 * `notifications/tools/list_changed`; calling one runs its bound skill entrypoint through the
 * executor the caller provides (the run engine, under the host policy, with an audit record).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { Tool, ToolBinding } from '../core/registry/index.js';
import { limitConcurrency } from './limit.js';
import { Session, type ApprovalMode, type SessionRegistry, type SessionTool } from './session.js';
import { serveSkills, SKILLS_EXTENSION, type SkillCatalogue } from './skills.js';

/** What running a bound tool produced: the accepted output, or an error the agent can read. */
export type ToolRunOutcome =
  | { readonly ok: true; readonly output: unknown }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string; readonly [k: string]: unknown } };

/** Runs the skill entrypoint a tool is bound to, with the tool's arguments as its input. */
export type ToolExecutor = (call: { readonly name: string; readonly capabilityId: string; readonly tool: Tool; readonly binding: ToolBinding; readonly args: unknown }) => Promise<ToolRunOutcome>;

/** A call the server refused before anything ran (the approval gate), for the audit log. */
export type RefusalRecorder = (call: { readonly name: string; readonly capabilityId: string; readonly tool: Tool; readonly args: unknown; readonly code: 'TOOL_APPROVAL_REQUIRED'; readonly reason: string }) => Promise<void>;

/** An extra tool served next to the protocol's (the behaviour-pack `skill` tool). */
export interface ExtraTool {
  readonly definition: McpTool;
  call(args: Record<string, unknown>): Promise<CallToolResult>;
}

export interface McpServerOptions {
  /** The registry served: a directory, or layers read as one view (upper first). */
  readonly registry: SessionRegistry;
  readonly approval: ApprovalMode;
  readonly execute: ToolExecutor;
  readonly recordRefusal?: RefusalRecorder;
  readonly version: string;
  readonly extraTools?: readonly ExtraTool[];
  /** Agent Skills served through the MCP Skills extension (`mcp --skills`); none without. */
  readonly skills?: SkillCatalogue;
}

/** Tool runs at once per session; further calls wait their turn (limit.ts says why). */
const MAX_CONCURRENT_RUNS = 4;

const NO_ARGS: McpTool['inputSchema'] = { type: 'object', properties: {}, additionalProperties: false };
const ID_ARG: McpTool['inputSchema'] = {
  type: 'object',
  required: ['capability_id'],
  properties: { capability_id: { type: 'string', description: 'A capability_id from capability_registry_list.' } },
  additionalProperties: false,
};

const META_TOOLS: McpTool[] = [
  {
    name: 'capability_registry_list',
    description:
      'The capabilities this server can load: capability_id, name, description and intent_triggers. Call at session start and when the user\'s intent is unclear. With `query` (the user\'s message), returns the capabilities whose triggers match it, best first, with the matched triggers.',
    inputSchema: { ...NO_ARGS, properties: { query: { type: 'string', description: "The user's message, to rank capabilities by intent." } } },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'capability_skill_load',
    description:
      "Load a capability: returns its skill_doc (instructions to follow), tools and ui_schemas, and adds its tools to this session as <capability_id>__<tool>. A capability already loaded comes from the session's cache.",
    inputSchema: ID_ARG,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'capability_skill_reload',
    description: 'Load a capability again from the registry, replacing the cached version and its tools (after an operator published an update).',
    inputSchema: ID_ARG,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

function ok(value: unknown, note?: string): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(value) }];
  if (note !== undefined) content.push({ type: 'text', text: note });
  return { content, structuredContent: value as Record<string, unknown> };
}

/** An error result (not a protocol error), in the protocol's `{error: {code, message, ...}}` shape. */
function failed(error: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
}

function describeTool(t: SessionTool): McpTool {
  const { tool } = t;
  const approval = tool.policy.kind === 'write' ? (tool.policy.requires_approval === true ? ' Writes; needs the user\'s approval.' : ' Writes.') : '';
  const out: McpTool = {
    name: t.name,
    title: `${tool.name} (${t.capabilityId})`,
    description: `${tool.description}${approval}`,
    inputSchema: tool.args_schema as McpTool['inputSchema'],
    annotations: { readOnlyHint: tool.policy.kind === 'read', destructiveHint: tool.policy.kind === 'write', openWorldHint: false },
  };
  // MCP requires an object-typed outputSchema; a result of another shape is returned as text only.
  if (tool.result_schema.type === 'object') out.outputSchema = tool.result_schema as McpTool['outputSchema'];
  return out;
}

function idArg(args: Record<string, unknown> | undefined): string {
  const id = args?.capability_id;
  if (typeof id !== 'string' || id === '') throw new McpError(ErrorCode.InvalidParams, 'capability_id (a string) is required');
  return id;
}

export function createMcpServer(opts: McpServerOptions): { server: Server; session: Session } {
  const session = new Session(opts.registry, opts.approval);
  const execute = limitConcurrency(MAX_CONCURRENT_RUNS, opts.execute);
  const extra = new Map((opts.extraTools ?? []).map((t) => [t.definition.name, t]));
  const skills = opts.skills !== undefined ? { resources: {}, extensions: { [SKILLS_EXTENSION]: {} } } : {};
  const server = new Server({ name: 'skillctl', version: opts.version }, { capabilities: { tools: { listChanged: true }, ...skills } });
  if (opts.skills !== undefined) serveSkills(server, opts.skills);

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...META_TOOLS, ...[...extra.values()].map((t) => t.definition), ...session.tools().map(describeTool)],
  }));

  const load = async (id: string, reload: boolean): Promise<CallToolResult> => {
    const r = await session.load(id, reload);
    if (!r.ok) return failed({ ...r.error });
    if (!r.cached) await server.sendToolListChanged();
    const note = `${r.cached ? 'Already loaded (cached); tools' : 'Tools added to this session'}: ${r.tools.join(', ') || '(none)'}`;
    return ok(r.bundle, note);
  };

  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    switch (name) {
      case 'capability_registry_list': {
        const query = args.query;
        if (query !== undefined && typeof query !== 'string') throw new McpError(ErrorCode.InvalidParams, 'query must be a string');
        if (query === undefined) {
          const r = await session.list();
          return r.ok ? ok({ capabilities: r.capabilities }) : failed({ ...r.error });
        }
        const r = await session.match(query);
        return r.ok ? ok({ query, matches: r.matches }) : failed({ ...r.error });
      }
      case 'capability_skill_load':
        return load(idArg(args), false);
      case 'capability_skill_reload':
        return load(idArg(args), true);
      default:
        break;
    }
    const x = extra.get(name);
    if (x !== undefined) return x.call(args);
    const t = session.find(name);
    if (t === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `unknown tool ${name}; load its capability with capability_skill_load first (loaded: ${session.loaded.join(', ') || 'none'})`);
    }
    if (!session.approved(t)) {
      const message = `${name} writes and requires the user's approval; this server was not started with an approval mode that grants it, so nothing ran`;
      await opts.recordRefusal?.({ name, capabilityId: t.capabilityId, tool: t.tool, args, code: 'TOOL_APPROVAL_REQUIRED', reason: message });
      return failed({
        code: 'TOOL_APPROVAL_REQUIRED',
        message,
        tool: name,
        hint: `ask the user; the operator can start skillctl mcp with --approve ${name} (or --approve ${t.capabilityId}, --approve all)`,
      });
    }
    if (t.tool.binding === undefined) {
      return failed({ code: 'TOOL_UNBOUND', message: `${name} has no skill binding in the registry, so skillctl cannot execute it`, tool: name });
    }
    const r = await execute({ name, capabilityId: t.capabilityId, tool: t.tool, binding: t.tool.binding, args });
    if (!r.ok) return failed({ ...r.error, tool: name });
    const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(r.output) }];
    return r.output !== null && typeof r.output === 'object' && !Array.isArray(r.output)
      ? { content, structuredContent: r.output as Record<string, unknown> }
      : { content };
  };

  server.setRequestHandler(CallToolRequestSchema, (req) => call(req.params.name, (req.params.arguments ?? {}) as Record<string, unknown>));
  return { server, session };
}
