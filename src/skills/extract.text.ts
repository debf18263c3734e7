/**
 * extract.text: the normalised text of an HTML, Markdown or PDF document given as base64, with
 * the title and section headings as hints. The payload is bounded; nothing in the document is
 * fetched or executed. docs/skills/extract.text.md.
 */
import type { BuiltinSkill } from '../core/run/index.js';
import { htmlToText } from './lib/extract-html.js';
import { markdownToText } from './lib/extract-markdown.js';
import { pdfToText } from './lib/extract-pdf.js';
import { normalizeText } from './lib/extract-text.js';
import { fail, ok, RequestError, runSkill, str } from './lib/outcome.js';
import { lenientUtf8 } from './lib/text.js';

/** Largest decoded payload accepted. */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;
export const CONTENT_TYPES = ['text/html', 'text/markdown', 'application/pdf'] as const;
type ContentType = (typeof CONTENT_TYPES)[number];

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const extractText: BuiltinSkill = {
  id: 'extract.text',
  run: (input, ctx) =>
    runSkill(input, async (req) => {
      const contentType = str(req, 'content_type') as ContentType;
      if (!CONTENT_TYPES.includes(contentType)) throw new RequestError('/content_type', `\`content_type\` must be one of ${CONTENT_TYPES.join(', ')}`);
      const b64 = str(req, 'bytes_b64').replace(/\s+/g, '');
      if (b64.length > Math.ceil(MAX_INPUT_BYTES / 3) * 4) {
        return fail('SKILL_INPUT_TOO_LARGE', `the payload is larger than ${MAX_INPUT_BYTES} bytes`, { pointer: '/bytes_b64' });
      }
      if (!BASE64.test(b64)) throw new RequestError('/bytes_b64', '`bytes_b64` is not valid base64');
      const bytes = Buffer.from(b64, 'base64');

      let result: { text: string; hints: { title?: string; sections: readonly string[] } };
      try {
        if (contentType === 'application/pdf') result = await pdfToText(bytes, ctx.signal);
        else if (contentType === 'text/html') result = await htmlToText(lenientUtf8(bytes).replace(/^\uFEFF/, ''));
        else result = await markdownToText(lenientUtf8(bytes).replace(/^\uFEFF/, ''));
      } catch (err) {
        if (ctx.signal.aborted) return fail('SKILL_TIMED_OUT', 'extraction ran out of time');
        return fail('SKILL_EXTRACT_FAILED', `the ${contentType} document cannot be read: ${err instanceof Error ? err.message : String(err)}`);
      }
      const text = normalizeText(result.text);
      if (Buffer.byteLength(text) > ctx.limits.maxOutputBytes) {
        return fail('SKILL_OUTPUT_LIMIT', `the extracted text is larger than the host's ${ctx.limits.maxOutputBytes}-byte output cap`);
      }
      return ok({ text, hints: { ...(result.hints.title !== undefined ? { title: result.hints.title } : {}), sections: [...result.hints.sections] } });
    }),
};
