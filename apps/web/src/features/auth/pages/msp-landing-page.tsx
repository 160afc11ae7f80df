import { useEffect, useRef, useState } from 'react';
import { Anchor, Group } from '@mantine/core';
import { Link, Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import { useLoadingStore } from '../../../lib/loading-store';
import { loadLastActiveUserType, saveLastActiveUserType } from '../../../lib/local-storage';
import { useSessionUser } from '../../session/api/session-queries';
import { homePathFor } from '../../session/session-guards';
import { FormNotice } from '../components/form-error';
import { MspAuthFrame } from '../components/msp-auth-frame';
import { MspUserLoginFlow } from '../components/msp-user-login-flow';
import { UserKindToggle } from '../components/user-kind-toggle';
import { readEmail, readNotice, readUserKind } from '../lib/flow-notice';
import { LOGIN_AS_PARAM, isLoginUserKind } from '../lib/user-kind';
import type { TLoginUserKind } from '../lib/user-kind';

/** `/{msp}`: the MSP's branded login page with a technician / client toggle. */
export function MspLandingPage() {
  const { msp = '' } = useParams();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const sessionUser = useSessionUser();
  const isHandingOver = useLoadingStore((state) => state.isMainLoading);
  // A flow that ends here (MSP sign-up, activation, reset, a session that ended) says which list the person is in;
  // so does logout's `?as=` (it clears the stored type, 02 §4); else the last one used.
  const [userKind, setUserKind] = useState<TLoginUserKind>(() => {
    const asParam = searchParams.get(LOGIN_AS_PARAM);
    return readUserKind(location.state) ?? (isLoginUserKind(asParam) ? asParam : loadLastActiveUserType());
  });

  // An e-mail the sign-in found in the other list, carried over by the hint's switch.
  const [switchedEmail, setSwitchedEmail] = useState<{ kind: TLoginUserKind; email: string } | null>(null);

  const flowRef = useRef<HTMLDivElement>(null);
  // The hint's button goes away with the switch; the focus moves to the kept e-mail, so Enter continues from there.
  useEffect(() => {
    if (switchedEmail !== null) flowRef.current?.querySelector('input')?.focus();
  }, [switchedEmail]);

  // The email comes with the list it belongs to: switching to the other list with the toggle starts empty.
  const flowEmail =
    switchedEmail?.kind === userKind ? switchedEmail.email : readUserKind(location.state) === userKind ? (readEmail(location.state) ?? undefined) : undefined;

  function handleUserKindChange(kind: TLoginUserKind) {
    saveLastActiveUserType(kind);
    setSwitchedEmail(null);
    setUserKind(kind);
  }

  /** The hint under "Account does not exists." (the e-mail is in the other list here): switch and keep the e-mail. */
  function handleChooseOtherKind(kind: TLoginUserKind, email: string) {
    saveLastActiveUserType(kind);
    setSwitchedEmail({ kind, email });
    setUserKind(kind);
  }

  // Someone already signed in to this MSP has nothing to do here: their dashboard. Not while a sign-in on this page
  // hands over (the overlay is up): that one goes where it was sent from.
  if (sessionUser?.principal === 'user' && sessionUser.mspCustomDomain === msp && !isHandingOver) return <Navigate to={homePathFor(sessionUser)} replace />;

  return (
    <MspAuthFrame customDomain={msp} title={(mspName) => `Sign in to ${mspName}`}>
      {({ customDomain, brand }) => (
        <>
          <FormNotice message={readNotice(location.state)} />
          <UserKindToggle value={userKind} onChange={handleUserKindChange} />
          <div ref={flowRef}>
            <MspUserLoginFlow
              key={userKind}
              userKind={userKind}
              initialEmail={flowEmail}
              fixedMspDomain={customDomain}
              buttonColour={brand.primaryButtonColour}
              onChooseOtherKind={handleChooseOtherKind}
            />
          </div>
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
