import type { InputHTMLAttributes } from 'react';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'onChange'>;

/** A labelled, required password input: the sign-in's, the confirmation's and the invitation's fields. */
export function PasswordField({
  label,
  value,
  onChange,
  ...input
}: { label: string; value: string; onChange: (value: string) => void } & InputProps) {
  return (
    <label>
      {label}
      <input type="password" value={value} onChange={(event) => onChange(event.target.value)} required {...input} />
    </label>
  );
}
