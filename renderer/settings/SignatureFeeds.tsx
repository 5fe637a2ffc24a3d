// Settings › Signature feeds (issue 28 §3): extra signatures for Verdict's own clamd. Each feed
// switches on and off, with its health (signatures, last update, last error in the UI's words over
// the program's) and its terms; a feed of one's own is added by URL, checked here as the core
// checks it (shared/feeds/feed.ts), and removed.
import { useEffect, useId, useState, type FormEvent, type ReactElement } from 'react';
import { displayName } from '../../shared/display-name.ts';
import { checkFeedUrl, type FeedList, type FeedUrlProblem, type FeedView } from '../../shared/feeds/feed.ts';
import type { Result } from '../../shared/result.ts';
import { ToolWords } from '../app/ToolWords.tsx';
import { api } from '../bridge/api.ts';
import { formatCount, formatDateTime } from '../i18n/format.ts';
import type { MessageKey, Translator } from '../i18n/messages.ts';
import { useTranslator } from '../i18n/use-translator.ts';

const FETCH_ERRORS = ['http_status', 'too_large', 'timeout', 'network', 'write_failed', 'does_not_load', 'checker_missing'] as const;

export function SignatureFeeds(): ReactElement {
  const { t } = useTranslator();
  const [list, setList] = useState<FeedList | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    void api.feeds.list().then((result) => result.ok && setList(result.value));
  }, []);
  /** Runs a change; the list it answers replaces the shown one. */
  const run = async (call: () => Promise<Result<FeedList>>): Promise<Result<FeedList>> => {
    setBusy(true);
    setFailure(null);
    const result = await call();
    setBusy(false);
    if (result.ok) setList(result.value);
    else if (result.error.code !== 'invalid_feed_url') setFailure(result.error.message);
    return result;
  };
  return (
    <section className="card" aria-labelledby="feeds-title" data-testid="signature-feeds" data-focus-scope aria-busy={busy}>
      <h2 id="feeds-title">{t('feeds.title')}</h2>
      <p className="muted">{t('feeds.hint')}</p>
      {list?.blocked ? (
        <p className="notice notice--info" data-testid="feeds-blocked">
          {t('feeds.blocked')}
        </p>
      ) : null}
      {list === null ? null : (
        <ul className="feeds">
          {list.feeds.map((feed) => (
            <FeedItem key={feed.id} feed={feed} busy={busy} onEnable={(on) => void run(() => api.feeds.setEnabled(feed.id, on))} onRemove={() => void run(() => api.feeds.remove(feed.id))} />
          ))}
        </ul>
      )}
      <AddFeed busy={busy} onAdd={(url, name) => run(() => api.feeds.add(name ? { url, name } : { url }))} />
      <div className="field-row">
        <button type="button" className="button" disabled={busy} onClick={() => void run(() => api.feeds.update())} data-testid="feeds-update">
          {busy ? t('feeds.updating') : t('feeds.updateNow')}
        </button>
      </div>
      {failure ? (
        <p className="field-error" role="alert">
          {t('feeds.failed')} <ToolWords said={{ tool: 'core', words: failure }} />
        </p>
      ) : null}
    </section>
  );
}

function FeedItem({ feed, busy, onEnable, onRemove }: { feed: FeedView; busy: boolean; onEnable: (on: boolean) => void; onRemove: () => void }): ReactElement {
  const translator = useTranslator();
  const { t } = translator;
  const error = feed.health.lastError;
  return (
    <li className="feeds__item" data-testid="feed" data-feed={feed.id} data-enabled={feed.enabled}>
      <label className="choice">
        <input type="checkbox" checked={feed.enabled} disabled={busy} onChange={(event) => onEnable(event.target.checked)} />
        <span>{displayName(feed.name)}</span>
      </label>
      <p className="muted" data-testid="feed-health">
        {healthText(feed, translator)}
      </p>
      {error ? (
        <p className="field-error" data-testid="feed-error" data-code={error.code}>
          {t(errorKey(error.code))} <ToolWords said={{ tool: error.code === 'does_not_load' ? 'clamd' : 'system', words: `${error.detail} (${error.url})` }} />
        </p>
      ) : null}
      {feed.preset === null ? <p className="muted mono break">{feed.urls.join(' ')}</p> : null}
      {feed.licence ? (
        <p className="muted">
          {/* Opened by the OS browser (the shell's external-link allow list: http(s) only). */}
          {t('feeds.terms')}{' '}
          <a className="break" href={feed.licence} target="_blank" rel="noreferrer noopener">
            {feed.licence}
          </a>
        </p>
      ) : null}
      {feed.preset === null ? (
        <button type="button" className="button button--small" disabled={busy} onClick={onRemove} aria-label={t('feeds.removeLabel', { name: displayName(feed.name) })}>
          {t('feeds.remove')}
        </button>
      ) : null}
    </li>
  );
}

function healthText(feed: FeedView, { t, tn, locale }: Translator): string {
  const { signatures, lastUpdate } = feed.health;
  if (signatures === null) return feed.enabled ? t('feeds.notInstalled') : t('feeds.off');
  const count = tn('feeds.signatures', signatures, { count: formatCount(locale, signatures) });
  return lastUpdate ? t('feeds.installed', { signatures: count, date: formatDateTime(locale, lastUpdate) }) : count;
}

function errorKey(code: string): MessageKey {
  if (code.startsWith('url_')) return 'feeds.error.url';
  return (FETCH_ERRORS as readonly string[]).includes(code) ? (`feeds.error.${code}` as MessageKey) : 'feeds.error.other';
}

function AddFeed({ busy, onAdd }: { busy: boolean; onAdd: (url: string, name: string) => Promise<Result<FeedList>> }): ReactElement {
  const { t } = useTranslator();
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<{ problem: FeedUrlProblem; detail: string } | null>(null);
  const urlId = useId();
  const nameId = useId();
  const errorId = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkFeedUrl(url);
    if (!checked.ok) return setProblem({ problem: checked.problem, detail: checked.detail });
    setProblem(null);
    const result = await onAdd(url.trim(), name.trim());
    if (result.ok) {
      setUrl('');
      setName('');
    } else if (result.error.code === 'invalid_feed_url') {
      setProblem({ problem: String(result.error.params?.problem ?? 'not_a_url') as FeedUrlProblem, detail: String(result.error.params?.detail ?? '') });
    }
  };
  return (
    <>
      {/* noValidate: our own message (specific, in the UI language) instead of the browser bubble. */}
      <form className="field-row" onSubmit={(event) => void submit(event)} noValidate data-testid="feed-add">
        <label className="field field--grow" htmlFor={urlId}>
          <span className="field__label">{t('feeds.url')}</span>
          <input
            id={urlId}
            type="url"
            inputMode="url"
            value={url}
            placeholder="https://example.org/signatures.ndb"
            onChange={(event) => setUrl(event.target.value)}
            aria-invalid={problem !== null}
            aria-describedby={problem ? errorId : undefined}
            spellCheck={false}
          />
        </label>
        <label className="field" htmlFor={nameId}>
          <span className="field__label">{t('feeds.name')}</span>
          <input id={nameId} type="text" value={name} maxLength={120} onChange={(event) => setName(event.target.value)} />
        </label>
        <button type="submit" className="button" disabled={busy}>
          {t('feeds.add')}
        </button>
      </form>
      {problem ? (
        <p id={errorId} className="field-error" role="alert" data-testid="feed-url-error">
          {t(`feeds.url.${problem.problem}`, { detail: problem.detail })}
        </p>
      ) : null}
    </>
  );
}
