import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { installPaths, nodePaths, PROTECTED_DIRS, PROTECTED_ENTRY_NAMES, protectedReason, runProtectedPaths } from '../../../src/core/policy/index.js';

describe('nodePaths: the node the next skillctl runs', () => {
  it("protects the node's installation prefix whole (nvm's under a home), or the binary alone when the prefix holds the working directory", () => {
    assert.deepEqual(nodePaths('/home/u/.nvm/versions/node/v24.1.0/bin/node', '/home/u/proj'), ['/home/u/.nvm/versions/node/v24.1.0']);
    assert.deepEqual(nodePaths('/usr/bin/node', '/home/u/proj'), ['/usr']);
    assert.deepEqual(nodePaths('/opt/node/node', '/home/u/proj'), ['/opt/node']);
    assert.deepEqual(nodePaths('/home/u/tools/node/bin/node', '/home/u/tools/node/work'), ['/home/u/tools/node/bin/node']);
    const extra = runProtectedPaths({ cwd: '/home/u/proj', root: '/home/u/proj', node: '/home/u/.nvm/versions/node/v24.1.0/bin/node' });
    for (const path of ['/home/u/.nvm/versions/node/v24.1.0/bin/node', '/home/u/.nvm/versions/node/v24.1.0/lib/node_modules/skillctl/dist/x.cjs']) assert.match(protectedReason(path, extra) ?? '', /protect/, path);
    assert.match(protectedReason('/home/u/.nvm', extra, 'move') ?? '', /protect/);
    assert.equal(protectedReason('/home/u/.nvm/versions/node/v22.0.0/bin/node', extra), undefined);
  });
});

describe('installPaths: the code the next skillctl run loads', () => {
  it('protects an install inside a project whole, and every node_modules Node resolution walks from it', () => {
    assert.deepEqual(installPaths('/home/u/proj/node_modules/skillctl', '/home/u/proj'), [
      '/home/u/proj/node_modules/skillctl',
      '/home/u/proj/node_modules/skillctl/node_modules',
      '/home/u/proj/node_modules/node_modules',
      '/home/u/proj/node_modules',
      '/home/u/node_modules',
      '/home/node_modules',
      '/node_modules',
    ]);
  });

  it('protects only the parts a checkout of skillctl loads when the run starts inside it, so write grants there still work', () => {
    assert.deepEqual(installPaths('/src/skillctl', '/src/skillctl/work'), [
      '/src/skillctl/dist',
      '/src/skillctl/bin',
      '/src/skillctl/package.json',
      '/src/skillctl/manifests',
      '/src/skillctl/schemas',
      '/src/skillctl/node_modules',
      '/src/node_modules',
      '/node_modules',
    ]);
  });

  it('a run refuses writes to the bundles, their code caches and the dependencies, and allows the rest of the project', () => {
    const extra = runProtectedPaths({ cwd: '/home/u/proj', root: '/home/u/proj', install: '/home/u/proj/node_modules/skillctl' });
    for (const path of ['/home/u/proj/node_modules/skillctl/dist/cmd/run.cjs.v8cache', '/home/u/proj/node_modules/skillctl/manifests/default/fs.read_text/skill.yaml', '/home/u/proj/node_modules/fflate/esm/index.mjs']) {
      assert.match(protectedReason(path, extra) ?? '', /protected/, path);
    }
    assert.equal(protectedReason('/home/u/proj/src/index.ts', extra), undefined);
  });
});

describe('runProtectedPaths: registries named explicitly, which skillctl mcp serves', () => {
  it('protects a registry whole, or only its index and capabilities when it holds the working directory', () => {
    const extra = runProtectedPaths({ cwd: '/p/work', root: '/p/work', registries: ['/p/work/registry', '/p'] });
    for (const path of ['/p/work/registry/.publish.lock', '/p/work/registry/capabilities/shell/x/tools.json', '/p/index.json', '/p/capabilities/git']) {
      assert.match(protectedReason(path, extra) ?? '', /protected/, path);
    }
    assert.equal(protectedReason('/p/work/src/index.ts', extra), undefined);
    assert.equal(protectedReason('/p/other.txt', extra), undefined);
  });
});

