import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { and, eq } from 'drizzle-orm';
import { uploads, type TDatabase } from '@switchboard/db';

/**
 * Where uploaded files live (issue #11): somewhere every replica sees them. PostgreSQL by default
 * (the `uploads` table, so a database backup is a backup of everything), or an S3-compatible bucket
 * when UPLOADS_S3_BUCKET is set. Files are keyed by MSP and name; nothing is kept on a server's disk.
 */
export interface TStoredFile {
  contentType: string;
  bytes: Buffer;
}

export interface TNewStoredFile extends TStoredFile {
  mspId: string;
  /** The file's key within its MSP, e.g. `uploads/logos/{mspId}.png`. */
  name: string;
}

export interface TFileStore {
  readonly kind: 'database' | 's3';
  /**
   * Stores a file. `db` is the caller's transaction: the database store commits the file with the
   * change that refers to it; the S3 store writes at once (call it before the transaction, and
   * `delete` the file if the transaction fails).
   */
  put(db: TDatabase, file: TNewStoredFile): Promise<void>;
  /**
   * Runs `change` in a transaction and stores `files` with it: in that transaction (database), or
   * just before it and removed again if it fails (S3). A row that names a file therefore always
   * names a complete one.
   */
  storeWith<T>(db: TDatabase, files: readonly TNewStoredFile[], change: (tx: TDatabase) => Promise<T>): Promise<T>;
  /**
   * Runs `change` in a transaction and removes `files` with it: in that transaction (database), or
   * after it commits (S3: no network call inside a transaction). A failed bucket removal leaves an
   * unreferenced object behind, never a row without its file, so it does not fail the change.
   */
  removeWith<T>(db: TDatabase, files: readonly { mspId: string; name: string }[], change: (tx: TDatabase) => Promise<T>): Promise<T>;
  /** The file, or null when there is none. */
  get(db: TDatabase, mspId: string, name: string): Promise<TStoredFile | null>;
  /** Removes the file; a missing file is not an error. */
  delete(db: TDatabase, mspId: string, name: string): Promise<void>;
}

export function createDatabaseFileStore(): TFileStore {
  const store: TFileStore = {
    kind: 'database',
    storeWith(db, files, change) {
      return db.transaction(async (tx) => {
        const result = await change(tx);
        // After the change: the upload's row refers to the MSP the change may have created.
        for (const file of files) await store.put(tx, file);
        return result;
      });
    },
    removeWith(db, files, change) {
      return db.transaction(async (tx) => {
        const result = await change(tx);
        for (const file of files) await store.delete(tx, file.mspId, file.name);
        return result;
      });
    },
    async put(db, file) {
      await db
        .insert(uploads)
        .values({ mspId: file.mspId, name: file.name, contentType: file.contentType, bytes: file.bytes, sizeBytes: file.bytes.length })
        .onConflictDoUpdate({ target: [uploads.mspId, uploads.name], set: { contentType: file.contentType, bytes: file.bytes, sizeBytes: file.bytes.length } });
    },
    async get(db, mspId, name) {
      const [row] = await db.select({ contentType: uploads.contentType, bytes: uploads.bytes }).from(uploads).where(and(eq(uploads.mspId, mspId), eq(uploads.name, name))).limit(1);
      return row ?? null;
    },
    async delete(db, mspId, name) {
      await db.delete(uploads).where(and(eq(uploads.mspId, mspId), eq(uploads.name, name)));
    },
  };
  return store;
}

export interface TS3FileStoreConfig {
  bucket: string;
  /** An S3-compatible endpoint (MinIO, Ceph, R2, …); AWS's own when absent. */
  endpoint: string | undefined;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible stores need. */
  forcePathStyle: boolean;
  /** Prepended to every key, so one bucket can serve several installations. */
  prefix: string;
}

/** Object keys carry the MSP first, so a bucket listing never mixes tenants and an MSP's files can be removed by prefix. */
const objectKey = (config: TS3FileStoreConfig, mspId: string, name: string) => `${config.prefix}${mspId}/${name}`;

export function createS3FileStore(config: TS3FileStoreConfig): TFileStore {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId && config.secretAccessKey ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
    // Plain (not aws-chunked) uploads with a checksum only where S3 requires one: what S3-compatible stores accept.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
  const store: TFileStore = {
    kind: 's3',
    async storeWith(db, files, change) {
      for (const file of files) await store.put(db, file);
      try {
        return await db.transaction(change);
      } catch (error) {
        await Promise.allSettled(files.map((file) => store.delete(db, file.mspId, file.name)));
        throw error;
      }
    },
    async removeWith(db, files, change) {
      const result = await db.transaction(change);
      await Promise.allSettled(files.map((file) => store.delete(db, file.mspId, file.name)));
      return result;
    },
    async put(_db, file) {
      await client.send(new PutObjectCommand({ Bucket: config.bucket, Key: objectKey(config, file.mspId, file.name), Body: file.bytes, ContentType: file.contentType, ContentLength: file.bytes.length }));
    },
    async get(_db, mspId, name) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: objectKey(config, mspId, name) }));
        if (!answer.Body) return null;
        return { contentType: answer.ContentType ?? 'application/octet-stream', bytes: Buffer.from(await answer.Body.transformToByteArray()) };
      } catch (error) {
        if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)) return null;
        throw error;
      }
    },
    async delete(_db, mspId, name) {
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: objectKey(config, mspId, name) }));
    },
  };
  return store;
}

/** The store the configuration names. */
export function createFileStore(config: { kind: 'database' } | ({ kind: 's3' } & TS3FileStoreConfig)): TFileStore {
  return config.kind === 's3' ? createS3FileStore(config) : createDatabaseFileStore();
}
