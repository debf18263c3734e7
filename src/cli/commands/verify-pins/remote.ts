/** `verify-pins --remote`: each pin's origin asked whether it moved (the scheme's core `remoteDrift`). */
import type { Diagnostic } from '../../../core/diagnostics.js';
import { remoteDrift } from '../../../core/oci/index.js';
import type { SkillPin } from '../../../core/pins/index.js';
import type { Context } from '../../context.js';
import { transportOptions } from '../../oci-env.js';

export async function remoteFindings(ctx: Context, pins: readonly SkillPin[], lockFile: string): Promise<Diagnostic[]> {
  return remoteDrift(pins, await transportOptions(ctx.io, {}), lockFile);
}
