/**
 * Text of an HTML document with htmlparser2's streaming parser: scripts, styles, templates and
 * other non-content elements dropped, block elements on lines of their own, the <title> and
 * the h1-h6 headings collected as hints. No DOM is built and nothing is fetched or executed.
 */
import type { Hints } from './extract-text.js';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'math', 'iframe', 'object', 'canvas']);
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer', 'form',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'tr', 'ul',
]);
const HEADING = /^h[1-6]$/;

export async function htmlToText(html: string): Promise<{ text: string; hints: Hints }> {
  const { Parser } = await import('htmlparser2');
  const out: string[] = [];
  const sections: string[] = [];
  let title: string | undefined;
  let skipDepth = 0;
  let inTitle = false;
  let titleText = '';
  let heading: string[] | undefined;
  const parser = new Parser(
    {
      onopentagname(name) {
        if (name === 'title') {
          inTitle = true;
          return;
        }
        if (SKIP.has(name)) skipDepth++;
        if (skipDepth > 0) return;
        if (BLOCK.has(name) || name === 'br') out.push('\n');
        if (name === 'td' || name === 'th') out.push(' ');
        if (HEADING.test(name)) heading = [];
      },
      ontext(text) {
        if (inTitle) titleText += text;
        else if (skipDepth === 0) {
          out.push(text);
          heading?.push(text);
        }
      },
      onclosetag(name) {
        if (name === 'title') {
          inTitle = false;
          const t = titleText.replace(/\s+/g, ' ').trim();
          if (title === undefined && t !== '') title = t;
          return;
        }
        if (SKIP.has(name)) {
          skipDepth = Math.max(0, skipDepth - 1);
          return;
        }
        if (skipDepth > 0) return;
        if (BLOCK.has(name)) out.push('\n');
        if (HEADING.test(name) && heading !== undefined) {
          const h = heading.join('').replace(/\s+/g, ' ').trim();
          if (h !== '') sections.push(h);
          heading = undefined;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return { text: out.join(''), hints: { ...(title !== undefined ? { title } : {}), sections } };
}
