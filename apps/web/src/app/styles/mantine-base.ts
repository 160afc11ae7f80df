/**
 * Mantine's stylesheets for the app shell and the sign-in pages, one component at a time, instead
 * of all of styles.css (issue #6 §5: the sign-in route loaded 41 KB gzip of CSS it did not use).
 * Order matters: the base first, then each component after the ones it is built from. The theme's
 * CSS variables come from MantineProvider at run time (deduplicateCssVariables off), not from
 * default-css-variables.css.
 * Components of the other screens are in mantine-extra.ts; mantine-styles.test.ts checks that
 * every Mantine component the app uses has its stylesheet in one of the two.
 */
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Divider.css';
