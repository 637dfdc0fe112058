import S3rver from 's3rver';
import { rmSync } from 'node:fs';
import { freePort, tempDir } from './process.js';

/** A local S3-compatible server (s3rver) on a free port, with one empty bucket, in a temporary folder. */
export interface S3StandIn {
  env: Record<string, string>;
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

export async function startS3(bucket = 'tessera-media'): Promise<S3StandIn> {
  const directory = tempDir('tessera-s3-');
  const port = await freePort();
  const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    // s3rver's own account (it checks the key id; v4 signatures are not verified, expiry is).
    env: {
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
