import fs from 'node:fs';
import path from 'node:path';
import { printedSchema } from '../schema.ts';

/** `npm run schema:print` writes schema.graphql; `npm run schema:check` fails when it is out of date. */
const file = path.join(import.meta.dirname, '..', '..', 'schema.graphql');
const current = printedSchema();
if (process.argv.includes('--check')) {
  const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (committed !== current) {
    console.error('schema.graphql is out of date: run `npm run schema:print` and commit it');
    process.exit(1);
  }
  console.log('schema.graphql is up to date');
} else {
  fs.writeFileSync(file, current);
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
}
