import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TActivityKind } from '@switchboard/contracts';
import { apiFetch, buildApiUrl } from '../../../lib/api-client';

export type TActivityParams = {
  page: number;
  userId?: string | undefined;
  kind?: TActivityKind | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** The IANA time zone whose days From and To are (the browser's, as the table's times are). */
  tz?: string | undefined;
};

/** The browser's time zone (e.g. "Europe/Berlin"): the one the log's times are shown in. */
export function browserTimeZone(): string | undefined {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
}

export const activityLogKeys = {
  all: ['activity-log'] as const,
  page: (mspCustomDomain: string, params: TActivityParams) => [...activityLogKeys.all, mspCustomDomain, params] as const,
};

const base = (mspCustomDomain: string) => `/db/${encodeURIComponent(mspCustomDomain)}/activityLog`;

/** One page of the activity log. */
export function useActivityLog(mspCustomDomain: string, params: TActivityParams) {
  return useQuery({
    queryKey: activityLogKeys.page(mspCustomDomain, params),
    queryFn: ({ signal }) => apiFetch(base(mspCustomDomain), { query: params, schema: (s) => s.ZActivityPage, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The CSV export's address for the same filter (a plain download link). */
export function activityCsvUrl(mspCustomDomain: string, params: Omit<TActivityParams, 'page'>): string {
  return buildApiUrl(`${base(mspCustomDomain)}/export.csv`, params);
}
