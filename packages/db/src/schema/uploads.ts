import { customType, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { msps } from './tenancy';

/** PostgreSQL bytea as a Node Buffer (drizzle has no built-in bytea column). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Uploaded files (MSP logos now; documents later), in the database so every replica serves the
 * same bytes and a backup of PostgreSQL is a backup of everything. `name` is the upload's key within
 * its MSP (a logo's is the MSP's `logo_path`).
 */
export const uploads = pgTable(
  'uploads',
  {
    mspId: uuid('msp_id')
      .notNull()
      .references(() => msps.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mspId, t.name] })],
);
