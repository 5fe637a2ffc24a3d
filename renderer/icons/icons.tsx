// Inline SVG icons (no external resources under the strict CSP). Decorative:
// every icon sits next to text that says the same, so they are aria-hidden.
import type { ReactElement, ReactNode } from 'react';

interface IconProps {
  className?: string;
}

function Svg({ className, children }: IconProps & { children: ReactNode }): ReactElement {
  return (
    <svg className={`icon ${className ?? ''}`} viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

/** A shield with a cross: unsafe. */
export const ThreatIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <path d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5z" fill="currentColor" />
    <path d="m9 9 6 6m0-6-6 6" stroke="var(--icon-cut)" strokeWidth="2.2" strokeLinecap="round" fill="none" />
  </Svg>
);

/** A check in a circle: clean. */
export const CleanIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <circle cx="12" cy="12" r="10" fill="currentColor" />
    <path d="m7.5 12.5 3 3 6-6.5" stroke="var(--icon-cut)" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" fill="none" />
  </Svg>
);

/** A triangle with an exclamation mark: could not scan. */
export const WarningIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <path d="M12 3 1.8 20.5h20.4z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
    <path d="M12 9.5v5" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    <circle cx="12" cy="17.5" r="1.3" fill="currentColor" />
  </Svg>
);

/** A dotted circle with a small check, in outline only: clean by basic checks only, never the filled "clean" circle. */
export const BasicOnlyIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" strokeDasharray="3 2.6" />
    <path d="m9 12.5 2 2 4-4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" fill="none" />
  </Svg>
);

/** A circle filled half: scanned in part (over a scan limit, or encrypted), neither the clean check nor a threat. */
export const PartialIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
    <path d="M12 3a9 9 0 0 1 0 18z" fill="currentColor" />
  </Svg>
);

/** A clock: pending. */
export const ClockIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
    <path d="M12 7v5l3.5 2" stroke="currentColor" strokeWidth="2" strokeLinecap="round" fill="none" />
  </Svg>
);

/** A circle with a bar: skipped. */
export const SkipIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
    <path d="M7 12h10" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
  </Svg>
);

export const FileIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <path d="M6 2h8l5 5v15H6z" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
    <path d="M14 2v5h5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
  </Svg>
);

export const FolderIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <path d="M2.5 5.5h7l2 2.5h10v11.5h-19z" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
  </Svg>
);

export const UploadIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <path d="M12 16V4m0 0-5 5m5-5 5 5M4 20h16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
  </Svg>
);

export const CloseIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <path d="m6 6 12 12M18 6 6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
  </Svg>
);

export const CopyIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <rect x="8" y="8" width="12" height="13" rx="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
    <path d="M16 8V4H4v13h4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
  </Svg>
);

export const ShieldIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <path d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5z" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
    <path d="m8.5 12 2.5 2.5 4.5-5" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" fill="none" />
  </Svg>
);

/** A shield with a check: content the user allowed (not the round "clean" mark). */
export const AllowedIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <path d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
    <path d="m8.5 12 2.5 2.5 4.5-5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" fill="none" />
  </Svg>
);

/** A padlock: quarantine (locked away, not deleted). */
export const QuarantineIcon = (props: IconProps): ReactElement => (
  <Svg {...props}>
    <rect x="5" y="10.5" width="14" height="10" rx="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
    <path d="M8.5 10.5V7.5a3.5 3.5 0 0 1 7 0v3" fill="none" stroke="currentColor" strokeWidth="1.8" />
  </Svg>
);
