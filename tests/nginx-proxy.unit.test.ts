import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_MAX_BYTES } from '@switchboard/contracts';

// deploy/nginx/switchboard-proxy.conf in Debian's nginx (the one scripts/replica-test.mjs uses), in front of a stand-in
// upstream that answers with the size of the body it received. Review finding: the 3 MB body limit for logos gave a
// 5 MB PDF upload nginx's HTML 413, while documents may be up to 10 MB.
const NGINX = '/usr/sbin/nginx';
const PROXY_CONF = fileURLToPath(new URL('../deploy/nginx/switchboard-proxy.conf', import.meta.url));
const MB = 1024 * 1024;

let dir = '';
let upstream: Server | undefined;
let nginx: ChildProcess | undefined;
let proxyPort = 0;

const portOf = (server: Server) => (server.address() as AddressInfo).port;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = portOf(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** POSTs `size` bytes through nginx: the status and the body of the answer. */
function post(path: string, size: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port: proxyPort, path, method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': size } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    // nginx answers 413 from the length header and may close before the body is all sent.
    sent.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    sent.end(Buffer.alloc(size, 'a'));
  });
}

describe.skipIf(!existsSync(NGINX))('deploy/nginx/switchboard-proxy.conf body limits', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sb-nginx-proxy-'));
    mkdirSync(join(dir, 'tmp'));
    // nginx's workers run as nobody and buffer large bodies under tmp/.
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'tmp'), 0o777);
    upstream = createServer((incoming, answer) => {
      let size = 0;
      incoming.on('data', (chunk: Buffer) => (size += chunk.length));
      incoming.on('end', () => answer.end(`received ${size}`));
    });
    await new Promise<void>((resolve) => upstream?.listen(0, '127.0.0.1', resolve));
    proxyPort = await freePort();
    writeFileSync(
      join(dir, 'nginx.conf'),
      `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  upstream switchboard { server 127.0.0.1:${portOf(upstream)}; }
  server {
    listen 127.0.0.1:${proxyPort};
    location / {
      proxy_pass http://switchboard;
      include ${PROXY_CONF};
    }
  }
}
`,
    );
    nginx = spawn(NGINX, ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const isUp = await post('/health', 1).then(
        (answer) => answer.status === 200,
        () => false,
      );
      if (isUp) break;
      if (Date.now() > deadline) throw new Error('nginx did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 20_000);

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx?.once('exit', resolve));
      nginx.kill('SIGTERM');
      await exited;
    }
    await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes a document upload of up to 10 MB (and its form) to the app', async () => {
    expect(await post('/db/applications/upload', 5 * MB)).toEqual({ status: 200, body: `received ${5 * MB}` });
    const fullDocument = DOCUMENT_MAX_BYTES + 64 * 1024;
    expect(await post('/db/applications/upload?x=1', fullDocument)).toEqual({ status: 200, body: `received ${fullDocument}` });
  });

  it('keeps the 3 MB limit everywhere else, and refuses a body far over 10 MB on the upload route too', async () => {
    expect((await post('/msp/logo', 2 * MB)).status).toBe(200);
    expect((await post('/msp/logo', 5 * MB)).status).toBe(413);
    expect((await post('/db/applications/upload/other', 5 * MB)).status).toBe(413);
    expect((await post('/db/applications/upload', 12 * MB)).status).toBe(413);
  });
});
