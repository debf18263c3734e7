import type { PackFormat } from '../../../core/pack/index.js';

export interface PackOptions {
  readonly out?: string;
  /** Which archives to write: the .tgz, the .skill ZIP, or both. */
  readonly format?: 'tgz' | 'skill' | 'both';
  /** SKILL.md checked as strictly as an upload checks it. */
  readonly strict?: boolean;
  /** Overwrite a .tgz of the same id and version that holds other bytes. */
  readonly force?: boolean;
}

/** The archives --format asks for. */
export function packFormats(opts: PackOptions): PackFormat[] {
  return opts.format === 'both' ? ['tgz', 'skill'] : [opts.format ?? 'tgz'];
}
