import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '@dealer/ui/button';
import type { ExposedModule } from '@dealer/contracts/remote-modules';
import { remoteOfModule } from '@dealer/contracts/remote-modules';
import { reportRemoteFailure } from './report-failure';
import { RemoteLoadError } from './remote-load-error';

type Props = { module: ExposedModule; onRetry: () => void; compact?: boolean; children: ReactNode };

/** Third layer: a failing remote shows a small fallback in its own area only, with a retry button. */
export class RemoteBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, _info: ErrorInfo) {
    // Load failures were reported where they happened (runtime plugin, loader); render errors are reported here.
    if (!(error instanceof RemoteLoadError)) {
      reportRemoteFailure(remoteOfModule(this.props.module), this.props.module, error.message);
    }
  }

  private retry = () => {
    this.setState({ error: null });
    this.props.onRetry();
  };

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="dp-remote-fallback" role="alert" data-remote-fallback={this.props.module}>
        <p>{this.props.compact ? 'This section is unavailable.' : 'This part of the page could not be loaded right now.'}</p>
        <Button variant="secondary" onClick={this.retry}>
          Try again
        </Button>
      </div>
    );
  }
}
