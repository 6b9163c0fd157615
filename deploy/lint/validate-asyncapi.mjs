// Validates an AsyncAPI document with the official parser (@asyncapi/parser, pinned in package.json): the
// AsyncAPI JSON Schema and the parser's built-in Spectral rules (the same core the AsyncAPI CLI's `validate` runs).
// Every diagnostic is printed; any error or warning fails (exit 1), informational hints and style notes do not.
//   node validate-asyncapi.mjs <file.yaml>
import { Parser, fromFile } from '@asyncapi/parser';

const file = process.argv[2];
if (!file) {
  console.error('usage: node validate-asyncapi.mjs <asyncapi.yaml>');
  process.exit(2);
}
const severities = ['error', 'warning', 'info', 'hint'];
const parser = new Parser();
const { document, diagnostics } = await fromFile(parser, file).parse();
let failing = 0;
for (const d of diagnostics) {
  const where = d.range ? `${d.range.start.line + 1}:${d.range.start.character + 1}` : '-';
  const path = d.path && d.path.length ? d.path.join('.') : '';
  const severity = severities[d.severity] ?? String(d.severity);
  if (d.severity <= 1) {
    failing++;
  }
  console.log(`${file}:${where} ${severity} ${d.code}: ${d.message}${path ? ` (at ${path})` : ''}`);
}
if (!document || failing > 0) {
  console.log(`${file}: ${failing} error(s) or warning(s)`);
  process.exit(1);
}
console.log(`${file}: valid AsyncAPI ${document.version()}`);
