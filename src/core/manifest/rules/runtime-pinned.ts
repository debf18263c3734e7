import { diag, type Diagnostic } from '../../diagnostics.js';
import { PINNED_RUNTIMES } from '../model.js';
import { PINNED_IMAGE } from '../image-ref.js';
import { EXACT_RUNTIME_VERSION } from '../patterns.js';
import type { Rule } from './rule.js';

const EXAMPLE: Record<string, string> = {
  node: '20.19.0 (the exact Node.js version)',
  python: '3.11.9 (the exact Python version)',
  shell: 'bash@5.2 (the shell and version the command was written for)',
  container: 'registry/image@sha256:<64 hex> (the image digest)',
};

function unpinnedReason(runtime: string, version: string): string | undefined {
  if (runtime === 'container') {
    return PINNED_IMAGE.test(version) ? undefined : 'a container image is pinned only by its digest, as a registry reference (registry/image@sha256:<64 hex>; no transport such as dir: or oci-archive:, where the digest is only part of a file name)';
  }
  if (runtime === 'shell') {
    // A shell entrypoint names the tool set it was written for, e.g. "bash@5.2" or "posix@2017".
    return /^[a-z][a-z0-9_-]*@\d+(?:\.\d+)*$/.test(version) ? undefined : 'a shell runtime is pinned as <shell>@<version>, e.g. bash@5.2';
  }
  if (!EXACT_RUNTIME_VERSION.test(version)) return `${JSON.stringify(version)} is a range, tag or partial version, not an exact major.minor.patch`;
  return undefined;
}

export const runtimePinned: Rule = {
  name: 'runtime-pinned',
  check({ entrypoints }) {
    const out: Diagnostic[] = [];
    for (const { ep, pointer, unreadable, label } of entrypoints) {
      if (ep.runtime === undefined || !PINNED_RUNTIMES.has(ep.runtime) || unreadable.has('runtime_version')) continue;
      if (ep.runtime_version === undefined) {
        out.push(
          diag('RUNTIME_UNPINNED', `entrypoint ${label} uses runtime ${ep.runtime} without runtime_version`, {
            pointer: `${pointer}/runtime_version`,
            hint: `add runtime_version: ${EXAMPLE[ep.runtime]}`,
          }),
        );
        continue;
      }
      const why = unpinnedReason(ep.runtime, ep.runtime_version);
      if (why !== undefined) {
        out.push(diag('RUNTIME_UNPINNED', `entrypoint ${label}: ${why}`, { pointer: `${pointer}/runtime_version`, hint: `${ep.runtime === 'container' ? 'pin the image by its digest' : 'write one exact version'}, e.g. runtime_version: ${EXAMPLE[ep.runtime]}` }));
      }
    }
    return out;
  },
};
