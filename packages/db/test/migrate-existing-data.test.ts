import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openBareDatabase, type TBareDatabase } from './test-database';

/** Migrations committed before 0003_tenant_foreign_keys. */
const BEFORE_TENANT_KEYS = 3;

let database: TBareDatabase;
beforeEach(async () => {
  database = await openBareDatabase();
  await database.migrate(BEFORE_TENANT_KEYS);
});
afterEach(async () => database.close());

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const id = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
const GONE = id(999);

describe('migration 0003 on a database that already holds data (issue #6 §3)', () => {
  it('repairs what the new keys would refuse instead of failing: orphaned roles, cross-tenant PSA row ids, dead sessions and codes', async () => {
    const q = (statement: ReturnType<typeof sql>) => database.query(statement);
    await q(sql`insert into msps (id, custom_domain, name, phone, website_url) values (${A}, 'a', 'A', '1', 'https://a.example'), (${B}, 'b', 'B', '1', 'https://b.example')`);
    // MSP A has Admin and Technician but lost its Client role.
    await q(sql`insert into roles (msp_id, id, name, custom, permissions) values (${A}, ${id(1)}, 'Admin', false, '{}'), (${A}, ${id(2)}, 'Technician', false, '{}')`);
    await q(sql`insert into psa_companies (msp_id, id, psa_type, external_id, name) values (${A}, ${id(10)}, 'CONNECTWISE', '1', 'Own'), (${B}, ${id(11)}, 'CONNECTWISE', '1', 'Foreign')`);
    await q(sql`insert into psa_contacts (msp_id, id, psa_type, external_id, external_company_id, company_row_id, first_name, last_name)
      values (${A}, ${id(20)}, 'CONNECTWISE', '1', '1', ${id(11)}, 'Cross', 'Tenant'), (${A}, ${id(21)}, 'CONNECTWISE', '2', '1', ${id(10)}, 'Own', 'Company')`);
    await q(sql`insert into users (msp_id, id, kind, role_id, first_name, last_name, email, psa_member_row_id, psa_contact_row_id, company_row_id) values
      (${A}, ${id(30)}, 'technician', ${GONE}, 'Lost', 'Role', 'tech@a.example', null, null, null),
      (${A}, ${id(31)}, 'client', ${GONE}, 'Lost', 'Client', 'client@a.example', null, null, null),
      (${A}, ${id(32)}, 'client', ${id(1)}, 'Cross', 'Links', 'links@a.example', ${GONE}, ${id(21)}, ${id(11)})`);
    await q(sql`insert into accounts (id, kind, email, first_name, last_name) values (${id(40)}, 'account', 'acc@example.com', 'Acc', 'Ount')`);
    await q(sql`insert into sessions (token_hash, principal_kind, msp_id, user_id, account_id, expires_at) values
      ('live-user', 'user', ${A}, ${id(32)}, null, now() + interval '1 day'),
      ('live-account', 'account', null, null, ${id(40)}, now() + interval '1 day'),
      ('gone-user', 'user', ${A}, ${GONE}, null, now() + interval '1 day'),
      ('gone-account', 'account', null, null, ${GONE}, now() + interval '1 day'),
      ('no-tenant', 'user', null, ${id(32)}, null, now() + interval '1 day')`);
    await q(sql`insert into verification_codes (id, purpose, msp_id, user_id, code_hash, expires_at) values
      (${id(50)}, 'sign_in', ${A}, ${id(32)}, 'h', now() + interval '1 hour'), (${id(51)}, 'sign_in', ${A}, ${GONE}, 'h', now() + interval '1 hour')`);

    await database.migrate();

    const users = await database.query<{ id: string; role: string; custom: boolean; permissions: Record<string, boolean>; psa_member_row_id: string | null; psa_contact_row_id: string | null; company_row_id: string | null }>(sql`
      select u.id, r.name as role, r.custom, r.permissions, u.psa_member_row_id, u.psa_contact_row_id, u.company_row_id
      from users u join roles r on r.msp_id = u.msp_id and r.id = u.role_id order by u.id`);
    expect(users.map((user) => [user.id, user.role, user.custom])).toEqual([
      [id(30), 'Technician', false],
      [id(31), 'Client', false],
      [id(32), 'Admin', false],
    ]);
    // The restored Client role has the built-in Client permissions: documents only.
    expect(Object.entries(users[1]?.permissions ?? {}).filter(([, isGranted]) => isGranted)).toEqual([['clientDocuments', true]]);
    expect(users[2]).toMatchObject({ psa_member_row_id: null, psa_contact_row_id: id(21), company_row_id: null });
    const contacts = await database.query<{ id: string; company_row_id: string | null }>(sql`select id, company_row_id from psa_contacts order by id`);
    expect(contacts).toEqual([{ id: id(20), company_row_id: null }, { id: id(21), company_row_id: id(10) }]);
    expect((await database.query<{ token_hash: string }>(sql`select token_hash from sessions order by 1`)).map((row) => row.token_hash)).toEqual(['live-account', 'live-user']);
    expect((await database.query<{ id: string }>(sql`select id from verification_codes`)).map((row) => row.id)).toEqual([id(50)]);
    // And the keys now hold: a user cannot point at another MSP's company.
    await expect(q(sql`update users set company_row_id = ${id(11)} where id = ${id(32)}`)).rejects.toMatchObject({ cause: { constraint: 'users_company_fk' } });
  });
});
