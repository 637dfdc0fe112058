/** Server rendering of the /config pages that must work before any script runs. */
import { renderToString } from 'react-dom/server';
import { createElement } from 'react';
import { LoginPage, type LoginPageProps } from './pages/LoginPage.js';

export function renderLoginPage(props: LoginPageProps): string {
  return renderToString(createElement(LoginPage, props));
}
