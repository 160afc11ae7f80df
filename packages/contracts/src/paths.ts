/** Where a technician or client lands after sign-in (issue #2 §3). */
export function mspUserHome(mspCustomDomain: string, userId: string): string {
  return `/${mspCustomDomain}/dashboard/${userId}/tickets`;
}
