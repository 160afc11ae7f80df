import { Input, PinInput } from '@mantine/core';
import '@mantine/core/styles/PinInput.css';

interface TVerificationCodeInputProps {
  label: string;
  value: string;
  onChange: (code: string) => void;
  /** Called whenever the boxes come to hold six digits: typing the sixth digit sends the code. */
  onComplete?: (code: string) => void;
  hasError: boolean;
}

const FULL_CODE = /^\d{6}$/;

/**
 * Six single-digit boxes for a mailed 2FA or reset code. Mantine's own onComplete fires once per
 * mount until a box is emptied by hand, so a code pasted or typed after a rejected one (whose boxes
 * the page cleared) was never sent; the change handler decides instead.
 */
export function VerificationCodeInput({ label, value, onChange, onComplete, hasError }: TVerificationCodeInputProps) {
  function handleChange(next: string) {
    onChange(next);
    if (FULL_CODE.test(next) && next !== value) onComplete?.(next);
  }

  return (
    <Input.Wrapper label={label} required>
      <PinInput length={6} type="number" oneTimeCode autoFocus ariaLabel={label} value={value} onChange={handleChange} error={hasError} mt={4} />
    </Input.Wrapper>
  );
}
