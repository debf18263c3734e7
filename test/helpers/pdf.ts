/**
 * Builds a small, valid PDF from scratch (no library): one page per string, Helvetica text,
 * a document Title and an outline entry per page. Offsets in the xref table are computed, so
 * pdf.js reads it without repairs.
 */
function escapePdf(s: string): string {
  return s.replace(/[\\()]/g, (c) => `\\${c}`);
}

export function makePdf(pages: readonly string[], opts: { title?: string; outline?: readonly string[] } = {}): Buffer {
  const n = pages.length;
  // Object numbers: 1 catalog, 2 pages, 3 font, 4 info, 5 outlines, then per page: page, content, outline item.
  const pageObj = (i: number): number => 6 + i * 3;
  const contentObj = (i: number): number => 7 + i * 3;
  const itemObj = (i: number): number => 8 + i * 3;
  const objects = new Map<number, string>();
  objects.set(1, '<< /Type /Catalog /Pages 2 0 R /Outlines 5 0 R >>');
  objects.set(2, `<< /Type /Pages /Kids [${pages.map((_, i) => `${pageObj(i)} 0 R`).join(' ')}] /Count ${n} >>`);
  objects.set(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  objects.set(4, `<< /Title (${escapePdf(opts.title ?? '')}) /Producer (skillctl tests) >>`);
  const outline = opts.outline ?? [];
  objects.set(5, outline.length === 0 ? '<< /Type /Outlines /Count 0 >>' : `<< /Type /Outlines /First ${itemObj(0)} 0 R /Last ${itemObj(outline.length - 1)} 0 R /Count ${outline.length} >>`);
  pages.forEach((text, i) => {
    const lines = text.split('\n');
    const ops = lines.map((l, j) => `BT /F1 14 Tf 72 ${720 - j * 20} Td (${escapePdf(l)}) Tj ET`).join('\n');
    objects.set(pageObj(i), `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contentObj(i)} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`);
    objects.set(contentObj(i), `<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}\nendstream`);
  });
  outline.forEach((title, i) => {
    const links = [i > 0 ? `/Prev ${itemObj(i - 1)} 0 R` : '', i < outline.length - 1 ? `/Next ${itemObj(i + 1)} 0 R` : ''].join(' ');
    objects.set(itemObj(i), `<< /Title (${escapePdf(title)}) /Parent 5 0 R ${links} /Dest [${pageObj(Math.min(i, n - 1))} 0 R /Fit] >>`);
  });
  const size = Math.max(...objects.keys()) + 1;
  let out = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  for (let i = 1; i < size; i++) {
    const body = objects.get(i) ?? 'null';
    offsets[i] = Buffer.byteLength(out, 'latin1');
    out += `${i} 0 obj\n${body}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (let i = 1; i < size; i++) out += `${String(offsets[i]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${size} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
