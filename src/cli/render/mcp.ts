/** What an MCP tool call returns when its run fails: the run's status, the first error's code, every finding. */
import { sortDiagnostics } from '../../core/diagnostics.js';
import type { RunResult } from '../../core/run/index.js';

export function mcpToolError(r: RunResult): { code: string; message: string; [k: string]: unknown } {
  const diagnostics = sortDiagnostics(r.diagnostics);
  const first = diagnostics.find((d) => d.severity === 'error');
  return {
    code: first?.code ?? `RUN_${r.status.toUpperCase()}`,
    message: first?.message ?? `the skill ended with status ${r.status}`,
    status: r.status,
    exit_code: r.exitCode,
    ...(r.error !== undefined ? { skill_error: r.error } : {}),
    diagnostics,
  };
}
