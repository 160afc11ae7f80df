import { TIER_LEVELS, TIERS } from '@switchboard/contracts';
import type { TTierLevel } from '@switchboard/contracts';

/**
 * Tier names as the spec gives them, on every screen: Tier1, Tier2, Tier3 and NoTier (R-147, R-176, R-187,
 * The queue screens name NoTier "No Dispatching" (R-292; decisions #9). Values are stored as is.
 */
export const TIER_LABELS: Record<TTierLevel, string> = { Tier1: 'Tier1', Tier2: 'Tier2', Tier3: 'Tier3', NoTier: 'NoTier' };
export const QUEUE_TIER_LABELS: Record<TTierLevel, string> = { ...TIER_LABELS, NoTier: 'No Dispatching' };

/** Employees screen: Tier1–Tier3 and NoTier. */
export const EMPLOYEE_TIER_OPTIONS = TIER_LEVELS.map((tier) => ({ value: tier, label: TIER_LABELS[tier] }));
/** Teams, the setup wizard and the board editor: Tier1–Tier3 only. */
export const TEAM_TIER_OPTIONS = TIERS.map((tier) => ({ value: tier, label: TIER_LABELS[tier] }));
/** Queue screens (requeue, edit ticket): Tier1–Tier3 and "No Dispatching". */
export const QUEUE_TIER_OPTIONS = TIER_LEVELS.map((tier) => ({ value: tier, label: QUEUE_TIER_LABELS[tier] }));

export function isTierLevel(value: string | null): value is TTierLevel {
  return value !== null && (TIER_LEVELS as readonly string[]).includes(value);
}

/** A queue ticket's or technician's tier; a technician without one is not dispatched either. */
export function queueTierLabel(tier: TTierLevel | null): string {
  return QUEUE_TIER_LABELS[tier ?? 'NoTier'];
}
