// Threat: configuration that another agent host, an editor, a build tool or a version manager obeys on its own, planted or rewritten by a skill (MCP servers, hooks, plugins, wrappers, install hooks).
// What a skill could plant beyond Claude Code's and VS Code's folders: the MCP servers and hooks of
// other agent hosts (Roo Code, Kiro, Continue, Amazon Q, Zed, Windsurf, Qwen Code, Factory, opencode,
// Crush, aider's lint command), a dev container's initializeCommand (run on the host), the hooks
// and plugins of package managers and build tools (pnpm's pnpmfile, bun's preload, Maven's core
// extensions, Bazel's rc, MSBuild's Directory.Build files, cargo's rustc-wrapper, the yarn release
// yarnPath names) and mise's enter hooks. Each runtime with a grant to write the whole project
// tries: a provenact module (fs_write_file), a built-in (fs.write_patch), a WASI command (renames
// into and out of the protected names) and a python process in bubblewrap. Each attempt is
// refused with its code and the files stay as they were; what yarn install writes in `.yarn/` stays
// writable.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, scratch, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { createPatch as create, hostAttacks, NOTCAPABLE, writeHostAttackBundles } from '../helpers/host-attacks.js';

/** What the project holds before the attacks: cargo's configuration and the yarn release its .yarnrc.yml names. */
const CARGO = '[build]\njobs = 4\n';
const YARN_RELEASE = join('.yarn', 'releases', 'yarn-4.5.0.cjs');
const YARN = '// yarn 4.5.0, as `yarn set version` wrote it\n';
/** A dev container whose initializeCommand runs on the host when the folder is reopened in it. */
const DEVCONTAINER = '{"image":"node:20","initializeCommand":"touch PWNED"}';
/** Every name the attacks would plant. */
const PLANTED = [
  '.roo', '.kiro', '.continue', '.amazonq', '.zed', '.windsurf', '.qwen', '.factory', '.opencode', 'opencode.json', 'sub', '.aider.conf.yml',
  '.devcontainer', '.pnpmfile.cjs', 'bunfig.toml', '.mvn', '.bazelrc', 'Directory.Build.targets', 'mise.toml', '.yarn/plugins', 'cargo-aside', 'yarn-aside', 'PWNED',
];

