/**
 * fs.read_text: reads a text file the policy allows, decodes it from the named encoding to
 * UTF-8, and returns at most `max_bytes` of it, cut on a character boundary. Binary files are
 * refused. docs/skills/fs.read_text.md.
 */
import type { BuiltinSkill } from '../core/run/index.js';
import { isFailure } from '../core/policy/index.js';
import { notOpened } from './lib/files.js';
import { bound, fail, fitOutput, ok, runSkill, str } from './lib/outcome.js';
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

      // Opened first, then judged: what is read is the file the policy allowed, whatever the path leads to later.
      const file = await ctx.files.openFile(path);
      if (isFailure(file)) return notOpened(file, `read ${path}`, path);
      let raw: Buffer;
      try {
        // One byte past the bound tells whether there is more.
        raw = await file.read(maxBytes + 1);
      } finally {
        await file.close();
      }
      const more = raw.length > maxBytes;
      const bytes = more ? raw.subarray(0, maxBytes) : raw;
      const decoded = decodePrefix(bytes, encoding, more);
      if (!decoded.ok) {
        if (bytes.includes(0)) return fail('SKILL_BINARY_CONTENT', `${path} is a binary file`);
        return fail('SKILL_DECODE_FAILED', `${path} is not valid ${decoded.encoding}`, { encoding: decoded.encoding });
      }
      if (looksBinary(decoded.text)) return fail('SKILL_BINARY_CONTENT', `${path} is a binary file`);
      const response = (d: { text: string; bytes: number }): Record<string, unknown> => ({
        path,
        text: d.text,
        bytes_read: d.bytes,
        truncated: more || d.bytes < bytes.length,
        normalized_encoding: decoded.encoding,
      });
      // Fewer bytes of the file when the response would not fit the host's output cap.
      const fitted = fitOutput(ctx.limits.maxOutputBytes, bytes.length, (n) => {
        if (n === bytes.length) return response(decoded);
        const d = decodePrefix(bytes.subarray(0, n), encoding, true);
        return response(d.ok ? d : { text: '', bytes: 0 });
      });
      return ok(fitted ?? response(decoded));
    }),
};
