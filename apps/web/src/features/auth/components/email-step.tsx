import { useState, type FormEvent, type ReactNode } from 'react';
import { Button, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { CORE_MESSAGES, isValidEmail } from '@switchboard/contracts';
import { EmailField } from './email-field';
import { FormError } from './form-error';
import { errorDetail } from '../../../lib/api-client';

type TEmailStepOptions<TResult> = {
  initialEmail?: string;
  initialError?: string | null;
  /** The server call the trimmed, valid email goes to. */
  lookup: (emailId: string) => Promise<TResult>;
  onFound: (result: TResult, emailId: string) => void;
  /** A failed call; by default its message shows under the field. */
  onFailed?: (cause: unknown) => void;
};

/**
 * The email step every sign-in, activation and reset flow starts with: trim, refuse an invalid
 * address with "A valid email is required." without calling the server, call it, and show the
 * server's answer. One handler for the four flows (issue #6 §7).
 */
export function useEmailStep<TResult>({ initialEmail = '', initialError = null, lookup, onFound, onFailed }: TEmailStepOptions<TResult>) {
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | null>(initialError);
  const mutation = useMutation({ mutationFn: lookup });

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const emailId = email.trim();
    if (!isValidEmail(emailId)) {
      setError(CORE_MESSAGES.validEmailRequired);
      return;
    }
    setError(null);
    mutation.mutate(emailId, {
      onError: (cause) => (onFailed ? onFailed(cause) : setError(errorDetail(cause))),
      onSuccess: (result) => onFound(result, emailId),
    });
  }

  return { email, setEmail, error, setError, isPending: mutation.isPending, handleSubmit };
}

export type TEmailStep = ReturnType<typeof useEmailStep>;

type TEmailStepFormProps = {
  step: Pick<TEmailStep, 'email' | 'setEmail' | 'error' | 'isPending' | 'handleSubmit'>;
  submitLabel: string;
  buttonColour?: string;
  /** Shown under the error, e.g. the MSP pages the general sign-in points to. */
  children?: ReactNode;
};

/** The email field, its error and the submit button of an email step. */
export function EmailStepForm({ step, submitLabel, buttonColour, children }: TEmailStepFormProps) {
  return (
    <form onSubmit={step.handleSubmit} noValidate>
      <Stack>
        <EmailField value={step.email} onChange={step.setEmail} />
        <FormError message={step.error} />
        {children}
        <Button type="submit" loading={step.isPending} color={buttonColour}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
