import { useState, type FormEvent } from 'react';
import { Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { CORE_MESSAGES } from '@switchboard/contracts';
import { setSignedInUser } from '../../session/api/session-queries';
import { signInAccount } from '../api/auth-api';
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
          setSignedInUser(queryClient, user);
          void navigate(redirectTo);
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
