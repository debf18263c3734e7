/**
 * Blob bytes from one long-running `git cat-file --batch`: requests are written as they come and
 * answered in order, so reading a thousand files costs one process, not a thousand. Raw blobs
 * only: without --filters or --textconv no clean, smudge or textconv program runs, and the bytes
 * are the ones committed. A digest is computed as the bytes stream past, so a huge blob costs no
 * memory; a whole read allocates exactly the size the tree listing gave (the caller bounds it).
 */
import { createHash, type Hash } from 'node:crypto';
import type { BlobReader } from '../../../core/git-tree/index.js';
import type { Sha256Digest } from '../../../core/digest/index.js';
import { unreadable, type Git } from '../../git-run.js';

interface Pending {
  readonly oid: string;
  readonly size: number;
  /** Receives the body, in pieces. */
  readonly take: (chunk: Buffer) => void;
  readonly done: () => void;
  readonly fail: (err: Error) => void;
}

export interface BatchReader extends BlobReader {
  /** Ends git's input and lets it exit; requests after this fail. */
  close(): void;
}

/** A reader over `git cat-file --batch`, started at the first request. */
export function catFile(git: Git): BatchReader {
  const queue: Pending[] = [];
  let child: ReturnType<Git['start']> | undefined;
  let header = Buffer.alloc(0);
  let remaining = -1;
  let closed = false;
  let broken: Error | undefined;

  const failAll = (err: Error): void => {
    broken = err;
    for (const p of queue.splice(0)) p.fail(err);
  };

  /** Parses as much of git's answer as has arrived: header line, body, one newline. */
  const feed = (chunk: Buffer): void => {
    let buf = chunk;
    while (buf.length > 0) {
      const p = queue[0];
      if (p === undefined) return failAll(unreadable('git cat-file answered a request that was not made'));
      if (remaining === -1) {
        const nl = buf.indexOf(0x0a);
        if (nl === -1) {
          header = Buffer.concat([header, buf]);
          if (header.length > 1024) return failAll(unreadable('git cat-file gave an answer that is not understood'));
          return;
        }
        const line = Buffer.concat([header, buf.subarray(0, nl)]).toString('latin1');
        header = Buffer.alloc(0);
        buf = buf.subarray(nl + 1);
        const m = /^([0-9a-f]+) (\w+) (\d+)$/.exec(line);
        // The listing named this blob and gave its size: any other answer means the repository
        // changed under us or git misread it; nothing read from it can be trusted.
        if (m === null || m[1] !== p.oid || m[2] !== 'blob' || Number(m[3]) !== p.size) {
          return failAll(unreadable(`git cat-file could not read blob ${p.oid}: ${line}`));
        }
        remaining = p.size + 1;
        continue;
      }
      const body = Math.min(buf.length, remaining);
      const part = buf.subarray(0, body);
      // The last byte of an answer is git's newline, not the blob's.
      const last = remaining <= body;
      if (last && part[part.length - 1] !== 0x0a) return failAll(unreadable(`git cat-file gave an answer for ${p.oid} that is not understood`));
      const data = last ? part.subarray(0, part.length - 1) : part;
      if (data.length > 0) p.take(data);
      remaining -= body;
      buf = buf.subarray(body);
      if (remaining === 0) {
        remaining = -1;
        queue.shift();
        p.done();
      }
    }
  };

  const ensure = (): NonNullable<typeof child> => {
    if (child !== undefined) return child;
    const c = git.start(['cat-file', '--batch']);
    let err = '';
    c.stdout.on('data', feed);
    c.stderr.on('data', (d: Buffer) => void (err.length < 4096 && (err += d.toString('utf8'))));
    c.stdin.on('error', () => undefined);
    c.on('error', (e) => failAll(unreadable(`git cat-file could not be started: ${e.message}`)));
    c.on('close', (code) => {
      if (queue.length > 0) failAll(unreadable(`git cat-file stopped (exit ${code ?? 'signal'}): ${err.trim().split('\n')[0] ?? ''}`));
    });
    child = c;
    return c;
  };

  const request = (oid: string, size: number, take: (chunk: Buffer) => void): Promise<void> =>
    new Promise((done, fail) => {
      if (broken !== undefined) return fail(broken);
      if (closed) return fail(unreadable('the blob reader is closed'));
      queue.push({ oid, size, take, done, fail });
      ensure().stdin.write(`${oid}\n`);
    });

  return {
    async read(oid, size) {
      const out = Buffer.allocUnsafe(size);
      let at = 0;
      await request(oid, size, (chunk) => {
        chunk.copy(out, at);
        at += chunk.length;
      });
      return out;
    },
    async digest(oid, size): Promise<Sha256Digest> {
      const h: Hash = createHash('sha256');
      await request(oid, size, (chunk) => h.update(chunk));
      return `sha256:${h.digest('hex')}` as Sha256Digest;
    },
    close() {
      closed = true;
      child?.stdin.end();
    },
  };
}
