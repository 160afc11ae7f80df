import { sql } from 'drizzle-orm';
import { foreignKey, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { msps, users } from './tenancy';

/**
 * Teams of technicians on one PSA board (02 §3, §4). On ConnectWise the team is also a board team
 * in the PSA (`psa_team_id`); Autotask has no board teams, so there the team lives only here.
 */
export const teams = pgTable(
  'teams',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    name: text('name').notNull(),
    psaType: text('psa_type', { enum: ['CONNECTWISE', 'AUTOTASK'] }).notNull(),
    boardId: integer('board_id').notNull(),
    boardName: text('board_name').notNull(),
    psaTeamId: integer('psa_team_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mspId, t.id] }), uniqueIndex('teams_msp_board_name_uq').on(t.mspId, t.boardId, sql`lower(${t.name})`)],
);

/** A technician on a team, with the tier they work at on that team (Tier1–Tier3, 02 §3). */
export const teamMembers = pgTable(
  'team_members',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').notNull(),
    userId: uuid('user_id').notNull(),
    tierLevel: text('tier_level', { enum: ['Tier1', 'Tier2', 'Tier3'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.teamId, t.userId] }),
    foreignKey({ name: 'team_members_team_fk', columns: [t.mspId, t.teamId], foreignColumns: [teams.mspId, teams.id] }).onDelete('cascade'),
    foreignKey({ name: 'team_members_user_fk', columns: [t.mspId, t.userId], foreignColumns: [users.mspId, users.id] }).onDelete('cascade'),
  ],
);
