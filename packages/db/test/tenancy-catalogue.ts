import { sql } from 'drizzle-orm';
import type { TBareDatabase } from './test-database';

/**
 * Tables that hold an msp_id but are keyed by something else, and why. Only a table whose msp_id
 * may be null can be listed: a row that always belongs to one MSP is keyed by that MSP first.
 */
export const KEYED_WITHOUT_MSP: Record<string, string> = {
  sessions: 'looked up by the cookie token hash before any tenant is known; account sessions belong to no MSP',
  audit_events: 'events outside any MSP (account sign-ins) have no msp_id; read by MSP through audit_events_msp_idx',
  outbox_mail: 'mail outside any MSP (account sign-up) has no msp_id',
};

/** uuid columns named *_id that deliberately reference nothing, and why. */
export const UNLINKED_ID_COLUMNS: Record<string, string> = {
  'audit_events.msp_id': 'the audit trail outlives what it records, the MSP included',
  'outbox_mail.msp_id': 'a copy of mail already sent outlives the MSP it went to',
};

interface TTenantTable {
  table: string;
  is_not_null: boolean;
}
interface TIndex {
  table: string;
  index: string;
  is_primary: boolean;
  first_column: string | null;
}
interface TForeignKey {
  name: string;
  table: string;
  referenced: string;
  columns: string[];
  referenced_columns: string[];
  on_delete: string;
  set_null_columns: string[] | null;
}
interface TIdColumn {
  table: string;
  column: string;
}

/**
 * Reads the live catalogue (pg_catalog, so hand-written SQL counts as much as the Drizzle schema)
 * and answers every way the public schema breaks the tenancy rules; none when it holds them:
 *  - a table with msp_id leads its primary key and every unique index with msp_id, and its msp_id
 *    references msps(id) on its own;
 *  - a foreign key into a table with msp_id carries msp_id, paired with the referenced msp_id;
 *  - ON DELETE SET NULL/DEFAULT on such a key names its columns and never msp_id;
 *  - every uuid column named *_id is part of a foreign key.
 */
export async function findTenancyProblems(database: TBareDatabase): Promise<string[]> {
  const problems: string[] = [];
  const tenantTables = await database.query<TTenantTable>(sql`
    select c.relname::text as "table", a.attnotnull as is_not_null
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attname = 'msp_id' and not a.attisdropped
    where n.nspname = 'public' and c.relkind in ('r', 'p')
    order by 1`);
  const tenantNames = new Set(tenantTables.map((row) => row.table));

  for (const [table] of Object.entries(KEYED_WITHOUT_MSP)) {
    const found = tenantTables.find((row) => row.table === table);
    if (!found) problems.push(`${table}: listed in KEYED_WITHOUT_MSP but has no msp_id (remove it from the list)`);
    else if (found.is_not_null) problems.push(`${table}: msp_id is NOT NULL, so it must lead the primary key (remove it from KEYED_WITHOUT_MSP)`);
  }

  const indexes = await database.query<TIndex>(sql`
    select t.relname::text as "table", i.relname::text as "index", x.indisprimary as is_primary,
      (select a.attname::text from pg_attribute a where a.attrelid = x.indrelid and a.attnum = x.indkey[0]) as first_column
    from pg_index x
    join pg_class t on t.oid = x.indrelid
    join pg_class i on i.oid = x.indexrelid
    join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = 'public' and x.indisunique
    order by 1, 2`);
  for (const { table } of tenantTables) {
    const tableIndexes = indexes.filter((row) => row.table === table);
    const primary = tableIndexes.find((row) => row.is_primary);
    const isExempt = table in KEYED_WITHOUT_MSP;
    if (!primary) problems.push(`${table}: has msp_id but no primary key`);
    else if (primary.first_column !== 'msp_id' && !isExempt) problems.push(`${table}: primary key ${primary.index} does not lead with msp_id`);
    for (const unique of tableIndexes.filter((row) => !row.is_primary && row.first_column !== 'msp_id')) {
      problems.push(`${table}: unique index ${unique.index} does not lead with msp_id`);
    }
  }

  const foreignKeys = await database.query<TForeignKey>(sql`
    select con.conname::text as name, src.relname::text as "table", dst.relname::text as referenced,
      array(select a.attname::text from unnest(con.conkey) with ordinality k(attnum, ord)
            join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum order by k.ord) as columns,
      array(select a.attname::text from unnest(con.confkey) with ordinality k(attnum, ord)
            join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum order by k.ord) as referenced_columns,
      con.confdeltype::text as on_delete,
      case when con.confdelsetcols is null then null else
        array(select a.attname::text from unnest(con.confdelsetcols) k(attnum)
              join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum) end as set_null_columns
    from pg_constraint con
    join pg_class src on src.oid = con.conrelid
    join pg_class dst on dst.oid = con.confrelid
    join pg_namespace n on n.oid = src.relnamespace
    where con.contype = 'f' and n.nspname = 'public'
    order by 1`);
  for (const { table } of tenantTables) {
    const isTenantLinked = foreignKeys.some((key) => key.table === table && key.referenced === 'msps' && key.columns.join() === 'msp_id');
    if (!isTenantLinked && !(`${table}.msp_id` in UNLINKED_ID_COLUMNS)) problems.push(`${table}: msp_id has no foreign key of its own to msps(id)`);
  }
  for (const key of foreignKeys) {
    if (!tenantNames.has(key.referenced)) continue;
    const position = key.referenced_columns.indexOf('msp_id');
    if (position === -1 || key.columns[position] !== 'msp_id') {
      problems.push(`${key.table}: foreign key ${key.name} into ${key.referenced} (${key.columns.join(', ')}) leaves msp_id out`);
      continue;
    }
    // confdeltype: 'n' SET NULL, 'd' SET DEFAULT. Without a column list they would clear msp_id too.
    if ((key.on_delete === 'n' || key.on_delete === 'd') && (key.set_null_columns === null || key.set_null_columns.includes('msp_id'))) {
      problems.push(`${key.table}: foreign key ${key.name} would clear msp_id on delete (use ON DELETE SET NULL (<row id column>))`);
    }
  }

  const idColumns = await database.query<TIdColumn>(sql`
    select c.relname::text as "table", a.attname::text as "column"
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
      and a.atttypid = 'uuid'::regtype and a.attname like '%\\_id'
    order by 1, 2`);
  const linked = new Set(foreignKeys.flatMap((key) => key.columns.map((column) => `${key.table}.${column}`)));
  for (const { table, column } of idColumns) {
    const name = `${table}.${column}`;
    if (!linked.has(name) && !(name in UNLINKED_ID_COLUMNS)) problems.push(`${name}: a uuid reference column without a foreign key`);
  }
  for (const name of Object.keys(UNLINKED_ID_COLUMNS)) {
    if (linked.has(name) || !idColumns.some((row) => `${row.table}.${row.column}` === name)) problems.push(`${name}: listed in UNLINKED_ID_COLUMNS but is linked or gone (remove it from the list)`);
  }
  return problems;
}
