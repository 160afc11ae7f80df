import { useState, type FormEvent } from 'react';
import { Anchor, Button, Divider, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { MESSAGES, isValidEmail } from '@switchboard/contracts';
import { setSignedInUser } from '../../session/api/session-queries';
import { lookupAccount, oidcStartUrl, signInAccount } from '../api/auth-api';
import { useOidcProviders } from '../api/auth-queries';
import { AuthLayout } from '../components/auth-layout';
import { FormError } from '../components/form-error';
import { errorMessage } from '../lib/error-message';
import { EmailField } from '../components/email-field';

/** `/auth/login`: general accounts by email and password, or a provider. */
export function GeneralLoginPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const providers = useOidcProviders();
  const [step, setStep] = useState<'email' | 'password'>('email');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(
    searchParams.get('error') === null ? null : MESSAGES.microsoftLoginError,
  );

  const lookup = useMutation({ mutationFn: lookupAccount });
  const signIn = useMutation({ mutationFn: signInAccount });

  function handleEmailSubmit(event: FormEvent) {
    event.preventDefault();
    const emailId = email.trim();
    if (!isValidEmail(emailId)) {
      setError(MESSAGES.validEmailRequired);
      return;
    }
    setError(null);
    lookup.mutate(emailId, {
      onError: (cause) => setError(errorMessage(cause)),
      onSuccess: (account) => {
        if (!account.hasPassword) setError(MESSAGES.providerAccount);
        else setStep('password');
      },
    });
  }

  function handlePasswordSubmit(event: FormEvent) {
    event.preventDefault();
    if (password === '') {
      setError(MESSAGES.passwordRequired);
      return;
    }
    setError(null);
    signIn.mutate(
      { emailId: email.trim(), password },
      {
        onError: (cause) => setError(errorMessage(cause)),
        onSuccess: ({ user, redirectTo }) => {
          setSignedInUser(queryClient, user);
          void navigate(redirectTo);
        },
      },
    );
  }

  return (
    <AuthLayout title="Sign in">
      {step === 'email' ? (
        <form onSubmit={handleEmailSubmit} noValidate>
          <Stack>
            <EmailField value={email} onChange={setEmail} />
            <FormError message={error} />
            <Button type="submit" loading={lookup.isPending}>
              Continue
            </Button>
          </Stack>
        </form>
      ) : (
        <form onSubmit={handlePasswordSubmit} noValidate>
          <Stack>
            <Text size="sm">Signing in as {email.trim()}</Text>
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
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => {
                setError(null);
                setStep('email');
              }}
            >
              Use a different email
            </Anchor>
          </Stack>
        </form>
      )}
      {providers.data && (providers.data.microsoft || providers.data.google) ? (
        <Stack gap="xs">
          <Divider label="or" labelPosition="center" />
          {providers.data.microsoft ? (
            <Button component="a" href={oidcStartUrl('microsoft')} variant="default">
              Sign in with Microsoft
            </Button>
          ) : null}
          {providers.data.google ? (
            <Button component="a" href={oidcStartUrl('google')} variant="default">
              Sign in with Google
            </Button>
          ) : null}
        </Stack>
      ) : null}
      <Divider />
      <Stack gap={4}>
        <Group justify="space-between">
          <Anchor component={Link} to="/auth/login/tech" size="sm">
            Technician sign in
          </Anchor>
          <Anchor component={Link} to="/auth/login/client" size="sm">
            Client sign in
          </Anchor>
        </Group>
        <Group justify="space-between">
          <Anchor component={Link} to="/auth/signup" size="sm">
            Create an account
          </Anchor>
          <Anchor component={Link} to="/msp/signup" size="sm">
            Sign up your MSP
          </Anchor>
        </Group>
      </Stack>
    </AuthLayout>
  );
}
