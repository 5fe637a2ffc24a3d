// Entry point of the renderer bundle.
import './app/zod-without-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { boot } from './app/boot.ts';

const feed = boot();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App feed={feed} />
  </StrictMode>,
);
