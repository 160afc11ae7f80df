import { Badge, type BadgeProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A status badge whose text stays readable: Mantine's filled badges put white text on shade 6
 * (3.3:1 for gray, 2.6:1 for green, 1.6:1 for yellow), below WCAG AA's 4.5:1; the light tint with
 * dark text passes for every colour. The word itself carries the meaning, so colour is never the only cue.
 */
export function ReadableBadge({ color, children, ...rest }: Omit<BadgeProps, 'variant'> & { title?: string | undefined; children: ReactNode }) {
  return (
    <Badge variant="light" color={color} styles={{ label: { color: 'var(--mantine-color-dark-7)' } }} {...rest}>
      {children}
    </Badge>
  );
}
