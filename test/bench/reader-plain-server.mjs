// The baseline of test/bench/reader.ts: a plain node:http server answering every request with the same
// bytes and headers from memory — the bytes of one published page as our server sent them (brotli), with
// the headers it sent them with (content-type, content-encoding, etag). PORT, BODY_FILE, HEADERS (JSON).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.env.BODY_FILE);
const headers = { ...JSON.parse(process.env.HEADERS ?? '{}'), 'content-length': String(body.length) };

createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
