export interface McpOptions {
  readonly registry?: string;
  /** --approve (repeatable): all, capability ids, namespaced tool names. */
  readonly approve?: string[];
  readonly policy?: string;
  /** A file with --audit, false with --no-audit. */
  readonly audit?: string | false;
  /** Operator behaviour packs offered by the `skill` tool besides the built-in ones. */
  readonly packs?: string;
  /** Also serve Agent Skills through the MCP Skills extension: true for the project's skill roots, or the DIRs given. */
  readonly skills?: boolean | string[];
  /** Serve over Streamable HTTP on HOST:PORT instead of stdio. */
  readonly http?: { readonly host: string; readonly port: number };
  /** Allow --http on an address other than loopback. */
  readonly httpAllowRemote?: boolean;
  /** The file holding the --http server's bearer token (else $SKILLCTL_MCP_TOKEN, else a fresh one). */
  readonly httpTokenFile?: string;
}
