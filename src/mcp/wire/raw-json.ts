/**
 * A result whose JSON text is known already: `skills/list` pages are made of entries that stay
 * the same object while their skill is unchanged (served-cache.ts), so each entry is serialized
 * once, and a page's text is its entries' texts joined, not 1.5 MB of JSON.stringify again on
 * every listing of 1,000 skills. The text rides on the result under a symbol, which the SDK passes
 * through untouched and JSON.stringify ignores: a transport that does not know it (the HTTP one)
 * serializes the result itself and writes the same JSON.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const RAW_JSON: unique symbol = Symbol('skillctl.rawJson');

type WithRaw = { readonly [RAW_JSON]?: string };

/** `value`, carrying `json`, which must be exactly `JSON.stringify(value)` (the tests hold it). */
export function withRawJson<T extends object>(value: T, json: string): T {
  Object.defineProperty(value, RAW_JSON, { value: json, enumerable: false });
  return value;
}

/** One message as JSON text: a result's own text when it carries one, else JSON.stringify. */
export function stringifyMessage(message: JSONRPCMessage): string {
  if ('result' in message && typeof message.result === 'object' && message.result !== null) {
    const raw = (message.result as WithRaw)[RAW_JSON];
    if (raw !== undefined) return `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${raw}}`;
  }
  return JSON.stringify(message);
}
