/**
 * One message as it arrives (a line on stdin, a POST body): either a JSON-RPC message the SDK may
 * handle, or the error answer JSON-RPC 2.0 names for it. The SDK's transports drop what they cannot
 * parse without a word, so a client that sent a broken line waits forever for its answer; here a
 * message that is not JSON gets -32700, and one that is JSON but not a request, notification or
 * response gets -32600, with `id: null` when its id cannot be told (JSON-RPC 2.0, section 5).
 */
import { JSONRPCMessageSchema, JSONRPCNotificationSchema, JSONRPCRequestSchema, type JSONRPCErrorResponse, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { describeIssue, kindOf } from './describe.js';
import { errorResponse, RPC } from './errors.js';
import { findKeyProblem, formatPath, MAX_JSON_DEPTH } from './json-keys.js';

/** The message, or the answer to send instead; neither for a line that is only whitespace, or a message JSON-RPC never answers. */
export type Inbound = { readonly message: JSONRPCMessage } | { readonly reply: JSONRPCErrorResponse } | { readonly ignore: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

function validId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

const REQUEST_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);

/** Only the keys of a JSON-RPC request, and params (if any) without `_meta`, whose form the SDK's schema checks. */
function plainRequest(m: Record<string, unknown>): boolean {
  for (const k in m) if (!REQUEST_KEYS.has(k)) return false;
  return m.params === undefined || !Object.hasOwn(m.params as object, '_meta');
}

/** Classifies one message: the raw bytes or text of a line or a body. */
export function admit(raw: Buffer | string): Inbound {
  let text: string;
  if (typeof raw === 'string') text = raw;
  else {
    try {
      text = utf8.decode(raw);
    } catch {
      return { reply: errorResponse(null, RPC.PARSE_ERROR, 'Parse error: the message is not valid UTF-8') };
    }
  }
  if (text.trim() === '') return { ignore: 'an empty line' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // Two messages on one line land here too: JSON.parse names the character after the first.
    return { reply: errorResponse(null, RPC.PARSE_ERROR, `Parse error: ${err instanceof Error ? err.message : String(err)}`) };
  }
  return classify(value, text);
}

/** Classifies a parsed message; `text` is its JSON source, scanned for keys JSON.parse hides. */
export function classify(value: unknown, text: string): Inbound {
  if (Array.isArray(value)) {
    return { reply: errorResponse(null, RPC.INVALID_REQUEST, 'Invalid Request: a batch (a JSON array) is not supported by MCP; send each message on its own') };
  }
  if (value === null || typeof value !== 'object') {
    return { reply: errorResponse(null, RPC.INVALID_REQUEST, `Invalid Request: a message must be a JSON object, not ${kindOf(value)}`) };
  }
  const m = value as Record<string, unknown>;
  const hasId = Object.hasOwn(m, 'id');
  if (hasId && !validId(m.id)) {
    return { reply: errorResponse(null, RPC.INVALID_REQUEST, `Invalid Request: id must be a string or an integer, not ${kindOf(m.id)}`) };
  }
  const id = hasId ? (m.id as RequestId) : null;
  const isRequest = typeof m.method === 'string';
  // A notification is never answered (JSON-RPC 2.0, section 4.1), even when it is wrong.
  const answer = (code: number, message: string): Inbound => (isRequest && !hasId ? { ignore: message } : { reply: errorResponse(id, code, message) });
  const keys = findKeyProblem(text);
  if (keys !== undefined) {
    const what =
      keys.problem === 'deep'
        ? `${formatPath(keys.path)} nests arrays and objects more than ${MAX_JSON_DEPTH} deep, which is refused`
        : `${formatPath(keys.path.slice(0, -1))} has ${keys.problem === 'proto' ? 'a __proto__ key, which is refused' : `the key ${JSON.stringify(keys.path.at(-1))} twice`}`;
    const inParams = keys.path[0] === 'params' && isRequest;
    return answer(inParams ? RPC.INVALID_PARAMS : RPC.INVALID_REQUEST, `${inParams ? 'Invalid params' : 'Invalid Request'}: ${what}`);
  }
  if (m.jsonrpc !== '2.0') {
    return answer(RPC.INVALID_REQUEST, `Invalid Request: jsonrpc must be "2.0", not ${m.jsonrpc === undefined ? 'missing' : JSON.stringify(m.jsonrpc)}`);
  }
  if (Object.hasOwn(m, 'method') && !isRequest) return answer(RPC.INVALID_REQUEST, `Invalid Request: method must be a string, not ${kindOf(m.method)}`);
  if (isRequest && Object.hasOwn(m, 'params') && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params))) {
    return answer(RPC.INVALID_PARAMS, `Invalid params: params must be an object (MCP names its parameters), not ${kindOf(m.params)}`);
  }
  if (!isRequest && !hasId) return { reply: errorResponse(null, RPC.INVALID_REQUEST, 'Invalid Request: a message needs a method (a request or notification) or an id (a response)') };
  // A request of these keys only, whose params carry no `_meta`, is one the schema below accepts
  // as it is (the checks above are all it checks of such a request): it is not walked by zod
  // again, once for every one of the 1,000 reads of a skill.
  if (isRequest && hasId && plainRequest(m)) return { message: m as unknown as JSONRPCMessage };
  const schema = isRequest ? (hasId ? JSONRPCRequestSchema : JSONRPCNotificationSchema) : JSONRPCMessageSchema;
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const inParams = parsed.error.issues[0]?.path[0] === 'params';
    return answer(inParams ? RPC.INVALID_PARAMS : RPC.INVALID_REQUEST, `${inParams ? 'Invalid params' : 'Invalid Request'}: ${describeIssue(parsed.error, value)}`);
  }
  return { message: parsed.data as JSONRPCMessage };
}
