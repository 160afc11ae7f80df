import { describe, expect, it } from 'vitest';
import { EMPLOYEE_TIER_OPTIONS, QUEUE_TIER_OPTIONS, TEAM_TIER_OPTIONS, queueTierLabel } from './tier-labels';

describe('tier labels', () => {
  it('names the tiers as the spec does on every screen (the admin screens said "Tier 1" and "No tier", the queue "Tier1")', () => {
    expect(EMPLOYEE_TIER_OPTIONS).toEqual([
      { value: 'Tier1', label: 'Tier1' },
      { value: 'Tier2', label: 'Tier2' },
      { value: 'Tier3', label: 'Tier3' },
      { value: 'NoTier', label: 'NoTier' },
    ]);
    expect(TEAM_TIER_OPTIONS.map((option) => option.label)).toEqual(['Tier1', 'Tier2', 'Tier3']);
  });

  it('calls NoTier "No Dispatching" in the queue, and a technician with no tier too (decisions #9)', () => {
    expect(QUEUE_TIER_OPTIONS.map((option) => option.label)).toEqual(['Tier1', 'Tier2', 'Tier3', 'No Dispatching']);
    expect(queueTierLabel('Tier2')).toBe('Tier2');
    expect(queueTierLabel('NoTier')).toBe('No Dispatching');
    expect(queueTierLabel(null)).toBe('No Dispatching');
  });
});
