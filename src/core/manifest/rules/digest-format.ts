import { diag, type Diagnostic } from '../../diagnostics.js';
import { isSha256Digest } from '../../digest/index.js';
import type { Rule } from './rule.js';

export const digestFormat: Rule = {
  name: 'digest-format',
  check({ data }) {
    const out: Diagnostic[] = [];
    for (const field of ['manifest_digest', 'content_digest'] as const) {
      const v = data[field];
      if (typeof v !== 'string' || v === '' || isSha256Digest(v)) continue;
      const why = !v.includes(':')
        ? 'has no algorithm prefix'
        : !v.startsWith('sha256:')
          ? `uses algorithm ${JSON.stringify(v.slice(0, v.indexOf(':')))}; only sha256 is supported`
          : /[A-F]/.test(v)
            ? 'has uppercase hex digits'
            : 'is not 64 hex digits';
      out.push(
        diag('DIGEST_FORMAT', `${field} ${why}`, {
          pointer: `/${field}`,
          hint: 'the form is sha256:<64 lowercase hex>; `skillctl validate --fix` writes the right value',
        }),
      );
    }
    return out;
  },
};
