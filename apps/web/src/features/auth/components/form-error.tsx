import { Alert } from '@mantine/core';

/** One message shown above a form's submit button; renders nothing when there is none. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" role="alert">
      {message}
    </Alert>
  );
}

/** A confirmation shown after a step succeeded (e.g. "Verification Code Resent!"). */
export function FormNotice({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Alert color="teal" variant="light" role="status">
      {message}
    </Alert>
  );
}
