import { link, rm } from 'node:fs/promises';
import { errnoCode, SkillctlError } from '../errors.js';
import { writeTempBeside } from './atomic-write.js';

/**
 * Creates `path` with `data`, atomically, and only if it does not exist: the content is written
 * and flushed to a temporary file first, then hard-linked to `path`, which fails if `path` exists
 * (no check-then-write race). Readers never see a partial file; an existing file is never touched.
 */
export async function createFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const tmp = await writeTempBeside(path, data, mode);
  try {
    await link(tmp, path);
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') {
      throw new SkillctlError('OUTPUT_EXISTS', `${path} already exists`, { hint: 'pass --force to replace it', cause: err });
    }
    throw err;
  } finally {
    await rm(tmp, { force: true });
  }
}
