/**
 * fs.read_text: reads a text file the policy allows, decodes it from the named encoding to
 * UTF-8, and returns at most `max_bytes` of it, cut on a character boundary. Binary files are
 * refused. docs/skills/fs.read_text.md.
 */
import type { BuiltinSkill } from '../core/run/index.js';
import { openRegular, readUpTo } from './lib/files.js';
import { bound, denied, fail, ok, runSkill, str } from './lib/outcome.js';
import { canonicalEncoding, decodePrefix, looksBinary } from './lib/text.js';

export const DEFAULT_MAX_BYTES = 65_536;

export const fsReadText: BuiltinSkill = {
  id: 'fs.read_text',
  run: (input, ctx) =>
    runSkill(input, async (req) => {
      const path = str(req, 'path');
      const maxBytes = bound(req, 'max_bytes', DEFAULT_MAX_BYTES, ctx.limits.maxOutputBytes);
      const label = str(req, 'encoding', 'utf-8');
      const encoding = canonicalEncoding(label);
      if (encoding === undefined) return fail('SKILL_ENCODING_UNSUPPORTED', `unknown encoding ${JSON.stringify(label)}`, { pointer: '/encoding' });

      const decision = await ctx.policy.checkRead(path);
      if (!decision.allowed) return denied(decision, `read ${path}`);
      const opened = await openRegular(decision.resolved, path);
      if ('outcome' in opened) return opened.outcome;
      let raw: Buffer;
      try {
        // One byte past the bound tells whether there is more.
        raw = await readUpTo(opened.fh, maxBytes + 1);
      } finally {
        await opened.fh.close();
      }
      const more = raw.length > maxBytes;
      const bytes = more ? raw.subarray(0, maxBytes) : raw;
      const decoded = decodePrefix(bytes, encoding, more);
      if (!decoded.ok) {
        if (bytes.includes(0)) return fail('SKILL_BINARY_CONTENT', `${path} is a binary file`);
        return fail('SKILL_DECODE_FAILED', `${path} is not valid ${decoded.encoding}`, { encoding: decoded.encoding });
      }
      if (looksBinary(decoded.text)) return fail('SKILL_BINARY_CONTENT', `${path} is a binary file`);
      return ok({
        path,
        text: decoded.text,
        bytes_read: decoded.bytes,
        truncated: more || decoded.bytes < bytes.length,
        normalized_encoding: decoded.encoding,
      });
    }),
};
