import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { TSessionCheckResponse } from '@switchboard/contracts';
import { sessionKeys } from '../features/session/api/session-queries';
import { buildAdminTechnician } from '../test/build-session-user';
import { renderWithProviders } from './render-with-providers';
import { useDocumentTitle } from './use-document-title';

function Screen({ name }: { name: string }) {
  useDocumentTitle(name);
  return <p>{name}</p>;
}

// Bug (axe sweep s28, WCAG 2.4.2): every signed-in screen left the tab titled "Switchboard".
describe('useDocumentTitle', () => {
  it('titles the tab "<screen> · <MSP name>" from the session the app holds, and puts the title back on leaving', async () => {
    document.title = 'Switchboard';
    const session: TSessionCheckResponse = { authenticated: true, user: buildAdminTechnician({ mspName: 'Northwind IT' }) };
    const view = renderWithProviders(<Screen name="Roles" />, { prepareCache: (queryClient) => queryClient.setQueryData(sessionKeys.current(), session) });
    expect(await screen.findByText('Roles')).toBeInTheDocument();
    expect(document.title).toBe('Roles · Northwind IT');
    view.unmount();
    expect(document.title).toBe('Switchboard');
  });

  it('names the product when no MSP session is held, and asks the server nothing', () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 404 }));
    vi.stubGlobal('fetch', fetchMock);
    try {
      renderWithProviders(<Screen name="Tickets" />);
      expect(document.title).toBe('Tickets · Switchboard');
      expect(fetchMock).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
