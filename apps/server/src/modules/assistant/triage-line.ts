/** What a ticket made by chat tells the MSP about its triage: impact, severity, and the tier and SLA its subtype gave. */
export interface TTriage {
  impact: string;
  impactScore: number;
  severity: string;
  severityScore: number;
  tier: string | null;
  slaHours: number | null;
}

/** The line the PSA's description ends with, for the technicians: "Impact: Medium (2). Severity: Medium (2). Tier: Tier1. SLA: 8 hours." */
export function triageLineOf(triage: TTriage): string {
  const tier = triage.tier === null ? '' : ` Tier: ${triage.tier}.`;
  const sla = triage.slaHours === null ? '' : ` SLA: ${triage.slaHours} hours.`;
  return `Impact: ${triage.impact} (${triage.impactScore}). Severity: ${triage.severity} (${triage.severityScore}).${tier}${sla}`;
}

/** triageLineOf's line on a line of its own, with the blank lines before it. */
const TRIAGE_LINE = /(?:\r?\n)*^Impact: [^\r\n()]+ \(\d+(?:\.\d+)?\)\. Severity: [^\r\n()]+ \(\d+(?:\.\d+)?\)\.(?: Tier: [^\r\n.]+\.)?(?: SLA: \d+(?:\.\d+)? hours\.)?[ \t]*$/gm;

/**
 * A description as a client reads it: without the triage line, which is the MSP's own business (review s29 #3); null
 * when nothing else is left.
 */
export function withoutTriageLine(description: string | null): string | null {
  if (description === null) return null;
  const rest = description.replace(TRIAGE_LINE, '').trimEnd();
  return rest === '' ? null : rest;
}
