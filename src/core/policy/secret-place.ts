/**
 * Whether a secret skillctl writes or is handed (keygen's secret key, `mcp --http-token-file`)
 * lies where no skill can read it. Only a `.skillctl/keys/` folder is refused to every skill, in
 * any directory and under any grant (SECRET_DIRS): anywhere else, a skill run from a terminal
 * under a policy that grants reading the folder reads the secret (the default policy grants the
 * working directory), and then signs as the signer or opens sessions of the server.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { resolveReal } from './paths.js';
import { secretReason } from './protected.js';

/**
 * SECRET_FILE_EXPOSED when `path` (absolute; it need not exist yet) does not lie, links
 * resolved, inside a `.skillctl/keys/` folder; else nothing. `label` names it to the user,
 * `what` says what it holds ("the secret key of alice").
 */
export async function checkSecretPlace(path: string, label: string, what: string): Promise<Diagnostic[]> {
  const real = await resolveReal(path).catch(() => path);
  if (secretReason(real) !== undefined) return [];
  return [
    diag('SECRET_FILE_EXPOSED', `${label} (${what}) lies outside a .skillctl/keys/ folder: a skill run under a policy that grants reading its folder can read it`, {
      file: label,
      hint: "keep it in the project's or the home's .skillctl/keys/ folder (no skill may read those), or outside every folder a policy grants",
    }),
  ];
}
