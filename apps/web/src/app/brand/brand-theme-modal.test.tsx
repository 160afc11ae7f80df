import { describe, expect, it } from 'vitest';
import { Drawer, Modal } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../lib/render-with-providers';

// Bug (axe sweep s28, WCAG 4.1.2 button-name): the X of the Profile, Create role, New board, Knowledge Base article and
// Diagnostic questions dialogs was a button without a name ("button" to a screen reader). The theme names every one.
describe("dialogs' close button", () => {
  it('is named "Close" in every Modal and Drawer without a word from the dialog', async () => {
    renderWithProviders(
      <>
        <Modal opened onClose={() => undefined} title="New board">
          Body
        </Modal>
        <Drawer opened onClose={() => undefined} title="Filters">
          Body
        </Drawer>
      </>,
    );
    expect(within(await screen.findByRole('dialog', { name: 'New board' })).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(within(screen.getByRole('dialog', { name: 'Filters' })).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('keeps its name when a dialog passes other close-button props, and takes a name the dialog gives', async () => {
    renderWithProviders(
      <>
        <Modal opened onClose={() => undefined} title="Sized" closeButtonProps={{ size: 'sm' }}>
          Body
        </Modal>
        <Modal opened onClose={() => undefined} title="Named" closeButtonProps={{ 'aria-label': 'Close the article' }}>
          Body
        </Modal>
      </>,
    );
    expect(within(await screen.findByRole('dialog', { name: 'Sized' })).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(within(screen.getByRole('dialog', { name: 'Named' })).getByRole('button', { name: 'Close the article' })).toBeInTheDocument();
  });
});
