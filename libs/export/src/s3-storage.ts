/**
 * Export files in an S3-compatible bucket (EXPORT_S3_BUCKET set; docs/export.md), through the
 * plain S3 REST API signed with SigV4 (aws4fetch; path-style URLs, so any S3-compatible server
 * works). A file is written to a local temporary file first and uploaded with one PutObject when
 * complete (the same "never half a file" rule as the folder storage); reads are GetObject with
 * Range; a job's folder is removed with ListObjectsV2 + DeleteObject. Tested against moto's server
 * (infra/bin/s3-env).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { AwsClient } from 'aws4fetch';
import type { ExportStorage } from './storage-interface';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Key prefix inside the bucket (e.g. the database name). */
  prefix: string;
}

export function s3Storage(s: S3Settings): ExportStorage {
  const aws = new AwsClient({ accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey, region: s.region, service: 's3' });
  const base = `${s.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(s.bucket)}`;
  const objectKey = (key: string) => (s.prefix ? `${s.prefix}/${key}` : key);
  const urlOf = (key: string) => `${base}/${objectKey(key).split('/').map(encodeURIComponent).join('/')}`;
  const ok = async (res: Response, what: string) => {
    if (!res.ok) throw new Error(`S3 ${what}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    return res;
  };
  return {
    async create(key) {
      const dir = await mkdtemp(join(tmpdir(), 'vitalis-export-'));
      const local = join(dir, 'part');
      const stream = createWriteStream(local);
      const closed = () =>
        new Promise<void>((done, fail) => {
          if (stream.closed) return done();
          stream.once('error', fail);
          stream.end(() => done());
        });
      return {
        stream,
        commit: async () => {
          await closed();
          const size = (await stat(local)).size;
          await ok(
            await aws.fetch(urlOf(key), {
              method: 'PUT',
              body: Readable.toWeb(createReadStream(local)) as unknown as BodyInit,
              headers: {
                'content-length': String(size),
                'content-type': 'application/fhir+ndjson',
                'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
              },
              duplex: 'half',
            } as RequestInit),
            `PUT ${key}`,
          );
          await rm(dir, { recursive: true, force: true });
        },
        discard: async () => {
          stream.destroy();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
    async size(key) {
      const res = await aws.fetch(urlOf(key), { method: 'HEAD' });
      if (res.status === 404) return undefined;
      await ok(res, `HEAD ${key}`);
      return Number(res.headers.get('content-length'));
    },
    read(key, range) {
      const out = new PassThrough();
      void (async () => {
        const res = await ok(
          await aws.fetch(urlOf(key), { headers: range ? { range: `bytes=${range.start}-${range.end}` } : {} }),
          `GET ${key}`,
        );
        if (!res.body) throw new Error(`GET ${key} answered ${res.status} without a body`);
        Readable.fromWeb(res.body as never).pipe(out);
      })().catch((err: Error) => out.destroy(err));
      return out;
    },
    async removeAll(prefix) {
      for (;;) {
        const list = await ok(
          await aws.fetch(`${base}?list-type=2&prefix=${encodeURIComponent(`${objectKey(prefix)}/`)}`),
          `LIST ${prefix}`,
        );
        const keys = [...(await list.text()).matchAll(/<Key>([^<]+)<\/Key>/g)].map(([, key = '']) => key.replace(/&amp;/g, '&'));
        if (keys.length === 0) return;
        for (const k of keys)
          await ok(await aws.fetch(`${base}/${k.split('/').map(encodeURIComponent).join('/')}`, { method: 'DELETE' }), `DELETE ${k}`);
      }
    },
  };
}
