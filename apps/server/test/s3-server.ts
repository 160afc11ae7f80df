import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server that speaks the part of the S3 REST API the file store uses (path-style PutObject,
 * GetObject, DeleteObject), so the real AWS SDK runs against it in tests. It checks that requests are
 * SigV4-signed with the expected access key and that the signed payload hash matches the body.
 */
export interface TLocalS3 {
  url: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, { contentType: string; bytes: Buffer }>;
  requests: Array<{ method: string; key: string }>;
  /** The next `count` requests answer 503 SlowDown (the SDK retries them). */
  failNext(count: number): void;
  close(): Promise<void>;
}

const xmlError = (response: ServerResponse, status: number, code: string, message: string) => {
  response.writeHead(status, { 'content-type': 'application/xml' });
  response.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
};

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startLocalS3(bucket = 'switchboard-test'): Promise<TLocalS3> {
  const accessKeyId = 'LOCALS3ACCESSKEY';
  const secretAccessKey = 'local-s3-secret-access-key-0123456789';
  const objects = new Map<string, { contentType: string; bytes: Buffer }>();
  const requests: TLocalS3['requests'] = [];
  let failures = 0;

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://local');
      const [, requestBucket, ...keyParts] = url.pathname.split('/');
      const key = decodeURIComponent(keyParts.join('/'));
      requests.push({ method: request.method ?? '', key });
      const body = await bodyOf(request);
      if (failures > 0) {
        failures -= 1;
        return xmlError(response, 503, 'SlowDown', 'Please reduce your request rate.');
      }
      const authorization = request.headers.authorization ?? '';
      if (!authorization.startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`) || !request.headers['x-amz-date']) {
        return xmlError(response, 403, 'AccessDenied', 'Access Denied');
      }
      const payloadHash = request.headers['x-amz-content-sha256'];
      if (payloadHash && payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== createHash('sha256').update(body).digest('hex')) {
        return xmlError(response, 400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 header does not match what was computed.');
      }
      if (requestBucket !== bucket) return xmlError(response, 404, 'NoSuchBucket', 'The specified bucket does not exist');
      if (key === '') return xmlError(response, 400, 'InvalidRequest', 'A key is required');
      switch (request.method) {
        case 'PUT':
          objects.set(key, { contentType: request.headers['content-type'] ?? 'binary/octet-stream', bytes: body });
          response.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` });
          return response.end();
        case 'GET': {
          const object = objects.get(key);
          if (!object) return xmlError(response, 404, 'NoSuchKey', 'The specified key does not exist.');
          response.writeHead(200, { 'content-type': object.contentType, 'content-length': object.bytes.length });
          return response.end(object.bytes);
        }
        case 'DELETE':
          objects.delete(key);
          response.writeHead(204);
          return response.end();
        default:
          return xmlError(response, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    requests,
    failNext(count) {
      failures = count;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
