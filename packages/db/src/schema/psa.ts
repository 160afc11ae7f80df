import { boolean, foreignKey, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { msps } from './tenancy';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/**
 * The MSP's PSA connection. Secrets (keys) are AES-256-GCM encrypted in `secret_ciphertext`
 * and never returned; `key_hint` is what the UI shows.
 */
export const integrations = pgTable('integrations', {
  mspId: uuid('msp_id').primaryKey().references(() => msps.id, { onDelete: 'cascade' }),
  psaType: text('psa_type', { enum: ['CONNECTWISE', 'AUTOTASK'] }).notNull(),
  /** Non-secret settings: ConnectWise companyId + psaUrl + clientId; Autotask username + zone url. */
  settings: jsonb('settings').$type<Record<string, string>>().notNull(),
  secretCiphertext: text('secret_ciphertext').notNull(),
  keyHint: text('key_hint').notNull(),
  connectWiseManageIntegrator: boolean('connect_wise_manage_integrator').notNull().default(false),
  microsoftGraphIntegrator: boolean('microsoft_graph_integrator').notNull().default(false),
  /** Unused since decision 036: A-004's emailIntegrator is whether an email_connectors row exists. */
  emailIntegrator: boolean('email_integrator').notNull().default(false),
  /**
   * The PSA the MSP's copies, queue, board setup and users' PSA links came from (`psaIdentityOf(...).key`, decision
   * 042): set by every key save, left by a disconnect. Keys saved for another PSA start that data over. Null: no data
   * is tied to a PSA yet (rows of earlier releases without a sync run fall back to the keys saved before).
   */
  dataPsaConnection: text('data_psa_connection'),
  ...timestamps,
});

/** Synchronized copies of PSA records, keyed by (msp_id, psa_type, external_id) (DESIGN §5). */
export const psaCompanies = pgTable(
  'psa_companies',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    psaType: text('psa_type', { enum: ['CONNECTWISE', 'AUTOTASK'] }).notNull(),
    externalId: text('external_id').notNull(),
    name: text('name').notNull(),
    identifier: text('identifier'),
    companyTypes: jsonb('company_types').$type<string[]>().notNull().default([]),
    phone: text('phone'),
    website: text('website'),
    city: text('city'),
    state: text('state'),
    isActive: boolean('is_active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    uniqueIndex('psa_companies_ext_uq').on(t.mspId, t.psaType, t.externalId),
    // The Companies view pages by name (01 §2), of the MSP's current PSA, in the list's full order (name, id): the
    // page is read from the index, not sorted from every company of the MSP.
    index('psa_companies_name_idx').on(t.mspId, t.psaType, t.name, t.id),
  ],
);

export const psaContacts = pgTable(
  'psa_contacts',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    psaType: text('psa_type', { enum: ['CONNECTWISE', 'AUTOTASK'] }).notNull(),
    externalId: text('external_id').notNull(),
    externalCompanyId: text('external_company_id').notNull(),
    companyRowId: uuid('company_row_id'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email'),
    phone: text('phone'),
    title: text('title'),
    isActive: boolean('is_active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    uniqueIndex('psa_contacts_ext_uq').on(t.mspId, t.psaType, t.externalId),
    index('psa_contacts_email_idx').on(t.mspId, t.email),
    // The migration narrows this to ON DELETE SET NULL (company_row_id): msp_id is never nulled.
    foreignKey({ name: 'psa_contacts_company_fk', columns: [t.mspId, t.companyRowId], foreignColumns: [psaCompanies.mspId, psaCompanies.id] }).onDelete('set null'),
    // The CompanyEmployees view: one company's contacts, Active/other, by name (01 §2).
    index('psa_contacts_company_idx').on(t.mspId, t.externalCompanyId, t.isActive, t.lastName, t.firstName, t.id),
    // The Contacts view: all contacts of the current PSA, Active/other, in the list's full order (last, first, id):
    // a page deep in the list and the capped count are walks of this index alone (index-only).
    index('psa_contacts_name_idx').on(t.mspId, t.psaType, t.isActive, t.lastName, t.firstName, t.id),
  ],
);

export const psaMembers = pgTable(
  'psa_members',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    psaType: text('psa_type', { enum: ['CONNECTWISE', 'AUTOTASK'] }).notNull(),
    externalId: text('external_id').notNull(),
    identifier: text('identifier'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email'),
    phone: text('phone'),
    title: text('title'),
    isActive: boolean('is_active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    uniqueIndex('psa_members_ext_uq').on(t.mspId, t.psaType, t.externalId),
    index('psa_members_email_idx').on(t.mspId, t.email),
  ],
);
