import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `bits` of randomness as base62 (e.g. 128 bits → 22 characters). */
export function randomBase62(bits = 128): string {
  let value = BigInt(`0x${randomBytes(Math.ceil(bits / 8)).toString('hex')}`);
  const length = Math.ceil(bits / Math.log2(62));
  let out = '';
  for (let i = 0; i < length; i++) {
    out += BASE62[Number(value % 62n)];
    value /= 62n;
  }
  return out;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}
