/**
 * Where a node skill run without bubblewrap may find a module it names bare (`require('x')`,
 * `import 'x'`): only in its bundle. Node looks in the `node_modules` of the script's folder and
 * of every folder above it, and with `--sandbox none` those are the real folders above the
 * bundle or its run's copy (`$TMPDIR/skillctl-<uid>/…`): under a read grant of `/tmp`, the
 * permission model let `require('x')` load a `/tmp/node_modules/x` that any user of the host,
 * or a skill of an earlier run granted to write `/tmp`, put there. Under bubblewrap the bundle
 * is `/skill`, with nothing above it but the sandbox's own root, and no flag is needed.
 *
 * No node flag stops the search at a folder, so a module preloaded with `--import` (a `data:`
 * URL, which names no file for the permission model to allow or a skill to replace) narrows it:
 * CommonJS's list of folders to search keeps only those in the bundle, and where node has
 * `module.registerHooks` (22.15, 23.5 and later) a bare name that resolves to a file outside the
 * bundle is not found, for `import` as for `require`. Node 20's `import` resolves without either
 * and still searches above the bundle (docs/security.md, What remains).
 */

/** The preload, with the bundle's real path written in as a string. */
function preload(bundleDir: string): string {
  return `import Module from 'node:module';
import { fileURLToPath } from 'node:url';
const root = ${JSON.stringify(bundleDir)};
const inside = (p) => p === root || p.startsWith(root + '/');
const search = Module._nodeModulePaths;
Module._nodeModulePaths = function (from) { return search.call(this, from).filter(inside); };
const bare = (s) => !/^(\\.{1,2}(\\/|$)|\\/|[A-Za-z][A-Za-z0-9+.-]*:)/.test(s);
if (typeof Module.registerHooks === 'function') Module.registerHooks({ resolve(specifier, context, next) {
  const found = next(specifier, context);
  if (bare(specifier) && found.url.startsWith('file:') && !inside(fileURLToPath(found.url))) {
    const e = new Error('Cannot find package ' + JSON.stringify(specifier) + ' in the skill\\'s bundle');
    e.code = 'ERR_MODULE_NOT_FOUND';
    throw e;
  }
  return found;
} });
`;
}

/** The node flag that keeps the search for bare module names inside `bundleDir` (a real path). */
export function bundleModulesOnly(bundleDir: string): string {
  return `--import=data:text/javascript,${encodeURIComponent(preload(bundleDir))}`;
}
