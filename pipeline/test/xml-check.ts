// Test helper: is a document well-formed XML 1.0? fast-xml-parser's XMLValidator checks the markup (tags, attributes,
// entities) but not the characters, so the Char production (XML 1.0 §2.2) is checked beside it: a BEL or NUL in a
// name made every feed reader refuse the whole feed (issue 24).
import { XMLValidator } from 'fast-xml-parser';

const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/** Why `text` is not well-formed XML, or null. */
export function xmlProblem(text: string): string | null {
  const bad = NOT_XML_CHAR.exec(text);
  if (bad) {
    const line = text.slice(0, bad.index).split('\n').length;
    return `character U+${bad[0].codePointAt(0)!.toString(16).padStart(4, '0')} on line ${line} is not allowed in XML`;
  }
  const v = XMLValidator.validate(text);
  return v === true ? null : `${v.err.code} on line ${v.err.line}: ${v.err.msg}`;
}
