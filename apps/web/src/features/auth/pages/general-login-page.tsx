import { useState, type FormEvent } from 'react';
import { Anchor, Button, Divider, Group, List, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { MESSAGES } from '@switchboard/contracts';
import type { TMspSignInPage } from '@switchboard/contracts';
import { setSignedInUser } from '../../session/api/session-queries';
import { lookupAccount, oidcStartUrl, signInAccount } from '../api/auth-api';
import { useOidcProviders } from '../api/auth-queries';
import { AuthLayout } from '../components/auth-layout';
import { EmailStepForm, useEmailStep } from '../components/email-step';
import { FormError } from '../components/form-error';
import { errorMessage, mspSignInPagesOf } from '../lib/error-message';
import { noticeState } from '../lib/flow-notice';

const KIND_WORD = { technician: 'technician', client: 'client' } as const;

/** Links to the MSP login pages an email of technicians or clients belongs on, each opening on the right side. */
function MspSignInPageLinks({ pages }: { pages: TMspSignInPage[] }) {
  if (pages.length === 0) return null;
  return (
    <List spacing={4} size="sm" aria-label="Service provider sign-in pages">
      {pages.map((page) => (
        <List.Item key={`${page.mspCustomDomain}-${page.userKind}`}>
          <Anchor
            component={Link}
            to={`/${page.mspCustomDomain}`}
            state={noticeState(`Sign in as a ${KIND_WORD[page.userKind]} of ${page.mspName}.`, page.userKind === 'technician' ? 'tech' : 'client')}
          >
            {page.mspName} — {KIND_WORD[page.userKind]} sign-in (/{page.mspCustomDomain})
          </Anchor>
        </List.Item>
      ))}
    </List>
  );
}

/** `/auth/login`: general accounts by email and password, or a provider. */
export function GeneralLoginPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const providers = useOidcProviders();
  const [step, setStep] = useState<'email' | 'password'>('email');
  const [password, setPassword] = useState('');
  const [mspPages, setMspPages] = useState<TMspSignInPage[]>([]);
  const signIn = useMutation({ mutationFn: signInAccount });
  const emailStep = useEmailStep({
    initialError: searchParams.get('error') === null ? null : MESSAGES.microsoftLoginError,
    lookup: (emailId: string) => {
      setMspPages([]);
      return lookupAccount(emailId);
    },
    onFound: (account) => {
      if (!account.hasPassword) emailStep.setError(MESSAGES.providerAccount);
      else setStep('password');
    },
    // A technician's or client's email is told which MSP page to use (issue #6 §6).
    onFailed: (cause) => {
      emailStep.setError(errorMessage(cause));
      setMspPages(mspSignInPagesOf(cause));
    },
  });
  const { email, error, setError } = emailStep;

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
        <EmailStepForm step={emailStep} submitLabel="Continue">
          <MspSignInPageLinks pages={mspPages} />
        </EmailStepForm>
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
