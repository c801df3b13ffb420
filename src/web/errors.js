// Errors of the browser driver, with the stable `code` the API documents.

/** An Error with a stable `code`, as the API documents. */
export function fail(message, code) {
  const e = new Error(message);
  e.code = code;
  return e;
}

/** A network error that retrying cannot cure (a misconfigured host). */
export function fatal(message) {
  const e = fail(message, 'network');
  e.fatal = true;
  return e;
}
