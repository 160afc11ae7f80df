import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { resetAllStores } from './store-reset';
import { leaveAfterConfirming, useUnsavedChangesGuard } from './use-unsaved-changes-guard';

/** A screen with one unsaved edit and the guard's question as plain buttons. */
function EditingScreen() {
  const [isEdited, setEdited] = useState(false);
  const guard = useUnsavedChangesGuard(isEdited);
  return (
    <>
      <button type="button" onClick={() => setEdited(true)}>
        Edit
      </button>
      <button type="button" onClick={() => setEdited(false)}>
        Save
      </button>
      {guard.isAsking && (
        <div role="dialog" aria-label="Leave without saving?">
          <button type="button" onClick={guard.stay}>
            Stay
          </button>
          <button type="button" onClick={guard.leave}>
            Leave
          </button>
        </div>
      )}
    </>
  );
}

/** The dashboard's way of switching screens: state, not a route change (the shell's options). */
function Shell() {
  const [screenShown, setScreenShown] = useState<'editing' | 'other'>('editing');
  return (
    <>
      <button type="button" onClick={() => leaveAfterConfirming(() => setScreenShown('other'))}>
        Other screen
      </button>
      {screenShown === 'editing' ? <EditingScreen /> : <p>The other screen</p>}
    </>
  );
}

function renderShell() {
  const router = createMemoryRouter([{ path: '/', element: <Shell /> }], { initialEntries: ['/'] });
  render(<RouterProvider router={router} />);
}

const isUnloadHeld = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe('useUnsavedChangesGuard', () => {
  it('lets a screen switch without a route change through at once when nothing is unsaved', async () => {
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Other screen' }));
    expect(screen.getByText('The other screen')).toBeInTheDocument();
  });

  it('asks before a screen switch without a route change while an edit is unsaved: Stay stays, Leave switches', async () => {
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Edit' }));
    await userEvent.click(screen.getByRole('button', { name: 'Other screen' }));
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Other screen' }));
    await userEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(screen.getByText('The other screen')).toBeInTheDocument();
    // The screen that asked is gone, and so is its guard.
    expect(isUnloadHeld()).toBe(false);
  });

  it('holds the tab open while an edit is unsaved, not after the save, and not once sign-out has cleared the stores', async () => {
    renderShell();
    expect(isUnloadHeld()).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Edit' }));
    expect(isUnloadHeld()).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(isUnloadHeld()).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Edit' }));
    // Sign-out reloads the page on purpose after clearing every store (features/session/api/logout.ts).
    resetAllStores();
    expect(isUnloadHeld()).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Other screen' }));
    expect(screen.getByText('The other screen')).toBeInTheDocument();
  });
});
