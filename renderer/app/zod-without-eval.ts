// Imported first by main.tsx: zod 4 compiles object parsers with `new Function`
// unless told not to, which the CSP (`script-src 'self'`, no 'unsafe-eval')
// forbids. It must run before any schema in shared/ is created.
import { z } from 'zod';

z.config({ jitless: true });
