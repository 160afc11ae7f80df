import { useState, type FormEvent } from 'react';
import { Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { CORE_MESSAGES } from '@switchboard/contracts';
import { startSignedInSession } from '../../session/api/signed-in-session';
import { returnPathFor } from '../../session/return-path';
import { RETURN_TO_PARAM } from '../../session/session-guards';
import { signInAccount } from '../api/auth-steps-api';
import { FormError } from './form-error';
import './password-input-styles';
import { errorDetail } from '../../../lib/api-client';

/**
 * The general sign-in's password step. Loaded once the email turned out to have a password,
 * so the sign-in page's first load carries no password field (issue #6 §5).
 */
export function AccountPasswordStep({ email, onUseDifferentEmail }: { email: string; onUseDifferentEmail: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const signIn = useMutation({ mutationFn: signInAccount });

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (password === '') {
      setError(CORE_MESSAGES.passwordRequired);
      return;
    }
    setError(null);
    signIn.mutate(
      { emailId: email, password },
      {
        onError: (cause) => setError(errorDetail(cause)),
        onSuccess: ({ user, redirectTo }) => {
          startSignedInSession(queryClient, user);
          // Sent here from a page (a session that ended, a bookmarked dashboard): back to it, else the server's landing.
          void navigate(returnPathFor(user, searchParams.get(RETURN_TO_PARAM)) ?? redirectTo);
        },
      },
    );
  }

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack>
        <Text size="sm">Signing in as {email}</Text>
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          autoFocus
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <FormError message={error} />
        <Button type="submit" loading={signIn.isPending}>
          Sign in
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={onUseDifferentEmail}>
          Use a different email
        </Anchor>
      </Stack>
    </form>
  );
}
