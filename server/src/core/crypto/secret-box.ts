import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for secrets that must be read back (guardrail prompts, signing secrets, customer
 * API keys). The ciphertext names the key it was sealed with, so a new ENCRYPTION_KEY can be
 * introduced while older rows still open with the previous one.
 * Format: `v1.<key id>.<iv b64url>.<tag b64url>.<ciphertext b64url>`.
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentId: string;

  constructor(current: Buffer, previous: Buffer[] = []) {
    this.currentId = keyId(current);
    for (const key of [current, ...previous]) this.keys.set(keyId(key), key);
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentId)!, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', this.currentId, iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, id, iv, tag, body] = sealed.split('.');
    const key = id ? this.keys.get(id) : undefined;
    if (version !== 'v1' || !key || !iv || !tag || body === undefined)
      throw new Error('unreadable sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  sealNullable(plaintext: string | null | undefined): string | null {
    return plaintext === null || plaintext === undefined ? null : this.seal(plaintext);
  }

  openNullable(sealed: string | null): string | null {
    return sealed === null ? null : this.open(sealed);
  }

  /** Whether a stored value has the sealed format (data migrations must not seal twice). */
  static looksSealed(value: string): boolean {
    return /^v1\.[0-9a-f]{8}\.[\w-]{16}\.[\w-]{22}\.[\w-]*$/.test(value);
  }

  /** A key for HMACs (cursors and the like) derived from, but not equal to, the encryption key. */
  deriveKey(purpose: string): Buffer {
    return createHash('sha256')
      .update(this.keys.get(this.currentId)!)
      .update(`understudy:${purpose}`)
      .digest();
  }
}

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}
