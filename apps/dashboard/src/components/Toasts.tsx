import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';

interface Toast {
  id: number;
  text: string;
  tone: 'ok' | 'error';
}

/** How long a toast stays: long enough to read a sentence twice. */
const TOAST_MS = 6_000;

const ToastContext = createContext<((text: string, tone?: Toast['tone']) => void) | undefined>(undefined);

/**
 * What an action did, said once at the bottom of the screen and to screen readers (a polite live region that is in
 * the page from the start, so the announcement is not lost). It lives above the pages, so a message outlives the
 * card or dialog that caused it (a replayed delivery leaving a filtered list, a closed booking leaving the desk).
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(0);
  const show = useCallback((text: string, tone: Toast['tone'] = 'ok') => {
    const id = ++next.current;
    setToasts((current) => [...current.slice(-2), { id, text, tone }]);
    setTimeout(() => setToasts((current) => current.filter((toast) => toast.id !== id)), TOAST_MS);
  }, []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <p key={toast.id} className={`toast toast-${toast.tone}`} data-testid="toast">
            {toast.text}
          </p>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast() {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast outside ToastProvider');
  return show;
}
