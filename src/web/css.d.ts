/** Stylesheets imported for their side effect; Vite bundles them into the entry's CSS. */
declare module '*.css';
