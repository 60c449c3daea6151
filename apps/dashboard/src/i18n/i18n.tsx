import { createContext, Fragment, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { setFormatLocale } from '../lib/format.js';
import { en, type MessageKey, type Messages } from './en.js';

export const LANGUAGES = { en: 'English', fr: 'Français' } as const;
export type Language = keyof typeof LANGUAGES;

/**
 * English is in the first load (the catalogue every other is typed by, and the fallback of a missing word); each
 * other language is a chunk of its own, fetched when it is first needed, so the first load does not grow with
 * every language added.
 */
const catalogues: Partial<Record<Language, Messages>> = { en };
const loaders: Record<Language, () => Promise<Messages>> = {
  en: () => Promise.resolve(en),
  fr: () => import('./fr.js').then((module) => module.fr),
};

/** Fetches a language's catalogue once; main.tsx awaits the initial one before the first render (no English flash). */
export async function loadLanguage(language: Language): Promise<void> {
  catalogues[language] ??= await loaders[language]();
}

const STORED = 'spa-dashboard-language';

/** The person's choice if they made one, else the browser's first language we have, else English. */
export function initialLanguage(): Language {
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
  const messages: Messages = catalogues[language] ?? en;
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
  // English until the chosen catalogue has arrived (main.tsx loads the initial one before rendering).
  const [language, setShown] = useState<Language>(() => {
    const initial = initialLanguage();
    return catalogues[initial] ? initial : 'en';
  });
  const setLanguage = useCallback((next: Language) => {
    // A catalogue that cannot be fetched (the network gone) leaves the page in the language it is in.
    loadLanguage(next).then(
      () => setShown(next),
      () => undefined,
    );
  }, []);
  const t = useMemo(() => translator(language), [language]);
  setFormatLocale(t.locale);
  useEffect(() => {
    document.documentElement.lang = language;
    localStorage.setItem(STORED, language);
  }, [language]);
  const value = useMemo(() => ({ t, setLanguage }), [t, setLanguage]);
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
        {Object.entries(LANGUAGES).map(([code, name]) => (
          <option key={code} value={code} lang={code}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}
