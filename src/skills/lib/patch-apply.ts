/**
 * A patch's file operations applied to the files' contents in memory, each refused operation
 * reported with its reason. Nothing here touches the file system: fs.write_patch writes only once
 * every operation fitted.
 */
import { applyHunks, type FileOp, type Reject } from './patch.js';
import { pushAll } from '../../core/findings.js';

export interface FileState {
  readonly rel: string;
  /** Bytes before the patch; null when the file does not exist. */
  readonly original: Buffer | null;
  readonly mode: number;
  /** Content after the operations so far; null when absent. undefined: not text. */
  current: string | null | undefined;
  newMode?: number;
}

/** Applies one file section to the states; returns the hunks applied (0 when refused). */
async function applyOp(op: FileOp, states: Map<string, FileState>, rejects: Reject[], maxBytes: number): Promise<number> {
  const shown = op.to ?? op.from ?? '';
  if (op.binary) {
    rejects.push({ file: shown, hunk: 0, reason: 'binary_patch', detail: 'binary patches cannot be applied' });
    return 0;
  }
  const target = op.to === null ? undefined : (states.get(op.to) as FileState);
  let text = '';
  if (op.from === null) {
    if (target?.current !== null) {
      rejects.push({ file: shown, hunk: 0, reason: 'file_exists', detail: `${shown} already exists` });
      return 0;
    }
  } else {
    const source = states.get(op.from) as FileState;
    if (source.current === null) {
      rejects.push({ file: op.from, hunk: 0, reason: 'file_missing', detail: `${op.from} does not exist` });
      return 0;
    }
    if (source.current === undefined) {
      rejects.push({ file: op.from, hunk: 0, reason: 'not_text', detail: `${op.from} is not a UTF-8 text file of at most ${maxBytes} bytes` });
      return 0;
    }
    text = source.current;
    if (op.rename && op.to !== op.from && target !== undefined && target.current !== null) {
      rejects.push({ file: op.to as string, hunk: 0, reason: 'file_exists', detail: `rename target ${op.to} already exists` });
      return 0;
    }
  }
  const applied = await applyHunks(text, op.hunks, shown);
  if (!applied.ok) {
    pushAll(rejects, applied.rejects);
    return 0;
  }
  if (op.to === null) {
    if (applied.text !== '') {
      rejects.push({ file: shown, hunk: 0, reason: 'delete_mismatch', detail: `${shown} holds more than the diff deletes` });
      return 0;
    }
    (states.get(op.from as string) as FileState).current = null;
    return applied.hunks;
  }
  if (op.rename && op.from !== null && op.from !== op.to) (states.get(op.from) as FileState).current = null;
  (target as FileState).current = applied.text;
  if (op.mode !== undefined) (target as FileState).newMode = op.mode;
  return applied.hunks;
}

/** Applies every operation in order; returns the hunks applied. */
export async function applyOps(ops: readonly FileOp[], states: Map<string, FileState>, rejects: Reject[], maxBytes: number): Promise<number> {
  let hunks = 0;
  for (const op of ops) hunks += await applyOp(op, states, rejects, maxBytes);
  return hunks;
}

/** Whether the patch changes the file (its bytes, its existence, or its mode). */
export function changed(s: FileState): boolean {
  if (s.current === undefined) return false;
  if (s.current === null) return s.original !== null;
  return s.original === null || !Buffer.from(s.current, 'utf8').equals(s.original) || (s.newMode !== undefined && s.newMode !== s.mode);
}
