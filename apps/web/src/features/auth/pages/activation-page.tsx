import { useState, type FormEvent } from 'react';
import { Anchor, Button, PasswordInput, Radio, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { MESSAGES, passwordProblems } from '@switchboard/contracts';
import type { TPsaContactRecord, TPsaMemberRecord } from '@switchboard/contracts';
import { loadLastActiveUserType } from '../../../lib/local-storage';
import { activateClient, activateTechnician, findClientActivationRecords, findTechnicianActivationRecords } from '../api/auth-steps-api';
import { FormError } from '../components/form-error';
import { MspAuthFrame } from '../components/msp-auth-frame';
import { PasswordRuleList } from '../components/password-rule-list';
import { UserKindToggle } from '../components/user-kind-toggle';
import { noticeState } from '../lib/flow-notice';
import type { TLoginUserKind } from '../lib/user-kind';
import { EmailStepForm, useEmailStep } from '../components/email-step';
import '../../../app/styles/mantine-extra';
import '../components/password-input-styles';
import { errorDetail } from '../../../lib/api-client';

type TActivationRecords = { userKind: 'tech'; records: TPsaMemberRecord[] } | { userKind: 'client'; records: TPsaContactRecord[] };

const recordKey = (record: TPsaMemberRecord | TPsaContactRecord): string =>
  'psaMembersAutopilotDbId' in record ? record.psaMembersAutopilotDbId : record.psaContactAutopilotDbId;

function recordLabel(record: TPsaMemberRecord | TPsaContactRecord): string {
  const name = `${record.firstName} ${record.lastName}`.trim();
  return 'psaCompanyName' in record ? `${name} — ${record.psaCompanyName}` : `${name} (member ${record.psaMembersId})`;
}

/**
 * `/{msp}/activate`: a technician or client whose PSA record the MSP imported
 * finds it by email, picks it and sets a password.
 */
export function ActivationPage() {
  const { msp = '' } = useParams();
  const navigate = useNavigate();
  const [userKind, setUserKind] = useState<TLoginUserKind>(loadLastActiveUserType);
  const [found, setFound] = useState<TActivationRecords | null>(null);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const emailStep = useEmailStep({
    lookup: async (value: string): Promise<TActivationRecords> =>
      userKind === 'tech'
        ? { userKind: 'tech', records: (await findTechnicianActivationRecords(msp, value)).records }
        : { userKind: 'client', records: (await findClientActivationRecords(msp, value)).records },
    onFound: (result) => {
      setFound(result);
      const [only] = result.records;
      setSelectedKey(result.records.length === 1 && only ? recordKey(only) : null);
    },
  });
  const { email, error, setError } = emailStep;
  const activate = useMutation({
    mutationFn: async (input: { records: TActivationRecords; key: string }) => {
      const body = { email: email.trim(), password };
      if (input.records.userKind === 'tech') {
        const record = input.records.records.find((candidate) => recordKey(candidate) === input.key);
        if (record) return activateTechnician(msp, { ...body, psaMembersAutopilotDbId: record.psaMembersAutopilotDbId });
      } else {
        const record = input.records.records.find((candidate) => recordKey(candidate) === input.key);
        if (record) return activateClient(msp, record.psaCompanyId, { ...body, psaContactAutopilotDbId: record.psaContactAutopilotDbId });
      }
      throw new Error('The chosen record is no longer in the list.');
    },
  });

  function handleUserKindChange(kind: TLoginUserKind) {
    setUserKind(kind);
    setFound(null);
    setSelectedKey(null);
    setError(null);
  }

  function handleActivateSubmit(event: FormEvent, records: TActivationRecords) {
    event.preventDefault();
    if (selectedKey === null) {
      setError(MESSAGES.auth.chooseActivationRecord);
      return;
    }
    if (password === '') {
      setError(MESSAGES.passwordRequired);
      return;
    }
    const weakness = passwordProblems(password)[0];
    if (weakness !== undefined) {
      setError(weakness);
      return;
    }
    setError(null);
    activate.mutate(
      { records, key: selectedKey },
      {
        onError: (cause) => setError(errorDetail(cause)),
        onSuccess: () => void navigate(`/${msp}`, { state: noticeState(MESSAGES.auth.activationDone, records.userKind) }),
      },
    );
  }

  return (
    <MspAuthFrame customDomain={msp} title={(mspName) => `Activate your ${mspName} account`}>
      {({ customDomain }) => (
        <Stack>
          <UserKindToggle value={userKind} onChange={handleUserKindChange} />
          {found === null ? (
            <EmailStepForm step={emailStep} submitLabel="Find my account" />
          ) : (
            <form onSubmit={(event) => handleActivateSubmit(event, found)} noValidate>
              <Stack>
                <Radio.Group label={MESSAGES.auth.chooseActivationRecord} value={selectedKey} onChange={setSelectedKey} required>
                  <Stack gap="xs" mt="xs">
                    {found.records.map((record) => (
                      <Radio key={recordKey(record)} value={recordKey(record)} label={recordLabel(record)} />
                    ))}
                  </Stack>
                </Radio.Group>
                <Text size="sm">Email: {email.trim()}</Text>
                <PasswordInput
                  label="Password"
                  autoComplete="new-password"
                  required
                  value={password}
                  onChange={(event) => setPassword(event.currentTarget.value)}
                />
                <PasswordRuleList password={password} />
                <FormError message={error} />
                <Button type="submit" loading={activate.isPending}>
                  Activate account
                </Button>
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() => {
                    setFound(null);
                    setError(null);
                  }}
                >
                  Use a different email
                </Anchor>
              </Stack>
            </form>
          )}
          <Anchor component={Link} to={`/${customDomain}`} size="sm">
            Back to sign in
          </Anchor>
        </Stack>
      )}
    </MspAuthFrame>
  );
}
