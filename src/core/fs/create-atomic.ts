import { link, rm } from 'node:fs/promises';
import { errnoCode, SkillctlError } from '../errors.js';
import { writeTempBeside } from './atomic-write.js';
import type { Maker } from './maker.js';

/**
 * Creates `path` with `data`, atomically, and only if it does not exist: the content is written
 * and flushed to a temporary file first, then hard-linked to `path`, which fails if `path` exists
 * (no check-then-write race). Readers never see a partial file; an existing file is never touched.
 * Resolves false, having written nothing, when `path` exists: whether that is a finding or a
 * refusal is the caller's to say. `maker` names the writer's host in the temporary file (writeTempBeside).
 */
export async function createFileAtomic(path: string, data: string | Uint8Array, mode = 0o644, maker?: Maker): Promise<boolean> {
  const tmp = await writeTempBeside(path, data, mode, maker);
  try {
    await link(tmp, path);
    return true;
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') return false;
    throw err;
  } finally {
    await rm(tmp, { force: true });
  }
}

/** `createFileAtomic` for a command that cannot go on when `path` exists: OUTPUT_EXISTS. */
export async function createFileOrRefuse(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  if (!(await createFileAtomic(path, data, mode))) throw new SkillctlError('OUTPUT_EXISTS', `${path} already exists`, { hint: 'pass --force to replace it' });
}
