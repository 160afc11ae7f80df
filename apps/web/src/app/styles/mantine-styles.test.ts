import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const srcDir = join(__dirname, '..', '..');
const stylesDir = join(srcDir, '..', '..', '..', 'node_modules', '@mantine', 'core', 'styles');

/** Stylesheets a Mantine component needs beyond its own (the parts it is built from). */
const BUILT_FROM: Record<string, string[]> = {
  Button: ['UnstyledButton', 'Loader'],
  PasswordInput: ['Input', 'ActionIcon'],
  TextInput: ['Input'],
  FileInput: ['Input', 'CloseButton'],
  PinInput: ['Input', 'Group'],
  Checkbox: ['InlineInput'],
  Radio: ['InlineInput'],
  Modal: ['ModalBase', 'Overlay', 'CloseButton'],
  Menu: ['Popover'],
  Table: ['ScrollArea'],
  NavLink: ['UnstyledButton'],
  Tabs: ['UnstyledButton'],
  Burger: ['UnstyledButton'],
  Notification: ['CloseButton', 'Loader'],
  // Its sliding indicator is a FloatingIndicator: without that sheet the indicator sits off its option.
  SegmentedControl: ['FloatingIndicator'],
  // Their option lists are a Combobox: without its sheet the options had no padding and no highlight,
  // so a keyboard user could not see which option the arrow keys had reached.
  Select: ['Input', 'Combobox', 'Popover'],
  MultiSelect: ['Input', 'Combobox', 'Popover', 'Pill', 'PillsInput'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !path.includes(`${join('src', 'test')}`) ? [path] : [];
  });
}

describe('Mantine stylesheets (issue #6 §5: per component, not all of styles.css)', () => {
  const files = sourceFiles(srcDir);
  const sources = files.map((file) => readFileSync(file, 'utf8'));
  const used = new Set<string>();
  for (const source of sources) {
    for (const match of source.matchAll(/import \{([^}]*)\} from '@mantine\/core'/g)) {
      for (const name of (match[1] ?? '').split(',').map((part) => part.replace(/\btype\b/, '').trim())) if (name !== '') used.add(name);
    }
  }
  const imported = new Set<string>();
  for (const source of sources) for (const match of source.matchAll(/@mantine\/core\/styles\/([A-Za-z-]+)\.css/g)) imported.add(match[1] ?? '');

  it('imports the stylesheet of every Mantine component the app uses, and of the parts it is built from', () => {
    const needed = [...used].flatMap((name) => [name, ...(BUILT_FROM[name] ?? [])]).filter((name) => existsSync(join(stylesDir, `${name}.css`)));
    expect(needed.length).toBeGreaterThan(20);
    expect(needed.filter((name) => !imported.has(name))).toEqual([]);
  });

  // Bug: the PSA connection form and the add-employee dialog showed their secret fields as a bare
  // bordered box without the show/hide toggle when the dashboard was opened directly (a reload, a
  // kept session): PasswordInput's sheet came only with the sign-in screens' modules.
  it('loads PasswordInput\'s stylesheets with every module that renders one (they are not in the always-loaded set)', () => {
    const withoutSheet = files.filter((file, index) => {
      const source = sources[index] ?? '';
      const rendersPasswordInput = /import \{[^}]*\bPasswordInput\b[^}]*\} from '@mantine\/core'/.test(source);
      return rendersPasswordInput && !/password-input-styles'|styles\/PasswordInput\.css'/.test(source);
    });
    expect(withoutSheet.map((file) => file.slice(srcDir.length))).toEqual([]);
  });

  it('never imports the whole of styles.css', () => {
    expect(sources.filter((source) => /@mantine\/core\/styles\.css/.test(source))).toEqual([]);
  });
});
