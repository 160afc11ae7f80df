import { Input, PinInput } from '@mantine/core';

interface TVerificationCodeInputProps {
  label: string;
  value: string;
  onChange: (code: string) => void;
  onComplete?: (code: string) => void;
  hasError: boolean;
}

/** Six single-digit boxes for a mailed 2FA or reset code. */
export function VerificationCodeInput({ label, value, onChange, onComplete, hasError }: TVerificationCodeInputProps) {
  return (
    <Input.Wrapper label={label} required>
      <PinInput
        length={6}
        type="number"
        oneTimeCode
        autoFocus
        ariaLabel={label}
        value={value}
        onChange={onChange}
        onComplete={onComplete}
        error={hasError}
        mt={4}
      />
    </Input.Wrapper>
  );
}
