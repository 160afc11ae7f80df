/**
 * Mantine's stylesheets that only the technician queue's screens use (issue #10), imported by the
 * lazily loaded queue page so they never reach the sign-in route or the admin screens. The
 * components they build on are in mantine-base.ts and mantine-extra.ts.
 */
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/Tooltip.css';
import '@mantine/core/styles/Kbd.css';
import '@mantine/core/styles/Progress.css';
