// The app's identity, shared by the code and checked against electron-builder.yml
// by the packaging test (Windows notifications need the same app id).
export const APP_ID = 'app.verdict.desktop';
export const PRODUCT_NAME = 'Verdict';
