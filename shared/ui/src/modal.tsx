import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A dialog on the native <dialog> element: focus trap, Escape and the backdrop close it.
 * Default title follows SPEC §2 for the enquiry modal.
 */
export function Modal({ open, onClose, title, children }: { open: boolean; onClose: () => void; title: string; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="dp-modal"
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="dp-modal__panel">
        <header className="dp-modal__header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="dp-modal__close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        {open && children}
      </div>
    </dialog>
  );
}
