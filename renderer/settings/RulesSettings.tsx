// Settings › Malware engine › your own YARA rules (issue 28 §4): import rule files or a folder,
// each rule checked by ClamAV's own loader in the core; the refused ones listed with file, line
// and why (ClamAV's own words beside, marked English); the imported ones listed, each removable.
import { useEffect, useState, type ReactElement } from 'react';
import { RULE_WORDS, type RulesImport, type RuleView } from '../../shared/rules/rules-api.ts';
import { displayName } from '../../shared/display-name.ts';
import { TOOL_LANGUAGE } from '../app/tool-said.ts';
import { api, call } from '../bridge/api.ts';
import { useTranslator } from '../i18n/use-translator.ts';

export function RulesSettings(): ReactElement {
  const { locale } = useTranslator();
  const words = RULE_WORDS[locale];
  const [rules, setRules] = useState<RuleView[] | null>(null);
  const [last, setLast] = useState<RulesImport | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void call(api.rules.list()).then((listed) => {
      if (live && listed) setRules(listed);
    });
    return () => {
      live = false;
    };
  }, []);
  const importFrom = async (kind: 'files' | 'folder') => {
    const picked = await call(api.files.pick(kind));
    if (!picked || picked.length === 0) return;
    setBusy(true);
    const outcome = await call(api.rules.import(picked));
    setBusy(false);
    if (!outcome) return;
    setLast(outcome);
    setRules(outcome.rules);
  };
  const remove = async (name: string) => {
    const left = await call(api.rules.remove(name));
    if (left) setRules(left);
  };
  return (
    <section className="rules-settings" aria-labelledby="rules-title" data-testid="rules-settings" aria-busy={busy}>
      <h3 id="rules-title">{words.title}</h3>
      <p className="muted small">{words.intro}</p>
      <div className="field-row">
        <button type="button" className="button" disabled={busy} onClick={() => void importFrom('files')} data-testid="rules-import-files">
          {words.importFiles}
        </button>
        <button type="button" className="button button--quiet" disabled={busy} onClick={() => void importFrom('folder')}>
          {words.importFolder}
        </button>
      </div>
      {last ? <ImportOutcome outcome={last} /> : null}
      {rules === null ? null : rules.length === 0 ? (
        <p className="muted" data-testid="rules-none">{words.none}</p>
      ) : (
        <ul className="facts-list" data-testid="rules-list">
          {rules.map((rule) => (
            <li key={`${rule.name}-${rule.file}`}>
              <bdi className="mono">{rule.name}</bdi> <span className="muted">({displayName(words.where(rule.file, rule.line))})</span>{' '}
              <button type="button" className="button button--small button--quiet" onClick={() => void remove(rule.name)} aria-label={words.remove(rule.name)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ImportOutcome({ outcome }: { outcome: RulesImport }): ReactElement {
  const { locale } = useTranslator();
  const words = RULE_WORDS[locale];
  return (
    <div role="status" data-testid="rules-outcome">
      <p>{words.accepted(outcome.accepted.length)}</p>
      {outcome.refused.length > 0 ? (
        <>
          <h4>{words.refusedTitle}</h4>
          <ul className="facts-list" data-testid="rules-refused">
            {outcome.refused.map((rule) => (
              <li key={`${rule.file}:${rule.line}:${rule.name ?? ''}`} data-code={rule.code}>
                <bdi className="mono">{rule.name ?? '—'}</bdi> ({displayName(words.where(rule.file, rule.line))}): {words.why[rule.code]}.{' '}
                <span className="muted">
                  {words.clamav} <span lang={TOOL_LANGUAGE}>{rule.detail}</span>
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
