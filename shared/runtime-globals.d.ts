// WHATWG globals that exist in every runtime shared/ runs in (Node, Chromium),
// declared narrowly so shared/ needs neither the DOM lib nor @types/node.
declare class URL {
  constructor(input: string, base?: string);
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly host: string;
  readonly hostname: string;
  readonly origin: string;
  readonly search: string;
  readonly hash: string;
  readonly pathname: string;
  toString(): string;
}
