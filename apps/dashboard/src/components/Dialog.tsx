import { type ReactNode, useEffect, useRef } from 'react';
import { useT } from '../i18n/i18n.js';

/**
 * A modal dialog (the browser's own <dialog>: focus moves in and is kept there, Escape closes it, focus returns to
 * the button that opened it). `initialFocus` names the element to focus once it is open (`[data-autofocus]` inside
 * it by default): showModal() focuses the first focusable element itself, and React's autoFocus never reaches an
 * element rendered inside a dialog that opens afterwards, so the focus is placed here explicitly.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const titleId = `dialog-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={onClose} className="dialog">
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
        </>
      )}
    </dialog>
  );
}

/**
 * "Are you sure?" before anything that cannot be undone, saying what will happen. Cancel has the focus when it
 * opens: Enter on a dialog opened by mistake (Tab to a button, Enter, Enter) must not do the destructive thing.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  return (
    <Dialog open={open} title={title} onClose={onCancel}>
      <div className="dialog-body">{children}</div>
      <div className="actions">
        <button type="button" className="danger" onClick={onConfirm} disabled={busy}>
          {busy ? t('common.working') : confirmLabel}
        </button>
        <button type="button" onClick={onCancel} data-autofocus>
          {t('common.cancel')}
        </button>
      </div>
    </Dialog>
  );
}
