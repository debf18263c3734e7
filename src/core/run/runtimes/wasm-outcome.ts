/**
 * What a wasm module's end means for its run: the thread's report (a return, a WASI exit, a
 * denial, a trap, an output past its limit) turned into the run's attempt, its output read as
 * the entrypoint's io asks (wasm.ts).
 */
import { CODES, diag, type Code, type Diagnostic } from '../../diagnostics.js';
import { failed, parseJsonOutput, type Attempt, type RunStatus } from '../attempt.js';
import type { PreparedModule } from '../wasm/module.js';
import type { ThreadResult } from '../wasm/thread.js';
import type { WasiExit } from '../wasm/wasi-thread.js';

export interface WasmLimits {
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly memoryBytes: number;
  /** Instructions; null: not metered (only for measuring the cost of metering). */
  readonly fuel: number | null;
}

/**
 * How the module's bytes map to the run's JSON: `json`, the input is its canonical JSON and the
 * output must be JSON; `bytes` (a provenact bundle), a string input is passed as its UTF-8 bytes
 * and the output comes back as a string, whatever the return value, as provenact takes it.
 */
export type WasmIo = 'json' | 'bytes';

/** What provenact's placeholder skills write instead of a result. */
const UNIMPLEMENTED_MARKER = 'UNIMPLEMENTED_HOSTCALL';

export function attempt(status: RunStatus, d: Diagnostic, stdoutTruncated = false): Attempt {
  return { outcome: failed(status, [d]), stdoutTruncated, stderrTruncated: false };
}

/**
 * A WASI command's end: stdout is its output, as a process's is; a non-zero status with JSON on
 * stdout is the skill's error (for a contract entrypoint), else a failure naming the status.
 */
async function interpretExit(r: WasiExit, io: WasmIo, onOutput: (bytes: Uint8Array | null) => void): Promise<Attempt> {
  onOutput(r.stdout);
  const flags = { stdoutTruncated: false, stderrTruncated: r.stderrTruncated, stderr: Buffer.from(r.stderr).toString('utf8') };
  const failure = (): Attempt => ({ outcome: failed('failed', [diag('RUN_SKILL_FAILED', `the module exited with status ${r.code}`)]), ...flags });
  if (io === 'bytes') {
    if (r.code !== 0) return failure();
    try {
      return { outcome: { kind: 'output', value: new TextDecoder('utf-8', { fatal: true }).decode(r.stdout) }, ...flags };
    } catch {
      return { outcome: failed('output_invalid', [diag('RUN_OUTPUT_NOT_JSON', "the module's output is not UTF-8 text; it was discarded")]), ...flags };
    }
  }
  if (r.code === 0) {
    const parsed = await parseJsonOutput(r.stdout, 'output');
    return { outcome: 'value' in parsed ? { kind: 'output', value: parsed.value } : failed('output_invalid', parsed.diagnostics), ...flags };
  }
  if (r.stdout.length > 0) {
    const parsed = await parseJsonOutput(r.stdout, 'error');
    if ('value' in parsed) return { outcome: { kind: 'error', value: parsed.value }, ...flags };
  }
  return failure();
}

export async function interpret(r: ThreadResult, module: PreparedModule, limits: WasmLimits, io: WasmIo, onOutput: (bytes: Uint8Array | null) => void): Promise<Attempt> {
  switch (r.t) {
    case 'exit':
      return interpretExit(r, io, onOutput);
    case 'done': {
      const bytes = r.output ?? (r.returned !== null ? new TextEncoder().encode(String(r.returned)) : new Uint8Array(0));
      onOutput(bytes);
      if (bytes.length > limits.maxOutputBytes) return attempt('output_limit', diag('RUN_OUTPUT_LIMIT', `the output passed ${limits.maxOutputBytes} bytes; it was discarded`), true);
      if (Buffer.from(bytes).toString('utf8') === UNIMPLEMENTED_MARKER) {
        return attempt('failed', diag('RUN_WASM_UNIMPLEMENTED', `the module wrote ${UNIMPLEMENTED_MARKER}${r.returned !== null ? ` and returned ${r.returned}` : ''}: it is a placeholder that implements nothing`));
      }
      if (io === 'bytes') {
        try {
          return { outcome: { kind: 'output', value: new TextDecoder('utf-8', { fatal: true }).decode(bytes) }, stdoutTruncated: false, stderrTruncated: false };
        } catch {
          return attempt('output_invalid', diag('RUN_OUTPUT_NOT_JSON', "the module's output is not UTF-8 text; it was discarded"));
        }
      }
      const failedReturn = r.output !== null && r.returned !== null && r.returned !== 0;
      const parsed = await parseJsonOutput(bytes, failedReturn ? 'error' : 'output');
      if (failedReturn) {
        if ('value' in parsed) return { outcome: { kind: 'error', value: parsed.value }, stdoutTruncated: false, stderrTruncated: false };
        return attempt('failed', diag('RUN_SKILL_FAILED', `the module returned ${r.returned}`));
      }
      return 'value' in parsed ? { outcome: { kind: 'output', value: parsed.value }, stdoutTruncated: false, stderrTruncated: false } : { outcome: failed('output_invalid', parsed.diagnostics), stdoutTruncated: false, stderrTruncated: false };
    }
    case 'denied': {
      const code: Code = Object.hasOwn(CODES, r.code) ? (r.code as Code) : 'POLICY_PERMISSION_DENIED';
      return attempt('denied', diag(code, `${r.operation}: ${r.reason}`));
    }
    case 'trap':
      if (r.fuel) return attempt('failed', diag('RUN_WASM_FUEL_EXHAUSTED', `fuel exhausted: the module executed its ${limits.fuel ?? 0} instructions and was stopped`));
      return attempt('failed', diag('RUN_WASM_TRAP', `the module trapped: ${r.message}${module.metered ? '' : ' (unmetered)'}`));
    case 'output_limit':
      if (module.wasi) return attempt('output_limit', diag('RUN_OUTPUT_LIMIT', `stdout passed ${limits.maxOutputBytes} bytes; the module was stopped and its output discarded`), true);
      return attempt('output_limit', diag('RUN_OUTPUT_LIMIT', `output_write of ${r.size} bytes passed ${limits.maxOutputBytes} bytes; the module was stopped`), true);
    case 'invalid':
      return attempt('unavailable', diag('RUN_WASM_INVALID', `the module could not be instantiated: ${r.message}`));
    default: {
      const never: never = r;
      return never;
    }
  }
}
