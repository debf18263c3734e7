/**
 * `skillctl mcp`: the skill loading protocol served to agents over the Model Context Protocol,
 * with the official TypeScript SDK. The session starts with the protocol's meta-tools; loading a
 * capability adds its tools under namespaced names and tells the client with
 * `notifications/tools/list_changed`; calling one runs its bound skill entrypoint through the
 * executor the caller provides (the run engine, under the host policy, with an audit record).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, InitializeRequestSchema, ListToolsRequestSchema, PingRequestSchema, type CallToolResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { compileSchema, type CompiledSchema } from '../core/json-schema/index.js';
import type { Tool, ToolBinding } from '../core/registry/index.js';
import type { Pack } from '../core/behaviour-packs/index.js';
import type { Handle } from './handle.js';
import { limitConcurrency } from './limit.js';
import { servePackPrompts } from './pack-prompts.js';
import { directSkillRead, serveResources } from './resources.js';
import { Session, type ApprovalMode, type SessionRegistry, type SessionTool } from './session.js';
import { SKILLS_EXTENSION, type SkillCatalogue } from './skills.js';
import { RPC, RpcError } from './wire/errors.js';
import { GatedTransport } from './wire/gate.js';

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
  /** Checks its own arguments, whatever they are (its errors are its own); the server checks them against `definition.inputSchema` otherwise. */
  readonly ownArgumentCheck?: boolean;
  call(args: unknown): Promise<CallToolResult>;
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
  /** The behaviour packs offered as prompts (the `skill` tool's). */
  readonly packs?: readonly Pack[];
}

/** A server ready to be connected: `connect` puts the gate in front of the transport. */
export interface McpServer {
  readonly server: Server;
  readonly session: Session;
  connect(transport: Transport): Promise<void>;
}

/** Tool runs at once per session; further calls wait their turn (limit.ts says why). */
export const MAX_CONCURRENT_RUNS = 4;

const NO_ARGS: McpTool['inputSchema'] = { type: 'object', properties: {}, additionalProperties: false };
const ID_ARG: McpTool['inputSchema'] = {
  type: 'object',
  required: ['capability_id'],
  properties: { capability_id: { type: 'string', description: 'A capability_id from capability_registry_list.' } },
  additionalProperties: false,
};

/**
 * The longest `query` matched: a user's message, not a document. Matching stems every run of one
 * to three words, a few microseconds each, on the thread that answers every session: a 9 MB query
 * (within the wire's bound) held the server 28 s.
 */
export const MAX_QUERY_CHARS = 16_384;

