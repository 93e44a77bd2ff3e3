import { join } from 'node:path';
import type { Clock } from '../clock.ts';
import { LocalStorage } from './local.ts';
import { S3Storage } from './s3.ts';
import type { ObjectStorage } from './types.ts';

export { LocalStorage, type LocalStorageOptions } from './local.ts';
export { S3Storage, type S3StorageOptions } from './s3.ts';
export {
  assertValidKey,
  type GetOptions,
  type ObjectInfo,
  type ObjectStorage,
  type PutOptions,
  type StorageBody,
  type StoredObject,
  toBuffer,
} from './types.ts';

export interface StorageConfig {
  dataDir: string;
  publicUrl: string;
  s3: {
    endpoint: string;
    bucket: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
    prefix: string;
  } | null;
}

/** S3 when configured, else files under `<DATA_DIR>/objects`. */
export function createStorage(config: StorageConfig, signingKey: Buffer, clock: Clock): ObjectStorage {
  if (config.s3) return new S3Storage({ ...config.s3, clock });
  return new LocalStorage({
    root: join(config.dataDir, 'objects'),
    publicBaseUrl: `${config.publicUrl}/storage`,
    signingKey,
    clock,
  });
}
