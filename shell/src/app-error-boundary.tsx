import { Component, type ErrorInfo, type ReactNode } from 'react';
import type { PublicSiteConfig } from '@dealer/contracts/site';

type Props = { site: Pick<PublicSiteConfig, 'name' | 'phone'>; children: ReactNode };

/** Sends a crash of the shell itself to the platform's event log (remote failures have their own boundary). */
function reportAppError(error: Error) {
  const body = JSON.stringify({
    category: 'app_error',
    url: location.href,
    error_message: `${error.name}: ${error.message}`.slice(0, 500),
  });
  void fetch('/api/events', { method: 'POST', body, headers: { 'Content-Type': 'application/json' }, keepalive: true }).catch(
    () => undefined,
  );
}

/**
 * The outermost layer: if the shell's own code throws while rendering, the shopper gets the
 * dealer's name, a way to call and a reload instead of a blank page. Each remote's area has its
 * own boundary (RemoteBoundary), so this only catches what is outside them.
 */
export class AppErrorBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, _info: ErrorInfo) {
    reportAppError(error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    const { site } = this.props;
    return (
      <main className="dp-container app-error" role="alert" data-app-error>
        <h1>{site.name}</h1>
        <p>Sorry, this page could not be shown.</p>
        <p>
          <button type="button" className="dp-button dp-button--primary" onClick={() => location.reload()}>
            Reload the page
          </button>{' '}
          or call us on <a href={`tel:${site.phone.replace(/[^\d+]/g, '')}`}>{site.phone}</a>.
        </p>
      </main>
    );
  }
}
