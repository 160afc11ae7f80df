/**
 * The plain half of the admin lists (issue #8): paging, the activity log's kinds and the integrations catalogue. No
 * zod here, so the screens import it statically; the schemas are in schemas/companies.ts and schemas/activity-log.ts.
 */

/** Server-side paging of the admin lists (01 §2: "pagination"); the employee screen's size of 30 (01 §9). */
export const ADMIN_PAGE_SIZE = 30;
export const ADMIN_PAGE_SIZE_MAX = 100;
/** Contact lists count and page through at most this many matches: past it, the total shows "10,000+" and a search narrows it. */
export const CONTACT_LIST_CAP = 10_000;
export const CONTACT_PAGE_CAP_MESSAGE = 'Only the first 10,000 contacts can be paged through. Search to narrow the list.';
/** "10,000+" when the count stopped at the cap. */
export function formatListTotal(total: number, isTotalCapped: boolean): string {
  return `${total.toLocaleString('en-US')}${isTotalCapped ? '+' : ''}`;
}

/** The kinds the activity log filters by; each is a set of audit actions (see the server's activity-log.repository). */
export const ACTIVITY_KINDS = ['sign-in', 'account', 'role', 'access-refused', 'change'] as const;

/** One card of the integrations catalogue. */
export interface TCatalogueCard {
  category: string;
  name: string;
  available: boolean;
}

/** The integrations catalogue of 02 §3, in the spec's order. */
export const MSP_CATALOGUE: readonly TCatalogueCard[] = [
  { category: 'PSA', name: 'ConnectWise', available: true },
  { category: 'PSA', name: 'Autotask', available: true },
  { category: 'PSA', name: 'Halo', available: false },
  { category: 'PSA', name: 'BMS', available: false },
  { category: 'DOC', name: 'ITGlue', available: false },
  { category: 'DOC', name: 'Liongard', available: false },
  { category: 'RMM', name: 'ConnectWise Automate', available: false },
  { category: 'RMM', name: 'N-able', available: false },
  { category: 'RMM', name: 'N-central', available: false },
  { category: 'RMM', name: 'Datto RMM', available: false },
  { category: 'RMM', name: 'Ninja One', available: false },
  { category: 'RMM', name: 'Kaseya VSA', available: false },
  { category: 'Remote access', name: 'ScreenConnect', available: false },
  // Issue #9 makes these two available (R-237 listed them as not yet): they set up Jarvis's AI model (decision 023).
  { category: 'AI', name: 'OpenAI', available: true },
  { category: 'AI', name: 'Claude', available: true },
  { category: 'NMS', name: 'Auvik', available: false },
  { category: 'RPA', name: 'Rewst', available: false },
];
export const CLIENT_CATALOGUE: readonly TCatalogueCard[] = [
  { category: 'Suite', name: 'Office 365', available: false },
  { category: 'Suite', name: 'Google Workspace', available: false },
];
