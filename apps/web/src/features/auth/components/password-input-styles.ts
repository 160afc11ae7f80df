/**
 * The stylesheets of Mantine's PasswordInput (and the ActionIcon of its show/hide toggle), imported
 * by each page or step with a password field, so the first screen of a sign-in page (an email
 * field) does not load them (issue #6 §5).
 */
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/PasswordInput.css';
