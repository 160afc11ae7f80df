import { Component, lazy } from 'react';
import type { ComponentType, ReactNode } from 'react';
import { Alert, Button, Loader, Stack } from '@mantine/core';
import { CORE_MESSAGES } from '@switchboard/contracts';
import { errorDetail, isApiError } from '../../../lib/api-client';
import { setMainLoading } from '../../../lib/loading-store';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** What browsers say when a lazily loaded chunk cannot be fetched (Chromium, Firefox, Safari): the network, not a bug. */
const CHUNK_LOAD_FAILURE = /dynamically imported module|Importing a module script failed/;

/** The error in plain words: the API's detail, the network message for a chunk that could not be fetched, else the generic one. */
function screenErrorText(error: unknown): string {
  if (isApiError(error)) return errorDetail(error);
  if (error instanceof TypeError && CHUNK_LOAD_FAILURE.test(error.message)) return CORE_MESSAGES.networkError;
  return CORE_MESSAGES.unexpectedError;
}

/** Screens whose chunk failed to load, each with the way to start a fresh import: run by "Try again" or another choice. */
const failedScreenLoads = new Set<() => void>();

function retryFailedScreenLoads(): void {
  for (const retry of failedScreenLoads) retry();
  failedScreenLoads.clear();
}

/**
 * React.lazy keeps a failed import for ever, so "Try again" would show the same failure (offline for a moment, then
 * back). This lazy component keeps the failure (React shows it; swapping at once would retry in a loop while offline)
 * until the person tries again or chooses another screen, then starts a fresh import; a successful one is kept.
 */
export function lazyScreen<TProps extends object>(load: () => Promise<ComponentType<TProps>>): ComponentType<TProps> {
  const startLoading = () =>
    lazy(() =>
      load().then(
        (Screen) => ({ default: Screen }),
        (cause: unknown) => {
          failedScreenLoads.add(() => {
            Loaded = startLoading();
          });
          throw cause;
        },
      ),
    );
  let Loaded = startLoading();
  return function LazyScreen(props: TProps) {
    return <Loaded {...props} />;
  };
}

/**
 * A lazily loaded screen's spinner, which already names the tab after the chosen screen (review s29: the tab kept the
 * page before's title until the screen had loaded); the screen names it again once it renders.
 */
export function ScreenLoading({ title }: { title: string }) {
  useDocumentTitle(title);
  return <Loader aria-label="Loading screen" />;
}

type TScreenErrorBoundaryProps = {
  /** What the part shows (the chosen option); a new key is a new choice, which clears the error. */
  resetKey: string;
  /** The alert's title: which part of the page failed. */
  title: string;
  children: ReactNode;
};

type TScreenErrorBoundaryState = { error: unknown; hasError: boolean };

/**
 * Keeps a failing screen (a render error, or its chunk not loading offline) inside its own part of the dashboard:
 * the header, navigation and sign-out stay usable (review s29: one screen took the whole app, and, being the saved
 * choice, took it again after the reload). "Try again" renders it again without a page load.
 */
export class ScreenErrorBoundary extends Component<TScreenErrorBoundaryProps, TScreenErrorBoundaryState> {
  override state: TScreenErrorBoundaryState = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): TScreenErrorBoundaryState {
    return { error, hasError: true };
  }

  override componentDidCatch(): void {
    // The sign-in screens set the main loading flag on their way here; a failed first screen must not stay under it.
    // (React itself logs the error.)
    setMainLoading(false);
  }

  override componentDidUpdate(previous: TScreenErrorBoundaryProps): void {
    if (this.state.hasError && previous.resetKey !== this.props.resetKey) this.handleTryAgain();
  }

  handleTryAgain = (): void => {
    retryFailedScreenLoads();
    this.setState({ error: null, hasError: false });
  };

  override render(): ReactNode {
    if (!this.state.hasError) return this.props.children;
    return (
      <Stack align="flex-start" p="md">
        <Alert color="red" role="alert" title={this.props.title} w="100%">
          {screenErrorText(this.state.error)}
        </Alert>
        <Button variant="light" onClick={this.handleTryAgain}>
          Try again
        </Button>
      </Stack>
    );
  }
}
