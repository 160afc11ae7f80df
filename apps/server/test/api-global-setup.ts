import type { TestProject } from 'vitest/node';
import { openDatabase } from '@switchboard/db';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty database on TEST_DATABASE_URL's server that each test file's database is copied from. */
    postgresTemplate: string | null;
  }
}

/**
 * The API suite's set-up, once per run (vitest.config.ts): on PostgreSQL, migrates one template database, so
 * each test file's scratch database is a copy of it (CREATE DATABASE … TEMPLATE) instead of an empty database
 * migrated again. Dropped when the run ends. On PGlite, test-app.ts keeps a migrated snapshot per worker.
 */
export async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    project.provide('postgresTemplate', null);
    return undefined;
  }
  const { createScratchDatabase } = await import('@switchboard/db/scratch-database');
  const template = await createScratchDatabase(serverUrl, 'sb_template');
  try {
    // Migrated (and pgvector turned on where the server has it) the way the app opens it, then left alone.
    await (await openDatabase({ kind: 'postgres', url: template.url, maxConnections: 1 })).close();
  } catch (error) {
    await template.drop();
    throw error;
  }
  project.provide('postgresTemplate', template.name);
  return () => template.drop();
}
