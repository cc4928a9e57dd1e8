import type { ReactNode } from 'react';

/** Inline message. `destructive` is the red error style of SPEC §8. */
export function Alert({
  tone = 'info',
  children,
  title,
}: {
  tone?: 'info' | 'success' | 'destructive';
  title?: string;
  children: ReactNode;
}) {
  return (
    <div className={`dp-alert dp-alert--${tone}`} role={tone === 'destructive' ? 'alert' : 'status'}>
      {title && <strong className="dp-alert__title">{title}</strong>}
      <div>{children}</div>
    </div>
  );
}
