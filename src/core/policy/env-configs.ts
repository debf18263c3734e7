/**
 * Configuration that names programs, moved out of the home by the environment skillctl runs in.
 * The home's own (HOME_PROTECTED_PATHS: `~/.docker`, `~/.kube`, `~/.aws`,
 * `~/.config/containers`) are protected where a grant covers them; the same files elsewhere, where
 * a variable names them (a CI job's `DOCKER_CONFIG=$PWD/.docker`, `KUBECONFIG=$PWD/kubeconfig`),
 * were not: a skill granted the project set `credsStore` or a CLI plugin folder in the Docker config
 * (programs the user's next `docker` runs, and the credentials skillctl's own push sends), an exec
 * plugin in a kubeconfig, a `credential_process` in an AWS config, an OCI runtime in
 * containers.conf (until the stop of 2026-12-01).
 */
import { isAbsolute, join, resolve } from 'node:path';

export interface EnvConfigs {
  /**
   * Folders, protected whole where they do not hold the working directory: docker runs what its
   * `cli-plugins/` holds. Its `config.json` and `cli-plugins/` are named too, for a folder that does.
   */
  readonly dirs: readonly string[];
  /** Files, protected with their folders as a policy file is. */
  readonly files: readonly string[];
}

/** Variables naming one file each. */
const FILE_VARS = ['AWS_CONFIG_FILE', 'CONTAINERS_CONF'] as const;

/** The configuration `env` names, resolved from `cwd` as the tools resolve a relative one. */
export function envConfigs(env: Readonly<Record<string, string | undefined>>, cwd: string): EnvConfigs {
  const at = (p: string): string => (isAbsolute(p) ? p : resolve(cwd, p));
  const set = (v: string | undefined): v is string => v !== undefined && v !== '';
  const docker = env.DOCKER_CONFIG;
  // kubectl reads every file of the list (`:`-separated on Linux), merged.
  const kube = (env.KUBECONFIG ?? '').split(':').filter((p) => p !== '');
  const dockerDir = set(docker) ? at(docker) : undefined;
  return {
    dirs: dockerDir !== undefined ? [dockerDir, join(dockerDir, 'cli-plugins')] : [],
    files: [...[...kube, ...FILE_VARS.map((v) => env[v]).filter(set)].map(at), ...(dockerDir !== undefined ? [join(dockerDir, 'config.json')] : [])],
  };
}
