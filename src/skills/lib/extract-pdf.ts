/**
 * Text of every page of a PDF with Mozilla's pdf.js, as unpdf builds it for runtimes without a DOM
 * (`unpdf/pdfjs`: one file, no worker file, no canvas; pdfjs-dist with its optional native canvas
 * weighed 74 MB of a 116 MB install, and text extraction never draws). In the safest
 * configuration: no font faces, no system fonts, no network, no XFA, no scripting (and this build
 * has no eval of font programs at all). The document's Title and its outline give the hints.
 */
import type { Hints } from './extract-text.js';

interface OutlineNode {
  readonly title: string;
  readonly items: readonly OutlineNode[];
}

function flatten(nodes: readonly OutlineNode[] | null, out: string[]): void {
  for (const n of nodes ?? []) {
    const t = n.title.replace(/\s+/g, ' ').trim();
    if (t !== '') out.push(t);
    flatten(n.items, out);
  }
}

export async function pdfToText(bytes: Uint8Array, signal: AbortSignal): Promise<{ text: string; hints: Hints }> {
  const pdfjs = await import('unpdf/pdfjs');
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    isOffscreenCanvasSupported: false,
    disableAutoFetch: true,
    disableStream: true,
    stopAtErrors: false,
    verbosity: 0,
  });
  const doc = await task.promise;
  try {
    const pages: string[] = [];
    for (let p = 1; p <= doc.numPages; p++) {
      if (signal.aborted) throw new Error('ran out of time');
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str + (item.hasEOL ? '\n' : '');
      }
      pages.push(text);
      page.cleanup();
    }
    const meta = (await doc.getMetadata().catch(() => undefined)) as { info?: { Title?: unknown } } | undefined;
    const rawTitle = meta?.info?.Title;
    const title = typeof rawTitle === 'string' ? rawTitle.replace(/\s+/g, ' ').trim() : '';
    const sections: string[] = [];
    flatten((await doc.getOutline().catch(() => null)) as OutlineNode[] | null, sections);
    return { text: pages.join('\n\n'), hints: { ...(title !== '' ? { title } : {}), sections } };
  } finally {
    await task.destroy();
  }
}