const META_TOOLS: McpTool[] = [
  {
    name: 'capability_registry_list',
    description:
      'The capabilities this server can load: capability_id, name, description and intent_triggers. Call at session start and when the user\'s intent is unclear. With `query` (the user\'s message), returns the capabilities whose triggers match it, best first, with the matched triggers.',
    inputSchema: { ...NO_ARGS, properties: { query: { type: 'string', maxLength: MAX_QUERY_CHARS, description: "The user's message, to rank capabilities by intent." } } },
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

function idArg(args: Record<string, unknown>): string {
  return args.capability_id as string;
}

/** The first finding of a check of `args`, as the one sentence of a -32602. */
function argsError(name: string, found: readonly { message: string; pointer?: string }[]): RpcError {
  const d = found[0];
  const where = d?.pointer !== undefined && d.pointer !== '' ? ` (at arguments${d.pointer})` : '';
  return new RpcError(RPC.INVALID_PARAMS, `Invalid params: arguments of ${name}: ${d?.message ?? 'invalid'}${where}`);
}

export function createMcpServer(opts: McpServerOptions): McpServer {
  const session = new Session(opts.registry, opts.approval);
  const execute = limitConcurrency(MAX_CONCURRENT_RUNS, opts.execute);
  const extra = new Map((opts.extraTools ?? []).map((t) => [t.definition.name, t]));
  const capabilities = {
    tools: { listChanged: true },
    resources: {},
    prompts: {},
    ...(opts.skills !== undefined ? { extensions: { [SKILLS_EXTENSION]: { directoryRead: true } } } : {}),
  };
  const server = new Server({ name: 'skillctl', version: opts.version }, { capabilities });
  const schemas = new Map<string, z.ZodType>([
    ['initialize', InitializeRequestSchema],
    ['ping', PingRequestSchema],
  ]);
  const handle: Handle = (schema, handler) => {
    schemas.set(schema.shape.method.value, schema);
    server.setRequestHandler(schema, (req) => handler(req) as never);
  };
  serveResources(handle, session, opts.skills);
  servePackPrompts(handle, opts.packs ?? []);

  // Schemas of the meta tools and extra tools, compiled once, on first use.
  const fixed = new Map<string, Promise<CompiledSchema | { error: unknown }>>();
  const checkFixed = async (name: string, schema: McpTool['inputSchema'], args: unknown): Promise<void> => {
    let c = fixed.get(name);
    if (c === undefined) fixed.set(name, (c = compileSchema(schema, { validateSchema: false })));
    const compiled = await c;
    if ('check' in compiled) {
      const found = compiled.check(args);
      if (found.length > 0) throw argsError(name, found);
    }
  };

  // Requests are handled concurrently, but a call of a tool must see the loads sent before it:
  // each load is chained here when its request arrives, and a call (or tools/list) waits for
  // the chain as it stood on its own arrival.
  let loads: Promise<unknown> = Promise.resolve();

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await loads;
    return { tools: [...META_TOOLS, ...[...extra.values()].map((t) => t.definition), ...session.tools().map(describeTool)] };
  });
  schemas.set('tools/list', ListToolsRequestSchema);

  const load = async (id: string, reload: boolean): Promise<CallToolResult> => {
    const r = await session.load(id, reload);
    if (!r.ok) return failed({ ...r.error });
    if (!r.cached) await server.sendToolListChanged();
    const note = `${r.cached ? 'Already loaded (cached); tools' : 'Tools added to this session'}: ${r.tools.join(', ') || '(none)'}`;
    return ok(r.bundle, note);
  };

  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    const meta = META_TOOLS.find((t) => t.name === name);
    if (meta !== undefined) await checkFixed(name, meta.inputSchema, args);
    switch (name) {
      case 'capability_registry_list': {
        const query = args.query;
        if (query === undefined) {
          const r = await session.list();
          return r.ok ? ok({ capabilities: r.capabilities }) : failed({ ...r.error });
        }
        const r = await session.match(query as string);
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
    if (x !== undefined) {
      if (x.ownArgumentCheck !== true) await checkFixed(name, x.definition.inputSchema, args);
      return x.call(args);
    }
    const loaded = session.find(name);
    if (loaded === undefined) {
      throw new RpcError(RPC.INVALID_PARAMS, `unknown tool ${name}; load its capability with capability_skill_load first (loaded: ${session.loaded.join(', ') || 'none'})`);
    }
    const bad = session.checkArgs(loaded, args);
    if (bad.length > 0) throw argsError(name, bad);
    // The call obeys the tool as the registry publishes it now (its approval, kind and binding).
    const now = await session.current(loaded);
    if (!now.ok) return failed({ ...now.error, tool: name });
    if (now.tool === undefined) {
      return failed({ code: 'TOOL_UNBOUND', message: `the registry no longer offers ${name}; nothing ran`, tool: name, hint: `capability_skill_reload ${loaded.capabilityId} to see what it offers now` });
    }
    const t = now.tool;
    const refused = session.approvalRefusal(t);
    if (refused !== undefined) {
      await opts.recordRefusal?.({ name, capabilityId: t.capabilityId, tool: t.tool, args, code: 'TOOL_APPROVAL_REQUIRED', reason: refused.message });
      return failed({ code: 'TOOL_APPROVAL_REQUIRED', message: refused.message, tool: name, hint: refused.hint });
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

  server.setRequestHandler(CallToolRequestSchema, (req) => {
    const { name } = req.params;
    const args = (req.params.arguments ?? {}) as Record<string, unknown>;
    // Synchronous up to here: handlers start in arrival order, so `loads` is the chain as it
    // stood when this request arrived.
    if (name === 'capability_skill_load' || name === 'capability_skill_reload') {
      const done = call(name, args);
      loads = Promise.all([loads, done.catch(() => undefined)]);
      return done;
    }
    const before = loads;
    return before.then(() => call(name, args));
  });
  schemas.set('tools/call', CallToolRequestSchema);

  const rawToolCall = (name: string, args: unknown): Promise<CallToolResult> | undefined => {
    const x = extra.get(name);
    return x?.ownArgumentCheck === true ? x.call(args) : undefined;
  };
  return {
    server,
    session,
    connect: (transport) => server.connect(new GatedTransport(transport, { schemas, rawToolCall, ...(opts.skills !== undefined ? { direct: directSkillRead(opts.skills) } : {}) })),
  };
}
