import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { initialLanguage, loadLanguage } from './i18n/i18n.js';
import './styles.css';

const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );

// The page's language before its first paint: a French reader never sees it in English first. If the catalogue
// cannot be fetched, the page opens in English rather than not at all.
loadLanguage(initialLanguage()).then(render, render);
