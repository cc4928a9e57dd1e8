import type { ReactNode } from 'react';
import { Alert } from './alert';
import { Button } from './button';

type FormCardProps = {
  title?: string;
  stepIndex: number;
  stepCount: number;
  complete?: boolean;
  error?: { text: string; tone: 'destructive' | 'success' } | null;
  submitting?: boolean;
  onBack?: () => void;
  children: ReactNode;
};

/** SPEC §4: progress is step index / step count as a percentage, 100 once complete. */
export const formProgress = (stepIndex: number, stepCount: number, complete = false) =>
  complete ? 100 : stepCount > 0 ? Math.round((stepIndex / stepCount) * 100) : 0;

/**
 * The frame of a (multi-step) form: progress bar, 'Step X of Y', the error alert above the
 * buttons and Go Back / Continue / Submit. A one-step form shows no progress.
 */
export function FormCard({ title, stepIndex, stepCount, complete = false, error, submitting = false, onBack, children }: FormCardProps) {
  const multiStep = stepCount > 1;
  const last = stepIndex >= stepCount - 1;
  const progress = formProgress(stepIndex, stepCount, complete);
  return (
    <section className="dp-form-card">
      {title && <h2 className="dp-form-card__title">{title}</h2>}
      {multiStep && (
        <div className="dp-form-card__progress">
          <div className="dp-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
            <div className="dp-progress__bar" style={{ width: `${progress}%` }} />
          </div>
          <p className="dp-form-card__step">{`Step ${stepIndex + 1} of ${stepCount}`}</p>
        </div>
      )}
      <div className="dp-form-card__body">{children}</div>
      {error && <Alert tone={error.tone}>{error.text}</Alert>}
      <div className="dp-form-card__actions">
        {multiStep && stepIndex > 0 && onBack && (
          <Button variant="secondary" onClick={onBack} disabled={submitting}>
            Go Back
          </Button>
        )}
        <Button type="submit" loading={submitting}>
          {last ? 'Submit' : 'Continue'}
        </Button>
      </div>
    </section>
  );
}
