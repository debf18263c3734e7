/**
 * The edwards25519 arithmetic the key and signature checks need, and no more: decoding a point
 * (RFC 8032 §5.1.3) and telling whether it has small order. OpenSSL (node:crypto) imports any 32
 * bytes as a public key and verifies with the cofactorless equation, so a small-order key makes
 * `R = identity, S = 0` a valid signature of every message: a keys file may hold only points
 * that no such signature verifies under, and a signature whose R has small order is refused.
 */
const P = 2n ** 255n - 19n;
/** The curve constants d and sqrt(-1), computed on first use (not at start-up). */
let constants: { readonly D: bigint; readonly SQRT_M1: bigint } | undefined;
function curve(): { readonly D: bigint; readonly SQRT_M1: bigint } {
  constants ??= { D: (-121665n * modPow(121666n, P - 2n)) % P, SQRT_M1: modPow(2n, (P - 1n) / 4n) };
  return constants;
}

function mod(a: bigint): bigint {
  const r = a % P;
  return r < 0n ? r + P : r;
}

function modPow(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = ((base % P) + P) % P;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return result;
}

interface Point {
  readonly x: bigint;
  readonly y: bigint;
}

/** The point 32 bytes encode, or undefined; non-canonical encodings (y ≥ p, x = 0 with the sign bit) are none. */
function decodePoint(raw: Uint8Array): Point | undefined {
  if (raw.length !== 32) return undefined;
  const { D, SQRT_M1 } = curve();
  const bytes = Buffer.from(raw);
  const sign = (bytes[31] as number) >> 7;
  bytes[31] = (bytes[31] as number) & 0x7f;
  const y = BigInt('0x' + Buffer.from(bytes).reverse().toString('hex'));
  if (y >= P) return undefined;
  const y2 = mod(y * y);
  const u = mod(y2 - 1n);
  const v = mod(D * y2 + 1n);
  const v3 = mod(v * v * v);
  let x = mod(u * v3 * modPow(u * mod(v3 * v3 * v), (P - 5n) / 8n));
  const vx2 = mod(v * x * x);
  if (vx2 !== u) {
    if (vx2 !== mod(-u)) return undefined;
    x = mod(x * SQRT_M1);
  }
  if (x === 0n && sign === 1) return undefined;
  if (Number(x & 1n) !== sign) x = mod(-x);
  return { x, y };
}

/** 2·A with the complete affine addition law of -x² + y² = 1 + d·x²·y² (d is not a square: no denominator is zero). */
function double(a: Point): Point {
  const { D } = curve();
  const xy = mod(a.x * a.y);
  const t = mod(D * xy * xy);
  return { x: mod(2n * xy * modPow(1n + t, P - 2n)), y: mod((a.y * a.y + a.x * a.x) * modPow(mod(1n - t), P - 2n)) };
}

/** True when the 32 bytes encode a point of edwards25519. */
export function isEd25519Point(raw: Uint8Array): boolean {
  return decodePoint(raw) !== undefined;
}

/**
 * True when the 32 bytes encode a point of small order: one of the eight with [8]P = identity
 * (the identity, the point of order 2, two of order 4, four of order 8). libsodium refuses these
 * as keys and as R (`has_small_order`); OpenSSL does not. Three doublings cost a keys file's load
 * too much (keys.ts compares with SMALL_ORDER_ENCODINGS): this arithmetic proves that list.
 */
export function hasSmallOrder(raw: Uint8Array): boolean {
  const p = decodePoint(raw);
  if (p === undefined) return false;
  const eight = double(double(double(p)));
  return eight.x === 0n && eight.y === 1n;
}

/**
 * The canonical encodings of the eight small-order points. A signature's R is compared with these
 * (a Buffer comparison, not a decoding per signature): OpenSSL compares R byte for byte with the
 * canonical encoding of the point it computes, so a non-canonical R never verifies anyway.
 */
export const SMALL_ORDER_ENCODINGS: readonly string[] = [
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0000000000000000000000000000000000000000000000000000000000000080',
  '0100000000000000000000000000000000000000000000000000000000000000',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
];
