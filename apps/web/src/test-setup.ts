import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterAll, afterEach } from 'vitest';
import { queryClient } from './lib/query-client';
import { resetAllStores } from './lib/store-reset';

afterEach(() => cleanup());

// The test files of a worker share its module cache (vite.config.ts: isolate off, which halves the web tests' time),
// so what a module keeps between renders is emptied after each file: the zustand stores, the app's query cache,
// Mantine's notification queue (a notification of one file showed as a second alert in the next) and storage.
afterAll(() => {
  notifications.clean();
  queryClient.clear();
  resetAllStores();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

// testing-library's findBy/waitFor give up after 1 s by default. On a loaded machine (2 shared cores,
// the full `npm test` running projects side by side) one render of a large screen such as the queue
// area, with its Mantine popovers, can take longer than that, and a correct screen then failed
// (queue-area.test.tsx, "Ticket filters" not found after 1 s). A passing query still returns at its
// first match; only the wait before declaring a failure is longer.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks these; Mantine needs them.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
window.HTMLElement.prototype.scrollIntoView = () => undefined;
// jsdom has no FontFaceSet; Mantine's autosize Textarea listens on document.fonts.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener: () => undefined, removeEventListener: () => undefined, ready: Promise.resolve() } });
}
