import { useId } from 'react';
import { LOGIN_USER_KINDS, USER_KIND_LABELS, type TLoginUserKind } from '../lib/user-kind';
import classes from './user-kind-toggle.module.css';

/**
 * Technician / client switch of the MSP login, activation and forgot-password pages: two native
 * radios styled as a segmented switch (arrow keys move between them). Mantine's SegmentedControl
 * brought 4 KB of JS to the sign-in route for this one switch (issue #6 §5).
 */
export function UserKindToggle({ value, onChange }: { value: TLoginUserKind; onChange: (kind: TLoginUserKind) => void }) {
  const name = useId();
  return (
    <div role="radiogroup" aria-label="I am a" className={classes.group}>
      {LOGIN_USER_KINDS.map((kind) => (
        <label key={kind} className={classes.option}>
          <input type="radio" className={classes.input} name={name} value={kind} checked={value === kind} onChange={() => onChange(kind)} />
          {USER_KIND_LABELS[kind]}
        </label>
      ))}
    </div>
  );
}
