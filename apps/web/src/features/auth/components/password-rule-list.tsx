import { List, Text } from '@mantine/core';
import { CORE_MESSAGES, passwordProblems } from '@switchboard/contracts';
import '@mantine/core/styles/List.css';

const RULES = [CORE_MESSAGES.passwordRules.length, CORE_MESSAGES.passwordRules.special, CORE_MESSAGES.passwordRules.uppercase];

/** The three "Password needs…" rules (decisions #10), each marked met or unmet as the user types (shade 9: AA contrast on white). */
export function PasswordRuleList({ password }: { password: string }) {
  const unmet = new Set(passwordProblems(password));
  return (
    <List size="sm" spacing={2} aria-label="Password rules" listStyleType="none">
      {RULES.map((rule) => {
        const isMet = !unmet.has(rule);
        return (
          <List.Item key={rule}>
            <Text size="sm" c={isMet ? 'teal.9' : 'red.9'}>
              {isMet ? '✓ ' : '✗ '}
              {rule}
            </Text>
          </List.Item>
        );
      })}
    </List>
  );
}
