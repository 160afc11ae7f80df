import { useState } from 'react';
import { Anchor, Group } from '@mantine/core';
import { Link, useLocation, useParams } from 'react-router';
import { loadLastActiveUserType, saveLastActiveUserType } from '../../../lib/local-storage';
import { FormNotice } from '../components/form-error';
import { MspAuthFrame } from '../components/msp-auth-frame';
import { MspUserLoginFlow } from '../components/msp-user-login-flow';
import { UserKindToggle } from '../components/user-kind-toggle';
import { readEmail, readNotice, readUserKind } from '../lib/flow-notice';
import type { TLoginUserKind } from '../lib/user-kind';

/** `/{msp}`: the MSP's branded login page with a technician / client toggle. */
export function MspLandingPage() {
  const { msp = '' } = useParams();
  const location = useLocation();
  // A flow that ends here (MSP sign-up, activation, reset) says which list the person is in; else the last one used.
  const [userKind, setUserKind] = useState<TLoginUserKind>(() => readUserKind(location.state) ?? loadLastActiveUserType());

  // The email comes with the list it belongs to: switching to the other list starts empty.
  const flowEmail = readUserKind(location.state) === userKind ? (readEmail(location.state) ?? undefined) : undefined;

  function handleUserKindChange(kind: TLoginUserKind) {
    saveLastActiveUserType(kind);
    setUserKind(kind);
  }

  return (
    <MspAuthFrame customDomain={msp} title={(mspName) => `Sign in to ${mspName}`}>
      {({ customDomain, brand }) => (
        <>
          <FormNotice message={readNotice(location.state)} />
          <UserKindToggle value={userKind} onChange={handleUserKindChange} />
          <MspUserLoginFlow key={userKind} userKind={userKind} initialEmail={flowEmail} fixedMspDomain={customDomain} buttonColour={brand.primaryButtonColour} />
          <Group justify="space-between">
            <Anchor component={Link} to={`/${customDomain}/forgot`} size="sm">
              Forgot password
            </Anchor>
            <Anchor component={Link} to={`/${customDomain}/activate`} size="sm">
              Activate account
            </Anchor>
          </Group>
        </>
      )}
    </MspAuthFrame>
  );
}
