import { useState } from 'react';
import type { FormEvent } from 'react';
import { ActionIcon, Alert, Button, Group, Input, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { errorDetail } from '../../../lib/api-client';
import { MODAL_CLOSE_BUTTON_PROPS, READABLE_ERROR_STYLES } from '../../employees/form-styles';
import { cleanAgentForm, validateAgentForm } from '../lib/agent-form-rules';
import type { TAgentFormErrors, TAgentFormValues } from '../lib/agent-form-rules';

/** The Role hint stays a hint when Role is missing: Mantine turns an errored field's placeholder red, read as a second error. */
const HINT_KEEPING_STYLES = { ...READABLE_ERROR_STYLES, input: { '--input-placeholder-color': 'var(--mantine-color-placeholder)' } } as const;

type TAgentFormProps = {
  title: string;
  submitLabel: string;
  initial: TAgentFormValues;
  isSaving: boolean;
  saveError: unknown;
  onSave: (values: TAgentFormValues) => void;
  onClose: () => void;
};

/** 01 §3 "AI agent form": name, role, description and a list of objectives, checked before saving. */
export function AgentForm({ title, submitLabel, initial, isSaving, saveError, onSave, onClose }: TAgentFormProps) {
  const [values, setValues] = useState<TAgentFormValues>(initial.objectives.length > 0 ? initial : { ...initial, objectives: [''] });
  const [errors, setErrors] = useState<TAgentFormErrors>({});

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateAgentForm(values);
    setErrors(found);
    if (Object.keys(found).length === 0) onSave(cleanAgentForm(values));
  }

  const setObjective = (index: number, text: string) => setValues((current) => ({ ...current, objectives: current.objectives.map((objective, at) => (at === index ? text : objective)) }));

  return (
      <form onSubmit={handleSubmit} noValidate aria-label={title}>
        <Stack>
          <TextInput label="Agent name" maxLength={100} value={values.agentName} onChange={(event) => setValues({ ...values, agentName: event.currentTarget.value })} error={errors.agentName} styles={READABLE_ERROR_STYLES} data-autofocus />
          <TextInput label="Role" placeholder="e.g. Microsoft 365 specialist" maxLength={200} value={values.role} onChange={(event) => setValues({ ...values, role: event.currentTarget.value })} error={errors.role} styles={HINT_KEEPING_STYLES} />
          <Textarea label="Description" autosize minRows={2} maxRows={6} maxLength={2000} value={values.description} onChange={(event) => setValues({ ...values, description: event.currentTarget.value })} error={errors.description} styles={READABLE_ERROR_STYLES} />
          <Stack gap={6} role="group" aria-label="Objectives">
            <Input.Label>Objectives</Input.Label>
            {values.objectives.map((objective, index) => (
              <Group key={index} gap="xs" wrap="nowrap">
                <TextInput
                  aria-label={`Objective ${index + 1}`}
                  maxLength={500}
                  value={objective}
                  onChange={(event) => setObjective(index, event.currentTarget.value)}
                  // The list's message goes with its first box, red-bordered like the other fields' (it was loose text under the list).
                  error={index === 0 ? errors.objectives : undefined}
                  styles={READABLE_ERROR_STYLES}
                  style={{ flex: 1 }}
                />
                {values.objectives.length > 1 && (
                  <ActionIcon variant="subtle" color="red" aria-label={`Remove objective ${index + 1}`} onClick={() => setValues({ ...values, objectives: values.objectives.filter((_, at) => at !== index) })}>
                    <span aria-hidden="true">✕</span>
                  </ActionIcon>
                )}
              </Group>
            ))}
            <Button variant="subtle" size="compact-sm" style={{ alignSelf: 'flex-start' }} disabled={values.objectives.length >= 20} onClick={() => setValues({ ...values, objectives: [...values.objectives, ''] })}>
              Add objective
            </Button>
          </Stack>
          {saveError !== null && saveError !== undefined && (
            <Alert color="red" role="alert">
              {errorDetail(saveError)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={isSaving}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
  );
}

/** The agent form in a dialog (the agents screen). */
export function AgentFormModal(props: TAgentFormProps) {
  return (
    <Modal opened onClose={props.onClose} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS} title={props.title} size="lg">
      <AgentForm {...props} />
    </Modal>
  );
}