describe('runProtectedPaths: the skill roots skillctl mcp --skills serves', () => {
  it('protects each root whole, and not one that holds the working directory', () => {
    const extra = runProtectedPaths({ cwd: '/p/skills/notes', root: '/p', skillRoots: ['/p/manifests', '/p/skills'] });
    assert.match(protectedReason('/p/manifests/helper/SKILL.md', extra) ?? '', /protected/);
    assert.match(protectedReason('/p/manifests', extra, 'move') ?? '', /protected/);
    assert.equal(protectedReason('/p/skills/notes/SKILL.md', extra), undefined);
    assert.equal(protectedReason('/p/src/skills.ts', extra), undefined);
  });
});

describe('protectedReason: names, entries and what a move takes along', () => {
  it('every directory path protected by its segments starts with a name protected as an entry, so renaming that name cannot take it out of protection', () => {
    for (const dir of PROTECTED_DIRS.filter((d) => d.length > 1)) assert.ok(PROTECTED_ENTRY_NAMES.includes(dir[0] as string), dir.join('/'));
  });

  it('an entry named .git, file or directory, at any depth, may be neither written, nor moved; it may be entered', () => {
    for (const path of ['/p/.git', '/p/sub/.git', '/p/a/b/.GIT']) {
      assert.match(protectedReason(path, [], 'write') ?? '', /\.git/, path);
      assert.match(protectedReason(path, [], 'move') ?? '', /\.git/, path);
      assert.equal(protectedReason(path, [], 'enter'), undefined, path);
    }
  });

  it("what is inside .git stays writable, except what leads git to a program or to another repository's config", () => {
    for (const path of ['/p/.git/objects/ab/cdef', '/p/.git/index', '/p/.git/HEAD', '/p/.git/refs/heads/main', '/p/.git/logs/HEAD', '/p/.git/info/exclude', '/p/.git/objects']) {
      assert.equal(protectedReason(path), undefined, path);
      assert.equal(protectedReason(path, [], 'move'), undefined, path);
    }
    for (const path of ['/p/.git/hooks/pre-commit', '/p/.git/config', '/p/.git/commondir', '/p/.git/config.worktree', '/p/.git/modules/sub/config', '/p/.git/worktrees/wt/commondir', '/p/sub/.git/config', '/p/.Git/Config']) {
      assert.match(protectedReason(path, [], 'enter') ?? '', /protected/, path);
    }
  });

  it('what agent hosts, editors, package managers and hook managers obey on their own is protected in every directory', () => {
    for (const path of ['/p/.claude/settings.json', '/p/sub/.claude/settings.local.json', '/p/.agents/skills/x/SKILL.md', '/p/.vscode/tasks.json', '/p/.idea/workspace.xml', '/p/.cursor/mcp.json', '/p/.gemini/settings.json', '/p/.codex/config.toml', '/p/.husky/pre-commit', '/p/.githooks/pre-push', '/p/.npmrc', '/p/sub/.yarnrc.yml', '/p/.yarnrc', '/p/.pre-commit-config.yaml', '/p/lefthook.yml', '/home/u/.claude.json', '/p/.mcp-settings.json']) {
      assert.match(protectedReason(path) ?? '', /protected/, path);
    }
    // The folders themselves: neither created, nor renamed into place, nor moved aside.
    assert.match(protectedReason('/p/.claude', [], 'move') ?? '', /protected/);
    assert.match(protectedReason('/p/.vscode') ?? '', /protected/);
    // Look-alikes stay writable.
    for (const path of ['/p/claude/settings.json', '/p/.vscode-test/x', '/p/docs/npmrc.md', '/p/.pre-commit-config.yaml.bak']) assert.equal(protectedReason(path), undefined, path);
  });

  it('what other agent hosts, dev containers, build tools and version managers obey is protected in every directory', () => {
    const paths = [
      '/p/.roo/mcp.json', '/p/.kiro/hooks/lint.kiro.hook', '/p/.kiro/settings/mcp.json', '/p/.continue/mcpServers/x.yaml', '/p/.amazonq/mcp.json', '/p/.zed/settings.json',
      '/p/.windsurf/hooks.json', '/p/.qwen/settings.json', '/p/.factory/settings.json', '/p/.opencode/plugins/x.ts', '/p/sub/opencode.json', '/p/opencode.jsonc',
      '/p/.crush.json', '/p/crush.json', '/p/.aider.conf.yml', '/p/.devcontainer/devcontainer.json', '/p/.devcontainer.json', '/p/.pnpmfile.cjs', '/p/bunfig.toml',
      '/home/u/.bunfig.toml', '/p/.mvn/extensions.xml', '/p/.mvn/jvm.config', '/p/.bazelrc', '/p/Directory.Build.props', '/p/sub/Directory.Build.targets',
      '/p/Directory.Build.rsp', '/p/mise.toml', '/p/.mise.toml', '/p/mise.local.toml', '/p/.mise.local.toml', '/p/.mise/config.toml', '/p/.KIRO/Hooks/x', '/p/directory.build.props',
    ];
    for (const path of paths) assert.match(protectedReason(path, [], 'enter') ?? '', /protected/, path);
    for (const dir of ['/p/.devcontainer', '/p/.zed', '/p/.mvn']) assert.match(protectedReason(dir, [], 'move') ?? '', /protected/, dir);
    // Look-alikes stay writable.
    for (const path of ['/p/roo/mcp.json', '/p/docs/opencode.md', '/p/mise.toml.bak', '/p/Directory.Build.props.md', '/p/.devcontainers/x']) assert.equal(protectedReason(path), undefined, path);
  });

  it(".cargo and .yarn are protected as entries: their configuration and yarn's releases and plugins are protected, the rest stays as writable as the grant", () => {
    for (const path of ['/p/.cargo', '/p/.yarn', '/home/u/.Cargo']) {
      assert.match(protectedReason(path, [], 'write') ?? '', /entry/, path);
      assert.match(protectedReason(path, [], 'move') ?? '', /entry/, path);
      assert.equal(protectedReason(path, [], 'enter'), undefined, path);
    }
    for (const path of ['/p/.cargo/config.toml', '/p/sub/.cargo/config', '/p/.yarn/releases/yarn-4.5.0.cjs', '/p/.yarn/plugins/x.cjs', '/p/.yarn/releases', '/p/.YARN/Releases/y.cjs']) {
      assert.match(protectedReason(path, [], 'enter') ?? '', /protected/, path);
    }
    // What yarn install and cargo write there: its cache, install state and unplugged packages; the registry and checkouts under CARGO_HOME.
    for (const path of ['/p/.yarn/cache/x.zip', '/p/.yarn/install-state.gz', '/p/.yarn/unplugged/x/y.js', '/home/u/.cargo/registry/index/x', '/home/u/.cargo/git/db/x']) {
      assert.equal(protectedReason(path), undefined, path);
      assert.equal(protectedReason(path, [], 'move'), undefined, path);
    }
    const run = runProtectedPaths({ cwd: '/p', root: '/p' });
    for (const rel of ['.cargo/config.toml', '.yarn/releases', '.yarn/plugins', '.devcontainer', 'opencode.json']) assert.ok(run.includes(`/p/${rel}`), rel);
    assert.ok(!run.includes('/p/.yarn') && !run.includes('/p/.cargo'), 'protected as entries, not whole');
  });

  it("a home's SSH files, GnuPG configuration and the XDG configuration tools obey are protected; .config and .gnupg as entries, the rest of them writable", () => {
    const paths = [
      '/home/u/.ssh/authorized_keys', '/home/u/.ssh/config', '/home/u/.ssh/rc', '/home/u/.ssh', '/home/u/.gnupg/gpg-agent.conf', '/home/u/.gnupg/gpg.conf',
      '/home/u/.config/git/config', '/home/u/.config/git/attributes', '/home/u/.config/fish/config.fish', '/home/u/.config/fish/conf.d/x.fish',
      '/home/u/.config/systemd/user/x.service', '/home/u/.config/autostart/x.desktop', '/home/u/.config/environment.d/x.conf', '/home/u/.config/direnv/direnvrc',
      '/home/u/.config/mise/config.toml', '/p/.config/mise.toml', '/home/u/.config/nvim/init.lua', '/home/u/.config/tmux/tmux.conf',
      '/home/u/.tmux.conf', '/home/u/.vimrc', '/p/.exrc', '/home/u/.xprofile', '/home/u/.xsessionrc', '/home/u/.xinitrc', '/home/u/.pam_environment', '/home/u/.bash_aliases', '/home/u/.zlogout', '/home/u/.cshrc', '/home/u/.login',
    ];
    for (const path of paths) assert.match(protectedReason(path, [], 'enter') ?? '', /protected/, path);
    for (const path of ['/home/u/.config', '/home/u/.gnupg']) {
      assert.match(protectedReason(path, [], 'write') ?? '', /entry/, path);
      assert.match(protectedReason(path, [], 'move') ?? '', /entry/, path);
      assert.equal(protectedReason(path, [], 'enter'), undefined, path);
    }
    // What other programs keep there, and gpg's own keyrings.
    for (const path of ['/home/u/.config/Code/User/settings.json', '/home/u/.config/gh/hosts.yml', '/home/u/.gnupg/pubring.kbx', '/home/u/.config/gitx/y', '/p/.sshx/y']) {
      assert.equal(protectedReason(path), undefined, path);
    }
  });

  it("the home's protected names are paths of the run where the policy lets skills write, and only there", () => {
    const whole = runProtectedPaths({ cwd: '/home/u/p', root: '/home/u/p', home: { dir: '/home/u', writable: ['/home/u'] } });
    for (const rel of ['.bashrc', '.bashrc.d', '.ssh', '.config/git', '.config/systemd', '.gnupg/gpg-agent.conf', '.gitconfig']) assert.ok(whole.includes(`/home/u/${rel}`), rel);
    const config = runProtectedPaths({ cwd: '/home/u/p', root: '/home/u/p', home: { dir: '/home/u', writable: ['/home/u/.config'] } });
    assert.ok(config.includes('/home/u/.config/git') && config.includes('/home/u/.config/fish'));
    assert.ok(!config.includes('/home/u/.bashrc') && !config.includes('/home/u/.ssh'));
    const project = runProtectedPaths({ cwd: '/home/u/p', root: '/home/u/p', home: { dir: '/home/u', writable: ['/home/u/p'] } });
    assert.deepEqual(project.filter((path) => !path.startsWith('/home/u/p/')), []);
  });

  it("the home's own paths (PATH folders, Python's user site, docker, kubectl and AWS configuration, editors' user settings) are held in a writable home only, never by name elsewhere", () => {
    const extra = runProtectedPaths({ cwd: '/home/u/p', root: '/home/u/p', home: { dir: '/home/u', writable: ['/home/u'] } });
    const held = [
      '/home/u/.local/bin/git', '/home/u/bin/ls', '/home/u/.cargo/bin/cargo', '/home/u/go/bin/x', '/home/u/.local/lib/python3.11/site-packages/evil.pth', '/home/u/.local/share/systemd/user/x.service',
      '/home/u/.local/share/applications/x.desktop', '/home/u/.node_modules/lodash/index.js', '/home/u/.docker/config.json', '/home/u/.docker/cli-plugins/docker-x', '/home/u/.config/containers/containers.conf',
      '/home/u/.kube/config', '/home/u/.aws/config', '/home/u/.config/pip/pip.conf', '/home/u/.emacs.d/init.el', '/home/u/.config/Code/User/settings.json',
      '/home/u/.config/zed/settings.json', '/home/u/.codeium/windsurf/mcp_config.json', '/home/u/.psqlrc',
    ];
    for (const path of held) assert.match(protectedReason(path, extra) ?? '', /protected/, path);
    // The folders above them cannot be renamed aside and refilled; what else a home keeps there stays writable.
    for (const path of ['/home/u/.local', '/home/u/.local/share', '/home/u/.kube']) assert.match(protectedReason(path, extra, 'move') ?? '', /protect/, path);
    for (const path of ['/home/u/.local/share/fonts/x.ttf', '/home/u/.local/state/x', '/home/u/.config/gh/hosts.yml', '/home/u/notes/bin/tool']) {
      assert.equal(protectedReason(path, extra), undefined, path);
    }
    // A project's own bin/ and lib/ are not a home's.
    for (const path of ['/home/u/p/bin/build', '/home/u/p/.local/bin/x', '/p/.docker/config.json']) assert.equal(protectedReason(path, extra), undefined, path);
    // Not held when the policy lets skills write only the project.
    const project = runProtectedPaths({ cwd: '/home/u/p', root: '/home/u/p', home: { dir: '/home/u', writable: ['/home/u/p'] } });
    assert.equal(protectedReason('/home/u/.local/bin/git', project), undefined);
  });

  it("R's, irb's and pry's start-up files, and gdb's and lldb's, are protected in every directory (read from the working directory too)", () => {
    for (const path of ['/p/.Rprofile', '/home/u/.irbrc', '/p/sub/.pryrc', '/p/.gdbinit', '/p/.lldbinit']) assert.match(protectedReason(path) ?? '', /protected in every directory/, path);
  });

  it("a file the command trusts (mcp --http-token-file) is protected with its directory, as the policy file is", () => {
    const extra = runProtectedPaths({ cwd: '/p', root: '/p', trusted: ['/p/conf/mcp.token'] });
    assert.match(protectedReason('/p/conf/mcp.token', extra) ?? '', /protect/);
    assert.match(protectedReason('/p/conf', extra, 'move') ?? '', /protect/);
    assert.equal(protectedReason('/p/src/index.ts', extra), undefined);
  });

  it('names are compared without regard to case (a case-insensitive file system makes them one)', () => {
    assert.match(protectedReason('/p/SKILLCTL.POLICY.YAML') ?? '', /protected/);
    assert.match(protectedReason('/p/.SkillCtl/audit.jsonl') ?? '', /protected/);
  });

  it('a directory above a path the run protects may be entered and written in, not renamed or removed', () => {
    const extra = runProtectedPaths({ cwd: '/p', root: '/p', install: '/p/vendor/skillctl', policyFile: '/p/deep/conf/ci.policy.yaml' });
    for (const path of ['/p/vendor', '/p/deep', '/p/deep/conf', '/p', '/']) {
      assert.match(protectedReason(path, extra, 'move') ?? '', /protect/, path);
    }
    for (const path of ['/p/vendor', '/p/deep', '/p']) {
      assert.equal(protectedReason(path, extra, 'enter'), undefined, path);
      assert.equal(protectedReason(`${path}/new.txt`, extra, 'write'), undefined, path);
    }
    assert.match(protectedReason('/p/deep/conf', extra, 'enter') ?? '', /protected/, 'the policy directory itself');
    // A directory beside them moves freely.
    assert.equal(protectedReason('/p/src', extra, 'move'), undefined);
    assert.equal(protectedReason('/p/vendor2', extra, 'move'), undefined);
  });

  it("the project root's protected names and git paths are paths of the run (what bubblewrap can mount and the run can check)", () => {
    const paths = runProtectedPaths({ cwd: '/p', root: '/p' });
    for (const rel of ['skillctl.policy.yaml', 'pins', '.skillctl', '.mcp.json', '.gitmodules', '.claude', '.vscode', '.npmrc', '.pre-commit-config.yaml', '.husky', '.git/hooks', '.git/config', '.git/commondir', '.git/config.worktree', '.git/modules', '.git/worktrees']) {
      assert.ok(paths.includes(`/p/${rel}`), rel);
    }
    assert.ok(!paths.includes('/p/.git'), '.git itself is protected as an entry, not whole');
  });
});

describe('runProtectedPaths: the audit log the run writes', () => {
  it('protects a log in the project root and its write lock beside it, and not the rest of the root', () => {
    const extra = runProtectedPaths({ cwd: '/p', root: '/p', auditFile: '/p/x.jsonl' });
    // A directory planted at the lock fails every append, the run's own end record among them.
    for (const path of ['/p/x.jsonl', '/p/.x.jsonl.lck', '/p/.x.jsonl.lck/inside']) assert.match(protectedReason(path, extra) ?? '', /protected/, path);
    assert.equal(protectedReason('/p/y.jsonl', extra), undefined);
    // A log in a directory that does not hold the working directory is protected with it.
    assert.match(protectedReason('/p/logs/y.jsonl', runProtectedPaths({ cwd: '/p', root: '/p', auditFile: '/p/logs/x.jsonl' })) ?? '', /protected/);
  });
});
