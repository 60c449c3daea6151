import { useEffect, useRef, useState } from 'react';
import { useT } from '../i18n/i18n.js';

/** Copies a value to the clipboard and says so (to screen readers too). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const t = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="copy">
      <button type="button" onClick={() => void copy()} aria-label={label}>
        {t('copy.copy')}
      </button>
      <span role="status" aria-live="polite" className="copy-state">
        {state === 'copied' ? t('copy.copied') : state === 'failed' ? t('copy.failed') : ''}
      </span>
    </span>
  );
}

/**
 * A secret shown once: in full, selectable, with a copy button and the warning that it will not be shown again.
 * `focus`: it takes the focus and is scrolled into view when it appears (on a phone the form that made it is
 * further down, and the secret would otherwise appear far above the screen).
 */
export function OneTimeSecret({
  label,
  value,
  note,
  focus = true,
}: {
  label: string;
  value: string;
  note: string;
  focus?: boolean;
}) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!focus || !ref.current) return;
    ref.current.focus({ preventScroll: true });
    ref.current.scrollIntoView({ block: 'center' });
  }, [focus, value]);
  return (
    <div className="notice notice-secret" ref={ref} tabIndex={-1} role="region" aria-label={label}>
      <p className="notice-title">{label}</p>
      <p>
        <code className="secret" data-testid="secret">
          {value}
        </code>
      </p>
      <CopyButton value={value} label={t('copy.label', { what: label })} />
      <p className="hint">{note}</p>
    </div>
  );
}
