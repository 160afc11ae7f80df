import { Avatar, Menu, UnstyledButton } from '@mantine/core';
import type { TSessionUser } from '@switchboard/contracts';
import { useLogout } from '../../session/api/logout';

function initials(user: TSessionUser): string {
  return `${user.firstName.slice(0, 1)}${user.lastName.slice(0, 1)}`.toUpperCase() || '?';
}

type TUserMenuProps = { user: TSessionUser; onOpenProfile: (() => void) | null };

/** Profile (MSP users; general accounts have no edit call) and Sign out. */
export function UserMenu({ user, onOpenProfile }: TUserMenuProps) {
  const logout = useLogout();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        {/* The accessible name starts with the visible initials (WCAG 2.5.3 label in name). */}
        <UnstyledButton aria-label={`${initials(user)}: account menu for ${user.firstName} ${user.lastName}`}>
          <Avatar color="brand" radius="xl">
            {initials(user)}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {user.firstName} {user.lastName}
        </Menu.Label>
        {onOpenProfile !== null && <Menu.Item onClick={onOpenProfile}>Profile</Menu.Item>}
        <Menu.Item color="red" disabled={logout.isPending} onClick={() => logout.mutate()}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
