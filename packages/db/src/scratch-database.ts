import pg from 'pg';

/**
 * A fresh, empty database on the PostgreSQL server at `serverUrl`, for one test file or bench run,
 * and how to drop it again. Not part of the app: tests and benches import it from
 * `@switchboard/db/scratch-database`, so the app never loads it.
 */
export async function createScratchDatabase(
  serverUrl: string,
  prefix: string,
  options: { template?: string } = {},
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  // pid, time and a random part: parallel test workers and replicas of a bench never pick the same name.
  const name = `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  // A template is a database this function made (so its name is safe to splice); nobody may be connected to it while it is copied.
  await runOnServer(serverUrl, options.template ? `CREATE DATABASE ${name} TEMPLATE ${options.template}` : `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function runOnServer(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
