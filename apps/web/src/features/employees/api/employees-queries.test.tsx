import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { teamsKeys } from '../../teams/api/teams-queries';
import { useDeleteEmployee, useRestoreEmployee } from './employees-queries';

const DOMAIN = 'northwind';

function renderWithCachedTeams<T>(hook: () => T) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  queryClient.setQueryData(teamsKeys.list(DOMAIN), []);
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return { queryClient, ...renderHook(hook, { wrapper }) };
}

afterEach(() => vi.unstubAllGlobals());

// Regression (s26 screenshots): after deleting an employee, the Teams screen (opened from the menu, no reload) still showed
// them as an ordinary member: the teams list kept its cached copy, without the member's new state.
describe('changing an employee refreshes the teams they are in', () => {
  it.each([
    ['deleting', () => useDeleteEmployee(DOMAIN), 'u1'],
    ['restoring', () => useRestoreEmployee(DOMAIN), 'u1'],
  ] as const)('%s one marks the cached teams list stale', async (_what, hook, input) => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ message: 'ok' }), { status: 200, headers: { 'content-type': 'application/json' } })));
    const { queryClient, result } = renderWithCachedTeams(hook);
    expect(queryClient.getQueryState(teamsKeys.list(DOMAIN))?.isInvalidated).toBe(false);
    await act(async () => {
      await result.current.mutateAsync(input as never).catch(() => undefined);
    });
    expect(queryClient.getQueryState(teamsKeys.list(DOMAIN))?.isInvalidated).toBe(true);
  });
});
