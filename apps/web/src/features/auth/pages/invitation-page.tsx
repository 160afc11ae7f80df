import { useState, type FormEvent } from 'react';
import { Alert, Button, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { MESSAGES } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { acceptInvitation, readInvitation } from '../api/auth-steps-api';
import { FormError } from '../components/form-error';
import { MspAuthFrame } from '../components/msp-auth-frame';
import { PasswordRuleList } from '../components/password-rule-list';
import { noticeState } from '../lib/flow-notice';
import { newPasswordProblem } from '../lib/new-password-rules';
import '../components/password-input-styles';

/** `/{msp}/invitation?token=…` (decision 019): an invited technician sets a password, then signs in at `/{msp}`. */
export function InvitationPage() {
  const { msp = '' } = useParams();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const invitation = useQuery({ queryKey: ['invitation', msp, token], queryFn: () => readInvitation(msp, token), retry: false, staleTime: Infinity });

  return (
    <MspAuthFrame customDomain={msp} title={() => 'Set your password'}>
      {() => (
        <>
          {invitation.isPending && <Loader aria-label="Checking your invitation" />}
          {invitation.isError && (
            <Alert color="red" role="alert">
              {errorDetail(invitation.error)}
            </Alert>
          )}
          {invitation.data && <InvitationForm msp={msp} token={token} email={invitation.data.email} greeting={`${invitation.data.mspName} invited you, ${invitation.data.firstName}.`} />}
        </>
      )}
    </MspAuthFrame>
  );
}

function InvitationForm({ msp, token, email, greeting }: { msp: string; token: string; email: string; greeting: string }) {
  const navigate = useNavigate();
  const [newPassword, setNewPassword] = useState('');
  const [verifyPassword, setVerifyPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const accept = useMutation({ mutationFn: () => acceptInvitation(msp, { token, password: newPassword }) });

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    // R-058's wording for a blank password: R-106's reused email message belongs to the reset flow only (review s27 #6).
    const problem = newPassword === '' || verifyPassword === '' ? MESSAGES.passwordRequired : newPasswordProblem(newPassword, verifyPassword);
    setError(problem);
    if (problem !== null) return;
    accept.mutate(undefined, {
      onSuccess: () => void navigate(`/${msp}`, { state: noticeState(MESSAGES.invitations.accepted, 'tech') }),
      onError: (cause) => setError(errorDetail(cause)),
    });
  }

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack>
        <Text size="sm">{greeting}</Text>
        <TextInput label="Email" value={email} readOnly autoComplete="username" />
        <PasswordInput label="New password" autoComplete="new-password" required value={newPassword} onChange={(event) => setNewPassword(event.currentTarget.value)} />
        <PasswordInput label="Verify password" autoComplete="new-password" required value={verifyPassword} onChange={(event) => setVerifyPassword(event.currentTarget.value)} />
        <PasswordRuleList password={newPassword} />
        <FormError message={error} />
        <Button type="submit" loading={accept.isPending}>
          Set password
        </Button>
      </Stack>
    </form>
  );
}
