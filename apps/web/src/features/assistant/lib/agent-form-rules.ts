import { MESSAGES } from '@switchboard/contracts';

/** 01 §5 "AI agent form": checked before saving, shown as form errors. */
export const AGENT_FORM_MESSAGES = {
  agentName: MESSAGES.agentForm.nameRequired,
  role: MESSAGES.agentForm.roleRequired,
  description: MESSAGES.agentForm.descriptionRequired,
  objectives: MESSAGES.agentForm.objectiveRequired,
} as const;

export type TAgentFormValues = { agentName: string; role: string; description: string; objectives: string[] };
export type TAgentFormErrors = Partial<Record<keyof TAgentFormValues, string>>;

export function validateAgentForm(values: TAgentFormValues): TAgentFormErrors {
  const errors: TAgentFormErrors = {};
  if (values.agentName.trim() === '') errors.agentName = AGENT_FORM_MESSAGES.agentName;
  if (values.role.trim() === '') errors.role = AGENT_FORM_MESSAGES.role;
  if (values.description.trim() === '') errors.description = AGENT_FORM_MESSAGES.description;
  if (!values.objectives.some((objective) => objective.trim() !== '')) errors.objectives = AGENT_FORM_MESSAGES.objectives;
  return errors;
}

/** The values sent: trimmed, blank objectives dropped. */
export function cleanAgentForm(values: TAgentFormValues): TAgentFormValues {
  return {
    agentName: values.agentName.trim(),
    role: values.role.trim(),
    description: values.description.trim(),
    objectives: values.objectives.map((objective) => objective.trim()).filter((objective) => objective !== ''),
  };
}
