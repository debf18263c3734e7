export interface McpOptions {
  readonly registry?: string;
  /** --approve (repeatable): all, capability ids, namespaced tool names. */
  readonly approve?: string[];
  readonly policy?: string;
  /** A file with --audit, false with --no-audit. */
  readonly audit?: string | false;
  /** Operator behaviour packs offered by the `skill` tool besides the built-in ones. */
  readonly packs?: string;
  /** Also serve the project's Agent Skills (the skill roots) through the MCP Skills extension. */
  readonly skills?: boolean;
}
