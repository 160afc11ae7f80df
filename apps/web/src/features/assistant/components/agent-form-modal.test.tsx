import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { AgentForm } from './agent-form-modal';

const EMPTY = { agentName: '', role: '', description: '', objectives: [] };

// Regression (visual review s27): the objectives message was loose text under the list, the only field without the
// red border and the only message not tied to its field.
describe('AgentForm errors (R-244)', () => {
  it('ties "At least one objective is required" to the first objective, as the other fields are tied to theirs', { timeout: 20_000 }, async () => {
    const onSave = vi.fn();
    renderWithProviders(<AgentForm title="Create agent" submitLabel="Create agent" initial={EMPTY} isSaving={false} saveError={null} onSave={onSave} onClose={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Create agent' }));
    const name = screen.getByRole('textbox', { name: 'Agent name' });
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription(MESSAGES.agentForm.nameRequired);
    const objective = screen.getByRole('textbox', { name: 'Objective 1' });
    expect(objective).toHaveAttribute('aria-invalid', 'true');
    expect(objective).toHaveAccessibleDescription(MESSAGES.agentForm.objectiveRequired);
    expect(screen.getByText(MESSAGES.agentForm.objectiveRequired)).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
    // A second objective is not marked: the message is said once.
    await userEvent.click(screen.getByRole('button', { name: 'Add objective' }));
    expect(screen.getByRole('textbox', { name: 'Objective 2' })).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText(MESSAGES.agentForm.objectiveRequired)).toHaveLength(1);
  });
});
