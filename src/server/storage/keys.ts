/** Where media live: the bucket keys of uploads and member files, and the local uploads folder. */
import { resolve } from 'node:path';

/** The bucket key of an upload's original. */
export const uploadKey = (storedName: string) => `uploads/${storedName}`;

/** The bucket key of a member-area file (private: served only through presigned URLs). */
export const memberFileKey = (id: string) => `private/member-files/${id}`;

/** The local folder of uploads under DATA_DIR (the default when no bucket is configured). */
export function uploadsDir(dataDir: string): string {
  return resolve(dataDir, 'uploads');
}
