import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { TPermissionMap } from '@switchboard/contracts';
import { psaCompanies, psaContacts, psaMembers } from './psa';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** The tenant. `custom_domain` is the MSP's public identifier (spec: mspCustomDomain). */
export const msps = pgTable('msps', {
  id: uuid('id').primaryKey().defaultRandom(),
  customDomain: text('custom_domain').notNull().unique(),
  name: text('name').notNull(),
  phone: text('phone').notNull(),
  websiteUrl: text('website_url').notNull(),
  logoPath: text('logo_path'),
  logoMime: text('logo_mime'),
  primaryColour: text('primary_colour').notNull().default('#e03131'),
  primaryButtonColour: text('primary_button_colour').notNull().default('#e03131'),
  secondaryButtonColour: text('secondary_button_colour').notNull().default('#e03131'),
  /** decisions #6: one-time token that authorises creating the first technician. */
  bootstrapTokenHash: text('bootstrap_token_hash'),
  bootstrapExpiresAt: timestamp('bootstrap_expires_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** The key that keeps a held role from being deleted; services map its violation to plain words. */
export const USERS_ROLE_FOREIGN_KEY = 'users_role_fk';

/** Roles are per MSP; built-in ones (Admin, Technician, Client) have custom = false. */
export const roles = pgTable(
  'roles',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    name: text('name').notNull(),
    custom: boolean('custom').notNull().default(true),
    permissions: jsonb('permissions').$type<TPermissionMap>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.mspId, t.id] }), uniqueIndex('roles_msp_name_uq').on(t.mspId, sql`lower(${t.name})`)],
);

/**
 * Technician and client users of an MSP. One table because sign-in, 2FA, reset and sessions are
 * the same for both; `kind` keeps the spec's two endpoint families apart.
 *
 * Every reference out of this table carries msp_id (a user can only point at its own MSP's rows).
 * A held role cannot be deleted (RESTRICT). A PSA copy that goes away only clears the row id: the
 * migration narrows those three to `ON DELETE SET NULL (<row id>)` (PostgreSQL 15), because a plain
 * SET NULL would null msp_id too — drizzle-kit cannot express the column list.
 */
export const users = pgTable(
  'users',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    kind: text('kind', { enum: ['technician', 'client'] }).notNull(),
    roleId: uuid('role_id').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    /** Null for accounts created through a provider sign-in. */
    passwordHash: text('password_hash'),
    tierLevel: text('tier_level', { enum: ['Tier1', 'Tier2', 'Tier3', 'NoTier'] }),
    psaMemberId: text('psa_member_id'),
    psaMemberRowId: uuid('psa_member_row_id'),
    psaContactId: text('psa_contact_id'),
    psaContactRowId: uuid('psa_contact_row_id'),
    psaCompanyId: text('psa_company_id'),
    companyRowId: uuid('company_row_id'),
    isActive: boolean('is_active').notNull().default(true),
    /** Encrypted TOTP secret when the user enrolled an authenticator app (decisions #16). */
    totpSecret: text('totp_secret'),
    /** Encrypted secret of an authenticator app being set up: it replaces `totpSecret` only once confirmed with a code (review s27 #2). */
    totpPendingSecret: text('totp_pending_secret'),
    /** Start (epoch seconds) of the last accepted authenticator time step: a code is never accepted twice (RFC 6238 §5.2). */
    totpLastStepEpoch: integer('totp_last_step_epoch'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    uniqueIndex('users_msp_kind_email_uq').on(t.mspId, t.kind, sql`lower(${t.email})`),
    index('users_email_idx').on(sql`lower(${t.email})`),
    foreignKey({ name: USERS_ROLE_FOREIGN_KEY, columns: [t.mspId, t.roleId], foreignColumns: [roles.mspId, roles.id] }).onDelete('restrict'),
    foreignKey({ name: 'users_psa_member_fk', columns: [t.mspId, t.psaMemberRowId], foreignColumns: [psaMembers.mspId, psaMembers.id] }).onDelete('set null'),
    foreignKey({ name: 'users_psa_contact_fk', columns: [t.mspId, t.psaContactRowId], foreignColumns: [psaContacts.mspId, psaContacts.id] }).onDelete('set null'),
    foreignKey({ name: 'users_company_fk', columns: [t.mspId, t.companyRowId], foreignColumns: [psaCompanies.mspId, psaCompanies.id] }).onDelete('set null'),
    index('users_role_idx').on(t.mspId, t.roleId),
  ],
);

/**
 * General accounts outside any MSP: the /auth/signup form, provider (Google/Microsoft) sign-ins and
 * public users (/public/signup).
 */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['account', 'public'] }).notNull(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone').notNull().default(''),
    companyId: text('company_id'),
    companyName: text('company_name'),
    companyAddress: jsonb('company_address').$type<{ street: string; city: string; state: string; zipcode: string }>(),
    passwordHash: text('password_hash'),
    provider: text('provider', { enum: ['google', 'microsoft'] }),
    providerSubject: text('provider_subject'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('accounts_kind_email_uq').on(t.kind, sql`lower(${t.email})`)],
);
