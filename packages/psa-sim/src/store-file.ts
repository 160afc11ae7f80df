import { readFileSync, renameSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { SimStore } from './store';
import type { TSimNote } from './store';

// The simulator's data kept in one JSON file, so a PSA that stands in for a real one keeps its tickets, notes, time
// entries, companies, contacts, members, teams and webhooks across restarts as a real PSA does.

/** What a saved file says it is, so another JSON file at the path is not taken for one. */
const STATE_FORMAT = 'switchboard-psa-simulator';
const STATE_VERSION = 1;
/** A Buffer field (attachment bytes) is written as `{ "$base64": "…" }`. */
const BYTES_KEY = '$base64';
/** Changes within this time are written together. */
const DEFAULT_SAVE_DELAY_MS = 250;

// Rows are checked for their id only: the file is the simulator's own output, and what damages it in practice
// (a cut-off write, an edit by hand, another file at the path) fails the JSON parse or this shape.
const ZSavedTable = z.object({ nextId: z.number().int().positive(), rows: z.array(z.looseObject({ id: z.number().int().positive() })) });
const ZSavedStore = z.object({
  format: z.literal(STATE_FORMAT),
  version: z.literal(STATE_VERSION),
  savedAt: z.number(),
  tables: z.record(z.string(), ZSavedTable),
});

function encodeRow(row: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Buffer.isBuffer(value) ? { [BYTES_KEY]: value.toString('base64') } : value]));
}

function decodeRow(row: Record<string, unknown>): { id: number } {
  const decoded = Object.fromEntries(
    Object.entries(row).map(([key, value]) => {
      const bytes = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[BYTES_KEY] : undefined;
      return [key, typeof bytes === 'string' ? Buffer.from(bytes, 'base64') : value];
    }),
  );
  return decoded as { id: number };
}

/** The whole store as the text of a saved file: every table's rows and the id its next insert gets. */
export function serialiseStore(store: SimStore, savedAt: number): string {
  const tables = Object.fromEntries([...store.tablesByName()].map(([name, table]) => [name, { nextId: table.peekNextId(), rows: [...table.all()].map(encodeRow) }]));
  return JSON.stringify({ format: STATE_FORMAT, version: STATE_VERSION, savedAt, tables });
}

/** A store read back from a saved file's text; throws an Error that says in plain words what is wrong with it. */
export function parseStore(text: string, now: () => number = Date.now): SimStore {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('it is not complete JSON (the last save may have been cut off)');
  }
  const parsed = ZSavedStore.safeParse(json);
  if (!parsed.success) {
    const isOtherFile = json === null || typeof json !== 'object' || (json as Record<string, unknown>).format !== STATE_FORMAT;
    throw new Error(isOtherFile ? 'it is not a file the PSA simulator saved' : `it does not have the layout this version of the simulator saves (${parsed.error.issues[0]?.path.join('.') ?? 'file'}: ${parsed.error.issues[0]?.message ?? 'invalid'})`);
  }
  const store = new SimStore(now);
  for (const [name, table] of store.tablesByName()) {
    const saved = parsed.data.tables[name];
    if (!saved) throw new Error(`it has no ${name} table`);
    for (const row of saved.rows) {
      const decoded = decodeRow(row);
      if (name === 'notes') store.putNote(decoded as TSimNote);
      else table.put(decoded);
    }
    table.raiseNextId(saved.nextId);
  }
  return store;
}

export type TLoadedStore = { store: SimStore; problem: null } | { store: null; problem: string | null };

export interface TStoreFile {
  readonly path: string;
  /** The saved store, or none: no file yet (problem null), or a file that cannot be read (moved aside; problem says so). */
  load(now: () => number): TLoadedStore;
  /** Writes this store after each change (changes within a short time together); a store followed before is let go. */
  follow(store: SimStore): void;
  /** Writes the followed store now; resolves when it is on disk (or the failure has been reported). */
  saveNow(): Promise<void>;
  /** Writes what is still waiting and stops following. */
  close(): Promise<void>;
}

function timestampForFileName(time: number): string {
  return new Date(time).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/** Writes a temporary file beside the target and renames it over the target, so a crash leaves the old file or the new one. */
async function writeAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text, 'utf8');
  await rename(temporary, path);
}

/**
 * The simulator's state file at `path`. Problems (a file that cannot be read, a save that fails) go to `onProblem` in
 * plain words; none of them stops the simulator.
 */
export function openStoreFile(path: string, options: { onProblem: (message: string) => void; saveDelayMs?: number }): TStoreFile {
  const saveDelayMs = options.saveDelayMs ?? DEFAULT_SAVE_DELAY_MS;
  let followed: SimStore | null = null;
  let stopFollowing: () => void = () => undefined;
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  function saveNow(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!followed) return writing;
    // The text is taken now, so later changes wait for the next save rather than tearing this one.
    const text = serialiseStore(followed, Date.now());
    writing = writing
      .then(() => writeAtomically(path, text))
      .catch((error: unknown) => options.onProblem(`The PSA simulator could not save its data to ${path}: ${error instanceof Error ? error.message : String(error)}. Changes since the last save are lost if it stops now.`));
    return writing;
  }

  function scheduleSave(): void {
    if (timer) return;
    timer = setTimeout(() => void saveNow(), saveDelayMs);
    // A simulator someone forgot to close does not keep the process alive; close() writes what is waiting.
    timer.unref();
  }

  return {
    path,
    load(now) {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { store: null, problem: null };
        return { store: null, problem: `The PSA simulator could not read its saved data in ${path} (${error instanceof Error ? error.message : String(error)}), so it starts again from the demo data.` };
      }
      try {
        return { store: parseStore(text, now), problem: null };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        // Kept beside it rather than overwritten by the next save, so the data can still be looked at.
        const keptAt = `${path}.unreadable-${timestampForFileName(Date.now())}`;
        try {
          renameSync(path, keptAt);
          return { store: null, problem: `The PSA simulator's saved data in ${path} could not be read: ${reason}. The file was kept as ${keptAt}, and the simulator starts again from the demo data.` };
        } catch {
          return { store: null, problem: `The PSA simulator's saved data in ${path} could not be read: ${reason}. The simulator starts again from the demo data and will save over that file.` };
        }
      }
    },
    follow(store) {
      stopFollowing();
      followed = store;
      stopFollowing = store.onChange(scheduleSave);
    },
    saveNow,
    async close() {
      if (timer) await saveNow();
      stopFollowing();
      stopFollowing = () => undefined;
      followed = null;
      await writing;
    },
  };
}
