/**
 * The error boundary every public island is hydrated inside so an error is
 * reported and alternative content shown. A render error is reported through the error reporter (which
 * adds the website id, template id, URL and browser) and the island shows a short notice instead of a
 * broken or blank area; the rest of the page keeps working.
 */
import { Component, type ReactNode } from 'react';
import { editor as editorMessages } from '../../core/messages.js';
import { reportError } from '../client/error-reporter.js';

interface Props {
  name: string;
  children?: ReactNode;
}

export class IslandBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    const e = error instanceof Error ? error : new Error(String(error));
    const report = new Error(`Island ${this.props.name}: ${e.message}`);
    if (e.stack) report.stack = e.stack;
    reportError(report);
  }

  override render(): ReactNode {
    if (this.state.failed) {
      return (
        <div className="island-error" role="alert" data-island-error={this.props.name}>
          {editorMessages.SOMETHING_WENT_WRONG}
        </div>
      );
    }
    return this.props.children;
  }
}
