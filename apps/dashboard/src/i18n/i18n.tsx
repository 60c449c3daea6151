import { createContext, Fragment, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { setFormatLocale } from '../lib/format.js';
import { en, type MessageKey, type Messages } from './en.js';
import { fr } from './fr.js';

export const LANGUAGES = { en: { name: 'English', messages: en }, fr: { name: 'Français', messages: fr } } as const;
export type Language = keyof typeof LANGUAGES;

const STORED = 'spa-dashboard-language';

/** The person's choice if they made one, else the browser's first language we have, else English. */
function initialLanguage(): Language {
  const stored = localStorage.getItem(STORED);
  if (stored === 'en' || stored === 'fr') return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'en' || base === 'fr') return base;
  }
  return 'en';
}

type Params = Record<string, string | number>;

export interface Translate {
  (key: MessageKey, params?: Params): string;
  /** A key with `_one`/`_other` forms, chosen by the language's plural rules on `count`. */
  plural(key: string, count: number, params?: Params): string;
  language: Language;
  /** BCP 47 tag for Intl (dates, numbers, money). */
  locale: string;
}

function translator(language: Language): Translate {
  const messages: Messages = LANGUAGES[language].messages;
  const locale = language === 'fr' ? 'fr-FR' : 'en-GB';
  const rules = new Intl.PluralRules(locale);
  const fill = (text: string, params: Params = {}) =>
    text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  const t = ((key: MessageKey, params?: Params) => fill(messages[key] ?? en[key] ?? key, params)) as Translate;
  t.plural = (key, count, params) => {
    const form = `${key}_${rules.select(count)}` as MessageKey;
    const text = messages[form] ?? messages[`${key}_other` as MessageKey];
    return fill(text, { count, ...params });
  };
  t.language = language;
  t.locale = locale;
  return t;
}

/**
 * A translated sentence with elements in it (a link, a code span, bold words): `t` leaves a placeholder it was not
 * given as `{name}`, and each is replaced here by its element, so the words around it stay in the catalogue.
 */
export function rich(text: string, elements: Record<string, ReactNode>): ReactNode[] {
  return text
    .split(/\{(\w+)\}/g)
    .map((part, i) => (i % 2 === 1 ? <Fragment key={i}>{elements[part] ?? `{${part}}`}</Fragment> : part));
}

const I18nContext = createContext<{ t: Translate; setLanguage: (language: Language) => void } | undefined>(undefined);

/** The chosen language for the whole app: its words, `<html lang>`, and the locale of dates and money. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const t = useMemo(() => translator(language), [language]);
  setFormatLocale(t.locale);
  useEffect(() => {
    document.documentElement.lang = language;
    localStorage.setItem(STORED, language);
  }, [language]);
  const value = useMemo(() => ({ t, setLanguage }), [t]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useT(): Translate {
  const context = useContext(I18nContext);
  if (!context) throw new Error('useT outside I18nProvider');
  return context.t;
}

/** The language switch (English, Français), for the header and the public pages. */
export function LanguageSwitch({ className }: { className?: string }) {
  const context = useContext(I18nContext);
  if (!context) throw new Error('LanguageSwitch outside I18nProvider');
  const { t, setLanguage } = context;
  return (
    <label className={className}>
      <span className="visually-hidden">{t('layout.language')}</span>
      <select value={t.language} onChange={(event) => setLanguage(event.target.value as Language)}>
        {Object.entries(LANGUAGES).map(([code, { name }]) => (
          <option key={code} value={code} lang={code}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}
