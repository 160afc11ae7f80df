import { useState } from 'react';
import { NumberInput, type NumberInputProps } from '@mantine/core';

type TBoardNumberInputProps = Omit<NumberInputProps, 'value' | 'onChange' | 'onBlur'> & {
  value: number;
  /** Called with the number the board holds for what was typed: an empty or unreadable field gives the default. */
  onChange: (value: number) => void;
  /** The text typed, as a number, or the default (coerceScore, R-173; coerceSlaHours, R-174). */
  toNumber: (typed: number | string) => number;
};

/**
 * A score or SLA field of the board editor. While the admin types, the field shows exactly what they
 * typed, even empty; the board holds that number, or the default while the field is empty, so a save
 * always sends what say. Leaving the field shows the board's number. (It showed the
 * default at every keystroke, so emptying an SLA field showed 1 and typing "24" gave 124.)
 */
export function BoardNumberInput({ value, onChange, toNumber, ...props }: TBoardNumberInputProps) {
  // null: not being edited, the board's number shows.
  const [typed, setTyped] = useState<number | string | null>(null);
  return (
    <NumberInput
      {...props}
      value={typed ?? value}
      onChange={(next) => {
        setTyped(next);
        onChange(toNumber(next));
      }}
      onBlur={() => setTyped(null)}
    />
  );
}
