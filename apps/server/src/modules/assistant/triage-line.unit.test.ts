import { describe, expect, it } from 'vitest';
import { triageLineOf, withoutTriageLine } from './triage-line';

// Regression (review s29 #3): a client's ticket cards showed the MSP's own triage line ("Impact: Medium (2). Severity:
// Medium (2). Tier: Tier1. SLA: 8 hours."), cut off at 390 px. The PSA keeps it for the technicians; clients do not see it.
describe('the triage line of a ticket made by chat', () => {
  it('is written at the end of the description the PSA gets', () => {
    expect(triageLineOf({ impact: 'Medium', impactScore: 2, severity: 'Medium', severityScore: 2, tier: 'Tier1', slaHours: 8 })).toBe('Impact: Medium (2). Severity: Medium (2). Tier: Tier1. SLA: 8 hours.');
    expect(triageLineOf({ impact: 'Low', impactScore: 1, severity: 'High', severityScore: 3, tier: null, slaHours: null })).toBe('Impact: Low (1). Severity: High (3).');
  });

  it('is taken out of what a client reads, whatever it holds, and the rest is kept as written', () => {
    expect(withoutTriageLine('Printer offline on the 2nd floor.\n\nImpact: Medium (2). Severity: Medium (2). Tier: Tier1. SLA: 8 hours.')).toBe('Printer offline on the 2nd floor.');
    const line = triageLineOf({ impact: 'High', impactScore: 37.5, severity: 'Low', severityScore: 1, tier: 'No Dispatching', slaHours: 0.5 });
    expect(withoutTriageLine(`VPN drops.\r\n\r\nNew employee: Ana Silva, licence E3\r\n\r\n${line}\r\n`)).toBe('VPN drops.\r\n\r\nNew employee: Ana Silva, licence E3');
    expect(withoutTriageLine('Impact: Low (1). Severity: Low (1).')).toBeNull();
  });

  it('leaves a description without one alone, and a mention of impact in the client’s own words', () => {
    expect(withoutTriageLine('The impact: nobody can print.')).toBe('The impact: nobody can print.');
    expect(withoutTriageLine(null)).toBeNull();
  });
});
