/**
 * Text of a Markdown document from marked's lexer (no HTML is rendered): inline markup reduced
 * to its text, code kept, embedded HTML reduced to text; the headings collected as hints, the
 * first level-1 heading as the title.
 */
import type { Token, Tokens } from 'marked';
import type { Hints } from './extract-text.js';
import { htmlToText } from './extract-html.js';

async function inline(tokens: readonly Token[] | undefined): Promise<string> {
  let s = '';
  for (const t of tokens ?? []) {
    if (t.type === 'br') s += '\n';
    else if (t.type === 'image') s += (t as Tokens.Image).text;
    else if (t.type === 'html') s += (await htmlToText(t.raw)).text;
    else if (t.type === 'codespan' || t.type === 'escape') s += (t as Tokens.Codespan).text;
    else if ('tokens' in t && Array.isArray(t.tokens)) s += await inline(t.tokens as Token[]);
    else if ('text' in t && typeof t.text === 'string') s += t.text;
  }
  return s;
}

async function blocks(tokens: readonly Token[], out: string[], hints: { title?: string; sections: string[] }): Promise<void> {
  for (const t of tokens) {
    switch (t.type) {
      case 'heading': {
        const text = (await inline((t as Tokens.Heading).tokens)).replace(/\s+/g, ' ').trim();
        if ((t as Tokens.Heading).depth === 1 && hints.title === undefined && text !== '') hints.title = text;
        if (text !== '') hints.sections.push(text);
        out.push(text);
        break;
      }
      case 'paragraph':
      case 'text':
        out.push(await inline((t as Tokens.Paragraph).tokens ?? [{ type: 'text', raw: t.raw, text: (t as Tokens.Text).text } as Token]));
        break;
      case 'code':
        out.push((t as Tokens.Code).text);
        break;
      case 'blockquote':
        await blocks((t as Tokens.Blockquote).tokens, out, hints);
        break;
      case 'list':
        for (const item of (t as Tokens.List).items) {
          const inner: string[] = [];
          await blocks(item.tokens, inner, hints);
          out.push(inner.join('\n'));
        }
        break;
      case 'table': {
        const table = t as Tokens.Table;
        const row = async (cells: readonly Tokens.TableCell[]): Promise<string> => (await Promise.all(cells.map((c) => inline(c.tokens)))).join(' | ');
        out.push([await row(table.header), ...(await Promise.all(table.rows.map(row)))].join('\n'));
        break;
      }
      case 'html':
        out.push((await htmlToText(t.raw)).text);
        break;
      default:
        break; // space, hr, def: no text
    }
  }
}

export async function markdownToText(md: string): Promise<{ text: string; hints: Hints }> {
  const { Lexer } = await import('marked');
  const tokens = new Lexer({ gfm: true }).lex(md);
  const out: string[] = [];
  const hints: { title?: string; sections: string[] } = { sections: [] };
  await blocks(tokens, out, hints);
  return { text: out.join('\n\n'), hints };
}
