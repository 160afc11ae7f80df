/** Technician tiers (01 §3); NoTier is shown as "No Dispatching" in the queue (decisions #9). */
export const TIERS = ['Tier1', 'Tier2', 'Tier3'] as const;
export const TIER_LEVELS = ['Tier1', 'Tier2', 'Tier3', 'NoTier'] as const;
/** An employee's account (decision 019): a password set, an open invitation, or neither (imported from the PSA). */
export const ACCOUNT_STATUSES = ['Active', 'Invited', 'No account'] as const;
export type TAccountStatus = (typeof ACCOUNT_STATUSES)[number];
/** An invitation link works for 72 hours (decision 019). */
export const INVITATION_TTL_HOURS = 72;
export type TTierLevel = (typeof TIER_LEVELS)[number];

export const PSA_TYPES = ['CONNECTWISE', 'AUTOTASK'] as const;
export type TPsaType = (typeof PSA_TYPES)[number];

export const USER_KINDS = ['technician', 'client', 'public'] as const;
export type TUserKind = (typeof USER_KINDS)[number];

export const SESSION_COOKIE = 'sb_session';
/** The SPA's API client sends this header on every call; the server requires it on state changes. */
export const CSRF_HEADER = 'x-switchboard-csrf';
export const SESSION_DAYS = 7;
export const PAGE_SIZE = 30;
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/svg+xml', 'image/webp'] as const;
export const DEFAULT_BRAND_COLOUR = '#e03131';
export const PROGRESS_BAR_COLOUR = '#0b2a5b';

/** The header that carries the bootstrap token on the first `technicianUsers/add`. */
export const BOOTSTRAP_TOKEN_HEADER = 'x-bootstrap-token';
