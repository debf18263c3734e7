/**
 * The certificates the egress proxy shows a sandboxed program when it reads an HTTPS tunnel: a
 * certificate authority made for one run (its key never leaves skillctl's memory, and it expires
 * a day later), and a certificate for each host the program asks for, signed by it.
 *
 * Node can make and use keys but not write a certificate, and the libraries that can bring a
 * second crypto stack (node-forge's RSA in JavaScript) or a global metadata polyfill
 * (@peculiar/x509's reflect-metadata) into every run that loads them. A certificate of one
 * fixed shape is a few DER structures: written here, and held by a test that has Node's
 * X509Certificate, OpenSSL and a TLS handshake accept what it writes.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';

/** One DER length: short form below 128, else long form (certificates stay far below 64 KiB). */
function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  if (n < 0x100) return Buffer.from([0x81, n]);
  return Buffer.from([0x82, n >> 8, n & 0xff]);
}

function tlv(tag: number, ...parts: readonly Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
}

const seq = (...parts: readonly Buffer[]): Buffer => tlv(0x30, ...parts);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const bytes = [40 * a + b];
  for (const n of rest) {
    const groups = [n & 0x7f];
    for (let v = n >>> 7; v > 0; v >>>= 7) groups.unshift((v & 0x7f) | 0x80);
    for (const g of groups) bytes.push(g);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/**
 * A non-negative INTEGER from big-endian bytes, in DER's one form: no leading zero byte unless
 * the next has its high bit set (OpenSSL refuses any other as "illegal padding").
 */
function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && ((bytes[start + 1] as number) & 0x80) === 0) start++;
  const body = bytes.subarray(start);
  return tlv(0x02, (body[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), body]) : body);
}

const bitString = (bytes: Buffer, unused = 0): Buffer => tlv(0x03, Buffer.from([unused]), bytes);
const TRUE = tlv(0x01, Buffer.from([0xff]));

/** UTCTime (years before 2050, as RFC 5280 asks). */
function utcTime(d: Date): Buffer {
  const two = (n: number): string => String(n).padStart(2, '0');
  const text = `${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

const commonName = (cn: string): Buffer => seq(tlv(0x31, seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(cn, 'utf8')))));
const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? seq(oid(id), TRUE, tlv(0x04, value)) : seq(oid(id), tlv(0x04, value));
}

/** The key identifier RFC 5280 §4.2.1.2 describes: SHA-1 of the public key's bits. */
function keyId(key: KeyObject): Buffer {
  const spki = key.export({ type: 'spki', format: 'der' });
  // The SPKI ends in the BIT STRING of the key; for P-256 the point is its last 65 bytes.
  return createHash('sha1').update(spki.subarray(spki.length - 65)).digest();
}

interface CertFields {
  readonly subject: string;
  readonly issuer: string;
  readonly publicKey: KeyObject;
  readonly signer: KeyObject;
  readonly extensions: readonly Buffer[];
  readonly now: Date;
}

function certificate(f: CertFields): Buffer {
  // An hour back, for a clock a little behind skillctl's; a day on, longer than any run.
  const notBefore = new Date(f.now.getTime() - 3_600_000);
  const notAfter = new Date(f.now.getTime() + 86_400_000);
  // Positive, and 16 bytes long whatever the draw (RFC 5280 §4.1.2.2).
  const serial = randomBytes(16);
  serial[0] = ((serial[0] as number) & 0x7f) | 0x40;
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    ECDSA_SHA256,
    commonName(f.issuer),
    seq(utcTime(notBefore), utcTime(notAfter)),
    commonName(f.subject),
    f.publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, seq(...f.extensions)),
  );
  return seq(tbs, ECDSA_SHA256, bitString(sign('sha256', tbs, f.signer)));
}

export function toPem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

export interface HostCertificate {
  readonly cert: string;
  readonly key: string;
}

export interface RunAuthority {
  /** The authority's certificate (PEM), for the sandbox's trust store. */
  readonly certificate: string;
  /** A certificate for `host` (a name or an IP address), made once and kept for the run. */
  issue(host: string): HostCertificate;
}

export function createRunAuthority(now: Date = new Date()): RunAuthority {
  // A name of its own: a trust store holding two authorities of one name (another run's, or a
  // site's made the same way) lets OpenSSL take the wrong one as the issuer, now and then.
  const CA_NAME = `skillctl egress proxy, one run (${randomBytes(8).toString('hex')})`;
  const ca = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const caId = keyId(ca.publicKey);
  const caCert = certificate({
    subject: CA_NAME,
    issuer: CA_NAME,
    publicKey: ca.publicKey,
    signer: ca.privateKey,
    now,
    extensions: [
      extension('2.5.29.19', true, seq(TRUE, integer(Buffer.from([0])))), // a CA, no CA below it
      extension('2.5.29.15', true, bitString(Buffer.from([0x06]), 1)), // keyCertSign, cRLSign
      extension('2.5.29.14', false, tlv(0x04, caId)),
    ],
  });
  // One key for every host of the run: nobody but this process holds it.
  const leaf = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const leafKey = leaf.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const issued = new Map<string, HostCertificate>();
  return {
    certificate: toPem(caCert),
    issue(host) {
      const known = issued.get(host);
      if (known !== undefined) return known;
      const family = isIP(host);
      const name =
        family === 0 ? tlv(0x82, Buffer.from(host, 'ascii')) : tlv(0x87, family === 4 ? Buffer.from(host.split('.').map(Number)) : ipv6Bytes(host));
      const der = certificate({
        subject: host,
        issuer: CA_NAME,
        publicKey: leaf.publicKey,
        signer: ca.privateKey,
        now,
        extensions: [
          extension('2.5.29.19', true, seq()),
          extension('2.5.29.15', true, bitString(Buffer.from([0x80]), 7)), // digitalSignature
          extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))), // serverAuth
          extension('2.5.29.17', false, seq(name)),
          extension('2.5.29.35', false, seq(tlv(0x80, caId))),
        ],
      });
      const made = { cert: toPem(der), key: leafKey };
      issued.set(host, made);
      return made;
    },
  };
}

/** The 16 bytes of an IPv6 address (`::` expanded; an IPv4 tail as its four bytes). */
function ipv6Bytes(host: string): Buffer {
  let text = host;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4 !== null) {
    const [, a, b, c, d] = v4.map(Number) as [number, number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parts = (s: string): string[] => (s === '' ? [] : s.split(':'));
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}
