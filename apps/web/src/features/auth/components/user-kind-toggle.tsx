import { SegmentedControl } from '@mantine/core';
import { LOGIN_USER_KINDS, USER_KIND_LABELS, isLoginUserKind, type TLoginUserKind } from '../lib/user-kind';

/** Technician / client switch of the MSP login, activation and forgot-password pages. */
export function UserKindToggle({ value, onChange }: { value: TLoginUserKind; onChange: (kind: TLoginUserKind) => void }) {
  return (
    <SegmentedControl
      fullWidth
      aria-label="I am a"
      value={value}
      onChange={(next) => {
        if (isLoginUserKind(next)) onChange(next);
      }}
      data={LOGIN_USER_KINDS.map((kind) => ({ value: kind, label: USER_KIND_LABELS[kind] }))}
    />
  );
}
