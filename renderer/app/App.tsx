// The window: top bar (sections, queue), threat banner, notices and the section.
// The scans section stays mounted while settings show, so the list keeps its place.
import { useEffect, type ReactElement } from 'react';
import { DialogHost } from '../dialogs/DialogHost.tsx';
import { useTranslator } from '../i18n/use-translator.ts';
import { ShieldIcon } from '../icons/icons.tsx';
import type { ScanFeed } from '../scans/scan-feed.ts';
import { ScansView } from '../scans/ScansView.tsx';
import { SettingsView } from '../settings/SettingsView.tsx';
import { OverviewView } from '../overview/OverviewView.tsx';
import type { Section } from '../store/view-slice.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { NoticeLine } from './NoticeLine.tsx';
import { QueueCounts } from './QueueCounts.tsx';
import { StartupWarnings } from './StartupWarnings.tsx';
import { ThreatBanner } from './ThreatBanner.tsx';

export function App({ feed }: { feed: ScanFeed }): ReactElement {
  const { t, locale } = useTranslator();
  const section = useVerdict((state) => state.section);
  const showSection = useVerdict((state) => state.showSection);

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const tab = (target: Section, label: string): ReactElement => (
    <button type="button" className="nav__item" aria-current={section === target ? 'page' : undefined} onClick={() => showSection(target)} data-section={target}>
      {label}
    </button>
  );

  return (
    <div className="app">
      <header className="topbar">
        <div className="brand">
          <ShieldIcon className="brand__icon" />
          <span className="brand__name">{t('app.title')}</span>
        </div>
        <nav className="nav" aria-label={t('nav.label')}>
          {tab('scans', t('nav.scans'))}
          {tab('overview', t('nav.overview'))}
          {tab('settings', t('nav.settings'))}
        </nav>
        <QueueCounts />
      </header>
      <ThreatBanner />
      <StartupWarnings />
      <NoticeLine />
      <main className="main">
        <div className="section" hidden={section !== 'scans'}>
          <h1 className="visually-hidden">{t('nav.scans')}</h1>
          <ScansView feed={feed} />
        </div>
        {section === 'overview' ? (
          // Pictures and hidden tables only: focusable, so the keyboard can scroll it (axe's scrollable-region-focusable).
          <div className="section section--scroll" tabIndex={0} role="region" aria-label={t('nav.overview')}>
            <OverviewView />
          </div>
        ) : null}
        {section === 'settings' ? (
          <div className="section section--scroll">
            <SettingsView />
          </div>
        ) : null}
      </main>
      <DialogHost />
    </div>
  );
}
