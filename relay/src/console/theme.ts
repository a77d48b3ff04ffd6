// Light or dark: the system's choice until the user picks one, which is remembered in this browser.

export type Theme = 'light' | 'dark';
const KEY = 'tandem-console-theme';

function stored(): Theme | undefined {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : undefined;
  } catch {
    return undefined; // storage refused (private mode, policy): the system's choice then
  }
}

export function currentTheme(): Theme {
  return stored() ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
}

/** Puts the remembered choice on <html> (Pico reads data-theme); none leaves Pico to follow the system. */
export function applyStoredTheme(): void {
  const theme = stored();
  if (theme) document.documentElement.dataset.theme = theme;
}

export function setTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // kept for this page only
  }
}
