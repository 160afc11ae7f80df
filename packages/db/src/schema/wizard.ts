import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { msps } from './tenancy';

/**
 * Where the MSP is in the 6-step setup wizard (01 §2, §4). Kept on the server so a refresh or a
 * second admin sees the same step; one row per MSP, reset to step 1 when the PSA is disconnected.
 */
export const wizardProgress = pgTable('wizard_progress', {
  mspId: uuid('msp_id')
    .primaryKey()
    .references(() => msps.id, { onDelete: 'cascade' }),
  currentStep: integer('current_step').notNull().default(1),
  /** Completed step numbers, ascending. */
  completedSteps: jsonb('completed_steps').$type<number[]>().notNull().default([]),
  /** The board chosen in step 1 (the teams step creates teams on it). */
  boardId: integer('board_id'),
  boardName: text('board_name'),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
