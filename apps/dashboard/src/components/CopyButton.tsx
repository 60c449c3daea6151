import { useState } from 'react';

/** Copies a value to the clipboard and says so (to screen readers too). */
export function CopyButton({ value, label }: { value: string; label: string }) {
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
        Copy
      </button>
      <span role="status" aria-live="polite" className="copy-state">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text and copy it' : ''}
      </span>
    </span>
  );
}

/** A secret shown once: in full, selectable, with a copy button and the warning that it will not be shown again. */
export function OneTimeSecret({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <div className="notice notice-secret">
      <p className="notice-title">{label}</p>
      <p>
        <code className="secret" data-testid="secret">
          {value}
        </code>
      </p>
      <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
      <p className="hint">{note}</p>
    </div>
  );
}
