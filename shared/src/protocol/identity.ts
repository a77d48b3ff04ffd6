/**
 * The extension's identity. The public key goes into the manifest (`key`), which pins the id; the relay's
 * gateway accepts sockets whose Origin is chrome-extension://<EXTENSION_ID>. Re-keying: see extension/README.md.
 */
export const EXTENSION_PUBLIC_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA4T5EM9aU8c0swOdKMceGRP63LZ8w9YEgY1zUQju3J8hRZJeLA3DyLOdVr7p40P/s8g7TFEwtbHT1Ux01JbAFg3o+5CGokFWTANX/0vxQ+Bby2xECQoiIQxxPcqYIkZ4IB1xM1gHTkDckcsvFcdUTjC3Mxna0lIYHOlz/zmKIFp3nmQOhHN29bHpLEg5rxR7+jEIwYAsEGzP8UoLYSVdyRJVlogGadV7axvxEdRS2XSt2Ml3CDlpwRAz3ZuGYNw+AMy7MIC7FP6UUZzUR61t0W2JRZ4f0l3hLWf9iy2QUaOjJZqJeGr1uR3KlWMlr9uetBGTYt9aQUxvowT+Wvs8djwIDAQAB';

/** Derived from EXTENSION_PUBLIC_KEY: sha256 of the DER key, first 32 hex digits mapped 0-f → a-p. */
export const EXTENSION_ID = 'gedeafdffjkdnmkkjgneamcbggcfminc';
