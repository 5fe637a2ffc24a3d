// The bench report: one table (Markdown, so it can go into the README as is)
// and the same as JSON. Targets are evaluated here; they never decide the exit
// code (benchmarks report, tests decide).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { Metric, Target } from './cases/bench-case.ts';

export interface CaseResult {
  /** Its place in the issue's list (1–10), whatever --only selected. */
  number: number;
  id: string;
  title: string;
  status: 'measured' | 'skipped' | 'error';
  /** Why it was skipped or failed. */
  reason?: string;
  reps: number;
  seconds: number;
  metrics: Metric[];
}

export interface BenchReport {
  date: string;
  mode: 'full' | 'quick';
  machine: { cpus: number; cpuModel: string; memoryGiB: number; os: string; node: string; loadAverage: { start: number[]; end: number[] } };
  cases: CaseResult[];
}

export type Outcome = 'met' | 'missed' | null;

export function evaluate(metric: Metric): Outcome {
  const target = metric.target;
  if (!target) return null;
  const value = target.on === 'ours' ? metric.ours : target.on === 'ratio' ? metric.ratio : metric.peer === null ? null : metric.ours - metric.peer;
  if (value === null || !Number.isFinite(value)) return 'missed';
  return compare(value, target) ? 'met' : 'missed';
}

function compare(value: number, target: Target): boolean {
  if (target.op === '<') return value < target.value;
  if (target.op === '<=') return value <= target.value;
  return value >= target.value;
}

/** Three significant-ish digits: 1234 → 1,234; 12.3; 1.23; 0.012. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  const decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 0.1 || magnitude === 0 ? 2 : 3;
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

const withUnit = (value: number, unit: string) => `${formatNumber(value)} ${unit}`;

/** Two decimals, or three where two would look like the target itself (1.152 vs ≤ 1.15). */
function formatRatio(ratio: number, target: Target | null): string {
  const short = ratio.toFixed(2);
  return target?.on === 'ratio' && short === target.value.toFixed(2) && ratio !== target.value ? ratio.toFixed(3) : short;
}

export function formatTable(report: BenchReport): string {
  const rows: string[][] = [['#', 'case', 'metric', 'ours', 'peer', 'ratio', 'target', 'result']];
  for (const result of report.cases) {
    const number = String(result.number);
    if (result.status !== 'measured') {
      rows.push([number, result.title, `${result.status.toUpperCase()}: ${result.reason ?? ''}`, '—', '—', '—', '—', result.status]);
      continue;
    }
    result.metrics.forEach((metric, row) => {
      rows.push([
        row === 0 ? number : '',
        row === 0 ? result.title : '',
        metric.name,
        withUnit(metric.ours, metric.unit),
        metric.peer === null ? '—' : `${withUnit(metric.peer, metric.unit)}${metric.peerLabel ? ` (${metric.peerLabel})` : ''}`,
        metric.ratio === null ? '—' : formatRatio(metric.ratio, metric.target),
        metric.target?.text ?? '—',
        evaluate(metric) ?? '—',
      ]);
    });
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

/** The notes under the table: what each figure is, where it needs a word. */
export function formatNotes(report: BenchReport): string {
  const notes: string[] = [];
  for (const result of report.cases) {
    for (const metric of result.metrics) {
      if (metric.note) notes.push(`${result.number}. ${result.title}, ${metric.name}: ${metric.note}`);
    }
  }
  return notes.join('\n');
}

export function toJson(report: BenchReport): string {
  return `${JSON.stringify(
    { ...report, cases: report.cases.map((result) => ({ ...result, metrics: result.metrics.map((metric) => ({ ...metric, result: evaluate(metric) })) })) },
    null,
    2,
  )}\n`;
}

export function describeMachine(loadAtStart: number[]): BenchReport['machine'] {
  const cpus = os.cpus();
  let osName = `${os.type()} ${os.release()}`;
  try {
    osName = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? osName;
  } catch {
    // not Linux, or no os-release: keep the kernel's name
  }
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
    os: osName,
    node: process.version,
    loadAverage: { start: loadAtStart, end: os.loadavg().map((load) => Number(load.toFixed(2))) },
  };
}
