// gitNamedPaths: the paths a repository's git configuration names for the user's git to run or read
// as configuration, from git's own listing (`git config --list --show-scope --show-origin --null`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConfigEntry } from '../../../src/skills/lib/git-config.js';
import { gitNamedPaths } from '../../../src/skills/lib/git-named-paths.js';

const TOP = '/p';
const where = { top: TOP, home: '/home/u' };
/** An entry of the repository's own configuration (git prints its path relative to the top). */
const local = (key: string, value: string, origin = 'file:.git/config'): ConfigEntry => ({ scope: 'local', origin, raw: key, key, value });
const paths = (...entries: ConfigEntry[]): string[] => gitNamedPaths(entries, where);

describe('gitNamedPaths', () => {
  it('a hooks folder inside the work tree is protected whole; the configuration file itself too', () => {
    assert.deepEqual(paths(local('core.hookspath', 'tools/hooks')), ['/p/.git/config', '/p/tools/hooks']);
  });

  it('a hooks folder at the top (or above it) protects the hooks by name, never the folder that holds the work tree', () => {
    const got = paths(local('core.hookspath', '.'));
    assert.ok(got.includes('/p/pre-commit') && got.includes('/p/post-checkout') && got.includes('/p/pre-push'), got.join(' '));
    assert.ok(!got.includes('/p') && !got.includes('/'), got.join(' '));
  });

  it('an included file is placed relative to the file that includes it, conditional or not; ~/ is the home', () => {
    assert.deepEqual(paths(local('include.path', '../team.gitconfig'), local('includeIf.onbranch:main.path', 'cfg/main.inc', 'file:/p/team.gitconfig'), local('include.path', '~/.extra')), [
      '/home/u/.extra',
      '/p/.git/config',
      '/p/cfg/main.inc',
      '/p/team.gitconfig',
    ]);
  });

  it('program-valued keys: the words that spell a path, from the top; words without a slash or with a variable are not paths', () => {
    assert.deepEqual(
      paths(
        local('filter.tidy.clean', './scripts/clean.sh --strict %f'),
        local('diff.img.textconv', 'exiftool'),
        local('core.fsmonitor', 'true'),
        local('core.pager', 'less -R'),
        local('merge.ours.driver', 'sh -c "tools/merge.sh %O %A" --log=logs/merge.txt'),
        local('credential.helper', '!$HOME/bin/helper'),
      ),
      ['/p/.git/config', '/p/logs/merge.txt', '/p/scripts/clean.sh', '/p/tools/merge.sh'],
    );
  });

  it('`!` aliases and submodule update commands are programs; other aliases and values are not', () => {
    assert.deepEqual(paths(local('alias.st', '!sh ./bin/st.sh'), local('alias.co', 'checkout src/x'), local('submodule.lib.update', '!./upd.sh'), local('user.name', 'a/b')), [
      '/p/.git/config',
      '/p/bin/st.sh',
      '/p/upd.sh',
    ]);
  });

  it('the template folder git init copies hooks from', () => {
    assert.deepEqual(paths(local('init.templatedir', '/p/.templates')), ['/p/.git/config', '/p/.templates']);
  });

  it('a word naming the top or a folder above it is dropped: protecting it would take away every write grant', () => {
    assert.deepEqual(paths(local('core.editor', 'vi / /p ../'), local('filter.x.smudge', '/usr/bin/tool')), ['/p/.git/config', '/usr/bin/tool']);
  });

  it('outside a repository only what is placed without the top: absolute paths, the home', () => {
    const entries = [
      { scope: 'global', origin: 'file:/home/u/.gitconfig', raw: 'core.hookspath', key: 'core.hookspath', value: '.githooks' },
      { scope: 'global', origin: 'file:/home/u/.gitconfig', raw: 'include.path', key: 'include.path', value: 'more.inc' },
      { scope: 'command', origin: 'command line:', raw: 'core.hookspath', key: 'core.hookspath', value: '/x' },
    ];
    assert.deepEqual(gitNamedPaths(entries, { top: undefined, home: '/home/u' }), ['/home/u/.gitconfig', '/home/u/more.inc']);
  });
});
