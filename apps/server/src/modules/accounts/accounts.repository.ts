import { and, asc, eq, sql } from 'drizzle-orm';
import { accounts, type TDatabase } from '@switchboard/db';

export type TAccountRow = typeof accounts.$inferSelect;
export type TNewAccount = typeof accounts.$inferInsert;
export type TAccountKind = TAccountRow['kind'];

const sameEmail = (email: string) => sql`lower(${accounts.email}) = ${email.trim().toLowerCase()}`;

/** Every account (general first, then public) registered with this email. */
export async function findAccountsByEmail(db: TDatabase, email: string): Promise<TAccountRow[]> {
  return db.select().from(accounts).where(sameEmail(email)).orderBy(asc(accounts.kind));
}

/** The account of one kind with this email (emails are unique per kind). */
export async function findAccountByEmail(db: TDatabase, kind: TAccountKind, email: string): Promise<TAccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(and(eq(accounts.kind, kind), sameEmail(email))).limit(1);
  return row;
}

/** The general account created by this provider identity. */
export async function findAccountByProviderSubject(db: TDatabase, provider: 'google' | 'microsoft', subject: string): Promise<TAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.kind, 'account'), eq(accounts.provider, provider), eq(accounts.providerSubject, subject)))
    .limit(1);
  return row;
}

/** Inserts an account; undefined when the email is already taken for that kind (unique index). */
export async function insertAccount(db: TDatabase, values: TNewAccount): Promise<TAccountRow | undefined> {
  const [row] = await db.insert(accounts).values({ ...values, email: values.email.trim().toLowerCase() }).onConflictDoNothing().returning();
  return row;
}
