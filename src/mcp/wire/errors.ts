/**
 * JSON-RPC errors as skillctl's MCP server answers them. The SDK's McpError puts "MCP error
 * <code>: " in front of its message, and the SDK's client puts it there again on receipt, so an
 * agent read "MCP error -32602: MCP error -32602: ...". A handler throws an RpcError instead: the
 * message on the wire is the sentence alone, and the code travels in its own field.
 */
import type { JSONRPCErrorResponse, RequestId } from '@modelcontextprotocol/sdk/types.js';

/** The codes JSON-RPC 2.0 names, and MCP's resource-not-found. */
export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  RESOURCE_NOT_FOUND: -32002,
} as const;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/**
 * An error response. JSON-RPC 2.0 answers a message whose id cannot be told with `id: null`; the
 * SDK's types leave null out of RequestId, so the response is typed as one and carries null.
 */
export function errorResponse(id: RequestId | null, code: number, message: string): JSONRPCErrorResponse {
  return { jsonrpc: '2.0', id: id as RequestId, error: { code, message } };
}
