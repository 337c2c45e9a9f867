import type { Config } from '../config.js';
import { createS3Storage } from './s3Storage.js';
import { createLocalStorage, type FileStorage } from './storage.js';

/** Where the configuration says the file bytes live: S3 when configured, else the local folder. */
export function storageFromConfig(config: Config): FileStorage {
  return config.files.s3 ? createS3Storage(config.files.s3) : createLocalStorage(config.files.dir);
}
