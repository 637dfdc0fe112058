/** The storage area's door: what other areas use of it. */
export { type MediaStore, mediaStoreFor, readAll, type StoredObject } from './media-store.js';
export { checkQuota, quotaBytes, storageUsed } from './quota.js';
export { memberFileKey, uploadKey, uploadsDir } from './keys.js';
export {
  MAX_FILE_BYTES,
  maxBytesFor,
  STALE_PROCESSING_MS,
  SUPPORTED_TYPES,
  tooLarge,
  uploadJson,
  type UploadRow,
  UPLOADS_PREFIX,
  UploadService,
} from './uploads.js';
