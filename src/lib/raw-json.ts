import { randomUUID } from 'node:crypto';

/**
 * A JSON value already written as text, which a `JSON` field may answer instead of the value itself:
 * a large answer made of kept fragments (the page tree: src/modules/content/page-tree-text.ts) is then
 * never parsed back into objects only to be serialized again.
 *
 * The REST door passes the text through as it is (`RawJsonSlots`); any other serializer (GraphQL's
 * answer, a test) gets the value parsed, through `toJSON`, so the JSON is the same at every door.
 */
export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/**
 * Raw JSON values of one answer, each swapped for a token string before the answer is serialized
 * (`take`) and put back in place of that token's JSON in the serialized text (`fill`). A token is a
 * fresh random UUID: no text of the answer can hold it.
 */
export class RawJsonSlots {
  private readonly slots = new Map<string, string>();

  get size(): number {
    return this.slots.size;
  }

  take(value: RawJson): string {
    const token = `raw-json:${randomUUID()}`;
    this.slots.set(JSON.stringify(token), value.text);
    return token;
  }

  fill(serialized: string): string {
    let text = serialized;
    // A function as replacement: the raw text is inserted as it is (no `$&` patterns).
    for (const [quotedToken, raw] of this.slots) text = text.replace(quotedToken, () => raw);
    return text;
  }
}
