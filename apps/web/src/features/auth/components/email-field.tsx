import { TextInput } from '@mantine/core';

/** The email input every sign-in, activation and reset step starts with (same label, autofill hint). */
export function EmailField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return <TextInput label="Email" type="email" autoComplete="username" required value={value} onChange={(event) => onChange(event.currentTarget.value)} />;
}
