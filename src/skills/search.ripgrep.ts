/**
 * search.ripgrep: regular-expression search over files the policy allows. With ripgrep (when
 * the policy allows `rg` and it is installed) or without it, the results are identical: same
 * walk, same ignore rules, same pattern meaning (lib/regex.ts), same match records.
 * docs/skills/search.ripgrep.md.
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';
import type { RE2JS } from 're2js';
import type { BuiltinSkill } from '../core/run/index.js';
import { bool, bound, denied, fail, ok, RequestError, runSkill, str, strList } from './lib/outcome.js';
import { translatePattern } from './lib/regex.js';
import { Collector, globOverrides } from './lib/search.js';
import { searchWithoutRipgrep, type SearchRoot } from './lib/search-js.js';
import { ripgrepArgs, searchWithRipgrep } from './lib/search-rg.js';

export const DEFAULT_MAX_MATCHES = 500;
export const MAX_MATCHES_CAP = 10_000;

async function compile(pattern: string, caseSensitive: boolean): Promise<RE2JS | string> {
  const { RE2JS } = await import('re2js');
  try {
    return RE2JS.compile(pattern, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export const searchRipgrep: BuiltinSkill = {
  id: 'search.ripgrep',
  run: (input, ctx) =>
    runSkill(input, async (req) => {
      const pattern = str(req, 'pattern');
      const paths = strList(req, 'paths', ['.']);
      const globs = strList(req, 'glob', []);
      const caseSensitive = bool(req, 'case_sensitive', false);
      const maxMatches = bound(req, 'max_matches', DEFAULT_MAX_MATCHES, MAX_MATCHES_CAP);
      if (paths.length === 0) throw new RequestError('/paths', '`paths` must name at least one path');
      globs.forEach((g, i) => {
        if (g === '' || g === '!' || /[\u0000-\u001f]/.test(g)) throw new RequestError(`/glob/${i}`, 'a glob must be non-empty, without control characters');
      });

      const translated = translatePattern(pattern);
      if (!translated.ok) return fail('SKILL_PATTERN_INVALID', translated.reason, { pointer: '/pattern' });
      const re = await compile(translated.re2, caseSensitive);
      if (typeof re === 'string') return fail('SKILL_PATTERN_INVALID', re, { pointer: '/pattern' });

      const cwd = await realpath(ctx.cwd);
      const roots: SearchRoot[] = [];
      for (const p of paths) {
        const decision = await ctx.policy.checkRead(p);
        if (!decision.allowed) return denied(decision, `read ${p}`);
        let isDir: boolean;
        try {
          isDir = (await stat(decision.resolved)).isDirectory();
        } catch {
          return fail('SKILL_FILE_NOT_FOUND', `${p} does not exist`);
        }
        const rel = relative(cwd, decision.resolved);
        const display = rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? decision.resolved : rel;
        roots.push({ display, resolved: decision.resolved, isDir });
      }

      const budget = ctx.limits.maxOutputBytes - 64;
      const args = ripgrepArgs(translated.rust, caseSensitive, globs, roots);
      let collector = new Collector(maxMatches, budget);
      const viaRg = await searchWithRipgrep(ctx, cwd, args, roots.some((r) => !isAbsolute(r.display)), collector);
      if (viaRg === 'unavailable') {
        collector = new Collector(maxMatches, budget);
        const viaJs = await searchWithoutRipgrep(ctx, re, roots, globOverrides(globs), collector);
        if (viaJs !== undefined) return viaJs;
      } else if (viaRg !== undefined) {
        return viaRg;
      }
      return ok({ matches: collector.matches, truncated: collector.truncated });
    }),
};
