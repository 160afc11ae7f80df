import { z } from 'zod';
import { TIERS } from '../constants';
import { ZEmail } from './common';

/** Teams (02 §3, §4; 01 §5; ): a named group of technicians on one PSA board. */

export const ZTeamTier = z.enum(TIERS);
export type TTeamTier = z.infer<typeof ZTeamTier>;

export const ZTeamMember = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  tierLevel: ZTeamTier,
  psaMemberId: z.string().nullable(),
  /** The spec's misspelt field name (02 §3), kept for fidelity: the ConnectWise member id. */
  connectWiseTechnicanId: z.string().nullable(),
  /** False for a deactivated technician: they stay on the team (and its PSA team) until removed, shown as inactive. */
  isActive: z.boolean(),
});
export type TTeamMember = z.infer<typeof ZTeamMember>;

export const ZTeam = z.object({
  id: z.string(),
  teamName: z.string(),
  boardId: z.number().int(),
  boardName: z.string(),
  /** The team's id in the PSA; null where the PSA has no teams (Autotask: kept here only). */
  psaTeamId: z.number().int().nullable(),
  members: z.array(ZTeamMember),
});
export type TTeam = z.infer<typeof ZTeam>;

export const ZTeamList = z.object({ teams: z.array(ZTeam) });
export type TTeamList = z.infer<typeof ZTeamList>;
export const ZTeamResponse = z.object({ team: ZTeam });
export type TTeamResponse = z.infer<typeof ZTeamResponse>;

export const ZTeamIdParams = z.object({ teamId: z.uuid() });
export const ZTeamsOfMspQuery = z.object({ mspCustomDomain: z.string().trim().max(63) });

/**
 * A member named by e-mail (the spec removes members by emailId). The tier is optional in the
 * schema so the server can answer a missing one with the spec's own message.
 */
export const ZTeamMemberInput = z.object({ email: ZEmail, tierLevel: ZTeamTier.nullish() });
export type TTeamMemberInput = z.infer<typeof ZTeamMemberInput>;

/** strings are only bounded here; the server words what is missing. */
export const ZCreateTeamBody = z.object({
  mspCustomDomain: z.string().trim().max(63).optional(),
  teamName: z.string().trim().max(30).default(''),
  // A PSA board id: a PostgreSQL integer, so a larger number is a 400, not a database error.
  boardId: z.number().int().positive().max(2_147_483_647).nullish(),
  boardName: z.string().trim().max(200).default(''),
  members: z.array(ZTeamMemberInput).max(200).default([]),
});
export type TCreateTeamBody = z.infer<typeof ZCreateTeamBody>;

/** the members to add (Tier1 when none is given, 02 §4). */
export const ZAddTeamMembersBody = z.array(ZTeamMemberInput).max(200);
export type TAddTeamMembersBody = z.infer<typeof ZAddTeamMembersBody>;

export const ZRemoveTeamMemberQuery = z.object({ emailId: ZEmail });

/** A-063: rename the team and/or set its members' tiers (every listed member needs a tier). */
export const ZUpdateTeamBody = z.object({
  teamName: z.string().trim().max(30).optional(),
  members: z.array(ZTeamMemberInput).max(200).default([]),
});
export type TUpdateTeamBody = z.infer<typeof ZUpdateTeamBody>;
