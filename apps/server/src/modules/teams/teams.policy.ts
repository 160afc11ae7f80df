/**
 * Only technicians linked to a PSA member can be on a team: the team is dispatched to in
 * the PSA by member id. Answers the numeric PSA member id, or null when there is none.
 */
export function psaMemberNumberOf(user: { psaMemberId: string | null }): number | null {
  if (user.psaMemberId === null || !/^\d{1,10}$/.test(user.psaMemberId)) return null;
  return Number(user.psaMemberId);
}
