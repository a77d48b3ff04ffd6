import { render } from 'preact';
import { App } from './app';
import { loadSignedIn } from './auth';
import { applyStoredTheme } from './theme';

applyStoredTheme();
void loadSignedIn();
const root = document.getElementById('app');
if (root) render(<App />, root);
