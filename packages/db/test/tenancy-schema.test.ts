import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { findTenancyProblems } from './tenancy-catalogue';
import { openBareDatabase, type TBareDatabase } from './test-database';

let database: TBareDatabase;
beforeEach(async () => {
  database = await openBareDatabase();
  await database.migrate();
});
afterEach(async () => database.close());

describe('tenancy in the schema (issue #6 §3), read from the migrated catalogue', () => {
  it('every tenant table leads its keys with msp_id, and every reference into one carries msp_id', async () => {
    expect(await findTenancyProblems(database)).toEqual([]);
  });

  it('names each break of a deliberately broken table, so the check above can fail', async () => {
    await database.query(sql`create table broken_things (
      id uuid primary key,
      msp_id uuid not null,
      email text not null,
      member_row_id uuid,
      company_row_id uuid,
      loose_row_id uuid
    )`);
    await database.query(sql`create unique index broken_things_email_uq on broken_things (email)`);
    // A key into a tenant table by id alone needs a unique id there first: exactly the shortcut the rule forbids.
    await database.query(sql`alter table psa_members add constraint psa_members_id_uq unique (id)`);
    await database.query(sql`alter table broken_things add constraint broken_things_member_fk foreign key (member_row_id) references psa_members(id)`);
    await database.query(sql`alter table broken_things add constraint broken_things_company_fk foreign key (msp_id, company_row_id) references psa_companies(msp_id, id) on delete set null`);
    expect(await findTenancyProblems(database)).toEqual([
      'broken_things: primary key broken_things_pkey does not lead with msp_id',
      'broken_things: unique index broken_things_email_uq does not lead with msp_id',
      'psa_members: unique index psa_members_id_uq does not lead with msp_id',
      'broken_things: msp_id has no foreign key of its own to msps(id)',
      'broken_things: foreign key broken_things_company_fk would clear msp_id on delete (use ON DELETE SET NULL (<row id column>))',
      'broken_things: foreign key broken_things_member_fk into psa_members (member_row_id) leaves msp_id out',
      'broken_things.loose_row_id: a uuid reference column without a foreign key',
    ]);
  });
});
