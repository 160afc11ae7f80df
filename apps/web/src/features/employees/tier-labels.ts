import { TIER_LEVELS, TIERS } from '@switchboard/contracts';
import type { TTierLevel } from '@switchboard/contracts';

/** Tier options of the Employees screen (R-147: Tier1–Tier3 and NoTier). */
export const TIER_LABELS: Record<TTierLevel, string> = { Tier1: 'Tier 1', Tier2: 'Tier 2', Tier3: 'Tier 3', NoTier: 'No tier' };
export const EMPLOYEE_TIER_OPTIONS = TIER_LEVELS.map((tier) => ({ value: tier, label: TIER_LABELS[tier] }));
/** Team tiers are Tier1–Tier3 only. */
export const TEAM_TIER_OPTIONS = TIERS.map((tier) => ({ value: tier, label: TIER_LABELS[tier] }));

export function isTierLevel(value: string | null): value is TTierLevel {
  return value !== null && (TIER_LEVELS as readonly string[]).includes(value);
}
