/** The /config bundle: hydrates the sign-in page, or renders the admin shell. */
import './admin/admin.css';
import './admin/catalog/catalog.css';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createElement } from 'react';
import { LoginPage } from './pages/LoginPage.js';
import { AdminShell } from './pages/AdminShell.js';

const root = document.getElementById('admin-root');
if (root) {
  const page = root.dataset.page;
  if (page === 'login') {
    const props = JSON.parse(root.dataset.props ?? '{}');
    hydrateRoot(root, createElement(LoginPage, props));
  } else {
    createRoot(root).render(createElement(AdminShell));
  }
}
