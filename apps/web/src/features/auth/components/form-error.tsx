import { Alert } from '@mantine/core';

/** One message shown above a form's submit button; renders nothing when there is none. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    // pre-wrap keeps the spec's double spaces visible ("Account does not exists.  Please sign up.").
    <Alert color="red" variant="light" role="alert" style={{ whiteSpace: 'pre-wrap' }}>
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