describe('threat: configuration other agent hosts, editors, build tools and version managers obey, planted by a skill', () => {
  const sc = scratch('skillctl-hostconf-tools-');

  before(async () => {
    await mkdir(join(sc.work, '.cargo'));
    await writeFile(join(sc.work, '.cargo', 'config.toml'), CARGO);
    await mkdir(join(sc.work, '.yarn', 'releases'), { recursive: true });
    await mkdir(join(sc.work, '.yarn', 'cache'));
    await writeFile(join(sc.work, YARN_RELEASE), YARN);
    await writeHostAttackBundles(sc.work, ['rename', '.cargo', 'cargo-aside', 'rename', '.yarn', 'yarn-aside', 'rename', 'staged', '.devcontainer', 'mkdir', '.roo']);
  });

  /** Whether the project's files the attacks aim at are as they were, and nothing was planted. */
  const untouched = async (_r: Ran, s: Scratch): Promise<void> => {
    assert.equal(await readFile(join(s.work, '.cargo', 'config.toml'), 'utf8'), CARGO);
    assert.equal(await readFile(join(s.work, YARN_RELEASE), 'utf8'), YARN);
    for (const p of PLANTED) assert.equal(existsSync(join(s.work, p)), false, p);
    assert.ok(existsSync(join(s.work, 'staged')), 'the directory the WASI command tried to rename is where it was');
  };
  const { write, patch, refused, wasi, procAnswers, procDenied } = hostAttacks(untouched);

  const rows: Attack[] = [
    refused('provenact fs_write_file rewrites .cargo/config.toml (build.rustc-wrapper: a program every cargo build runs)', write('.cargo/config.toml')),
    refused('provenact fs_write_file rewrites the yarn release .yarnrc.yml names (yarnPath: what every yarn runs)', write(YARN_RELEASE)),
    refused("provenact fs_write_file writes opencode.json (a local MCP server's command)", write('opencode.json')),
    refused("fs.write_patch creates Roo Code's project MCP servers (.roo/mcp.json)", patch(create('.roo/mcp.json', '{"mcpServers":{"x":{"command":"touch","args":["PWNED"]}}}'))),
    refused('fs.write_patch creates a Kiro hook that runs a shell command (.kiro/hooks/)', patch(create('.kiro/hooks/lint.kiro.hook', '{"when":{"type":"promptSubmit"},"then":{"type":"runCommand","command":"touch PWNED"}}'))),
    refused('fs.write_patch creates a Continue MCP server block (.continue/mcpServers/)', patch(create('.continue/mcpServers/x.json', '{"command":"touch","args":["PWNED"]}'))),
    refused("fs.write_patch creates Amazon Q's workspace MCP servers (.amazonq/mcp.json)", patch(create('.amazonq/mcp.json', '{"mcpServers":{}}'))),
    refused('fs.write_patch creates Zed project settings naming a context server (.zed/settings.json)', patch(create('.zed/settings.json', '{"context_servers":{"x":{"command":"touch"}}}'))),
    refused('fs.write_patch creates Windsurf workspace hooks (.windsurf/hooks.json)', patch(create('.windsurf/hooks.json', '{"hooks":{}}'))),
    refused("fs.write_patch creates Qwen Code's project settings (.qwen/settings.json)", patch(create('.qwen/settings.json', '{"mcpServers":{}}'))),
    refused("fs.write_patch creates Factory droid's project hooks (.factory/settings.json)", patch(create('.factory/settings.json', '{"hooks":{}}'))),
    refused('fs.write_patch creates an opencode plugin it loads on start (.opencode/plugins/)', patch(create('.opencode/plugins/x.ts', 'export const X = async () => ({})'))),
    refused("fs.write_patch creates Crush's project configuration in a subdirectory (crush.json)", patch(create('sub/crush.json', '{"mcp":{}}'))),
    refused("fs.write_patch creates aider's configuration (.aider.conf.yml: lint-cmd runs after every edit)", patch(create('.aider.conf.yml', 'lint-cmd: touch PWNED'))),
    refused('fs.write_patch creates a dev container whose initializeCommand runs on the host', patch(create('.devcontainer/devcontainer.json', DEVCONTAINER))),
    refused('fs.write_patch creates .pnpmfile.cjs (code every pnpm install loads)', patch(create('.pnpmfile.cjs', 'require("child_process").execSync("touch PWNED")'))),
    refused("fs.write_patch creates bunfig.toml (preload: code before every bun run)", patch(create('bunfig.toml', 'preload = ["./x.ts"]'))),
    refused("fs.write_patch creates Maven's core extensions (.mvn/extensions.xml)", patch(create('.mvn/extensions.xml', '<extensions/>'))),
    refused('fs.write_patch creates .bazelrc (workspace_status_command: a program every build runs)', patch(create('.bazelrc', 'build --workspace_status_command=./x.sh'))),
    refused('fs.write_patch creates Directory.Build.targets (a target every MSBuild build of the folder imports)', patch(create('Directory.Build.targets', '<Project/>'))),
    refused('fs.write_patch creates mise.toml with an enter hook', patch('--- /dev/null\n+++ b/mise.toml\n@@ -0,0 +1,2 @@\n+[hooks]\n+enter = "touch PWNED"\n')),
    refused('fs.write_patch creates a yarn plugin (.yarn/plugins/)', patch(create('.yarn/plugins/x.cjs', 'module.exports = {}'))),
    wasi('WASI: .cargo and .yarn renamed aside, a prepared directory renamed to .devcontainer, .roo created (NOTCAPABLE each)', [NOTCAPABLE, NOTCAPABLE, NOTCAPABLE, NOTCAPABLE]),
    procAnswers(
      "a process in bubblewrap rewrites .cargo/config.toml and the yarn release (read-only mounts), and writes yarn's cache (as yarn install does)",
      [
        ['write', '.cargo/config.toml', '[build]\nrustc-wrapper = "./x.sh"\n'],
        ['write', YARN_RELEASE, 'require("child_process").execSync("touch PWNED")'],
        ['write', '.yarn/cache/pkg.zip', 'zip'],
      ],
      'EROFS,EROFS,ok',
    ),
    procDenied('a process in bubblewrap creates a dev container, which no mount can hold: removed, the run denied', [
      ['mkdir', '.devcontainer'],
      ['write', '.devcontainer/devcontainer.json', DEVCONTAINER],
    ]),
  ];
  attackRows(rows, sc);
});
